"""A game's log as one viewer may read it: every move replayed from the seed, with only the
events that viewer is allowed to see."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Event, Seat
from services.game_cache import GameCache
from services.history import replay_log


@dataclass
class LogLine:
    """One move of the log as a given viewer may read it."""

    seq: int
    seat: Seat
    events: list[Event]
    at: float = 0.0
    undoes: int | None = None  # this line took back move ``undoes``


class GameLogMixin(GameCache):
    """Reading a game's log, move by move, as one viewer may see it."""

    async def replay(self, game: int, viewer: Seat | None) -> list[LogLine]:
        """The game's log from its seed, with only the events ``viewer`` may read."""
        g = await self.require(game)
        if g.row.seed is None:
            return []
        lines: list[LogLine] = []
        rows = await self.store.actions(game)
        for entry in replay_log(g.engine, len(g.seats), g.row.options, g.row.seed, rows):
            lines.append(LogLine(
                seq=entry.row.seq, seat=entry.row.seat,
                events=[e for e in entry.events if e.visible_to(viewer)],
                at=entry.row.at, undoes=entry.undoes,
            ))
        return lines
