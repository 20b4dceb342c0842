"""A round of 30 tables against a round of 4, through the real bot and the fake Discord.

Swiss tournaments of Rey y Hierofante (first to one win) with 8 and 60 players: the time
from ``/tournament start`` until every table of round 1 has its thread, its game and its
board; the time a table's result takes to reach the standings; and the time from the
round's last result until round 2 is open. Moves are random legal ones made through the
session service (the games themselves are not what is measured).

    PYTHONPATH=. python bench/bench_tournament_rounds.py [--players 8 60]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot import Settings, create_bot
from services.session import SessionService
from tests.e2e.harness import FakeWorld


async def play(session: SessionService, game: int, rng: random.Random) -> None:
    """Random legal moves by the humans until the game ends."""
    while True:
        g = await session.require(game)
        if g.status != "active":
            return
        seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
        action = rng.choice(g.legal_actions(seat))
        await session.move(game, g.seat_row(seat).user_id, action.model_dump(mode="json"))


async def opened(svc, tid: int, number: int, tables: int) -> None:
    while True:
        ms = [m for m in await svc.store.matches(tid, number) if m.result != "bye"]
        if len(ms) == tables and all(m.game is not None for m in ms):
            return
        await asyncio.sleep(0.01)


async def run(players: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    names = ["org"] + [f"p{i}" for i in range(players)]
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeWorld(users=names, owner="org") as world:
            fake = world.fake
            bot = create_bot(Settings(token="fake-token", db_path=str(Path(tmp) / "b.db")))
            await world.start(bot)
            org = world["org"]
            inter = await fake.slash(
                "tournament create",
                org,
                world.channel,
                name="Bench",
                game="rey_hierofante",
                format="swiss",
                rounds=2,
                options="wins_needed=1",
            )
            await fake.wait_response(inter)
            message = fake.response_message(inter)
            join = next(
                c["custom_id"]
                for c in fake.components(message)
                if c.get("custom_id", "").startswith("tablero:tourney:join:")
            )
            tid = int(join.rsplit(":", 1)[1])
            for n in names[1:]:
                await fake.wait_response(await fake.click(message, join, world[n]))
            svc = bot.tournaments
            tables = players // 2
            t0 = time.perf_counter()
            await fake.wait_response(await fake.slash("tournament start", org, world.channel))
            await opened(svc, tid, 1, tables)
            open_1 = time.perf_counter() - t0
            matches = [m for m in await svc.store.matches(tid, 1) if m.result != "bye"]
            per_result: list[float] = []
            for m in matches[:-1]:
                await play(bot.session, m.game, rng)
                t1 = time.perf_counter()
                await bot.session.settle()
                per_result.append(time.perf_counter() - t1)
            # the round's last table: from its last move to round 2 open
            last = matches[-1]
            g = await bot.session.require(last.game)
            while g.status == "active":
                seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
                action = rng.choice(g.legal_actions(seat))
                t2 = time.perf_counter()
                await bot.session.move(
                    last.game, g.seat_row(seat).user_id, action.model_dump(mode="json")
                )
            await opened(svc, tid, 2, tables)
            next_round = time.perf_counter() - t2
            await bot.session.settle()
            await world.stop()
    return {
        "tables": tables,
        "open_round_1": open_1,
        "per_table": open_1 / tables,
        "result_median": statistics.median(per_result),
        "last_result_to_round_2": next_round,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, nargs="+", default=[8, 60])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for n in args.players:
        cpu0 = time.process_time()
        r = asyncio.run(run(n, args.seed))
        cpu = time.process_time() - cpu0
        print(
            f"{n} players, {r['tables']} tables: round 1 opened in {r['open_round_1']:.2f} s "
            f"({r['per_table'] * 1000:.0f} ms a table); a result reaches the standings in "
            f"{r['result_median'] * 1000:.0f} ms (median); last result to round 2 open: "
            f"{r['last_result_to_round_2']:.2f} s; whole run {cpu:.1f} s CPU"
        )


if __name__ == "__main__":
    main()
