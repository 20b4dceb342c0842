"""The platform's own texts (the engine's shared refusals, the session's, the cogs'
refusals) come from the catalogues and read as they always did in Spanish and English."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.common.i18n import said, text_choice
from rules.core import GameOver, IllegalAction, InvalidAction, NotYourTurn, RuleError, StaleAction
from rules.phrases import Phrases
from rules.registry import engine as get_engine
from services.session import Refusal, SessionService
from storage import Store

ALICE, BOB = 101, 202


def _both(error: RuleError) -> tuple[str, str]:
    return error.message("es"), error.message("en")


def test_the_engine_refusals_read_in_both_languages() -> None:
    eng = get_engine("rey_hierofante")
    with pytest.raises(IllegalAction) as many:
        eng.setup(3, {}, seed=1)
    assert _both(many.value) == ("Rey y Hierofante se juega con 2 jugadores.",
                                 "King & Hierophant takes 2 players.")
    state = eng.setup(2, {}, seed=1)
    seat = next(iter(eng.pending(state)))
    with pytest.raises(NotYourTurn) as waiting:
        eng.check(state, 1 - seat)
    assert _both(waiting.value) == ("Ahora no te toca decidir nada en esta partida.",
                                    "You have nothing to decide in this game right now.")
    with pytest.raises(StaleAction) as stale:
        eng.check(state, seat, version=5)
    assert _both(stale.value) == ("La partida ha cambiado desde que elegiste; vuelve a mirar el tablero.",
                                  "The game has moved on since you chose; look at the board again.")
    with pytest.raises(InvalidAction) as malformed:
        eng.parse_action({"kind": "fly"})
    es, en = _both(malformed.value)
    assert es.startswith("Jugada mal formada: ") and en.startswith("Malformed move: ")
    assert es.removeprefix("Jugada mal formada: ") == en.removeprefix("Malformed move: ")
    over = state.model_copy(update={"finished": True})
    with pytest.raises(GameOver) as done:
        eng.check(over, seat)
    assert _both(done.value) == ("La partida ya ha terminado.", "The game is already over.")
    # describe's default is the action itself, in every language
    label = super(type(eng), eng).describe(state, seat, eng.legal_actions(state, seat)[0])
    assert label.get("es") == label.get("en") == label.get("fr") and label.en.startswith("{")


@pytest.fixture
async def service(tmp_path: Path):
    store = await Store.open(tmp_path / "tablero.db")
    yield SessionService(store, seed_source=lambda: 1)
    await store.close()


async def test_the_session_refusals_are_whole_sentences(service: SessionService) -> None:
    g = await service.create(guild_id=1, channel_id=9, game_id="rey_hierofante", options={},
                             host_id=ALICE, host_name="alice", locale="es")
    await service.join(g.id, user_id=BOB, name="bob", locale="en")
    with pytest.raises(Refusal) as host:
        await service.add_ai(g.id, by=BOB)
    assert _both(host.value) == ("Solo quien creó la partida puede añadir jugadores automáticos.",
                                 "Only the player who created the game can add AI players.")
    with pytest.raises(Refusal) as start:
        await service.start(g.id, by=BOB)
    assert _both(start.value) == ("Solo quien creó la partida puede empezarla.",
                                  "Only the player who created the game can start it.")
    with pytest.raises(Refusal) as full:
        await service.join(g.id, user_id=303, name="carol", locale="es")
    assert _both(full.value) == ("La partida está completa (2 jugadores).", "The game is full (2 players).")
    await service.leave(g.id, user_id=BOB)
    with pytest.raises(Refusal) as alone:
        await service.start(g.id, by=ALICE)
    assert _both(alone.value) == ("Faltan jugadores: hacen falta al menos 2 y hay 1.",
                                  "Not enough players: at least 2 are needed, there is 1.")


def test_vacation_days_are_counted_in_number() -> None:
    book = Phrases("core")
    wording = ("You only have {n} day of vacation left this year (and {most} at most in a row).",
               "You only have {n} days of vacation left this year (and {most} at most in a row).")
    assert book.n(1, *wording, most=60).es == "Solo te queda 1 día de vacaciones este año (y como mucho 60 seguidos)."
    assert book.n(3, *wording, most=60).en == "You only have 3 days of vacation left this year (and 60 at most in a row)."


def test_a_cog_refusal_reads_in_the_readers_language() -> None:
    refused = Refusal(said("err.bad_clock", value="5m", options=lambda lang: {"es": "uno", "en": "one"}[lang]))
    es, en = _both(refused)
    assert "5m" in es and "uno" in es and "5m" in en and "one" in en and es != en
    assert str(refused) == en
    title = get_engine("rey_hierofante").title
    choice = text_choice(title, "rey_hierofante")
    assert choice.name == "King & Hierophant" and choice.value == "rey_hierofante"
