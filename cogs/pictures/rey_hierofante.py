"""The public picture of a Rey y Hierofante board, drawn only from a view (never the state).

Layout: Religión (seat 1) sits at the top, Realeza (seat 0) at the bottom, each with a
name strip and the tiles of their play area; the 3x3 board is on the left with the square
names on its edges; the right column holds the match status, the neutral zone (or the
draft offer) and the discard pile. A board tile faces its owner: seat 1's tiles are
drawn turned round, and every tile has a frame in its owner's colour.

The picture is drawn after every move, in a worker thread, so a render only copies a cached
background and pastes cached pieces, all already reduced to the palette (see "cached
pieces" below and ``IndexBackground`` in common.py), then compresses the rows it touched.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from cogs.common.catalogue import language
from cogs.common.catalogue import t as _tr
from cogs.common.catalogue import tn as _trn
from cogs.pictures.common import (
    RGB,
    IndexBackground,
    IndexCanvas,
    Palette,
    fit_lines,
    player_name,
    put_index_lines,
    put_index_text,
    put_lines,
    put_text,
    text_mask,
    text_width,
    truncate,
)
from rules.rey_hierofante.model import CellView, RhView, ZoneTileView, square_name
from rules.rey_hierofante.tiles import TILES, Tile

# ----------------------------------------------------------------------------- geometry

# Discord shows a picture at most 520 px wide: this one is shrunk to about two thirds, so no
# text is drawn smaller than 14 px (about 9.6 px as shown).
SMALL = 14
W, H = 760, 778
SQ = 124  # a board square
TILE = 116  # a tile on a square (4 px of the square shows round it)
MINI = 88  # a tile in a play area or the neutral zone (its name fits at the small size)
MID_TOP, MID_BOTTOM = 158, 620  # the board and the right column, between the two panels
PLATE = (12, 183, 424, 595)  # the board with its labelled edges, in the middle of that band
BOARD_X, BOARD_Y = 32, 203  # top-left corner of square A1
SIDE_X0, SIDE_X1 = 436, 748  # the right column
STATUS_BOX = (SIDE_X0, 158, SIDE_X1, 252)
NEUTRAL_BOX = (SIDE_X0, 260, SIDE_X1, 474)
DISCARD_BOX = (SIDE_X0, 482, SIDE_X1, 620)
# Per seat: the panel, its name strip (on the outer edge) and the top of its zone row.
PANEL_BOX = {1: (12, 8, 748, 150), 0: (12, 628, 748, 770)}
STRIP = {1: (8, 42), 0: (736, 770)}
ZONE_TOP = {1: 48, 0: 634}
ZONE_X0, ZONE_X1 = 24, 736

# ----------------------------------------------------------------------------- colours

PAGE: RGB = (30, 32, 38)
PANEL: RGB = (43, 46, 54)
TEXT: RGB = (238, 238, 242)
MUTED: RGB = (158, 164, 176)
GOLD: RGB = (246, 196, 48)
SEAT: tuple[RGB, RGB] = ((204, 58, 48), (48, 108, 206))  # Realeza red, Religión blue
NEUTRAL_FRAME: RGB = (128, 130, 140)
WOOD: RGB = (92, 66, 44)
WOOD_TEXT: RGB = (236, 216, 180)
SQUARE: RGB = (132, 100, 68)
SQUARE_TEXT: RGB = (166, 132, 96)
CREAM: RGB = (247, 240, 224)
INK: RGB = (44, 38, 34)
SOFT_INK: RGB = (128, 118, 106)
FACTION_INK: dict[str, RGB] = {"red": (160, 36, 28), "blue": (30, 72, 160), "neutral": INK,
                               "blank": SOFT_INK}
FACTION_BAND: dict[str, RGB] = {"red": SEAT[0], "blue": SEAT[1], "neutral": (74, 74, 82),
                                "blank": (176, 176, 176)}
ACTIVE: RGB = (206, 98, 22)  # active effects: orange
PASSIVE: RGB = (22, 130, 120)  # passive effects: teal
ALT: RGB = (130, 70, 170)  # the second choice of Princesa/Santa (diagonals)
GRID_EMPTY: RGB = (226, 216, 196)
GRID_SELF: RGB = (120, 108, 96)
BACK: RGB = (72, 54, 82)
BACK_LINE: RGB = (90, 70, 102)
BACK_FRAME: RGB = (50, 40, 56)
BACK_MARK: RGB = (214, 86, 74)
BACK_TEXT: RGB = (242, 230, 238)
BACK_LABEL: RGB = (38, 28, 44)
SHIELD: RGB = (204, 212, 224)
SHIELD_EDGE: RGB = (34, 42, 56)

PALETTE = Palette(
    solids=[PAGE, PANEL, TEXT, MUTED, GOLD, *SEAT, NEUTRAL_FRAME, WOOD, SQUARE, CREAM, INK,
            *FACTION_BAND.values(), ACTIVE, PASSIVE, ALT, GRID_EMPTY, GRID_SELF, BACK, BACK_LINE,
            BACK_FRAME, BACK_MARK, BACK_LABEL, SHIELD, SHIELD_EDGE],
    # Every text colour with the colour it is written on, for smooth letter edges.
    pairs=[(TEXT, PAGE), (MUTED, PAGE), (TEXT, PANEL), (MUTED, PANEL), (GOLD, PANEL),
           (TEXT, SEAT[0]), (TEXT, SEAT[1]), (INK, GOLD), (WOOD_TEXT, WOOD), (SQUARE_TEXT, SQUARE),
           (INK, CREAM), (FACTION_INK["red"], CREAM), (FACTION_INK["blue"], CREAM),
           (ACTIVE, CREAM), (PASSIVE, CREAM), (SOFT_INK, CREAM), (BACK_TEXT, BACK),
           (BACK_TEXT, BACK_LABEL), (ACTIVE, PANEL), (PASSIVE, PANEL)],
)

# ----------------------------------------------------------------------------- words

# The picture's words are catalogue entries "pic.rh.<key>" (cogs/locale): a one- or
# two-word hint of each tile's effect ("pic.rh.hint.<effect>", or "pic.rh.hint_tile.<tile>"
# for a tile whose own hint says more; the reach diagram says where), the factions, the
# variants and why a game ended.
HINT_TILES = ("reina", "cardenal", "princesa", "santa", "adivina", "dragon", "pirata")
NO_HINT = ("blanca",)
VARIANTS = ("original", "clasico", "aleatorio", "aleatorio_oculto", "draft", "draft_oculto")
REASONS = ("board_full", "death", "no_tile")
# Tiles whose effect reaches no square get an emblem instead of the reach diagram.
EMBLEM: dict[str, tuple[str, RGB]] = {
    "banish_zone": ("⚔", ACTIVE), "recover": ("↺", ACTIVE), "death": ("☠", INK),
    "none": ("♙", SOFT_INK),
}
def _say(lang: str, key: str, **fmt: object) -> str:
    return _tr("pic.rh." + key, lang, **fmt)


def _tile_name(tile: str, lang: str) -> str:
    t = TILES.get(tile)
    if t is None:  # an id this build does not know: show it rather than fail
        return tile
    return t.name.get(lang)


def _hint(t: Tile, lang: str) -> str:
    if t.id in NO_HINT:
        return ""
    return _say(lang, f"hint_tile.{t.id}" if t.id in HINT_TILES else f"hint.{t.effect}")


def _kind_colour(t: Tile) -> RGB:
    return {"active": ACTIVE, "passive": PASSIVE}.get(t.kind, SOFT_INK)


# ----------------------------------------------------------------------------- geometry helpers


def square_box(i: int) -> tuple[int, int, int, int]:
    """The picture box (left, top, right, bottom; right and bottom excluded) of square ``i``."""
    x, y = BOARD_X + (i % 3) * SQ, BOARD_Y + (i // 3) * SQ
    return x, y, x + SQ, y + SQ


def tile_box(i: int) -> tuple[int, int, int, int]:
    """The box of the tile drawn on square ``i``."""
    x, y, _, _ = square_box(i)
    m = (SQ - TILE) // 2
    return x + m, y + m, x + m + TILE, y + m + TILE


# ----------------------------------------------------------------------------- drawing pieces

_ORTH = {(1, 0), (0, 1), (2, 1), (1, 2)}
_DIAG = {(0, 0), (2, 0), (0, 2), (2, 2)}
_REACH_CELLS: dict[str, set[tuple[int, int]]] = {
    "adj8": _ORTH | _DIAG, "orth": _ORTH, "diag": _DIAG, "group": _ORTH,
    "front3": {(0, 0), (1, 0), (2, 0)}, "lr": {(0, 1), (2, 1)}, "board": _ORTH | _DIAG,
    "line": set(),
}


def _shield(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    """A heater shield with its top-left corner at x, y."""
    d.polygon([(x, y + h * 0.12), (x + w / 2, y), (x + w, y + h * 0.12), (x + w, y + h * 0.5),
               (x + w / 2, y + h), (x, y + h * 0.5)], fill=SHIELD, outline=SHIELD_EDGE, width=2)
    d.line((x + w / 2, y + h * 0.2, x + w / 2, y + h * 0.8), fill=SHIELD_EDGE, width=2)
    d.line((x + w * 0.22, y + h * 0.38, x + w * 0.78, y + h * 0.38), fill=SHIELD_EDGE, width=2)


def _diagram(im: Image.Image, t: Tile, cx: float, cy: float, cell: int, gap: int) -> None:
    """Where the tile's effect reaches, as a 3x3 grid with the tile in the middle, the way
    the printed tiles show it (the top row is the side facing the opponent)."""
    d = ImageDraw.Draw(im)
    g = 3 * cell + 2 * gap
    ox, oy = cx - g / 2, cy - g / 2
    if t.reach == "self":
        _shield(d, cx - g * 0.35, oy, g * 0.7, g)
        return
    if t.reach == "none":
        glyph, colour = EMBLEM.get(t.effect, ("", SOFT_INK))
        if glyph and t.faction != "blank":  # the spare blank tile stays blank
            put_text(im, (cx, cy + g * 0.1), glyph, round(g * 1.25), colour, align="m")
        return
    colour = _kind_colour(t)
    marked = _REACH_CELLS.get(t.reach, set())
    for r in range(3):
        for c in range(3):
            fill = GRID_EMPTY
            if (c, r) in marked:
                fill = colour
            elif t.reach == "group" and (c, r) in _DIAG:
                fill = ALT
            elif (c, r) == (1, 1):
                fill = colour if t.reach == "board" else GRID_SELF
            x, y = ox + c * (cell + gap), oy + r * (cell + gap)
            d.rectangle((x, y, x + cell - 1, y + cell - 1), fill=fill)
    if t.reach == "line":  # eight rays: the whole line in the chosen direction
        w = max(2, cell // 4)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    d.line((cx, cy, cx + dx * g / 2, cy + dy * g / 2), fill=colour, width=w)


def _turned_diagram(im: Image.Image, t: Tile, cx: float, cy: float, cell: int, gap: int) -> None:
    """The reach diagram of a tile that faces the other way: the squares it reaches turn
    round with the tile, while its name and the emblems stay upright for every reader."""
    if t.reach in ("self", "none"):  # a shield or an emblem points nowhere
        _diagram(im, t, cx, cy, cell, gap)
        return
    g = 3 * cell + 2 * gap + 2
    sub = Image.new("RGB", (g, g), CREAM)
    _diagram(sub, t, g / 2, g / 2, cell, gap)
    im.paste(sub.transpose(Image.Transpose.ROTATE_180), (round(cx - g / 2), round(cy - g / 2)))


def _face_image(tile: str, frame: RGB, size: int, lang: str, bg: RGB, covered: str | None,
                big: bool, turned: bool = False) -> Image.Image:
    """A face-up tile with the owner's ``frame`` round it; ``turned`` tiles face the other
    way on the board (their reach and foot turn round, their words stay upright)."""
    t = TILES[tile]
    im = Image.new("RGB", (size, size), bg)
    d = ImageDraw.Draw(im)
    border = 6 if big else 4
    d.rounded_rectangle((0, 0, size - 1, size - 1), 10 if big else 7, fill=frame)
    d.rounded_rectangle((border, border, size - 1 - border, size - 1 - border), 5 if big else 3,
                        fill=CREAM)
    name = _tile_name(tile, lang)
    if covered:  # a Torre on an ally: both names, the covered one powerless under it
        name = f"{name} / {_tile_name(covered, lang)}"
    ink = FACTION_INK[t.faction]
    if big:
        lines, fs = fit_lines(name, size - 16, 18, min_size=SMALL, max_lines=2, bold=True)
        put_lines(im, (size / 2, size * 0.235), lines, fs, ink, bold=True, align="m")
        (_turned_diagram if turned else _diagram)(im, t, size / 2, size * 0.53, 10, 2)
        hint = _hint(t, lang)
        if hint:
            lines, fs = fit_lines(hint, size - 14, SMALL, min_size=SMALL)
            put_text(im, (size / 2, size * 0.775), lines[0], fs, _kind_colour(t), align="m")
        # The printed alignment, on the tile's foot (the side facing its owner).
        foot = border + 6 if turned else size - border - 9
        d.rectangle((border + 6, foot, size - border - 7, foot + 3), fill=FACTION_BAND[t.faction])
    else:
        bold = True
        lines, fs = fit_lines(name, size - 10, SMALL, min_size=SMALL, max_lines=2, bold=True)
        if lines[-1].endswith("…"):  # a long single word: the regular face is narrower
            bold = False
            lines, fs = fit_lines(name, size - 10, SMALL, min_size=SMALL, max_lines=2)
        put_lines(im, (size / 2, size * 0.3), lines, fs, ink, bold=bold, align="m")
        cell = max(4, size // 11)
        _diagram(im, t, size / 2, size * 0.72, cell, 1)
    return im


def board_tile(tile: str, owner: int, covered: str | None, lang: str) -> Image.Image:
    """A face-up board tile as the picture shows it: facing its owner (seat 1's reach and
    foot turned round) in its owner's frame, its name upright so both players read it."""
    return _face_image(tile, SEAT[owner], TILE, lang, SQUARE, covered, big=True, turned=owner == 1)


def board_back(lang: str) -> Image.Image:
    """A face-down (destroyed) tile: it shows no character until it leaves the board."""
    im = Image.new("RGB", (TILE, TILE), SQUARE)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, TILE - 1, TILE - 1), 10, fill=BACK_FRAME)
    d.rounded_rectangle((6, 6, TILE - 7, TILE - 7), 5, fill=BACK)
    for k in range(-TILE, TILE, 12):  # hatching, clipped to the inside by hand
        a, b = max(8, 8 + k), min(TILE - 9, TILE - 9 + k)
        if a < b:
            d.line((a, a - k, b, b - k), fill=BACK_LINE, width=2)
    d.line((24, 24, TILE - 25, TILE - 25), fill=BACK_MARK, width=6)
    d.line((24, TILE - 25, TILE - 25, 24), fill=BACK_MARK, width=6)
    label = _say(lang, "destroyed")
    lines, fs = fit_lines(label, TILE - 24, SMALL, min_size=SMALL, bold=True)
    d.rounded_rectangle((10, TILE / 2 - 12, TILE - 11, TILE / 2 + 12), 6, fill=BACK_LABEL)
    put_text(im, (TILE / 2, TILE / 2), lines[0], fs, BACK_TEXT, bold=True, align="m")
    return im


def mini_tile(tile: str | None, owner: int | None, size: int, lang: str, hidden: bool = False
              ) -> Image.Image:
    """A small upright tile of a play area or the neutral zone; ``tile`` None is a hidden
    tile's back. ``hidden`` marks a tile that only its owner may see."""
    frame = NEUTRAL_FRAME if owner is None else SEAT[owner]
    if tile is None or tile not in TILES:
        im = Image.new("RGB", (size, size), PANEL)
        d = ImageDraw.Draw(im)
        d.rounded_rectangle((0, 0, size - 1, size - 1), 7, fill=frame)
        d.rounded_rectangle((4, 4, size - 5, size - 5), 3, fill=BACK)
        put_text(im, (size / 2, size / 2), "?", size // 2, BACK_TEXT, bold=True, align="m")
        return im
    im = _face_image(tile, frame, size, lang, PANEL, None, big=False)
    if hidden:  # the owner's own secret tile: a dark corner says the others cannot see it
        ImageDraw.Draw(im).polygon([(size - 4, size - 18), (size - 4, size - 4),
                                    (size - 18, size - 4)], fill=BACK)
    return im


def _base(lang: str) -> Image.Image:
    """What does not change between moves: panels, the board with its square names, boxes."""
    im = Image.new("RGB", (W, H), PAGE)
    d = ImageDraw.Draw(im)
    for seat in (0, 1):
        x0, _, x1, _ = PANEL_BOX[seat]
        d.rounded_rectangle(PANEL_BOX[seat], 10, fill=PANEL)
        top = seat == 1  # the strip sits on the panel's outer edge
        d.rounded_rectangle((x0, STRIP[seat][0], x1, STRIP[seat][1]), 10, fill=SEAT[seat],
                            corners=(top, top, not top, not top))
    d.rounded_rectangle(PLATE, 12, fill=WOOD)
    for i in range(9):
        x0, y0, x1, y1 = square_box(i)
        d.rectangle((x0 + 2, y0 + 2, x1 - 3, y1 - 3), fill=SQUARE)
        put_text(im, ((x0 + x1) / 2, (y0 + y1) / 2), square_name(i), 24, SQUARE_TEXT, bold=True,
                 align="m")
    # Square names on all four edges: players type them in their commands.
    for c in range(3):
        cx = BOARD_X + c * SQ + SQ / 2
        for y in (PLATE[1] + 10, PLATE[3] - 10):
            put_text(im, (cx, y), "ABC"[c], 14, WOOD_TEXT, bold=True, align="m")
    for r in range(3):
        cy = BOARD_Y + r * SQ + SQ / 2
        for x in (PLATE[0] + 10, PLATE[2] - 10):
            put_text(im, (x, cy), str(r + 1), 14, WOOD_TEXT, bold=True, align="m")
    for box in (STATUS_BOX, NEUTRAL_BOX, DISCARD_BOX):
        d.rounded_rectangle(box, 10, fill=PANEL)
    # Legend of the two effect colours.
    x, y = SIDE_X0 + 14, DISCARD_BOX[3] - 16
    for colour, word in ((ACTIVE, _say(lang, "active")),
                         (PASSIVE, _say(lang, "passive"))):
        d.rectangle((x, y - 5, x + 9, y + 4), fill=colour)
        x += 16 + put_text(im, (x + 15, y), word, SMALL, MUTED) + 18
    for seat in (0, 1):  # the side's name, first on its strip
        put_text(im, (ZONE_X0, _strip_middle(seat)), _say(lang, f"faction.{seat}"), SMALL, TEXT,
                 bold=True)
    return im


# ----------------------------------------------------------------------------- cached pieces
#
# Every render starts from a copy of a cached index canvas (the fixed background with the
# turn markers) and pastes cached index pieces, each drawn once in full colour on the flat
# colour it sits on and reduced to the palette: the same pixels as drawing it all in full
# colour and reducing the whole picture, without a colour conversion per render. The caches
# are shared by the render threads; nothing in them is changed after it is made.

NO_MARK, TO_PLAY, WINNER = 0, 1, 2  # what a player's strip says besides the scores
_IDX = PALETTE.index


def _strip_middle(seat: int) -> float:
    return (STRIP[seat][0] + STRIP[seat][1]) / 2


def _pill_text(mark: int, lang: str) -> str:
    if mark == WINNER:
        return _say(lang, "winner")
    return _say(lang, "to_play")


def _pill_left(right: float, text: str) -> float:
    return right - text_width(text, SMALL, bold=True) - 18


def _pill(canvas: Image.Image, d: ImageDraw.ImageDraw, right: float, cy: float, text: str) -> float:
    """A gold label ending at ``right``; returns its left edge."""
    left = _pill_left(right, text)
    d.rounded_rectangle((left, cy - 11, right, cy + 11), 11, fill=GOLD)
    put_text(canvas, (left + 9, cy), text, SMALL, INK, bold=True)
    return left


def _scores_right(mark: int, lang: str) -> float:
    """Where the scores on a strip end: left of its label, if it has one."""
    if mark == NO_MARK:
        return float(ZONE_X1)
    return _pill_left(float(ZONE_X1), _pill_text(mark, lang)) - 14


@lru_cache(maxsize=32)
def _background(lang: str, marks: tuple[int, int]) -> IndexBackground:
    """The fixed background with each strip's label (to play, winner) and the frame round
    the panel of a player who is to play, as an index canvas."""
    im = _base(lang)
    d = ImageDraw.Draw(im)
    for seat in (1, 0):
        if marks[seat] != NO_MARK:
            _pill(im, d, float(ZONE_X1), _strip_middle(seat), _pill_text(marks[seat], lang))
        if marks[seat] == TO_PLAY:
            d.rounded_rectangle(PANEL_BOX[seat], 10, outline=GOLD, width=3)
    return IndexBackground(PALETTE, im)


@lru_cache(maxsize=1024)
def _scores(seat: int, lang: str, mark: int, match: bool, need: int, score: int, allies: int
            ) -> tuple[Image.Image, int, int, float]:
    """The right part of a strip (allies, then wins or points) as an index piece: the piece,
    its top-left corner and where the player's name must end."""
    s0, s1 = STRIP[seat]
    cy = _strip_middle(seat) - s0  # the strip drawn on its own: y from its top
    im = Image.new("RGB", (W, s1 - s0), SEAT[seat])
    d = ImageDraw.Draw(im)
    right = _scores_right(mark, lang)
    if match:
        for k in reversed(range(need)):
            d.ellipse((right - 12, cy - 6, right, cy + 6), outline=TEXT, width=2,
                      fill=GOLD if k < score else SEAT[seat])
            right -= 16
        right -= 4 + put_text(im, (right, cy), _say(lang, "wins"), SMALL, TEXT, align="r")
    else:
        label = _say(lang, "points", n=score)
        right -= put_text(im, (right, cy), label, 14, TEXT, bold=True, align="r")
    right -= 18
    right -= put_text(im, (right, cy), _say(lang, "allies", n=allies), 14,
                      TEXT, align="r") + 18
    box = ImageChops.difference(im, Image.new("RGB", im.size, SEAT[seat])).getbbox()
    if box is None:  # cannot happen (there is always the allies label); keep it safe anyway
        box = (0, 0, 1, 1)
    return PALETTE.quantize(im.crop(box)), box[0], box[1] + s0, right


@lru_cache(maxsize=1024)
def _board_piece(tile: str, owner: int, covered: str | None, lang: str, shielded: bool
                 ) -> Image.Image:
    """A face-up board tile with its shield, if it has one, as an index piece."""
    im = board_tile(tile, owner, covered, lang)
    if shielded:  # on the tile's right edge, clear of its name whichever way it faces
        im = im.copy()
        _shield(ImageDraw.Draw(im), TILE - 27, TILE / 2 - 15, 22, 28)
    return PALETTE.quantize(im)


@lru_cache(maxsize=4)
def _back_piece(lang: str) -> Image.Image:
    """A face-down board tile as an index piece."""
    return PALETTE.quantize(board_back(lang))


@lru_cache(maxsize=2048)
def _mini_piece(tile: str | None, owner: int | None, size: int, lang: str, hidden: bool = False
                ) -> Image.Image:
    """``mini_tile`` as an index piece."""
    return PALETTE.quantize(mini_tile(tile, owner, size, lang, hidden))


def _text(canvas: IndexCanvas, xy: tuple[float, float], text: str, size: int, colour: RGB,
          background: RGB = PANEL, *, bold: bool = False, align: str = "l") -> int:
    """``put_text`` on the canvas where it is ``background`` (the panel colour unless said)."""
    return put_index_text(canvas, PALETTE, xy, text, size, colour, background, bold=bold,
                          align=align)


def _lines(canvas: IndexCanvas, xy: tuple[float, float], lines: tuple[str, ...], size: int,
           colour: RGB, *, bold: bool = False) -> None:
    """``put_lines`` on the panel colour."""
    put_index_lines(canvas, PALETTE, xy, lines, size, colour, PANEL, bold=bold)


# ----------------------------------------------------------------------------- per render


def _winner(view: RhView) -> int | None:
    """The match winner of a finished match (None: a draw on points)."""
    o = view.options
    if o.scoring == "match":
        for s in (0, 1):
            if view.wins[s] >= o.wins_needed:
                return s
        score = view.wins
    else:
        score = view.points
    if score[0] == score[1]:
        return None
    return 0 if score[0] > score[1] else 1


def _score(view: RhView) -> tuple[int, int]:
    src = view.wins if view.options.scoring == "match" else view.points
    return src[0], src[1]


def _status(view: RhView, names: list[str], lang: str) -> str:
    """What the match waits for, or how it ended."""
    def who(s: int) -> str:
        return truncate(names[s], 150, 17, bold=True)

    a, b = _score(view)
    if view.finished:
        w = _winner(view)
        if w is None:
            return _say(lang, "draw", n=a)
        hi, lo = max(a, b), min(a, b)
        return _say(lang, "match_won", who=who(w), hi=hi, lo=lo)
    actor = view.to_act[0] if view.to_act else view.turn
    if view.phase == "choose_starter":
        text = _say(lang, "chooses_starter", who=who(actor))
        if view.history and view.history[-1].winner is not None:
            last = view.history[-1]
            why = _say(lang, f"reason.{last.reason}") if last.reason in REASONS else last.reason
            won = who(last.winner) if last.winner is not None else "?"
            n = max(1, view.game_no - 1)
            text = _say(lang, "game_won", who=won, n=n, why=why) + text
        return text
    if view.phase == "draft":
        return _say(lang, "drafts", who=who(actor))
    if view.phase == "effect" and view.effect is not None:
        e = view.effect
        tile = _tile_name(e.tile, lang)
        at = square_name(e.source) if 0 <= e.source < 9 else "?"
        return _say(lang, "effect", who=who(actor), tile=tile, at=at)
    return _say(lang, "to_place", who=who(actor))


def _game_line(view: RhView, lang: str) -> str:
    o = view.options
    if o.scoring == "match":
        return _trn("pic.rh.game_match", o.wins_needed, lang, game=view.game_no)
    return _say(lang, "game_points", game=view.game_no, games=o.games)


def _mark(view: RhView, seat: int, winner: int | None) -> int:
    if view.finished:
        return WINNER if winner == seat else NO_MARK
    return TO_PLAY if seat in view.to_act else NO_MARK


def _panel(canvas: IndexCanvas, view: RhView, seat: int, name: str, mark: int, lang: str) -> None:
    """A player's strip (name, allies, score; side and turn are in the background) and
    play area."""
    x = ZONE_X0 + text_mask(_say(lang, f"faction.{seat}"), SMALL, True)[0].width - 2 + 14
    o = view.options
    match = o.scoring == "match"
    allies = view.allies[seat] if seat < len(view.allies) else 0
    piece, px, py, right = _scores(seat, lang, mark, match, min(o.wins_needed, 9) if match else 0,
                                   view.wins[seat] if match else view.points[seat], allies)
    canvas.paste(piece, (px, py))
    lines, fs = fit_lines(name, right - x, 18, min_size=SMALL, bold=True)
    _text(canvas, (x, _strip_middle(seat)), lines[0], fs, TEXT, SEAT[seat], bold=True)
    _zone(canvas, view.zones[seat] if seat < len(view.zones) else [], seat, lang)


def _zone(canvas: IndexCanvas, zone: list[ZoneTileView], seat: int, lang: str) -> None:
    top = ZONE_TOP[seat]
    if not zone:
        _text(canvas, (ZONE_X0, top + MINI / 2), _say(lang, "empty_zone"), 14,
              MUTED)
        return
    gap = 6
    span = ZONE_X1 - ZONE_X0
    # Shrink the tiles when many are held; past the smallest size, the rest is a count.
    size = max(72, min(MINI, (span + gap) // len(zone) - gap))
    fit = (span + gap) // (size + gap)
    shown = zone if len(zone) <= fit else zone[:fit - 1]
    y = top + (MINI - size) // 2
    x = ZONE_X0
    for z in shown:
        canvas.paste(_mini_piece(z.tile, seat, size, lang, z.hidden and z.tile is not None), (x, y))
        x += size + gap
    if len(shown) < len(zone):
        _text(canvas, (x + size / 2, top + MINI / 2), f"+{len(zone) - len(shown)}", 18, TEXT,
              bold=True, align="m")


def _side(canvas: IndexCanvas, view: RhView, names: list[str], lang: str) -> None:
    """The right column: status, neutral zone or draft, discard pile and stock."""
    x0, x1 = SIDE_X0 + 14, SIDE_X1 - 14
    width = x1 - x0
    _, top, _, _ = STATUS_BOX
    _text(canvas, (x0, top + 15), _game_line(view, lang), 14, MUTED)
    lines, fs = fit_lines(_status(view, names, lang), width, 17, min_size=SMALL, max_lines=2, bold=True)
    _lines(canvas, (x0, top + 47), lines, fs, GOLD, bold=True)
    v = view.options.variant
    variant = _say(lang, f"variant.{v}") if v in VARIANTS else v
    _text(canvas, (x0, top + 80), _say(lang, "variant", name=variant), SMALL, MUTED)

    _, top, _, _ = NEUTRAL_BOX
    tiles: list[str] = view.neutral_zone
    title = _say(lang, "neutral_zone", n=len(tiles))
    note = ""
    if view.phase == "draft":
        picker = view.draft_picker if view.draft_picker is not None else view.turn
        who = truncate(names[picker], 160, 14, bold=True)
        if view.draft_offer is not None:
            tiles = view.draft_offer
            title = _say(lang, "draft_picks", who=who)
        else:
            tiles = []
            title = _say(lang, "hidden_draft")
            note = _say(lang, "picks_secretly", who=who)
    _text(canvas, (x0, top + 15), truncate(title, width, 14, bold=True), 14, MUTED, bold=True)
    if not tiles:
        _text(canvas, (x0, top + 60), note or _say(lang, "empty"), 14, MUTED)
    per_row, pitch = 3, MINI + 6
    for k, tile in enumerate(tiles[:2 * per_row]):
        if k == 2 * per_row - 1 and len(tiles) > 2 * per_row:
            _text(canvas, (x0 + (per_row - 1) * pitch + MINI / 2, top + 26 + MINI + 6 + MINI / 2),
                  f"+{len(tiles) - k}", 18, TEXT, bold=True, align="m")
            break
        canvas.paste(_mini_piece(tile, None, MINI, lang),
                     (x0 + (k % per_row) * pitch, top + 26 + (k // per_row) * (MINI + 6)))

    _, top, _, _ = DISCARD_BOX
    n = len(view.discard)
    _text(canvas, (x0, top + 15), _say(lang, "discard", n=n), 14, MUTED,
          bold=True)
    if view.discard:
        text = ", ".join(_tile_name(t, lang) for t in reversed(view.discard))  # newest first
        lines, fs = fit_lines(text, width, SMALL, min_size=SMALL, max_lines=3)
        _lines(canvas, (x0, top + 50), lines, fs, TEXT)
    else:
        _text(canvas, (x0, top + 40), _say(lang, "empty"), 14, TEXT)
    stock = _say(lang, "stock", n=view.stock_count)
    _text(canvas, (x0, top + 94), stock, SMALL, MUTED)


def _board(canvas: IndexCanvas, view: RhView, lang: str) -> None:
    """The nine squares: tiles facing their owners, shields, the pending effect's square."""
    cells: list[CellView | None] = view.board[:9]
    for i, cell in enumerate(cells):
        if cell is None:
            continue
        x, y, _, _ = tile_box(i)
        if cell.tile is None or not cell.face_up or cell.tile not in TILES:
            canvas.paste(_back_piece(lang), (x, y))
            continue
        covered = cell.covered if cell.covered in TILES else None
        canvas.paste(_board_piece(cell.tile, 1 if cell.owner == 1 else 0, covered, lang,
                                  bool(cell.shielded)), (x, y))
    e = view.effect
    if e is not None and not view.finished:
        gold = _IDX[GOLD]
        if 0 <= e.origin < 9 and e.origin != e.source:  # a copy acts from the copier
            x0, y0, x1, y1 = square_box(e.origin)
            canvas.rectangle((x0, y0, x1 - 1, y1 - 1), gold, 2)
        if 0 <= e.source < 9:
            x0, y0, x1, y1 = square_box(e.source)
            canvas.rectangle((x0, y0, x1 - 1, y1 - 1), gold, 4)


def render_board(view: RhView, names: list[str], locale: str) -> bytes:
    """PNG of the public board as ``view`` shows it (names: display name per seat; locale
    'es'/'en...')."""
    lang = language(locale)
    who = [player_name(names[s] if s < len(names) else None, _say(lang, "player", n=s + 1))
           for s in (0, 1)]
    winner = _winner(view) if view.finished else None
    marks = (_mark(view, 0, winner), _mark(view, 1, winner))
    canvas = _background(lang, marks).start()
    for seat in (1, 0):
        _panel(canvas, view, seat, who[seat], marks[seat], lang)
    _board(canvas, view, lang)
    _side(canvas, view, who, lang)
    return canvas.png()
