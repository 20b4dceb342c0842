"""Numbered SQL migrations: loaded from storage/migrations/, applied in order, recorded."""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

MIGRATIONS_DIR = Path(__file__).with_name("migrations")

# NNNN_what_it_does.sql; the number is the schema version it brings the database to.
_FILE_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")

# Created outside any numbered migration because it is what says which ones have run.
_SCHEMA_VERSION_DDL = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " version INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL,"
    " applied_at DOUBLE PRECISION NOT NULL)"
)


class MigrationError(Exception):
    """The migrations directory is malformed (bad name, duplicate or missing number)."""


@dataclass(frozen=True)
class Migration:
    """One migration file: the version it produces, its name and its SQL text."""

    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """Split the file into single statements, as sqlite3 executes one at a time."""
        return split_sql(self.sql)


def split_sql(script: str) -> list[str]:
    """Split an SQL script into statements; semicolons inside strings or triggers are kept."""
    # executescript() would be simpler but it COMMITs first, which would break the
    # one-transaction-per-migration guarantee; complete_statement() knows SQL lexing.
    statements: list[str] = []
    buf = ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            statements.append(buf.strip())
            buf = ""
    rest = "\n".join(
        ln for ln in buf.splitlines() if ln.strip() and not ln.strip().startswith("--")
    )
    if rest:
        raise MigrationError(f"unterminated SQL statement at end of migration: {rest[:80]!r}")
    return statements


def load_migrations(directory: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Read every NNNN_name.sql in directory, checking the numbers run 1, 2, 3... without gaps."""
    found: list[Migration] = []
    for path in sorted(directory.glob("*.sql")):
        m = _FILE_NAME.match(path.name)
        if m is None:
            raise MigrationError(f"migration file name must be NNNN_name.sql: {path.name}")
        found.append(Migration(int(m[1]), m[2], path.read_text(encoding="utf-8")))
    # A gap or duplicate usually means two branches each added "the next" migration.
    for expected, mig in enumerate(found, start=1):
        if mig.version != expected:
            raise MigrationError(
                f"migrations must be numbered 1..n without gaps; expected {expected:04d}, "
                f"found {mig.version:04d}_{mig.name}"
            )
    return found


async def applied_versions(db: aiosqlite.Connection) -> list[int]:
    """Versions recorded in schema_version, ascending (empty for a fresh database)."""
    await db.execute(_SCHEMA_VERSION_DDL)
    rows = await db.execute_fetchall("SELECT version FROM schema_version ORDER BY version")
    return [r[0] for r in rows]


async def migrate(db: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply pending migrations in order, each in its own transaction; return the versions applied.

    The connection must be in autocommit mode (isolation_level=None): this function
    issues its own BEGIN IMMEDIATE / COMMIT.
    """
    migrations = load_migrations(directory)
    done = set(await applied_versions(db))
    applied: list[int] = []
    for mig in migrations:
        if mig.version in done:
            continue
        # IMMEDIATE takes the write lock before re-checking, so two processes starting at
        # once cannot both apply the same migration: the second waits, then sees it recorded.
        await db.execute("BEGIN IMMEDIATE")
        try:
            rows = await db.execute_fetchall(
                "SELECT 1 FROM schema_version WHERE version = ?", (mig.version,)
            )
            if not rows:
                for stmt in mig.statements():
                    await db.execute(stmt)
                await db.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (mig.version, mig.name, time.time()),
                )
                applied.append(mig.version)
            await db.execute("COMMIT")
        except BaseException:
            await db.rollback()
            raise
    return applied
