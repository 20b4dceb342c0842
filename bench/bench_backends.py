"""Moves per second on SQLite and on PostgreSQL, side by side (a script, not a test).

    python bench/bench_backends.py [--games 1000] [--movers 16] [--moves 4000] [--pg URL]

1,000 open tic-tac-toe games in one store; 16 of them move at once (each mover plays
its own game, one move after another: place a mark, commit state and log row), as the
session service issues moves. SQLite with synchronous FULL (the bot's setting); PostgreSQL
in one process with a pool of 16 connections, on a server of its own started in a
temporary directory with its durable defaults (fsync on, synchronous_commit on), unless
``--pg`` names a database to use (it is emptied of nothing: give it an empty one).
Also one mover alone (per-move latency). CPU is this process's only (the PostgreSQL
server's own work is not in it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage import Store  # noqa: E402

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def play(board: str, turn: int) -> tuple[str, str]:
    """The next tic-tac-toe move on ``board`` (first free cell after a stride); a full or
    won board starts over, so a game stays open however long the benchmark runs."""
    won = any(board[a] != "." and board[a] == board[b] == board[c] for a, b, c in LINES)
    if won or "." not in board:
        board = "........."
    cell = next(c for c in ((turn * 5 + k) % 9 for k in range(9)) if board[c] == ".")
    mark = "XO"[turn % 2]
    return board[:cell] + mark + board[cell + 1:], json.dumps({"kind": "mark", "cell": cell})


async def seed(store: Store, games: int) -> list[int]:
    """``games`` active two-player games, as the bot creates them."""
    ids = []
    for i in range(games):
        g = await store.create_game(guild_id=1, channel_id=10_000 + i, game_id="tictactoe",
                                    options={}, host_id=1, locale="es",
                                    host_seat=("Ana", "es"))
        await store.add_seat(g.id, user_id=200 + i, name="Bruno")
        await store.start_game(g.id, seed=i, state=json.dumps({"board": ".........", "turn": 0}))
        ids.append(g.id)
    return ids


async def measure(store: Store, ids: list[int], movers: int, moves: int) -> tuple[float, float, float]:
    """Moves/s with ``movers`` games moving at once; p50 latency alone; CPU ms per move."""
    boards = {g: (".........", 0) for g in ids}

    async def one(g: int) -> None:
        board, turn = boards[g]
        new, action = play(board, turn)
        await store.commit_move(g, expected_version=turn, seat=turn % 2, action=action,
                                state=json.dumps({"board": new, "turn": turn + 1}), finished=False)
        boards[g] = (new, turn + 1)

    lat = []
    for i in range(min(500, moves)):
        t = time.perf_counter()
        await one(ids[i % len(ids)])
        lat.append(time.perf_counter() - t)

    per = max(1, moves // movers)
    chosen = ids[-movers:]

    async def mover(g: int) -> None:
        for _ in range(per):
            await one(g)

    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(mover(g) for g in chosen))
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return movers * per / wall, statistics.median(lat) * 1e3, cpu / (movers * per) * 1e3


async def run(args: argparse.Namespace) -> None:
    """Both backends, one after the other, then the figures."""
    print(f"python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, "
          f"{os.cpu_count()} CPUs; {args.games} open games, {args.movers} moving at once, "
          f"{args.moves} moves")
    results = {}
    with tempfile.TemporaryDirectory() as d:
        store = await Store.open(Path(d) / "bench.db", synchronous="FULL")
        try:
            ids = await seed(store, args.games)
            results["SQLite (synchronous FULL)"] = await measure(store, ids, args.movers, args.moves)
        finally:
            await store.close()

    server = None
    url = args.pg
    if url is None:
        from tests.pg_server import PgServer, available

        if not available():
            print("PostgreSQL: no server programs here (initdb, postgres); skipped")
        else:
            server = PgServer.start(durable=True)
            url = server.url()
    try:
        if url is not None:
            store = await Store.open(url, pool_size=args.movers)
            try:
                ver = (await store._fetchall("SHOW server_version"))[0][0].split()[0]
                ids = await seed(store, args.games)
                results[f"PostgreSQL {ver} (one process, pool {args.movers})"] = await measure(
                    store, ids, args.movers, args.moves
                )
            finally:
                await store.close()
    finally:
        if server is not None:
            server.stop()

    width = max(len(k) for k in results)
    base = next(iter(results.values()))[0]
    for name, (rate, p50, cpu) in results.items():
        print(f"  {name:<{width}}  {rate:8,.0f} moves/s  (x{rate / base:.2f})   "
              f"alone p50 {p50:.2f} ms   client CPU {cpu:.2f} ms/move")


def main() -> None:
    """Parse arguments and run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--movers", type=int, default=16)
    ap.add_argument("--moves", type=int, default=4000)
    ap.add_argument("--pg", default=None, help="an empty PostgreSQL database to use")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
