"""A tournament's minimum record: sign-up refused, in the player's language, when the
player's reliability on the server falls short of it."""

from __future__ import annotations

import pytest

from services.reliability import Reliability, Requirements
from services.tournament import TournamentRefusal, TournamentService
from storage import Store
from tests.services.test_results import SessionTables
from tests.storage.test_store_reliability import ME, script_history

NEWCOMER = 12345


async def tournament(store: Store, asks: Requirements) -> tuple[TournamentService, int]:
    from services.session import SessionService

    svc = TournamentService(store, SessionTables(SessionService(store)))
    t = await svc.create(guild_id=1, channel_id=5, organiser_id=99, name="Copa", game_id="rey_hierofante",
                         format="swiss", table_size=2, seed=7, locale="es", requirements=asks)
    return svc, t.id


async def refusal(svc: TournamentService, tid: int, user: int) -> TournamentRefusal:
    with pytest.raises(TournamentRefusal) as why:
        await svc.enter(tid, user, "p")
    return why.value


def test_requirements_say_what_falls_short() -> None:
    asks = Requirements(min_finished=3, max_timeout_pct=10)
    assert asks.unmet(Reliability(finished=3, turns=10, late=1)) == []
    assert asks.unmet(Reliability(finished=2, turns=10, late=2)) == ["min_finished", "max_timeout_pct"]
    assert Requirements.from_json(asks.to_json()) == asks
    assert Requirements().to_json() is None and Requirements.from_json(None) == Requirements()


async def test_a_newcomer_is_refused_a_tournament_asking_for_finished_games(store: Store) -> None:
    await script_history(store)
    svc, tid = await tournament(store, Requirements(min_finished=1))
    why = await refusal(svc, tid, NEWCOMER)
    assert why.message("es") == "Este torneo pide al menos 1 partida terminada en este servidor; tienes 0."
    assert why.message("en") == "This tournament asks for at least 1 finished game on this server; you have 0."
    # the same check before a game asks anything more at sign-up (a Guerra de Mitos deck)
    with pytest.raises(TournamentRefusal):
        await svc.check_entry(await svc.require(tid), NEWCOMER)
    await svc.check_entry(await svc.require(tid), ME)
    await svc.enter(tid, ME, "me")  # one finished game on this server
    assert [e.user_id for e in await store.entrants(tid)] == [ME]


async def test_too_many_timeouts_refuse_the_sign_up_with_the_figures(store: Store) -> None:
    await script_history(store)
    svc, tid = await tournament(store, Requirements(max_timeout_pct=20))
    why = await refusal(svc, tid, ME)
    assert why.message("en") == ("This tournament asks that at most 20% of your turns ran out of time;"
                                 " yours: 33% (3 of 9).")
    assert why.message("es") == ("Este torneo pide que como mucho un 20% de tus turnos se hayan agotado"
                                 " sin jugar; el tuyo: 33% (3 de 9).")
    await svc.enter(tid, NEWCOMER, "new")  # no turns yet: nothing ran out
    both = await refusal(*await tournament(store, Requirements(min_finished=2, max_timeout_pct=20)), ME)
    assert both.message("en").startswith("This tournament asks for at least 2 finished games")
    assert "yours: 33% (3 of 9)." in both.message("en")
    svc, tid = await tournament(store, Requirements(min_finished=1, max_timeout_pct=40))
    await svc.enter(tid, ME, "me")
