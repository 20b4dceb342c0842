"""What a board picture looks like at the width Discord shows it: the text sizes it draws.

Discord shows an embed's picture at most 520 px wide, so a picture drawn wider is shrunk
and its small print with it. Every piece of text the project draws goes through a
FreeType font's ``getmask2`` (Pillow's one path from a string to pixels), so recording the
font size there, with the pictures' caches emptied first, gives every size a picture uses.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from PIL import Image, ImageFont

SHOWN_WIDTH = 520  # the widest Discord draws an embed's image
# The smallest text a player reads without opening the picture: Discord's own small print
# (timestamps, footers) is 12 px; a board may go a little below for secondary labels.
MIN_SHOWN_TEXT = 9.5


def _clear_picture_caches() -> None:
    """Empty every cached drawing in cogs.pictures, so text is drawn (and recorded) anew."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("cogs.pictures") or module is None:
            continue
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@contextmanager
def recorded_text() -> Iterator[list[tuple[float, str]]]:
    """Within the block, every (font size, text) drawn is appended to the yielded list."""
    drawn: list[tuple[float, str]] = []
    original = ImageFont.FreeTypeFont.getmask2

    def getmask2(self: ImageFont.FreeTypeFont, text: str, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        drawn.append((float(self.size), text))
        return original(self, text, *args, **kwargs)  # type: ignore[arg-type]

    _clear_picture_caches()
    ImageFont.FreeTypeFont.getmask2 = getmask2  # type: ignore[method-assign]
    try:
        yield drawn
    finally:
        ImageFont.FreeTypeFont.getmask2 = original  # type: ignore[method-assign]
        _clear_picture_caches()


def smallest_shown_text(draw: Callable[[], bytes]) -> tuple[float, str, int]:
    """The smallest text ``draw()`` puts in its picture, as shown 520 px wide: (px, text, width)."""
    with recorded_text() as drawn:
        png = draw()
    width = Image.open(io.BytesIO(png)).size[0]
    scale = min(1.0, SHOWN_WIDTH / width)
    size, text = min((s, t) for s, t in drawn if t.strip())
    return size * scale, text, width
