"""The bot's stop: interactions still at work after the drain's wait are cancelled before
the store closes under them."""

from __future__ import annotations

import asyncio
import logging

import pytest

import bot as bot_module
from bot import TableroBot


async def test_interactions_still_at_work_after_the_wait_are_cancelled(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(bot_module, "DRAIN_TIMEOUT", 0.05)
    ended: list[str] = []

    async def work(name: str, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            ended.append(f"{name} done")
        except asyncio.CancelledError:
            ended.append(f"{name} cancelled")
            raise

    quick = asyncio.create_task(work("quick", 0.01), name="discord-ui-view-dispatch-1")
    slow = asyncio.create_task(work("slow", 60), name="CommandTree-invoker")
    other = asyncio.create_task(work("other", 0.2), name="tablero-clock")  # not an interaction
    with caplog.at_level(logging.WARNING):
        await TableroBot._drain(None)  # type: ignore[arg-type]
    assert quick.done() and slow.done() and slow.cancelled()
    assert sorted(ended) == ["quick done", "slow cancelled"]
    assert "still at work after 0 s, cancelled: 1" in caplog.text
    assert not other.done()  # only the interactions' own tasks are waited for
    await other
