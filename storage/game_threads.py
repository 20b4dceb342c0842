"""The threads the bot opened for games, and when each is due to be archived."""

from __future__ import annotations

import time
from dataclasses import dataclass

# Hours after a game ends before its thread is archived, when the server never chose.
DEFAULT_ARCHIVE_HOURS = 24


@dataclass(frozen=True)
class DueThread:
    """A game's thread whose game ended long enough ago to archive it."""

    thread_id: int
    game: int
    guild_id: int | None


class GameThreadQueries:
    """The store's game-thread methods (mixed into Store, which provides _write and _fetchall)."""

    async def note_game_thread(self, thread_id: int, game: int, guild_id: int | None) -> None:
        """Remember that ``thread_id`` was opened for ``game`` (archived after it ends)."""
        async with self._write(locks=(("thread", thread_id),)) as db:  # type: ignore[attr-defined]
            await db.execute("DELETE FROM game_threads WHERE thread_id = ?", (thread_id,))
            await db.execute(
                "INSERT INTO game_threads (thread_id, game, guild_id) VALUES (?, ?, ?)",
                (thread_id, game, guild_id),
            )

    async def threads_due(self, now: float) -> list[DueThread]:
        """Threads not archived yet whose game ended at least its server's archive_hours
        before ``now`` (wall-clock seconds, as games' finished_at); a server with 0 hours
        never has any due."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT t.thread_id, t.game, t.guild_id FROM game_threads t"
            " JOIN games g ON g.id = t.game"
            " LEFT JOIN guild_settings s ON s.guild_id = t.guild_id"
            " WHERE t.archived_at IS NULL AND g.finished_at IS NOT NULL"
            f" AND COALESCE(s.archive_hours, {DEFAULT_ARCHIVE_HOURS}) > 0"
            f" AND g.finished_at + COALESCE(s.archive_hours, {DEFAULT_ARCHIVE_HOURS}) * 3600 <= ?"
            " ORDER BY g.finished_at",
            (now,),
        )
        return [DueThread(int(r[0]), int(r[1]), None if r[2] is None else int(r[2])) for r in rows]

    async def thread_archived(self, thread_id: int, when: float | None = None) -> None:
        """Mark a game's thread as archived (or given up: deleted, or not ours to archive)."""
        async with self._write(locks=(("thread", thread_id),)) as db:  # type: ignore[attr-defined]
            await db.execute(
                "UPDATE game_threads SET archived_at = ? WHERE thread_id = ?",
                (time.time() if when is None else when, thread_id),
            )

    async def game_thread_archived_at(self, thread_id: int) -> float | None:
        """When a game's thread was archived (None: not yet, or not a game's thread)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT archived_at FROM game_threads WHERE thread_id = ?", (thread_id,)
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])
