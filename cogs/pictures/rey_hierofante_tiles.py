"""The pieces of Rey y Hierofante's picture: its geometry, colours and words, and each tile
drawn as a face (on the board, in a play area or the neutral zone) or as a back."""


from __future__ import annotations

from PIL import Image, ImageDraw

from cogs.common.catalogue import t as _tr
from cogs.pictures.common import (
    LAST_MOVE,
    RGB,
    Palette,
    fit_lines,
    put_lines,
    put_text,
    text_width,
)
from rules.rey_hierofante.tiles import TILES, Tile

# ----------------------------------------------------------------------------- geometry

# Discord shows a picture at most 520 px wide: this one is shrunk to about two thirds, so no
# text is drawn smaller than 14 px (about 9.6 px as shown).
SMALL = 14
W, H = 760, 778
SQ = 124  # a board square
TILE = 116  # a tile on a square (4 px of the square shows round it)
MINI = 88  # a tile in a play area or the neutral zone (its name fits at the small size)
MINI_MARGIN = 8  # a small tile's frame (4 px) and as much cream again beside its name
FOOT_ROOM = 7  # how far a turned board tile's words move down, below its foot bar
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
            BACK_FRAME, BACK_MARK, BACK_LABEL, SHIELD, SHIELD_EDGE, LAST_MOVE],
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
VOWELS = frozenset("aeiouáéíóúü")
HINT_TILES = ("reina", "cardenal", "princesa", "santa", "adivina", "dragon", "pirata")
NO_HINT = ("blanca",)
VARIANTS = ("original", "clasico", "aleatorio", "aleatorio_oculto", "draft", "draft_oculto")
REASONS = ("board_full", "death", "no_tile")
# Tiles whose effect reaches no square get an emblem instead of the reach diagram.
EMBLEM: dict[str, tuple[str, RGB]] = {
    "banish_zone": ("⚔", ACTIVE), "recover": ("↺", ACTIVE), "death": ("☠", INK),
    "none": ("♙", SOFT_INK),
}
def say(lang: str, key: str, **fmt: object) -> str:
    """The picture's word ``key`` (a "pic.rh." catalogue entry) in ``lang``."""
    return _tr("pic.rh." + key, lang, **fmt)


def tile_name(tile: str, lang: str) -> str:
    """A tile's name as the picture writes it in ``lang``."""
    t = TILES.get(tile)
    if t is None:  # an id this build does not know: show it rather than fail
        return tile
    return t.name.get(lang)


def _hint(t: Tile, lang: str) -> str:
    if t.id in NO_HINT:
        return ""
    return say(lang, f"hint_tile.{t.id}" if t.id in HINT_TILES else f"hint.{t.effect}")


def hyphenated(word: str, width: float, size: int, bold: bool) -> tuple[str, str] | None:
    """``word`` cut in two with a hyphen where both halves fit ``width``: after a vowel
    and before a consonant when it can (Hiero-phant, Ciu-dadano), the most even cut."""
    best: tuple[tuple[int, float], tuple[str, str]] | None = None
    for k in range(3, len(word) - 2):
        head, tail = word[:k] + "-", word[k:]
        wide = max(text_width(head, size, bold), text_width(tail, size, bold))
        if wide > width:
            continue
        vowel = word[k - 1].lower() in VOWELS and word[k].lower() not in VOWELS
        rank = (0 if vowel else 1, wide)
        if best is None or rank < best[0]:
            best = (rank, (head, tail))
    return None if best is None else best[1]


def mini_name(name: str, width: float) -> tuple[tuple[str, ...], int, bool]:
    """A small tile's name as lines, size and weight that fit ``width`` with a margin: bold
    if it can, else regular, else a long word split with a hyphen (never cut short)."""
    for bold in (True, False):
        lines, fs = fit_lines(name, width, SMALL, min_size=SMALL, max_lines=2, bold=bold)
        if not any(line.endswith("…") for line in lines):
            return lines, fs, bold
    words = name.split()
    if len(words) == 1:
        for bold in (True, False):
            cut = hyphenated(name, width, SMALL, bold)
            if cut is not None:
                return cut, SMALL, bold
    return lines, fs, False


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


def shield(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
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
        shield(d, cx - g * 0.35, oy, g * 0.7, g)
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
    name = tile_name(tile, lang)
    if covered:  # a Torre on an ally: both names, the covered one powerless under it
        name = f"{name} / {tile_name(covered, lang)}"
    ink = FACTION_INK[t.faction]
    if big:
        # The printed alignment is a bar on the tile's foot (the side facing its owner): on
        # a turned tile that is the top, so the words and the reach move down below it.
        # A two-line name is a size smaller, to keep clear of the bar and the reach.
        foot = border + 6 if turned else size - border - 9
        shift = FOOT_ROOM if turned else 0
        lines, fs = fit_lines(name, size - 16, 18, min_size=SMALL, max_lines=2, bold=True)
        top = size * 0.235 + shift
        if len(lines) > 1:
            lines, fs = fit_lines(name, size - 16, 16, min_size=SMALL, max_lines=2, bold=True)
            top -= 0 if turned else 3  # up into the room a foot bar would take
        put_lines(im, (size / 2, top), lines, fs, ink, bold=True, align="m")
        (_turned_diagram if turned else _diagram)(im, t, size / 2, size * 0.53 + shift, 10, 2)
        hint = _hint(t, lang)
        if hint:
            lines, fs = fit_lines(hint, size - 14, SMALL, min_size=SMALL)
            put_text(im, (size / 2, size * 0.775 + shift), lines[0], fs, _kind_colour(t), align="m")
        d.rectangle((border + 6, foot, size - border - 7, foot + 3), fill=FACTION_BAND[t.faction])
    else:
        lines, fs, bold = mini_name(name, size - 2 * MINI_MARGIN)
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
    label = say(lang, "destroyed")
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
