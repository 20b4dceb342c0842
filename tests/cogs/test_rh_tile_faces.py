"""Rey y Hierofante's tile faces: every name, in both languages, clear of the foot bar, the
reach diagram and the tile's edge, and never cut short."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest
from PIL import ImageChops

from cogs.pictures import rey_hierofante_tiles as tiles
from rules.rey_hierofante.tiles import TILES


def _name_pixels(draw, monkeypatch: pytest.MonkeyPatch) -> set[tuple[int, int]]:
    """The pixels that the tile's name changes: the face drawn with and without it."""
    with_name = draw()
    monkeypatch.setattr(tiles, "tile_name", lambda tile, lang: "")
    without = draw()
    monkeypatch.undo()
    diff = ImageChops.difference(with_name, without).convert("L").point(lambda v: 255 if v > 24 else 0)
    box = diff.getbbox()
    if box is None:
        return set()
    px = diff.load()
    return {(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3]) if px[x, y]}


def _faces() -> Iterator[tuple[str, int, str | None, str]]:
    for tile in TILES:
        if tile == "blanca":
            continue
        for lang in ("es", "en"):
            for owner in (0, 1):
                yield tile, owner, None, lang
    for lang in ("es", "en"):
        for owner in (0, 1):
            yield "torre", owner, "hierofante", lang
            yield "torre", owner, "adivina", lang


def _reach_rows(turned: bool) -> tuple[int, int]:
    centre = tiles.TILE * 0.53 + (tiles.FOOT_ROOM if turned else 0)
    half = (3 * 10 + 2 * 2) / 2
    return round(centre - half), round(centre + half)


def test_board_tile_names_keep_clear_of_the_foot_bar_and_the_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1's tiles have their foot bar on top: a two-line name used to run through it."""
    border = 6
    for tile, owner, covered, lang in _faces():
        turned = owner == 1
        pixels = _name_pixels(partial(tiles.board_tile, tile, owner, covered, lang), monkeypatch)
        assert pixels, (tile, lang)
        foot = border + 6 if turned else tiles.TILE - border - 9
        ys = [y for _, y in pixels]
        if turned:
            assert min(ys) > foot + 3, (tile, owner, covered, lang, min(ys))
        else:
            assert max(ys) < foot, (tile, owner, covered, lang, max(ys))
        if TILES[tile].reach not in ("self", "none"):
            top, _ = _reach_rows(turned)
            assert max(ys) < top, (tile, owner, covered, lang, max(ys), top)


@pytest.mark.parametrize("size", [72, 80, tiles.MINI])
def test_small_tile_names_are_whole_and_inside_the_frame(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """'Hierophant' touched the small tile's frame; 'Fortune Teller' came out as 'Fort…'."""
    for tile in TILES:
        for lang in ("es", "en"):
            name = tiles.tile_name(tile, lang)
            lines, _, _ = tiles.mini_name(name, size - 2 * tiles.MINI_MARGIN)
            assert not any(line.endswith("…") for line in lines), (tile, lang, lines)
            assert "".join(line.rstrip("-") for line in lines).replace(" ", "") == name.replace(" ", "")
            pixels = _name_pixels(partial(tiles.mini_tile, tile, 0, size, lang), monkeypatch)
            xs = [x for x, _ in pixels]
            inner = 4  # the frame
            assert min(xs) >= inner + 2 and max(xs) <= size - 1 - inner - 2, (tile, lang, size, min(xs), max(xs))


def test_a_long_word_is_cut_with_a_hyphen_after_a_vowel() -> None:
    """The cut falls between a vowel and a consonant when one fits."""
    assert tiles.hyphenated("Hierophant", 60, 14, True) == ("Hiero-", "phant")
    assert tiles.hyphenated("Ciudadano", 60, 14, True) in {("Ciu-", "dadano"), ("Ciuda-", "dano")}
    assert tiles.hyphenated("Ciudadano", 5, 14, True) is None
