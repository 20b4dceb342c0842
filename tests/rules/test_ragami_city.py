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
    RECT,
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


def test_linked_buildings_face_each_other_across_a_street() -> None:
    # «Puede saltar de un edificio a otro adyacente sin pasar por la calle»
    assert sum(len(v) for v in BUILDING_LINKS.values()) >= 2 * 3
    for b in BUILDINGS:
        for c in BUILDING_LINKS[b]:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = RECT[b], RECT[c]
            side = ax1 == bx0 or bx1 == ax0 or ay1 == by0 or by1 == ay0
            assert side, (b, c)


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


def test_crossing_the_city_takes_about_three_moves() -> None:
    nodes = list(NEIGHBOURS)
    ragami = {(a, b): distance(a, b) for a, b in itertools.combinations(nodes, 2)}
    # the farthest places are 9 spaces apart: three moves of up to four spaces
    assert max(ragami.values()) == 9
    # from the Biblioteca's east street to the Escuela's west street: three moves or nearly
    assert all(distance(str(a), str(b)) >= 7 for a in (5, 7, 8) for b in (23, 25, 26))
    assert sum(1 for d in ragami.values() if d >= 8) >= 5
    far = max(len(street_reach(s)) for s in SQUARES)
    assert far < 30, "a Saint or Demon never reaches the whole city in one move"
    assert min(len(street_reach(s)) for s in SQUARES) >= 8


def test_the_saint_and_demon_example_fits_the_map() -> None:
    # the Demon of square 19 reaches the conflict of square 29 in one move
    assert 29 in street_reach(19)
    assert {23, 29} <= set(SQUARES)


def test_a_ragami_never_passes_through_a_forbidden_square() -> None:
    assert distance("11", "16") == 2  # by square 10
    assert distance("11", "16", frozenset({"10"})) == 4  # round by the Catedral and 1, 6
    assert "10" not in ragami_reach("11", frozenset({"10"}))


def test_the_ayuntamiento_and_the_plaza() -> None:
    # the Ayuntamiento is the rulebook's example; the square in the middle is a plaza, not
    # a building: no Ragami stands there
    assert AROUND["E"] == (12, 14, 15, 18, 19, 20)
    covered = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in RECT.values())
    assert covered == 12 * 12 - 4 * 4
