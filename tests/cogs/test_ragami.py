"""Ragami in Discord without Discord: its picture, board fields, hands and names."""

from __future__ import annotations

import random

from cogs.common.present import ui_for
from cogs.pictures.ragami import render_board
from cogs.ragami import UI
from rules.core import Text
from rules.ragami.cards import card_name
from rules.ragami.engine import RgEngine
from rules.ragami.model import RgState
from services.session import Game
from storage import GameRow, SeatRow
from tests.rules.test_ragami_playouts import perturbed

E = RgEngine()
USERS = (101, 202, 303, 404)
NAMES = ("alice", "bob", "carol", "dave")
PNG = b"\x89PNG\r\n\x1a\n"


def game(
    state: RgState | None = None, *, seats: int = 3, locale: str = "en", seed: int = 7
) -> Game:
    """A Ragami game around ``state`` (a fresh seeded one by default)."""
    state = state or E.setup(seats, {}, seed)
    row = GameRow(
        id=1,
        guild_id=5,
        channel_id=900,
        game_id="ragami",
        options={},
        status="active",
        seed=seed,
        version=state.version,
        state=None,
        host_id=USERS[0],
        locale=locale,
        board_channel_id=900,
        board_message_id=None,
        created_at=0.0,
        updated_at=0.0,
    )
    rows = [
        SeatRow(
            game=1, seat=i, user_id=USERS[i], ai=False, name=NAMES[i], locale=None, dm_closed=False
        )
        for i in range(seats)
    ]
    return Game(row=row, seats=rows, engine=E, state=state)


def advance(state: RgState, moves: int, seed: int = 1) -> RgState:
    """The built-in player moves for everybody ``moves`` times (or to the end)."""
    for _ in range(moves):
        if state.finished:
            break
        seat = min(E.pending(state))
        state, _ = E.apply(state, seat, E.ai_action(state, seat))
    return state


def test_the_ui_is_registered() -> None:
    assert ui_for("ragami") is UI


def test_the_picture_draws_every_stage_and_only_public_things() -> None:
    r = random.Random(3)
    for n in (2, 3, 4):
        s = E.setup(n, {}, 20 + n)
        for step in range(6):
            png = render_board(E.view(s, None), NAMES[:n], "es" if step % 2 else "en")
            assert png.startswith(PNG)
            # drawn from the public view only: hidden cards redrawn change nothing
            assert render_board(
                E.view(perturbed(s, None, r), None), NAMES[:n], "en"
            ) == render_board(E.view(s, None), NAMES[:n], "en")
            s = advance(s, 60)
        assert s.finished or s.round > 1


def test_ui_picture_only_for_the_public_board() -> None:
    g = game(advance(E.setup(3, {}, 4), 40))
    assert UI.picture(g, None, "es").startswith(PNG)
    assert UI.picture(g, 0, "es") is None


def test_names_replace_seat_numbers() -> None:
    g = game()
    text = Text(es="Jugador 2 (verde) pasa.", en="Player 2 (green) passes.")
    assert "**bob**" in UI.wording(g, text, "en")
    assert "**bob**" in UI.wording(g, text, "es")


def test_board_fields_show_scores_and_the_running_resolution() -> None:
    g = game(advance(E.setup(3, {}, 9), 30), locale="es")
    fields = UI.board_fields(g, "es", pictured=False)
    names = [f[0] for f in fields]
    assert names[:3] == ["Jugadores", "Conflictos", "Dados de Acción"]
    assert "<@101>" in fields[0][1] and "PV" in fields[0][1]


def test_private_lines_show_only_the_own_hand() -> None:
    s = advance(E.setup(3, {}, 11), 80)
    g = game(s)
    for seat in range(3):
        text = "\n".join(UI.private_lines(g, seat, "en"))
        for c in s.hands[seat]:
            assert card_name(c).en in text
        facts = UI.dm_facts(g, s, seat)
        assert facts == [f"hand={sorted(s.hands[seat])}", f"drawn={sorted(s.drawn[seat])}"]


def test_every_legal_action_has_a_label_in_both_languages() -> None:
    s = E.setup(4, {}, 13)
    g = game(s, seats=4)
    for _ in range(100):
        if s.finished:
            break
        g.state = s
        for seat in E.pending(s):
            for a in E.legal_actions(s, seat):
                for loc in ("es", "en"):
                    label = UI.label(g, seat, a, loc)
                    assert label and "{" not in label
        seat = min(E.pending(s))
        s, _ = E.apply(s, seat, E.ai_action(s, seat))
