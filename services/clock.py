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

from services.clock_time import (
    end_after,
    hours_from_spec,
    quiet_end,
    quiet_reminders,
    running_between,
)
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
# Timeouts of different games handled at once: enough for their commits to share
# transactions (each transaction is a trip to the database's thread and a sync to disk: on
# a busy machine the trips, not the work, made a burst long; 32 at once make a quarter of
# the transactions 8 did) and keep the AI's worker processes busy; 64 gave 10,000 deadlines
# in 4.66 to 4.96 s where 32 took 5.12 to 5.36 s on two cores, a player's move committed
# meanwhile still within 92 ms (docs/performance.md). What they owe Discord waits for the
# bot's pace (cogs/common/pacing.py) in the order it came; a player's own answers are not
# held by it.
SIDE_BY_SIDE = 64


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
    """When the two reminders of a wait fall: at half the time, and shortly before the end
    (counted in the player's playing hours when they have quiet ones)."""
    if row.hours:
        return quiet_reminders(hours_from_spec(row.hours), row.started_at, row.due_at, LAST_CALL)
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
             vacation_until: float | None = None, hours: str | None = None) -> DeadlineRow:
    """A fresh deadline for a seat that has just become pending (paused on vacation);
    ``hours``: the player's playing hours (``PlayingHours.spec``), whose quiet hours the
    ``length`` seconds do not count."""
    quiet = hours_from_spec(hours)
    if vacation_until is not None and vacation_until > now:
        return DeadlineRow(game=game, seat=seat, user_id=user_id, started_at=now,
                           due_at=end_after(quiet, vacation_until, length), paused_left=length,
                           next_at=vacation_until, hours=hours)
    row = DeadlineRow(game=game, seat=seat, user_id=user_id, started_at=now,
                      due_at=end_after(quiet, now, length), hours=hours)
    return replace(row, next_at=next_at(row))


def pause(row: DeadlineRow, now: float, until: float) -> DeadlineRow:
    """``row`` with its clock stopped until ``until`` (a vacation)."""
    quiet = hours_from_spec(row.hours)
    left = row.paused_left if row.paused else running_between(quiet, now, row.due_at)
    length = row.due_at - row.started_at
    # The wait keeps its length (the reminders keep their meaning) and slides with the end.
    due = end_after(quiet, until, left or 0.0)
    return replace(row, paused_left=left, next_at=until, due_at=due, started_at=due - length)


def resume(row: DeadlineRow, now: float) -> DeadlineRow:
    """``row`` running again from ``now`` with the time it had left; the reminders it
    already had stay sent."""
    left = row.paused_left or 0.0
    length = row.due_at - row.started_at
    due = end_after(hours_from_spec(row.hours), now, left)
    moved = replace(row, paused_left=None, started_at=due - length, due_at=due)
    return replace(moved, next_at=max(now, next_at(moved)))


def by_user(rows: list[DeadlineRow]) -> dict[int, list[DeadlineRow]]:
    """``rows`` grouped by player, in order: the waits one reminder tells a player about."""
    groups: dict[int, list[DeadlineRow]] = {}
    for row in rows:
        groups.setdefault(row.user_id, []).append(row)
    return groups


def reminders_owed(claimed: list[DeadlineRow]) -> list[tuple[int, ChangeNote]]:
    """What claimed reminders owe, one change per player, written on their first game: its
    own reminder ("remind"), and the player's other games that fell due with it ("also")."""
    owed: list[tuple[int, ChangeNote]] = []
    for group in by_user(claimed).values():
        entries = [{"game": r.game, "seat": r.seat, "user_id": r.user_id, "due_at": r.due_at,
                    "n": r.reminders} for r in group]
        payload: dict[str, object] = {"remind": entries[0]}
        if len(entries) > 1:
            payload["also"] = entries[1:]
        owed.append((group[0].game, ChangeNote(payload)))
    return owed


@dataclass
class Tick:
    """What one pass of the scheduler did."""

    reminders: int = 0
    timeouts: int = 0
    resumed: int = 0
    stale: int = 0
    postponed: int = 0  # reminders overdue in their player's quiet hours, moved to their end


Reminder = Callable[[DeadlineRow], Awaitable[None]]
Timeout = Callable[[DeadlineRow], Awaitable[bool]]
Prepare = Callable[[list[DeadlineRow]], Awaitable[None]]


class Scheduler:
    """Wakes for the nearest deadline: sends reminders, resumes vacations, applies timeouts.

    Due rows are worked through in batches: a batch's reminders are claimed in one
    transaction, one per player however many of their games fell due together; its
    timeouts run side by side (see ``tick``). ``remind`` delivers a player's claimed
    reminder (its outbox change lists all their games: a DM with the usual fallback);
    ``expire`` applies the server's timeout action through the session service and tells
    Discord, returning False when the wait turned out to be over already. Each row is claimed by a
    compare-and-set on its ``next_at`` (reminders, resumes) or by the commit of the timeout
    move itself, so nothing fires twice, after a restart either.
    """

    def __init__(self, store: object, clock: Clock, remind: Reminder, expire: Timeout, *,
                 prepare: Prepare | None = None) -> None:
        self.store = store
        self.clock = clock
        self.remind = remind
        self.expire = expire
        # Told a batch's timeouts before they run (the session service loads their games
        # in two reads rather than two each).
        self.prepare = prepare
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # The longest sleep between looks at the table: deadlines written by other processes
        # (several shard processes on one database) are seen within this time.
        self.max_sleep = 3600.0

    def poke(self) -> None:
        """Something changed (a new, maybe nearer, deadline): look again now."""
        self._wake.set()

    async def tick(self) -> Tick:
        """Handle every deadline due at the clock's current time, a batch at a time."""
        done = Tick()
        # The timeouts of different games run side by side: their bot moves are chosen in
        # worker processes, their commits share transactions (group commit), and a player's
        # command in any other game gets its turn on the event loop meanwhile. Bounded, so
        # the burst's Discord traffic goes out at the outbox's pace.
        slots = asyncio.Semaphore(SIDE_BY_SIDE)

        async def expire(row: DeadlineRow) -> str:
            async with slots:
                return "timeouts" if await self.expire(row) else "stale"

        while True:
            now = self.clock.now()
            rows = await self.store.due_deadlines(now, BATCH)  # type: ignore[attr-defined]
            if not rows:
                return done
            before = done.reminders + done.timeouts + done.resumed + done.postponed
            for row in (r for r in rows if r.paused):
                await self._guarded(row, now, done, self._resume)
            reminding = await self._quiet_later([r for r in rows if not r.paused and r.due_at > now], now, done)
            await self._remind_batch(reminding, done)
            timeouts = [r for r in rows if not r.paused and r.due_at <= now]
            if timeouts and self.prepare is not None:
                try:
                    await self.prepare(timeouts)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("preparing %d timeouts failed; each loads its own game", len(timeouts))
            await asyncio.gather(*(self._guarded(row, now, done, expire) for row in timeouts))
            # A row someone else changed first is not progress: if all of a batch were,
            # looking again would find them again.
            if done.reminders + done.timeouts + done.resumed + done.postponed == before:
                return done

    async def _guarded(self, row: DeadlineRow, now: float, done: Tick,
                       handle: Callable[[DeadlineRow], Awaitable[str]]) -> None:
        """Handle one due row and count it; a row that fails is looked at again in a minute."""
        try:
            kind = await handle(row)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s seat %s: deadline failed", row.game, row.seat)
            # Look again in a minute rather than spinning on a broken row.
            await self.store.update_deadline(replace(row, next_at=now + 60), row)  # type: ignore[attr-defined]
            return
        setattr(done, kind, getattr(done, kind) + 1)

    async def _resume(self, row: DeadlineRow) -> str:
        """A wait paused for a vacation: paused on if the vacation goes on, else resumed."""
        now = self.clock.now()
        settings = await self.store.user_settings(row.user_id)  # type: ignore[attr-defined]
        until = settings.vacation_until
        new = pause(row, now, until) if until is not None and until > now else resume(row, now)
        ok = await self.store.update_deadline(new, row)  # type: ignore[attr-defined]
        return "resumed" if ok else "stale"

    async def _quiet_later(self, rows: list[DeadlineRow], now: float, done: Tick) -> list[DeadlineRow]:
        """The reminders of ``rows`` to send now; one overdue in its player's quiet hours
        (the bot was down when it fell due) is moved to their end instead."""
        now_rows = []
        for row in rows:
            end = quiet_end(row.hours, now)
            if end is None:
                now_rows.append(row)
            elif await self.store.update_deadline(replace(row, next_at=min(end, row.due_at)), row):  # type: ignore[attr-defined]
                done.postponed += 1
        return now_rows

    async def _remind_batch(self, rows: list[DeadlineRow], done: Tick) -> None:
        """Claim every due reminder of the batch in one transaction, with what each player is
        owed: one reminder per player, listing every game of theirs that fell due together.
        Claimed with its outbox row, then sent: after a crash in between the outbox
        delivers it (once), and the claim keeps it from being claimed twice."""
        if not rows:
            return
        claims = []
        for row in rows:
            new = replace(row, reminders=row.reminders + 1)
            claims.append((replace(new, next_at=next_at(new)), row))
        try:
            claimed = await self.store.claim_deadlines(claims, reminders_owed)  # type: ignore[attr-defined]
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("claiming %d reminders failed; trying one by one", len(rows))
            claimed = []
            for new, row in claims:
                if await self.store.update_deadline(new, row, change=reminders_owed([new])[0][1]):  # type: ignore[attr-defined]
                    claimed.append(new)
        done.reminders += len(claimed)
        done.stale += len(rows) - len(claimed)
        for group in by_user(claimed).values():
            try:
                await self.remind(group[0])
            except asyncio.CancelledError:
                raise
            except Exception:
                # Owed in the outbox: a later drain delivers it.
                log.exception("game %s seat %s: reminder failed", group[0].game, group[0].seat)

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
