"""Every bot process keeps the garbage collector's full passes short once ready
(services/collector.py), whether or not it is the process that resumes the games (with
several processes only one does), and stops following them when it closes."""

from __future__ import annotations

import gc

import pytest

from bot import TableroBot
from services import collector

from .fake_discord import FakeDiscord
from .harness import FakeWorld
from .table import Table


@pytest.mark.asyncio
async def test_a_process_that_resumes_no_game_still_keeps_full_passes_short(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def elsewhere(self: TableroBot) -> None:
        return None  # another process holds the resume's lease

    monkeypatch.setattr(TableroBot, "resume_games", elsewhere)
    async with FakeWorld(users=["ana"], fake=fake) as world:
        t = Table(world, db)
        await t.start()
        await fake.wait_until(lambda: collector.PASSES.after_pass in gc.callbacks)
        assert t.bot.is_ready()
    assert collector.PASSES.after_pass not in gc.callbacks
