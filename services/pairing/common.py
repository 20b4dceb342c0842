"""What every pairing format shares: tables, rounds, the history of who met whom, table sizes."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

PlayerId = int


@dataclass(frozen=True)
class Table:
    """One table of a round: its players in seat order (seat 0 plays first)."""

    players: tuple[PlayerId, ...]


@dataclass(frozen=True)
class Round:
    """A round: the tables to play and the players who sit it out with a bye."""

    tables: tuple[Table, ...]
    byes: tuple[PlayerId, ...] = ()

    def seated(self) -> list[PlayerId]:
        """Every player of the round, at a table or on a bye, in table order."""
        return [p for t in self.tables for p in t.players] + list(self.byes)


@dataclass
class History:
    """Who has sat with whom, who had byes and who played first, from earlier rounds."""

    met: Counter[frozenset[PlayerId]] = field(default_factory=Counter)
    byes: Counter[PlayerId] = field(default_factory=Counter)
    firsts: Counter[PlayerId] = field(default_factory=Counter)
    games: Counter[PlayerId] = field(default_factory=Counter)
    last_first: dict[PlayerId, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, rounds: Iterable[Round]) -> History:
        """Build the history of a sequence of played rounds."""
        h = cls()
        for r in rounds:
            h.add(r)
        return h

    def add(self, rnd: Round) -> None:
        """Record one more round."""
        for t in rnd.tables:
            self.add_table(t.players)
        for p in rnd.byes:
            self.byes[p] += 1

    def add_table(self, players: Sequence[PlayerId]) -> None:
        """Record one played table (seat order)."""
        for i, a in enumerate(players):
            self.games[a] += 1
            self.last_first[a] = i == 0
            for b in players[i + 1 :]:
                self.met[frozenset((a, b))] += 1
        if players:
            self.firsts[players[0]] += 1

    def times_met(self, a: PlayerId, b: PlayerId) -> int:
        """How many times a and b have sat at the same table."""
        return self.met.get(frozenset((a, b)), 0)


def table_sizes(n: int, size: int, min_size: int = 2) -> tuple[list[int], int]:
    """Balanced table sizes for n players at tables of at most `size`, and how many sit out.

    Tables differ by at most one seat and none is larger than `size`; when the count does
    not divide, some tables get one seat fewer (9 players at tables of 4: 3, 3, 3). When
    even that would leave a table below `min_size`, the fewest players possible sit out
    (5 players, tables of 4, games of 3 or more: one table of 4 and one bye).
    """
    if size < 2 or min_size < 2 or min_size > size:
        raise ValueError(f"bad table size {size} (min {min_size})")
    if n <= 0:
        return [], 0
    t = math.ceil(n / size)
    while t > 0 and n // t < min_size:
        t -= 1
    if t == 0:
        return [], n
    seated = min(n, t * size)
    base, extra = divmod(seated, t)
    # Larger tables first: they go to the top of the standings.
    return [base + 1] * extra + [base] * (t - extra), n - seated


def order_seats(players: Sequence[PlayerId], history: History) -> tuple[PlayerId, ...]:
    """Seat order at a table: who has played first least often goes first.

    Ties go to whoever did not play first last time, then to the given order (standing).
    """
    rank = {p: i for i, p in enumerate(players)}
    return tuple(
        sorted(
            players,
            key=lambda p: (
                history.firsts[p] - history.games[p] / len(players),
                history.last_first.get(p, False),
                rank[p],
            ),
        )
    )
