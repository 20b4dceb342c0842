"""Fixtures of the platform services' tests: a fresh store per test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import Store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A store on a database file of the test's own."""
    s = await Store.open(tmp_path / "tablero.db")
    yield s
    await s.close()
