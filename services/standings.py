"""Tournament standings: points by rank at each table, tie-breaks, and a CSV export.

Results come from game outcomes (their ranking groups), from the platform when a game is
abandoned or dropped by the clock, from the organiser's award, or from byes; nobody types
a result in. Everything here is computed from those results, so standings can always be
rebuilt from storage.

Points by rank: at a table of k players, place q (0 = first) earns (k-1-q)/(k-1): a
two-player game gives 1 for a win, 1/2 each for a draw and 0 for a loss; a four-player
table gives 1, 2/3, 1/3 and 0, so tables of different sizes weigh the same. Players tied
in the ranking share the average of the places they cover. A bye earns a win's point.
Sums are exact fractions, so equal totals really tie.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from rules.core import Outcome

PlayerId = int
ResultKind = Literal["game", "abandoned", "awarded", "bye", "nobody"]

BUCHHOLZ = "buchholz"
MEDIAN_BUCHHOLZ = "median_buchholz"
SONNEBORN_BERGER = "sonneborn_berger"
HEAD_TO_HEAD = "head_to_head"
GAME_POINTS = "game_points"
TIEBREAKS = (BUCHHOLZ, MEDIAN_BUCHHOLZ, SONNEBORN_BERGER, HEAD_TO_HEAD, GAME_POINTS)

# The order each format breaks ties in (the seeding decides last).
SWISS_TIEBREAKS = (MEDIAN_BUCHHOLZ, BUCHHOLZ, SONNEBORN_BERGER, HEAD_TO_HEAD, GAME_POINTS)
ROUND_ROBIN_TIEBREAKS = (HEAD_TO_HEAD, SONNEBORN_BERGER, GAME_POINTS)

BYE_POINTS = Fraction(1)


@dataclass(frozen=True)
class TableResult:
    """A finished table: each player's place (0 = first, ties share; None = lost unranked)."""

    round: int
    players: tuple[PlayerId, ...]
    places: Mapping[PlayerId, int | None]
    scores: Mapping[PlayerId, float] = field(default_factory=dict)
    kind: ResultKind = "game"

    def points(self, p: PlayerId) -> Fraction:
        """The points `p` earns at this table."""
        if self.kind == "bye":
            return BYE_POINTS
        k = len(self.players)
        place = self.places.get(p)
        if place is None or k < 2:
            return Fraction(0)
        # Tied players cover the places place .. place+m-1 and share their average.
        m = sum(1 for q in self.players if self.places.get(q) == place)
        total = sum(Fraction(k - 1 - q, k - 1) for q in range(place, place + m))
        return total / m

    def versus(self, p: PlayerId, o: PlayerId) -> Fraction:
        """p's result against o at this table: 1 placed ahead, 1/2 level, 0 behind."""
        k = len(self.players)
        a = self.places.get(p)
        b = self.places.get(o)
        a = k if a is None else a
        b = k if b is None else b
        return Fraction(1) if a < b else Fraction(1, 2) if a == b else Fraction(0)

    def won(self, p: PlayerId) -> bool:
        """Alone in first place (a bye counts as a win)."""
        if self.kind == "bye":
            return True
        return (
            self.places.get(p) == 0 and sum(1 for q in self.players if self.places.get(q) == 0) == 1
        )


def places_from_ranking(
    players: Sequence[PlayerId], ranking: Sequence[Sequence[PlayerId]]
) -> dict[PlayerId, int | None]:
    """Places from ranking groups (competition ranking: 0, 1, 1, 3); players missing are last."""
    places: dict[PlayerId, int | None] = {}
    at = 0
    for group in ranking:
        for p in group:
            places[p] = at
        at += len(group)
    missing = [p for p in players if p not in places]
    for p in missing:
        places[p] = at
    return places


def result_from_outcome(
    round_no: int, players: Sequence[PlayerId], outcome: Outcome
) -> TableResult:
    """A table's result from its game's outcome; `players` are the users by seat.

    An outcome with an empty ranking (nobody wins: in Rattus Cartus the plague can kill
    everyone) is a loss for every player: no points, no wins.
    """
    players = tuple(players)
    scores = {players[s]: v for s, v in outcome.scores.items() if 0 <= s < len(players)}
    if not outcome.ranking:
        return TableResult(round_no, players, dict.fromkeys(players), scores, "nobody")
    ranking = [[players[s] for s in group] for group in outcome.ranking]
    return TableResult(round_no, players, places_from_ranking(players, ranking), scores)


def result_with_leavers(
    round_no: int, players: Sequence[PlayerId], outcome: Outcome, leavers: Iterable[PlayerId]
) -> TableResult:
    """A finished game some players left on the way (dropped by the clock, the bot played on).

    Leaving is a loss: the leavers share the last places; the others keep the order the
    game's outcome gave them.
    """
    gone = set(leavers)
    if not gone or not outcome.ranking:
        # Nobody won: a loss for everyone, those who left included.
        return result_from_outcome(round_no, players, outcome)
    players = tuple(players)
    scores = {players[s]: v for s, v in outcome.scores.items() if 0 <= s < len(players)}
    ranking = [[players[s] for s in group if players[s] not in gone] for group in outcome.ranking]
    ranking = [g for g in ranking if g]
    ranking.append([p for p in players if p in gone])
    return TableResult(
        round_no, players, places_from_ranking(players, ranking), scores, "abandoned"
    )


def result_from_abandon(
    round_no: int, players: Sequence[PlayerId], leavers: Iterable[PlayerId]
) -> TableResult:
    """A game abandoned or dropped by the clock: a loss for whoever left.

    The players who stayed share the places ahead of them (two players: the one who stayed
    wins); whoever left shares the last places.
    """
    players = tuple(players)
    gone = set(leavers)
    stayed = [p for p in players if p not in gone]
    ranking = [g for g in (stayed, [p for p in players if p in gone]) if g]
    return TableResult(round_no, players, places_from_ranking(players, ranking), {}, "abandoned")


def awarded(
    round_no: int, players: Sequence[PlayerId], ranking: Sequence[Sequence[PlayerId]]
) -> TableResult:
    """A result the organiser awards: their ranking groups, players left out last."""
    players = tuple(players)
    unknown = {p for g in ranking for p in g} - set(players)
    if unknown:
        raise ValueError(f"players {sorted(unknown)} are not at this table")
    return TableResult(round_no, players, places_from_ranking(players, ranking), {}, "awarded")


def bye(round_no: int, player: PlayerId) -> TableResult:
    """A bye: a win's point, no opponent."""
    return TableResult(round_no, (player,), {player: 0}, {}, "bye")


@dataclass(frozen=True)
class Standing:
    """One line of the standings."""

    player: PlayerId
    rank: int  # 1-based; players level on points and every tie-break share it
    points: Fraction
    games: int
    wins: int
    tiebreaks: dict[str, Fraction]
    dropped: bool = False


def compute_standings(
    players: Sequence[PlayerId],
    results: Iterable[TableResult],
    tiebreaks: Sequence[str] = SWISS_TIEBREAKS,
    dropped: Iterable[PlayerId] = (),
) -> list[Standing]:
    """Standings of `players` (in seed order, which breaks the last ties) from their results."""
    for tb in tiebreaks:
        if tb not in TIEBREAKS:
            raise ValueError(f"unknown tie-break {tb!r}")
    results = list(results)
    players = list(dict.fromkeys(players))
    out = set(dropped)
    points = {p: Fraction(0) for p in players}
    games: dict[PlayerId, list[TableResult]] = {p: [] for p in players}
    for r in results:
        for p in r.players:
            if p in points:
                points[p] += r.points(p)
                games[p].append(r)

    def opponents(r: TableResult, p: PlayerId) -> list[PlayerId]:
        return [o for o in r.players if o != p]

    def contributions(p: PlayerId) -> list[Fraction]:
        """Per game: the mean total of p's opponents (byes have none)."""
        c = []
        for r in games[p]:
            opp = opponents(r, p)
            if opp:
                c.append(sum((points.get(o, Fraction(0)) for o in opp), Fraction(0)) / len(opp))
        return c

    def value(tb: str, p: PlayerId, group: set[PlayerId]) -> Fraction:
        if tb == BUCHHOLZ:
            return sum(contributions(p), Fraction(0))
        if tb == MEDIAN_BUCHHOLZ:
            c = sorted(contributions(p))
            if len(c) >= 3:
                c = c[1:-1]
            return sum(c, Fraction(0))
        if tb == SONNEBORN_BERGER:
            total = Fraction(0)
            for r in games[p]:
                opp = opponents(r, p)
                if opp:
                    total += sum(
                        (r.versus(p, o) * points.get(o, Fraction(0)) for o in opp), Fraction(0)
                    ) / len(opp)
            return total
        if tb == HEAD_TO_HEAD:
            return sum(
                (r.versus(p, o) for r in games[p] for o in opponents(r, p) if o in group),
                Fraction(0),
            )
        # GAME_POINTS: in-game scores (victory points...) summed over the event.
        return sum(
            (Fraction(r.scores.get(p, 0)).limit_denominator(1000) for r in games[p]), Fraction(0)
        )

    # Refine groups of equal keys one criterion at a time: head to head must be counted
    # only among the players still level after the criteria before it.
    keyed: dict[PlayerId, list[Fraction]] = {p: [points[p]] for p in players}
    groups = _split(players, keyed)
    for tb in tiebreaks:
        for g in groups:
            members = set(g)
            for p in g:
                keyed[p].append(value(tb, p, members))
        groups = [sub for g in groups for sub in _split(g, keyed)]
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: ([-v for v in keyed[p]], seed[p]))
    standings: list[Standing] = []
    for i, p in enumerate(order):
        rank = i + 1
        if standings and keyed[standings[-1].player] == keyed[p]:
            rank = standings[-1].rank
        # The values the order used (head to head: among those level before it).
        tbs = dict(zip(tiebreaks, keyed[p][1:], strict=True))
        standings.append(
            Standing(
                player=p,
                rank=rank,
                points=points[p],
                games=sum(1 for r in games[p] if r.kind != "bye"),
                wins=sum(1 for r in games[p] if r.won(p)),
                tiebreaks=tbs,
                dropped=p in out,
            )
        )
    return standings


def _split(
    group: Sequence[PlayerId], keyed: Mapping[PlayerId, list[Fraction]]
) -> list[list[PlayerId]]:
    """Split a group into runs of equal keys (order among runs does not matter here)."""
    runs: dict[tuple[Fraction, ...], list[PlayerId]] = {}
    for p in group:
        runs.setdefault(tuple(keyed[p]), []).append(p)
    return list(runs.values())


def show(x: Fraction) -> str:
    """A number as players read it: whole numbers plain, others to two decimals."""
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.2f}"


def standings_csv(
    standings: Sequence[Standing], names: Mapping[PlayerId, str], tiebreaks: Sequence[str]
) -> str:
    """The standings as CSV text (one header line, one line per player)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "player", "user_id", "points", "games", "wins", *tiebreaks, "dropped"])
    for s in standings:
        w.writerow(
            [
                s.rank,
                _cell(names.get(s.player, str(s.player))),
                s.player,
                show(s.points),
                s.games,
                s.wins,
                *(show(s.tiebreaks[tb]) for tb in tiebreaks),
                "yes" if s.dropped else "",
            ]
        )
    return buf.getvalue()


def _cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a quote."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
