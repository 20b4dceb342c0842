"""How late the event loop wakes: a move waits for its outcome to be its answer only while the
loop keeps time, since on a saturated loop the acknowledgement that ends the wait fires late
too (see docs/performance.md, "A server's load: a move answered by its outcome")."""

from __future__ import annotations

import asyncio
import time

# How often the gauge wakes, and how long a late wake-up counts against the loop.
EVERY = 0.02
REMEMBERED = 0.3


class LoopLag:
    """Wakes every ``EVERY`` seconds and keeps how late its latest wake-ups were: the worst of
    the last ``REMEMBERED`` seconds (``worst``). Before it starts, or stopped, the loop
    counts as on time."""

    def __init__(self, every: float = EVERY, remembered: float = REMEMBERED) -> None:
        self.every = every
        self.remembered = remembered
        self._lags: list[tuple[float, float]] = []  # (when, how late), oldest first
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start waking on the running loop (once per loop)."""
        loop = asyncio.get_running_loop()
        if self._task is None or self._task.done() or self._task.get_loop() is not loop:
            self._lags.clear()  # another loop's (a test's, say): not this one's
            self._task = loop.create_task(self._watch(), name="tablero-loop-lag")

    async def stop(self) -> None:
        """Stop waking; the loop counts as on time again."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
        self._lags.clear()

    def note(self, now: float, late: float) -> None:
        """Keep one wake-up ``late`` seconds late at ``now``; forget those past the window."""
        self._lags.append((now, late))
        while self._lags and self._lags[0][0] < now - self.remembered:
            self._lags.pop(0)

    def worst(self) -> float:
        """The latest wake-ups' worst lateness, in seconds (0 when none is kept)."""
        return max((late for _, late in self._lags), default=0.0)

    async def _watch(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(self.every)
            now = time.monotonic()
            self.note(now, max(0.0, now - asked - self.every))


# The bot's gauge (bot.py starts and stops it).
GAUGE = LoopLag()
