"""One of several processes sharing a database, run by the tests as ``python -m``.

``python -m tests.services.shard_worker clock DB TTL``: holds the "clock" lease when it can
and runs the turn clock's scheduler while it holds it, applying timeouts through the session
service (the AI plays the seat). Prints one line per event, flushed: ``owner NAME``,
``taken clock``, ``lost clock``, ``timeout GAME SEAT VERSION``, ``remind GAME SEAT N``.
"""

from __future__ import annotations

import asyncio
import sys

from services.clock import Scheduler, SystemClock
from services.leases import Leases
from services.session import SessionService
from storage import Store
from storage.deadlines import DeadlineRow


def say(*parts: object) -> None:
    """One event line on stdout, at once (the test reads it while we run)."""
    print(*parts, flush=True)


async def clock(db: str, ttl: float) -> None:
    """Run the clock while this process holds its lease, until killed."""
    store = await Store.open(db)
    service = SessionService(store, clock=SystemClock())
    service.shared = True

    async def remind(row: DeadlineRow) -> None:
        say("remind", row.game, row.seat, row.reminders)

    async def expire(row: DeadlineRow) -> bool:
        result = await service.timeout(row)
        if result is None:
            return False
        say("timeout", row.game, row.seat, result.state.version)
        return True

    scheduler = Scheduler(store, service.clock, remind, expire)
    service.on_deadlines = scheduler.poke
    scheduler.max_sleep = ttl  # deadlines are written by other processes
    leases = Leases(store, ttl=ttl)
    say("owner", leases.owner)

    async def taken() -> None:
        say("taken", "clock")
        scheduler.start()

    async def lost() -> None:
        say("lost", "clock")
        await scheduler.stop()

    leases.job("clock", taken, lost)
    leases.start()
    try:
        await asyncio.Event().wait()
    finally:
        await leases.stop()
        await store.close()


if __name__ == "__main__":
    mode, path, ttl_text = sys.argv[1:4]
    if mode != "clock":
        raise SystemExit(f"unknown mode {mode!r}")
    try:
        asyncio.run(clock(path, float(ttl_text)))
    except KeyboardInterrupt:
        pass
