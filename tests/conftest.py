"""Fixtures shared by every test package: a PostgreSQL server of the tests' own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import pg_server


@pytest.fixture(scope="session")
def pg_server_instance() -> Iterator[pg_server.PgServer]:
    """A PostgreSQL server for this test process (one per xdist worker), with the shared
    database migrated; stopped and removed at the end."""
    if not pg_server.available():
        pytest.skip(
            "PostgreSQL server programs (initdb, postgres) are not installed: "
            "the tests on PostgreSQL cannot run here"
        )
    server = pg_server.PgServer.start()
    try:
        pg_server.make_shared(server)
        yield server
    finally:
        server.stop()
