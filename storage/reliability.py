"""The clock's timeouts in the store, and what a player's reliability record is read from.

A timeout is stored once per wait (game, seat, when the wait began): the clock applying it
again after a crash finds the row and does what was decided the first time. The record
itself is computed (services/reliability.py) from the seats a player held, their
timeouts and the games' action logs: nothing is typed in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .dialect import game_locks
from .store import Store

# What a timeout did (0016_reliability.sql); "no" (a question out of turn answered "no")
# is not held against the player.
COUNTED = ("ai", "drop", "lose")


@dataclass(frozen=True)
class TimeoutRow:
    """One timeout: whose wait, when it began and fired, what it did, the game's version then."""

    game: int
    seat: int
    user_id: int
    started_at: float
    at: float
    action: str
    seq: int


@dataclass(frozen=True)
class SeatHistory:
    """A seat a player held in a game that started: the game's status, and whether the
    clock took the seat from them for good (dropped, or lost on time)."""

    game: int
    seat: int
    status: str
    dropped: bool


@dataclass(frozen=True)
class LogEntry:
    """One row of a game's action log as the record reads it: who moved, and when."""

    game: int
    seq: int
    seat: int
    at: float


_TIMEOUT_COLUMNS = "game, seat, user_id, started_at, at, action, seq"


class ReliabilityStore:
    """Timeouts and reliability reads, sharing the game store's connection and lock."""

    def __init__(self, store: Store) -> None:
        """Work through an open Store."""
        self._store = store

    async def record_timeout(
        self, row: TimeoutRow, decide: Callable[[int], str]
    ) -> tuple[str, int]:
        """Store the timeout of ``row``'s wait once: ``decide(n)`` names what the n-th
        counted timeout of this player in this game does (its ``action``). Returns what was
        decided and the number of counted timeouts including it; a wait already stored (the
        same timeout applied again after a crash) returns what was decided then."""
        key = (row.game, row.seat, row.user_id)

        async def write(db: Any) -> tuple[str, int]:
            rows = list(await db.execute_fetchall(
                "SELECT started_at, action FROM timeouts WHERE game = ? AND seat = ? AND user_id = ?",
                key,
            ))
            counted = sum(1 for r in rows if r[1] in COUNTED)
            for started, action in rows:
                if started == row.started_at:
                    return action, counted
            action = row.action if row.action == "no" else decide(counted + 1)
            await db.execute(
                f"INSERT INTO timeouts ({_TIMEOUT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (row.game, row.seat, row.user_id, row.started_at, row.at, action, row.seq),
            )
            return action, counted + (action in COUNTED)

        group = getattr(self._store, "_group", None)
        if group is not None and getattr(self._store, "_pg", None) is None:
            # On SQLite: in one trip to the connection's thread, sharing the transaction
            # (and its sync) of the moves committed meanwhile, as a burst of timeouts has many.
            return tuple(await group.run(write))  # type: ignore[return-value]
        # Not synced on its own: the bot's move that follows is, and syncs it with it; lost
        # with that move in a power cut, the timeout is simply applied again.
        async with self._store._write(durable=False, locks=game_locks(row.game)) as db:
            return await write(db)

    async def forget_timeout(self, game: int, seat: int, started_at: float) -> None:
        """Remove a timeout that did not happen after all (the player moved first)."""
        async with self._store._write(locks=game_locks(game)) as db:
            await db.execute(
                "DELETE FROM timeouts WHERE game = ? AND seat = ? AND started_at = ?",
                (game, seat, started_at),
            )

    async def timeouts_in_game(self, game: int, seat: int, user_id: int) -> int:
        """How many counted timeouts ``user_id`` has had in ``seat`` of ``game``."""
        marks = ", ".join("?" for _ in COUNTED)
        rows = await self._store._fetchall(
            f"SELECT count(*) FROM timeouts WHERE game = ? AND seat = ? AND user_id = ?"
            f" AND action IN ({marks})",
            (game, seat, user_id, *COUNTED),
        )
        return int(rows[0][0]) if rows else 0

    async def seats_of(self, user_id: int, guild_id: int | None) -> list[SeatHistory]:
        """The seats ``user_id`` held in games that started (on ``guild_id``, or anywhere
        when None), newest game first."""
        where, params = _scope(user_id, guild_id)
        rows = await self._store._fetchall(
            "SELECT s.game, s.seat, g.status, s.dropped FROM seats s JOIN games g ON g.id = s.game"
            f" WHERE s.user_id = ? AND g.status IN ('active', 'finished', 'abandoned'){where}"
            " ORDER BY s.game DESC",
            params,
        )
        return [SeatHistory(r[0], r[1], r[2], bool(r[3])) for r in rows]

    async def timeouts_of(self, user_id: int, guild_id: int | None) -> list[TimeoutRow]:
        """Every timeout of ``user_id`` (on ``guild_id``, or anywhere when None)."""
        where, params = _scope(user_id, guild_id)
        cols = ", ".join(f"t.{c.strip()}" for c in _TIMEOUT_COLUMNS.split(","))
        rows = await self._store._fetchall(
            f"SELECT {cols} FROM timeouts t JOIN games g ON g.id = t.game"
            f" WHERE t.user_id = ?{where} ORDER BY t.game, t.seq",
            params,
        )
        return [TimeoutRow(*r) for r in rows]

    async def logs(self, games: Sequence[int]) -> list[LogEntry]:
        """The action logs of ``games`` (who moved and when), in order."""
        if not games:
            return []
        marks = ", ".join("?" for _ in games)
        rows = await self._store._fetchall(
            f"SELECT game, seq, seat, at FROM actions WHERE game IN ({marks}) ORDER BY game, seq",
            tuple(games),
        )
        return [LogEntry(*r) for r in rows]


def _scope(user_id: int, guild_id: int | None) -> tuple[str, tuple[object, ...]]:
    """The WHERE clause's tail and parameters of a player's rows, on one server or anywhere."""
    if guild_id is None:
        return "", (user_id,)
    return " AND g.guild_id = ?", (user_id, guild_id)
