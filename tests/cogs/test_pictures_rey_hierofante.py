"""The Rey y Hierofante board picture: drawn from views, readable, never crashing."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageChops

from cogs.pictures.rey_hierofante import BOARD_X, BOARD_Y, SQ, H, W, render_board, tile_image
from rules.rey_hierofante.engine import RhEngine
from rules.rey_hierofante.model import Cell
from tests.rules.rh_helpers import position

E = RhEngine()


def png(view, names=("Ana", "Bruno"), locale="es") -> Image.Image:
    data = render_board(view, list(names), locale)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def square(im: Image.Image, i: int) -> Image.Image:
    x, y = BOARD_X + (i % 3) * SQ, BOARD_Y + (i // 3) * SQ
    return im.crop((x + 4, y + 4, x + SQ - 4, y + SQ - 4))


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def test_empty_and_full_boards_render_at_the_expected_size() -> None:
    assert png(E.view(E.setup(2, {}, 1), None)).size == (W, H)
    full = position({n: ("rey" if k % 2 else "templo", k % 2) for k, n in enumerate(
        ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"])})
    assert png(E.view(full, None)).size == (W, H)


def test_a_tile_faces_its_owner() -> None:
    mine = png(E.view(position({"B2": ("rey", 0)}), None))
    theirs = png(E.view(position({"B2": ("rey", 1)}), None))
    a, b = square(mine, 4), square(theirs, 4)
    assert not same(a, b)
    # the opponent's tile is the same tile turned round (apart from the frame colour)
    up = tile_image("rey", 1, SQ - 8, "es", upright=True).rotate(180)
    assert same(tile_image("rey", 1, SQ - 8, "es"), up)


def test_face_down_and_shielded_tiles_look_different() -> None:
    s = position({"B2": ("rey", 0)})
    up = square(png(E.view(s, None)), 4)
    s.board[4] = Cell(tile="rey", owner=0, face_up=False, destroyed_by=1)
    down = square(png(E.view(s, None)), 4)
    assert not same(up, down)
    shielded = position({"B2": ("rey", 0), "A2": ("sabio", 1)})
    assert not same(up, square(png(E.view(shielded, None)), 4))


def test_languages_differ_and_any_name_is_drawn() -> None:
    v = E.view(E.setup(2, {}, 4), None)
    assert not same(png(v, locale="es"), png(v, locale="en"))
    png(v, names=("x" * 200, "🎲 Ñandú 💀 " * 10))


def test_hidden_tiles_are_drawn_as_backs_from_the_view() -> None:
    s = E.setup(2, {"variant": "aleatorio_oculto"}, 2)
    public, own = png(E.view(s, None)), png(E.view(s, 0))
    assert not same(public, own)  # the owner's view shows the tiles the public cannot see


def test_random_positions_render() -> None:
    r = random.Random(5)
    for seed in range(30):
        s = E.setup(2, {"variant": ["original", "draft", "aleatorio_oculto"][seed % 3]}, seed)
        for _ in range(r.randint(0, 30)):
            if s.finished:
                break
            seat = next(iter(E.pending(s)))
            s, _ = E.apply(s, seat, r.choice(E.legal_actions(s, seat)))
        png(E.view(s, None), locale=r.choice(["es", "en-US"]))
