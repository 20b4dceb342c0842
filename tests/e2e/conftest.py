"""Fixtures for end-to-end tests against the fake Discord server."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from .fake_discord import FakeDiscord
from .harness import DiscordLogCollector, FakeWorld
from .spec_check import invalid

# TABLERO_SPEC_CHECK=1: every test also checks all the fake answered and sent against
# Discord's schemas (tests/e2e/test_fake_matches_spec.py always does, for its scenarios).
SPEC_CHECK = os.environ.get("TABLERO_SPEC_CHECK") == "1"


@pytest.fixture
def discord_errors() -> Iterator[DiscordLogCollector]:
    """Collects discord.py warnings/errors; the test fails if any remain at the end (clear() expected ones)."""
    with DiscordLogCollector() as collector:
        yield collector
    collector.assert_clean()


@pytest_asyncio.fixture
async def fake(discord_errors: DiscordLogCollector) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord with discord.py pointed at it; stopped (with any bot) afterwards."""
    server = FakeDiscord()
    await server.start()
    server.point_discord_py_here()
    try:
        yield server
    finally:
        await server.stop()
    assert not server.unhandled, f"bot hit routes the fake does not implement: {server.unhandled}"
    assert not server.invalid_requests, f"Discord would refuse these requests: {server.invalid_requests}"
    if SPEC_CHECK:
        found = invalid(server)[0]
        assert not found, "the fake answered or sent what Discord would not:\n" + "\n".join(found[:40])


@pytest.fixture
def db(tmp_path) -> str:
    """A database file of the test's own."""
    return str(tmp_path / "tablero.db")


@pytest_asyncio.fixture
async def world(fake: FakeDiscord) -> AsyncIterator[FakeWorld]:
    """alice and bob in guild "Tablero Test" with channels #games and #general, no bot started yet."""
    async with FakeWorld(fake=fake) as w:
        yield w
