"""What the store's two dialects share: which one a target names, and their errors.

SQLite (a file path) is the default and needs nothing; PostgreSQL (a postgresql:// URL)
lets several processes share one database. The queries are the same on both; what
differs lives in storage/dialect_postgres.py (and SQLite's PRAGMAs in Store.open).
"""

from __future__ import annotations

import sqlite3


class PgIntegrityError(Exception):
    """A constraint refused a write on PostgreSQL (the text names the constraint and key)."""


# A constraint refused a write, on either dialect: catch this, not the driver's error.
IntegrityError = (sqlite3.IntegrityError, PgIntegrityError)


def is_postgres_url(target: object) -> bool:
    """Whether a TABLERO_DB value names a PostgreSQL database rather than an SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))
