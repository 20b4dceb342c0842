"""Draw the Ragami city from rules/ragami/city.json into docs/rules/ragami_map.png.

    python docs/ragami_map.py

Grey bands are the streets: squares on one street, or at the ends of streets that meet,
are next to each other. The block in the middle is a plaza, not a building. A building's squares are those along its sides. Blue bars join
the buildings a Ragami may jump between.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.ragami.city import (  # noqa: E402
    BUILDING_LINKS,
    BUILDING_NAME,
    BUILDINGS,
    POSITION,
    RECT,
    SQUARES,
)

SCALE = 64
MARGIN = 48
OUT = ROOT / "docs" / "rules" / "ragami_map.png"


def px(x: float, y: float) -> tuple[float, float]:
    """City units to pixels."""
    return MARGIN + x * SCALE, MARGIN + y * SCALE


def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """A TrueType font if the system has one, else Pillow's own."""
    for name in ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def link(a: str, b: str) -> tuple[float, float, float, float]:
    """A short bar across the street two linked buildings share, clear of its squares."""
    ax0, ay0, ax1, ay1 = RECT[a]
    bx0, by0, bx1, by1 = RECT[b]
    vertical = ax1 == bx0 or bx1 == ax0  # side by side: a vertical street between them
    if vertical:
        line = ax1 if ax1 == bx0 else ax0
        lo, hi = max(ay0, by0), min(ay1, by1)
        taken = [y for x, y in POSITION.values() if x == line and lo <= y <= hi]
    else:
        line = ay1 if ay1 == by0 else ay0
        lo, hi = max(ax0, bx0), min(ax1, bx1)
        taken = [x for x, y in POSITION.values() if y == line and lo <= x <= hi]
    marks = sorted([lo, *taken, hi])
    gap = max(zip(marks, marks[1:], strict=False), key=lambda g: g[1] - g[0])
    at = (gap[0] + gap[1]) / 2
    if vertical:
        return (*px(line - 0.45, at), *px(line + 0.45, at))
    return (*px(at, line - 0.45), *px(at, line + 0.45))


def open_ground() -> list[tuple[float, float, float, float]]:
    """The blocks between streets that hold no building (the plaza)."""
    xs = sorted({v for r in RECT.values() for v in (r[0], r[2])})
    ys = sorted({v for r in RECT.values() for v in (r[1], r[3])})
    out = []
    for x0, x1 in zip(xs, xs[1:], strict=False):
        for y0, y1 in zip(ys, ys[1:], strict=False):
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            if not any(r[0] < cx < r[2] and r[1] < cy < r[3] for r in RECT.values()):
                out.append((x0, y0, x1, y1))
    return out


def draw() -> Image.Image:
    """The map as a picture."""
    w = int(2 * MARGIN + 12 * SCALE)
    img = Image.new("RGB", (w, w), (245, 240, 228))
    d = ImageDraw.Draw(img)
    small, big = font(15), font(20)
    inset = 0.42
    for b in BUILDINGS:  # the streets run round every building
        x0, y0, x1, y1 = RECT[b]
        corners = [px(x0, y0), px(x1, y0), px(x1, y1), px(x0, y1), px(x0, y0)]
        d.line([c for c in corners], fill=(200, 200, 200), width=int(SCALE * 0.6), joint="curve")
    for b in BUILDINGS:
        x0, y0, x1, y1 = RECT[b]
        box = (*px(x0 + inset, y0 + inset), *px(x1 - inset, y1 - inset))
        d.rectangle(box, fill=(205, 190, 160), outline=(120, 100, 70), width=2)
        cx, cy = px((x0 + x1) / 2, (y0 + y1) / 2)
        d.text((cx, cy - 12), b, fill=(60, 40, 20), font=big, anchor="mm")
        d.text((cx, cy + 12), BUILDING_NAME[b].es, fill=(60, 40, 20), font=small, anchor="mm")
    for x0, y0, x1, y1 in open_ground():
        cx, cy = px((x0 + x1) / 2, (y0 + y1) / 2)
        d.text((cx, cy), "Plaza", fill=(150, 140, 120), font=big, anchor="mm")
    for b in BUILDINGS:
        for c in BUILDING_LINKS[b]:
            if b < c:
                d.line(link(b, c), fill=(40, 90, 200), width=5)
    half = 17
    for s in SQUARES:
        x, y = px(*POSITION[s])
        d.rectangle(
            (x - half, y - half, x + half, y + half),
            fill=(255, 255, 255),
            outline=(30, 30, 30),
            width=2,
        )
        d.text((x, y), str(s), fill=(0, 0, 0), font=small, anchor="mm")
    return img


if __name__ == "__main__":
    draw().save(OUT, optimize=True)
    print(OUT)
