"""The Guerra de Mitos picture does not grow with the table: identical cards share a tile and
every player count's picture stays within ``MAX_HEIGHT``, in long games too."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from cogs.pictures import guerra_de_mitos as pic
from cogs.pictures.guerra_de_mitos import MAX_HEIGHT, WIDTH, render_board
from rules.guerra_de_mitos.model import BATTLE, GdmState
from rules.registry import engine
from tests.cogs.legibility import recorded_text
from tests.rules import gdm_helpers as H
from tests.rules.test_guerra_de_mitos_playouts import pick

E = engine("guerra_de_mitos")
NAMES = [f"Jugadora número {i} de la mesa ñá" for i in range(1, 7)]
# Seventeen different characters, to fill more rows than a band holds.
CHARS = ["0004", "0015", "0039", "0058", "0010", "0014", "0016", "0017", "0018", "0019",
         "0020", "0021", "0005", "0006", "0007", "0008", "0009"]


def size(st: GdmState, n: int, locale: str = "es") -> tuple[int, int]:
    """The picture's width and height."""
    png = render_board(E.view(st, None), NAMES[:n], locale)
    return Image.open(io.BytesIO(png)).size


def texts(st: GdmState, n: int) -> list[str]:
    """Every text the picture draws."""
    with recorded_text() as drawn:
        render_board(E.view(st, None), NAMES[:n], "en")
    return [t for _, t in drawn]


def tiles(st: GdmState, n: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, int]], list[int]]:
    """The tiles drawn: (card, how many it stands for) of each card's tile, and the count of
    each tile of cards left out."""
    drawn: list[tuple[str, int]] = []
    left: list[int] = []
    tile, label = pic._tile, pic._t

    def one(d, c, count, *args, **kw):  # type: ignore[no-untyped-def]
        drawn.append((c.card, count))
        return tile(d, c, count, *args, **kw)

    def text(key: str, locale: str, **kw: object) -> str:
        if key == "more":
            left.append(int(kw["n"]))  # type: ignore[call-overload]
        return label(key, locale, **kw)

    with monkeypatch.context() as m:
        m.setattr(pic, "_tile", one)
        m.setattr(pic, "_t", text)
        render_board(E.view(st, None), NAMES[:n], "en")
    return drawn, left


def cultists(k: int, n: int = 2) -> GdmState:
    """R'lyeh's table after ``k`` turns of its ability: ``k`` Cultists and Nobunaga."""
    st = H.blank(n, pantheons=("0100", "0177"))
    for _ in range(k):
        H.put(st, "tk-sectario", seat=0, power=0)
    H.put(st, "0015", seat=0, power=3)
    return st


def crowded(n: int) -> GdmState:
    """Every seat with seventeen characters, half of them on the battlefield, one with gear."""
    st = H.blank(n)
    for s in range(n):
        for i, c in enumerate(CHARS):
            u = H.put(st, c, seat=s, power=i % 3)
            if i % 2:
                st.cards[u].zone = BATTLE
            if i == 3:
                H.gear(st, "0212", u)
                H.gear(st, "0213", u)
    return st


def test_identical_cards_share_one_tile_with_their_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """200 Cultists draw one tile "×200": the picture is as tall as with two of them."""
    assert size(cultists(200), 2) == size(cultists(2), 2)
    assert tiles(cultists(200), 2, monkeypatch) == ([("tk-sectario", 200), ("0015", 1)], [])
    drawn = texts(cultists(200), 2)
    assert "×200" in drawn and "Cultist" in drawn
    assert not any(t.startswith("×") for t in texts(cultists(1), 2))  # one card: no count


def test_cards_that_differ_are_not_grouped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Cultist with power, or tired, is a tile of its own."""
    st = cultists(5)
    u = H.put(st, "tk-sectario", seat=0, power=1)
    st.cards[u].tired = True
    drawn, _ = tiles(st, 2, monkeypatch)
    assert drawn == [("tk-sectario", 5), ("0015", 1), ("tk-sectario", 1)]


def test_a_crowded_table_stays_within_the_height_for_every_player_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two to six players with seventeen characters each: within MAX_HEIGHT, and every card
    either on a tile or counted on the last tile of the cards left out."""
    for n in range(2, 7):
        w, h = size(crowded(n), n)
        assert w == WIDTH and h <= MAX_HEIGHT, (n, h)
        drawn, left = tiles(crowded(n), n, monkeypatch)
        assert sum(k for _, k in drawn) + sum(left) == len(CHARS) * n, (n, drawn, left)
        assert bool(left) == (n > 2)  # two players have room for all of them


def test_long_games_keep_the_picture_within_the_height() -> None:
    """Seeded random games of two to six players, drawn every 60 moves to their end."""
    for n in range(2, 7):
        rng = random.Random(n)
        st = E.setup(n, {}, 50 + n)
        tallest = moves = 0
        while not st.finished:
            if moves % 60 == 0:
                tallest = max(tallest, size(st, n, ("es", "en")[moves % 2])[1])
            seat = min(E.pending(st))
            st, _ = E.apply(st, seat, pick(rng, E.legal_actions(st, seat)))
            moves += 1
        tallest = max(tallest, size(st, n)[1])
        assert tallest <= MAX_HEIGHT, (n, tallest)
