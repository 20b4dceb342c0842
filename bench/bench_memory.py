"""Memory after many games went through one process: RSS while 10,000 stored games are each
loaded through the session service and moved once (the pending player's first legal move,
committed as a command would), with the bounded game cache and without a bound.

    python bench/bench_memory.py [--games 10000] [--cache 2000]

The store is filled in bulk as bench/bench_start_100k.py does (Rey y Hierofante games with
real states, all open). Prints the resident memory (VmRSS) as the games go through, and its
peak (VmHWM), for each cache size.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def rss_mb() -> tuple[float, float]:
    """(VmRSS, VmHWM) of this process in MB."""
    found = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0]) / 1024
    return found["VmRSS"], found["VmHWM"]


async def play_through(db: str, games: int, cache: int, frozen: bool = False) -> None:
    """Load each game through the service and make one move in it; print RSS on the way.
    ``frozen``: with the bot's collector policy (what full passes leave alive is frozen,
    services/collector.py), which must not keep evicted games alive."""
    from services import collector
    from services.session import SessionService
    from storage import Store

    if frozen:
        gc.freeze()  # as the bot does once ready
        collector.PASSES.install()

    store = await Store.open(db)
    service = SessionService(store, cache_size=cache)
    t0 = time.perf_counter()
    marks = []
    for game in range(1, games + 1):
        g = await service.require(game)
        if g.state is not None and not g.state.finished:
            seat = next(iter(g.pending()))
            await service.move(game, g.seat_row(seat).user_id or 0, g.legal_actions(seat)[0])
        if game % (games // 5) == 0:
            gc.collect()
            marks.append(f"{game}: {rss_mb()[0]:.0f} MB")
    gc.collect()
    rss, peak = rss_mb()
    print(f"  cache {cache}: RSS after {games} games {rss:.0f} MB (peak {peak:.0f} MB), "
          f"{len(service._games)} games held, {time.perf_counter() - t0:.0f} s; on the way: {', '.join(marks)}")
    await store.close()


def one_run(db: str, games: int, cache: int, frozen: bool = False) -> None:
    """A fresh process per run, so one run's memory does not count in the next."""
    asyncio.run(play_through(db, games, cache, frozen))


def main() -> None:
    """Fill a store, then run each cache size in a process of its own."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--cache", type=int, default=2000)
    a = p.parse_args()
    from bench.bench_start_100k import fill

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "memory.db")
        asyncio.run(fill(Path(db), a.games, 1.0))
        with sqlite3.connect(db) as conn:
            # The bulk fill reuses a few states: each game's version is its state's.
            conn.execute("UPDATE games SET version = json_extract(state, '$.version')")
            conn.execute("DELETE FROM actions WHERE seq > (SELECT version FROM games WHERE id = actions.game)")
        for cache, frozen, name in ((10**9, False, "before (no bound)"), (a.cache, False, "after (bounded LRU cache)"),
                                    (a.cache, True, "after, with the bot's collector policy (full passes' survivors frozen)")):
            print(name)
            ctx = multiprocessing.get_context("spawn")
            proc = ctx.Process(target=one_run, args=(db, a.games, cache, frozen))
            proc.start()
            proc.join()


if __name__ == "__main__":
    main()
