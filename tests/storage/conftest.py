"""Every storage test runs on both backends: an SQLite file, and a PostgreSQL database
on a server the tests start themselves (tests/conftest.py: one per test process)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Store
from tests import pg_server
from tests.pg_server import empty_shared


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
