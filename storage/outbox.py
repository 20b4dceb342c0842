"""The outbox: what a committed change owes Discord, written in the change's transaction."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .dialect import game_locks

if TYPE_CHECKING:
    import aiosqlite

OUTBOX_COLUMNS = "id, game, parent, kind, msg_key, payload, created_at, expanded, done_at"


@dataclass
class ChangeNote:
    """The outbox row of a change being committed: written (or its payload rewritten) by
    each commit of the change, in that commit's transaction; ``id`` is set once written."""

    payload: dict[str, Any] = field(default_factory=dict)
    id: int | None = None


@dataclass(frozen=True)
class OutboxRow:
    """One row of the outbox: a change (parent None) or one message a change owes."""

    id: int
    game: int
    parent: int | None
    kind: str
    key: str
    payload: dict[str, Any]
    created_at: float
    expanded: bool
    done_at: float | None

    @property
    def done(self) -> bool:
        """Whether it was delivered (or given up for good)."""
        return self.done_at is not None


@dataclass(frozen=True)
class Owed:
    """A message a change owes, before it is written: its kind, key and what it needs."""

    kind: str
    key: str
    payload: dict[str, Any] = field(default_factory=dict)


def dumps_payload(payload: dict[str, Any]) -> str:
    """A payload as the outbox stores it (compact JSON, keys sorted)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def outbox_from_sql(r: Sequence[Any]) -> OutboxRow:
    """Build an OutboxRow from a tuple selected with OUTBOX_COLUMNS."""
    return OutboxRow(
        id=r[0],
        game=r[1],
        parent=r[2],
        kind=r[3],
        key=r[4],
        payload=json.loads(r[5]),
        created_at=r[6],
        expanded=bool(r[7]),
        done_at=r[8],
    )


async def write_change(db: aiosqlite.Connection, game: int, note: ChangeNote) -> None:
    """Inside a write transaction: record the change ``note`` (or rewrite its payload)."""
    if note.id is None:
        rows = await db.execute_fetchall(
            "INSERT INTO outbox (game, kind, payload, created_at) VALUES (?, 'change', ?, ?)"
            " RETURNING id",
            (game, dumps_payload(note.payload), time.time()),
        )
        note.id = int(list(rows)[0][0])
    else:
        await db.execute(
            "UPDATE outbox SET payload = ? WHERE id = ? AND NOT expanded",
            (dumps_payload(note.payload), note.id),
        )


@dataclass(frozen=True)
class PendingThread:
    """A thread being opened for a new game, not yet holding it."""

    id: int
    guild_id: int | None
    parent_id: int
    name: str
    created_at: float


class OutboxQueries:
    """Outbox reads and writes, mixed into Store (uses its _write and _fetchall)."""

    async def add_change(self, game: int, payload: dict[str, Any]) -> int:
        """Record a change of its own (nothing else to commit with it); its id."""
        note = ChangeNote(payload)
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            await write_change(db, game, note)
        assert note.id is not None
        return note.id

    async def outbox_row(self, row_id: int) -> OutboxRow | None:
        """The outbox row ``row_id``, or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE id = ?", (row_id,)
        )
        return outbox_from_sql(rows[0]) if rows else None

    async def expand_change(self, change: int, messages: Sequence[Owed]) -> list[OutboxRow]:
        """Write the messages ``change`` owes, once: a change already expanded keeps the
        messages written the first time. Returns them in the order they go out. Not synced
        to disk on its own: only a power cut can undo it, and then the change is expanded
        again, as the plan is made from the stored change."""
        async with self._write(durable=False, locks=(("change", change),)) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(
                "SELECT expanded FROM outbox WHERE id = ? AND parent IS NULL", (change,)
            )
            rows = list(rows)
            if rows and not rows[0][0]:
                now = time.time()
                await db.executemany(
                    "INSERT INTO outbox (game, parent, kind, msg_key, payload, created_at)"
                    " SELECT game, ?, ?, ?, ?, ? FROM outbox WHERE id = ?",
                    [(change, m.kind, m.key, dumps_payload(m.payload), now, change) for m in messages],
                )
                await db.execute("UPDATE outbox SET expanded = TRUE WHERE id = ?", (change,))
        return await self.outbox_messages(change)

    async def claim_change(self, change: int, owner: str, until: float, now: float) -> OutboxRow | None:
        """Claim change ``change`` for delivery by process ``owner`` until ``until`` (or renew
        its own claim): the change, if it is still owed and no other process holds a claim
        on it that runs past ``now``; None otherwise. On PostgreSQL a change another
        transaction is claiming at this moment is passed over (SKIP LOCKED), never waited
        for: two processes never both deliver a change, and never wait for each other."""
        async with self._write(durable=False, locks=()) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM outbox"
                " WHERE id = ? AND parent IS NULL AND done_at IS NULL"
                " AND (claimed_by IS NULL OR claimed_by = ? OR claimed_until < ?)"
                f"{self._skip_locked}) RETURNING {OUTBOX_COLUMNS}",  # type: ignore[attr-defined]
                (owner, until, change, owner, now),
            )
            rows = list(rows)
        return outbox_from_sql(rows[0]) if rows else None

    async def outbox_messages(self, change: int) -> list[OutboxRow]:
        """The messages ``change`` owes, in the order they go out."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE parent = ? ORDER BY id", (change,)
        )
        return [outbox_from_sql(r) for r in rows]

    async def outbox_done(self, row_id: int, *, change: int | None = None) -> None:
        """Mark a message delivered; with ``change``, the change too when nothing of it is left.
        Not synced to disk on its own: a power cut may undo it, and delivery looks before it
        sends again (nonce, history), as after any crash."""
        now = time.time()
        # The change's lock: two messages of one change done at once must not each see the
        # other still owed, and leave the change open for ever.
        lock = ("change", row_id if change is None else change)
        async with self._write(durable=False, locks=(lock,)) as db:  # type: ignore[attr-defined]
            await db.execute(
                "UPDATE outbox SET done_at = ? WHERE id = ? AND done_at IS NULL", (now, row_id)
            )
            if change is not None:
                await db.execute(
                    "UPDATE outbox SET done_at = ? WHERE id = ? AND done_at IS NULL AND expanded"
                    " AND NOT EXISTS (SELECT 1 FROM outbox WHERE parent = ? AND done_at IS NULL)",
                    (now, change, change),
                )

    async def recent_messages(self, game: int, kinds: Sequence[str], limit: int = 200) -> list[OutboxRow]:
        """The game's newest owed messages of ``kinds``, newest first (what the last changes
        told, to fold a turn's steps into one message)."""
        marks = ", ".join("?" for _ in kinds)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE game = ? AND parent IS NOT NULL"
            f" AND kind IN ({marks}) ORDER BY id DESC LIMIT ?",
            (game, *kinds, limit),
        )
        return [outbox_from_sql(r) for r in rows]

    async def watch_message(self, game: int, user_id: int) -> tuple[int, int] | None:
        """Where the spectator ``user_id``'s one DM about ``game`` is (channel, message)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT channel_id, message_id FROM watchers WHERE game = ? AND user_id = ?"
            " AND message_id IS NOT NULL",
            (game, user_id),
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def set_watch_message(self, game: int, user_id: int, channel_id: int, message_id: int) -> None:
        """Remember the spectator's one DM about ``game`` (edited as the game goes)."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            await db.execute(
                "UPDATE watchers SET channel_id = ?, message_id = ? WHERE game = ? AND user_id = ?",
                (channel_id, message_id, game, user_id),
            )

    async def open_changes(self, game: int | None = None) -> list[OutboxRow]:
        """Changes not yet fully delivered, oldest first (of one game, or of all)."""
        where = "parent IS NULL AND done_at IS NULL" + (" AND game = ?" if game is not None else "")
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {OUTBOX_COLUMNS} FROM outbox WHERE {where} ORDER BY id",
            (game,) if game is not None else (),
        )
        return [outbox_from_sql(r) for r in rows]

    async def prune_outbox(self, before: float, chunk: int = 1000) -> int:
        """Forget changes delivered before ``before`` (and their messages); how many.

        ``chunk`` changes per transaction, claimed (on PostgreSQL, rows another process is
        pruning are passed over): no game waits for a long delete, and two processes
        starting at once share the work instead of queueing on it. Delivered changes are
        written by nobody any more, so no lock is named."""
        pruned = 0
        while True:
            async with self._write(locks=()) as db:  # type: ignore[attr-defined]
                async with db.execute(
                    "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE parent IS NULL"
                    " AND done_at IS NOT NULL AND done_at < ? ORDER BY id LIMIT ?"
                    f"{self._skip_locked})",  # type: ignore[attr-defined]
                    (before, chunk),
                ) as cur:
                    n = cur.rowcount
            pruned += n
            if n < chunk:
                return pruned

    async def add_pending_thread(self, guild_id: int | None, parent_id: int, name: str) -> int:
        """Note a thread about to be opened for a new game; its id."""
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(
                "INSERT INTO pending_threads (guild_id, parent_id, name, created_at)"
                " VALUES (?, ?, ?, ?) RETURNING id",
                (guild_id, parent_id, name, time.time()),
            )
            return int(list(rows)[0][0])

    async def pending_threads(self) -> list[PendingThread]:
        """Threads noted as being opened whose game was never created (a crash, a failure)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id, guild_id, parent_id, name, created_at FROM pending_threads ORDER BY id"
        )
        return [PendingThread(*r) for r in rows]

    async def drop_pending_thread(self, pending: int) -> None:
        """Forget a pending thread (its game was created, or it was cleaned up)."""
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            await db.execute("DELETE FROM pending_threads WHERE id = ?", (pending,))
