"""A tournament's standings, podium, bracket and CSV, always rebuilt from stored results."""

from __future__ import annotations

from collections.abc import Sequence

from storage.tournaments import EntrantRow, MatchRow, TournamentRow

from .pairing import Bracket, bracket_from
from .standings import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Standing,
    TableResult,
    compute_standings,
    standings_csv,
)
from .tournament_base import ELIMINATIONS, TournamentBase


class TournamentStandings(TournamentBase):
    """Standings (Swiss and round robin by points and tie-breaks; eliminations by bracket)."""

    async def podium(self, tournament: int) -> list[list[Standing]]:
        """The first three places of the standings, players sharing a place together."""
        places: list[list[Standing]] = []
        for s in await self.standings(tournament):
            if s.rank > 3:
                break
            if places and places[-1][0].rank == s.rank:
                places[-1].append(s)
            else:
                places.append([s])
        return places

    def _bracket(
        self, t: TournamentRow, entrants: Sequence[EntrantRow], matches: Sequence[MatchRow]
    ) -> Bracket:
        results: dict[str, int] = {}
        for m in matches:
            if m.bracket and m.status == "finished":
                winner = [p.user_id for p in m.players if p.place == 0]
                if len(winner) == 1:
                    results[m.bracket] = winner[0]
        seeds = [e.user_id for e in entrants]
        dropped = [e.user_id for e in entrants if e.dropped]
        return bracket_from(
            "single" if t.format == "single_elim" else "double", seeds, results, dropped
        )

    async def standings(self, tournament: int) -> list[Standing]:
        """The current standings (eliminations: by bracket placing, then seed)."""
        t = await self.require(tournament)
        entrants = await self.store.entrants(tournament)
        matches = await self.store.matches(tournament)
        if t.format in ELIMINATIONS:
            bracket = self._bracket(t, entrants, matches)
            base = {s.player: s for s in self._standings(t, entrants, matches)}
            places = bracket.placements()
            seeds = [e.user_id for e in entrants]
            # Players still in the bracket share first place until it is decided.
            order = sorted(seeds, key=lambda p: (places.get(p, 1), seeds.index(p)))
            return [
                Standing(
                    p,
                    places.get(p, 1),
                    base[p].points,
                    base[p].games,
                    base[p].wins,
                    {},
                    base[p].dropped,
                )
                for p in order
            ]
        return self._standings(t, entrants, matches)

    def _standings(
        self, t: TournamentRow, entrants: Sequence[EntrantRow], matches: Sequence[MatchRow]
    ) -> list[Standing]:
        results = [_table_result(m) for m in matches if m.status == "finished"]
        tbs = ROUND_ROBIN_TIEBREAKS if t.format == "round_robin" else SWISS_TIEBREAKS
        return compute_standings(
            [e.user_id for e in entrants],
            results,
            tbs if t.format not in ELIMINATIONS else (),
            dropped=[e.user_id for e in entrants if e.dropped],
        )

    async def bracket(self, tournament: int) -> Bracket:
        """An elimination's bracket as the stored results make it (for its picture)."""
        t = await self.require(tournament)
        entrants = await self.store.entrants(tournament)
        return self._bracket(t, entrants, await self.store.matches(tournament))

    async def standings_csv(self, tournament: int) -> str:
        """The standings as CSV text."""
        t = await self.require(tournament)
        names = {e.user_id: e.name for e in await self.store.entrants(tournament)}
        tbs: tuple[str, ...] = ()
        if t.format == "swiss":
            tbs = SWISS_TIEBREAKS
        elif t.format == "round_robin":
            tbs = ROUND_ROBIN_TIEBREAKS
        return standings_csv(await self.standings(tournament), names, tbs)


def _table_result(m: MatchRow) -> TableResult:
    """A stored table back to a TableResult (the kind says how it was decided)."""
    kind = m.result or "game"
    places = {p.user_id: p.place for p in m.players}
    scores = {p.user_id: p.score for p in m.players if p.score is not None}
    return TableResult(m.round, m.user_ids, places, scores, kind)  # type: ignore[arg-type]
