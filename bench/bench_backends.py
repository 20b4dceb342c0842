"""Moves per second on SQLite and on PostgreSQL, side by side (a script, not a test).

    python bench/bench_backends.py [--games 1000] [--movers 16] [--moves 4000] [--pg URL]
                                   [--processes 1 2]

1,000 open tic-tac-toe games in one store; 16 of them move at once (each mover plays
its own game, one move after another: place a mark, commit state and log row), as the
session service issues moves. SQLite with synchronous FULL (the bot's setting); PostgreSQL
in one process with a pool of 16 connections, on a server of its own started in a
temporary directory with its durable defaults (fsync on, synchronous_commit on), unless
``--pg`` names a database to use (it is emptied of nothing: give it an empty one).
Also one mover alone (moves one after another). CPU is this process's only (the PostgreSQL
server's own work is not in it). With ``--processes 1 2``, PostgreSQL is also measured
with two processes sharing the database, each with its own pool and half the movers on
games of its own (how far a second process carries it).

What to expect of a second process here: each process commits the moves waiting together
in one round trip (storage/pg_moves.py), so the client spends a few hundredths of a
millisecond of CPU per move and is never what limits the rate; the database's durable
commit is (its WAL flush, which PostgreSQL does one at a time, and its round trip). Two
processes of 8 movers commit two batches of 8 where one process commits one of 16, so they
can only match one process, not pass it. A second process adds moves where the client's
own work is the limit: the whole move path of bench/bench_shards.py (rules, session, about
a millisecond and a half of CPU per move).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sqlite3
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
    """Moves/s with ``movers`` games moving at once; moves/s alone (one after another);
    CPU ms per move."""
    boards = {g: (".........", 0) for g in ids}

    async def one(g: int) -> None:
        board, turn = boards[g]
        new, action = play(board, turn)
        await store.commit_move(g, expected_version=turn, seat=turn % 2, action=action,
                                state=json.dumps({"board": new, "turn": turn + 1}), finished=False)
        boards[g] = (new, turn + 1)

    alone = min(1000, moves)
    t = time.perf_counter()
    for i in range(alone):
        await one(ids[i % len(ids)])
    alone_rate = alone / (time.perf_counter() - t)

    per = max(1, moves // movers)
    chosen = ids[-movers:]

    async def mover(g: int) -> None:
        for _ in range(per):
            await one(g)

    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(mover(g) for g in chosen))
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    return movers * per / wall, alone_rate, cpu / (movers * per) * 1e3


async def _child(url: str, ids: list[int], movers: int, moves: int, ready, go, out) -> None:
    store = await Store.open(url, pool_size=movers)
    try:
        boards = {g: (".........", (await store.get_game(g)).version) for g in ids}

        async def mover(g: int) -> None:
            for _ in range(moves // movers):
                board, turn = boards[g]
                new, action = play(board, turn)
                await store.commit_move(g, expected_version=turn, seat=turn % 2, action=action,
                                        state=json.dumps({"board": new, "turn": turn + 1}),
                                        finished=False)
                boards[g] = (new, turn + 1)

        ready.set()
        await asyncio.to_thread(go.wait)
        t0 = time.monotonic()
        await asyncio.gather(*(mover(g) for g in ids[:movers]))
        out.put((t0, time.monotonic(), movers * (moves // movers)))
    finally:
        await store.close()


def _child_main(*args) -> None:  # type: ignore[no-untyped-def]
    asyncio.run(_child(*args))


def processes_rate(url: str, ids: list[int], processes: int, movers: int, moves: int) -> float:
    """Moves/s of ``processes`` processes together, each with movers/processes movers."""
    ctx = multiprocessing.get_context("spawn")
    go, out = ctx.Event(), ctx.Queue()
    share = max(1, movers // processes)
    procs, readies = [], []
    for k in range(processes):
        ready = ctx.Event()
        mine = ids[k::processes]
        p = ctx.Process(target=_child_main,
                        args=(url, mine, share, moves // processes, ready, go, out))
        p.start()
        procs.append(p)
        readies.append(ready)
    for r in readies:
        r.wait()
    go.set()
    got = [out.get() for _ in procs]
    for p in procs:
        p.join()
    return sum(n for _, _, n in got) / (max(e for _, e, _ in got) - min(s for s, _, _ in got))


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
            for n in args.processes:
                if n > 1:
                    rate = await asyncio.to_thread(
                        processes_rate, url, ids, n, args.movers, args.moves
                    )
                    results[f"PostgreSQL {ver} ({n} processes, {args.movers // n} movers each)"] = (
                        rate, float("nan"), float("nan"))
    finally:
        if server is not None:
            server.stop()

    width = max(len(k) for k in results)
    base = next(iter(results.values()))[0]
    for name, (rate, alone, cpu) in results.items():
        extra = "" if alone != alone else (  # NaN: not measured for several processes
            f"   one at a time {alone:6,.0f} moves/s   client CPU {cpu:.2f} ms/move")
        print(f"  {name:<{width}}  {rate:8,.0f} moves/s  (x{rate / base:.2f}){extra}")


def main() -> None:
    """Parse arguments and run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--movers", type=int, default=16)
    ap.add_argument("--moves", type=int, default=4000)
    ap.add_argument("--pg", default=None, help="an empty PostgreSQL database to use")
    ap.add_argument("--processes", type=int, nargs="+", default=[1],
                    help="PostgreSQL: also measure with these numbers of processes")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
