"""What a burst of the clock's timeouts reads, read once per batch rather than once each: the
games (two reads), their deadlines with the games' versions (one), their players' settings
(one). A timeout then checks its wait against what was read unless the game moved since."""

from __future__ import annotations

from collections.abc import Sequence

from services.game import Game
from services.moves import MovesMixin
from storage.deadlines import DeadlineRow


class DueReadsMixin(MovesMixin):
    """Reads a batch of due deadlines' games, deadlines and players' settings at once."""

    # game -> (its version when read, its deadlines), for the batch of timeouts under way;
    # each entry is used once, by its game's timeout.
    _due_read: dict[int, tuple[int, list[DeadlineRow]]] | None = None

    async def preload_deadlines(self, rows: Sequence[DeadlineRow]) -> None:
        """Before a batch of timeouts: load their games, their deadlines and their players'
        settings in a few reads. Nothing is read ahead where other processes write the
        same games (``shared``): each timeout reads what it needs then."""
        await self.preload(row.game for row in rows)
        if self.shared:
            return
        games = list(dict.fromkeys(row.game for row in rows))
        self._due_read = await self.store.deadlines_of_games(games)
        # Every player of those games, kept by the store from now on: the timed-out one's (a
        # vacation) and the next one's (the move that starts their wait reads them).
        users = {row.user_id for row in rows}
        for game in games:
            g = self.cached(game)
            users.update(s.user_id for s in (g.seats if g is not None else ()) if s.user_id is not None)
        await self.store.users_settings(sorted(users))

    def forget_due_reads(self, games: Sequence[int]) -> None:
        """Waits of ``games`` changed without a move (playing hours re-timed them): their
        timeouts read the deadlines again rather than trust the batch's."""
        if self._due_read:
            for game in games:
                self._due_read.pop(game, None)

    async def _deadlines_now(self, g: Game, user_id: int) -> dict[int, DeadlineRow]:
        """``g``'s deadlines by seat, for the timeout of ``user_id``'s wait: as the batch read
        them when the game has not moved since (its version) and the player is not on
        vacation (which pauses waits without a move), else read again."""
        read = self._due_read.pop(g.id, None) if self._due_read else None
        if read is not None and not self.shared and read[0] == g.version:
            until = (await self.store.user_settings(user_id)).vacation_until
            if until is None or until <= self.clock.now():
                return {d.seat: d for d in read[1]}
        return {d.seat: d for d in await self.store.deadlines(g.id)}
