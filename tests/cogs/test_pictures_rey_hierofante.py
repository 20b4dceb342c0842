"""The Rey y Hierofante board picture: drawn from views only, readable, never crashing."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from cogs.pictures.common import fit_lines, player_name, text_width
from cogs.pictures.rey_hierofante import GOLD, SEAT, TILE, H, W, render_board, square_box, tile_box
from rules.rey_hierofante.model import (
    CellView,
    GameRecord,
    Options,
    PendingEffect,
    RhView,
    ZoneTileView,
)
from rules.rey_hierofante.tiles import BLUE, RED, STOCK, TILES


def make_view(**changes: Any) -> RhView:
    """A public view of a game in progress; ``changes`` replace its fields."""
    fields: dict[str, Any] = dict(
        seat=None, version=0, options=Options(), phase="place", game_no=1, starter=0, turn=0,
        to_act=[0], board=[None] * 9, neutral_zone=[], zones=[[], []], discard=[],
        stock_count=0, effect=None, draft_offer=None, draft_picker=None, draft_seen=[],
        wins=[0, 0], points=[0, 0], history=[], finished=False, allies=[0, 0],
    )
    fields.update(changes)
    return RhView(**fields)


def cell(tile: str | None, owner: int, **kw: Any) -> CellView:
    """A board square; ``tile`` None is a face-down tile."""
    return CellView(tile=tile, owner=owner, face_up=tile is not None,
                    shielded=kw.pop("shielded", False), **kw)


def zone(tiles: list[str | None], hidden: bool = False) -> list[ZoneTileView]:
    return [ZoneTileView(slot=i, tile=t, hidden=hidden or t is None) for i, t in enumerate(tiles)]


def with_square(i: int, c: CellView | None, **changes: Any) -> RhView:
    board: list[CellView | None] = [None] * 9
    board[i] = c
    return make_view(board=board, **changes)


def full_view() -> RhView:
    """Every kind of thing the picture shows, at once."""
    board = [
        cell("rey", 0), cell("hierofante", 1), cell("torre", 1, covered="cardenal", shielded=True),
        cell("ninja", 1, shielded=True), cell("sabio", 0), cell("reina", 0, shielded=True),
        cell("templo", 1, shielded=True), cell("adivina", 0), cell(None, 1, destroyed_by=0),
    ]
    return make_view(
        phase="effect", board=board, to_act=[0], turn=0,
        effect=PendingEffect(seat=0, source=7, origin=7, tile="adivina"),
        neutral_zone=["hada", "bardo", "dragon", "muerte", "asesino"],
        zones=[zone(["princesa", "castillo", "ministro", "general"]),
               zone(["obispo", "paladin", "monje"]) + zone([None], hidden=True)],
        discard=["general", "samurai", "ermitano"], stock_count=6, allies=[4, 4], wins=[1, 0],
    )


def png(view: RhView, names: list[str] | None = None, locale: str = "es") -> Image.Image:
    data = render_board(view, ["Ana", "Bruno"] if names is None else names, locale)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.size == (W, H)
    return im.convert("RGB")


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def inside(im: Image.Image, i: int) -> Image.Image:
    """The tile on square ``i`` without its owner-coloured frame."""
    x0, y0, x1, y1 = tile_box(i)
    return im.crop((x0 + 12, y0 + 12, x1 - 12, y1 - 12))


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 8) -> bool:
    return all(abs(p - q) <= tol for p, q in zip(a, b, strict=True))


# ----------------------------------------------------------------------------- tests


def test_the_picture_is_a_small_png_of_the_expected_size() -> None:
    data = render_board(full_view(), ["Ana", "Bruno"], "es")
    im = Image.open(io.BytesIO(data))
    im.verify()
    assert im.size == (W, H) and 600 <= W <= 800
    assert len(data) < 80_000


def test_empty_and_full_boards_render() -> None:
    empty, full = png(make_view()), png(full_view())
    for i in range(9):
        assert not same(inside(empty, i), inside(full, i))


def test_a_tile_of_seat_1_is_the_same_tile_turned_round() -> None:
    for tile in ("rey", "adivina", "torre"):
        mine = png(with_square(4, cell(tile, 0)))
        theirs = png(with_square(4, cell(tile, 1)))
        a, b = inside(mine, 4), inside(theirs, 4)
        assert not same(a, b)
        assert same(a.transpose(Image.Transpose.ROTATE_180), b)
        # and the frame is in the owner's colour
        x, y, _, _ = tile_box(4)
        assert close(mine.getpixel((x + 3, y + TILE // 2)), SEAT[0])
        assert close(theirs.getpixel((x + 3, y + TILE // 2)), SEAT[1])


def test_face_down_shielded_and_covered_tiles_look_different() -> None:
    up = inside(png(with_square(4, cell("rey", 0))), 4)
    down = inside(png(with_square(4, cell(None, 0, destroyed_by=1))), 4)
    shielded = png(with_square(4, cell("rey", 0, shielded=True))).crop(tile_box(4))
    covered = inside(png(with_square(4, cell("torre", 0, covered="rey"))), 4)
    torre = inside(png(with_square(4, cell("torre", 0))), 4)
    assert not same(up, down)
    assert not same(png(with_square(4, cell("rey", 0))).crop(tile_box(4)), shielded)
    assert not same(covered, torre)


def test_the_square_of_a_pending_effect_is_highlighted() -> None:
    effect = PendingEffect(seat=0, source=2, origin=2, tile="rey")
    lit = png(with_square(2, cell("rey", 0), phase="effect", effect=effect))
    x0, y0, _, _ = square_box(2)
    assert close(lit.getpixel((x0 + 1, y0 + 40)), GOLD)
    plain = png(with_square(2, cell("rey", 0)))
    assert not close(plain.getpixel((x0 + 1, y0 + 40)), GOLD)


def test_spanish_and_english_differ() -> None:
    v = full_view()
    assert not same(png(v, locale="es"), png(v, locale="en"))
    assert same(png(v, locale="en"), png(v, locale="en-GB"))


@pytest.mark.parametrize("names", [
    ["x" * 200, "W" * 200],
    ["🎲👑💀", "Ñandú 🎲 Ωmega"],
    ["李小龙", "محمد"],
    ["e\u0301\u200d\u202e\x00\t\n", "  "],
    [],
    ["Ana"],
])
def test_any_names_draw(names: list[str]) -> None:
    png(full_view(), names)
    png(make_view(finished=True, wins=[2, 1]), names, locale="en")


def test_names_are_cleaned_and_cut_to_fit() -> None:
    assert player_name("🎲🎲", "Jugador 1") == "Jugador 1"
    assert player_name("Ñandú 🎲", "x") == "Ñandú"
    assert player_name("李", "Jugador 1") == "Jugador 1"
    lines, size = fit_lines("x" * 200, 300, 18, bold=True)
    assert len(lines) == 1 and lines[0].endswith("…")
    assert text_width(lines[0], size, bold=True) <= 300


def test_hidden_zone_tiles_are_backs() -> None:
    known = png(make_view(zones=[zone(["samurai"]), []]))
    back = png(make_view(zones=[zone([None], hidden=True), []]))
    assert not same(known, back)


def test_long_zones_and_every_tile_render() -> None:
    ids = list(TILES)
    png(make_view(zones=[zone(ids), zone(ids[::-1])], neutral_zone=ids[:12],
                  discard=ids, stock_count=16))
    for k in range(0, len(ids), 9):
        board = [cell(t, n % 2) for n, t in enumerate(ids[k:k + 9])]
        png(make_view(board=board + [None] * (9 - len(board))), locale="en")


def test_match_states_render() -> None:
    done = [GameRecord(winner=1, allies=[3, 5], points=[3, 5], reason="board_full")]
    png(make_view(finished=True, wins=[1, 2], history=done))
    png(make_view(finished=True, options=Options(scoring="points", games=3), points=[9, 9]))
    png(make_view(phase="choose_starter", to_act=[0], game_no=2, wins=[0, 1], history=done))
    png(make_view(phase="draft", options=Options(variant="draft"), draft_offer=list(STOCK[:5]),
                  draft_picker=1, to_act=[1]))
    png(make_view(phase="draft", options=Options(variant="draft_oculto"), draft_offer=None,
                  draft_picker=0, to_act=[0]))


def test_drawing_is_deterministic() -> None:
    v = full_view()
    assert render_board(v, ["Ana", "Bruno"], "es") == render_board(v, ["Ana", "Bruno"], "es")


def test_random_views_render() -> None:
    r = random.Random(7)
    pool = list(RED + BLUE + STOCK)
    for _ in range(60):
        board = [None if r.random() < 0.4 else
                 cell(None if r.random() < 0.15 else r.choice(pool), r.randrange(2),
                      shielded=r.random() < 0.2) for _ in range(9)]
        png(make_view(board=board, zones=[zone(r.sample(pool, r.randrange(12))), zone([None] * 3)],
                      neutral_zone=r.sample(STOCK, r.randrange(6)), discard=r.sample(pool, 4),
                      to_act=[r.randrange(2)]), locale=r.choice(["es", "en-US"]))


def test_engine_positions_render() -> None:
    engine = pytest.importorskip("rules.rey_hierofante.engine")
    e = engine.RhEngine()
    r = random.Random(5)
    for seed in range(20):
        variant = ["original", "draft", "aleatorio_oculto", "draft_oculto"][seed % 4]
        s = e.setup(2, {"variant": variant}, seed)
        for _ in range(r.randint(0, 40)):
            if s.finished:
                break
            seat = next(iter(e.pending(s)))
            s, _ = e.apply(s, seat, r.choice(e.legal_actions(s, seat)))
        png(e.view(s, None), locale=r.choice(["es", "en"]))
        png(e.view(s, 0))
