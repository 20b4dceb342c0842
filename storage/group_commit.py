"""Group commit: the move writes queued while one commit runs share the next transaction.

A commit's cost is mostly its sync to disk, and one connection commits one transaction at a
time; so when many games move at once, each move waiting for its own sync caps the moves
per second at the syncs per second. Here the writes that arrive while a transaction is
running wait in a queue, and the next transaction takes all of them: one BEGIN, one
SAVEPOINT per write (so a stale or failing write is undone alone and the others land), one
COMMIT and one sync. Each caller hears its result, or its own error, only once that COMMIT
has returned, so nothing is told before it is durable.

The SQL is SAVEPOINT / RELEASE SAVEPOINT / ROLLBACK TO SAVEPOINT, which SQLite and
PostgreSQL both speak. On PostgreSQL the queue is the same but a batch is written another way
(``batch``, storage/pg_moves.py): the queued items are moves as data, written by one
statement for the whole batch.

Where the connection runs its statements on a thread of its own (aiosqlite), each statement
is a trip to that thread and back, which on a busy machine waits for the scheduler twice;
so there (``on_thread``) the same async writes are driven synchronously on that thread,
against a stand-in for the connection whose statements never suspend (storage/in_thread.py):
a batch of several writes in one trip, a lone write in two (BEGIN and the write, then COMMIT
once its caller is known to be still waiting, ROLLBACK otherwise, as a lone transaction
whose caller is cancelled has always been). A write that awaited anything else would be a
bug, and is refused.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .in_thread import begin_and_write, commit_in_thread, finish, rollback

T = TypeVar("T")


class Connection(Protocol):
    """What a write needs of the connection: statements to execute."""

    async def execute(self, sql: str, parameters: Any = ..., /) -> Any:
        """Execute one statement."""


Write = Callable[[Any], Awaitable[T]]
# Runs a function of the sqlite3 connection on the connection's own thread.
OnThread = Callable[[Callable[[sqlite3.Connection], Any]], Awaitable[Any]]
# What became of one write: its error, or None and its result.
Outcome = tuple[BaseException | None, Any]
# Writes a whole batch of queued items in one transaction of its own; told whether every
# caller has stopped waiting (then it rolls back rather than commit); what became of each.
Batch = Callable[[list[Any], Callable[[], bool]], Awaitable[list[Outcome]]]


class _Withdrawn(Exception):
    """Rolls back the transaction of a lone write whose caller stopped waiting."""


@dataclass
class _Queued(Generic[T]):
    """A write waiting for the next transaction, and the future its caller awaits."""

    write: Write[T]
    future: asyncio.Future[T]


class GroupCommit:
    """Queues writes and runs each batch of them in one transaction (see the module doc).

    ``transaction`` opens one write transaction (BEGIN ... COMMIT, rolled back when the
    block raises) and yields the connection; the store passes its own, which also holds
    the store's lock, so other writes still take their turn between two batches.
    """

    def __init__(
        self,
        transaction: Callable[[], AbstractAsyncContextManager[Any]],
        on_thread: Callable[[], AbstractAsyncContextManager[OnThread]] | None = None,
        *,
        batch: Batch | None = None,
    ) -> None:
        """Commit batches through ``transaction``; or, when ``on_thread`` is given (it takes
        the store's lock and gives a function that runs a function on the connection's own
        thread), in trips to that thread: one per batch, two for a lone write; or, when
        ``batch`` is given, by handing it each batch of queued items whole."""
        self._transaction = transaction
        self._on_thread = on_thread
        self._batch = batch
        self._queue: list[_Queued[Any]] = []
        self._runner: asyncio.Task[None] | None = None
        # For the benchmarks: how many transactions carried how many writes.
        self.batches = 0
        self.writes = 0

    async def run(self, write: Write[T] | Any) -> T:
        """Run ``write(connection)`` in the next group transaction (or, with ``batch``, have
        the item ``write`` written with its batch); its result (or its error) once that
        transaction has committed. A caller cancelled before its batch
        starts is not written; one cancelled while its batch runs may or may not be (its
        write is all there or not at all), as with a statement cancelled while it runs."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.append(_Queued(write, future))
        if self._runner is None:
            self._runner = asyncio.create_task(self._drain(), name="group-commit")
        return await future

    async def wait_idle(self) -> None:
        """Wait until every queued write has been committed (or refused)."""
        while self._runner is not None:
            # asyncio.wait: neither raises the runner's end nor cancels it if we are.
            await asyncio.wait([self._runner])

    async def _drain(self) -> None:
        """Commit batch after batch while writes keep arriving; gone once the queue is empty."""
        try:
            while self._queue:
                batch, self._queue = self._queue, []
                # A caller that gave up (was cancelled) before its turn is not written.
                batch = [q for q in batch if not q.future.done()]
                if batch:
                    await self._commit(batch)
        finally:
            self._runner = None
            # Cancelled while some still waited: they must not wait forever.
            for q in self._queue:
                if not q.future.done():
                    q.future.cancel()
            self._queue = []

    async def _commit(self, batch: list[_Queued[Any]]) -> None:
        """One transaction for ``batch``; then answer each caller, only after COMMIT."""
        try:
            if self._batch is not None:
                outcomes = await self._batch(
                    [q.write for q in batch], lambda: all(q.future.done() for q in batch)
                )
            elif self._on_thread is not None:
                outcomes = await self._commit_on_thread(self._on_thread, batch)
            else:
                outcomes = await self._commit_async(batch)
        except Exception as exc:
            # BEGIN, a savepoint or COMMIT failed (or a lone write raised): nothing of the
            # batch landed, so every caller hears the error.
            for q in batch:
                if not q.future.done():
                    q.future.set_exception(exc)
            return
        except BaseException:
            for q in batch:
                if not q.future.done():
                    q.future.cancel()
            raise
        finally:
            self.batches += 1
            self.writes += len(batch)
        for q, (exc, result) in zip(batch, outcomes, strict=True):
            if q.future.done():
                continue
            if exc is not None:
                q.future.set_exception(exc)
            else:
                q.future.set_result(result)

    @staticmethod
    async def _commit_on_thread(
        on_thread: Callable[[], AbstractAsyncContextManager[OnThread]], batch: list[_Queued[Any]]
    ) -> list[Outcome]:
        """The batch's transaction in one trip to the connection's thread; a lone write's in
        two, so that a caller cancelled meanwhile has it rolled back."""
        async with on_thread() as call:
            if len(batch) > 1:
                writes = [q.write for q in batch]
                return await call(lambda conn: commit_in_thread(conn, writes))
            q = batch[0]
            try:
                result = await call(lambda conn: begin_and_write(conn, q.write))
                commit = not q.future.done()
                await call(lambda conn: finish(conn, commit))
            except BaseException:
                # Queued before we return even if we are cancelled; a no-op when the
                # transaction was already closed.
                await call(rollback)
                raise
            return [(None, result)]

    async def _commit_async(self, batch: list[_Queued[Any]]) -> list[Outcome]:
        """The batch's transaction statement by statement, each awaited on the connection."""
        outcomes: list[Outcome] = []
        async with self._transaction() as db:
            if len(batch) == 1:
                # Alone: its own transaction is its savepoint, so a lone move costs what it
                # did without grouping, and a caller cancelled meanwhile rolls it back.
                q = batch[0]
                result = await q.write(db)
                if q.future.done():
                    raise _Withdrawn
                outcomes.append((None, result))
            else:
                for q in batch:
                    outcomes.append(await self._one(db, q))
        return outcomes

    @staticmethod
    async def _one(db: Connection, q: _Queued[Any]) -> Outcome:
        """Run one write of a batch inside its own savepoint; its error undoes it alone."""
        if q.future.done():
            return None, None
        await db.execute("SAVEPOINT group_write")
        try:
            result = await q.write(db)
        except Exception as exc:
            await db.execute("ROLLBACK TO SAVEPOINT group_write")
            await db.execute("RELEASE SAVEPOINT group_write")
            return exc, None
        if q.future.done():
            # Its caller was cancelled while it ran: undo it, as a lone write would be.
            await db.execute("ROLLBACK TO SAVEPOINT group_write")
        await db.execute("RELEASE SAVEPOINT group_write")
        return None, result
