"""Shared Pillow helpers for board pictures: fonts, text that fits, colours, fast PNGs.

Pictures use a fixed palette of at most 256 colours and are saved as 8-bit PNGs: several
times faster to encode than full colour, and a third of the size. The palette holds each
flat colour a game uses plus a few shades between every text colour and the colour it sits
on, so antialiased text keeps its smooth edges.

A picture redrawn on every move is put together directly in palette indices: its pieces
(the fixed background, tiles, words) are drawn once in full colour on the flat colour they
will sit on, reduced to the palette and cached, so a render only pastes indices, with no
colour conversion at all, and compresses only the rows it touched: the background's other
rows are compressed once (see ``IndexBackground``). Cached pieces are never changed after
they are made, so renders may run in several threads at once.

Text uses the DejaVu Sans shipped in cogs/pictures/fonts (Pillow's built-in font has no
accented letters); characters it lacks are left out rather than drawn as empty boxes.
"""

from __future__ import annotations

import math
import struct
import unicodedata
import zlib
from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from cogs.pictures.fonts import font

RGB = tuple[int, int, int]

__all__ = [
    "RGB", "IndexBackground", "IndexCanvas", "Palette", "drawable", "encode_png", "fit_lines", "font",
    "has_glyph", "mix", "player_name", "put_index_lines", "put_index_text",
    "put_lines", "put_text", "text_mask", "text_piece", "text_width", "truncate",
]


# The outline round what the last move changed, in every game's picture: a bright blue no
# board uses for anything else (a web-safe colour, as Ankh-Morpork's palette needs).
LAST_MOVE: RGB = (0, 204, 255)


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


# ----------------------------------------------------------------------------- unicode


_PROBE_SIZE = 16
_GLYPH: dict[str, bool] = {}


@lru_cache(maxsize=1)
def _notdef() -> tuple[bytes, tuple[float, ...]]:
    # U+FFFF is never a character, so every font draws its "missing glyph" box for it.
    f = font(_PROBE_SIZE)
    return bytes(f.getmask("\uffff")), tuple(f.getbbox("\uffff"))


def has_glyph(ch: str) -> bool:
    """Whether the picture font can draw ``ch`` (instead of an empty box)."""
    known = _GLYPH.get(ch)
    if known is None:
        f = font(_PROBE_SIZE)
        box, bbox = _notdef()
        known = bytes(f.getmask(ch)) != box or tuple(f.getbbox(ch)) != bbox
        if len(_GLYPH) < 20_000:  # names bring new characters; keep the table bounded
            _GLYPH[ch] = known
    return known


@lru_cache(maxsize=4096)
def drawable(text: str) -> str:
    """``text`` with only what the font can draw: controls and emoji the font lacks go,
    letters it lacks (CJK...) become "?", runs of spaces shrink to one."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        cat = unicodedata.category(ch)
        if cat[0] == "Z":
            out.append(" ")
        elif cat in ("Cc", "Cf", "Co", "Cs", "Cn"):
            continue  # zero-width joiners, direction marks, variation selectors...
        elif has_glyph(ch):
            out.append(ch)
        elif cat[0] in "LN":
            out.append("?")
    return " ".join("".join(out).split())


def player_name(name: str | None, fallback: str) -> str:
    """A display name the font can draw, or ``fallback`` when nothing legible is left
    (a name made only of emoji, or of a script the font lacks)."""
    clean = drawable((name or "")[:256])  # Discord names are short; anything longer is cut
    return clean if any(ch.isalnum() for ch in clean) else fallback


# ----------------------------------------------------------------------------- text


@lru_cache(maxsize=16384)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """Advance width of ``text`` in pixels."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=8192)
def text_mask(text: str, size: int, bold: bool = False) -> tuple[Image.Image, int]:
    """``text`` as a coverage mask (mode "L"), and the mask row of the line's visual middle.

    Masks are cached and coloured at paste time: a board repeats most of its words on
    every move, and one mask serves every colour.
    """
    f = font(size, bold)
    ascent, descent = f.getmetrics()
    mask = Image.new("L", (max(1, math.ceil(f.getlength(text))) + 2, ascent + descent))
    ImageDraw.Draw(mask).text((1, 0), text, font=f, fill=255)
    # The middle of a capital letter sits about 0.36 em above the baseline.
    return mask, ascent - round(size * 0.36)


def put_text(canvas: Image.Image, xy: tuple[float, float], text: str, size: int, colour: RGB,
             *, bold: bool = False, align: str = "l") -> int:
    """Draw one line of ``text`` with its visual middle at y; x is its left edge, centre
    (align "m") or right edge ("r"). Returns the width drawn."""
    if not text:
        return 0
    mask, middle = text_mask(text, size, bold)
    x, y = xy
    w = mask.width - 2
    if align == "m":
        x -= w / 2
    elif align == "r":
        x -= w
    canvas.paste(colour, (round(x) - 1, round(y) - middle), mask)
    return w


def put_lines(canvas: Image.Image, xy: tuple[float, float], lines: Sequence[str], size: int,
              colour: RGB, *, bold: bool = False, align: str = "l", leading: float = 1.15) -> None:
    """Draw ``lines`` as a block whose vertical middle is at y."""
    step = size * leading
    y0 = xy[1] - step * (len(lines) - 1) / 2
    for k, line in enumerate(lines):
        put_text(canvas, (xy[0], y0 + k * step), line, size, colour, bold=bold, align=align)


def _wrap(words: list[str], size: int, width: float, bold: bool) -> list[str]:
    lines: list[str] = []
    for word in words:
        if lines and text_width(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def truncate(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels at ``size``."""
    if text_width(text, size, bold) <= width:
        return text
    # Binary search on the prefix length: names may be hundreds of characters long.
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", size, bold) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


@lru_cache(maxsize=8192)
def fit_lines(text: str, width: float, size: int, *, min_size: int = 9, max_lines: int = 1,
              bold: bool = False) -> tuple[tuple[str, ...], int]:
    """Lines and font size that fit ``text`` in ``width`` pixels: first one line, shrinking
    to three quarters of ``size``; then up to ``max_lines`` lines, shrinking to
    ``min_size``; at last the text is cut with an ellipsis."""
    text = " ".join(text.split())
    for s in range(size, max(min_size, round(size * 0.75)) - 1, -1):
        if text_width(text, s, bold) <= width:
            return (text,), s
    words = text.split(" ")
    if max_lines > 1:
        for s in range(size, min_size - 1, -1):
            lines = _wrap(words, s, width, bold)
            if len(lines) <= max_lines and all(text_width(ln, s, bold) <= width for ln in lines):
                return tuple(lines), s
    s = min_size if max_lines > 1 else max(min_size, round(size * 0.75))
    lines = _wrap(words, s, width, bold)
    if len(lines) > max_lines:  # what does not fit goes on the last line, to be cut
        lines = [*lines[:max_lines - 1], " ".join(lines[max_lines - 1:])]
    return tuple(truncate(ln, width, s, bold) for ln in lines), s


# ----------------------------------------------------------------------------- palette, PNG

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# zlib settings for pictures sent on every move, where time matters more than the last
# bytes. Levels 1-3 take about the same time on a board and 2 is a sixth smaller than 1
# (from 4 up it takes twice as long); a memory level of 6 is a little faster than the
# default 8 here, for the same size.
_LEVEL, _MEM_LEVEL = 2, 6
_CRC_STEP = 4096  # zlib.crc32 keeps the GIL for up to 5 KB (see IndexCanvas)
_ADLER = 65521  # the Adler-32 modulus


def _crc32(data: bytes | memoryview, crc: int = 0) -> int:
    """CRC-32 of ``data``, in steps small enough that zlib keeps the GIL."""
    view = memoryview(data)
    for k in range(0, len(view), _CRC_STEP):
        crc = zlib.crc32(view[k:k + _CRC_STEP], crc)
    return crc


def _adler32_combine(a: int, b: int, length_b: int) -> int:
    """The Adler-32 of two pieces of data put together, from theirs and the second's
    length (zlib's adler32_combine)."""
    rem = length_b % _ADLER
    sum1 = a & 0xFFFF
    sum2 = rem * sum1 % _ADLER
    sum1 = (sum1 + (b & 0xFFFF) + _ADLER - 1) % _ADLER
    sum2 = (sum2 + (a >> 16) + (b >> 16) + _ADLER - rem) % _ADLER
    return sum1 | (sum2 << 16)


def _deflate(data: bytes | memoryview) -> tuple[bytes, int]:
    """``data`` as raw deflate blocks that end on a byte and are not final (so they can go
    between any others in a stream), and its Adler-32. zlib works on it in one call
    without the GIL, and works out the checksum on the way."""
    z = zlib.compressobj(_LEVEL, zlib.DEFLATED, 15, _MEM_LEVEL)
    blocks = z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH)
    # All the data is out; finishing adds only an empty final block and the checksum.
    return blocks[2:], int.from_bytes(z.flush(zlib.Z_FINISH)[-4:], "big")


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC of type and data."""
    return b"".join((struct.pack(">I", len(data)), kind, data,
                     struct.pack(">I", _crc32(data, zlib.crc32(kind)))))


_IEND = _chunk(b"IEND", b"")


class Palette:
    """A fixed palette of at most 256 colours: flat colours plus shades between colour pairs.

    Pictures drawn with it are "index images": mode "L" images whose values are palette
    indices, not greys. ``quantize`` turns a full-colour piece into one; pasting index
    images into each other copies indices.
    """

    def __init__(self, solids: Iterable[RGB], pairs: Iterable[tuple[RGB, RGB]] = (),
                 steps: int = 5) -> None:
        colours: list[RGB] = []
        seen: set[RGB] = set()

        def add(c: RGB) -> None:
            if c not in seen:
                seen.add(c)
                colours.append(c)

        for c in solids:
            add(c)
        for fg, bg in pairs:
            add(fg)
            add(bg)
            for k in range(1, steps + 1):
                add(mix(bg, fg, k / (steps + 1)))
        if len(colours) > 256:
            raise ValueError(f"{len(colours)} colours do not fit a 256-colour palette")
        self.colours = colours
        self.index: dict[RGB, int] = {c: i for i, c in enumerate(colours)}
        flat = bytes(v for c in colours for v in c)
        # Exactly these colours: a reduction to this palette never gives an index past them.
        self.image = Image.new("P", (1, 1))
        self.image.putpalette(flat)
        self.plte = _chunk(b"PLTE", flat)

    def quantize(self, im: Image.Image) -> Image.Image:
        """The index image of the full-colour ``im``: each pixel its nearest palette colour,
        without dithering (a flat colour of the palette stays exactly itself)."""
        small = im.convert("RGB").quantize(palette=self.image, dither=Image.Dither.NONE)
        return Image.frombytes("L", small.size, small.tobytes())


class IndexBackground:
    """What a picture redrawn on every move starts from, reduced to a palette once: renders
    put cached index pieces on a copy of it (``start``) and encode the rows they touched.

    The index image has one spare column on the left, always 0: each row of its bytes is
    then a PNG row after its filter byte (0, no filter), ready for zlib as it is. The rows
    a render did not touch are the background's: they are compressed once and reused.
    """

    def __init__(self, palette: Palette, im: Image.Image) -> None:
        self.palette = palette
        self.width, self.height = im.size
        self.image = Image.new("L", (im.width + 1, im.height), 0)
        self.image.paste(palette.quantize(im), (1, 0))
        self.header = b"".join((_PNG_SIGNATURE, _chunk(b"IHDR", struct.pack(
            ">IIBBBBB", self.width, self.height, 8, 3, 0, 0, 0)), palette.plte))
        self._rows = self.image.tobytes()
        # (first row, end row) -> those rows compressed on their own, and their Adler-32.
        # Shared by the render threads (a band made twice at once comes out the same);
        # bands follow the layout, so there are a few dozen.
        self._bands: dict[tuple[int, int], tuple[bytes, int]] = {}

    def start(self) -> IndexCanvas:
        """A fresh canvas for one render."""
        return IndexCanvas(self)

    def band(self, top: int, end: int) -> tuple[bytes, int]:
        """Rows ``top`` to ``end`` (excluded) as ``_deflate`` gives them."""
        found = self._bands.get((top, end))
        if found is None:
            stride = self.width + 1
            found = _deflate(memoryview(self._rows)[top * stride:end * stride])
            if len(self._bands) >= 1024:  # cannot happen with a fixed layout; stay bounded
                self._bands.clear()
            self._bands[(top, end)] = found
        return found


class IndexCanvas:
    """One render on a copy of an ``IndexBackground``, in picture coordinates: pieces are
    pasted, then ``png`` compresses only the rows they touched.

    Renders run in worker threads while the bot's event loop wants the GIL, and every C
    call that lets the GIL go (a copy, zlib, a paste) may leave the render waiting for the
    loop's next switch. So a render makes few of them: one copy, one paste per piece, and
    in ``png`` one long zlib call per band of touched rows (a few).
    """

    __slots__ = ("background", "image", "_core", "_touched")

    def __init__(self, background: IndexBackground) -> None:
        self.background = background
        self.image = background.image.copy()
        self._core = self.image.im  # a fresh copy: nobody else sees it, no checks needed
        self._touched: list[tuple[int, int]] = []

    def paste(self, piece: Image.Image, xy: tuple[int, int]) -> None:
        """Paste the index ``piece`` with its top-left corner at ``xy``."""
        x, y = xy
        w, h = piece.size
        if x < 0:  # never over the spare column
            if x + w <= 0:
                return
            piece, x, w = piece.crop((-x, 0, w, h)), 0, w + x
        # The core paste: what Image.paste ends in, without its checks and conversions
        # (the piece is an index image like the canvas), several times faster.
        self._core.paste(piece.im, (x + 1, y, x + 1 + w, y + h))
        self._touched.append((y, y + h))

    def rectangle(self, box: tuple[int, int, int, int], index: int, width: int) -> None:
        """The outline of ``box`` (right and bottom included), ``width`` pixels thick."""
        x0, y0, x1, y1 = box
        ImageDraw.Draw(self.image).rectangle((max(0, x0) + 1, y0, x1 + 1, y1), outline=index,
                                             width=width)
        self._touched.append((y0, y1 + 1))

    def png(self) -> bytes:
        """PNG bytes of the picture."""
        bg = self.background
        h, stride = bg.height, bg.width + 1
        rows = memoryview(self.image.tobytes())
        # The touched rows as sorted bands; bands a few rows apart are joined, as each band
        # costs a zlib call that lets the GIL go, and a few bytes.
        bands: list[list[int]] = []
        for top, end in sorted(self._touched):
            top, end = max(0, top), min(h, end)
            if top >= end:
                continue
            if bands and top <= bands[-1][1] + 16:
                if end > bands[-1][1]:
                    bands[-1][1] = end
            else:
                bands.append([top, end])
        # One zlib stream: the background's compressed rows between the touched ones,
        # compressed here; the checksum of the whole from those of the pieces.
        parts = [b"\x78\x5e"]  # zlib header: deflate, 32 KB window
        adler, row = 1, 0
        for top, end in [*bands, [h, h]]:
            if row < top:  # untouched rows: the background's
                blocks, check = bg.band(row, top)
                parts.append(blocks)
                adler = _adler32_combine(adler, check, (top - row) * stride)
            if top < end:
                blocks, check = _deflate(rows[top * stride:end * stride])
                parts.append(blocks)
                adler = _adler32_combine(adler, check, (end - top) * stride)
            row = end
        parts.append(b"\x03\x00")  # an empty final block ends the deflate stream
        parts.append(struct.pack(">I", adler))
        return b"".join((bg.header, _chunk(b"IDAT", b"".join(parts)), _IEND))


@lru_cache(maxsize=8192)
def text_piece(palette: Palette, text: str, size: int, colour: RGB, background: RGB,
               bold: bool = False) -> tuple[Image.Image, int]:
    """``text`` on ``background`` as an index image, and the row of its visual middle (as
    ``text_mask``): what ``put_text`` draws on that background, reduced to ``palette``."""
    mask, middle = text_mask(text, size, bold)
    im = Image.new("RGB", mask.size, background)
    im.paste(colour, (0, 0), mask)
    return palette.quantize(im), middle


def _text_at(xy: tuple[float, float], text: str, size: int, bold: bool, align: str
             ) -> tuple[int, int]:
    """Where ``put_text`` puts the top-left corner of the mask of ``text``."""
    mask, middle = text_mask(text, size, bold)
    x, y = xy
    w = mask.width - 2
    if align == "m":
        x -= w / 2
    elif align == "r":
        x -= w
    return round(x) - 1, round(y) - middle


def put_index_text(canvas: IndexCanvas, palette: Palette, xy: tuple[float, float], text: str,
                   size: int, colour: RGB, background: RGB, *, bold: bool = False,
                   align: str = "l") -> int:
    """``put_text`` on an index canvas that is plain ``background`` under the text's box
    (its advance by its line height): the same pixels, from a cached piece. Returns the
    width drawn."""
    if not text:
        return 0
    piece, middle = text_piece(palette, text, size, colour, background, bold)
    x, y = xy
    w = piece.width - 2
    if align == "m":
        x -= w / 2
    elif align == "r":
        x -= w
    canvas.paste(piece, (round(x) - 1, round(y) - middle))
    return w


@lru_cache(maxsize=2048)
def _lines_piece(palette: Palette, lines: tuple[tuple[str, int, int], ...], size: int,
                 colour: RGB, background: RGB, bold: bool) -> Image.Image:
    """Lines of text at the given offsets, drawn one over the other as ``put_text`` would
    (their boxes may overlap by a row), as one index piece."""
    masks = [text_mask(text, size, bold)[0] for text, _, _ in lines]
    w = max(x + m.width for (_, x, _), m in zip(lines, masks, strict=True))
    h = max(y + m.height for (_, _, y), m in zip(lines, masks, strict=True))
    im = Image.new("RGB", (w, h), background)
    for (_, x, y), m in zip(lines, masks, strict=True):
        im.paste(colour, (x, y), m)
    return palette.quantize(im)


def put_index_lines(canvas: IndexCanvas, palette: Palette, xy: tuple[float, float],
                    lines: Sequence[str], size: int, colour: RGB, background: RGB, *,
                    bold: bool = False, align: str = "l", leading: float = 1.15) -> None:
    """``put_lines`` on an index canvas that is plain ``background`` under the lines."""
    step = size * leading
    y0 = xy[1] - step * (len(lines) - 1) / 2
    at = [(line, *_text_at((xy[0], y0 + k * step), line, size, bold, align))
          for k, line in enumerate(lines) if line]
    if not at:
        return
    left, top = min(x for _, x, _ in at), min(y for _, _, y in at)
    piece = _lines_piece(palette, tuple((line, x - left, y - top) for line, x, y in at), size,
                         colour, background, bold)
    canvas.paste(piece, (left, top))


def encode_png(canvas: Image.Image, palette: Palette) -> bytes:
    """A full-colour ``canvas`` reduced to ``palette`` without dithering, as PNG bytes (for
    pictures drawn rarely; one redrawn on every move is better put together on an
    ``IndexBackground``)."""
    return IndexBackground(palette, canvas).start().png()
