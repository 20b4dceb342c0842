"""Property tests: every round of every format seats every active player exactly once."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from services.pairing import (
    History,
    circle_round,
    double_elimination,
    pair_swiss,
    round_robin_round,
    single_elimination,
    table_sizes,
)

from .helpers import assert_seats_everyone_once, play_random, standing

FAST = settings(max_examples=40, deadline=None)


def check_tables(rnd, active, size: int, min_size: int) -> None:
    """Seats everyone once, tables within [min_size, size], balanced, fewest byes."""
    assert_seats_everyone_once(rnd, active)
    lengths = [len(t.players) for t in rnd.tables]
    assert all(min_size <= n <= size for n in lengths)
    if lengths:
        assert max(lengths) - min(lengths) <= 1
    sizes, byes = table_sizes(len(active), size, min_size)
    assert sorted(lengths, reverse=True) == sizes and len(rnd.byes) == byes


@FAST
@given(
    n=st.integers(1, 40),
    size=st.integers(2, 5),
    rounds=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    drops=st.lists(st.integers(0, 39), max_size=6),
)
def test_swiss_rounds_seat_every_active_player_once(n, size, rounds, seed, drops) -> None:
    min_size = 2 if size == 2 else 3
    rng = random.Random(seed)
    active = list(range(n))
    scores: dict[int, float] = {}
    history = History()
    for r in range(rounds):
        if r < len(drops) and drops[r] in active and r > 0:
            active.remove(drops[r])  # dropped between rounds
        rnd = pair_swiss(
            standing(active, scores), scores, history, table_size=size, min_size=min_size
        )
        check_tables(rnd, active, size, min_size)
        play_random(rnd, scores, rng)
        history.add(rnd)


@FAST
@given(n=st.integers(2, 30), seed=st.integers(0, 10_000), drops=st.sets(st.integers(0, 29)))
def test_circle_rounds_seat_every_active_player_once(n, seed, drops) -> None:
    players = list(range(n))
    rng = random.Random(seed)
    gone: set[int] = set()
    for number in range(1, n if n % 2 == 0 else n + 1):
        if drops and rng.random() < 0.3:
            gone.add(rng.choice(sorted(drops)))
        active = [p for p in players if p not in gone]
        rnd = circle_round(players, number, active)
        assert_seats_everyone_once(rnd, active)
        assert all(len(t.players) == 2 for t in rnd.tables)


@FAST
@given(
    n=st.integers(1, 30),
    size=st.integers(3, 5),
    seed=st.integers(0, 10_000),
    drops=st.lists(st.integers(0, 29), max_size=4),
)
def test_multiplayer_round_robin_rounds_seat_every_active_player_once(n, size, seed, drops) -> None:
    active = list(range(n))
    history = History()
    for r in range(4):
        if r < len(drops) and drops[r] in active:
            active.remove(drops[r])
        rnd = round_robin_round(active, history, table_size=size, min_size=3, seed=seed + r)
        check_tables(rnd, active, size, 3)
        history.add(rnd)


@FAST
@given(
    n=st.integers(2, 40),
    double=st.booleans(),
    seed=st.integers(0, 10_000),
    drop_chance=st.floats(0, 0.2),
)
def test_elimination_rounds_seat_each_player_still_in_once(n, double, seed, drop_chance) -> None:
    rng = random.Random(seed)
    b = (double_elimination if double else single_elimination)(list(range(n)))
    rounds = 0
    while not b.finished():
        ready = b.playable()
        assert ready
        seated = [p for _, a, c in ready for p in (a, c)]
        assert len(seated) == len(set(seated))
        assert not set(seated) & b.dropped
        assert not set(seated) & set(b.placements())  # nobody already out plays on
        for key, a, c in ready:
            b.record(key, rng.choice((a, c)))
        if rng.random() < drop_chance:
            b.drop(rng.randrange(n))
        rounds += 1
        assert rounds <= 4 * n
    places = b.placements()
    assert sorted(places) == list(range(n))
    assert list(places.values()).count(1) == 1
