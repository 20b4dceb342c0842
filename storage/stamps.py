"""Games' stamps: a number in each game's row (``games.stamp``, 0019_game_stamps.sql) that
every write of the game's row or of its seats bumps, so that a process holding a copy of the
game knows from that one number whether anyone has changed the game since it read it.

A write bumps it inside its transaction (``UPDATE games SET ..., stamp = stamp + 1 ...
RETURNING stamp``), the game's lock held (storage/dialect_postgres.py; SQLite has one
writer), so the stamps one transaction leaves follow each other: the game went from the one
before its first bump to its last. Once the transaction has committed, the task that wrote
learns it here (``written``): its own copy of the game, changed as the write changed the
store, is then as current as the store if it was current before, and need not be read again.

What a transaction bumped is gathered in a context variable of the writing task (set by the
store's ``_write`` around each transaction, ``collecting``); a write whose statements run
elsewhere (the group commit's batches) hands its stamps back with its result and the store
publishes them in the caller's task (``publish``).

Reading them: ``StampReads``, where the reads of the moves in flight share one statement.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

# game -> (its stamp before the transaction, its stamp after).
Stamps = dict[int, tuple[int, int]]

# What the open write transaction of this task has bumped so far (None outside one).
_open: ContextVar[Stamps | None] = ContextVar("tablero_stamps_open", default=None)
# What this task's last committed write transaction bumped.
_written: ContextVar[Stamps | None] = ContextVar("tablero_stamps_written", default=None)


def bumped(game: int, stamp: int, into: Stamps | None = None) -> None:
    """Note that ``game``'s stamp is now ``stamp`` (one bump) in the open transaction (or in
    ``into``, for a write whose stamps travel with its result)."""
    target = _open.get() if into is None else into
    if target is None:
        return  # not written through a transaction of the store's: nobody to tell
    before = target[game][0] if game in target else stamp - 1
    target[game] = (before, stamp)


@contextmanager
def collecting() -> Iterator[None]:
    """Around one write transaction: gather its bumps; published only if it commits (the
    block returns), else this task's last write is one that bumped nothing."""
    forget()
    token = _open.set({})
    try:
        yield
        publish(_open.get() or {})
    finally:
        _open.reset(token)


def forget() -> None:
    """A write of this task begins: until it commits, its last write is one that bumped
    nothing (a write refused or rolled back tells nothing)."""
    _written.set(None)


def publish(stamps: Stamps) -> None:
    """Make ``stamps`` what this task's last committed write left."""
    _written.set(dict(stamps))


async def touch(db: Any, game: int, assignments: str = "", params: tuple[object, ...] = (),
                *, guard: str = "", guard_params: tuple[object, ...] = ()) -> bool:
    """Inside a write transaction: bump ``game``'s stamp, with ``assignments`` ("locale = ?,
    updated_at = ?", say) in the same UPDATE, where ``guard`` ("AND ...") holds too; whether
    the row was there to change."""
    sets = f"{assignments}, stamp = stamp + 1" if assignments else "stamp = stamp + 1"
    rows = await db.execute_fetchall(
        f"UPDATE games SET {sets} WHERE id = ?{guard} RETURNING stamp",
        (*params, game, *guard_params),
    )
    if not rows:
        return False
    bumped(game, int(list(rows)[0][0]))
    return True


def written(game: int) -> tuple[int, int] | None:
    """(before, after): the stamps of ``game`` that this task's last committed write went
    from and to, if it wrote that game."""
    last = _written.get()
    return None if last is None else last.get(game)


class StampReads:
    """Reads of games' stamps asked while one is under way share the next one, as moves
    share a commit (storage/group_commit.py): under load, one round trip answers the stamps
    of every move in flight rather than one trip each.

    Each read starts after every request it answers was made, so it sees whatever was
    committed before the request: a stamp is never older than one read on its own."""

    def __init__(self, fetch: Callable[[list[int]], Awaitable[Sequence[Sequence[Any]]]]) -> None:
        """Read through ``fetch(ids)``, which answers (id, stamp) rows for the ids found."""
        self._fetch = fetch
        self._waiting: dict[int, list[asyncio.Future[int | None]]] = {}
        self._runner: asyncio.Task[None] | None = None
        # For the tests and benchmarks: how many reads answered how many requests.
        self.reads = 0
        self.requests = 0

    async def stamp(self, game: int) -> int | None:
        """``game``'s stamp as the next read finds it (None: no such game)."""
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(game, []).append(future)
        self.requests += 1
        if self._runner is None:
            self._runner = asyncio.create_task(self._drain(), name="stamp-reads")
        return await future

    async def _drain(self) -> None:
        """Read batch after batch while requests keep arriving; gone once none wait."""
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, {}
                self.reads += 1
                try:
                    found = {int(r[0]): int(r[1]) for r in await self._fetch(sorted(batch))}
                except Exception as exc:
                    for futures in batch.values():
                        for f in futures:
                            if not f.done():
                                f.set_exception(exc)
                    continue
                for game, futures in batch.items():
                    for f in futures:
                        if not f.done():
                            f.set_result(found.get(game))
        finally:
            self._runner = None
            # Cancelled while some still waited: they must not wait forever.
            for futures in self._waiting.values():
                for f in futures:
                    f.cancel()
            self._waiting = {}
