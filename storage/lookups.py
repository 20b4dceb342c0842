"""Look-ups across games (a player's games, a server's games, a channel's newest game) and
the small tables around a game: spectators, the hand DM of each seat, undo requests."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from .dialect import game_locks
from .rows import GAME_COLUMNS, GameRow, game_from_sql

_G_COLUMNS = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))


@dataclass(frozen=True)
class DmMessage:
    """Where a seat's last private-view DM is, and when it was sent."""

    channel_id: int
    message_id: int
    sent_at: float


@dataclass(frozen=True)
class UndoRequest:
    """A player's open request to take back move ``seq``; ``approvals`` are the seats that agreed."""

    game: int
    seat: int
    seq: int
    approvals: tuple[int, ...]
    created_at: float


class LookupQueries:
    """The store's look-ups (mixed into Store, which provides _write and _fetchall)."""

    async def user_open_games(self, user_id: int) -> list[GameRow]:
        """Every lobby or active game where ``user_id`` has a seat (dropped seats excluded)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {_G_COLUMNS} FROM seats s JOIN games g ON g.id = s.game"
            " WHERE s.user_id = ? AND NOT s.dropped AND g.status IN ('lobby', 'active')"
            " ORDER BY g.id",
            (user_id,),
        )
        return [game_from_sql(r) for r in rows]

    async def guild_open_games(self, guild_id: int) -> list[GameRow]:
        """Every lobby or active game of a server, oldest first."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ? AND status IN ('lobby', 'active')"
            " ORDER BY id",
            (guild_id,),
        )
        return [game_from_sql(r) for r in rows]

    async def latest_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, open or finished (so a result stays reachable)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return game_from_sql(rows[0]) if rows else None

    # -- spectators -------------------------------------------------------------------

    async def add_watcher(self, game: int, user_id: int) -> bool:
        """Follow ``game``; False if already following."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            found = await db.execute_fetchall(
                "SELECT 1 FROM watchers WHERE game = ? AND user_id = ?", (game, user_id)
            )
            if found:
                return False
            await db.execute("INSERT INTO watchers (game, user_id) VALUES (?, ?)", (game, user_id))
            return True

    async def remove_watcher(self, game: int, user_id: int) -> bool:
        """Stop following ``game``; False if not following."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            async with db.execute(
                "DELETE FROM watchers WHERE game = ? AND user_id = ?", (game, user_id)
            ) as cur:
                return cur.rowcount > 0

    async def watchers(self, game: int) -> list[int]:
        """The users following ``game``."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT user_id FROM watchers WHERE game = ? ORDER BY user_id", (game,)
        )
        return [r[0] for r in rows]

    # -- hand DMs ---------------------------------------------------------------------

    async def dm_message(self, game: int, seat: int) -> DmMessage | None:
        """The seat's last private-view DM, if one is known."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT channel_id, message_id, sent_at FROM dm_messages WHERE game = ? AND seat = ?",
            (game, seat),
        )
        return DmMessage(*rows[0]) if rows else None

    async def set_dm_message(self, game: int, seat: int, channel_id: int, message_id: int) -> None:
        """Remember the seat's newest private-view DM."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            await db.execute("DELETE FROM dm_messages WHERE game = ? AND seat = ?", (game, seat))
            await db.execute(
                "INSERT INTO dm_messages (game, seat, channel_id, message_id, sent_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game, seat, channel_id, message_id, time.time()),
            )

    # -- undo requests ------------------------------------------------------------------

    async def undo_request(self, game: int) -> UndoRequest | None:
        """The game's open undo request, if any."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT game, seat, seq, approvals, created_at FROM undo_requests WHERE game = ?",
            (game,),
        )
        if not rows:
            return None
        r = rows[0]
        return UndoRequest(r[0], r[1], r[2], tuple(json.loads(r[3])), r[4])

    async def put_undo_request(self, req: UndoRequest) -> None:
        """Open (or update) the game's undo request."""
        async with self._write(locks=game_locks(req.game)) as db:  # type: ignore[attr-defined]
            await db.execute("DELETE FROM undo_requests WHERE game = ?", (req.game,))
            await db.execute(
                "INSERT INTO undo_requests (game, seat, seq, approvals, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (req.game, req.seat, req.seq, json.dumps(sorted(req.approvals)), req.created_at),
            )

    async def clear_undo_request(self, game: int) -> bool:
        """Close the game's undo request; False if there was none."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            async with db.execute("DELETE FROM undo_requests WHERE game = ?", (game,)) as cur:
                return cur.rowcount > 0
