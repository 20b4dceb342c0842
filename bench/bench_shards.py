"""Moves per second on one database with one and with two shard processes.

Each process is what one shard process of the bot does for a move before it tells Discord:
the session service in its several-processes mode (a cached game checked against the store),
the rules, the commit guarded by the game's version, in one transaction with its outbox row.
The open games are split between the processes as Discord splits guilds between shards.
Run:

    python bench/bench_shards.py [--db PATH_OR_URL] [--games 400] [--moves 3000] [--concurrency 8]

``--db`` is what TABLERO_DB would say (a SQLite file by default, a fresh temporary one when
omitted); it must be empty, as the bench fills it with its own games.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from services.session import SessionService
from storage import Store

GAME = "rey_hierofante"


async def fill(db: str, games: int, first: int = 0) -> list[int]:
    """``games`` more started two-player games (numbered from ``first`` in their guilds,
    channels and players); their ids."""
    store = await Store.open(db)
    svc = SessionService(store, seed_source=lambda: 12345)
    ids = []
    try:
        for i in range(first, first + games):
            g = await svc.create(guild_id=1 + i, channel_id=10_000 + i, game_id=GAME, options={},
                                 host_id=2 * i + 1, host_name="Ana", locale="es")
            await svc.join(g.id, user_id=2 * i + 2, name="Bruno", locale="es")
            await svc.start(g.id, by=2 * i + 1)
            ids.append(g.id)
    finally:
        await store.close()
    return ids


async def play(db: str, games: list[int], moves: int, concurrency: int, shared: bool,
               barrier: Any, seed: int) -> tuple[int, int, float, float]:
    """Make ``moves`` moves over ``games`` with ``concurrency`` at once; (landed, refused,
    seconds, CPU seconds of this process: its threads included, aiosqlite's too)."""
    store = await Store.open(db)
    svc = SessionService(store)
    svc.shared = shared
    rng = random.Random(seed)
    pool = list(games)
    busy: set[int] = set()
    landed = refused = 0
    for gid in pool:  # load every game once, as a running bot has them cached
        await svc.require(gid)
    barrier.wait()
    t0, c0 = time.perf_counter(), time.process_time()

    async def worker() -> None:
        nonlocal landed, refused
        while landed < moves and pool:
            free = [g for g in pool if g not in busy]
            if not free:
                await asyncio.sleep(0)
                continue
            gid = rng.choice(free)
            busy.add(gid)
            try:
                g = await svc.require(gid)
                if g.status != "active":
                    pool.remove(gid)
                    continue
                seat = sorted(g.pending())[0]
                action = rng.choice(g.legal_actions(seat))
                try:
                    await svc.move(gid, g.seats[seat].user_id, action, g.version)
                    landed += 1
                except Exception:
                    refused += 1
            finally:
                busy.discard(gid)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    await store.close()
    return landed, refused, elapsed, cpu


def _process(db: str, games: list[int], moves: int, concurrency: int, shared: bool, seed: int,
             barrier: Any, out: Any) -> None:
    out.put(asyncio.run(play(db, games, moves, concurrency, shared, barrier, seed)))


def run(db: str, ids: list[int], processes: int, moves: int, concurrency: int, shared: bool) -> float:
    """Moves per second of ``processes`` processes sharing the games; prints the figures."""
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(processes), ctx.Queue()
    shares = [ids[i::processes] for i in range(processes)]
    procs = [ctx.Process(target=_process, args=(db, shares[i], moves // processes, concurrency,
                                               shared, 7 + i, barrier, out))
             for i in range(processes)]
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    landed = sum(r[0] for r in results)
    refused = sum(r[1] for r in results)
    seconds = max(r[2] for r in results)
    rate = landed / seconds
    cpu = sum(r[3] for r in results) / landed * 1000
    mode = "shared" if shared else "alone"
    print(f"{processes} process{'es' if processes > 1 else ''} ({mode}): {landed} moves in "
          f"{seconds:.2f} s = {rate:.0f} moves/s, {cpu:.2f} ms CPU per move ({refused} refused)")
    return rate


def main() -> None:
    """Parse the arguments and print moves per second with one and two processes."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=None, help="database (TABLERO_DB); default a temporary SQLite file")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--concurrency", type=int, default=8, help="moves in flight per process")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rates = {}
        runs = (("one", 1, False), ("one-shared", 1, True), ("two", 2, True))
        for n, (label, processes, shared) in enumerate(runs):
            # A fresh set of games per run, so each run plays from the same kind of start.
            db = args.db or str(Path(tmp) / f"{label}.db")
            ids = asyncio.run(fill(db, args.games, n * args.games))
            rates[label] = run(db, ids, processes, args.moves, args.concurrency, shared)
        print(f"two processes / one: {rates['two'] / rates['one-shared']:.2f} "
              f"(one process checking its cache against the store: "
              f"{rates['one-shared'] / rates['one']:.2f} of one alone)")


if __name__ == "__main__":
    main()
