"""Board pictures drawn inline (a thread of the bot's process, as with
TABLERO_PICTURE_WORKERS=0) against drawn by worker processes (cogs/pictures/pool.py).

    python bench/bench_picture_pool.py [--pictures 300] [--workers 1 2] [--concurrency 8]

The pictures are the public boards of games the engines play (Rattus Cartus, Ankh-Morpork,
Guerra de Mitos, Ragami, Rey y Hierofante), drawn the way the bot draws them: through
``asyncio.to_thread`` and ``cogs.pictures.pool.render``, ``--concurrency`` at a time.
Meanwhile the event loop is sampled as an interaction's acknowledgement sees it: every
20 ms a callback is due; how late it runs (the loop's lag) is what a button press waits
before the bot can even start answering. Prints pictures per second and the lag's
p50/p99/max, for the loop idle, inline, and each pool size; checks that every picture is
byte for byte the inline one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.pictures import pool as picture_pool  # noqa: E402
from cogs.pictures.ankh_morpork import render_board as am_render  # noqa: E402
from cogs.pictures.guerra_de_mitos import render_board as gdm_render  # noqa: E402
from cogs.pictures.ragami import render_board as rg_render  # noqa: E402
from cogs.pictures.rattus_cartus import render_board as rc_render  # noqa: E402
from cogs.pictures.rey_hierofante import render_board as rh_render  # noqa: E402
from rules.registry import engine  # noqa: E402

NAMES = ["Ana García", "Bruno", "Carla", "Dámaso", "Elena"]
TICK = 0.020


def views(game_id: str, seats: int, seed: int, every: int) -> list[Any]:
    """Public views of one game, every ``every`` moves."""
    eng = engine(game_id)
    st = eng.setup(seats, {}, seed)
    rng = random.Random(seed)
    out = []
    moves = 0
    while not st.finished and moves < 600:
        seat = sorted(eng.pending(st))[0]
        act = eng.ai_action(st, seat) if game_id == "guerra_de_mitos" else rng.choice(eng.legal_actions(st, seat))
        st, _ = eng.apply(st, seat, act)
        moves += 1
        if moves % every == 0:
            out.append(eng.view(st, None))
    return out


def workload(n: int) -> list[tuple[Callable[..., bytes], tuple[Any, ...]]]:
    """``n`` picture jobs, a mix of every game's boards."""
    jobs: list[tuple[Callable[..., bytes], tuple[Any, ...]]] = []
    for game_id, render, seats, every in (("rattus_cartus", rc_render, 4, 6), ("ankh_morpork", am_render, 4, 5),
                                          ("guerra_de_mitos", gdm_render, 3, 4), ("ragami", rg_render, 3, 3),
                                          ("rey_hierofante", rh_render, 2, 1)):
        seed = 0
        mine: list[tuple[Callable[..., bytes], tuple[Any, ...]]] = []
        while len(mine) < n // 5 + 1:
            for v in views(game_id, seats, seed, every):
                mine.append((render, (v, NAMES[:seats], "es")))
            seed += 1
        jobs.extend(mine[: n // 5 + 1])
    random.Random(1).shuffle(jobs)
    return jobs[:n]


async def lag_sampler(samples: list[float], stop: asyncio.Event) -> None:
    """Record how late a callback due every TICK seconds runs."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        due = loop.time() + TICK
        fired = loop.create_future()
        loop.call_at(due, lambda f=fired: f.done() or f.set_result(loop.time()))
        ran = await fired
        samples.append(ran - due)


async def run(jobs: list[tuple[Callable[..., bytes], tuple[Any, ...]]], concurrency: int,
              expected: list[bytes] | None) -> tuple[float, list[float], list[bytes]]:
    """Draw every job, ``concurrency`` at a time; seconds taken, loop lag samples, pictures."""
    samples: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(lag_sampler(samples, stop))
    await asyncio.sleep(0.2)
    samples.clear()
    gate = asyncio.Semaphore(concurrency)
    out: list[bytes] = [b""] * len(jobs)

    async def one(i: int) -> None:
        fn, args = jobs[i]
        async with gate:
            out[i] = await asyncio.to_thread(picture_pool.render, fn, *args)

    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(len(jobs))))
    took = time.perf_counter() - t0
    stop.set()
    await sampler
    if expected is not None:
        assert out == expected, "a picture drawn by a worker differs from the inline one"
    return took, samples, out


def lag_line(samples: list[float]) -> str:
    """p50/p99/max of the loop's lag in milliseconds."""
    s = sorted(samples)
    q = statistics.quantiles(s, n=100, method="inclusive") if len(s) > 2 else [s[0]] * 99
    return f"loop lag p50 {q[49] * 1000:6.1f} ms, p99 {q[98] * 1000:6.1f} ms, max {s[-1] * 1000:6.1f} ms"


async def main_async(n: int, workers: list[int], concurrency: int) -> None:
    """Measure idle, inline, then each pool size."""
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; preparing {n} pictures...")
    jobs = workload(n)
    for fn, args in jobs[:10]:  # warm the drawing caches as a running bot has them
        fn(*args)
    idle: list[float] = []
    stop = asyncio.Event()
    sampler = asyncio.create_task(lag_sampler(idle, stop))
    await asyncio.sleep(2.0)
    stop.set()
    await sampler
    print(f"{'idle loop':26}                               {lag_line(idle)}")
    picture_pool.install(None)
    took, lag, expected = await run(jobs, concurrency, None)
    print(f"{'inline (thread)':26} {n / took:6.1f} pictures/s ({took:5.1f} s)   {lag_line(lag)}")
    for w in workers:
        pool = picture_pool.PicturePool(w)
        pool.start()
        assert await asyncio.to_thread(pool.wait_ready, 120)
        for fn, args in jobs[: 10 * w]:  # the workers' caches warm too
            await asyncio.to_thread(pool.run, fn, *args)
        picture_pool.install(pool)
        try:
            took, lag, _ = await run(jobs, concurrency, expected)
        finally:
            picture_pool.uninstall(pool)
            await asyncio.to_thread(pool.close)
        print(f"{f'pool, {w} worker(s)':26} {n / took:6.1f} pictures/s ({took:5.1f} s)   {lag_line(lag)}"
              f"   fallbacks {pool.inline_fallbacks}")
    print(f"every picture drawn by the workers was byte-identical to the inline one ({n} compared per pool)")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pictures", type=int, default=300)
    p.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    p.add_argument("--concurrency", type=int, default=8)
    a = p.parse_args()
    asyncio.run(main_async(a.pictures, a.workers, a.concurrency))


if __name__ == "__main__":
    main()
