"""The bot's pace under Discord's global rate limit (cogs/common/pacing.py)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from yarl import URL

from bot import Settings, SettingsError
from cogs.common.pacing import DEFAULT_RATE, Pace, bound_by_global, share_of


class Clock:
    """Time that moves only when the pace sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_no_window_of_a_second_holds_more_than_the_pace() -> None:
    clock = Clock()
    pace = Pace(rate=5, clock=clock, sleep=clock.sleep)
    sent: list[float] = []
    for _ in range(23):
        await pace.take()
        sent.append(clock.now)
        clock.now += 0.01  # requests asked for close together
    for first in sent:
        assert sum(1 for t in sent if first <= t < first + 1.0) <= 5
    assert pace.waited == 4 and len(clock.slept) == 4  # the 6th, 11th, 16th and 21st waited
    # room comes back as the window slides: the 6th went exactly a second after the 1st
    assert sent[5] == pytest.approx(sent[0] + 1.0)


async def test_requests_wait_in_the_order_they_came() -> None:
    clock = Clock()
    pace = Pace(rate=2, clock=clock, sleep=clock.sleep)
    order: list[int] = []

    async def one(k: int) -> None:
        await pace.take()
        order.append(k)

    await asyncio.gather(*(one(k) for k in range(6)))
    assert order == list(range(6))


def test_interaction_endpoints_are_not_paced() -> None:
    assert not bound_by_global("/api/v10/interactions/1/abc/callback")
    assert not bound_by_global("/api/v10/webhooks/1/abc/messages/@original")
    assert bound_by_global("/api/v10/channels/1/messages")
    assert bound_by_global("/api/v10/users/@me/channels")


async def test_the_trace_holds_only_requests_bound_by_the_global_limit() -> None:
    clock = Clock()
    pace = Pace(rate=1, clock=clock, sleep=clock.sleep)
    start = pace.trace().on_request_start[0]

    def params(path: str) -> aiohttp.TraceRequestStartParams:
        return aiohttp.TraceRequestStartParams("POST", URL(f"https://discord.com{path}"), {})  # type: ignore[arg-type]

    await start(None, None, params("/api/v10/channels/1/messages"))
    for _ in range(3):
        await start(None, None, params("/api/v10/interactions/1/tok/callback"))
    assert clock.slept == []  # the interaction's answers did not wait for the one request
    await start(None, None, params("/api/v10/channels/1/messages"))
    assert clock.slept == [pytest.approx(1.0)]


def test_sharded_processes_share_the_pace() -> None:
    assert share_of(45, None, None) == 45
    assert share_of(45, 4, (0, 1)) == 22.5


def test_the_pace_is_a_setting() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}).global_rate == DEFAULT_RATE
    assert Settings.from_env({"DISCORD_TOKEN": "abc", "TABLERO_GLOBAL_RATE": "30"}).global_rate == 30
    for bad in ("fast", "0", "51"):
        with pytest.raises(SettingsError, match="TABLERO_GLOBAL_RATE"):
            Settings.from_env({"DISCORD_TOKEN": "abc", "TABLERO_GLOBAL_RATE": bad})
