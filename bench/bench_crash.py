"""Kill the real bot again and again while games are played, and count what was lost or
doubled: the bot in its own process against the fake Discord, SIGKILLed at a random crash
point (after a commit, after a send, after a mark, after a board post) every few moves.

After each restart, for every game: exactly one live board, the stored one, showing the
stored version; one record message per change that owed one; one spectator DM per change;
nothing left in the outbox.

    PYTHONPATH=. python bench/bench_crash.py [--kills 10] [--games 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import FakeWorld
from tests.e2e.test_crash import (
    BotProcess,
    boards,
    move_by_menu,
    open_lobby,
    query,
    said,
    undelivered,
)

POINTS = ["session.committed", "outbox.sent", "outbox.marked", "board.posted", "outbox.expanded"]


def settled(proc: BotProcess, db: str, gid: int, version: int) -> object:
    """A condition: the bot died, or the game moved on and owes nothing more."""

    def done() -> bool:
        assert proc.proc is not None
        if proc.proc.returncode is not None:
            return True
        now = query(db, "SELECT version FROM games WHERE id = ?", gid)[0][0]
        return now > version and undelivered(db) == 0

    return done


async def start_game(fake: FakeDiscord, world: FakeWorld, channel: dict) -> int:
    """alice and bob start a Rey y Hierofante game in ``channel``; carol watches it."""
    gid = await open_lobby(fake, world, channel, "rey_hierofante")
    inter = await fake.slash("game watch", world["carol"], channel)
    await fake.wait_response(inter)
    try:
        inter = await fake.slash("game start", world["alice"], channel)
        await fake.wait_response(inter, timeout=15)
    except (RuntimeError, AssertionError, TimeoutError):
        await asyncio.sleep(0.1)  # the bot died starting it: the restart delivers the start
    return gid


def check(fake: FakeDiscord, world: FakeWorld, db: str, games: dict[int, dict]) -> list[str]:
    """What is wrong after a restart (empty: nothing lost, nothing doubled)."""
    wrong: list[str] = []
    if undelivered(db):
        wrong.append(f"{undelivered(db)} outbox rows undelivered")
    for gid, channel in games.items():
        version, status, stored = query(
            db, "SELECT version, status, board_message_id FROM games WHERE id = ?", gid
        )[0]
        live = boards(fake, channel, gid)
        if status == "active":
            if [m["id"] for m in live] != [str(stored)]:
                wrong.append(f"game {gid}: live boards {[m['id'] for m in live]}, stored {stored}")
            elif not live[0]["embeds"][0]["footer"]["text"].endswith(f" {version}"):
                wrong.append(
                    f"game {gid}: board shows {live[0]['embeds'][0]['footer']['text']!r}, at {version}"
                )
        records = query(
            db,
            "SELECT COUNT(*) FROM outbox o JOIN games g ON o.game = g.id"
            " WHERE o.kind = 'record' AND g.channel_id = ?",
            int(channel["id"]),
        )[0][0]
        posted = len(said(fake, channel))
        if posted != records:
            wrong.append(f"game {gid}: {posted} records in the channel for {records} owed")
    watched = query(db, "SELECT COUNT(*) FROM outbox WHERE kind IN ('watch', 'final')")[0][0]
    dms = fake.dms_to(world["carol"])
    if len(dms) != watched:
        texts = [m["content"] or str(m["embeds"]) for m in dms]
        twice = sorted({x for x in texts if texts.count(x) > 1})
        wrong.append(f"spectator: {len(dms)} DMs for {watched} owed; twice: {twice[:2]}")
    return wrong


async def run(kills: int, ngames: int, seed: int) -> None:
    """Play, kill, restart, check; print the figures."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    async with FakeDiscord() as fake:
        names = [f"g{i}" for i in range(ngames)]
        async with FakeWorld(fake=fake, users=["alice", "bob", "carol"], channels=names) as world:
            with tempfile.TemporaryDirectory() as tmp:
                db = str(Path(tmp) / "bench.db")
                logs = (Path(tmp) / f"bot{i}.log" for i in range(10_000))
                games: dict[int, dict] = {}
                moves = killed = 0
                problems: list[str] = []
                proc = await BotProcess(fake, db, next(logs)).start()
                for name in names:
                    games[await start_game(fake, world, world.channels[name])] = world.channels[
                        name
                    ]
                await proc.stop()
                while killed < kills:
                    point = f"{rng.choice(POINTS)}:{rng.randint(1, 8)}"
                    proc = await BotProcess(fake, db, next(logs), point).start()
                    problems += check(fake, world, db, games)
                    while proc.proc is not None and proc.proc.returncode is None:
                        gid = rng.choice(list(games))
                        channel = games[gid]
                        status, version = query(
                            db, "SELECT status, version FROM games WHERE id = ?", gid
                        )[0]
                        if status != "active":
                            del games[gid]
                            games[await start_game(fake, world, channel)] = channel
                            continue
                        try:
                            await move_by_menu(fake, world, db, gid)
                            await fake.wait_until(settled(proc, db, gid, version), timeout=15)
                        except (RuntimeError, StopIteration, AssertionError, TimeoutError):
                            await asyncio.sleep(0.1)  # the bot died under us: its gateway is gone
                        moves += 1
                    killed += 1
                proc = await BotProcess(fake, db, next(logs)).start()
                problems += check(fake, world, db, games)
                await proc.stop()
    print(f"{killed} kills (SIGKILL) over {moves} moves tried in {time.perf_counter() - t0:.0f} s")
    print(f"problems after the restarts: {len(problems)}")
    for p in problems[:20]:
        print("  " + p)


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    asyncio.run(run(args.kills, args.games, args.seed))


if __name__ == "__main__":
    main()
