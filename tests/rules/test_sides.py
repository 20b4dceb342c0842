"""What each seat played as (``Engine.sides``): a finished game names every seat's faction,
pantheon or personality; a game in progress names none (Ankh-Morpork's are secret)."""

from __future__ import annotations

import pytest

from rules.ankh_morpork.personalities import PERSONALITIES
from rules.registry import engine
from tests.playout import Rules, play


def _finished(game_id: str, n: int, seed: int):
    return play(Rules(game_id), n, seed, players="ai", every=None, checked=False).state


@pytest.mark.parametrize("game_id", ["rey_hierofante", "rattus_cartus", "ankh_morpork", "ragami",
                                     "guerra_de_mitos"])
def test_no_side_before_the_end(game_id: str) -> None:
    e = engine(game_id)
    st = e.setup(2, None, 5)
    assert e.sides(st) == {}


def test_ankh_morpork_names_each_seats_personality_at_the_end() -> None:
    st = _finished("ankh_morpork", 3, 7)
    sides = engine("ankh_morpork").sides(st)
    assert sorted(sides) == [0, 1, 2]
    for seat, text in sides.items():
        assert text == PERSONALITIES[st.personality[seat]].name
    assert len({t.get("en") for t in sides.values()}) == 3  # three different cards were dealt


def test_guerra_de_mitos_names_each_seats_pantheon_at_the_end() -> None:
    from rules.guerra_de_mitos.board import pantheon_card
    from rules.guerra_de_mitos.lines import name_of

    st = _finished("guerra_de_mitos", 2, 3)
    sides = engine("guerra_de_mitos").sides(st)
    assert sorted(sides) == [0, 1]
    assert all(sides[s] == name_of(pantheon_card(st, s)) for s in sides)
    assert all(sides[s].get("es") and sides[s].get("en") for s in sides)


def test_rey_y_hierofante_names_factions_and_order_only_games_name_nothing() -> None:
    st = _finished("rey_hierofante", 2, 2)
    assert [t.get("en") for t in engine("rey_hierofante").sides(st).values()] == ["Royalty", "Religion"]
    for game_id in ("rattus_cartus", "ragami"):
        assert engine(game_id).sides(_finished(game_id, 2, 4)) == {}
