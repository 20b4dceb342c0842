"""The tournament service: sign-up, seeding, rounds, results flowing in, standings.

Discord-free. It creates each table's game through a TableHost (the Discord side puts
the game in a thread, seats the players, starts it with the tournament's clock), and is
told when a table's game ends (`game_finished`) or is abandoned (`game_abandoned`).
Everything it decides is stored first, so a restart mid-round resumes from the store:
standings, brackets and the next pairing are always rebuilt from stored results.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

from rules.core import Engine, Outcome
from rules.phrases import Phrases
from storage import StaleVersion
from storage.ratings import DuplicateResult
from storage.tournaments import (
    AlreadyEntered,
    EntrantRow,
    MatchRow,
    NewTable,
    NotInSignup,
    TournamentFull,
    TournamentRow,
)

from .pairing import (
    History,
    Round,
    Table,
    circle_round,
    pair_swiss,
    round_robin_round,
    round_robin_rounds,
)
from .ratings import RatedSeat, record_finished_game
from .reliability import Requirements, check_requirements
from .standings import TableResult, awarded, result_from_abandon, result_with_leavers
from .tournament_base import ELIMINATIONS, Progress, TableHost, TournamentRefusal
from .tournament_standings import TournamentStandings

msg = Phrases("core")


class TournamentService(TournamentStandings):
    """Runs tournaments on top of the store; one lock per tournament serialises its changes."""

    # ------------------------------------------------------------------ creation

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game_id: str,
        format: str,
        table_size: int,
        seed: int,
        locale: str,
        options: Mapping | None = None,
        rounds: int | None = None,
        clock: Mapping | None = None,
        signup_deadline: float | None = None,
        cap: int | None = None,
        check_in: bool = False,
        seeding: str = "rating",
        rated: bool = True,
        requirements: Requirements | None = None,
    ) -> TournamentRow:
        """Create a tournament in sign-up after checking its settings fit the game."""
        engine = self.engine(game_id)
        opts = engine.parse_options(dict(options or {})).model_dump(mode="json")
        lo, hi = engine.min_players, engine.max_players
        if format in ELIMINATIONS:
            if lo > 2:
                raise TournamentRefusal(
                    msg("{title} is not played by two: use Swiss or round robin.", title=engine.title),
                )
            table_size = 2
        elif format not in ("swiss", "round_robin"):
            raise TournamentRefusal(msg("Unknown format: {format}.", format=format))
        sizes = ([2] if lo <= 2 else []) + list(range(max(3, lo), min(5, hi) + 1))
        if table_size not in sizes:
            listed = ", ".join(str(k) for k in sizes)
            raise TournamentRefusal(
                msg("Tables of {size} do not suit {title}: choose {listed}.", size=table_size,
                    title=engine.title, listed=listed),
            )
        if rounds is not None and rounds < 1:
            raise TournamentRefusal(
                msg("At least one round is needed.")
            )
        if cap is not None and cap < 2:
            raise TournamentRefusal(
                msg("The entry cap must be at least 2.")
            )
        return await self.store.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            name=name,
            game_id=game_id,
            format=format,
            table_size=table_size,
            seed=seed,
            locale=locale,
            options=opts,
            rounds=rounds if format == "swiss" else None,
            clock=clock,
            signup_deadline=signup_deadline,
            cap=cap,
            check_in=check_in,
            seeding=seeding,
            rated=rated,
            requirements=requirements.to_json() if requirements is not None else None,
        )

    # ------------------------------------------------------------------ sign-up

    async def enter(self, tournament: int, user_id: int, name: str) -> EntrantRow:
        """Sign a player up."""
        async with self.lock(tournament):
            await self.check_entry(await self.require(tournament), user_id)
            try:
                return await self.store.enter_tournament(tournament, user_id, name)
            except AlreadyEntered:
                raise TournamentRefusal(
                    msg("You have already signed up.")
                ) from None
            except TournamentFull:
                raise TournamentRefusal(
                    msg("The tournament is full.")
                ) from None
            except NotInSignup:
                raise _closed() from None

    async def check_entry(self, t: TournamentRow, user_id: int) -> None:
        """Refuse a sign-up that the tournament's minimum record rules out (saying why)."""
        if t.requirements and t.status == "signup":
            await check_requirements(self.store, t, user_id)

    async def leave(self, tournament: int, user_id: int) -> None:
        """Withdraw before the start."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            if t.status != "signup":
                raise TournamentRefusal(
                    msg("The tournament has started: ask the organiser to drop you."),
                )
            if not await self.store.leave_tournament(tournament, user_id):
                raise TournamentRefusal(msg("You have not signed up."))

    async def check_in(self, tournament: int, user_id: int) -> None:
        """Confirm presence before the start."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            if t.status != "signup":
                raise _closed()
            if not await self.store.check_in_entrant(tournament, user_id):
                raise TournamentRefusal(msg("You have not signed up."))

    # ------------------------------------------------------------------ start

    async def start(self, tournament: int) -> Progress:
        """Close sign-up, seed the players and open round 1."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            if t.status != "signup":
                raise _closed()
            entrants = await self.store.entrants(tournament)
            if t.check_in:
                entrants = [e for e in entrants if e.checked_in]
            engine = self.engine(t.game_id)
            need = (
                2 if t.format in ELIMINATIONS or t.table_size == 2 else max(3, engine.min_players)
            )
            if len(entrants) < need:
                raise TournamentRefusal(
                    msg.n(len(entrants), "Not enough players: at least {least} are needed, there is {n}.",
                          "Not enough players: at least {least} are needed, there are {n}.", least=need),
                )
            seeds = await self._seed(t, entrants)
            rounds = self._planned_rounds(t, len(seeds), engine)
            t = await self.store.start_tournament(tournament, seeds, rounds=rounds)
            progress = Progress()
            await self._open_next(t, progress)
            return progress

    async def start_due(self, now: float) -> dict[int, Progress | TournamentRefusal]:
        """Start every tournament whose sign-up deadline has passed (the scheduler calls this).

        One that cannot start (too few players) is cancelled; the refusal says why.
        """
        out: dict[int, Progress | TournamentRefusal] = {}
        for tid in await self.store.tournaments_signup_due(now):
            try:
                out[tid] = await self.start(tid)
            except TournamentRefusal as why:
                # the channel is told why, once, even across a crash
                await self.store.set_tournament_status(
                    tid, "cancelled", owe=("cancelled", {"why": why.text.model_dump(mode="json")})
                )
                out[tid] = why
        return out

    async def _seed(self, t: TournamentRow, entrants: Sequence[EntrantRow]) -> list[int]:
        """Seed order: by rating (best conservative estimate first) or at random."""
        rng = random.Random(t.seed)
        users = [e.user_id for e in entrants]
        rng.shuffle(users)  # random seeding, and the order among equal ratings
        if t.seeding == "rating":
            stored = await self.ratings.ratings_of(t.guild_id, t.game_id, users)
            rank = {u: i for i, u in enumerate(users)}
            users.sort(key=lambda u: (-(stored[u].conservative if u in stored else 0), rank[u]))
        return users

    def _planned_rounds(self, t: TournamentRow, n: int, engine: Engine) -> int | None:
        if t.format == "swiss":
            return t.rounds or max(1, math.ceil(math.log2(n)))
        if t.format == "round_robin":
            return round_robin_rounds(
                n, table_size=t.table_size, min_size=self._min_size(t, engine), seed=t.seed
            )
        return None

    def _min_size(self, t: TournamentRow, engine: Engine) -> int:
        return 2 if t.table_size == 2 else max(3, engine.min_players)

    # ------------------------------------------------------------------ rounds

    async def _open_next(self, t: TournamentRow, progress: Progress) -> None:
        """Open the round after the current one, or finish the tournament if none is left."""
        t = await self.require(t.id)
        entrants = await self.store.entrants(t.id)
        matches = await self.store.matches(t.id)
        number = t.current_round + 1
        active = [e.user_id for e in entrants if not e.dropped]
        tables: list[NewTable]
        byes: list[int] = []
        if t.format in ELIMINATIONS:
            bracket = self._bracket(t, entrants, matches)
            if bracket.finished():
                await self._finish(t, progress)
                return
            tables = [NewTable((a, b), key) for key, a, b in bracket.playable()]
            if not tables:  # cannot happen while undecided; never loop on it
                await self._finish(t, progress)
                return
        else:
            if t.rounds is not None and number > t.rounds or len(active) < 2:
                await self._finish(t, progress)
                return
            rnd = self._pair(t, entrants, matches, number, active)
            tables = [NewTable(tb.players) for tb in rnd.tables]
            byes = list(rnd.byes)
        try:
            opened = await self.store.open_round(t.id, number, tables, byes)
        except StaleVersion:
            # Another process (its last table ended at the same moment) opened it first.
            return
        progress.round_opened = number
        t = await self.require(t.id)
        for m in opened:
            if m.status == "pending":
                game = await self.host.open_table(t, m)
                await self.store.set_match_game(m.id, game)
                progress.opened.append(await self.store.get_match(m.id))
        if not tables:
            # Only byes (everyone else dropped): the round is complete at once.
            await self._after_result(t, progress)

    def _pair(
        self,
        t: TournamentRow,
        entrants: Sequence[EntrantRow],
        matches: Sequence[MatchRow],
        number: int,
        active: list[int],
    ) -> Round:
        engine = self.engine(t.game_id)
        min_size = self._min_size(t, engine)
        seeds = [e.user_id for e in entrants]
        history = _history(matches)
        if t.format == "round_robin":
            if t.table_size == 2:
                return circle_round(seeds, number, set(active))
            return round_robin_round(
                active,
                history,
                table_size=t.table_size,
                min_size=min_size,
                seed=t.seed + number - 1,
            )
        standings = self._standings(t, entrants, matches)
        order = [s.player for s in standings if s.player in set(active)]
        scores = {s.player: s.points for s in standings}
        return pair_swiss(order, scores, history, table_size=t.table_size, min_size=min_size)

    # ------------------------------------------------------------------ results

    async def game_finished(
        self, game: int, outcome: Outcome, left: Sequence[int] = ()
    ) -> Progress | None:
        """A table's game ended: record its result from the outcome; None if not a tournament's.

        `left` names players who left on the way (dropped by the clock while the bot played
        their seat on): a loss for them whatever their seat achieved.
        """
        match = await self.store.match_for_game(game)
        if match is None:
            return None
        async with self.lock(match.tournament):
            t = await self.require(match.tournament)
            match = await self.store.get_match(match.id)
            progress = Progress()
            if match.status == "finished" or match.game != game:
                return progress
            result = result_with_leavers(match.round, match.user_ids, outcome, left)
            if t.format in ELIMINATIONS and not _single_winner(result):
                # Nobody won alone: the match is played again.
                await self.store.reopen_match(match.id)
                await self._replay(t, match.id, progress)
                return progress
            await self._record(t, match, result, progress)
            await self._after_result(t, progress)
            return progress

    async def game_abandoned(self, game: int, leavers: Sequence[int]) -> Progress | None:
        """A table's game was abandoned or dropped by the clock: a loss for whoever left."""
        match = await self.store.match_for_game(game)
        if match is None:
            return None
        async with self.lock(match.tournament):
            t = await self.require(match.tournament)
            match = await self.store.get_match(match.id)
            progress = Progress()
            if match.status == "finished":
                return progress
            result = result_from_abandon(match.round, match.user_ids, leavers)
            await self._record(t, match, result, progress)
            await self._after_result(t, progress)
            return progress

    async def award(
        self, tournament: int, match_id: int, ranking: Sequence[Sequence[int]]
    ) -> Progress:
        """The organiser decides a table's result (ranking groups of user ids)."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            match = await self.store.get_match(match_id)
            if match.tournament != tournament or match.status == "finished":
                raise TournamentRefusal(
                    msg("That table is not waiting for a result.")
                )
            try:
                result = awarded(match.round, match.user_ids, ranking)
            except ValueError:
                raise TournamentRefusal(
                    msg("That player is not at that table.")
                ) from None
            if t.format in ELIMINATIONS and not _single_winner(result):
                raise TournamentRefusal(
                    msg("An elimination match needs a winner."),
                )
            progress = Progress()
            await self._record(t, match, result, progress)
            if match.status == "playing":
                await self.host.close_table(t, match)
            await self._after_result(t, progress)
            return progress

    async def repair_table(self, tournament: int, match_id: int) -> Progress:
        """The organiser starts a table again with a new game (the old one is closed)."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            match = await self.store.get_match(match_id)
            if match.tournament != tournament or match.status != "playing":
                raise TournamentRefusal(
                    msg("Only a table being played can be started again."),
                )
            await self.host.close_table(t, match)
            await self.store.reopen_match(match.id)
            progress = Progress()
            await self._replay(t, match.id, progress)
            return progress

    async def drop(self, tournament: int, user_id: int) -> Progress:
        """Drop a player from the rest of the event; an unfinished game of theirs is lost."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            if t.status != "running":
                raise TournamentRefusal(
                    msg("The tournament is not running.")
                )
            if not await self.store.drop_entrant(tournament, user_id, t.current_round):
                raise TournamentRefusal(
                    msg("That player is not in the tournament (or has already dropped)."),
                )
            progress = Progress()
            for m in await self.store.matches(tournament, t.current_round):
                if m.status != "finished" and user_id in m.user_ids:
                    result = result_from_abandon(m.round, m.user_ids, [user_id])
                    await self._record(t, m, result, progress)
                    if m.status == "playing":
                        await self.host.close_table(t, m)
            if t.format in ELIMINATIONS:
                # Walkovers decided before the drop stay decided.
                entrants = await self.store.entrants(tournament)
                matches = await self.store.matches(tournament)
                bracket = self._bracket(t, entrants, [m for m in matches])
                bracket.dropped.discard(user_id)
                before = dict(bracket.results)
                written = bracket.drop(user_id)
                walkovers = [(k, bracket.results[k]) for k in written if k not in before]
                await self.store.record_walkovers(tournament, t.current_round, walkovers)
            await self._after_result(t, progress)
            return progress

    async def end(self, tournament: int) -> Progress:
        """End the tournament early: tables still open are closed unplayed."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            progress = Progress()
            if t.status == "signup":
                await self.store.set_tournament_status(tournament, "cancelled", owe=("cancelled", {}))
                progress.finished = True
                return progress
            for m in await self.store.matches(tournament, t.current_round):
                if m.status == "playing":
                    await self.host.close_table(t, m)
            await self._finish(t, progress)
            return progress

    async def game_ended(
        self,
        game: int,
        *,
        guild_id: int | None,
        game_id: str,
        seats: Sequence[RatedSeat],
        outcome: Outcome,
        left: Sequence[int] = (),
    ) -> Progress | None:
        """Everything a finished game feeds: its stored result, ratings, and its tournament.

        The platform calls this once per finished game (after the last move is committed).
        The result and the rating changes are stored in one transaction, rated unless the
        game belongs to an unrated tournament (a seat the bot took over is an AI seat, so
        such a game is not rated); then the tournament, if any, takes it, `left` (players
        dropped by the clock) counting as lost.
        """
        try:
            await record_finished_game(
                self.ratings,
                game=game,
                guild_id=guild_id,
                game_id=game_id,
                seats=seats,
                outcome=outcome,
                rated=await self.counts_for_ratings(game),
            )
        except DuplicateResult:
            pass  # told twice (a retry after a restart): the first one counted
        return await self.game_finished(game, outcome, left)

    async def counts_for_ratings(self, game: int) -> bool:
        """Whether a finished game may be rated: not if it belongs to an unrated tournament."""
        match = await self.store.match_for_game(game)
        if match is None:
            return True
        t = await self.store.get_tournament(match.tournament)
        return t is None or t.rated

    async def _record(
        self, t: TournamentRow, match: MatchRow, result: TableResult, progress: Progress
    ) -> None:
        if await self.store.record_match_result(
            match.id, dict(result.places), kind=result.kind, scores=dict(result.scores)
        ):
            progress.recorded.append(await self.store.get_match(match.id))

    async def _replay(self, t: TournamentRow, match_id: int, progress: Progress) -> None:
        m = await self.store.get_match(match_id)
        game = await self.host.open_table(t, m)
        await self.store.set_match_game(m.id, game)
        progress.replayed.append(await self.store.get_match(m.id))

    async def _after_result(self, t: TournamentRow, progress: Progress) -> None:
        """When the round's last table has its result, open the next round (or finish)."""
        t = await self.require(t.id)
        if t.status != "running":
            return
        matches = await self.store.matches(t.id, t.current_round)
        if any(m.status != "finished" for m in matches):
            return
        await self.store.finish_round(t.id, t.current_round)
        await self._open_next(t, progress)

    async def _finish(self, t: TournamentRow, progress: Progress) -> None:
        await self.store.set_tournament_status(t.id, "finished", owe=("podium", {}))
        progress.finished = True

    async def resume(self, tournament: int) -> Progress:
        """After a restart: open the next round if the current one ended while the bot was down."""
        async with self.lock(tournament):
            t = await self.require(tournament)
            progress = Progress()
            if t.status == "running":
                for m in await self.store.matches(tournament, t.current_round):
                    if m.status == "pending":  # created in the store, game never opened
                        await self._replay(t, m.id, progress)
                await self._after_result(t, progress)
            return progress


def _closed() -> TournamentRefusal:
    return TournamentRefusal(
        msg("Sign-up for this tournament is closed.")
    )


def _single_winner(result: TableResult) -> bool:
    return sum(1 for p in result.players if result.places.get(p) == 0) == 1


def _history(matches: Sequence[MatchRow]) -> History:
    """Who met whom, byes and first seats, from every table opened so far."""
    h = History()
    for m in matches:
        if m.result == "bye":
            h.add(Round((), (m.user_ids[0],)))
        else:
            h.add(Round((Table(m.user_ids),)))
    return h


__all__ = [
    "ELIMINATIONS",
    "Progress",
    "TableHost",
    "TournamentRefusal",
    "TournamentService",
]
