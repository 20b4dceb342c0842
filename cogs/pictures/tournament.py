"""Pictures of a tournament: the standings table and, for eliminations, the bracket.

Drawn with Pillow from the Discord-free services (services.standings, services.pairing);
a standings picture is drawn once per round, so plain full-colour drawing is enough.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from cogs.common.catalogue import t as _tr
from cogs.pictures.common import RGB, player_name, put_text, truncate
from services.pairing import Bracket
from services.standings import Standing, show

BG: RGB = (32, 34, 37)
ROW_A: RGB = (44, 47, 51)
ROW_B: RGB = (38, 40, 44)
HEAD: RGB = (88, 101, 242)
TEXT: RGB = (235, 236, 238)
DIM: RGB = (160, 164, 170)
GOLD: RGB = (241, 196, 15)
WIN: RGB = (87, 242, 135)
LINE: RGB = (90, 94, 100)

MAX_ROWS = 40  # the embed and the CSV carry the rest

# The picture's labels: catalogue ids "pic.tour.<key>" (cogs/locale); tie-breaks are
# "pic.tour.tb.<name>".
TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "head_to_head", "game_points")


def _tiebreak(name: str, locale: str) -> str:
    return _tr("pic.tour.tb." + name, locale) if name in TIEBREAKS else name


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def standings_png(
    standings: Sequence[Standing],
    names: Mapping[int, str],
    tiebreaks: Sequence[str],
    locale: str,
    title: str,
) -> bytes:
    """The standings as a table picture: rank, player, points, games, wins, tie-breaks."""
    rows = list(standings[:MAX_ROWS])
    heads = ["#", *(_tr("pic.tour." + k, locale) for k in ("player", "points", "played", "won"))]
    heads += [_tiebreak(tb, locale) for tb in tiebreaks]
    widths = [44, 240, 64, 48, 48] + [96] * len(tiebreaks)
    row_h, top = 30, 74
    width = sum(widths) + 24
    height = top + row_h * (len(rows) + 1) + 16
    im = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(im)
    put_text(im, (12, 24), truncate(title, width - 24, 22, True), 22, TEXT, bold=True)
    y = top
    d.rectangle((12, y - row_h // 2, width - 12, y + row_h // 2), fill=HEAD)
    x = 12
    for h, w in zip(heads, widths, strict=True):
        put_text(im, (x + 8, y), h, 14, TEXT, bold=True)
        x += w
    for i, s in enumerate(rows):
        y += row_h
        d.rectangle(
            (12, y - row_h // 2, width - 12, y + row_h // 2), fill=ROW_A if i % 2 else ROW_B
        )
        name = player_name(names.get(s.player), str(s.player))
        if s.dropped:
            name = _tr("pic.tour.dropped", locale, name=name)
        cells = [
            str(s.rank),
            truncate(name, widths[1] - 12, 15),
            show(s.points),
            str(s.games),
            str(s.wins),
        ]
        cells += [show(s.tiebreaks.get(tb, 0)) for tb in tiebreaks]
        x = 12
        for k, (c, w) in enumerate(zip(cells, widths, strict=True)):
            colour = GOLD if (k == 0 and s.rank == 1) else DIM if s.dropped else TEXT
            put_text(im, (x + 8, y), c, 15, colour, bold=k in (0, 2))
            x += w
    return _png(im)


def bracket_png(bracket: Bracket, names: Mapping[int, str], locale: str, title: str) -> bytes:
    """The bracket: one column per round of each side, winners highlighted."""
    res = bracket.resolve()
    columns: dict[tuple[str, int], list[str]] = {}
    for m in bracket.matches:
        columns.setdefault((m.side, m.round), []).append(m.key)
    order = sorted(columns, key=lambda c: ("WLF".index(c[0]), c[1]))
    box_w, box_h, gap_x, gap_y = 190, 46, 28, 12
    tallest = max(len(v) for v in columns.values())
    width = 24 + len(order) * (box_w + gap_x)
    height = 80 + tallest * (box_h + gap_y) + 16
    im = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(im)
    put_text(im, (12, 24), truncate(title, width - 24, 22, True), 22, TEXT, bold=True)
    # the columns' heads: winners' and losers' rounds, the final ("pic.tour.side.<side>")
    sides = ("W", "L", "F")

    def who(p: object) -> tuple[str, RGB]:
        if isinstance(p, int):
            return truncate(player_name(names.get(p), str(p)), box_w - 16, 13), TEXT
        if p is None:
            return _tr("pic.tour.bye", locale), DIM
        return "…", DIM

    for c, col in enumerate(order):
        side, rnd = col
        x = 12 + c * (box_w + gap_x)
        label = _tr("pic.tour.side." + side, locale) if side in sides else side
        put_text(
            im,
            (x + box_w / 2, 58),
            f"{label}{rnd}" if side != "F" else f"{label} {rnd}",
            13,
            DIM,
            align="m",
        )
        keys = columns[col]
        span = (height - 96) / len(keys)
        for k, key in enumerate(keys):
            a, b, w, _ = res[key]
            y = 80 + span * k + (span - box_h) / 2
            d.rectangle((x, y, x + box_w, y + box_h), fill=ROW_A, outline=LINE)
            d.line((x, y + box_h / 2, x + box_w, y + box_h / 2), fill=LINE)
            for j, p in enumerate((a, b)):
                text, colour = who(p)
                if isinstance(p, int) and p == w:
                    colour = WIN
                put_text(im, (x + 8, y + box_h / 4 + j * box_h / 2), text, 13, colour, bold=p == w)
    return _png(im)
