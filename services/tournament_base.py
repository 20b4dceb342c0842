"""The tournament service's base: its refusals, what it needs from the platform (a TableHost),
what a call changed (Progress), and the store, ratings, engines and locks it works with."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from rules.core import Engine, RuleError
from rules.phrases import Phrases
from storage import Store
from storage.ratings import RatingStore
from storage.tournaments import MatchRow, TournamentRow

msg = Phrases("core")

ELIMINATIONS = ("single_elim", "double_elim")


class TournamentRefusal(RuleError):
    """A tournament request refused, with a message for the player in es and en."""


class TableHost(Protocol):
    """What the service needs from the platform to put a table's game into play."""

    async def open_table(self, tournament: TournamentRow, match: MatchRow) -> int:
        """Create and start the table's game, players seated in the match's seat order."""
        ...

    async def close_table(self, tournament: TournamentRow, match: MatchRow) -> None:
        """Close a table's game that will not be finished (a player dropped, an award)."""
        ...


@dataclass
class Progress:
    """What a call changed, for the caller to announce: results, rounds opened, the end."""

    recorded: list[MatchRow] = field(default_factory=list)
    opened: list[MatchRow] = field(default_factory=list)
    replayed: list[MatchRow] = field(default_factory=list)
    round_opened: int | None = None
    finished: bool = False


class TournamentBase:
    """The store, ratings, engines and per-tournament locks every part of the service uses."""

    def __init__(
        self,
        store: Store,
        host: TableHost,
        engines: Mapping[str, Engine] | None = None,
    ) -> None:
        self.store = store
        self.ratings = RatingStore(store)
        self.host = host
        self._engines = engines
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, tournament: int) -> asyncio.Lock:
        """The lock that serialises one tournament's changes."""
        return self._locks.setdefault(tournament, asyncio.Lock())

    def engine(self, game_id: str) -> Engine:
        """The engine of a game; a refusal if unknown."""
        if self._engines is None:
            from rules.registry import games

            self._engines = games()
        try:
            return self._engines[game_id]
        except KeyError:
            raise TournamentRefusal(
                msg("I do not know the game '{game_id}'.", game_id=game_id)
            ) from None

    async def require(self, tournament: int) -> TournamentRow:
        """The tournament, or a refusal if there is none."""
        t = await self.store.get_tournament(tournament)
        if t is None:
            raise TournamentRefusal(
                msg("There is no tournament #{tournament}.", tournament=tournament)
            )
        return t
