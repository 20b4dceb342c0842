"""The picture of ``/stats``: per title, its games as a bar (finished, abandoned, under way)
and how often each seat won, as small columns. Drawn with Pillow from services/stats.py's
figures, which the cog turns into the plain rows below (they travel to a picture worker)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from cogs.common.catalogue import t as _tr
from cogs.pictures.common import RGB, put_text, truncate

BG: RGB = (32, 34, 37)
ROW: RGB = (44, 47, 51)
TEXT: RGB = (235, 236, 238)
DIM: RGB = (160, 164, 170)
FINISHED: RGB = (87, 242, 135)
ABANDONED: RGB = (237, 66, 69)
RUNNING: RGB = (88, 101, 242)
SEAT_BAR: RGB = (241, 196, 15)
EMPTY: RGB = (70, 74, 80)

W = 760
HEAD = 56
ROW_H = 74
NAME_W = 200
BAR_X, BAR_W = 210, 300
SEATS_X = 540
LEGEND_H = 34


@dataclass(frozen=True)
class ChartRow:
    """One title's row: its name, its games, and each seat's win rate (None: no games)."""

    title: str
    finished: int
    abandoned: int
    running: int
    seat_rates: tuple[float | None, ...]
    seat_labels: tuple[str, ...]
    note: str  # the median length, in words


def _say(key: str, locale: str, **fmt: object) -> str:
    return _tr("pic.stats." + key, locale, **fmt)


def render_chart(rows: Sequence[ChartRow], heading: str, locale: str) -> bytes:
    """The chart as a PNG (``heading``: the server's name and total, already in words)."""
    h = HEAD + ROW_H * max(1, len(rows)) + LEGEND_H + 10
    im = Image.new("RGB", (W, h), BG)
    d = ImageDraw.Draw(im)
    put_text(im, (16, HEAD / 2), truncate(heading, W - 32, 22, True), 22, TEXT, bold=True)
    most = max((r.finished + r.abandoned + r.running for r in rows), default=1) or 1
    for k, r in enumerate(rows):
        top = HEAD + k * ROW_H
        d.rounded_rectangle((8, top + 4, W - 8, top + ROW_H - 4), 8, fill=ROW)
        put_text(im, (18, top + 24), truncate(r.title, NAME_W - 16, 17, True), 17, TEXT, bold=True)
        put_text(im, (18, top + 50), truncate(r.note, NAME_W - 16, 14), 14, DIM)
        x = BAR_X
        for count, colour in ((r.finished, FINISHED), (r.abandoned, ABANDONED), (r.running, RUNNING)):
            w = round(BAR_W * count / most)
            if w:
                d.rectangle((x, top + 18, x + w - 1, top + 40), fill=colour)
            x += w
        total = r.finished + r.abandoned + r.running
        put_text(im, (BAR_X, top + 55), _say("games", locale, n=total, finished=r.finished), 14, DIM)
        # each seat's win rate, a column 34 px high at 100 %
        for s, rate in enumerate(r.seat_rates[:8]):
            cx = SEATS_X + s * 27
            d.rectangle((cx, top + 10, cx + 18, top + 44), fill=EMPTY)
            if rate is not None:
                d.rectangle((cx, top + 44 - round(34 * rate), cx + 18, top + 44), fill=SEAT_BAR)
            label = r.seat_labels[s] if s < len(r.seat_labels) else str(s + 1)
            put_text(im, (cx + 9, top + 56), truncate(label, 26, 13), 13, DIM, align="m")
    y = h - LEGEND_H
    x = 16
    for colour, word in ((FINISHED, _say("finished", locale)), (ABANDONED, _say("abandoned", locale)),
                         (RUNNING, _say("running", locale)), (SEAT_BAR, _say("seat_wins", locale))):
        d.rectangle((x, y + 9, x + 14, y + 23), fill=colour)
        x += 22 + put_text(im, (x + 20, y + 16), word, 14, DIM) + 16
    out = io.BytesIO()
    im.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
