"""Rey y Hierofante moves with 1,000 open games in one store: latency and throughput.

Each move is what the bot does before it tells Discord: the rules (pre-checks and apply),
the guarded commit of state + log row, and the board picture. Run:

    python bench/bench_moves.py [--games 1000] [--moves 5000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from rules.registry import engine
from storage import Store


def _picture():
    """The board renderer, if the Discord side is installed (it is in this project)."""
    from cogs.pictures.rey_hierofante import render_board

    return render_board


async def run(games: int, moves: int, seed: int) -> None:
    """Fill a store with ``games`` open games, then time ``moves`` moves spread over them."""
    eng = engine("rey_hierofante")
    render = _picture()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db")
        ids: list[int] = []
        states = {}
        for i in range(games):
            row = await store.create_game(guild_id=1, channel_id=10_000 + i, game_id=eng.id,
                                          options={}, host_id=1, locale="es")
            await store.add_seat(row.id, user_id=100 + i, name="Ana")
            await store.add_seat(row.id, user_id=200 + i, name="Bruno")
            st = eng.setup(2, {}, seed + i)
            await store.start_game(row.id, seed=seed + i, state=eng.dump_state(st))
            ids.append(row.id)
            states[row.id] = st
        lat: list[float] = []
        t_all = time.perf_counter()
        for _ in range(moves):
            gid = rng.choice(ids)
            st = states[gid]
            if st.finished:
                st = eng.setup(2, {}, rng.randint(0, 10**9))
                states[gid] = st
                await store.set_status(gid, "finished")
                row = await store.create_game(guild_id=1, channel_id=50_000_000 + gid * 1000 + st.version,
                                              game_id=eng.id, options={}, host_id=1, locale="es")
                await store.start_game(row.id, seed=1, state=eng.dump_state(st))
                ids[ids.index(gid)] = row.id
                states[row.id] = st
                gid = row.id
            seat = next(iter(eng.pending(st)))
            action = rng.choice(eng.legal_actions(st, seat))
            wire = action.model_dump_json()
            t0 = time.perf_counter()
            new, _events = eng.apply(st, seat, eng.parse_action(wire), version=st.version)
            await store.commit_move(gid, expected_version=st.version, seat=seat, action=wire,
                                    state=eng.dump_state(new), finished=new.finished)
            png = render(eng.view(new, None), ["Ana", "Bruno"], "es")
            lat.append(time.perf_counter() - t0)
            assert png[:4] == b"\x89PNG"
            states[gid] = new
        total = time.perf_counter() - t_all
        await store.close()
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(f"open games: {games}; moves: {moves}")
    print(f"per move (rules + commit + picture): p50 {q[49] * 1000:.2f} ms, "
          f"p99 {q[98] * 1000:.2f} ms, max {lat[-1] * 1000:.2f} ms")
    print(f"sustained: {moves / total:.0f} moves/s (one process, one connection)")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--moves", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    asyncio.run(run(a.games, a.moves, a.seed))


if __name__ == "__main__":
    main()
