"""The picture of a Guerra de Mitos table: one band per player with the pantheon, the four
oracles (face down, or face up with their card), the cards in play with their equipment,
the battlefield, and the power of each zone.

Drawn only from the public view (``GdmView`` for seat None): hands, face-down oracle
cards and deck order are not in it, so the picture cannot show them. It is drawn at the
width Discord shows an embedded picture (520 px), so nothing is shrunk on screen.

Its height is bounded whatever happens on the table: identical cards in a zone share one
tile ("Sectario ×200"), and each player's band has at most the rows its share of
``MAX_HEIGHT`` holds, the last tile of a zone that does not fit saying how many more cards
it holds ("+12 more"). A table of six players stays as tall as one of six quiet players.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from cogs.common.catalogue import Pairs
from cogs.common.catalogue import t as _tr
from cogs.common.catalogue import tn as _trn
from cogs.pictures.common import LAST_MOVE
from cogs.pictures.fonts import fit, text_image
from cogs.pictures.fonts import font as shared_font
from rules.guerra_de_mitos.cards import cards as catalogue
from rules.guerra_de_mitos.facts import all_facts
from rules.guerra_de_mitos.lines import name_of
from rules.guerra_de_mitos.model import BATTLE, PANTHEON, CardView, GdmView, SeatView

WIDTH = 520
PAD = 6
HEADER = 26
TOP_LINE = 20  # name and counts
INFO_LINE = 16  # pantheon and power totals
ORACLE_H = 40
TILE_W = (WIDTH - 2 * PAD - 3 * 4) // 4  # four cards a row
TILE_H = 44
GEAR_LINE = 13
GAP = 4
# The tallest the picture is drawn, for any number of players and any number of cards: twice
# its width, so a chat shows all of it at the width it is drawn (a taller picture is scaled
# down to fit the screen, its print with it).
MAX_HEIGHT = 2 * WIDTH
LABEL_LINE = 16  # "no cards in play", "Battlefield"
# A band without its tiles: the name line, the pantheon line, the oracles, the paddings.
BAND_BASE = PAD + TOP_LINE + INFO_LINE + ORACLE_H + GAP + PAD
ROW_MAX = TILE_H + 2 * GEAR_LINE + GAP  # the tallest row of tiles

BG = (243, 238, 226)
BAND = (252, 249, 241)
INK = (34, 28, 22)
FAINT = (112, 102, 88)
CARD = (255, 255, 255)
TIRED = (206, 203, 196)
DOWN = (92, 74, 120)
POWER = (232, 178, 32)
DANGER = (178, 34, 34)
RESOURCE = (226, 240, 222)
FIELD = (250, 226, 222)
# A colour per seat, as the text discs of the embed.
SEAT_COLOUR = (
    (200, 50, 50),
    (50, 100, 200),
    (50, 150, 70),
    (220, 170, 20),
    (140, 70, 170),
    (230, 120, 30),
)
LAVENDER = (220, 214, 236)  # small print on a face-down oracle


def _palette() -> Image.Image:
    """A fixed palette of the picture's colours and the blends of its letters' edges: mapping
    to it is several times faster than finding a palette for every picture."""
    papers = (BG, BAND, CARD, TIRED, DOWN, RESOURCE, FIELD, POWER)
    inks = (INK, FAINT, DANGER, (255, 255, 255), LAVENDER)
    colours = {
        tuple(round(b[j] * (1 - k / 4) + i[j] * k / 4) for j in range(3))
        for b in papers
        for i in inks
        for k in range(5)
    }
    colours |= set(SEAT_COLOUR) | {LAST_MOVE}
    flat = [v for c in sorted(colours) for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


SEAT_DISC = ("🔴", "🔵", "🟢", "🟡", "🟣", "🟠")

# The picture's labels: catalogue ids "pic.gdm.<key>" (cogs/locale).
TEXT = Pairs("pic.gdm.")
# The phases the header names ("pic.gdm.<phase>"); any other is shown as a transfer.
PHASES = ("bid", "starter", "transfer", "influence", "challenge", "fight", "over")


def _t(key: str, locale: str, **kw: object) -> str:
    return _tr("pic.gdm." + key, locale, **kw)


def card_name(card: str, fallback: str, locale: str | None) -> str:
    """A card's (or a created token's) name in the reader's language."""
    c = catalogue().get(card)
    if c is not None:
        return c.display_name(locale)
    if card in all_facts():  # a character or weapon an ability creates
        return name_of(card).get(locale)
    return fallback


def is_character(cv: CardView) -> bool:
    """Whether a card in play is a character (its type, or a created character token)."""
    c = catalogue().get(cv.card)
    if c is not None:
        return c.type == "character"
    return cv.max_power > 0 or cv.strength > 0


PALETTE = _palette()


class Pen:
    """Draws on the picture like ImageDraw, but pastes each text from a cache of drawn texts:
    a table redrawn after every move repeats almost all of its words."""

    def __init__(self, img: Image.Image) -> None:
        self.img = img
        self.draw = ImageDraw.Draw(img)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.draw, name)

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        fill: tuple[int, int, int] = INK,
        font: ImageFont.FreeTypeFont | None = None,
        anchor: str = "la",
    ) -> None:
        """``text`` at ``xy`` with ImageDraw's anchors "la" (default), "ra" and "mm"."""
        f = font or shared_font(12)
        im, left, top = text_image(text, f.size, fill, "Bold" in str(f.path))
        x, y = xy
        if anchor == "mm":
            at = (round(x - im.width / 2), round(y - im.height / 2))
        else:
            if anchor == "ra":
                x -= f.getlength(text)
            at = (round(x + left), round(y + top))
        self.img.paste(im, at, im)


def _card_state(c: CardView) -> tuple[object, ...]:
    return (c.card, c.zone, c.ctrl, c.power, c.strength, c.max_power, c.tired, tuple(c.gear))


def changes(before: GdmView, after: GdmView) -> frozenset[tuple[int, ...]]:
    """What the last move changed on the table: (0, uid) for a card that came into play or
    changed (its zone, controller, power, state, equipment), (1, seat, oracle) for an oracle
    whose cards or power changed."""
    was = {c.uid: _card_state(c) for c in before.in_play}
    out: set[tuple[int, ...]] = {(0, c.uid) for c in after.in_play if was.get(c.uid) != _card_state(c)}
    old = {sv.seat: sv.oracles for sv in before.seats}
    for sv in after.seats:
        prior = old.get(sv.seat, [])
        for i, o in enumerate(sv.oracles):
            if i >= len(prior) or (prior[i].size, prior[i].power, prior[i].top) != (o.size, o.power, o.top):
                out.add((1, sv.seat, i))
    return frozenset(out)


# What the picture being drawn outlines as the last move's (render_board sets it).
_CHANGED: ContextVar[frozenset[tuple[int, ...]]] = ContextVar("gdm_changed", default=frozenset())


def render_board(view: GdmView, names: Sequence[str], locale: str,
                 changed: frozenset[tuple[int, ...]] = frozenset()) -> bytes:
    """The public table as a PNG, 520 px wide; ``changed`` (see ``changes``) outlined."""
    token = _CHANGED.set(changed)
    try:
        return _render(view, names, locale)
    finally:
        _CHANGED.reset(token)


def _render(view: GdmView, names: Sequence[str], locale: str) -> bytes:
    by_owner: dict[int, list[CardView]] = {}
    by_uid = {c.uid: c for c in view.in_play}
    for c in view.in_play:
        if c.zone in (PANTHEON, BATTLE):
            by_owner.setdefault(c.ctrl, []).append(c)
    pantheons = {sv.seat: sv.pantheon for sv in view.seats}
    bands = []
    for sv in view.seats:
        mine = [
            c
            for c in by_owner.get(sv.seat, [])
            if not (c.zone == PANTHEON and c.card == pantheons[sv.seat] and c.owner == sv.seat)
        ]
        budget = (MAX_HEIGHT - HEADER - PAD) // max(1, len(view.seats))
        home, field = _fit(
            _grouped([c for c in mine if c.zone == PANTHEON]),
            _grouped([c for c in mine if c.zone == BATTLE]),
            budget,
        )
        bands.append((sv, home, field, sum(c.power for c in mine)))
    height = HEADER + sum(_band_height(home, field, by_uid) for _, home, field, _ in bands) + PAD
    img = Image.new("RGB", (WIDTH, height), BG)
    d = Pen(img)
    _header(d, view, names, locale)
    y = HEADER
    for sv, home, field, power in bands:
        y = _band(d, view, sv, home, field, power, by_uid, names, locale, y)
    out = io.BytesIO()
    # drawn after every move: a palette picture encodes far faster than RGB
    img.quantize(palette=PALETTE, dither=Image.Dither.NONE).save(
        out, format="PNG", optimize=False, compress_level=1
    )
    return out.getvalue()


class Tile:
    """One tile of a zone: a card, with how many identical ones it stands for (``count``,
    their ``uids``), or (``card`` None) the cards of a zone left out for want of room."""

    __slots__ = ("card", "count", "uids")

    def __init__(self, card: CardView | None, count: int = 1) -> None:
        self.card = card
        self.count = count
        self.uids: list[int] = [card.uid] if card is not None else []


def _grouped(cards: list[CardView]) -> list[Tile]:
    """Identical cards (same card, state and power, without equipment) share one tile, in
    the order of the first of them: a pantheon that creates a token every turn adds a count,
    not a tile."""
    tiles: list[Tile] = []
    seen: dict[tuple[object, ...], Tile] = {}
    for c in cards:
        if c.gear:
            tiles.append(Tile(c))
            continue
        key = (c.card, c.name, c.strength, c.power, c.max_power, c.tired)
        if key in seen:
            seen[key].count += 1
            seen[key].uids.append(c.uid)
        else:
            seen[key] = Tile(c)
            tiles.append(seen[key])
    return tiles


def _cut(tiles: list[Tile], rows: int) -> list[Tile]:
    """At most ``rows`` rows of tiles; the last one counts the cards that do not fit."""
    room = 4 * max(1, rows)
    if len(tiles) <= room:
        return tiles
    left = sum(t.count for t in tiles[room - 1 :])
    return [*tiles[: room - 1], Tile(None, left)]


def _fit(home: list[Tile], field: list[Tile], budget: int) -> tuple[list[Tile], list[Tile]]:
    """The tiles of a band that fit in ``budget`` px: as they are when they fit; else each
    zone cut to its share of the rows (the battlefield's first); else, when even that is
    too tall, both zones in the same rows (the battlefield's tiles first, in its colour)."""
    room = budget - BAND_BASE
    need = (_rows(len(home)) * ROW_MAX if home else LABEL_LINE) + (
        LABEL_LINE + _rows(len(field)) * ROW_MAX if field else 0
    )
    if need <= room:
        return home, field
    if field and room >= 2 * ROW_MAX + 2 * LABEL_LINE:
        rows = (room - LABEL_LINE) // ROW_MAX
        if not home:
            return home, _cut(field, (room - 2 * LABEL_LINE) // ROW_MAX)
        field = _cut(field, max(1, min(_rows(len(field)), rows // 2)))
        return _cut(home, rows - _rows(len(field))), field
    if not field:
        return _cut(home, room // ROW_MAX), field
    return _cut(field + home, room // ROW_MAX), []


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def _header(d: Pen, v: GdmView, names: Sequence[str], locale: str) -> None:
    if v.finished:
        what = _t("over", locale)
    else:
        what = _t(v.phase if v.phase in PHASES else "transfer", locale)
        if v.fight:
            what += " · " + _t("vs", locale, a=_name(names, v.fight[0]), b=_name(names, v.fight[1]))
    legend = _t("last_move", locale)
    small = shared_font(11)
    legend_x = WIDTH - PAD - round(small.getlength(legend))
    d.rounded_rectangle((legend_x - 17, 7, legend_x - 5, 19), 3, outline=LAST_MOVE, width=2)
    d.text((legend_x, 6), legend, fill=FAINT, font=small)
    text, f = fit(
        f"{_t('round', locale, n=v.round)} · {what}", 16, legend_x - 24 - PAD, bold=True, min_size=10
    )
    d.text((PAD, 5), text, fill=INK, font=f)


def _rows(n: int) -> int:
    return (n + 3) // 4


def _tile_height(tiles: list[Tile], by_uid: dict[int, CardView]) -> int:
    """One row's height: the tallest tile (a tile grows by a line per equipment, up to two)."""
    gear = max((min(2, len(t.card.gear)) for t in tiles if t.card is not None), default=0)
    return TILE_H + GEAR_LINE * gear


def _zone_height(tiles: list[Tile], by_uid: dict[int, CardView]) -> int:
    rows = [tiles[i : i + 4] for i in range(0, len(tiles), 4)]
    return sum(_tile_height(r, by_uid) + GAP for r in rows)


def _band_height(home: list[Tile], field: list[Tile], by_uid: dict[int, CardView]) -> int:
    h = PAD + TOP_LINE + INFO_LINE + ORACLE_H + GAP
    h += _zone_height(home, by_uid) if home else LABEL_LINE
    if field:
        h += LABEL_LINE + _zone_height(field, by_uid)
    return h + PAD


def _band(
    d: Pen,
    v: GdmView,
    sv: SeatView,
    home: list[Tile],
    field: list[Tile],
    on_cards: int,
    by_uid: dict[int, CardView],
    names: Sequence[str],
    locale: str,
    top: int,
) -> int:
    bottom = top + _band_height(home, field, by_uid)
    colour = SEAT_COLOUR[sv.seat % len(SEAT_COLOUR)]
    d.rectangle((PAD, top + 2, WIDTH - PAD, bottom - 2), fill=BAND, outline=FAINT)
    d.rectangle((PAD, top + 2, PAD + 5, bottom - 2), fill=colour)
    x0 = PAD + 10
    y = top + PAD
    # name line: who, whose turn, counts
    acting = sv.seat in v.to_act and not v.finished
    marker = ("▶ " if acting else "") + (
        "★ " if v.phase not in ("bid", "starter") and v.first == sv.seat else ""
    )
    name, nf = fit(marker + _name(names, sv.seat), 14, 170, bold=True, min_size=10)
    d.text((x0, y), name, fill=DANGER if not sv.alive else INK, font=nf)
    counts = _t("counts", locale, r=sv.reserve, h=sv.hand_size, d=sv.deck_size, x=len(sv.discard))
    if v.seats and len(v.seats) > 2:
        counts += _t("vp", locale, vp=f"{sv.vp:g}")
    if not sv.alive:
        counts = _t("out", locale) + " · " + counts
    text, f = fit(counts, 12, WIDTH - PAD - 4 - (x0 + 176), bold=True, min_size=10)
    d.text((WIDTH - PAD - 4, y + 2), text, fill=INK, font=f, anchor="ra")
    y += TOP_LINE
    # pantheon and power totals
    on_oracles = sum(o.power for o in sv.oracles)
    pantheon = card_name(sv.pantheon, sv.pantheon, locale)
    info = (
        f"{_t('pantheon', locale)}: {pantheon} · {_t('totals', locale, p=on_cards, o=on_oracles)}"
    )
    if v.phase == "bid":
        info += " · " + (_t("bid_in", locale) if sv.seat not in v.to_act else "…")
    elif sv.bid is not None and v.round == 1 and v.phase in ("starter", "transfer"):
        info += " · " + _t("bid_shown", locale, n=sv.bid)
    text, f = fit(info, 12, WIDTH - PAD - 4 - x0, min_size=10)
    d.text((x0, y), text, fill=FAINT, font=f)
    y += INFO_LINE
    _oracles(d, sv, x0, y, locale)
    y += ORACLE_H + GAP
    if home:
        merged = any(t.card is not None and t.card.zone == BATTLE for t in home)
        y = _tiles(d, home, by_uid, x0, y, locale, None if merged else CARD)
    else:
        d.text((x0, y + 1), _t("nothing", locale), fill=FAINT, font=shared_font(11))
        y += 16
    if field:
        d.text((x0, y + 1), "⚔ " + _t("battle", locale), fill=DANGER, font=shared_font(12, True))
        y += 16
        y = _tiles(d, field, by_uid, x0, y, locale, FIELD)
    return bottom


def _oracles(d: Pen, sv: SeatView, x0: int, y: int, locale: str) -> None:
    w = (WIDTH - PAD - 4 - x0 - 3 * GAP) // 4
    small, bold = shared_font(11), shared_font(12, True)
    for i in range(4):
        x = x0 + i * (w + GAP)
        if i >= len(sv.oracles):
            d.rounded_rectangle((x, y, x + w, y + ORACLE_H), 4, outline=TIRED)
            continue
        o = sv.oracles[i]
        up = o.top is not None
        fill = CARD if up else DOWN if o.size else TIRED
        ink = INK if up or not o.size else (255, 255, 255)
        d.rounded_rectangle((x, y, x + w, y + ORACLE_H), 4, fill=fill, outline=INK)
        label = f"{_t('oracle', locale, n=i + 1)} · {_trn('pic.gdm.cards', o.size, locale) if o.size else _t('empty', locale)}"
        text, f = fit(label, 10, w - 30, min_size=10)
        d.text(
            (x + 4, y + 3),
            text,
            fill=ink if up else (ink if not o.size else LAVENDER),
            font=f,
        )
        if up:
            c = catalogue().get(o.top or "")
            name = card_name(o.top or "", o.top or "?", locale)
            text, f = fit(name, 12, w - 30, bold=True, min_size=10)
            d.text((x + 4, y + 15), text, fill=INK, font=f)
            if c is not None and c.cost is not None:
                d.text(
                    (x + 4, y + 28), _t("cost", locale, c=c.cost), fill=FAINT, font=shared_font(10)
                )
        elif o.size:
            d.text((x + 4, y + 17), _t("down", locale), fill=ink, font=small)
        if o.power:
            cx, cy = x + w - 14, y + ORACLE_H / 2 + 4
            d.ellipse((cx - 11, cy - 11, cx + 11, cy + 11), fill=POWER, outline=INK)
            d.text((cx, cy), str(o.power), fill=INK, font=bold, anchor="mm")
        if (1, sv.seat, i) in _CHANGED.get():
            d.rounded_rectangle((x - 2, y - 2, x + w + 2, y + ORACLE_H + 2), 5, outline=LAST_MOVE, width=2)


def _tiles(
    d: Pen,
    tiles: list[Tile],
    by_uid: dict[int, CardView],
    x0: int,
    y: int,
    locale: str,
    paper: tuple[int, int, int] | None,
) -> int:
    """Rows of tiles from ``y``; ``paper`` None: both zones in one list, each card in its
    zone's colour. Returns the y under the last row."""
    w = (WIDTH - PAD - 4 - x0 - 3 * GAP) // 4
    for r in range(0, len(tiles), 4):
        row = tiles[r : r + 4]
        h = _tile_height(row, by_uid)
        for i, t in enumerate(row):
            x = x0 + i * (w + GAP)
            if t.card is None:  # the cards left out
                d.rounded_rectangle((x, y, x + w, y + h - 2), 4, fill=BAND, outline=FAINT)
                text, f = fit(_t("more", locale, n=t.count), 12, w - 8, bold=True, min_size=10)
                d.text((x + w / 2, y + TILE_H / 2 - 1), text, fill=INK, font=f, anchor="mm")
            else:
                own = paper or (FIELD if t.card.zone == BATTLE else CARD)
                _tile(d, t.card, t.count, by_uid, x, y, w, h, locale, own, marked=paper is None)
                if any((0, uid) in _CHANGED.get() for uid in t.uids):
                    d.rounded_rectangle((x - 2, y - 2, x + w + 2, y + h), 5, outline=LAST_MOVE, width=2)
        y += h + GAP
    return y


def _tile(
    d: Pen,
    c: CardView,
    count: int,
    by_uid: dict[int, CardView],
    x: int,
    y: int,
    w: int,
    h: int,
    locale: str,
    paper: tuple[int, int, int],
    marked: bool = False,
) -> None:
    """One card's tile (``count`` identical ones); ``marked``: "⚔" before a card on the
    battlefield, drawn among the pantheon's cards."""
    char = is_character(c)
    fill = TIRED if c.tired else (paper if char else RESOURCE)
    d.rounded_rectangle((x, y, x + w, y + h - 2), 4, fill=fill, outline=INK)
    room = w - 8
    if count > 1:  # identical cards: the count stays whole at the right, the name gives way
        times, tf = f"×{count}", shared_font(12, True)
        d.text((x + w - 4, y + 3), times, fill=DANGER, font=tf, anchor="ra")
        room -= tf.getlength(times) + 3
    name = ("⚔ " if marked and c.zone == BATTLE else "") + card_name(c.card, c.name, locale)
    name, nf = fit(name, 12, room, bold=True, min_size=10)
    d.text((x + 4, y + 3), name, fill=INK, font=nf)
    if char:
        stats = f"F{c.strength} · {c.power}/{c.max_power}P"
    else:
        stats = f"{c.power}P"
    d.text((x + 4, y + 17), stats, fill=INK, font=shared_font(11, True))
    state = []
    if c.tired:
        state.append(_t("tired", locale))
    if char and c.power <= 0:
        state.append(_t("exhausted", locale))
    if state:
        text, f = fit(" · ".join(state), 10, w - 8, min_size=10)
        d.text((x + 4, y + 30), text, fill=DANGER, font=f)
    gy = y + TILE_H - 2
    gear = [by_uid[g] for g in c.gear if g in by_uid]
    for k, g in enumerate(gear[:2]):
        label = "+ " + card_name(g.card, g.name, locale)
        if k == 1 and len(gear) > 2:
            label = "+ " + _t("more", locale, n=len(gear) - 1)
        elif g.tired:
            label += f" ({_t('tired', locale)})"
        text, f = fit(label, 10, w - 8, min_size=10)
        d.text((x + 4, gy), text, fill=FAINT if g.tired else INK, font=f)
        gy += GEAR_LINE
