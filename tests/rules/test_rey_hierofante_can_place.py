"""``can_place`` answers what ``placements`` would, without building the placements."""

from __future__ import annotations

import random

from rules.registry import engine
from rules.rey_hierofante.legal import can_place, placements


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
