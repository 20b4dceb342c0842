"""Where every ended game's result goes: the stored results, the ratings and its tournament.

The session service tells its listeners when a game ends or is abandoned; ResultFeed is
the listener that feeds TournamentService (which stores the result, rates it when it may,
and hands it to the game's tournament). Discord-free: what the tournament did in answer
(results recorded, a round opened, the podium) goes to ``on_progress`` for the Discord
side to announce. A crash between a game's last move and this feed loses nothing: on a
restart ``catch_up`` finds, in the store, every ended game whose result was not taken.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from rules.core import Text
from services.escalation import on_time_outcome, with_losers
from services.ratings import RatedSeat
from services.session import Game, GameOver, SessionService
from services.tournament import Progress, TournamentService
from storage.tournaments import MatchRow

ProgressListener = Callable[[int, Progress], Awaitable[None]]


async def _nothing(tournament: int, progress: Progress) -> None:
    return None


class ResultFeed:
    """The session's game-over listener: results, ratings, tournaments."""

    def __init__(
        self,
        session: SessionService,
        tournaments: TournamentService,
        on_progress: ProgressListener = _nothing,
    ) -> None:
        self.session = session
        self.tournaments = tournaments
        self.on_progress = on_progress
        # Games the tournament closes itself (an award, a drop, a table played again, the
        # end): their abandonment is the tournament's own doing, not a player leaving.
        self.closing: set[int] = set()

    async def __call__(self, over: GameOver) -> None:
        """Take one ended game's result where it belongs."""
        g = over.game
        if g.id in self.closing:
            self.closing.discard(g.id)
            return
        match = await self.tournaments.store.match_for_game(g.id)
        if over.dropped is not None:
            if match is not None:
                await self.dropped(g, match)
            return
        if over.abandoned:
            seated = {s.user_id for s in g.seats if not s.ai and s.user_id is not None}
            leavers = [over.by] if over.by in seated else []
            progress = await self.tournaments.game_abandoned(g.id, leavers)
        else:
            progress = await self.finished(g)
        if match is not None and progress is not None:
            await self.on_progress(match.tournament, progress)

    async def dropped(self, g: Game, match: MatchRow) -> None:
        """A tournament table's player put out by the clock: once at most one player is
        left, the result is settled (whoever left loses), so the table closes at once rather
        than have the last player play the bot to the end."""
        if g.status != "active" or sum(1 for s in g.seats if not s.ai) > 1:
            return
        leavers = [s.user_id for s in g.seats if s.dropped and s.user_id is not None]
        if g.row.timeout_action == "lose":
            # Lost on time: a game's result like any other (rated), the lost seats last.
            lost = [s.seat for s in g.seats if s.dropped]
            progress = await self.tournaments.game_ended(
                g.id, guild_id=g.row.guild_id, game_id=g.row.game_id, seats=_rated_seats(g),
                outcome=on_time_outcome(g, lost), left=leavers)
        else:
            progress = await self.tournaments.game_abandoned(g.id, leavers)
        t = await self.tournaments.require(match.tournament)
        await self.tournaments.host.close_table(t, match)
        if progress is not None:
            await self.on_progress(match.tournament, progress)

    async def finished(self, g: Game) -> Progress | None:
        """A game finished by its rules: store and rate its result, tell its tournament."""
        assert g.state is not None
        outcome = g.engine.outcome(g.state)
        if outcome is None:
            return None
        # A seat the bot took over for good keeps its player's id: it makes the game
        # unrated (an AI seat), and in a tournament it is a loss for that player. A seat
        # lost on time is the player's loss, rated: last, whatever the bot made of it.
        left = [s.user_id for s in g.seats if s.dropped and s.user_id is not None]
        if g.row.timeout_action == "lose":
            outcome = with_losers(outcome, [s.seat for s in g.seats if s.dropped], len(g.seats))
        return await self.tournaments.game_ended(
            g.id,
            guild_id=g.row.guild_id,
            game_id=g.row.game_id,
            seats=_rated_seats(g),
            outcome=outcome,
            left=left,
        )

    async def catch_up(self) -> None:
        """After a restart: take every result the last run did not (finished or abandoned)."""
        for game in await self.tournaments.ratings.unrecorded_games():
            g = await self.session.get(game)
            if g is not None and g.state is not None:
                await self(GameOver(g))
        store = self.tournaments.store
        for tid in await store.running_tournaments():
            t = await store.get_tournament(tid)
            if t is None or t.status != "running":
                continue
            for m in await store.matches(tid, t.current_round):
                if m.status != "playing" or m.game is None:
                    continue
                g = await self.session.get(m.game)
                if g is None:
                    continue
                if g.status == "abandoned":
                    # Who left is not known any more: nobody is singled out.
                    await self(GameOver(g, abandoned=True))
                elif g.status == "finished" and g.state is not None:
                    await self(GameOver(g))


def _rated_seats(g: Game) -> list[RatedSeat]:
    """The game's seats as ratings see them: the bot's seats are AI seats, and so is a seat
    it took over, except one lost on time (its player's loss to rate)."""
    lost = g.row.timeout_action == "lose"
    sides = g.engine.sides(g.state) if g.state is not None else {}
    return [RatedSeat(s.user_id, s.ai and not (lost and s.dropped), _json(sides.get(s.seat)))
            for s in g.seats]


def _json(text: Text | None) -> str | None:
    """A side's text as stored with the result."""
    return None if text is None else text.model_dump_json()
