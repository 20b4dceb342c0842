"""Pacing the bot's own requests under Discord's global rate limit, so that it never meets it.

Discord allows a bot 50 requests a second in all, whatever the route, and answers 429 past
that; discord.py learns of the limit only from such an answer. Interaction endpoints (an
interaction's response, its followups, the edits of its messages) are not bound by it. Every
other request the bot makes waits here, before it leaves, for room in a sliding window, so a
busy bot queues its outbox's edits and DMs for a moment instead of being refused. The pace
is a little under Discord's figure: requests leave and arrive at slightly different moments.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

# Discord's global limit is 50 a second; this leaves room for the time a request takes to
# reach Discord varying from one to the next (two sent 1.0 s apart may arrive 0.9 s apart).
DEFAULT_RATE = 45.0
WINDOW = 1.0
# Routes Discord does not count against the global limit (its rate-limit docs).
UNBOUND = ("/interactions/", "/webhooks/")


def bound_by_global(path: str) -> bool:
    """Whether a request to ``path`` (the URL's path) counts against the global limit."""
    return not any(part in path for part in UNBOUND)


class Pace:
    """At most ``rate`` requests in any ``WINDOW`` seconds, in the order they asked."""

    def __init__(self, rate: float = DEFAULT_RATE, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.per_window = max(1, int(rate * WINDOW))
        self.clock = clock
        self.sleep = sleep
        self._sent: collections.deque[float] = collections.deque()
        self._lock = asyncio.Lock()
        self.waited = 0  # requests that had to wait for room (a busy moment, not a fault)

    async def take(self) -> None:
        """Wait until one more request fits in the window, and count it."""
        async with self._lock:  # first come, first served
            while True:
                now = self.clock()
                while self._sent and now - self._sent[0] >= WINDOW:
                    self._sent.popleft()
                if len(self._sent) < self.per_window:
                    self._sent.append(now)
                    return
                self.waited += 1
                await self.sleep(self._sent[0] + WINDOW - now)

    def busy(self, share: float = 0.8) -> bool:
        """Whether the last window holds at least ``share`` of its room, or requests wait:
        a request that can go through an interaction's webhook instead had better."""
        now = self.clock()
        recent = sum(1 for sent in self._sent if now - sent < WINDOW)
        return self._lock.locked() or recent >= share * self.per_window

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace (discord.py's ``http_trace``) that holds each request bound by the
        global limit until it fits: its ``on_request_start`` is awaited before the request goes."""
        config = aiohttp.TraceConfig()

        async def start(session: Any, context: SimpleNamespace, params: aiohttp.TraceRequestStartParams) -> None:
            if bound_by_global(params.url.path):
                await self.take()

        config.on_request_start.append(start)
        return config


def share_of(rate: float, shard_count: int | None, shard_ids: tuple[int, ...] | None) -> float:
    """This process's share of the bot's global pace: the processes of a sharded bot share
    one limit, each taking its part by the shards it runs."""
    if not shard_count or not shard_ids:
        return rate
    return rate * len(shard_ids) / shard_count
