"""The picture of an Ankh-Morpork board: a schematic map of the city drawn by the project.

The twelve areas sit where they lie on either bank of the Ankh (the Isle of Gods in the
river), joined by their borders and bridges; each shows its number, name and building
cost, the pieces on it, its trouble marker and who holds its city area card. Under the
map a panel lists the players' money, hands (how many cards), pieces left and area cards,
and the deck, the discard pile, the events and the bank.

Discord shows a picture at most 520 px wide: the picture is 700 wide, so it is shown at
three quarters of its size, and no text is drawn smaller than 13 px (about 10 px shown).

Drawn only from the public view (``AmView`` for seat None): a hand or a personality can
never be drawn because the picture is never given one.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from cogs.common.catalogue import language as _language
from cogs.common.catalogue import t as _tr
from cogs.common.catalogue import tn as _trn
from cogs.pictures.common import LAST_MOVE
from cogs.pictures.fonts import fit, flatten, font, paste_text
from rules.ankh_morpork.board import ADJ, AREAS, RIVER
from rules.ankh_morpork.model import AmView, AreaView, SeatView
from rules.ankh_morpork.personalities import PERSONALITIES

Colour = tuple[int, int, int]

W = 700  # the map, and the players' panel under it
MAP_W = W
BOX_W, BOX_H = 124, 122
TITLE_H = 34
STRIP_H = 38  # an area's title band: its number and its name on up to two lines
PANEL_PAD = 10
COLUMN_W = (W - 3 * PANEL_PAD) // 2  # the players' blocks stand in two columns
LINE = 18  # a line of the players' panel
SMALL = 13  # the smallest text drawn
# A piece: a disc with its count. The picture is shown at 520 of its 700 px, so a count
# drawn at 19 px bold reads as a 10 px high digit there (at 22 px and 15 it was 8 px).
DISC = 26
COUNT_SIZE = 19
PILL_EXTRA = 10  # a two-character count ("12", "T2") is a pill this much wider than a disc

# Every colour is one of the 216 web-safe ones (steps of 51): the picture is put together
# in that fixed palette, so pasting needs no conversion and the PNG encodes fast.
BG: Colour = (204, 204, 153)
PAPER: Colour = (255, 255, 204)
PANEL: Colour = (255, 255, 255)
INK: Colour = (0, 0, 0)
DIM: Colour = (102, 102, 51)
STRIP: Colour = (102, 51, 0)
WHITE: Colour = (255, 255, 255)
RIVER_C: Colour = (51, 102, 153)
RIVER_INK: Colour = (153, 204, 255)
WOOD: Colour = (153, 102, 51)
BORDER: Colour = (153, 153, 102)
TROUBLE: Colour = (255, 51, 0)
TROLL: Colour = (153, 153, 153)
DEMON: Colour = (102, 0, 153)
GOLD: Colour = (255, 204, 0)
# Seat colours as in the box: red, blue, green, yellow.
SEAT_COLOUR: tuple[Colour, ...] = ((204, 0, 0), (0, 102, 204), (0, 153, 51), (255, 204, 0))
SEAT_INK: tuple[Colour, ...] = (WHITE, WHITE, WHITE, INK)

# Where each area's box stands (top-left), by index (number - 1). North bank: Nap Hill,
# Seven Sleepers, Longwall; the Isle of Gods in the river; south bank along the river:
# Dolly Sisters, Unreal Estate, Small Gods, the Scours, Dimwell; inland: Dragon's Landing,
# the Hippo, the Shades.
NORTH_Y, RIVER_TOP, RIVER_BOTTOM, SOUTH_Y, INLAND_Y = 44, 174, 312, 320, 452
MAP_H = INLAND_Y + BOX_H + 10
BOX_AT: tuple[tuple[int, int], ...] = (
    (17, SOUTH_Y),    # 1 Dolly Sisters
    (155, SOUTH_Y),   # 2 Unreal Estate
    (140, INLAND_Y),  # 3 Dragon's Landing
    (293, SOUTH_Y),   # 4 Small Gods
    (431, SOUTH_Y),   # 5 The Scours
    (362, INLAND_Y),  # 6 The Hippo
    (500, INLAND_Y),  # 7 The Shades
    (569, SOUTH_Y),   # 8 Dimwell
    (548, NORTH_Y),   # 9 Longwall
    (362, RIVER_TOP + 8),  # 10 Isle of Gods
    (224, NORTH_Y),   # 11 Seven Sleepers
    (60, NORTH_Y),    # 12 Nap Hill
)

# The picture's labels: catalogue ids "pic.am.<key>" (cogs/locale).


def say(key: str, locale: str, **fmt: object) -> str:
    """A label of the picture in ``locale``."""
    return _tr("pic.am." + key, locale, **fmt)


def printable(text: str) -> str:
    """``text`` as drawn: the project's font has accents, so only control characters go."""
    return "".join(c for c in text if c.isprintable())


@lru_cache(maxsize=64)
def index(colour: Colour) -> int:
    """The palette index of a web-safe colour, for drawing straight onto the picture."""
    pixel = Image.new("RGB", (1, 1), colour).convert("P", palette=Image.Palette.WEB, dither=Image.Dither.NONE)
    return int(pixel.getpixel((0, 0)))  # type: ignore[arg-type]


def centre(a: int) -> tuple[int, int]:
    """The middle of area ``a``'s box."""
    x, y = BOX_AT[a]
    return x + BOX_W // 2, y + BOX_H // 2


# ----------------------------------------------------------------------------- what never changes


def _river(d: ImageDraw.ImageDraw) -> None:
    d.rectangle((0, RIVER_TOP, MAP_W, RIVER_BOTTOM), fill=RIVER_C)
    # a few ripples so the band reads as water
    for k, y in enumerate(range(RIVER_TOP + 14, RIVER_BOTTOM - 6, 22)):
        for x in range(8 + (k % 2) * 24, MAP_W - 20, 48):
            d.arc((x, y, x + 14, y + 8), 200, 340, fill=RIVER_INK, width=1)


def _edges(d: ImageDraw.ImageDraw) -> None:
    """Borders as grey lines, bridges (edges across the river) as planks; the boxes cover
    the middle of each line, so only the part between two areas shows."""
    north = {8, 10, 11}  # Longwall, Seven Sleepers, Nap Hill
    for a in range(12):
        for b in ADJ[a]:
            if b <= a:
                continue
            across = (a in north) != (b in north) or 9 in (a, b)
            (x0, y0), (x1, y1) = centre(a), centre(b)
            if across:
                d.line((x0, y0, x1, y1), fill=WOOD, width=9)
                d.line((x0, y0, x1, y1), fill=STRIP, width=1)
            else:
                d.line((x0, y0, x1, y1), fill=BORDER, width=5)


def _area_frame(d: ImageDraw.ImageDraw, canvas: Image.Image, a: int, locale: str) -> None:
    info = AREAS[a]
    x, y = BOX_AT[a]
    d.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=8, fill=PAPER, outline=BORDER, width=2)
    d.rounded_rectangle((x + 2, y + 2, x + BOX_W - 2, y + STRIP_H), radius=6, fill=STRIP)
    d.ellipse((x + 4, y + 9, x + 26, y + 31), fill=PAPER)
    d.text((x + 15, y + 20), str(info.number), font=font(SMALL, True), fill=STRIP, anchor="mm")
    name = printable(info.name.get(locale))
    lines = _two_lines(name, BOX_W - 36)
    top = y + 20 - (len(lines) - 1) * 8
    for k, line in enumerate(lines):
        d.text((x + 31, top + k * 16), line, font=font(SMALL, True), fill=WHITE, anchor="lm")
    cost = say("money", locale, money=info.cost)
    d.text((x + 7, y + STRIP_H + 14), cost, font=font(15, True), fill=DIM, anchor="lm")
    if a in RIVER:
        # a small wave after the cost: this area floods
        d.arc((x + 50, y + STRIP_H + 10, x + 64, y + STRIP_H + 18), 200, 340, fill=RIVER_C, width=2)


def _two_lines(name: str, width: float) -> list[str]:
    """An area's name on one line, or on two split at a space, at the small text size."""
    f = font(SMALL, True)
    if f.getlength(name) <= width:
        return [name]
    words = name.split()
    for cut in range(len(words) - 1, 0, -1):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if f.getlength(first) <= width:
            return [first, fit(second, SMALL, width, bold=True, min_size=SMALL)[0]]
    return [fit(name, SMALL, width, bold=True, min_size=SMALL)[0]]


@lru_cache(maxsize=4)
def frame(locale: str) -> Image.Image:
    """The background, river, borders, bridges and the twelve empty areas, in palette mode."""
    rgb = Image.new("RGB", (W, MAP_H), BG)
    d = ImageDraw.Draw(rgb)
    _river(d)
    _edges(d)
    d.text((MAP_W - 10, NORTH_Y - 8), say("ankh", locale), font=font(SMALL, True), fill=DIM, anchor="rb")
    d.text((14, MAP_H - 10), say("morpork", locale), font=font(SMALL, True), fill=DIM, anchor="lb")
    d.text((14, RIVER_TOP + 6), say("river", locale), font=font(SMALL), fill=RIVER_INK, anchor="lt")
    for a in range(12):
        _area_frame(d, rgb, a, locale)
    return flatten(rgb, BG)


# ----------------------------------------------------------------------------- sprites


@lru_cache(maxsize=256)
def disc(colour: Colour, ink: Colour, label: str, background: Colour = PAPER) -> Image.Image:
    """A piece: a disc of ``colour`` with ``label`` (its count, or T / D), flattened once; a
    two-character label ("12", "T2") gets a pill as wide as it needs, in the same size."""
    w = DISC if len(label) < 2 else DISC + PILL_EXTRA
    big = 3  # the ring is drawn large and shrunk, for smooth edges
    im = Image.new("RGBA", (w * big, DISC * big), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle((2, 2, w * big - 3, DISC * big - 3), radius=DISC * big // 2,
                                         fill=colour, outline=INK, width=4)
    im = im.resize((w, DISC), Image.Resampling.LANCZOS)
    # The count at its final size, so it stays readable when the picture is shown smaller.
    ImageDraw.Draw(im).text((w / 2, DISC / 2 + 0.5), label, font=font(COUNT_SIZE, True), fill=ink, anchor="mm")
    return flatten(im, background)


@lru_cache(maxsize=64)
def house(colour: Colour, background: Colour = PAPER) -> Image.Image:
    """A building in its owner's colour."""
    w, h = 26, 24
    big = 3
    im = Image.new("RGBA", (w * big, h * big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.polygon([(2, 30), (w * big / 2, 2), (w * big - 3, 30)], fill=colour, outline=INK, width=4)
    d.rectangle((10, 30, w * big - 11, h * big - 3), fill=colour, outline=INK, width=4)
    d.rectangle((w * big / 2 - 7, h * big - 26, w * big / 2 + 7, h * big - 3), fill=INK)
    return flatten(im.resize((w, h), Image.Resampling.LANCZOS), background)


@lru_cache(maxsize=16)
def card_tag(colour: Colour | None, background: Colour = PAPER) -> Image.Image:
    """The area's city card: in its holder's colour, or crossed out when set aside."""
    w, h = 16, 21
    big = 3
    im = Image.new("RGBA", (w * big, h * big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    fill = colour if colour is not None else PAPER
    d.rounded_rectangle((2, 2, w * big - 3, h * big - 3), radius=6, fill=fill, outline=INK, width=4)
    if colour is None:
        d.line((6, 6, w * big - 7, h * big - 7), fill=TROUBLE, width=6)
    else:
        d.line((10, 16, w * big - 11, 16), fill=INK, width=3)
        d.line((10, 28, w * big - 11, 28), fill=INK, width=3)
    return flatten(im.resize((w, h), Image.Resampling.LANCZOS), background)


@lru_cache(maxsize=4)
def trouble_marker(background: Colour = PAPER) -> Image.Image:
    """The trouble marker."""
    s = 22 * 3
    im = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.polygon([(s / 2, 3), (s - 3, s - 6), (3, s - 6)], fill=TROUBLE, outline=INK, width=4)
    d.text((s / 2, s * 0.62), "!", font=font(34, True), fill=WHITE, anchor="mm")
    return flatten(im.resize((22, 22), Image.Resampling.LANCZOS), background)


# ----------------------------------------------------------------------------- the changing parts


def _pieces(area: AreaView) -> list[tuple[Colour, Colour, str]]:
    """The discs to draw in an area: each seat's minions, then trolls, then demons."""
    out = [(SEAT_COLOUR[s % 4], SEAT_INK[s % 4], str(n)) for s, n in enumerate(area.minions) if n]
    if area.trolls:
        out.append((TROLL, INK, f"T{area.trolls}" if area.trolls > 1 else "T"))
    if area.demons:
        out.append((DEMON, WHITE, f"D{area.demons}" if area.demons > 1 else "D"))
    return out


def _draw_area(canvas: Image.Image, d: ImageDraw.ImageDraw, area: AreaView) -> None:
    a = area.index
    x, y = BOX_AT[a]
    if area.controller is not None:
        # the controller's colour round the box: who would score it, who a
        # personality counts it for
        d.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=8,
                            outline=index(SEAT_COLOUR[area.controller % 4]), width=3)
    # The line under the name: the cost on the left; the trouble marker, the area's card
    # and the building on the right.
    row = y + STRIP_H + 3
    if area.building >= 0:
        canvas.paste(house(SEAT_COLOUR[area.building % 4]), (x + BOX_W - 31, row))
    if area.card_holder is not None:
        canvas.paste(card_tag(SEAT_COLOUR[area.card_holder % 4]), (x + BOX_W - 51, row + 2))
    elif area.card_out:
        canvas.paste(card_tag(None), (x + BOX_W - 51, row + 2))
    if area.trouble:
        canvas.paste(trouble_marker(), (x + BOX_W - 77, row + 1))
    # Two rows of four discs under the markers' line (four seats, trolls and demons fit).
    px, py = x + 6, y + STRIP_H + 28
    for colour, ink, label in _pieces(area):
        piece = disc(colour, ink, label)
        if px + piece.width > x + BOX_W - 4:
            px, py = x + 6, py + DISC + 2
        canvas.paste(piece, (px, py))
        px += piece.width + 1


def _seat_lines(view: AmView, sv: SeatView, locale: str) -> list[str]:
    """The lines under a player's name in the panel."""
    s = sv.seat
    lines = [say("hand", locale, n=sv.hand_size) + "  ·  "
             + say("pieces", locale, m=sv.minions_in_supply, b=sv.buildings_in_supply)]
    numbers = ", ".join(str(AREAS[a].number) for a in sv.area_cards)
    lines.append(say("cards", locale, areas=numbers) if numbers else say("no_cards", locale))
    extra = []
    if sv.loans:
        extra.append(say("loans", locale, n=len(sv.loans)))
    if sv.stuck:
        extra.append(say("stuck", locale, n=len(sv.stuck)))
    if view.finished and s < len(view.scores):
        # the personalities are turned face up at the end
        who = PERSONALITIES.get(sv.personality or "")
        end = [_trn("pic.am.score", view.scores[s], locale)]
        if s in view.winners:
            end.append(say("winner", locale))
        if who is not None:
            end.append(who.name.get(locale))
        lines.insert(0, "  ·  ".join(end))
    if extra:
        lines.append("  ·  ".join(extra))
    return lines


def _seat_block(canvas: Image.Image, view: AmView, sv: SeatView, x: int, y: int,
                names: Sequence[str], locale: str) -> None:
    s = sv.seat
    colour = SEAT_COLOUR[s % 4]
    if view.finished and s in view.winners:
        ImageDraw.Draw(canvas).rounded_rectangle(
            (x - 5, y - 5, x + COLUMN_W + 3, y + _block_height(view, sv) - 6), radius=6,
            outline=index(GOLD), width=3)
    # no number here: on the map a disc's number is how many minions stand there
    canvas.paste(disc(colour, SEAT_INK[s % 4], "", PANEL), (x, y))
    name = printable(names[s]) if s < len(names) else f"#{s + 1}"
    turn = not view.finished and s in view.to_act
    money = say("money", locale, money=sv.money)
    money_w = font(16, True).getlength(money)
    label, f = fit(("▶ " if turn else "") + (name or f"#{s + 1}"), 16, COLUMN_W - DISC - 20 - money_w,
                   bold=True, min_size=SMALL)
    paste_text(canvas, (x + DISC + 6, y + DISC / 2), label, f.size, INK, PANEL, bold=True, middle=True)
    paste_text(canvas, (x + COLUMN_W - money_w, y + DISC / 2), money, 16, STRIP, PANEL, bold=True, middle=True)
    y += DISC + 5
    for line in _seat_lines(view, sv, locale):
        text, f = fit(line, SMALL + 1, COLUMN_W, min_size=SMALL)
        paste_text(canvas, (x + 2, y), text, f.size, DIM, PANEL)
        y += LINE


def _block_height(view: AmView, sv: SeatView) -> int:
    """How tall a player's block is: the name line and the lines under it."""
    return DISC + 5 + LINE * len(_seat_lines(view, sv, "en")) + 10  # one language: as many lines in each


def _area_state(area: AreaView) -> tuple[object, ...]:
    return (tuple(area.minions), area.trolls, area.demons, area.trouble, area.building,
            area.card_holder, area.card_out)


def changes(before: AmView, after: AmView) -> frozenset[int]:
    """The areas (their indexes) where a piece, a building, the trouble marker or the area
    card came, went or changed hands from ``before`` to ``after``."""
    was = {a.index: _area_state(a) for a in before.areas}
    return frozenset(a.index for a in after.areas if was.get(a.index) != _area_state(a))


def _mark_changes(d: ImageDraw.ImageDraw, changed: frozenset[int]) -> None:
    """An outline round each area the last move changed, outside its controller's."""
    for a in sorted(changed):
        if 0 <= a < len(BOX_AT):
            x, y = BOX_AT[a]
            d.rounded_rectangle((x - 5, y - 5, x + BOX_W + 5, y + BOX_H + 5), radius=10,
                                outline=index(LAST_MOVE), width=3)


def render_board(view: AmView, names: Sequence[str], locale: str,
                 changed: frozenset[int] = frozenset()) -> bytes:
    """A PNG of the public board (``view`` must be the public view: seat None; ``changed``:
    the areas the last move changed, outlined)."""
    if view.seat is not None or view.hand is not None or view.personality is not None:
        # A private view holds a hand: refuse rather than risk drawing it for everyone.
        raise ValueError("the board picture is drawn from the public view only")
    pairs = [view.seats[k:k + 2] for k in range(0, len(view.seats), 2)]
    rows = [max(_block_height(view, sv) for sv in pair) for pair in pairs]
    height = MAP_H + PANEL_PAD + sum(rows) + LINE * 2 + PANEL_PAD
    map_part = frame(_language(locale))
    canvas = Image.new("P", (W, height))
    canvas.putpalette(map_part.getpalette() or [])
    canvas.paste(index(PANEL), (0, MAP_H, W, height))
    canvas.paste(map_part, (0, 0))
    d = ImageDraw.Draw(canvas)
    d.line((0, MAP_H, W, MAP_H), fill=index(BORDER), width=2)
    title = say("title", locale)
    paste_text(canvas, (12, TITLE_H / 2), title, 17, STRIP, BG, bold=True, middle=True)
    status = say("over", locale) if view.finished else say("turn", locale, n=view.turn_no)
    if not view.finished and view.turn < len(names):
        status += "  ·  " + say("to_play", locale, name=printable(names[view.turn]))
    left = 12 + round(font(17, True).getlength(title)) + 18
    # What the blue outline means, at the title's right end.
    legend = say("last_move", locale)
    legend_w = round(font(SMALL).getlength(legend))
    legend_x = W - 12 - legend_w
    d.rounded_rectangle((legend_x - 20, TITLE_H / 2 - 7, legend_x - 6, TITLE_H / 2 + 7), radius=3,
                        outline=index(LAST_MOVE), width=2)
    paste_text(canvas, (legend_x, TITLE_H / 2), legend, SMALL, INK, BG, middle=True)
    text, f = fit(status, 15, legend_x - 32 - left, min_size=SMALL)
    paste_text(canvas, (left, TITLE_H / 2), text, f.size, INK, BG, middle=True)
    _mark_changes(d, changed)
    for area in view.areas:
        _draw_area(canvas, d, area)
    y = MAP_H + PANEL_PAD + 4
    for pair, row in zip(pairs, rows, strict=True):
        for k, sv in enumerate(pair):
            _seat_block(canvas, view, sv, PANEL_PAD + k * (COLUMN_W + PANEL_PAD), y, names, locale)
        y += row
    totals = "  ·  ".join((say("deck", locale, n=view.deck_count), say("discard", locale, n=len(view.discard)),
                           say("events", locale, n=view.events_left), say("bank", locale, n=view.bank),
                           say("trouble", locale, n=view.trouble_count)))
    text, f = fit(totals, 14, W - 2 * PANEL_PAD, min_size=SMALL)
    paste_text(canvas, (PANEL_PAD, y + 4), text, f.size, INK, PANEL)
    out = io.BytesIO()
    # Level 1: the picture is sent again after every move; speed matters more than bytes.
    canvas.save(out, "PNG", compress_level=1)
    return out.getvalue()
