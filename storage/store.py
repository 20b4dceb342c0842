"""The game store: games, seats and the action log in SQLite through aiosqlite, or in
PostgreSQL through asyncpg (storage/dialect_postgres.py) when given a postgresql:// URL."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TypeVar

import aiosqlite

from .deadlines import DeadlinePlan, DeadlineQueries, apply_plan
from .decks import DeckQueries
from .dialect import IntegrityError, is_postgres_url
from .dialect_postgres import PgDatabase
from .errors import ChannelBusy, NotInLobby, SeatTaken, StaleVersion, UnknownGame
from .game_threads import GameThreadQueries
from .group_commit import GroupCommit
from .leases import LeaseQueries
from .lookups import LookupQueries
from .migrate import MIGRATIONS_DIR, migrate
from .outbox import ChangeNote, OutboxQueries, write_change
from .rows import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    SEAT_COLUMNS,
    STATUSES,
    ActionRow,
    GameRow,
    SeatRow,
    action_from_sql,
    game_from_sql,
    seat_from_sql,
)
from .settings import SettingsQueries

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
T = TypeVar("T")


@dataclass(frozen=True)
class MoveWrite:
    """One move to store: who, the action and state JSON, and what it does to the clock."""

    seat: int
    action: str
    state: str
    finished: bool
    deadlines: DeadlinePlan | None = None
    own: bool = False


class Store(DeadlineQueries, SettingsQueries, LookupQueries, DeckQueries, OutboxQueries, LeaseQueries,
            GameThreadQueries):
    """Async access to the game database; one instance owns one SQLite connection.

    Every statement goes through one asyncio.Lock. aiosqlite runs statements one at a
    time on its thread, but a transaction is several awaits (BEGIN, UPDATE, INSERT,
    COMMIT): without the lock another coroutine's statement could land inside it, be
    committed or rolled back with it, or read its uncommitted rows. Reads take the lock
    too for that last reason (remove_seat passes through negative seat numbers, say).
    Across processes, BEGIN IMMEDIATE plus busy_timeout serialises writers.

    On PostgreSQL (Store.open with a postgresql:// URL) there is no connection and no
    lock here: each transaction takes a pooled connection, and the server keeps them
    apart (storage/dialect_postgres.py says how writers are serialised there).

    On SQLite, moves go through group commit (storage/group_commit.py): those of different
    games that queue while a commit runs share the next transaction and its sync, each in
    its own savepoint, each caller answered after the COMMIT. ``group_commit=False``
    (Store.open) gives every move a transaction of its own.
    """

    def __init__(
        self, db: aiosqlite.Connection | None, *, pg: PgDatabase | None = None,
        group_commit: bool = True,
    ) -> None:
        """Wrap an open connection (or PostgreSQL pool); use Store.open() rather than this."""
        self._db = db
        # On PostgreSQL: the pool. Every statement then goes through it, on connections of
        # its own, without the lock (the server keeps transactions apart).
        self._pg = pg
        self._lock = asyncio.Lock()
        self._synchronous = "FULL"  # the connection's level (Store.open sets it)
        # Moves of different games queued while a commit runs share the next one.
        # On PostgreSQL each move has a transaction of its own on a pooled connection, beside
        # the others (their own row locks guard them): the server does the grouping there.
        self._group = (
            GroupCommit(self._write, self._on_thread) if group_commit and pg is None else None
        )

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = 10_000,
        migrations_dir: Path = MIGRATIONS_DIR,
        pool_size: int = 10,
        group_commit: bool = True,
    ) -> Store:
        """Open (creating if needed) the database at path, configure it and apply migrations.
        ``group_commit=False``: every move commits (and syncs) in a transaction of its own.

        A postgresql:// URL opens that PostgreSQL database instead, with a pool of up to
        ``pool_size`` connections (the database must exist; the schema is created)."""
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"bad synchronous level: {synchronous!r}")
        if is_postgres_url(path):
            pg = await PgDatabase.open(
                str(path), synchronous=synchronous, pool_size=pool_size,
                busy_timeout_ms=busy_timeout_ms, migrations_dir=migrations_dir,
            )
            store = cls(None, pg=pg)
            store._synchronous = synchronous.upper()
            return store
        # isolation_level=None: the sqlite3 module must not open transactions behind our
        # back; every transaction here is an explicit BEGIN IMMEDIATE ... COMMIT.
        db = await aiosqlite.connect(
            os.fspath(path), isolation_level=None, timeout=busy_timeout_ms / 1000
        )
        try:
            # WAL lets readers (another process, a backup) run while a move commits, and a
            # commit is one append to the log rather than a rewrite of pages.
            # ":memory:" answers 'memory' here, which is fine.
            await db.execute("PRAGMA journal_mode = WAL")
            # FULL syncs the WAL on every commit, so a committed move survives power loss
            # too, not only a crashed process (NORMAL is enough for the latter).
            await db.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            # Per connection and off by default in SQLite; the schema relies on cascades.
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await migrate(db, migrations_dir)
        except BaseException:
            await db.close()
            raise
        store = cls(db, group_commit=group_commit)
        store._synchronous = synchronous.upper()
        return store

    async def close(self) -> None:
        """Close the connection once any transaction in flight has finished."""
        if self._pg is not None:
            await self._pg.close()
            return
        if self._group is not None:
            await self._group.wait_idle()
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Store:
        """Allow `async with await Store.open(path) as store:`."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Close on leaving the block."""
        await self.close()

    @asynccontextmanager
    async def _write(
        self, *, durable: bool = True, shared: bool = False
    ) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock around one BEGIN IMMEDIATE ... COMMIT; roll back on any exception.

        ``durable=False``: the commit survives the process being killed but not a power cut
        (WAL with synchronous NORMAL: no fsync of its own; the next durable commit syncs it
        too). For bookkeeping that is safe to redo, such as marking outbox messages sent.
        ``shared``: the transaction's writes guard themselves (a conditional UPDATE), so on
        PostgreSQL it may run beside others like it; SQLite has one writer anyway."""
        if self._pg is not None:
            async with self._pg.write(durable=durable, shared=shared) as conn:
                yield conn  # type: ignore[misc]
            return
        relax = not durable and self._synchronous in ("FULL", "EXTRA")
        async with self._lock:
            if relax:
                await self._db.execute("PRAGMA synchronous = NORMAL")
            try:
                async with self._transaction() as db:
                    yield db
            finally:
                if relax:
                    # Shielded: even if we are cancelled, the level is put back (aiosqlite
                    # runs it before any statement queued after it).
                    await asyncio.shield(self._db.execute(f"PRAGMA synchronous = {self._synchronous}"))

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One BEGIN IMMEDIATE ... COMMIT under the lock already held; rolled back on errors."""
        try:
            # Inside the try: if we are cancelled while BEGIN is queued it still runs
            # on aiosqlite's thread, and the rollback below (queued after it) undoes it
            # before the lock lets anyone else in.
            await self._db.execute("BEGIN IMMEDIATE")
            yield self._db
            await self._db.execute("COMMIT")
        except BaseException:
            # rollback() is a no-op when no transaction is open (BEGIN failed, say).
            await self._db.rollback()
            raise

    @asynccontextmanager
    async def _on_thread(self) -> AsyncIterator[Callable[[Callable[[sqlite3.Connection], T]], Awaitable[T]]]:
        """Hold the lock and give a function that runs ``fn(connection)`` on the
        connection's own thread in one trip (a whole transaction, say, rather than one trip
        per statement)."""
        async with self._lock:
            conn = self._db._conn
            # aiosqlite's queue to its thread: the statements' own way there.
            yield lambda fn: self._db._execute(fn, conn)

    async def _fetchall(self, sql: str, params: tuple[object, ...] = ()) -> list[sqlite3.Row]:
        """Run one read under the lock, so it never sees another coroutine's open transaction."""
        if self._pg is not None:
            return await self._pg.fetchall(sql, params)  # type: ignore[return-value]
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    @staticmethod
    async def _changes(db: aiosqlite.Connection, sql: str, params: tuple[object, ...]) -> int:
        """Execute one write statement and return how many rows it changed."""
        async with db.execute(sql, params) as cur:
            return cur.rowcount

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        options: dict,
        host_id: int,
        locale: str,
        clock_seconds: int | None = None,
        timeout_action: str = "ai",
        host_seat: tuple[str, str | None] | None = None,
        pending_thread: int | None = None,
    ) -> GameRow:
        """Create a game in 'lobby' status; raises ChannelBusy if the channel has an open game.
        ``host_seat`` (name, locale) seats the host in the same transaction: a lobby never
        exists without its host. ``pending_thread``: the thread noted before it was opened
        for this game now holds it (forgotten in the same transaction)."""
        now = time.time()
        options_json = json.dumps(options, ensure_ascii=False, separators=(",", ":"))
        async with self._write() as db:
            busy = await db.execute_fetchall(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            if busy:
                raise ChannelBusy(f"channel {channel_id} already has open game {busy[0][0]}")
            try:
                rows = await db.execute_fetchall(
                    "INSERT INTO games (guild_id, channel_id, game_id, options, status, version,"
                    " host_id, locale, created_at, updated_at, clock_seconds, timeout_action)"
                    " VALUES (?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?)"
                    f" RETURNING {GAME_COLUMNS}",
                    (guild_id, channel_id, game_id, options_json, host_id, locale, now, now,
                     clock_seconds, timeout_action),
                )
            except IntegrityError as e:
                # The partial unique index is the real guard (another process may have won
                # between our SELECT and INSERT if it did not use IMMEDIATE).
                if "channel_id" in str(e):
                    raise ChannelBusy(f"channel {channel_id} already has an open game") from e
                raise
            created = game_from_sql(list(rows)[0])
            if pending_thread is not None:
                await db.execute("DELETE FROM pending_threads WHERE id = ?", (pending_thread,))
            if host_seat is not None:
                await db.execute(
                    "INSERT INTO seats (game, seat, user_id, ai, name, locale, dm_closed)"
                    " VALUES (?, 0, ?, FALSE, ?, ?, FALSE)",
                    (created.id, host_id, host_seat[0], host_seat[1]),
                )
            return created

    async def get_game(self, game: int) -> GameRow | None:
        """The game with that id, or None."""
        rows = await self._fetchall(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game,))
        return game_from_sql(rows[0]) if rows else None

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open (lobby or active) game in that channel, or None."""
        rows = await self._fetchall(
            f"SELECT {GAME_COLUMNS} FROM games"
            " WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return game_from_sql(rows[0]) if rows else None

    async def open_game_ids(self) -> list[int]:
        """Ids of every lobby or active game, ascending (an index search on status, no table scan)."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [r[0] for r in rows]

    # ------------------------------------------------------------------ seats

    async def seats(self, game: int) -> list[SeatRow]:
        """The game's seats in turn order."""
        rows = await self._fetchall(
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game = ? ORDER BY seat", (game,)
        )
        return [seat_from_sql(r) for r in rows]

    async def add_seat(
        self,
        game: int,
        *,
        user_id: int | None,
        name: str,
        ai: bool = False,
        locale: str | None = None,
    ) -> SeatRow:
        """Seat someone at the next seat number; SeatTaken if that user is seated, NotInLobby if started."""
        async with self._write() as db:
            await self._require_lobby(db, game)
            if user_id is not None:
                taken = await db.execute_fetchall(
                    "SELECT seat FROM seats WHERE game = ? AND user_id = ?", (game, user_id)
                )
                if taken:
                    raise SeatTaken(f"user {user_id} already has seat {taken[0][0]} in game {game}")
            rows = await db.execute_fetchall(
                "INSERT INTO seats (game, seat, user_id, ai, name, locale, dm_closed)"
                " SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ?, ?, ?, FALSE"
                " FROM seats WHERE game = ?"
                f" RETURNING {SEAT_COLUMNS}",
                (game, user_id, bool(ai), name, locale, game),
            )
            return seat_from_sql(list(rows)[0])

    async def remove_seat(self, game: int, user_id: int) -> bool:
        """Unseat a user while in the lobby and renumber the rest 0..n-1; False if nothing removed."""
        return await self._remove_seat(game, "user_id = ?", user_id)

    async def remove_seat_number(self, game: int, seat: int) -> bool:
        """Unseat whoever sits at ``seat`` (an AI seat, say) while in the lobby; False if none."""
        return await self._remove_seat(game, "seat = ?", seat)

    async def _remove_seat(self, game: int, where: str, value: int) -> bool:
        async with self._write() as db:
            status = await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (game,))
            if not status or status[0][0] != "lobby":
                return False
            removed = await self._changes(
                db, f"DELETE FROM seats WHERE game = ? AND {where}", (game, value)
            )
            if not removed:
                return False
            rows = await db.execute_fetchall(
                "SELECT seat FROM seats WHERE game = ? ORDER BY seat", (game,)
            )
            moves = [(i, old) for i, old in enumerate(r[0] for r in rows) if i != old]
            if moves:
                # Two steps through negative numbers: a one-step "seat = seat - 1" can hit
                # the (game, seat) key mid-statement, and PostgreSQL checks it per row.
                await db.executemany(
                    "UPDATE seats SET seat = ? WHERE game = ? AND seat = ?",
                    [(-1 - new, game, old) for new, old in moves],
                )
                await db.execute(
                    "UPDATE seats SET seat = -1 - seat WHERE game = ? AND seat < 0", (game,)
                )
            await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (time.time(), game))
            return True

    async def drop_seat(self, game: int, seat: int, change: ChangeNote | None = None) -> None:
        """The seat's player is out for good: the bot plays the seat from now on (and
        ``change``, what that owes Discord, is written with it)."""
        async with self._write() as db:
            if change is not None:
                await write_change(db, game, change)
            n = await self._changes(
                db, "UPDATE seats SET ai = TRUE, dropped = TRUE WHERE game = ? AND seat = ?",
                (game, seat),
            )
            if not n:
                raise UnknownGame(f"game {game} has no seat {seat}")
            await db.execute("DELETE FROM deadlines WHERE game = ? AND seat = ?", (game, seat))

    async def set_host(self, game: int, user_id: int) -> None:
        """Hand the game's hosting over to ``user_id``."""
        await self._update_game(game, "host_id = ?", (user_id,))

    async def set_dm_closed(self, game: int, seat: int, closed: bool) -> None:
        """Record whether DMs to that seat's player are refused; UnknownGame if no such seat."""
        async with self._write() as db:
            n = await self._changes(
                db,
                "UPDATE seats SET dm_closed = ? WHERE game = ? AND seat = ?",
                (bool(closed), game, seat),
            )
            if not n:
                raise UnknownGame(f"game {game} has no seat {seat}")

    # ------------------------------------------------------------------ play

    async def start_game(
        self,
        game: int,
        *,
        seed: int,
        state: str,
        version: int = 0,
        deadlines: DeadlinePlan | None = None,
        change: ChangeNote | None = None,
        options: dict | None = None,
        seating: dict[int, int] | None = None,
    ) -> GameRow:
        """Move a game from lobby to active with its first state (and its first deadlines);
        NotInLobby (a StaleVersion) otherwise. ``options``: the options the game was set up
        with, when the start fixed more of them than the lobby had (the replay needs them).
        ``seating``: the places drawn for the start (lobby seat -> seat), moved with it."""
        if not _INT64_MIN <= seed <= _INT64_MAX:
            raise ValueError("seed must fit in a signed 64-bit integer")
        fixed = (
            None
            if options is None
            else json.dumps(options, ensure_ascii=False, separators=(",", ":"))
        )
        async with self._write() as db:
            rows = await db.execute_fetchall(
                "UPDATE games SET status = 'active', seed = ?, state = ?, version = ?,"
                " updated_at = ?, options = COALESCE(?, options)"
                " WHERE id = ? AND status = 'lobby'"
                f" RETURNING {GAME_COLUMNS}",
                (seed, state, version, time.time(), fixed, game),
            )
            rows = list(rows)
            if not rows:
                raise NotInLobby(f"game {game} is not in the lobby (started, closed or unknown)")
            if seating:
                # Through negative numbers, so that no two seats ever share one on the way.
                await db.execute("UPDATE seats SET seat = -1 - seat WHERE game = ?", (game,))
                for old, new in seating.items():
                    await db.execute(
                        "UPDATE seats SET seat = ? WHERE game = ? AND seat = ?", (new, game, -1 - old)
                    )
            if deadlines is not None:
                await apply_plan(db, game, deadlines)
            if change is not None:
                await write_change(db, game, change)
            return game_from_sql(rows[0])

    async def commit_move(
        self,
        game: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        state: str,
        finished: bool,
        deadlines: DeadlinePlan | None = None,
        own: bool = False,
        change: ChangeNote | None = None,
    ) -> int:
        """Store a move's new state and log row, and the game's deadlines, in one transaction;
        StaleVersion if someone moved first. ``own``: the seat's player made it (not the bot
        for them), so their catch-up starts after it. ``change``: what the move owes
        Discord, written in the same transaction."""
        step = MoveWrite(seat=seat, action=action, state=state, finished=finished,
                         deadlines=deadlines, own=own)
        return await self.commit_moves(game, expected_version=expected_version, steps=[step],
                                       change=change)

    async def commit_moves(
        self,
        game: int,
        *,
        expected_version: int,
        steps: Sequence[MoveWrite],
        change: ChangeNote | None = None,
    ) -> int:
        """Store several moves in a row (one player's choice made of several steps) in one
        transaction: all of them or none. Returns the last seq."""
        now = time.time()

        async def write(db: aiosqlite.Connection) -> int:
            seq = expected_version
            for step in steps:
                seq += 1
                # Same guard either way; status is only written when it changes so the
                # status indexes are not rewritten on every ordinary move.
                if step.finished:
                    sql = (
                        "UPDATE games SET state = ?, version = ?, status = 'finished',"
                        " updated_at = ?, finished_at = ?"
                        " WHERE id = ? AND version = ? AND status = 'active'"
                    )
                    params: tuple[object, ...] = (step.state, seq, now, now, game, seq - 1)
                else:
                    sql = (
                        "UPDATE games SET state = ?, version = ?, updated_at = ?"
                        " WHERE id = ? AND version = ? AND status = 'active'"
                    )
                    params = (step.state, seq, now, game, seq - 1)
                # RETURNING: the answer comes with the statement, one trip to aiosqlite's
                # thread rather than two (a cursor to read, then to close).
                changed = await db.execute_fetchall(sql + " RETURNING id", params)
                if not changed:
                    # Raising rolls back (the transaction, or the move's savepoint in a
                    # group): nothing of this attempt remains.
                    raise StaleVersion(f"game {game} is no longer active at version {seq - 1}")
                await db.execute(
                    "INSERT INTO actions (game, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                    (game, seq, step.seat, step.action, now),
                )
                if step.own:
                    await db.execute(
                        "UPDATE seats SET seen_seq = ? WHERE game = ? AND seat = ?",
                        (seq, game, step.seat),
                    )
                if step.finished:
                    await db.execute("DELETE FROM deadlines WHERE game = ?", (game,))
                elif step.deadlines is not None:
                    await apply_plan(db, game, step.deadlines)
            if change is not None:
                await write_change(db, game, change)
            return seq

        if self._group is not None:
            # Guarded by its own version and undone alone if stale; answered after COMMIT.
            return await self._group.run(write)
        # shared: each move is guarded by its own UPDATE ... WHERE version = ?, whose row
        # lock makes a concurrent mover of the same game wait and then find it stale.
        async with self._write(shared=True) as db:
            return await write(db)

    async def actions(self, game: int, *, after: int = 0) -> list[ActionRow]:
        """The game's action log in seq order; `after` skips entries with seq <= after."""
        rows = await self._fetchall(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game = ? AND seq > ? ORDER BY seq",
            (game, after),
        )
        return [action_from_sql(r) for r in rows]

    # ------------------------------------------------------------------ bookkeeping

    async def set_board_message(self, game: int, channel_id: int, message_id: int | None) -> None:
        """Remember where the public board message is (message_id None: none posted now)."""
        await self._update_game(
            game, "board_channel_id = ?, board_message_id = ?", (channel_id, message_id)
        )

    async def set_status(self, game: int, status: str, change: ChangeNote | None = None) -> None:
        """Force a status (e.g. 'abandoned'); ChannelBusy if reopening would clash in its
        channel. Closing the game also drops its deadlines, and ``change`` (what it owes
        Discord) is written, all in one transaction."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}; expected one of {STATUSES}")
        closing = status in ("finished", "abandoned")
        try:
            async with self._write() as db:
                if closing:
                    sql, params = "status = ?, finished_at = ?", (status, time.time())
                else:
                    sql, params = "status = ?", (status,)
                n = await self._changes(
                    db, f"UPDATE games SET {sql}, updated_at = ? WHERE id = ?",
                    (*params, time.time(), game),
                )
                if not n:
                    raise UnknownGame(f"no game {game}")
                if closing:
                    await db.execute("DELETE FROM deadlines WHERE game = ?", (game,))
                if change is not None:
                    await write_change(db, game, change)
        except IntegrityError as e:
            if "channel_id" in str(e):
                raise ChannelBusy(
                    f"another open game already lives in game {game}'s channel"
                ) from e
            raise

    async def set_locale(self, game: int, locale: str) -> None:
        """Change the game's channel-facing locale."""
        await self._update_game(game, "locale = ?", (locale,))

    async def _update_game(self, game: int, assignments: str, params: tuple[object, ...]) -> None:
        """UPDATE one game's columns and touch updated_at; UnknownGame if the id is absent."""
        async with self._write() as db:
            n = await self._changes(
                db,
                f"UPDATE games SET {assignments}, updated_at = ? WHERE id = ?",
                (*params, time.time(), game),
            )
            if not n:
                raise UnknownGame(f"no game {game}")

    @staticmethod
    async def _require_lobby(db: aiosqlite.Connection, game: int) -> None:
        """Raise NotInLobby unless the game exists and is still in the lobby."""
        rows = await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (game,))
        if not rows:
            raise NotInLobby(f"no game {game}")
        status = list(rows)[0][0]
        if status != "lobby":
            raise NotInLobby(f"game {game} is {status}, no longer in the lobby")
