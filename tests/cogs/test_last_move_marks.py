"""Every game's picture marks what the last move changed on the board."""

from __future__ import annotations

import dataclasses
import importlib
import io
import random
from typing import Any

import pytest
from PIL import Image

from cogs.common.last_change import NO_MARKS, LastChange
from cogs.common.present import ui_for
from cogs.pictures.common import LAST_MOVE
from rules.registry import engine
from services.session import Game
from storage import GameRow, SeatRow

NAMES = ["Ana", "Bruno", "Carla", "Dora"]
GAMES = [("rey_hierofante", 2), ("ragami", 2), ("ragami", 4), ("ankh_morpork", 3), ("rattus_cartus", 3),
         ("guerra_de_mitos", 2), ("guerra_de_mitos", 4)]


def _diff(a: int, b: int) -> frozenset[Any]:
    return frozenset() if a == b else frozenset({b})


def test_the_memo_marks_the_last_move_that_changed_the_board() -> None:
    memo = LastChange(size=8)
    assert memo.marks(1, None, 0, 10, _diff) == NO_MARKS  # nothing seen before: no marks
    assert memo.marks(1, None, 1, 11, _diff) == {11}
    assert memo.marks(1, None, 1, 11, _diff) == {11}  # the same version drawn again
    assert memo.marks(1, None, 2, 11, _diff) == {11}  # a move that changed nothing shown
    assert memo.marks(1, None, 3, 12, _diff) == {12}
    assert memo.marks(1, None, 1, 11, _diff) == NO_MARKS  # an older version (a replay frame)
    assert memo.marks(1, None, 4, 12, _diff) == {12}  # ...changed nothing here
    assert memo.marks(1, 0, 4, 12, _diff) == NO_MARKS  # each viewer has their own
    memo.forget(1)
    assert memo.marks(1, None, 5, 13, _diff) == NO_MARKS


def test_the_memo_keeps_only_the_most_recent_games() -> None:
    memo = LastChange(size=3)
    for game in range(10):
        memo.marks(game, None, 0, 0, _diff)
    assert len(memo._seen) == 3


def _picture(game_id: str, view: Any, changed: frozenset[Any]) -> Image.Image:
    mod = importlib.import_module(f"cogs.pictures.{game_id}")
    png = mod.render_board(view, NAMES[: len(getattr(view, "players", None) or getattr(view, "seats", None) or [0, 0])],
                           "es", changed=changed)
    return Image.open(io.BytesIO(png)).convert("RGB")


def _blue(im: Image.Image) -> int:
    return next((n for n, colour in im.getcolors(1 << 24) or () if colour == LAST_MOVE), 0)


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_what_a_move_changed_is_outlined_and_nothing_else(game_id: str, seats: int) -> None:
    """Over seeded random games: a move that changed the board gives marks, the picture
    with them has more of the outline's colour than without, and a picture of a move that
    changed nothing has none beyond its legend."""
    mod = importlib.import_module(f"cogs.pictures.{game_id}")
    eng = engine(game_id)
    marked = plain = 0
    for seed in range(1):
        rng = random.Random(seed)
        st = eng.setup(seats, {}, seed)
        for step in range(40):
            if st.finished:
                break
            before = eng.view(st, None)
            seat = sorted(eng.pending(st))[0]
            st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
            after = eng.view(st, None)
            changed = mod.changes(before, after)
            assert mod.changes(after, after) == frozenset()
            if step % 3:
                continue
            effect = getattr(after, "effect", None)
            if effect is not None and not after.finished:
                # Rey y Hierofante: a pending effect's gold goes over its square's outline.
                changed = changed - {effect.source, effect.origin}
            with_marks = _blue(_picture(game_id, after, changed))
            without = _blue(_picture(game_id, after, frozenset()))
            if changed:
                marked += 1
                assert with_marks > without, (game_id, seed, step, changed)
            else:
                plain += 1
                assert with_marks == without
    assert marked > 0


def test_a_placed_tile_is_the_square_marked_in_rey_y_hierofante() -> None:
    from cogs.pictures.rey_hierofante import changes

    eng = engine("rey_hierofante")
    st = eng.setup(2, {}, 3)
    while True:
        seat = sorted(eng.pending(st))[0]
        place = [a for a in eng.legal_actions(st, seat) if getattr(a, "kind", "") == "place"]
        if place:
            break
        st, _ = eng.apply(st, seat, eng.legal_actions(st, seat)[0])
    before = eng.view(st, None)
    st, _ = eng.apply(st, seat, place[0])
    assert place[0].square in changes(before, eng.view(st, None))


def _game(game_id: str, seats: int, state: Any) -> Game:
    row = GameRow(id=77, guild_id=5, channel_id=900, game_id=game_id, options={}, status="active", seed=1,
                  version=state.version, state=None, host_id=1, locale="es", board_channel_id=900,
                  board_message_id=None, created_at=0.0, updated_at=0.0)
    rows = [SeatRow(game=77, seat=i, user_id=100 + i, ai=False, name=NAMES[i], locale=None, dm_closed=False)
            for i in range(seats)]
    return Game(row=row, seats=rows, engine=engine(game_id), state=state)


@pytest.mark.parametrize(("game_id", "seats"), [("ragami", 2), ("ankh_morpork", 3), ("guerra_de_mitos", 2)])
def test_the_cards_picture_marks_the_move_between_two_pictures(game_id: str, seats: int) -> None:
    """Through the game's UI, as the card draws it: the first picture has no marks, the
    next one after a move that changed the board has."""
    importlib.import_module(f"cogs.{game_id}")  # registers the game's UI
    ui = ui_for(game_id)
    eng = engine(game_id)
    st = eng.setup(seats, {}, 5)
    g = _game(game_id, seats, st)
    first = Image.open(io.BytesIO(ui.picture(g, None, "es"))).convert("RGB")
    mod = importlib.import_module(f"cogs.pictures.{game_id}")
    rng = random.Random(5)
    while True:
        before = eng.view(st, None)
        seat = sorted(eng.pending(st))[0]
        st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
        if mod.changes(before, eng.view(st, None)):
            break
    second = Image.open(io.BytesIO(ui.picture(dataclasses.replace(g, state=st), None, "es"))).convert("RGB")
    plain = Image.open(io.BytesIO(mod.render_board(eng.view(st, None), NAMES[:seats], "es"))).convert("RGB")
    assert _blue(second) > _blue(plain) >= 0
    assert _blue(first) == _blue(Image.open(io.BytesIO(mod.render_board(eng.view(g.state, None), NAMES[:seats], "es"))).convert("RGB"))
