"""The turn clock: time sources, when reminders and timeouts fall, and the scheduler.

Deadlines live in the store (one row per pending human seat of a clocked game), written in
the same transaction as the move that made the seat pending; the scheduler wakes for the
nearest one. Everything here speaks to games only through the session service.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Protocol

from storage.deadlines import DeadlineRow
from storage.outbox import ChangeNote

log = logging.getLogger("tablero.clock")

# The clocks /game new and /config offer, in seconds.
CLOCKS: dict[str, int | None] = {
    "off": None,
    "12h": 12 * 3600,
    "24h": 24 * 3600,
    "48h": 48 * 3600,
    "72h": 72 * 3600,
    "7d": 7 * 24 * 3600,
}
# The second reminder comes this long before the end at the latest (one twelfth of the
# clock when that is shorter): "shortly before" whatever the clock.
LAST_CALL = 2 * 3600
# Vacation: days a user may take in one calendar year, and at most at once.
VACATION_DAYS_PER_YEAR = 30
VACATION_MAX_AT_ONCE = 30
# Due rows handled per batch: a burst of many due deadlines is worked through in slices
# so that one huge read never holds the store.
BATCH = 500


class Clock(Protocol):
    """A time source: Unix seconds now. Tests inject a ManualClock."""

    def now(self) -> float: ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        """Unix seconds now."""
        return time.time()


class ManualClock:
    """A clock that moves only when told: tests advance it instead of sleeping."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start

    def now(self) -> float:
        """The current fake time."""
        return self.t

    def advance(self, seconds: float) -> float:
        """Move the time forward and return the new time."""
        self.t += seconds
        return self.t


def clock_name(seconds: int | None) -> str:
    """The menu name of a clock length ("24h", "off"...), or its hours when unusual."""
    for name, value in CLOCKS.items():
        if value == seconds:
            return name
    return f"{(seconds or 0) / 3600:g}h"


def reminder_times(row: DeadlineRow) -> tuple[float, float]:
    """When the two reminders of a wait fall: at half the time, and shortly before the end."""
    length = row.due_at - row.started_at
    first = row.started_at + length / 2
    second = row.due_at - min(length / 12, LAST_CALL)
    return first, max(first, second)


def next_at(row: DeadlineRow) -> float:
    """When the scheduler must next look at ``row`` (its next reminder, else its end)."""
    first, second = reminder_times(row)
    if row.reminders == 0:
        return first
    if row.reminders == 1:
        return second
    return row.due_at


def new_wait(game: int, seat: int, user_id: int, now: float, length: float,
             vacation_until: float | None = None) -> DeadlineRow:
    """A fresh deadline for a seat that has just become pending (paused on vacation)."""
    if vacation_until is not None and vacation_until > now:
        return DeadlineRow(game=game, seat=seat, user_id=user_id, started_at=now,
                           due_at=vacation_until + length, paused_left=length, next_at=vacation_until)
    row = DeadlineRow(game=game, seat=seat, user_id=user_id, started_at=now, due_at=now + length)
    return replace(row, next_at=next_at(row))


def pause(row: DeadlineRow, now: float, until: float) -> DeadlineRow:
    """``row`` with its clock stopped until ``until`` (a vacation)."""
    left = row.paused_left if row.paused else max(0.0, row.due_at - now)
    length = row.due_at - row.started_at
    # The wait keeps its length (the reminders keep their meaning) and slides with the end.
    due = until + (left or 0.0)
    return replace(row, paused_left=left, next_at=until, due_at=due, started_at=due - length)


def resume(row: DeadlineRow, now: float) -> DeadlineRow:
    """``row`` running again from ``now`` with the time it had left; the reminders it
    already had stay sent."""
    left = row.paused_left or 0.0
    length = row.due_at - row.started_at
    due = now + left
    moved = replace(row, paused_left=None, started_at=due - length, due_at=due)
    return replace(moved, next_at=max(now, next_at(moved)))


@dataclass
class Tick:
    """What one pass of the scheduler did."""

    reminders: int = 0
    timeouts: int = 0
    resumed: int = 0
    stale: int = 0


Reminder = Callable[[DeadlineRow], Awaitable[None]]
Timeout = Callable[[DeadlineRow], Awaitable[bool]]


class Scheduler:
    """Wakes for the nearest deadline: sends reminders, resumes vacations, applies timeouts.

    ``remind`` tells a player (a DM with the usual fallback); ``expire`` applies the
    server's timeout action through the session service and tells Discord, returning
    False when the wait turned out to be over already. Each row is claimed by a
    compare-and-set on its ``next_at`` (reminders, resumes) or by the commit of the timeout
    move itself, so nothing fires twice, after a restart either.
    """

    def __init__(self, store: object, clock: Clock, remind: Reminder, expire: Timeout) -> None:
        self.store = store
        self.clock = clock
        self.remind = remind
        self.expire = expire
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # The longest sleep between looks at the table: deadlines written by other processes
        # (several shard processes on one database) are seen within this time.
        self.max_sleep = 3600.0

    def poke(self) -> None:
        """Something changed (a new, maybe nearer, deadline): look again now."""
        self._wake.set()

    async def tick(self) -> Tick:
        """Handle every deadline due at the clock's current time."""
        done = Tick()
        while True:
            now = self.clock.now()
            rows = await self.store.due_deadlines(now, BATCH)  # type: ignore[attr-defined]
            if not rows:
                return done
            progressed = False
            for row in rows:
                try:
                    kind = await self._handle(row, now)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("game %s seat %s: deadline failed", row.game, row.seat)
                    # Look again in a minute rather than spinning on a broken row.
                    await self.store.update_deadline(  # type: ignore[attr-defined]
                        replace(row, next_at=now + 60), row)
                    continue
                setattr(done, kind, getattr(done, kind) + 1)
                # A row someone else changed first is not progress: if all of a batch
                # were, looking again would find them again.
                progressed = progressed or kind != "stale"
            if not progressed:
                return done

    async def _handle(self, row: DeadlineRow, now: float) -> str:
        if row.paused:
            settings = await self.store.user_settings(row.user_id)  # type: ignore[attr-defined]
            until = settings.vacation_until
            new = pause(row, now, until) if until is not None and until > now else resume(row, now)
            ok = await self.store.update_deadline(new, row)  # type: ignore[attr-defined]
            return "resumed" if ok else "stale"
        if row.due_at <= now:
            return "timeouts" if await self.expire(row) else "stale"
        new = replace(row, reminders=row.reminders + 1)
        new = replace(new, next_at=next_at(new))
        # Claimed with its outbox row, then sent: after a crash in between the outbox
        # delivers it (once), and the claim keeps it from being claimed twice.
        owed = ChangeNote({"remind": {"seat": new.seat, "user_id": new.user_id, "due_at": new.due_at,
                                      "n": new.reminders}})
        if not await self.store.update_deadline(new, row, change=owed):  # type: ignore[attr-defined]
            return "stale"
        await self.remind(new)
        return "reminders"

    # -- running ----------------------------------------------------------------------

    def start(self) -> None:
        """Run the scheduler in the background until stop()."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="tablero-clock")

    async def stop(self) -> None:
        """Stop the background scheduler."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                self._wake.clear()
                await self.tick()
                nxt = await self.store.next_deadline_at()  # type: ignore[attr-defined]
                delay = self.max_sleep if nxt is None else max(0.0, nxt - self.clock.now())
                # Wake at the nearest deadline, when poked, and at least every max_sleep (a
                # clock jump or a row written by another process is seen by then).
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=min(delay, self.max_sleep) + 0.01)
                except TimeoutError:
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the clock's scheduler failed; retrying in a minute")
                await asyncio.sleep(60)


def year_of(ts: float) -> int:
    """The calendar year (UTC) of a Unix time, for the yearly vacation allowance."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).year
