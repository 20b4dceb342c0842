"""The picture of a Ragami board: the city with every piece, the action board, the players.

Drawn only from the public view (``RgView`` for seat None): the picture can never show a
hand or the deck, because it is never given them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from cogs.common.catalogue import count as _count
from cogs.common.catalogue import t as _tr
from cogs.pictures.common import LAST_MOVE
from cogs.pictures.fonts import fit
from cogs.pictures.fonts import font as shared_font
from rules.ragami.city import BUILDING_NAME, BUILDINGS, POSITION, RECT
from rules.ragami.model import RgView

WIDTH = 760
# Discord shows an embed's picture about 520 px wide: every text is drawn at least
# TEXT_MIN px high at full size, so it is still about 11 px on the screen.
DISPLAY = 520
TEXT_MIN = 16
MARGIN = 38
SCALE = (WIDTH - 2 * MARGIN) / 12
HEADER = 40
CITY = int(12 * SCALE + 2 * MARGIN)
BOARD_H = 76
PLAYER_LINE = 32
HALF = 19  # half the side of a street square

BG = (245, 240, 228)
STREET = (205, 205, 205)
BUILDING = (214, 198, 166)
INK = (40, 32, 24)
FAINT = (120, 108, 92)
WHITE = (255, 255, 255)
FORBIDDEN = (90, 20, 20)
DEMON = (200, 30, 30)
# yellow, green, blue, purple: the four colours of the box
COLOUR = ((236, 196, 30), (60, 160, 80), (50, 110, 210), (140, 70, 170))

# The picture's labels: catalogue ids "pic.rg.<key>" (cogs/locale).


def _t(key: str, locale: str, **kw: object) -> str:
    return _tr("pic.rg." + key, locale, **kw)


def _px(x: float, y: float) -> tuple[float, float]:
    return MARGIN + x * SCALE, HEADER + MARGIN + y * SCALE


def _at_squares(v: RgView) -> dict[str, tuple[object, ...]]:
    """What stands on each street square and in each building, as comparable values."""
    out: dict[str, tuple[object, ...]] = {}
    conflicts = {c.square: (c.die, c.demons) for c in v.conflicts}
    for q in POSITION:
        out[str(q)] = (q in v.forbidden, conflicts.get(q), v.demons.count(q),
                       tuple(c for c, sq in enumerate(v.saints) if sq == q),
                       tuple(c for c, node in enumerate(v.ragamis) if node == str(q)))
    for b in BUILDINGS:
        out[b] = (tuple((p.seat, p.virtue) for p in v.players if p.virtue_at == b),
                  tuple(c for c, node in enumerate(v.ragamis) if node == b))
    return out


def changes(before: RgView, after: RgView) -> frozenset[str]:
    """The street squares (their numbers) and buildings (their letters) where a piece came,
    went or changed from ``before`` to ``after``."""
    a, b = _at_squares(before), _at_squares(after)
    return frozenset(k for k in b if a.get(k) != b[k])


def _mark_changes(d: ImageDraw.ImageDraw, changed: frozenset[str]) -> None:
    """Outline what the last move changed: a square with its pieces, or a building."""
    for key in changed:
        if key in RECT:
            x0, y0, x1, y1 = RECT[key]
            d.rectangle((*_px(x0 + INSET, y0 + INSET), *_px(x1 - INSET, y1 - INSET)),
                        outline=LAST_MOVE, width=4)
        elif key.isdigit() and int(key) in POSITION:
            px, py = _px(*POSITION[int(key)])
            reach = HALF + 8
            d.rounded_rectangle((px - reach, py - reach, px + reach, py + reach), 6,
                                outline=LAST_MOVE, width=3)


def render_board(
    view: RgView, names: Sequence[str], locale: str, winners: Sequence[int] | None = None,
    changed: frozenset[str] = frozenset(),
) -> bytes:
    """The public board as a PNG (with ``winners``, the seats that won, marked; ``changed``:
    the squares and buildings the last move changed, outlined)."""
    n = len(view.players)
    img = _background(n, locale).copy()
    d = _Draw(img)
    _header(d, view, names, locale, winners)
    _mark_changes(d, changed)
    _city(d, view, locale)
    _action_board(d, view, locale, HEADER + CITY)
    _players(d, view, names, locale, HEADER + CITY + BOARD_H, winners)
    out = io.BytesIO()
    # drawn after every move: a palette PNG encodes far faster than RGB, and mapping onto a
    # palette made once (the board's colours and the blends at the edges of its letters
    # and shapes) costs a millisecond where working a palette out each time costs thirty
    img.quantize(palette=_palette(), dither=Image.Dither.NONE).save(
        out, format="PNG", optimize=False, compress_level=1
    )
    return out.getvalue()


class _Draw(ImageDraw.ImageDraw):
    """ImageDraw whose texts are drawn once and then pasted: a board redrawn after every
    move repeats most of its texts (square numbers, names, labels)."""

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self.canvas = im

    def text(  # type: ignore[override]
        self,
        xy: tuple[float, float],
        text: str,
        fill: tuple[int, int, int] = INK,
        font: ImageFont.FreeTypeFont | None = None,
        anchor: str = "la",
    ) -> None:
        """Paste ``text`` at ``xy`` (its ``anchor`` point), drawn once per font and colour."""
        assert font is not None
        strip, left, top = _glyphs(text, font, fill, anchor)
        self.canvas.paste(strip, (round(xy[0] + left), round(xy[1] + top)), strip)


@lru_cache(maxsize=4096)
def _glyphs(
    text: str, font: ImageFont.FreeTypeFont, fill: tuple[int, int, int], anchor: str
) -> tuple[Image.Image, int, int]:
    """``text`` on a transparent strip, with the strip's offset from the anchor point."""
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    strip = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (*fill, 0))
    ImageDraw.Draw(strip).text((-left, -top), text, fill=fill, font=font, anchor=anchor)
    return strip, left, top


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A palette image of the picture's colours and three blends between every two."""
    base = [BG, STREET, BUILDING, INK, FAINT, WHITE, FORBIDDEN, DEMON, *COLOUR, LAST_MOVE]
    colours = list(base)
    for i, a in enumerate(base):
        for b in base[i + 1 :]:
            colours += [
                tuple(round(x + (y - x) * k / 4) for x, y in zip(a, b, strict=True))
                for k in (1, 2, 3)
            ]
    colours = list(dict.fromkeys(colours))[:256]
    colours += [BG] * (256 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette([c for rgb in colours for c in rgb])
    return pal


def _header(
    d: ImageDraw.ImageDraw,
    v: RgView,
    names: Sequence[str],
    locale: str,
    winners: Sequence[int] | None,
) -> None:
    if v.finished and winners:
        who = names[winners[0]] if winners[0] < len(names) else f"#{winners[0] + 1}"
        what = _t("won", locale, who=who) if len(winners) == 1 else _t("shared", locale)
    elif v.finished:
        what = _t("over", locale)
    elif v.phase == "turn":
        what = _t("turn", locale, name=names[v.turn] if v.turn < len(names) else v.turn + 1)
    else:
        what = _t(v.phase if v.phase in ("keep", "setup") else "setup", locale)
    text, f = fit(
        f"{_t('round', locale, n=v.round)} · {what}", 26, WIDTH - 20, bold=True, min_size=TEXT_MIN
    )
    d.text((10, 7), text, fill=INK, font=f)


INSET = 0.4


# The legend under the players: each kind of piece the city shows, drawn as it is there,
# with its name ("pic.rg.legend.<kind>").
LEGEND = ("saint", "ragami", "neutral", "demon", "conflict", "forbidden", "virtue", "last_move")
LEGEND_ROW = 30
LEGEND_ICON = 30  # the width an icon takes before its word


def _legend_rows(locale: str) -> list[list[tuple[str, str, float]]]:
    """The legend's items as rows that fit the picture's width: (kind, word, x)."""
    f = shared_font(TEXT_MIN, True)
    rows: list[list[tuple[str, str, float]]] = [[]]
    x = 12.0
    for kind in LEGEND:
        word = _t("legend." + kind, locale)
        w = LEGEND_ICON + f.getlength(word) + 18
        if rows[-1] and x + w > WIDTH - 10:
            rows.append([])
            x = 12.0
        rows[-1].append((kind, word, x))
        x += w
    return rows


def _legend(d: _Draw, top: float, locale: str) -> None:
    """Draw the legend with its top at ``top``."""
    f = shared_font(TEXT_MIN, True)
    for r, row in enumerate(_legend_rows(locale)):
        y = top + r * LEGEND_ROW + LEGEND_ROW / 2
        for kind, word, x in row:
            cx = x + 12
            if kind == "saint":
                d.ellipse((cx - 8, y - 8, cx + 8, y + 8), fill=COLOUR[0], outline=INK, width=2)
            elif kind in ("ragami", "neutral"):
                _ragami(d, cx, y, 2, kind == "neutral", f)
            elif kind == "demon":
                d.polygon([(cx - 10, y - 8), (cx + 10, y - 8), (cx, y + 9)], fill=DEMON, outline=INK)
            elif kind == "conflict":
                d.rounded_rectangle((cx - 11, y - 11, cx + 11, y + 11), 4, fill=INK)
                d.text((cx, y), "4", fill=WHITE, font=f, anchor="mm")
            elif kind == "forbidden":
                d.rectangle((cx - 11, y - 11, cx + 11, y + 11), fill=FORBIDDEN, outline=INK)
                d.line((cx - 6, y - 6, cx + 6, y + 6), fill=WHITE, width=3)
                d.line((cx - 6, y + 6, cx + 6, y - 6), fill=WHITE, width=3)
            elif kind == "last_move":
                d.rounded_rectangle((cx - 11, y - 11, cx + 11, y + 11), 4, outline=LAST_MOVE, width=3)
            else:  # a virtue die in a building
                d.rounded_rectangle((cx - 11, y - 11, cx + 11, y + 11), 5, fill=COLOUR[1], outline=INK)
                d.text((cx, y), "2", fill=WHITE, font=f, anchor="mm")
            d.text((x + LEGEND_ICON, y), word, fill=FAINT, font=f, anchor="lm")


def _legend_top(players: int) -> int:
    """Where the legend starts: under the players and the supply line."""
    return HEADER + CITY + BOARD_H + PLAYER_LINE * players + 34


@lru_cache(maxsize=8)
def _background(players: int, locale: str) -> Image.Image:
    """What never changes: the streets, the buildings with their names, the legend."""
    height = _legend_top(players) + LEGEND_ROW * len(_legend_rows(locale)) + 6
    img = Image.new("RGB", (WIDTH, height), BG)
    d = _Draw(img)
    _legend(d, _legend_top(players), locale)
    for b in BUILDINGS:
        x0, y0, x1, y1 = RECT[b]
        corners = [_px(x0, y0), _px(x1, y0), _px(x1, y1), _px(x0, y1), _px(x0, y0)]
        d.line(corners, fill=STREET, width=int(SCALE * 0.55), joint="curve")
    big = shared_font(24, True)
    for b in BUILDINGS:
        x0, y0, x1, y1 = RECT[b]
        box = (*_px(x0 + INSET, y0 + INSET), *_px(x1 - INSET, y1 - INSET))
        d.rectangle(box, fill=BUILDING, outline=FAINT, width=2)
        cx, cy = _px((x0 + x1) / 2, (y0 + y1) / 2)
        d.text((cx, cy - 34), b, fill=INK, font=big, anchor="mm")
        name, small = fit(
            BUILDING_NAME[b].get(locale), 17, box[2] - box[0] - 8, bold=True, min_size=TEXT_MIN
        )
        d.text((cx, cy - 12), name, fill=FAINT, font=small, anchor="mm")
    return img


def _city(d: ImageDraw.ImageDraw, v: RgView, locale: str) -> None:
    small, tiny, big = shared_font(18, True), shared_font(TEXT_MIN, True), shared_font(24, True)
    virtue_at: dict[str, list[int]] = {}
    for p in v.players:
        if p.virtue_at is not None:
            virtue_at.setdefault(p.virtue_at, []).append(p.seat)
    ragamis: dict[str, list[int]] = {}
    for c, node in enumerate(v.ragamis):
        if node is not None:
            ragamis.setdefault(node, []).append(c)
    for b in BUILDINGS:
        x0, y0, x1, y1 = RECT[b]
        cx, cy = _px((x0 + x1) / 2, (y0 + y1) / 2)
        for i, seat in enumerate(virtue_at.get(b, [])):
            x = cx - 62 + 32 * i
            d.rounded_rectangle((x, cy + 4, x + 28, cy + 32), 5, fill=COLOUR[seat], outline=INK)
            d.text(
                (x + 14, cy + 18), str(v.players[seat].virtue), fill=WHITE, font=small, anchor="mm"
            )
        for i, c in enumerate(ragamis.get(b, [])):
            _ragami(d, cx - 42 + 28 * i, cy + 54, c, v.neutral == c, tiny)
    conflicts = {c.square: c for c in v.conflicts}
    half = HALF
    for q, (x, y) in POSITION.items():
        px, py = _px(x, y)
        if q in v.forbidden:
            d.rectangle((px - half, py - half, px + half, py + half), fill=FORBIDDEN, outline=INK)
            d.line((px - 11, py - 11, px + 11, py + 11), fill=WHITE, width=4)
            d.line((px - 11, py + 11, px + 11, py - 11), fill=WHITE, width=4)
        elif q in conflicts:
            d.rounded_rectangle((px - half, py - half, px + half, py + half), 5, fill=INK)
            d.text((px, py), str(conflicts[q].die), fill=WHITE, font=big, anchor="mm")
        else:
            d.rectangle(
                (px - half, py - half, px + half, py + half), fill=WHITE, outline=INK, width=2
            )
            d.text((px, py), str(q), fill=INK, font=small, anchor="mm")
        if q in conflicts or q in v.forbidden:
            # the square's number above its die or cross
            d.text((px, py - half - 9), str(q), fill=INK, font=tiny, anchor="mm")
        demons = v.demons.count(q)
        if demons:
            d.polygon(
                [
                    (px + half - 3, py - half - 8),
                    (px + half + 17, py - half - 8),
                    (px + half + 7, py - half + 9),
                ],
                fill=DEMON,
                outline=INK,
            )
            if demons > 1:
                d.text(
                    (px + half + 7, py - half - 3), str(demons), fill=WHITE, font=tiny, anchor="mm"
                )
        for c, sq in enumerate(v.saints):
            if sq == q:
                sx = px - half - 10
                sy = py + half - 4 - 17 * sum(1 for k in range(c) if v.saints[k] == q)
                d.ellipse((sx - 8, sy - 8, sx + 8, sy + 8), fill=COLOUR[c], outline=WHITE, width=2)
        for i, c in enumerate(ragamis.get(str(q), [])):
            _ragami(d, px - 13 + 26 * i, py + half + 12, c, v.neutral == c, tiny)


def _ragami(d: ImageDraw.ImageDraw, x: float, y: float, colour: int, neutral: bool, f) -> None:
    d.polygon(
        [(x, y - 13), (x + 12, y), (x, y + 13), (x - 12, y)],
        fill=COLOUR[colour],
        outline=INK if not neutral else WHITE,
    )
    d.text((x, y), "N" if neutral else "R", fill=WHITE, font=f, anchor="mm")


def _action_board(d: ImageDraw.ImageDraw, v: RgView, locale: str, top: int) -> None:
    names = _t("slots", locale).split("|")
    w = (WIDTH - 20) / 3
    big = shared_font(28, True)
    for i in range(3):
        x = 10 + i * w
        d.rounded_rectangle(
            (x + 3, top + 4, x + w - 3, top + BOARD_H - 6), 6, fill=WHITE, outline=FAINT
        )
        value = v.dice[i] if i < len(v.dice) else 0
        colour = DEMON if value == 1 else INK if value else FAINT
        d.rounded_rectangle((x + 9, top + 14, x + 53, top + 58), 7, fill=colour)
        d.text((x + 31, top + 36), str(value), fill=WHITE, font=big, anchor="mm")
        label, f = fit(names[i], 18, w - 68, bold=True, min_size=TEXT_MIN)
        d.text((x + 60, top + 14), label, fill=INK, font=f)
        more, small = fit(_t("move", locale), 16, w - 68, min_size=TEXT_MIN)
        d.text((x + 60, top + 40), more, fill=FAINT, font=small)


def _players(
    d: ImageDraw.ImageDraw,
    v: RgView,
    names: Sequence[str],
    locale: str,
    top: int,
    winners: Sequence[int] | None,
) -> None:
    for p in v.players:
        y = top + PLAYER_LINE * p.seat + 4
        d.ellipse((12, y + 3, 32, y + 23), fill=COLOUR[p.seat], outline=INK)
        name = names[p.seat] if p.seat < len(names) else f"#{p.seat + 1}"
        marker = "▶ " if v.phase == "turn" and v.turn == p.seat and not v.finished else ""
        if winners and p.seat in winners:
            marker = "★ "
        label, lf = fit(marker + name, 20, 220, bold=True, min_size=TEXT_MIN)
        d.text((40, y + 1), label, fill=INK, font=lf)
        info = _t("player", locale, vp=p.vp, res=_count("resolved", p.resolved, locale),
                  cubes=_count("cubes", p.cubes, locale), hand=_count("cards", p.hand, locale))
        info, f = fit(info, 19, WIDTH - 274, bold=True, min_size=TEXT_MIN)
        d.text((266, y + 2), info, fill=INK, font=f)
    y = top + PLAYER_LINE * len(v.players) + 6
    text = _t(
        "supply", locale, pool=v.pool, deck=v.deck, cubes=v.cube_supply, demons=v.demon_supply
    )
    label, lf = fit(text, 18, WIDTH - 20, bold=True, min_size=TEXT_MIN)
    d.text((12, y), label, fill=FAINT, font=lf)
