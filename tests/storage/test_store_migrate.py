"""Migrations: applied once, in order, atomically, and recorded in schema_version."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from storage import MigrationError, Store
from storage.dialect_postgres import ddl, migrate_postgres, to_dollar
from storage.migrate import MIGRATIONS_DIR, load_migrations, migrate, split_sql
from tests.pg_server import PgServer, drop_database, new_database


def _schema(path: Path) -> tuple[int, list[tuple]]:
    """SQLite's schema cookie (bumped by any DDL) and the schema_version rows."""
    with sqlite3.connect(path) as db:
        cookie = db.execute("PRAGMA schema_version").fetchone()[0]
        rows = db.execute("SELECT version, name, applied_at FROM schema_version").fetchall()
    return cookie, rows


async def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    store = await Store.open(path)
    await store.close()
    _, rows = _schema(path)
    assert [(v, n) for v, n, _ in rows] == [(m.version, m.name) for m in load_migrations()]
    assert rows[0][:2] == (1, "init")
    with sqlite3.connect(path) as db:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "seats", "actions", "schema_version"} <= tables


async def test_reopen_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    await (await Store.open(path)).close()
    before = _schema(path)
    await (await Store.open(path)).close()
    await (await Store.open(path)).close()
    # Same cookie: no DDL ran at all; same rows: nothing re-recorded.
    assert _schema(path) == before


async def test_pragmas_wal_and_foreign_keys(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.db")
    try:
        db = store._db
        assert (await db.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] == 1
        assert (await db.execute_fetchall("PRAGMA busy_timeout"))[0][0] > 0
    finally:
        await store.close()


async def test_memory_database_opens(tmp_path: Path) -> None:
    store = await Store.open(":memory:")
    game = await store.create_game(
        guild_id=None, channel_id=1, game_id="ragami", options={}, host_id=1, locale="en"
    )
    assert (await store.get_game(game.id)) == game
    await store.close()


async def test_pending_migrations_apply_in_order_and_a_failing_one_rolls_back(
    tmp_path: Path,
) -> None:
    mig = tmp_path / "mig"
    mig.mkdir()
    (mig / "0001_a.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    async with aiosqlite.connect(tmp_path / "t.db", isolation_level=None) as db:
        assert await migrate(db, mig) == [1]
        # 0002 creates a table, then fails: neither the table nor the record may remain.
        (mig / "0002_b.sql").write_text(
            "CREATE TABLE b (x INTEGER);\nINSERT INTO a (x) VALUES (1);\nINSERT INTO nope VALUES (1);\n"
        )
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db, mig)
        names = {r[0] for r in await db.execute_fetchall("SELECT name FROM sqlite_master")}
        assert "b" not in names
        assert list(await db.execute_fetchall("SELECT count(*) FROM a")) == [(0,)]
        assert [r[0] for r in await db.execute_fetchall("SELECT version FROM schema_version")] == [
            1
        ]
        # Fixed, it applies; then 0003 after it.
        (mig / "0002_b.sql").write_text("CREATE TABLE b (x INTEGER);\n")
        (mig / "0003_c.sql").write_text("ALTER TABLE b ADD COLUMN y TEXT;\n")
        assert await migrate(db, mig) == [2, 3]
        assert await migrate(db, mig) == []


def test_numbering_gaps_and_bad_names_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="expected 0002"):
        load_migrations(tmp_path)
    (tmp_path / "0003_c.sql").unlink()
    (tmp_path / "2_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNNN_name"):
        load_migrations(tmp_path)


def test_split_sql_keeps_semicolons_inside_strings_and_comments() -> None:
    script = (
        "-- header; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT 'a;b'); -- trailing\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n"
        "  UPDATE t SET x = 'c;d';\n"
        "END;\n"
        "-- footer\n"
    )
    stmts = split_sql(script)
    assert len(stmts) == 2
    assert "'a;b'" in stmts[0] and stmts[1].endswith("END;")
    with pytest.raises(MigrationError):
        split_sql("CREATE TABLE t (x INTEGER)")


def test_shipped_migrations_load() -> None:
    migs = load_migrations(MIGRATIONS_DIR)
    assert migs and migs[0].version == 1
    assert all(m.statements() for m in migs)


# ------------------------------------------------------------------ PostgreSQL


async def _pg_schema(url: str) -> tuple[list[tuple], set[str]]:
    conn = await asyncpg.connect(url)
    try:
        rows = [tuple(r) for r in await conn.fetch(
            "SELECT version, name, applied_at FROM schema_version ORDER BY version")]
        tables = {r[0] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
    finally:
        await conn.close()
    return rows, tables


async def test_postgres_fresh_database_gets_every_migration_once(
    pg_server_instance: PgServer,
) -> None:
    url = await new_database(pg_server_instance)
    try:
        await (await Store.open(url)).close()
        rows, tables = await _pg_schema(url)
        assert [(v, n) for v, n, _ in rows] == [(m.version, m.name) for m in load_migrations()]
        assert {"games", "seats", "actions", "outbox", "gdm_decks", "schema_version"} <= tables
        # Two stores opening at once, then again: nothing is applied twice.
        stores = await asyncio.gather(Store.open(url), Store.open(url))
        for s in stores:
            await s.close()
        assert (await _pg_schema(url))[0] == rows
        # The rowid ids became identity columns: ids are handed out on insert.
        store = await Store.open(url)
        try:
            a = await store.create_game(
                guild_id=1, channel_id=1, game_id="ragami", options={}, host_id=1, locale="es"
            )
            b = await store.create_game(
                guild_id=1, channel_id=2, game_id="ragami", options={}, host_id=1, locale="es"
            )
            assert b.id == a.id + 1
        finally:
            await store.close()
    finally:
        await drop_database(pg_server_instance, url)


async def test_postgres_failing_migration_rolls_back(
    pg_server_instance: PgServer, tmp_path: Path
) -> None:
    mig = tmp_path / "mig"
    mig.mkdir()
    (mig / "0001_a.sql").write_text("CREATE TABLE a (id INTEGER PRIMARY KEY, x INTEGER);\n")
    url = await new_database(pg_server_instance)
    conn = await asyncpg.connect(url)
    try:
        assert await migrate_postgres(conn, mig) == [1]
        (mig / "0002_b.sql").write_text(
            "CREATE TABLE b (x INTEGER);\nINSERT INTO a (x) VALUES (1);\nINSERT INTO nope VALUES (1);\n"
        )
        with pytest.raises(asyncpg.UndefinedTableError):
            await migrate_postgres(conn, mig)
        tables = {r[0] for r in await conn.fetch("SELECT tablename FROM pg_tables")}
        assert "a" in tables and "b" not in tables
        assert await conn.fetchval("SELECT count(*) FROM a") == 0
        assert [r[0] for r in await conn.fetch("SELECT version FROM schema_version")] == [1]
        (mig / "0002_b.sql").write_text("CREATE TABLE b (x INTEGER);\n")
        assert await migrate_postgres(conn, mig) == [2]
        assert await migrate_postgres(conn, mig) == []
        # 0001's rowid id is an identity column on PostgreSQL (the rolled-back insert
        # above used up a number: sequences do not roll back).
        first = await conn.fetchval("INSERT INTO a (x) VALUES (5) RETURNING id")
        assert await conn.fetchval("INSERT INTO a (x) VALUES (6) RETURNING id") == first + 1
    finally:
        await conn.close()
        await drop_database(pg_server_instance, url)


def test_placeholders_and_ids_in_postgres_spelling() -> None:
    assert to_dollar("SELECT ? , '?', \"a?\" FROM t WHERE x IN (?, ?)") == (
        "SELECT $1 , '?', \"a?\" FROM t WHERE x IN ($2, $3)"
    )
    assert ddl("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)") == (
        "CREATE TABLE t (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, n INTEGER)"
    )
