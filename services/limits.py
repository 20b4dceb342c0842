"""What keeps one member from tiring the bot for everyone: a per-user cooldown on the heavy
commands and a bound on the replays drawn at once.

Both live in the bot's process (a cooldown is a few seconds: nothing worth storing), and
both are per process: several processes on one database each keep their own. The caps on
open lobbies and threads are counted from the store instead (storage/settings.py).
Nothing here imports discord: the cogs turn these answers into refusals.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from storage.settings import OpenCounts

# The commands under a cooldown: each kind is counted apart, per user and server.
HEAVY = ("replay", "import", "new")
# Uses of one heavy command a member may make within the server's cooldown seconds.
BURST = 3
# Replays drawn at once by one process, and replays that may wait for their turn; one more
# than both is told the bot is busy (each one waiting keeps its interaction deferred).
REPLAYS_AT_ONCE = 2
REPLAYS_WAITING = 6
# Beyond this many remembered uses the ones whose cooldown is over are forgotten.
_PRUNE_AT = 10_000


class Busy(Exception):
    """Too many replays are being drawn or waiting: try again a little later."""


class CoolingDown(Exception):
    """The user ran this kind of command too recently; ``left``: seconds to wait."""

    def __init__(self, kind: str, left: float) -> None:
        super().__init__(f"{kind}: {left:.0f} s left")
        self.kind, self.left = kind, left


class Cooldowns:
    """When each user last ran each heavy command in each server, against a time source
    tests can move: at most BURST uses in any window of the server's cooldown seconds (a
    player may open a game again after abandoning one; a script may not open forty)."""

    def __init__(self, now: Callable[[], float]) -> None:
        """Count time with ``now`` (Unix seconds; the bot's clock)."""
        self.now = now
        self._uses: dict[tuple[str, int, int], deque[float]] = {}
        self._longest = 0.0

    def left(self, kind: str, guild_id: int, user_id: int, seconds: float) -> float:
        """Seconds ``user_id`` must still wait before running ``kind`` again (0: may run)."""
        uses = self._uses.get((kind, guild_id, user_id))
        if not uses or seconds <= 0 or len(uses) < BURST:
            return 0.0
        return max(0.0, uses[-BURST] + seconds - self.now())

    @asynccontextmanager
    async def use(self, kind: str, guild_id: int, user_id: int, seconds: float,
                  refund: tuple[type[BaseException], ...] = ()) -> AsyncIterator[None]:
        """Run ``kind`` for ``user_id``: CoolingDown if they ran it BURST times in the last
        ``seconds``; else the use counts from now (checked and noted at once, so that many
        commands sent together cannot all pass) and is taken back if the body raises one of
        ``refund`` (a refused command: the user may correct it and send it again at once)."""
        wait = self.left(kind, guild_id, user_id, seconds)
        if wait > 0:
            raise CoolingDown(kind, wait)
        key = (kind, guild_id, user_id)
        now = self.now()
        if seconds > 0:
            self._note(key, now, seconds)
        try:
            yield
        except refund:
            uses = self._uses.get(key)
            if uses and now in uses:
                uses.remove(now)
            raise

    def _note(self, key: tuple[str, int, int], now: float, seconds: float) -> None:
        self._longest = max(self._longest, seconds)
        if len(self._uses) >= _PRUNE_AT:
            # a bounded table: the users whose last use is out of every window are forgotten
            self._uses = {k: u for k, u in self._uses.items() if u and u[-1] + self._longest > now}
        self._uses.setdefault(key, deque(maxlen=BURST)).append(now)


class Gate:
    """At most ``running`` bodies at once, ``waiting`` more queued; Busy beyond that."""

    def __init__(self, running: int = REPLAYS_AT_ONCE, waiting: int = REPLAYS_WAITING) -> None:
        """A gate for ``running`` at once and ``waiting`` in line."""
        self.running, self.waiting = running, waiting
        self._slots = asyncio.Semaphore(running)
        self.inside = 0  # running or waiting now

    @asynccontextmanager
    async def enter(self) -> AsyncIterator[None]:
        """Run the body when a slot is free; Busy at once when the line is full."""
        if self.inside >= self.running + self.waiting:
            raise Busy
        self.inside += 1
        try:
            async with self._slots:
                yield
        finally:
            self.inside -= 1


class Openings:
    """Lobbies and threads being opened right now, not yet in the store: counted with the
    stored ones so that commands sent together cannot all pass a cap that each alone would
    see room under. A server's commands reach one process (its shard), so memory suffices."""

    def __init__(self) -> None:
        """Nothing being opened."""
        self._lobbies: dict[tuple[int, int | None], int] = {}
        self._threads: dict[tuple[int, int | None], int] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def counts(self, guild_id: int, user_id: int) -> OpenCounts:
        """What is being opened in the server, in all and by ``user_id``."""
        return OpenCounts(self._lobbies.get((guild_id, None), 0), self._lobbies.get((guild_id, user_id), 0),
                          self._threads.get((guild_id, None), 0), self._threads.get((guild_id, user_id), 0))

    @asynccontextmanager
    async def reserve(self, guild_id: int, user_id: int, thread: bool,
                      check: Callable[[OpenCounts], Awaitable[None]]) -> AsyncIterator[None]:
        """Open one lobby (in a new thread when ``thread``): ``check`` is given what is in
        flight and raises to refuse; the check and the reservation happen under the server's
        lock, the body (the opening itself) outside it."""
        lock = self._locks.setdefault(guild_id, asyncio.Lock())
        async with lock:
            await check(self.counts(guild_id, user_id))
            keys = [(guild_id, None), (guild_id, user_id)]
            tables = [self._lobbies, self._threads] if thread else [self._lobbies]
            for table in tables:
                for key in keys:
                    table[key] = table.get(key, 0) + 1
        try:
            yield
        finally:
            for table in tables:
                for key in keys:
                    table[key] -= 1
                    if not table[key]:
                        del table[key]
            if not lock.locked() and not any(k[0] == guild_id for k in self._lobbies):
                self._locks.pop(guild_id, None)


class Limits:
    """The bot's cooldowns, its replay gate and the lobbies being opened."""

    def __init__(self, now: Callable[[], float]) -> None:
        """Limits counting time with ``now``."""
        self.cooldowns = Cooldowns(now)
        self.replays = Gate()
        self.openings = Openings()
