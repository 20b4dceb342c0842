"""The Rey y Hierofante board picture: drawn from views only, readable, never crashing."""

from __future__ import annotations

import io
import random
import struct
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image, ImageChops

from cogs.pictures.common import (
    IndexBackground,
    Palette,
    fit_lines,
    player_name,
    put_index_lines,
    put_index_text,
    put_lines,
    put_text,
    text_width,
)
from cogs.pictures.rey_hierofante import GOLD, SEAT, TILE, H, W, render_board, square_box, tile_box
from cogs.pictures.rey_hierofante_tiles import FOOT_ROOM
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


def _diagram(im: Image.Image, shift: int = 0) -> Image.Image:
    """The reach diagram of a tile's inside: what differs from the cream in its middle band
    (``shift``: how far a turned tile's words and reach sit lower, below its foot)."""
    w, h = im.size
    band = im.crop((0, int(h * 0.28) + shift, w, int(h * 0.76) + shift))
    cream = Image.new("RGB", band.size, band.getpixel((2, band.height // 2)))
    box = ImageChops.difference(band, cream).getbbox()
    assert box is not None
    return band.crop(box)


def _cells(im: Image.Image) -> list[tuple[int, ...]]:
    """The colour of each of a diagram's 3x3 squares (drawing may round a pixel differently)."""
    small = im.resize((3, 3), Image.Resampling.BOX)
    return [small.getpixel((x, y)) for y in range(3) for x in range(3)]  # type: ignore[misc]


def _alike(a: list[tuple[int, ...]], b: list[tuple[int, ...]]) -> bool:
    return all(close(p, q, 24) for p, q in zip(a, b, strict=True))


def test_a_tile_of_seat_1_faces_the_other_way_with_its_name_upright() -> None:
    # Both players read every name: the words of a tile stay upright whoever owns it,
    # while its reach (the diagram) and its foot turn round with the tile.
    for tile in ("rey", "adivina", "torre"):
        mine = png(with_square(4, cell(tile, 0)))
        theirs = png(with_square(4, cell(tile, 1)))
        a, b = inside(mine, 4), inside(theirs, 4)
        w, h = a.size
        # The turned tile's foot is on top, so its words and reach sit FOOT_ROOM lower.
        down = FOOT_ROOM
        name_band = (0, 8, w, int(h * 0.3))
        assert same(a.crop(name_band), b.crop((0, 8 + down, w, int(h * 0.3) + down)))
        if TILES[tile].reach in ("self", "none"):  # a shield or an emblem stays upright
            assert _alike(_cells(_diagram(a)), _cells(_diagram(b, down)))
        else:
            turned = _cells(_diagram(a).transpose(Image.Transpose.ROTATE_180))
            assert _alike(turned, _cells(_diagram(b, down)))
        if tile == "adivina":  # a reach that points one way really turns round
            assert not _alike(_cells(_diagram(a)), _cells(_diagram(b, down)))
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


# ----------------------------------------------------------------------------- palette canvas
#
# The picture is put together in palette indices from cached pieces, and only the rows a
# render touched are compressed (see cogs/pictures/common.py): these check that the PNG
# stream built that way is exact, and that pieces give the pixels drawing in full colour
# and reducing the result would.


def png_rows(data: bytes) -> tuple[tuple[int, int], bytes, bytes]:
    """Size, palette and rows (each after its filter byte) of a palette PNG, checking
    every chunk's CRC and the zlib stream's checksum on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, kinds, idat, plte, size = 8, [], b"", b"", (0, 0)
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body)
        kinds.append(kind)
        if kind == b"IHDR":
            w, h, depth, colour, *rest = struct.unpack(">IIBBBBB", body)
            assert (depth, colour, rest) == (8, 3, [0, 0, 0])
            size = (w, h)
        elif kind == b"PLTE":
            plte = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    z = zlib.decompressobj()
    rows = z.decompress(idat)  # checks the Adler-32
    assert z.eof and not z.unused_data
    w, h = size
    assert len(rows) == h * (w + 1)
    assert all(rows[r * (w + 1)] == 0 for r in range(h))  # filter byte: none
    return size, plte, rows


def test_the_png_stream_is_exact() -> None:
    views = [full_view(), make_view(), make_view(finished=True, wins=[2, 0])]
    for view in views:
        data = render_board(view, ["Ana", "Bruno"], "es")
        (w, h), plte, rows = png_rows(data)
        assert (w, h) == (W, H)
        indices = b"".join(rows[r * (w + 1) + 1:(r + 1) * (w + 1)] for r in range(h))
        assert max(indices) < len(plte) // 3
        decoded = png(view)
        expected = Image.frombytes("P", (w, h), indices)
        expected.putpalette(plte)
        assert same(decoded, expected.convert("RGB"))


def test_pieces_on_any_rows_give_the_pasted_picture() -> None:
    """Bands of touched rows anywhere (first and last rows, next to each other, off the
    picture) come out as the canvas holds them."""
    r = random.Random(3)
    palette = Palette([(r.randrange(256), r.randrange(256), r.randrange(256)) for _ in range(40)])
    base = Image.new("RGB", (97, 61))
    base.putdata([palette.colours[r.randrange(40)] for _ in range(97 * 61)])
    background = IndexBackground(palette, base)
    for _ in range(40):
        canvas = background.start()
        for _ in range(r.randrange(8)):
            piece = Image.new("L", (r.randint(1, 40), r.randint(1, 30)), r.randrange(40))
            canvas.paste(piece, (r.randint(-45, 96), r.randint(-35, 60)))
        (w, h), _, rows = png_rows(canvas.png())
        assert (w, h) == (97, 61)
        assert rows == canvas.image.tobytes()  # the spare column: the filter bytes


def test_pieces_are_what_drawing_in_full_colour_gives() -> None:
    from cogs.pictures.rey_hierofante import MUTED, PALETTE, PANEL, TEXT
    rgb = Image.new("RGB", (300, 120), PANEL)
    put_text(rgb, (10.4, 20.5), "Zona neutral (5) · Ñandú", 14, MUTED, bold=True)
    put_text(rgb, (290, 60), "Aliados 4", 14, TEXT, align="r")
    put_lines(rgb, (12, 92.3), ["Ermitaño, Samurái, Reina,", "Gigante, Pirata"], 14, TEXT)
    background = IndexBackground(PALETTE, Image.new("RGB", (300, 120), PANEL))
    canvas = background.start()
    put_index_text(canvas, PALETTE, (10.4, 20.5), "Zona neutral (5) · Ñandú", 14, MUTED, PANEL,
                   bold=True)
    put_index_text(canvas, PALETTE, (290, 60), "Aliados 4", 14, TEXT, PANEL, align="r")
    put_index_lines(canvas, PALETTE, (12, 92.3), ["Ermitaño, Samurái, Reina,", "Gigante, Pirata"],
                    14, TEXT, PANEL)
    expected = PALETTE.quantize(rgb)
    assert canvas.image.crop((1, 0, 301, 120)).tobytes() == expected.tobytes()


def test_renders_in_threads_are_the_same() -> None:
    r = random.Random(11)
    pool = list(RED + BLUE + STOCK)
    views = [make_view(board=[None if r.random() < 0.4 else cell(r.choice(pool), r.randrange(2),
                                                                 shielded=r.random() < 0.2)
                              for _ in range(9)],
                       zones=[zone(r.sample(pool, r.randrange(12))), zone([None] * 2)],
                       neutral_zone=r.sample(STOCK, r.randrange(6)), to_act=[r.randrange(2)],
                       discard=r.sample(pool, r.randrange(5)))
             for _ in range(24)]
    serial = [render_board(v, ["Ana", "Bruno"], "es") for v in views]
    with ThreadPoolExecutor(4) as ex:
        for _ in range(3):
            assert list(ex.map(lambda v: render_board(v, ["Ana", "Bruno"], "es"), views)) == serial
