"""``can_place`` and ``is_placement`` answer what ``placements`` would, without building the
placements."""

from __future__ import annotations

import random

from rules.registry import engine
from rules.rey_hierofante.legal import can_place, is_placement, placements
from rules.rey_hierofante.model import Place
from rules.rey_hierofante.tiles import TILES


def test_can_place_agrees_with_placements_through_played_out_games() -> None:
    eng = engine("rey_hierofante")
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for seed in range(30):
        st = eng.setup(2, {}, seed)
        for _ in range(200):
            if st.finished:
                break
            for seat in (0, 1):
                answer = can_place(st, seat)
                assert answer == bool(placements(st, seat))
                seen[answer] += 1
            seat = next(iter(eng.pending(st)))
            st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
    assert seen[True] and seen[False]  # both answers were put to the test


def test_is_placement_agrees_with_placements_for_every_tile_and_square() -> None:
    eng = engine("rey_hierofante")
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for seed in range(20):
        st = eng.setup(2, {}, seed)
        for _ in range(200):
            if st.finished:
                break
            for seat in (0, 1):
                legal = placements(st, seat)
                for tile in TILES:
                    for square in range(9):
                        place = Place(tile=tile, square=square)
                        answer = is_placement(st, seat, place)
                        assert answer == (place in legal), (seed, seat, tile, square)
                        seen[answer] += 1
            seat = next(iter(eng.pending(st)))
            st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
    assert seen[True] and seen[False]
