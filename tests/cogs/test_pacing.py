"""The bot's pace under Discord's rate limits (cogs/common/pacing.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

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


async def test_no_second_holds_more_than_the_pace_wherever_discord_counts_it() -> None:
    clock = Clock()
    pace = Pace(rate=5, clock=clock, sleep=clock.sleep)
    spans: list[tuple[float, float]] = []  # (left, answered): Discord counts it in between
    for k in range(23):
        await pace.take()
        left = clock.now
        clock.now += 0.05 + 0.2 * (k % 3)  # answers that take unevenly long
        pace.done()
        spans.append((left, clock.now))
        clock.now += 0.01
    for counted_at in (0, 1):  # as if Discord counted each on leaving, or on answering
        moments = sorted(span[counted_at] for span in spans)
        for first in moments:
            assert sum(1 for t in moments if first <= t < first + 1.0) <= 5
    assert pace.waited > 0


async def test_a_request_in_flight_keeps_its_place_until_answered() -> None:
    clock = Clock()
    pace = Pace(rate=2, clock=clock, sleep=clock.sleep)
    await pace.take()
    await pace.take()
    third = asyncio.create_task(pace.take())
    await asyncio.sleep(0)
    clock.now += 5.0  # long after a second: both still unanswered, so still counted
    await asyncio.sleep(0)
    assert not third.done()
    pace.done()  # answered now: its place comes back a second later
    await asyncio.wait_for(third, 1)
    assert clock.slept == [pytest.approx(1.0)]


async def test_the_pace_is_busy_near_its_room_and_free_a_window_after() -> None:
    clock = Clock()
    pace = Pace(rate=5, clock=clock, sleep=clock.sleep)
    for _ in range(3):
        await pace.take()
    assert not pace.busy()  # 3 of 5 counted
    await pace.take()
    assert pace.busy()  # 4 of 5: a request that can go another way had better
    for _ in range(4):
        pace.done()
    clock.now += 1.01  # a window after the answers they no longer count
    assert not pace.busy()


async def test_requests_wait_in_the_order_they_came() -> None:
    clock = Clock()
    pace = Pace(rate=2, clock=clock, sleep=clock.sleep)
    order: list[int] = []

    async def one(k: int) -> None:
        await pace.take()
        order.append(k)
        await asyncio.sleep(0)
        pace.done()

    await asyncio.gather(*(one(k) for k in range(6)))
    assert order == list(range(6))


def test_interaction_endpoints_are_not_paced() -> None:
    assert not bound_by_global("/api/v10/interactions/1/abc/callback")
    assert not bound_by_global("/api/v10/webhooks/1/abc/messages/@original")
    assert bound_by_global("/api/v10/channels/1/messages")
    assert bound_by_global("/api/v10/users/@me/channels")


def start_params(method: str, path: str) -> aiohttp.TraceRequestStartParams:
    """What aiohttp tells a trace when a request to ``path`` starts."""
    return aiohttp.TraceRequestStartParams(method, URL(f"https://discord.com{path}"), {})  # type: ignore[arg-type]


def end_params(method: str, path: str, status: int = 200,
               headers: dict[str, str] | None = None) -> aiohttp.TraceRequestEndParams:
    """What aiohttp tells a trace when the request's answer came."""
    response = SimpleNamespace(status=status, headers=headers or {})
    return aiohttp.TraceRequestEndParams(method, URL(f"https://discord.com{path}"), {}, response)  # type: ignore[arg-type]


async def test_the_trace_holds_only_requests_bound_by_the_global_limit() -> None:
    clock = Clock()
    pace = Pace(rate=1, clock=clock, sleep=clock.sleep)
    trace = pace.trace()
    start, end = trace.on_request_start[0], trace.on_request_end[0]
    first = SimpleNamespace()
    await start(None, first, start_params("GET", "/api/v10/users/@me"))
    for _ in range(3):
        await start(None, SimpleNamespace(), start_params("POST", "/api/v10/interactions/1/tok/callback"))
    waiting = asyncio.create_task(start(None, SimpleNamespace(), start_params("GET", "/api/v10/users/@me")))
    await asyncio.sleep(0)
    assert clock.slept == [] and not waiting.done()  # the interaction's answers did not wait
    await end(None, first, end_params("GET", "/api/v10/users/@me"))
    await asyncio.wait_for(waiting, 1)
    assert clock.slept == [pytest.approx(1.0)]


async def test_a_channels_bucket_is_learned_and_never_overrun() -> None:
    clock = Clock()
    pace = Pace(rate=50, clock=clock, sleep=clock.sleep)
    trace = pace.trace()
    start, end = trace.on_request_start[0], trace.on_request_end[0]
    dm, other = "/api/v10/channels/7/messages", "/api/v10/channels/8/messages"
    bucket = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "4", "X-RateLimit-Reset-After": "5.0",
              "X-RateLimit-Bucket": "abc"}
    # Before its first answer the route's bucket is unknown: one request at a time.
    one = SimpleNamespace()
    await start(None, one, start_params("POST", dm))
    second = asyncio.create_task(start(None, SimpleNamespace(), start_params("POST", dm)))
    await asyncio.sleep(0)
    assert not second.done()
    await start(None, SimpleNamespace(), start_params("POST", other))  # another channel: its own
    await end(None, one, end_params("POST", dm, headers=bucket))
    await asyncio.wait_for(second, 1)
    # Learned: 5 in any 5 s on this channel, each counted until 5 s after its answer.
    left = [clock.now]
    for _ in range(8):
        ctx = SimpleNamespace()
        await start(None, ctx, start_params("POST", dm))
        left.append(clock.now)
        await end(None, ctx, end_params("POST", dm, headers=bucket))
    for first in left:
        assert sum(1 for t in left if first <= t < first + 5.0) <= 5
    assert pace.routes.waited > 0


async def test_a_route_without_a_bucket_is_not_held() -> None:
    clock = Clock()
    pace = Pace(rate=50, clock=clock, sleep=clock.sleep)
    trace = pace.trace()
    start, end = trace.on_request_start[0], trace.on_request_end[0]
    history = "/api/v10/channels/7/messages"
    ctx = SimpleNamespace()
    await start(None, ctx, start_params("GET", history))
    await end(None, ctx, end_params("GET", history))  # answered without X-RateLimit-* headers
    await asyncio.gather(*(start(None, SimpleNamespace(), start_params("GET", history)) for _ in range(10)))
    assert clock.slept == [] and pace.routes.waited == 0


async def test_a_request_given_up_while_waiting_gives_its_places_back() -> None:
    clock = Clock()
    pace = Pace(rate=1, clock=clock, sleep=clock.sleep)
    start, failed = pace.trace().on_request_start[0], pace.trace().on_request_exception[0]
    ctx = SimpleNamespace()
    await start(None, ctx, start_params("GET", "/api/v10/users/@me"))
    waiting = asyncio.create_task(start(None, SimpleNamespace(), start_params("GET", "/api/v10/channels/3")))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    route = next(iter(pace.routes.windows.values()))
    assert route.in_flight == 0  # its route's place, taken before it waited, was given back
    assert pace.global_window.in_flight == 1  # the first request, not it
    await failed(None, ctx, None)  # the first one failed: its place counts a window more
    assert pace.global_window.in_flight == 0 and pace.global_window.counted() == 1


def test_sharded_processes_share_the_pace() -> None:
    assert share_of(45, None, None) == 45
    assert share_of(45, 4, (0, 1)) == 22.5


def test_the_pace_is_a_setting() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}).global_rate == DEFAULT_RATE
    assert Settings.from_env({"DISCORD_TOKEN": "abc", "TABLERO_GLOBAL_RATE": "30"}).global_rate == 30
    for bad in ("fast", "0", "51"):
        with pytest.raises(SettingsError, match="TABLERO_GLOBAL_RATE"):
            Settings.from_env({"DISCORD_TOKEN": "abc", "TABLERO_GLOBAL_RATE": bad})
