"""Pacing the bot's own requests under Discord's rate limits, so that it never meets them.

Discord allows a bot 50 requests a second in all, whatever the route, and answers 429 past
that; discord.py learns of the limit only from such an answer. Interaction endpoints (an
interaction's response, its followups, the edits of its messages) are not bound by it.
Every other request the bot makes waits here, before it leaves, for room under the pace,
so a busy bot queues its outbox's edits and DMs for a moment instead of being refused.

A request counts from the moment it leaves until a whole window after its answer came
back. Discord counts it at some moment between the two, however unevenly requests travel
or however late the bot's event loop reads the answer: so if no more than the limit ever
count at once here, no window of Discord's holds more than the limit either. (Counting
only when requests leave, a busy moment let requests sent a little apart arrive together.)

Per-route buckets (a channel's 5 messages per 5 seconds, 3 edits per 6) are learned from
the answers' X-RateLimit-* headers and kept the same way, per bucket and channel: one
request at a time on a route until its first answer says its bucket. discord.py keeps its
own buckets too, but it lets a burst of concurrent requests past a bucket it has just
learned (its count of the remaining requests is read from answers already out of date).
"""

from __future__ import annotations

import asyncio
import heapq
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace
from typing import Any

import aiohttp

# Discord's global limit is 50 a second; the pace keeps a few requests of it spare for
# what the bot's other processes or tools may send with the same token.
DEFAULT_RATE = 45.0
WINDOW = 1.0
# Routes Discord does not count against the global limit (its rate-limit docs).
UNBOUND = ("/interactions/", "/webhooks/")
# A bucket's window as learned is rounded up to the millisecond its header is written in,
# and this much is added for Discord's own rounding.
BUCKET_MARGIN = 0.01
# The top-level resources Discord keys its route buckets by (its rate-limit docs).
_MAJOR = re.compile(r"/(channels|guilds)/(\d+)")
_ID = re.compile(r"/\d+")

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def bound_by_global(path: str) -> bool:
    """Whether a request to ``path`` (the URL's path) counts against the global limit."""
    return not any(part in path for part in UNBOUND)


class Window:
    """At most ``limit`` requests counted at once, each from when it leaves until ``window``
    seconds after its answer, in the order they asked."""

    def __init__(self, limit: int, window: float, clock: Clock = time.monotonic,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.limit = max(1, limit)
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self.in_flight = 0
        self._until: list[float] = []  # answered requests: when each stops counting (a heap)
        self._lock = asyncio.Lock()  # first come, first served
        self._answered = asyncio.Event()

    def counted(self) -> int:
        """Requests counted now: in flight, or answered less than a window ago."""
        now = self.clock()
        while self._until and self._until[0] <= now:
            heapq.heappop(self._until)
        return self.in_flight + len(self._until)

    async def take(self) -> bool:
        """Wait until one more request may leave, and count it; whether it had to wait."""
        waited = False
        async with self._lock:
            while self.counted() >= self.limit:
                waited = True
                if self._until:
                    await self.sleep(self._until[0] - self.clock())
                else:  # every place is a request in flight: wait for an answer, then its window
                    self._answered.clear()
                    await self._answered.wait()
            self.in_flight += 1
        return waited

    def idle(self) -> bool:
        """Nothing counted and nobody waiting."""
        return self.counted() == 0 and not self.waiting()

    def waiting(self) -> bool:
        """Whether a request waits for room."""
        return self._lock.locked()

    def done(self) -> None:
        """A request counted by ``take`` was answered (or failed): it counts a window more."""
        self.in_flight = max(0, self.in_flight - 1)
        heapq.heappush(self._until, self.clock() + self.window)
        self._answered.set()


class Routes:
    """Discord's per-route buckets as its answers told them, and a Window for each bucket
    and channel, so that no request meets a bucket already spent."""

    def __init__(self, clock: Clock = time.monotonic, sleep: Sleep = asyncio.sleep) -> None:
        self.clock = clock
        self.sleep = sleep
        self.bucket_of: dict[str, str] = {}  # route -> its bucket (X-RateLimit-Bucket)
        self.limits: dict[str, tuple[int, float]] = {}  # bucket -> (limit, window seconds)
        self.free: set[str] = set()  # routes answered without a bucket
        self.windows: dict[tuple[str, str], Window] = {}
        self.waited = 0  # requests that waited for their bucket

    @staticmethod
    def route(method: str, path: str) -> tuple[str, str] | None:
        """(the route without its ids, the channel or guild it is keyed by), or None for a
        route outside channels and guilds."""
        major = _MAJOR.search(path)
        if major is None:
            return None
        return f"{method} {_ID.sub('/{id}', path)}", major.group(2)

    def window(self, method: str, path: str) -> Window | None:
        """The Window a request to ``path`` waits in, or None when its route has no bucket."""
        found = self.route(method, path)
        if found is None or found[0] in self.free:
            return None
        route, major = found
        bucket = self.bucket_of.get(route, route)
        limit, window = self.limits.get(bucket, (1, 0.0))  # unknown: one at a time
        w = self.windows.get((bucket, major))
        if w is None:
            w = self.windows[(bucket, major)] = Window(limit, window, self.clock, self.sleep)
        w.limit, w.window = max(1, limit), window
        return w

    def learn(self, method: str, path: str, status: int, headers: Mapping[str, str]) -> None:
        """What an answer's headers say of its route's bucket."""
        found = self.route(method, path)
        if found is None:
            return
        route, major = found
        if "X-RateLimit-Limit" not in headers:
            if 200 <= status < 300:
                self.free.add(route)
            return
        self.free.discard(route)
        bucket = headers.get("X-RateLimit-Bucket") or route
        known = self.bucket_of.get(route, route)
        if known != bucket:
            self.bucket_of[route] = bucket
            old = self.windows.get((known, major))
            if old is not None:  # the requests counted before its bucket was known still count
                self.windows.setdefault((bucket, major), old)
        try:
            limit = int(headers["X-RateLimit-Limit"])
            after = float(headers.get("X-RateLimit-Reset-After") or 0.0)
        except ValueError:
            return
        # The first answer of a window says the whole window; later ones say what is left.
        window = max(self.limits.get(bucket, (0, 0.0))[1], math.ceil(after * 1000) / 1000 + BUCKET_MARGIN)
        self.limits[bucket] = (limit, window)
        w = self.windows.get((bucket, major))
        if w is not None:
            w.limit, w.window = max(1, limit), window

    def forget_idle(self) -> None:
        """Drop the windows of channels with nothing counted (a bot in thousands of DMs)."""
        for key in [k for k, w in self.windows.items() if w.idle()]:
            del self.windows[key]


class Pace:
    """The bot's pace: at most ``rate`` requests bound by the global limit counted in any
    ``WINDOW`` (see Window), and the routes' buckets kept (see Routes)."""

    def __init__(self, rate: float = DEFAULT_RATE, clock: Clock = time.monotonic,
                 sleep: Sleep = asyncio.sleep) -> None:
        self.per_window = max(1, int(rate * WINDOW))
        self.clock = clock
        self.sleep = sleep
        self.global_window = Window(self.per_window, WINDOW, clock, sleep)
        self.routes = Routes(clock, sleep)
        self.waited = 0  # requests that had to wait for room (a busy moment, not a fault)
        self._started = 0

    async def take(self) -> None:
        """Wait until one more request fits under the global pace, and count it (``done``
        when it is answered)."""
        if await self.global_window.take():
            self.waited += 1

    def done(self) -> None:
        """A request counted by ``take`` was answered."""
        self.global_window.done()

    async def hold(self, method: str, path: str) -> list[Window]:
        """Wait until a request to ``path`` may leave: its route's bucket, then the global
        pace if it is bound by it. The windows it is counted in (give each ``done``)."""
        held: list[Window] = []
        try:
            route = self.routes.window(method, path)
            if route is not None:
                if await route.take():
                    self.routes.waited += 1
                held.append(route)
            if bound_by_global(path):
                await self.take()
                held.append(self.global_window)
        except BaseException:
            for w in held:
                w.done()
            raise
        self._started += 1
        if self._started % 10_000 == 0:
            self.routes.forget_idle()
        return held

    def busy(self, share: float = 0.8) -> bool:
        """Whether the last window holds at least ``share`` of its room, or requests wait:
        a request that can go through an interaction's webhook instead had better."""
        w = self.global_window
        return w.waiting() or w.counted() >= share * w.limit

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace (discord.py's ``http_trace``) that holds each request until it
        may leave (its ``on_request_start`` is awaited before the request goes) and counts
        it until its answer comes, or it fails."""
        config = aiohttp.TraceConfig()

        async def start(session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams) -> None:
            held = await self.hold(params.method, params.url.path)
            if context is not None:
                context.held = held

        async def end(session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
            self.routes.learn(params.method, params.url.path, params.response.status, params.response.headers)
            release(context)

        async def failed(session: Any, context: SimpleNamespace,
                         params: aiohttp.TraceRequestExceptionParams) -> None:
            release(context)

        config.on_request_start.append(start)
        config.on_request_end.append(end)
        config.on_request_exception.append(failed)
        return config


def release(context: SimpleNamespace | None) -> None:
    """Mark a traced request's windows answered, once."""
    held = getattr(context, "held", None) or []
    if context is not None:
        context.held = []
    for w in held:
        w.done()


def share_of(rate: float, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's share of the bot's global pace: the processes of a sharded bot share
    one limit, each taking its part by the shards it runs."""
    if not shard_count or not shard_ids:
        return rate
    return rate * len(shard_ids) / shard_count
