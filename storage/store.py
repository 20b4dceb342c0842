"""The store: one database, SQLite through aiosqlite, or PostgreSQL through asyncpg
(storage/dialect_postgres.py) when given a postgresql:// URL; its connection, lock and
transactions here, its queries mixed in by subject (games.py, deadlines.py, outbox.py,
tournaments.py...)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import TypeVar

import aiosqlite

from . import stamps
from .card_posts import CardPostQueries
from .deadlines import DeadlineQueries
from .decks import DeckQueries
from .dialect import Lock, is_postgres_url, skip_locked
from .dialect_postgres import PgDatabase
from .game_threads import GameThreadQueries
from .games import GameQueries, MoveWrite
from .group_commit import GroupCommit
from .leases import LeaseQueries
from .lookups import LookupQueries
from .migrate import MIGRATIONS_DIR, migrate
from .outbox import OutboxQueries
from .pg_moves import PG_ROUTINES, PgMoveBatches
from .settings import SettingsQueries
from .stats import StatsQueries
from .tournaments import TournamentQueries

T = TypeVar("T")


class Store(
    GameQueries, DeadlineQueries, SettingsQueries, LookupQueries, DeckQueries, OutboxQueries,
    LeaseQueries, TournamentQueries, GameThreadQueries, StatsQueries, CardPostQueries,
):
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

    Moves go through group commit (storage/group_commit.py): those of different games that
    queue while a commit runs share the next transaction and its sync, each caller answered
    after the COMMIT; on SQLite each in its own savepoint, on PostgreSQL all in one statement
    (storage/pg_moves.py). ``group_commit=False`` (Store.open) gives every move a
    transaction of its own.
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
        # Moves of different games queued while a commit runs share the next one: on SQLite
        # in one trip to the connection's thread, on PostgreSQL in one statement
        # (storage/pg_moves.py).
        self._group: GroupCommit | None = None
        # Games' stamps asked while a read of them is under way share the next read.
        self._stamp_reads = stamps.StampReads(self._read_stamps)
        if group_commit:
            self._group = (
                GroupCommit(self._write, self._on_thread) if pg is None
                else GroupCommit(self._write, batch=PgMoveBatches(pg))
            )

    @property
    def _skip_locked(self) -> str:
        """What ends a SELECT that claims rows on this store's dialect (storage/dialect.py)."""
        return skip_locked(self._pg is not None)

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
                routines=PG_ROUTINES,
            )
            store = cls(None, pg=pg, group_commit=group_commit)
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
        if self._group is not None:
            await self._group.wait_idle()
        if self._pg is not None:
            await self._pg.close()
            return
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
        self, *, durable: bool = True, locks: Iterable[Lock] | None = None
    ) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock around one BEGIN IMMEDIATE ... COMMIT; roll back on any exception.

        ``durable=False``: the commit survives the process being killed but not a power cut
        (WAL with synchronous NORMAL: no fsync of its own; the next durable commit syncs it
        too). For bookkeeping that is safe to redo, such as marking outbox messages sent.
        ``locks``: on PostgreSQL, what the transaction reads and changes (its game, its
        tournament...), so that it runs beside writes of other games; None locks everything,
        for a write that reads and decides across them. SQLite has one writer anyway.
        The games' stamps it bumps are told to the writing task once it has committed
        (storage/stamps.py)."""
        if self._pg is not None:
            with stamps.collecting():
                async with self._pg.write(durable=durable, locks=locks) as conn:
                    yield conn  # type: ignore[misc]
            return
        relax = not durable and self._synchronous in ("FULL", "EXTRA")
        async with self._lock:
            if relax:
                await self._db.execute("PRAGMA synchronous = NORMAL")
            try:
                with stamps.collecting():
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


__all__ = ["MoveWrite", "Store"]
