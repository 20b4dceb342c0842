"""One delivery at a time per key, and one waiting: a later one joins the one that waits.

A player's hand in a game is drawn from the game as it is when its delivery begins, so two
deliveries queued one behind the other would send the same newest hand twice (and a busy
DM channel allows 5 messages in 5 seconds). Here the later one joins the one still waiting,
its news added to it, and both end when that one is delivered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class _Waiting(Generic[T]):
    news: list[str]
    result: asyncio.Future[T] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class Coalescer(Generic[T]):
    """Runs ``work(news)`` for a key once at a time; calls made while one waits its turn
    join it (their news appended) and share its result."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}
        self._waiting: dict[Hashable, _Waiting[T]] = {}
        self.joined = 0  # calls that joined one already waiting

    async def run(self, key: Hashable, news: Sequence[str],
                  work: Callable[[list[str]], Awaitable[T]]) -> T:
        """``work`` with ``news`` and the news of every call that joins before it begins."""
        waiting = self._waiting.get(key)
        if waiting is not None:
            waiting.news.extend(news)
            self.joined += 1
            return await asyncio.shield(waiting.result)
        waiting = self._waiting[key] = _Waiting(list(news))
        # a failure nobody joined to hear of is not "never retrieved"
        waiting.result.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            async with self._locks.setdefault(key, asyncio.Lock()):
                if self._waiting.get(key) is waiting:
                    del self._waiting[key]  # begun: a later call waits for the next turn
                result = await work(waiting.news)
        except BaseException as exc:
            if self._waiting.get(key) is waiting:
                del self._waiting[key]
            if not waiting.result.done():
                if isinstance(exc, asyncio.CancelledError):
                    waiting.result.cancel()
                else:
                    waiting.result.set_exception(exc)
            raise
        waiting.result.set_result(result)
        return result
