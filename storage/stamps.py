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
"""

from __future__ import annotations

from collections.abc import Iterator
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
