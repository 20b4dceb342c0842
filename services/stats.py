"""A server's statistics: games played and finished per title, their length, how often each
seat and each side played (faction, pantheon, personality) wins, and the most active
players. Computed from stored games (storage/stats.py)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from storage.stats import StatsGame

DAY = 86_400.0
TOP_PLAYERS = 10


@dataclass
class SeatRecord:
    """How one seat (turn order, 0 first) did in a title's games with a result."""

    games: int = 0
    wins: int = 0

    @property
    def rate(self) -> float | None:
        """The share of those games the seat won (ties count for each winner)."""
        return self.wins / self.games if self.games else None


@dataclass
class TitleStats:
    """One title's games on the server."""

    game_id: str
    played: int = 0  # started: under way, finished or abandoned
    finished: int = 0
    abandoned: int = 0
    median_moves: float | None = None  # of finished games
    median_days: float | None = None  # from creation to the end, of finished games
    seats: list[SeatRecord] = field(default_factory=list)
    # what seats played as (``Engine.sides``' text as JSON) -> how it did, most played first
    sides: dict[str, SeatRecord] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerStats:
    """A person's games on the server (bots are not counted)."""

    user_id: int
    name: str
    games: int
    wins: int


@dataclass
class ServerStats:
    """Everything ``/stats`` shows."""

    titles: list[TitleStats]
    players: list[PlayerStats]

    @property
    def played(self) -> int:
        """Games started on the server."""
        return sum(t.played for t in self.titles)


def compute(games: Sequence[StatsGame]) -> ServerStats:
    """The statistics of ``games`` (newest first, as storage gives them)."""
    titles: dict[str, TitleStats] = {}
    moves: dict[str, list[int]] = {}
    days: dict[str, list[float]] = {}
    people: dict[int, list[int]] = {}  # user -> [games, wins]
    names: dict[int, str] = {}
    for g in games:
        ts = titles.setdefault(g.game_id, TitleStats(g.game_id))
        ts.played += 1
        if g.status == "abandoned":
            ts.abandoned += 1
        if g.status == "finished":
            ts.finished += 1
            moves.setdefault(g.game_id, []).append(g.moves)
            if g.finished_at is not None:
                days.setdefault(g.game_id, []).append(max(0.0, g.finished_at - g.created_at) / DAY)
        rated = g.status == "finished" and any(place is not None for *_, place in g.places)
        for seat, user, name, place in g.places:
            if rated:
                while len(ts.seats) <= seat:
                    ts.seats.append(SeatRecord())
                ts.seats[seat].games += 1
                ts.seats[seat].wins += place == 0
                side = g.sides.get(seat)
                if side is not None:
                    rec = ts.sides.setdefault(side, SeatRecord())
                    rec.games += 1
                    rec.wins += place == 0
            if user is not None:
                tally = people.setdefault(user, [0, 0])
                tally[0] += 1
                tally[1] += rated and place == 0
                names.setdefault(user, name)  # the newest game's name comes first
    for gid, ts in titles.items():
        ts.sides = dict(sorted(ts.sides.items(), key=lambda kv: (-kv[1].games, -kv[1].wins, kv[0])))
        if moves.get(gid):
            ts.median_moves = statistics.median(moves[gid])
        if days.get(gid):
            ts.median_days = statistics.median(days[gid])
    top = sorted(people.items(), key=lambda kv: (-kv[1][0], -kv[1][1], names[kv[0]].casefold()))
    players = [PlayerStats(uid, names[uid], n, w) for uid, (n, w) in top[:TOP_PLAYERS]]
    ordered = sorted(titles.values(), key=lambda t: (-t.played, t.game_id))
    return ServerStats(ordered, players)
