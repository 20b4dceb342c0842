"""Benchmark of tournaments and ratings (a script, not a test): prints timing figures.

    python bench/bench_tournaments.py [--players 1000] [--rounds 8] [--games 100000]

1. Swiss pairing of a 1,000-player two-player event: the time to pair each round, with
   random results in between (the late rounds, with many score groups and a long history
   of opponents to avoid, are the hard ones); then the same for tables of four.
2. Recomputing every rating of a server with 100,000 finished games (two- and
   four-player, 600 players, three games): reading the results, replaying OpenSkill and
   rewriting ratings and history, from a store file on disk.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services.pairing import History, pair_swiss  # noqa: E402
from services.ratings import recompute_server, replay  # noqa: E402
from storage import Store  # noqa: E402
from storage.ratings import RatingStore  # noqa: E402


def bench_swiss(players: int, rounds: int, table_size: int) -> list[tuple[float, float]]:
    """Time (wall, CPU) each round's pairing of a Swiss event with random results between."""
    rng = random.Random(7)
    ids = list(range(players))
    scores = {p: 0.0 for p in ids}
    history = History()
    times = []
    for _ in range(rounds):
        order = sorted(ids, key=lambda p: (-scores[p], p))
        t0 = time.perf_counter()
        c0 = time.process_time()
        rnd = pair_swiss(order, scores, history, table_size=table_size, min_size=min(3, table_size))
        times.append((time.perf_counter() - t0, time.process_time() - c0))
        assert sorted(rnd.seated()) == ids
        for t in rnd.tables:
            finish = list(t.players)
            rng.shuffle(finish)
            k = len(finish)
            for i, p in enumerate(finish):
                scores[p] += (k - 1 - i) / (k - 1)
        for p in rnd.byes:
            scores[p] += 1
        history.add(rnd)
    return times


def seed_results(path: Path, games: int, players: int, guild: int) -> None:
    """Write `games` finished games with results straight into a migrated store file."""
    rng = random.Random(3)
    now = time.time() - games
    game_ids = ("rattus_cartus", "rey_hierofante", "ankh_morpork")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous = OFF")
        game_rows, result_rows, place_rows = [], [], []
        for g in range(1, games + 1):
            gid = game_ids[g % 3]
            n = 2 if gid == "rey_hierofante" else rng.choice((2, 3, 4))
            users = rng.sample(range(1, players + 1), n)
            game_rows.append(
                (g, guild, 10**17 + g, gid, "{}", "finished", g, 1, "es", now + g, now + g)
            )
            result_rows.append((g, guild, gid, now + g, False, True))
            order = list(range(n))
            rng.shuffle(order)
            for seat, u in enumerate(users):
                place_rows.append((g, seat, u, order[seat], None))
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game_id, options, status, seed,"
            " host_id, locale, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            game_rows,
        )
        db.executemany("INSERT INTO results VALUES (?,?,?,?,?,?)", result_rows)
        db.executemany("INSERT INTO result_places VALUES (?,?,?,?,?)", place_rows)


async def bench_recompute(games: int, players: int) -> dict[str, float]:
    """Time reading, replaying and rewriting every rating of one server."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        await (await Store.open(path)).close()
        seed_results(path, games, players, guild=1)
        store = await Store.open(path)
        rs = RatingStore(store)
        try:
            t0 = time.perf_counter()
            results = await rs.results(1)
            t1 = time.perf_counter()
            changes = replay(results)
            t2 = time.perf_counter()
            await rs.replace_ratings(1, changes)
            t3 = time.perf_counter()
            total0 = time.perf_counter()
            cpu0 = time.process_time()
            rated = await recompute_server(rs, 1)
            total = time.perf_counter() - total0
            cpu = time.process_time() - cpu0
            board = await rs.leaderboard(1, "rattus_cartus", limit=1)
        finally:
            await store.close()
    return {
        "read": t1 - t0,
        "replay": t2 - t1,
        "write": t3 - t2,
        "total": total,
        "cpu": cpu,
        "rated": rated,
        "top": board[0].conservative if board else 0,
    }


def main() -> None:
    """Run both benchmarks and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--rated-players", type=int, default=600)
    args = ap.parse_args()

    # The machine may be shared: CPU time says what the work costs, wall time what it took.
    for size in (2, 4):
        times = bench_swiss(args.players, args.rounds, size)
        wall = [w for w, _ in times]
        cpu = [c for _, c in times]
        label = "two-player" if size == 2 else f"tables of {size}"
        print(f"Swiss, {args.players} players, {label}: pairing time per round, wall/CPU (s)")
        print("  " + "  ".join(f"r{i + 1} {w:.2f}/{c:.2f}" for i, (w, c) in enumerate(times)))
        print(
            f"  median {statistics.median(wall):.2f}/{statistics.median(cpu):.2f}"
            f"  max {max(wall):.2f}/{max(cpu):.2f}  (round {wall.index(max(wall)) + 1})"
        )

    fig = asyncio.run(bench_recompute(args.games, args.rated_players))
    print(
        f"Recompute every rating of a server with {args.games:,} finished games "
        f"({fig['rated']:,} rated, {args.rated_players} players, 3 games):"
    )
    print(
        f"  total {fig['total']:.2f} s wall, {fig['cpu']:.2f} s CPU  (read {fig['read']:.2f} s, OpenSkill replay "
        f"{fig['replay']:.2f} s, rewrite {fig['write']:.2f} s); best rattus_cartus "
        f"rating {fig['top']}"
    )


if __name__ == "__main__":
    main()
