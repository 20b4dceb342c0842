"""What the store's two dialects share: which one a target names, and their errors.

SQLite (a file path) is the default and needs nothing; PostgreSQL (a postgresql:// URL)
lets several processes share one database. The queries are the same on both; what
differs lives in storage/dialect_postgres.py (and SQLite's PRAGMAs in Store.open).
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable

# What a write transaction locks on PostgreSQL besides the writers' lock: ("game", 12),
# ("tournament", 3), ("user", 4521...)... (SQLite has one writer at a time anyway).
Lock = tuple[str, object]


class PgIntegrityError(Exception):
    """A constraint refused a write on PostgreSQL (the text names the constraint and key)."""


# A constraint refused a write, on either dialect: catch this, not the driver's error.
IntegrityError = (sqlite3.IntegrityError, PgIntegrityError)


def is_postgres_url(target: object) -> bool:
    """Whether a TABLERO_DB value names a PostgreSQL database rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def lock_key(lock: Lock) -> int:
    """The 64-bit advisory lock key of ``lock`` (the same in every process).

    Two locks that happened to share a key would only wait for each other, never be wrong."""
    kind, ident = lock
    digest = hashlib.blake2b(f"{kind}:{ident}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock_keys(locks: Iterable[Lock]) -> list[int]:
    """The keys of ``locks``, each once, in the one order every transaction takes them
    (two transactions locking the same two games never wait for each other in a circle)."""
    return sorted({lock_key(lock) for lock in locks})


def game_locks(*games: int) -> tuple[Lock, ...]:
    """The locks of these games: what a write of theirs names (see lock_keys)."""
    return tuple(("game", g) for g in games)


def skip_locked(postgres: bool) -> str:
    """How a SELECT that claims rows ends: on PostgreSQL, ``FOR UPDATE SKIP LOCKED`` (rows
    another transaction is claiming or changing are passed over, not waited for, and never
    taken twice); on SQLite nothing, as one writer at a time has nothing to skip."""
    return " FOR UPDATE SKIP LOCKED" if postgres else ""
