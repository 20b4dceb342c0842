"""The turn clock under a burst: N deadlines falling due at the same moment.

N two-player Rey y Hierofante games with a 24 h clock wait on a player who never moves.
The clock jumps to half time (N reminders due at once), then past the deadline (N timeouts
due at once: the bot plays each silent seat's turn, commits it, and writes the next
deadline). Discord is left out (the reminder and the announcement are no-ops), so the
figures are the platform's own cost. Run:

    python bench/bench_clock.py [--games 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from services.clock import ManualClock, Scheduler
from services.session import SessionService
from storage import Store
from storage.deadlines import DeadlineRow

DAY = 86400.0


async def run(games: int) -> None:
    """Fill a store, then time the reminders and the timeouts of every game at once."""
    clock = ManualClock()
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db", synchronous="NORMAL")
        service = SessionService(store, seed_source=lambda: 77, clock=clock)
        t0 = time.perf_counter()
        for i in range(games):
            g = await service.create(guild_id=1, channel_id=10_000 + i, game_id="rey_hierofante",
                                     options={}, host_id=100 + i, host_name="Ana", locale="es",
                                     clock_seconds=int(DAY))
            await service.join(g.id, user_id=200_000 + i, name="Bruno", locale="es")
            await service.start(g.id, by=100 + i)
            service.forget(g.id)  # a bot that just started holds nothing in memory
        print(f"setup: {games} games with a pending deadline in {time.perf_counter() - t0:.1f} s")

        reminded = 0

        async def remind(row: DeadlineRow) -> None:
            nonlocal reminded
            reminded += 1

        async def expire(row: DeadlineRow) -> bool:
            return await service.timeout(row) is not None

        scheduler = Scheduler(store, clock, remind, expire)
        clock.advance(DAY / 2)
        t0 = time.perf_counter()
        done = await scheduler.tick()
        dt = time.perf_counter() - t0
        print(f"{done.reminders} reminders due at once: {dt:.2f} s "
              f"({dt / max(1, done.reminders) * 1e3:.3f} ms each)")
        clock.advance(DAY / 2 - 2 * 3600 + 1)
        await scheduler.tick()  # the second reminders
        clock.advance(2 * 3600)
        t0 = time.perf_counter()
        done = await scheduler.tick()
        dt = time.perf_counter() - t0
        print(f"{done.timeouts} timeouts due at once (bot moves, commits, next deadlines): {dt:.2f} s "
              f"({dt / max(1, done.timeouts) * 1e3:.3f} ms each, {done.timeouts / dt:.0f} per second)")
        left = await store.due_deadlines(clock.now(), 10)
        print(f"due deadlines left afterwards: {len(left)}; a second pass fires "
              f"{(await scheduler.tick()).timeouts} more")
        await store.close()


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    asyncio.run(run(args.games))


if __name__ == "__main__":
    main()
