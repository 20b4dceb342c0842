"""Copy a Tablero SQLite database's tables into an empty PostgreSQL database, and compare.

Every table is copied (games, seats, action logs, outbox, tournaments, ratings, decks,
settings...) in one transaction: a failure leaves the target as empty as it was. The
comparison then counts each table's rows and digests them on both sides. The command that
runs it, and replays every game to check the states too, is services/copy_to_postgres.py.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from .dialect import is_postgres_url
from .store import Store

_BATCH = 2000


class CopyRefused(Exception):
    """The copy cannot start: the source or target is not what it must be."""


@dataclass
class CopyReport:
    """What was copied and what the check found."""

    counts: dict[str, tuple[int, int]] = field(default_factory=dict)  # table: (source, target)
    digests_differ: list[str] = field(default_factory=list)
    replayed: int = 0
    not_started: int = 0
    replay_failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every count, digest and replay agreed."""
        return (
            all(a == b for a, b in self.counts.values())
            and not self.digests_differ
            and not self.replay_failures
        )


def _tables_in_order(src: sqlite3.Connection) -> list[str]:
    """The source's tables, each after every table its foreign keys point to."""
    names = [
        r[0]
        for r in src.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' AND name != 'schema_version' ORDER BY name"
        )
    ]
    deps = {
        t: {r[2] for r in src.execute(f"PRAGMA foreign_key_list({t})") if r[2] != t}
        for t in names
    }
    order: list[str] = []
    while len(order) < len(names):
        ready = [t for t in names if t not in order and deps[t] <= set(order)]
        if not ready:
            raise CopyRefused(f"circular foreign keys among {sorted(set(names) - set(order))}")
        order.extend(ready)
    return order


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """How a value read from SQLite becomes what the PostgreSQL column takes."""
    if pg_type == "boolean":
        return lambda v: None if v is None else bool(v)
    if pg_type in ("double precision", "real", "numeric"):
        return lambda v: None if v is None else float(v)
    if pg_type in ("bigint", "integer", "smallint"):
        return lambda v: None if v is None else int(v)
    return lambda v: v


def _normal(v: Any) -> Any:
    """One value in the same form on both sides (SQLite keeps booleans as 0 and 1)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, float):
        return repr(v)
    return v


class _Digest:
    """An order-free digest of a table's rows: the sum of each row's hash."""

    def __init__(self) -> None:
        self.total = 0

    def add(self, row: Sequence[Any]) -> None:
        h = hashlib.sha256(repr(tuple(_normal(v) for v in row)).encode()).digest()
        self.total = (self.total + int.from_bytes(h, "big")) % (1 << 256)


async def _columns(conn: asyncpg.Connection, table: str) -> dict[str, str]:
    rows = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        table,
    )
    return {r[0]: r[1] for r in rows}


def _source_rows(
    src: sqlite3.Connection, table: str, cols: list[str], convert: list[Callable[[Any], Any]]
) -> Iterator[tuple]:
    cur = src.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY rowid")
    while batch := cur.fetchmany(_BATCH):
        for row in batch:
            yield tuple(f(v) for f, v in zip(convert, row, strict=True))


async def copy_tables(source: Path, target: str, *, out: Callable[[str], None] = print) -> CopyReport:
    """Copy ``source`` (SQLite file) into ``target`` (empty PostgreSQL URL) and compare each
    table's row count and digest on both sides."""
    if not source.is_file():
        raise CopyRefused(f"no SQLite database at {source}")
    if not is_postgres_url(target):
        raise CopyRefused(f"the target must be a postgresql:// URL, not {target!r}")
    # Opening both as stores brings both schemas to the same (latest) migration.
    await (await Store.open(source)).close()
    await (await Store.open(target, pool_size=1)).close()

    src = sqlite3.connect(source, isolation_level=None)
    conn = await asyncpg.connect(target)
    report = CopyReport()
    try:
        src.execute("BEGIN")  # one snapshot of the source for the copy and its counts
        tables = _tables_in_order(src)
        held = []
        for t in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename != 'schema_version' ORDER BY tablename"
        ):
            n = await conn.fetchval(f"SELECT count(*) FROM {t[0]}")
            if n:
                held.append(f"{t[0]} ({n})")
        if held:
            more = f" and {len(held) - 4} more tables" if len(held) > 4 else ""
            raise CopyRefused(
                "the target database is not empty (rows in " + ", ".join(held[:4]) + more
                + "); copy only into a new, empty database"
            )
        layout: dict[str, tuple[list[str], dict[str, str]]] = {}
        for t in tables:
            pg_cols = await _columns(conn, t)
            if not pg_cols:
                raise CopyRefused(f"the target has no table {t}: is it the same Tablero version?")
            src_cols = [r[1] for r in src.execute(f"PRAGMA table_info({t})")]
            missing = [c for c in src_cols if c not in pg_cols]
            if missing:
                raise CopyRefused(f"the target's {t} lacks columns {missing}")
            layout[t] = (src_cols, pg_cols)

        async with conn.transaction():
            for t in tables:
                cols, pg_cols = layout[t]
                convert = [_converter(pg_cols[c]) for c in cols]
                rows = _source_rows(src, t, cols, convert)
                while batch := [r for _, r in zip(range(_BATCH), rows, strict=False)]:
                    await conn.copy_records_to_table(t, records=batch, columns=cols)
                out(f"copied {t}")
            # Ids handed out from now on continue after the copied ones.
            for t, c in await conn.fetch(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES'"
            ):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{t}', '{c}'),"
                    f" COALESCE((SELECT MAX({c}) FROM {t}), 0) + 1, false)"
                )

        # The check: counts and row digests per table.
        for t in tables:
            cols, pg_cols = layout[t]
            convert = [_converter(pg_cols[c]) for c in cols]
            a, b = _Digest(), _Digest()
            n_src = 0
            for row in _source_rows(src, t, cols, convert):
                a.add(row)
                n_src += 1
            n_dst = 0
            async with conn.transaction(readonly=True):
                async for row in conn.cursor(f"SELECT {', '.join(cols)} FROM {t}", prefetch=_BATCH):
                    b.add(tuple(row))
                    n_dst += 1
            report.counts[t] = (n_src, n_dst)
            if a.total != b.total:
                report.digests_differ.append(t)
        src.execute("COMMIT")
    finally:
        src.close()
        await conn.close()

    return report


