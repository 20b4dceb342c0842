"""A batch of async writes run in one go on the SQLite connection's own thread.

aiosqlite sends each statement to its thread and waits for the answer, two wake-ups per
statement; a batch of moves is a hundred statements. Here the writes, written once as
coroutines against aiosqlite's API, are driven to completion synchronously on that thread
against ``SyncConnection``, whose statements return at once and never suspend.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterable
from types import TracebackType
from typing import Any


class _Done:
    """An awaitable (and async context manager) whose value is already there."""

    def __init__(self, value: Any, close: Callable[[], None] | None = None) -> None:
        self._value = value
        self._close = close

    def __await__(self) -> Generator[Any, None, Any]:
        return self._value
        yield  # a generator that finishes at once: awaiting it never suspends

    async def __aenter__(self) -> Any:
        return self._value

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._close is not None:
            self._close()


class SyncConnection:
    """The part of aiosqlite's Connection a write uses, answering on the calling thread."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        """Wrap the sqlite3 connection of the thread this runs on."""
        self._conn = conn

    def execute(self, sql: str, parameters: Iterable[Any] = ()) -> _Done:
        """Execute one statement; awaiting (or entering) it gives the cursor."""
        cur = self._conn.execute(sql, tuple(parameters))
        return _Done(cur, cur.close)

    def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> _Done:
        """Execute one statement for each set of parameters."""
        cur = self._conn.executemany(sql, parameters)
        return _Done(cur, cur.close)

    def execute_fetchall(self, sql: str, parameters: Iterable[Any] = ()) -> _Done:
        """Execute one statement and give every row it returns."""
        return _Done(self._conn.execute(sql, tuple(parameters)).fetchall())


def drive(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine that never suspends to its end; its return value."""
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value
    coro.close()
    raise RuntimeError("a grouped write awaited something other than its connection")


def begin_and_write(conn: sqlite3.Connection, write: Callable[[Any], Awaitable[Any]]) -> Any:
    """BEGIN and one write, left uncommitted for ``finish``; rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        return drive(write(SyncConnection(conn)))  # type: ignore[arg-type]
    except BaseException:
        rollback(conn)
        raise


def finish(conn: sqlite3.Connection, commit: bool) -> None:
    """COMMIT (or ROLLBACK) the transaction begin_and_write left open; rolled back if the
    COMMIT fails."""
    try:
        conn.execute("COMMIT" if commit else "ROLLBACK")
    except BaseException:
        rollback(conn)
        raise


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if there is one."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def commit_in_thread(
    conn: sqlite3.Connection, writes: list[Callable[[Any], Awaitable[Any]]]
) -> list[tuple[BaseException | None, Any]]:
    """BEGIN, each write in its own savepoint (its error undoes it alone), COMMIT; what
    became of each write. Any error outside the writes rolls everything back and raises."""
    db = SyncConnection(conn)
    outcomes: list[tuple[BaseException | None, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for write in writes:
            conn.execute("SAVEPOINT group_write")
            try:
                result = drive(write(db))  # type: ignore[arg-type]
            except Exception as exc:
                conn.execute("ROLLBACK TO SAVEPOINT group_write")
                conn.execute("RELEASE SAVEPOINT group_write")
                outcomes.append((exc, None))
                continue
            conn.execute("RELEASE SAVEPOINT group_write")
            outcomes.append((None, result))
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
    return outcomes
