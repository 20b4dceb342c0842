"""Rey y Hierofante moves with 1,000 open games in one store: latency and throughput.

Each move is what the bot does before it tells Discord: the rules (pre-checks and apply),
the guarded commit of state + log row, and the board picture. Run:

    python bench/bench_moves.py [--games 1000] [--moves 5000] [--group on|off]
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


async def run(games: int, moves: int, seed: int, concurrency: int, group: bool = True) -> None:
    """Fill a store with ``games`` open games, then time ``moves`` moves spread over them."""
    eng = engine("rey_hierofante")
    render = _picture()
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db", group_commit=group)
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
        pick = _Picker(eng, store, ids, states, rng)
        # 1. latency: one move at a time, as a single busy game sees it
        lat: list[float] = []
        for _ in range(moves):
            gid, st, seat, wire = await pick.next()
            t0 = time.perf_counter()
            new = await _one_move(eng, store, render, gid, st, seat, wire, threaded=False)
            lat.append(time.perf_counter() - t0)
            states[gid] = new
        # 2. throughput: many games moving at once, pictures drawn in worker threads as
        # the bot draws them, so both cores work
        done = 0
        busy: set[int] = set()

        async def worker() -> None:
            nonlocal done
            while done < moves:
                gid, st, seat, wire = await pick.next(busy)
                busy.add(gid)
                states[gid] = await _one_move(eng, store, render, gid, st, seat, wire, threaded=True)
                busy.discard(gid)
                done += 1

        t_all = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        total = time.perf_counter() - t_all
        await store.close()
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    print(f"open games: {games}; moves: {moves} one at a time, then {done} with {concurrency} at once")
    print(f"per move (rules + commit + picture): p50 {q[49] * 1000:.2f} ms, "
          f"p99 {q[98] * 1000:.2f} ms, max {lat[-1] * 1000:.2f} ms")
    print(f"sustained: {done / total:.0f} moves/s ({concurrency} games moving at once, one store, "
          f"group commit {'on' if group else 'off'})")


async def _one_move(eng, store, render, gid, st, seat, wire, *, threaded: bool):
    """What the bot does for one move before telling Discord."""
    new, _events = eng.apply(st, seat, eng.parse_action(wire), version=st.version)
    await store.commit_move(gid, expected_version=st.version, seat=seat, action=wire,
                            state=eng.dump_state(new), finished=new.finished)
    view = eng.view(new, None)
    if threaded:
        png = await asyncio.to_thread(render, view, ["Ana", "Bruno"], "es")
    else:
        png = render(view, ["Ana", "Bruno"], "es")
    assert png[:4] == b"\x89PNG"
    return new


class _Picker:
    """Chooses the next move: a random open game (a finished one is replaced) and a random legal move."""

    def __init__(self, eng, store, ids, states, rng) -> None:
        self.eng, self.store, self.ids, self.states, self.rng = eng, store, ids, states, rng
        self.channel = 10**9

    async def next(self, busy: set[int] | frozenset[int] = frozenset()):
        """(game id, state, seat, action JSON) for a game not in ``busy``."""
        eng = self.eng
        while True:
            i = self.rng.randrange(len(self.ids))
            gid = self.ids[i]
            if gid in busy:
                continue
            st = self.states[gid]
            if st.finished:
                self.channel += 1
                row = await self.store.create_game(guild_id=1, channel_id=self.channel, game_id=eng.id,
                                                   options={}, host_id=1, locale="es")
                st = eng.setup(2, {}, self.channel)
                await self.store.start_game(row.id, seed=self.channel, state=eng.dump_state(st))
                self.ids[i] = gid = row.id
                self.states[gid] = st
            seat = next(iter(eng.pending(st)))
            return gid, st, seat, self.rng.choice(eng.legal_actions(st, seat)).model_dump_json()


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--moves", type=int, default=5000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--concurrency", type=int, default=16)
    p.add_argument("--group", choices=["on", "off"], default="on", help="group commit")
    a = p.parse_args()
    asyncio.run(run(a.games, a.moves, a.seed, a.concurrency, a.group == "on"))


if __name__ == "__main__":
    main()
