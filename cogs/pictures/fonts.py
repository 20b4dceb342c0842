"""Fonts for board pictures: DejaVu Sans, shipped with the project so every host draws
Spanish accents and symbols the same way (Pillow's built-in font lacks them)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

_DIR = Path(__file__).with_name("fonts")


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels (cached: loading a face costs about a millisecond)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(_DIR / name), size)


@lru_cache(maxsize=4096)
def fit(text: str, size: int, width: float, *, bold: bool = False, min_size: int = 9
        ) -> tuple[str, ImageFont.FreeTypeFont]:
    """Shrink, then shorten with an ellipsis, ``text`` until it fits ``width`` pixels."""
    f = font(size, bold)
    while size > min_size and f.getlength(text) > width:
        size -= 1
        f = font(size, bold)
    if f.getlength(text) > width:
        while len(text) > 1 and f.getlength(text + "…") > width:
            text = text[:-1]
        text += "…"
    return text, f


@lru_cache(maxsize=4096)
def text_image(text: str, size: int, colour: tuple[int, ...], bold: bool = False
               ) -> tuple[Image.Image, int, int]:
    """``text`` drawn once on a transparent strip, with the offset of its top-left corner
    from the text origin (a board redrawn on every move repeats most of its texts)."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text)
    im = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((-left, -top), text, font=f, fill=colour)
    return im, left, top


def flatten(im: Image.Image, background: tuple[int, int, int]) -> Image.Image:
    """``im`` laid on a plain ``background`` and reduced to the web-safe palette.

    Pictures are put together in palette mode from pieces flattened once and cached:
    pasting them needs no mask and the PNG needs no colour conversion, which is most of
    the cost of drawing a board on every move.
    """
    base = Image.new("RGB", im.size, background)
    base.paste(im, (0, 0), im if im.mode == "RGBA" else None)
    return base.convert("P", palette=Image.Palette.WEB, dither=Image.Dither.NONE)


@lru_cache(maxsize=4096)
def text_strip(text: str, size: int, colour: tuple[int, ...], background: tuple[int, int, int],
               bold: bool = False) -> tuple[Image.Image, int, int]:
    """``text`` on ``background`` in palette mode, with its offset from the text origin."""
    im, left, top = text_image(text, size, colour, bold)
    return flatten(im, background), left, top


def paste_text(canvas: Image.Image, xy: tuple[float, float], text: str, size: int,
               colour: tuple[int, ...], background: tuple[int, int, int], *, bold: bool = False,
               middle: bool = False) -> None:
    """Put ``text`` at ``xy`` (its origin, or with ``middle`` its vertical centre) on a
    palette-mode ``canvas`` whose colour there is ``background``."""
    im, left, top = text_strip(text, size, colour, background, bold)
    x, y = xy
    y = y - im.height / 2 if middle else y + top
    canvas.paste(im, (round(x + left), round(y)))
