"""A Guerra de Mitos deck as a picture: pantheon, counts by type and the two cost curves.

Drawn 700 px wide with no text under 13 px, so it stays readable when Discord shows it
520 px wide.
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from cogs.common.catalogue import t as _tr
from cogs.pictures.common import RGB, drawable, fit_lines, put_text, truncate
from rules.guerra_de_mitos.cards import MYTHOLOGY_NAME, TYPE_NAME, cards
from rules.guerra_de_mitos.decks import DESIGN_DECK_MIN, GOD_DECK_MIN, Deck, summary

WIDTH = 700
HEIGHT = 430
PAD = 20
BG: RGB = (30, 32, 40)
PANEL: RGB = (44, 47, 58)
INK: RGB = (236, 236, 240)
DIM: RGB = (170, 174, 188)
GOOD: RGB = (110, 200, 130)
BAD: RGB = (235, 150, 90)
GOD_BAR: RGB = (214, 168, 72)
DESIGN_BAR: RGB = (96, 150, 220)
GOD_TYPES = ("character", "resource", "event")
DESIGN_TYPES = ("action", "invocation", "equipment")
MYTH_COLOUR: dict[str, RGB] = {
    "Japonesa": (200, 70, 80),
    "Nórdica": (90, 140, 210),
    "Griega": (230, 200, 90),
    "Azteca": (80, 170, 110),
    "Egipcia": (210, 150, 60),
    "Primigenia": (140, 100, 190),
    "Neutral": (150, 150, 150),
}


# The picture's labels: catalogue ids "pic.deck.<key>" (cogs/locale).
WORDS = ("no_pantheon", "legal", "not_legal", "god", "design", "cost", "curve_god", "curve_design", "empty")


def _words(locale: str) -> dict[str, str]:
    return {key: _tr("pic.deck." + key, locale) for key in WORDS}


def _curve(
    draw: ImageDraw.ImageDraw,
    canvas: Image.Image,
    box: tuple[int, int, int, int],
    curve: dict[int, int],
    colour: RGB,
    title: str,
    empty: str,
) -> None:
    """A bar chart of copies by cost inside ``box``: counts above the bars, costs under them."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=PANEL)
    (line,), size = fit_lines(title, x1 - x0 - 20, 15, min_size=13)
    put_text(canvas, (x0 + 10, y0 + 16), line, size, DIM, bold=True)
    if not curve:
        put_text(canvas, ((x0 + x1) / 2, (y0 + y1) / 2 + 10), empty, 15, DIM, align="m")
        return
    costs = list(range(min(curve), max(curve) + 1))
    top = max(curve.values())
    inner_x0, inner_x1 = x0 + 12, x1 - 12
    base_y, chart_top = y1 - 26, y0 + 52
    step = (inner_x1 - inner_x0) / len(costs)
    bar_w = max(6.0, min(34.0, step - 6))
    for k, cost in enumerate(costs):
        n = curve.get(cost, 0)
        cx = inner_x0 + step * (k + 0.5)
        h = 0 if top == 0 else (base_y - chart_top) * n / top
        if n:
            draw.rectangle((cx - bar_w / 2, base_y - h, cx + bar_w / 2, base_y), fill=colour)
            put_text(canvas, (cx, base_y - h - 10), str(n), 13, INK, bold=True, align="m")
        put_text(canvas, (cx, base_y + 13), str(cost), 13, DIM, align="m")


def render_deck(deck: Deck, name: str, locale: str) -> bytes:
    """The deck as a PNG: name and pantheon, legality, counts by type, the two cost curves."""
    w = _words(locale)
    s = summary(deck)
    canvas = Image.new("RGB", (WIDTH, HEIGHT), BG)
    draw = ImageDraw.Draw(canvas)
    pantheon = cards().get(deck.pantheon) if deck.pantheon else None
    myth = pantheon.mythology if pantheon is not None else None
    stripe = MYTH_COLOUR.get(myth or "", DIM)
    draw.rectangle((0, 0, 8, HEIGHT), fill=stripe)

    title = truncate(drawable(name) or "?", WIDTH - 2 * PAD - 200, 24, bold=True)
    put_text(canvas, (PAD, 28), title, 24, INK, bold=True)
    ok = s.legal
    put_text(
        canvas,
        (WIDTH - PAD, 28),
        w["legal"] if ok else w["not_legal"],
        15,
        GOOD if ok else BAD,
        bold=True,
        align="r",
    )
    if pantheon is not None:
        line = f"{pantheon.display_name(locale)} · {MYTHOLOGY_NAME[pantheon.mythology or 'Neutral'].get(locale)}"
        line += f" · {pantheon.starting_power}P"
    else:
        line = w["no_pantheon"]
    put_text(
        canvas, (PAD, 62), truncate(line, WIDTH - 2 * PAD, 17), 17, stripe if pantheon else BAD
    )

    # counts by type, the god deck's three types and the design deck's three
    half = (WIDTH - 3 * PAD) // 2
    for side, (label, types, size, need) in enumerate(
        (
            (w["god"], GOD_TYPES, s.god_size, GOD_DECK_MIN),
            (w["design"], DESIGN_TYPES, s.design_size, DESIGN_DECK_MIN),
        )
    ):
        x0 = PAD + side * (half + PAD)
        box = (x0, 88, x0 + half, 186)
        draw.rounded_rectangle(box, radius=8, fill=PANEL)
        put_text(canvas, (x0 + 10, 104), label, 15, INK, bold=True)
        put_text(
            canvas,
            (x0 + half - 10, 104),
            f"{size}/{need}",
            15,
            GOOD if size >= need else BAD,
            bold=True,
            align="r",
        )
        cell = half / 3
        for k, t in enumerate(types):
            cx = x0 + cell * (k + 0.5)
            put_text(canvas, (cx, 138), str(s.by_type.get(t, 0)), 22, INK, bold=True, align="m")
            (tname,), tsize = fit_lines(TYPE_NAME[t].get(locale), cell - 6, 14, min_size=13)
            put_text(canvas, (cx, 168), tname, tsize, DIM, align="m")

    _curve(
        draw,
        canvas,
        (PAD, 200, PAD + half, HEIGHT - PAD),
        s.god_curve,
        GOD_BAR,
        w["curve_god"],
        w["empty"],
    )
    _curve(
        draw,
        canvas,
        (2 * PAD + half, 200, WIDTH - PAD, HEIGHT - PAD),
        s.design_curve,
        DESIGN_BAR,
        w["curve_design"],
        w["empty"],
    )
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()
