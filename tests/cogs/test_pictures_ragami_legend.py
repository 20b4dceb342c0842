"""Ragami's picture explains its pieces: a legend names each kind, in the reader's language."""

from __future__ import annotations

import pytest

from cogs.common.i18n import t
from cogs.pictures import ragami as pic
from rules.registry import engine
from tests.cogs.legibility import recorded_text


@pytest.mark.parametrize("locale", ["es", "en"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_legend_names_every_kind_of_piece_inside_the_picture(locale: str, players: int) -> None:
    eng = engine("ragami")
    view = eng.view(eng.setup(players, {}, 3), None)
    with recorded_text() as drawn:
        png = pic.render_board(view, ["Ana", "Bruno", "Carla", "Dora"][:players], locale)
    words = {text for _, text in drawn}
    for kind in pic.LEGEND:
        word = t("pic.rg.legend." + kind, locale)
        assert word and not word.startswith("pic."), kind
        assert word in words, (kind, word)
    height = int.from_bytes(png[20:24], "big")
    rows = pic._legend_rows(locale)
    assert height >= pic._legend_top(players) + pic.LEGEND_ROW * len(rows)
    font = pic.shared_font(pic.TEXT_MIN, True)
    for row in rows:
        for _, word, x in row:
            assert x + pic.LEGEND_ICON + font.getlength(word) <= pic.WIDTH - 10


def test_the_two_languages_name_the_pieces_differently() -> None:
    assert t("pic.rg.legend.demon", "es") != t("pic.rg.legend.demon", "en")
