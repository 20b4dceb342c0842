"""Benchmark of the game store (a script, not a test): prints latency and throughput figures.

    python bench/bench_store.py [--moves 5000] [--stored 10000] [--sync FULL NORMAL]
        [--group on off]

1. commit_move with 1,000 active games in one store file: latency p50/p99 of sequential
   commits, and commits/s both sequential and with many games moving concurrently.
2. Start-up with 10,000 stored games (10% open, the rest finished with their action
   logs): time to Store.open() + open_game_ids(), and to then read every open game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

# Run from anywhere: the project root is the parent of bench/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Store  # noqa: E402


def fake_state(rng: random.Random, size: int) -> str:
    """A JSON state of about `size` bytes, shaped roughly like a card game's."""
    # Three-digit numbers serialise as "123, ": five bytes each.
    cards = [rng.randrange(100, 1000) for _ in range(max(1, size // 5))]
    return json.dumps({"turn": rng.randrange(100), "cards": cards})


def seed_games(
    path: Path, *, total: int, open_share: float, actions_per_closed: int, state_bytes: int
) -> list[int]:
    """Insert `total` games (open ones active with 2 seats) with raw executemany; return open ids."""
    rng = random.Random(1)
    state = fake_state(rng, state_bytes)
    now = time.time()
    n_open = round(total * open_share)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous = OFF")  # setup only; the measured store uses its own
        games = []
        for i in range(total):
            status = "active" if i < n_open else "finished"
            version = 0 if status == "active" else actions_per_closed
            games.append(
                (
                    i + 1,
                    1000 + i % 50,
                    10**17 + i,
                    "ragami",
                    "{}",
                    status,
                    i,
                    version,
                    state,
                    42,
                    "es",
                    now,
                    now,
                )
            )
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game_id, options, status, seed, version,"
            " state, host_id, locale, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            games,
        )
        db.executemany(
            "INSERT INTO seats (game, seat, user_id, ai, name) VALUES (?, ?, ?, FALSE, ?)",
            [(g, s, 10**17 + 2 * g + s, f"p{s}") for g in range(1, total + 1) for s in (0, 1)],
        )
        action = '{"kind":"play","card":17}'
        db.executemany(
            "INSERT INTO actions (game, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            (
                (g, q, q % 2, action, now)
                for g in range(n_open + 1, total + 1)
                for q in range(1, actions_per_closed + 1)
            ),
        )
        db.commit()
    return list(range(1, n_open + 1))


def pct(xs: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of xs."""
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


async def bench_commits(
    workdir: Path, sync: str, moves: int, state_bytes: int, group: bool = True
) -> None:
    """commit_move latency and throughput with 1,000 active games in one file."""
    path = workdir / f"commits_{sync}_{group}.db"
    await (await Store.open(path)).close()  # schema
    ids = seed_games(
        path, total=1000, open_share=1.0, actions_per_closed=0, state_bytes=state_bytes
    )
    rng = random.Random(2)
    states = [fake_state(rng, state_bytes) for _ in range(16)]
    action = '{"kind":"play","card":17}'
    version = dict.fromkeys(ids, 0)
    store = await Store.open(path, synchronous=sync, group_commit=group)
    try:
        # Sequential: one move at a time, as a lone busy server would see them.
        lat = []
        t_all = time.perf_counter()
        for i in range(moves):
            g = rng.choice(ids)
            t = time.perf_counter()
            version[g] = await store.commit_move(
                g,
                expected_version=version[g],
                seat=i % 2,
                action=action,
                state=states[i % 16],
                finished=False,
            )
            lat.append(time.perf_counter() - t)
        wall = time.perf_counter() - t_all
        print(
            f"  sequential  {moves} commits: p50 {pct(lat, 50) * 1e3:.3f} ms, "
            f"p99 {pct(lat, 99) * 1e3:.3f} ms, max {max(lat) * 1e3:.2f} ms, "
            f"{moves / wall:,.0f} commits/s"
        )

        # Concurrent: 100 games each committing in their own task, as the session service
        # (one lock per game) would issue them; they queue on the store's lock, or with
        # group commit on, those queued while a commit runs share the next one.
        workers = 100
        per = max(1, moves // workers)
        lat_c: list[float] = []

        async def play(g: int) -> None:
            for i in range(per):
                t = time.perf_counter()
                version[g] = await store.commit_move(
                    g,
                    expected_version=version[g],
                    seat=i % 2,
                    action=action,
                    state=states[i % 16],
                    finished=False,
                )
                lat_c.append(time.perf_counter() - t)

        t_all = time.perf_counter()
        await asyncio.gather(*(play(g) for g in ids[:workers]))
        wall = time.perf_counter() - t_all
        print(
            f"  concurrent  {workers} games x {per} commits: {workers * per / wall:,.0f} commits/s, "
            f"per-call p50 {pct(lat_c, 50) * 1e3:.2f} ms, p99 {pct(lat_c, 99) * 1e3:.2f} ms "
            f"(includes waiting for the lock)"
        )
    finally:
        await store.close()
    print(f"  file {path.stat().st_size / 1e6:.1f} MB (+ WAL)")


async def bench_startup(workdir: Path, stored: int, state_bytes: int) -> None:
    """Time to open a store holding `stored` games and list, then read, the open ones."""
    path = workdir / f"startup_{stored}.db"
    await (await Store.open(path)).close()
    seed_games(path, total=stored, open_share=0.1, actions_per_closed=40, state_bytes=state_bytes)
    size = path.stat().st_size / 1e6
    opens, lists, reads = [], [], []
    for _ in range(5):
        t0 = time.perf_counter()
        store = await Store.open(path)
        t1 = time.perf_counter()
        ids = await store.open_game_ids()
        t2 = time.perf_counter()
        for g in ids:  # what an eager resume would do; the bot does this lazily
            await store.get_game(g)
            await store.seats(g)
        t3 = time.perf_counter()
        await store.close()
        opens.append(t1 - t0)
        lists.append(t2 - t1)
        reads.append(t3 - t2)
    print(
        f"  {stored:,} games ({len(ids):,} open, {stored - len(ids):,} finished x 40 actions), "
        f"file {size:.0f} MB"
    )
    print(
        f"  Store.open {statistics.median(opens) * 1e3:.2f} ms + open_game_ids "
        f"{statistics.median(lists) * 1e3:.2f} ms = "
        f"{(statistics.median(opens) + statistics.median(lists)) * 1e3:.2f} ms (median of 5)"
    )
    print(
        f"  then get_game + seats for all {len(ids):,} open games: "
        f"{statistics.median(reads) * 1e3:.0f} ms"
    )


async def main() -> None:
    """Parse arguments and run both benchmarks."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=5000, help="commits per measurement")
    ap.add_argument("--stored", type=int, nargs="+", default=[10_000], help="games for start-up")
    ap.add_argument("--sync", nargs="+", default=["FULL", "NORMAL"], help="PRAGMA synchronous")
    ap.add_argument("--group", nargs="+", choices=["on", "off"], default=["on", "off"],
                    help="group commit")
    ap.add_argument("--state-bytes", type=int, default=4096, help="size of each state JSON")
    ap.add_argument("--dir", type=Path, default=None, help="where to put the files (default: temp)")
    args = ap.parse_args()

    print(
        f"python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, {os.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        workdir = Path(d)
        for sync in args.sync:
            for group in args.group:
                print(
                    f"commit_move, 1,000 active games, {args.state_bytes} B states, "
                    f"synchronous={sync}, group commit {group}"
                )
                await bench_commits(workdir, sync, args.moves, args.state_bytes, group == "on")
        for n in args.stored:
            print("start-up")
            await bench_startup(workdir, n, args.state_bytes)


if __name__ == "__main__":
    asyncio.run(main())
