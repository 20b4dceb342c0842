"""The turn clock under a burst: N deadlines falling due at the same moment, half of them
reminders and half timeouts, while a player moves in another game.

N/2 two-player Rey y Hierofante games with a 24 h clock wait on a player who never moves;
N/2 more start twelve hours later. At the 24th hour the first half's waits run out (the
bot plays each silent seat's turn, commits it and writes the next deadline) and the second
half's first reminders fall due: N deadlines at once. Meanwhile two players of a game
without a clock take turns, a move every 50 ms: how long each waits for its move to be
committed (what the bot acknowledges), and how late the event loop wakes a 10 ms sleep.
Discord is left out (the reminder and the announcement are no-ops), so the figures are the
platform's own cost.

Runs on the same burst: as the clock used to work (one deadline at a time, the bot's moves
chosen on the event loop: ``SIDE_BY_SIDE = 1``), then in batches (reminders claimed
together, timeouts side by side with their commits grouped), the bot's moves chosen on the
event loop and then in ``--workers`` worker processes (0: that run is left out). Run:

    python bench/bench_clock.py [--games 10000] [--workers 2] [--only batched|before|workers]
                                [--profile FILE] [--side-by-side N]

``--profile FILE`` runs the burst itself (not the setup) under cProfile and writes each
run's figures to FILE.<run> (read them with ``python -m pstats``).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.pictures.pool import PicturePool  # noqa: E402
from services import clock as clock_module  # noqa: E402
from services.ai_choice import Chooser  # noqa: E402
from services.clock import ManualClock, Scheduler  # noqa: E402
from services.session import SessionService  # noqa: E402
from storage import Store  # noqa: E402
from storage.deadlines import DeadlineRow  # noqa: E402

DAY = 86400.0
HOUR = 3600.0
SIDE_BY_SIDE = clock_module.SIDE_BY_SIDE
# The store's sync level: the bot's own (FULL: every commit synced to disk) unless told.
SYNCHRONOUS = "FULL"
# Where the burst's profile is written (--profile), None: not profiled.
PROFILE: str | None = None


async def _new_game(service: SessionService, i: int, clock_seconds: int | None) -> int:
    g = await service.create(guild_id=1, channel_id=10_000 + i, game_id="rey_hierofante",
                             options={}, host_id=100 + i, host_name="Ana", locale="es",
                             clock_seconds=clock_seconds)
    await service.join(g.id, user_id=200_000 + i, name="Bruno", locale="es")
    await service.start(g.id, by=100 + i)
    service.forget(g.id)  # a bot that just started holds nothing in memory
    return g.id


class Probe:
    """A player's moves in a game of their own during the burst, and the event loop's lag."""

    def __init__(self, service: SessionService, game: int, number: int) -> None:
        self.service = service
        self.game = game
        self.number = number  # a game's number among the bench's (its channel and players)
        self.moves: list[float] = []
        self.lags: list[float] = []
        self.stop = False

    async def play(self) -> None:
        """A move every 50 ms (whoever's turn it is), each timed until committed."""
        while not self.stop:
            g = await self.service.require(self.game)
            if g.state is None or g.state.finished:
                self.number += 1  # over: the same players start another
                self.game = await _new_game(self.service, self.number, None)
                continue
            seat = next(iter(g.pending()))
            action = g.legal_actions(seat)[0]
            t0 = time.perf_counter()
            await self.service.move(self.game, g.seat_row(seat).user_id or 0, action)
            self.moves.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)

    async def lag(self) -> None:
        """How late a 10 ms sleep wakes up: what every other command waits on the loop."""
        while not self.stop:
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(time.perf_counter() - t0 - 0.01)


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return f"{values[min(len(values) - 1, int(q * len(values)))] * 1e3:.0f}"


async def run(games: int, workers: int, batched: bool) -> dict[str, Any]:
    """Fill a store, make N deadlines fall due together, and time the burst."""
    clock = ManualClock()
    pool = PicturePool(workers if batched else 0)
    pool.start()
    pool.wait_ready(60)
    clock_module.SIDE_BY_SIDE = SIDE_BY_SIDE if batched else 1
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db", synchronous=SYNCHRONOUS)
        service = SessionService(store, seed_source=lambda: 77, clock=clock)
        if batched and workers:
            service.chooser = Chooser(pool.run_async, parallel=workers)
            await service.chooser.warm()  # as the bot does at its start
        t0 = time.perf_counter()
        half = games // 2
        for i in range(half):
            await _new_game(service, i, int(DAY))
        reminded: list[DeadlineRow] = []

        async def remind(row: DeadlineRow) -> None:
            reminded.append(row)

        async def expire(row: DeadlineRow) -> bool:
            return await service.timeout(row) is not None

        scheduler = Scheduler(store, clock, remind, expire,
                              prepare=service.preload_deadlines if batched else None)
        clock.advance(DAY / 2)
        await scheduler.tick()  # the first half's first reminders
        for i in range(half, games):
            await _new_game(service, i, int(DAY))
        clock.advance(DAY / 2 - 2 * HOUR)
        await scheduler.tick()  # the first half's second reminders
        probe_game = await _new_game(service, games, None)
        print(f"  setup: {games} games in {time.perf_counter() - t0:.1f} s", flush=True)
        clock.advance(2 * HOUR)  # the first half's timeouts and the second half's reminders
        reminded.clear()
        probe = Probe(service, probe_game, games)
        tasks = [asyncio.create_task(probe.play()), asyncio.create_task(probe.lag())]
        await asyncio.sleep(0.2)
        quiet_moves = len(probe.moves)
        group = store._group
        batches, writes = (group.batches, group.writes) if group is not None else (0, 0)
        profiler = cProfile.Profile() if PROFILE else None
        if profiler is not None:
            profiler.enable()
        t0 = time.perf_counter()
        done = await scheduler.tick()
        took = time.perf_counter() - t0
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(f"{PROFILE}.{'workers' if workers else 'loop'}")
        chooser = service.chooser
        sent = (chooser.sent_choices, chooser.sent) if chooser is not None else (0, 0)
        if group is not None:
            batches, writes = group.batches - batches, group.writes - writes
        probe.stop = True
        await asyncio.gather(*tasks)
        burst_moves = probe.moves[quiet_moves:]
        left = await store.due_deadlines(clock.now(), 10)
        again = await scheduler.tick()
        await store.close()
    pool.close()
    return {"took": took, "done": done, "batches": batches, "writes": writes, "moves": burst_moves, "lags": probe.lags, "left": len(left),
            "again": again.reminders + again.timeouts, "sent": sent}


def report(name: str, r: dict[str, Any]) -> None:
    """Print one run's figures."""
    done = r["done"]
    print(f"{name}: {done.reminders} reminders + {done.timeouts} timeouts due at once handled in "
          f"{r['took']:.2f} s ({(done.reminders + done.timeouts) / r['took']:.0f} per second)")
    print(f"    a player's {len(r['moves'])} moves meanwhile, committed after: median "
          f"{_ms(r['moves'], 0.5)} ms, 95th {_ms(r['moves'], 0.95)} ms, worst {_ms(r['moves'], 1.0)} ms; "
          f"event loop lag median {_ms(r['lags'], 0.5)} ms, worst {_ms(r['lags'], 1.0)} ms")
    print(f"    grouped writes: {r['writes']} in {r['batches']} transactions; due left afterwards: "
          f"{r['left']}; a second pass fires {r['again']} more")
    if r["sent"][1]:
        print(f"    choices made in the workers: {r['sent'][0]} of {done.timeouts}, in {r['sent'][1]} trips")


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("batched", "before", "workers"),
                        help="one of the runs (batched: on the loop and in workers; workers: that one alone)")
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"),
                        help="the store's sync level (the bot's is FULL: each commit synced to disk)")
    parser.add_argument("--profile", help="write the burst's cProfile figures to this file (.loop, .workers)")
    parser.add_argument("--side-by-side", type=int, default=SIDE_BY_SIDE,
                        help="timeouts run at once (the clock's SIDE_BY_SIDE unless told)")
    args = parser.parse_args()
    runs: list[tuple[str, int, bool]] = []
    if args.only in (None, "before"):
        runs.append(("before (one at a time, on the event loop)", 0, False))
    if args.only in (None, "batched"):
        runs.append((f"batched, the bot's moves chosen on the event loop ({args.side_by_side} side by side)", 0, True))
    if args.only in (None, "batched", "workers"):
        if args.workers:
            runs.append((f"batched, the bot's moves chosen in {args.workers} worker processes "
                         f"({args.side_by_side} side by side)", args.workers, True))
    for name, workers, batched in runs:
        print(name, flush=True)
        # Each run in a fresh process: one run's heap does not slow the next.
        proc = multiprocessing.get_context("spawn").Process(
            target=one_run, args=(name, args.games, workers, batched, args.synchronous, args.profile,
                                  args.side_by_side))
        proc.start()
        proc.join()


def one_run(name: str, games: int, workers: int, batched: bool, synchronous: str,
            profile: str | None = None, side_by_side: int = SIDE_BY_SIDE) -> None:
    """One run of the burst, in a process of its own; prints its figures."""
    global SYNCHRONOUS, PROFILE, SIDE_BY_SIDE
    SYNCHRONOUS, PROFILE, SIDE_BY_SIDE = synchronous, profile, side_by_side
    report("  " + name.split(",")[0].split(" (")[0], asyncio.run(run(games, workers, batched)))


if __name__ == "__main__":
    main()
