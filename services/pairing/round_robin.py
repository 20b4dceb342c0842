"""Round robin: everyone meets everyone.

Two-player games use the circle method (Berger tables): with n players (one more, a bye,
when n is odd) there are n-1 rounds; the first player stays put while the others rotate,
and seats alternate so that everyone plays first about half the time. The schedule is
fixed at the start from the seeding; a player who drops leaves their remaining opponents
a bye.

Multiplayer tables cannot follow a fixed formula for every count, so each round is built
greedily from what has been played: tables (balanced sizes) are filled with players who
have met least, the best of several seeded attempts is kept, and swaps between tables
polish it. The number of rounds is fixed at the start as the length of such a schedule
until every pair has met; drops simply leave the later rounds with fewer players.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .common import History, PlayerId, Round, Table, order_seats, table_sizes

_ATTEMPTS = 24


def circle_schedule(players: Sequence[PlayerId]) -> list[Round]:
    """Every round of a two-player round robin by the circle method (players in seed order)."""
    ring: list[PlayerId | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[Round] = []
    for r in range(n - 1):
        tables: list[Table] = []
        byes: list[PlayerId] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            # Berger tables: the fixed player alternates seats by round; the others by board.
            first_is_a = (r % 2 == 0) if i == 0 else (i % 2 == 1)
            if a is None or b is None:
                byes.append(b if a is None else a)  # type: ignore[arg-type]
                continue
            tables.append(Table((a, b) if first_is_a else (b, a)))
        rounds.append(Round(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def round_robin_round(
    players: Sequence[PlayerId],
    history: History,
    *,
    table_size: int,
    min_size: int = 2,
    seed: int = 0,
) -> Round:
    """One multiplayer round-robin round: balanced tables of players who have met least."""
    active = list(dict.fromkeys(players))
    sizes, n_byes = table_sizes(len(active), table_size, min_size)
    rng = random.Random(seed)
    # Byes rotate: those with the fewest so far, the later seeds first.
    order = sorted(range(len(active)), key=lambda i: (history.byes[active[i]], -i))
    byes = [active[i] for i in order[:n_byes]]
    rest = [p for p in active if p not in byes]

    def table_cost(t: list[PlayerId]) -> int:
        return sum(_pair_cost(history, a, b) for k, a in enumerate(t) for b in t[k + 1 :])

    best: list[list[PlayerId]] | None = None
    best_cost = -1
    for _ in range(_ATTEMPTS):
        pool = rest[:]
        rng.shuffle(pool)
        tables: list[list[PlayerId]] = []
        for s in sizes:
            t = [pool.pop(0)]
            while len(t) < s:
                k = min(
                    range(len(pool)),
                    key=lambda j: sum(_pair_cost(history, pool[j], q) for q in t),
                )
                t.append(pool.pop(k))
            tables.append(t)
        _polish(tables, history)
        c = sum(table_cost(t) for t in tables)
        if best is None or c < best_cost:
            best, best_cost = tables, c
            if c == 0:
                break
    assert best is not None or not sizes
    seat_rank = {p: i for i, p in enumerate(active)}
    out = [Table(order_seats(sorted(t, key=seat_rank.__getitem__), history)) for t in best or []]
    return Round(tuple(out), tuple(byes))


def _pair_cost(history: History, a: PlayerId, b: PlayerId) -> int:
    """Seating a and b together: any repeat costs much (so new pairs are covered first),
    and a pair that has met often costs more (so repeats spread out)."""
    m = history.times_met(a, b)
    return 0 if m == 0 else 1000 + m * m


def _polish(tables: list[list[PlayerId]], history: History) -> None:
    """Swap players between any two tables while that lowers the repeated meetings."""

    def cost(p: PlayerId, others: list[PlayerId]) -> int:
        return sum(_pair_cost(history, p, q) for q in others)

    for _ in range(20):
        changed = False
        for ti in range(len(tables)):
            for tj in range(ti + 1, len(tables)):
                a_t, b_t = tables[ti], tables[tj]
                for x in range(len(a_t)):
                    for y in range(len(b_t)):
                        a, b = a_t[x], b_t[y]
                        rest_a = a_t[:x] + a_t[x + 1 :]
                        rest_b = b_t[:y] + b_t[y + 1 :]
                        if cost(b, rest_a) + cost(a, rest_b) < cost(a, rest_a) + cost(b, rest_b):
                            a_t[x], b_t[y] = b, a
                            changed = True
        if not changed:
            return


def round_robin_rounds(
    n: int, *, table_size: int, min_size: int = 2, seed: int = 0, limit: int = 60
) -> int:
    """How many rounds a round robin of n players takes until every pair has met."""
    if table_size == 2:
        return n - 1 if n % 2 == 0 else n
    players = list(range(n))
    history = History()
    pairs_needed = n * (n - 1) // 2
    for r in range(limit):
        if len(history.met) >= pairs_needed:
            return r
        history.add(
            round_robin_round(
                players, history, table_size=table_size, min_size=min_size, seed=seed + r
            )
        )
    return limit


def circle_round(
    players: Sequence[PlayerId], number: int, active: Sequence[PlayerId] | set[PlayerId]
) -> Round:
    """Round `number` (from 1) of the circle schedule, without players who have dropped.

    A dropped player's opponent of that round has a bye.
    """
    rnd = circle_schedule(players)[number - 1]
    still = set(active)
    tables: list[Table] = []
    byes = [p for p in rnd.byes if p in still]
    for t in rnd.tables:
        present = [p for p in t.players if p in still]
        if len(present) == len(t.players):
            tables.append(t)
        else:
            byes.extend(present)
    return Round(tuple(tables), tuple(byes))
