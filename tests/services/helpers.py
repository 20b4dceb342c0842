"""Shared helpers for the tournament tests: brute-force checks and simulated rounds."""

from __future__ import annotations

import random
from collections.abc import Sequence

from services.pairing import History, Round


def perfect_matchings(players: Sequence[int]):
    """Every way to split an even list of players into pairs (small lists only)."""
    if not players:
        yield []
        return
    first, rest = players[0], list(players[1:])
    for i, other in enumerate(rest):
        for m in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *m]


def rematch_free_exists(players: Sequence[int], history: History) -> bool:
    """Whether some pairing of these players repeats no earlier game (brute force)."""
    return any(all(history.times_met(a, b) == 0 for a, b in m) for m in perfect_matchings(players))


def rematches(rnd: Round, history: History) -> int:
    """Pairs seated together in this round that had already met."""
    return sum(
        history.times_met(a, b)
        for t in rnd.tables
        for i, a in enumerate(t.players)
        for b in t.players[i + 1 :]
    )


def play_random(rnd: Round, scores: dict[int, float], rng: random.Random) -> None:
    """Give each table a random finishing order and add points by rank (byes score 1)."""
    for t in rnd.tables:
        order = list(t.players)
        rng.shuffle(order)
        k = len(order)
        for i, p in enumerate(order):
            scores[p] = scores.get(p, 0) + (k - 1 - i) / (k - 1)
    for p in rnd.byes:
        scores[p] = scores.get(p, 0) + 1


def standing(players: Sequence[int], scores: dict[int, float]) -> list[int]:
    """Players by score, best first (ties by id)."""
    return sorted(players, key=lambda p: (-scores.get(p, 0), p))


def assert_seats_everyone_once(rnd: Round, active: Sequence[int]) -> None:
    """Every active player is at exactly one table or on a bye, and nobody else is."""
    seated = rnd.seated()
    assert len(seated) == len(set(seated)), f"someone seated twice: {rnd}"
    assert sorted(seated) == sorted(active)
