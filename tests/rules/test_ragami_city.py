"""The city of Ragami as data: the properties the rulebook and the layout promise."""

from __future__ import annotations

import itertools
import json
from collections import deque
from pathlib import Path

from rules.ragami.city import (
    AROUND,
    BUILDING_LINKS,
    BUILDINGS,
    BUILDINGS_AT,
    NEIGHBOURS,
    SQUARES,
    STREET,
    distance,
    ragami_reach,
    street_reach,
)

DATA = json.loads(Path("rules/ragami/city.json").read_text(encoding="utf-8"))


def test_thirty_numbered_squares_and_clean_adjacency_lists() -> None:
    assert SQUARES == tuple(range(1, 31))
    for key in ("streets", "building_links"):
        pairs = [tuple(p) for p in DATA[key]]
        assert len(pairs) == len(set(pairs)) and all(a != b for a, b in pairs)
    for s in SQUARES:
        assert all(s in STREET[t] for t in STREET[s])
    for b in BUILDINGS:
        assert all(b in BUILDING_LINKS[c] for c in BUILDING_LINKS[b])


def test_the_rulebook_building_with_six_squares_is_there() -> None:
    # «el edificio tiene 6 áreas adyacentes (Nº.12, 14, 15, 18, 19 y 20)»
    assert any(set(AROUND[b]) == {12, 14, 15, 18, 19, 20} for b in BUILDINGS)


def test_every_building_touches_four_to_six_squares_and_every_square_one_to_three() -> None:
    assert all(4 <= len(AROUND[b]) <= 6 for b in BUILDINGS)
    assert all(1 <= len(BUILDINGS_AT[s]) <= 3 for s in SQUARES)
    assert all(BUILDING_LINKS[b] for b in BUILDINGS)


def test_no_dead_ends_and_everything_connected() -> None:
    assert all(len(STREET[s]) >= 2 for s in SQUARES)
    seen = {1}
    todo = deque([1])
    while todo:
        for t in STREET[todo.popleft()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    assert seen == set(SQUARES), "the streets alone connect every square"


def test_crossing_the_city_takes_a_couple_of_moves() -> None:
    nodes = list(NEIGHBOURS)
    ragami = max(distance(a, b) for a, b in itertools.combinations(nodes, 2))
    assert 5 <= ragami <= 12  # two or three moves of up to four spaces
    far = max(len(street_reach(s)) for s in SQUARES)
    assert far < 30, "a Saint or Demon never reaches the whole city in one move"
    assert min(len(street_reach(s)) for s in SQUARES) >= 8


def test_the_saint_and_demon_example_fits_the_map() -> None:
    # the Demon of square 19 reaches the conflict of square 29 in one move
    assert 29 in street_reach(19)
    assert {23, 29} <= set(SQUARES)


def test_a_ragami_never_passes_through_a_forbidden_square() -> None:
    assert distance("1", "3") == 2
    assert distance("1", "3", frozenset({"2"})) == 3  # round through the buildings instead
    assert "2" not in ragami_reach("1", frozenset({"2"}))
