"""Round robin: circle method for two players, greedy tables for multiplayer games."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

from services.pairing import (
    History,
    circle_round,
    circle_schedule,
    round_robin_round,
    round_robin_rounds,
)

from .helpers import assert_seats_everyone_once


def test_circle_even_count_everyone_meets_everyone_once() -> None:
    players = [11, 22, 33, 44, 55, 66]
    rounds = circle_schedule(players)
    assert len(rounds) == 5
    met = Counter(frozenset(t.players) for r in rounds for t in r.tables)
    assert set(met) == {frozenset(p) for p in combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        assert_seats_everyone_once(r, players)
        assert r.byes == ()


def test_circle_odd_count_each_player_has_one_bye() -> None:
    players = list(range(1, 6))
    rounds = circle_schedule(players)
    assert len(rounds) == 5
    assert sorted(p for r in rounds for p in r.byes) == players
    met = Counter(frozenset(t.players) for r in rounds for t in r.tables)
    assert len(met) == 10 and set(met.values()) == {1}


def test_circle_first_round_and_rotation() -> None:
    # Berger: round 1 pairs 1-6, 2-5, 3-4; the ring turns with player 1 fixed.
    rounds = circle_schedule([1, 2, 3, 4, 5, 6])
    assert {frozenset(t.players) for t in rounds[0].tables} == {
        frozenset((1, 6)),
        frozenset((2, 5)),
        frozenset((3, 4)),
    }
    assert {frozenset(t.players) for t in rounds[1].tables} == {
        frozenset((1, 5)),
        frozenset((6, 4)),
        frozenset((2, 3)),
    }


def test_circle_who_plays_first_is_balanced() -> None:
    players = list(range(8))
    firsts = Counter(t.players[0] for r in circle_schedule(players) for t in r.tables)
    # 7 games each: 3 or 4 times first.
    assert all(firsts[p] in (3, 4) for p in players)


def test_circle_round_after_a_drop_gives_the_opponent_a_bye() -> None:
    players = [1, 2, 3, 4, 5, 6]
    active = {1, 2, 3, 5, 6}  # 4 dropped
    rnd = circle_round(players, 1, active)
    assert rnd.byes == (3,)  # 3 was to play 4
    assert_seats_everyone_once(rnd, sorted(active))


def test_multiplayer_round_robin_covers_every_pair() -> None:
    for n, k in [(8, 4), (9, 3), (10, 4), (12, 3), (7, 3)]:
        rounds = round_robin_rounds(n, table_size=k, min_size=3, seed=1)
        lower = math.ceil((n - 1) / (k - 1))
        assert lower <= rounds <= 2 * lower + 1, (n, k, rounds)
        history = History()
        players = list(range(n))
        for r in range(rounds):
            rnd = round_robin_round(players, history, table_size=k, min_size=3, seed=1 + r)
            assert_seats_everyone_once(rnd, players)
            history.add(rnd)
        assert len(history.met) == n * (n - 1) // 2, (n, k)


def test_multiplayer_first_rounds_repeat_nobody_when_possible() -> None:
    # Nine players at tables of three: two rounds with no pair repeated exist.
    players = list(range(9))
    history = History()
    for r in range(2):
        rnd = round_robin_round(players, history, table_size=3, min_size=3, seed=r)
        history.add(rnd)
    assert set(history.met.values()) == {1}


def test_multiplayer_round_robin_with_a_drop() -> None:
    players = list(range(10))
    history = History()
    history.add(round_robin_round(players, history, table_size=4, min_size=3, seed=0))
    players.remove(7)
    rnd = round_robin_round(players, history, table_size=4, min_size=3, seed=1)
    assert_seats_everyone_once(rnd, players)
    assert sorted(len(t.players) for t in rnd.tables) == [3, 3, 3]


def test_two_player_round_count() -> None:
    assert round_robin_rounds(6, table_size=2) == 5
    assert round_robin_rounds(5, table_size=2) == 5
