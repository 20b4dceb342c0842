"""Every storage test runs on both backends: an SQLite file, and a PostgreSQL database
on a server the tests start themselves (one per test process). That database is migrated
once and emptied before each test, which costs milliseconds where creating a database
costs most of a second."""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest

from storage import Store
from tests import pg_server

SHARED = "tablero_test"
_names = itertools.count(1)


def _in_thread(coro_fn) -> None:  # type: ignore[no-untyped-def]
    """Run a coroutine to completion on a loop of its own (a test's loop may be running)."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coro_fn())
        except BaseException as e:  # handed back to the caller
            failure.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if failure:
        raise failure[0]


@pytest.fixture(scope="session")
def pg_server_instance() -> Iterator[pg_server.PgServer]:
    """A PostgreSQL server for this test process, with the shared database migrated."""
    if not pg_server.available():
        pytest.skip(
            "PostgreSQL server programs (initdb, postgres) are not installed: "
            "the PostgreSQL half of the storage tests cannot run here"
        )
    server = pg_server.PgServer.start()
    try:

        async def make_shared() -> None:
            conn = await asyncpg.connect(server.url())
            try:
                await conn.execute(f"CREATE DATABASE {SHARED}")
            finally:
                await conn.close()
            await (await Store.open(server.url(SHARED))).close()

        _in_thread(make_shared)
        yield server
    finally:
        server.stop()


async def empty_shared(server: pg_server.PgServer) -> str:
    """Empty every table of the shared database and restart its ids; its URL."""
    url = server.url(SHARED)
    conn = await asyncpg.connect(url)
    try:
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename != 'schema_version'"
            )
        ]
        ids = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND is_identity = 'YES'"
        )
        # Every foreign key cascades (or sets null), so the order does not matter.
        await conn.execute(
            "".join(f"DELETE FROM {t};" for t in tables)
            + "".join(
                f"SELECT setval(pg_get_serial_sequence('{t}', '{c}'), 1, false);" for t, c in ids
            )
        )
    finally:
        await conn.close()
    return url


async def new_database(server: pg_server.PgServer) -> str:
    """A new empty database on ``server`` (no schema at all); its URL."""
    name = f"t{os.getpid()}_{next(_names)}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    finally:
        await conn.close()
    return server.url(name)


async def drop_database(server: pg_server.PgServer, url: str) -> None:
    """Drop a database made by new_database (cutting any session still on it)."""
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which database the test runs on."""
    return request.param


@pytest.fixture
def pg(backend: str, request: pytest.FixtureRequest) -> pg_server.PgServer | None:
    """The PostgreSQL server when the test runs on it (skipped where there is none)."""
    if backend != "postgresql":
        return None
    return request.getfixturevalue("pg_server_instance")


@pytest.fixture
async def db_target(
    backend: str, pg: pg_server.PgServer | None, tmp_path: Path
) -> AsyncIterator[str | Path]:
    """Where a store opens: a new SQLite file, or the emptied PostgreSQL database."""
    if pg is None:
        yield tmp_path / "t.db"
        return
    yield await empty_shared(pg)


@pytest.fixture
async def store(db_target: str | Path) -> AsyncIterator[Store]:
    """An open store on the test's backend."""
    s = await Store.open(db_target)
    yield s
    await s.close()


async def raw_fetch(store: Store, sql: str, params: tuple = ()) -> list[tuple]:
    """Run one statement of the test's own in a write transaction, on either backend."""
    async with store._write() as db:
        return [tuple(r) for r in await db.execute_fetchall(sql, params)]


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    """A store on an SQLite file, for what only SQLite has (PRAGMAs, query plans, tracing)."""
    s = await Store.open(tmp_path / "t.db")
    yield s
    await s.close()
