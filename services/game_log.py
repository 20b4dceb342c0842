"""A game's log as one viewer may read it: every move replayed from the seed, with only the
events that viewer is allowed to see."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import Event, GameState, Seat
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
    # A move of the viewer's own seat of which they may read no event (a secret choice):
    # the action and the state it was made in, so it can be told to them in words.
    action: Any = None
    before: GameState | None = None


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
            events = [e for e in entry.events if e.visible_to(viewer)]
            secret = entry.undoes is None and not events and viewer is not None and entry.row.seat == viewer
            lines.append(LogLine(
                seq=entry.row.seq, seat=entry.row.seat, events=events, at=entry.row.at, undoes=entry.undoes,
                action=entry.row.action if secret else None, before=entry.before if secret else None,
            ))
        return lines
