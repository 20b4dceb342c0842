"""Kill the real bot again and again while games are played, and count what was lost or
doubled: the bot in its own process against the fake Discord, SIGKILLed at a random crash
point (after a commit, after a send, after a mark, after a board post) every few moves,
while players also talk in the channels (burying the cards) and take vacations (every card
of theirs shown again, outside any change).

After each restart, for every game: exactly one message with live components, the stored
card, showing the stored version (no other copy of the card, no lobby with its buttons);
each turn's message the store holds in the channel exactly once (on its own, or as a card's
text), and none it does not hold (a move told before it was stored); the spectator's one DM
per game, showing the newest turn, and one final summary per game that ended; nothing left
in the outbox. Problems are counted by kind (card, told, spectator, outbox).

    PYTHONPATH=. python bench/bench_crash.py [--kills 10] [--games 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from cogs.common.board import BURY_LIMIT
from cogs.common.card_text import split_told
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import FakeWorld
from tests.e2e.test_crash import (
    BotProcess,
    move_by_menu,
    open_lobby,
    query,
    undelivered,
)

# How often players talk and take a vacation instead of moving.
CHATTER = 0.15
POINTS = ["session.committed", "outbox.sent", "outbox.marked", "board.posted", "outbox.expanded"]


async def chatter(fake: FakeDiscord, world: FakeWorld, channel: dict, rng: random.Random) -> None:
    """Players talk in the channel (the card sinks below their messages, and is posted anew
    at the next showing), then one of them goes on vacation or comes back: every card of
    theirs is shown again, by no change of a game's."""
    for i in range(rng.randint(1, BURY_LIMIT)):
        await fake.post_as(world["alice"] if i % 2 else world["bob"], channel, f"chatter {i}")
    inter = await fake.slash("game vacation", world[rng.choice(["alice", "bob"])], channel,
                             days=rng.choice([0, 1]))
    await fake.wait_response(inter, timeout=15)
    await asyncio.sleep(0.2)  # the cards are shown after the answer


def settled(proc: BotProcess, db: str, gid: int, version: int) -> object:
    """A condition: the bot died, or the game moved on and owes nothing more."""

    def done() -> bool:
        assert proc.proc is not None
        if proc.proc.returncode is not None:
            return True
        now = query(db, "SELECT version FROM games WHERE id = ?", gid)[0][0]
        return now > version and undelivered(db) == 0

    return done


async def start_game(fake: FakeDiscord, world: FakeWorld, db: str, channel: dict) -> int:
    """alice and bob start a Rey y Hierofante game in ``channel``; carol watches it. A lobby
    a killed bot left open there is taken up where it was."""
    latest = query(db, "SELECT id, status FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                   int(channel["id"]))
    if latest and latest[0][1] == "lobby":
        gid = latest[0][0]
        inter = await fake.slash("game join", world["bob"], channel)  # refused if seated
        await fake.wait_response(inter, timeout=15)
    else:
        gid = await open_lobby(fake, world, channel, "rey_hierofante")
    carol = int(world["carol"]["id"])
    if not query(db, "SELECT 1 FROM watchers WHERE game = ? AND user_id = ?", gid, carol):
        inter = await fake.slash("game watch", world["carol"], channel)  # again would stop it
        await fake.wait_response(inter, timeout=15)
    try:
        inter = await fake.slash("game start", world["alice"], channel)
        await fake.wait_response(inter, timeout=15)
    except (RuntimeError, AssertionError, TimeoutError):
        await asyncio.sleep(0.1)  # the bot died starting it: the restart delivers the start
    return gid


def of_game(cid: str, gid: int) -> bool:
    """Whether a component's custom id belongs to game ``gid`` (its card, menus, lobby)."""
    return re.match(rf"tablero:(?:lobby:\w+|\w+):{gid}(?::|$)", cid) is not None


def live_copies(fake: FakeDiscord, channel: dict, gid: int) -> list[dict]:
    """The channel's messages with components of game ``gid`` still on them."""
    return [m for m in fake.channel_messages(channel)
            if any(of_game(c.get("custom_id") or "", gid) for c in fake.components(m))]


def check_card(fake: FakeDiscord, db: str, gid: int, channel: dict) -> list[str]:
    """Exactly one message with live components per game, the stored card, showing the
    stored version (a finished game's card keeps no components)."""
    version, status, stored = query(
        db, "SELECT version, status, board_message_id FROM games WHERE id = ?", gid)[0]
    live = [m["id"] for m in live_copies(fake, channel, gid)]
    if status != "active":
        return [f"card: game {gid} ({status}) still has live components on {live}"] if live else []
    if live != [str(stored)]:
        return [f"card: game {gid} live copies {live}, stored {stored}"]
    footer = fake.messages[str(stored)]["embeds"][0]["footer"]["text"].splitlines()[0]
    if not footer.endswith(f" {version}"):
        return [f"card: game {gid} shows {footer!r}, stored at version {version}"]
    return []


def check_told(fake: FakeDiscord, db: str, gids: list[int], channel: dict) -> list[str]:
    """Each turn's message the store holds for the channel's games is in the channel once
    (on its own or as a card's text, its "who acts now" lines maybe trimmed since), and the
    channel holds no other (told twice, or before it was stored). Games played the same
    way tell the same texts: matched as many for as many."""
    texts = [m["content"] for m in fake.channel_messages(channel)
             if m["content"] and m["author"]["id"] == fake.bot_user["id"]]
    wrong: list[str] = []
    for gid in gids:
        for (payload,) in query(db, "SELECT payload FROM outbox WHERE kind = 'record' AND game = ?"
                                " ORDER BY id", gid):
            p = json.loads(payload)
            body, _ = split_told(p["text"], p.get("turn"), list(p.get("story") or []))
            found = next((x for x in texts if x in (p["text"], body)), None)
            if found is None:
                wrong.append(f"told: game {gid}, a turn's message missing: {body[-50:]!r}")
            else:
                texts.remove(found)
    wrong += [f"told: {channel['name']}, a message twice or not stored: {x[-50:]!r}" for x in texts]
    return wrong


def check_spectator(fake: FakeDiscord, world: FakeWorld, db: str, seen: set[int]) -> list[str]:
    """The spectator has one DM per game watched (edited as it goes, showing the newest turn
    owed to it) and one final summary per game that ended."""
    dms = fake.dms_to(world["carol"])
    wrong: list[str] = []
    for gid in sorted(seen):
        watch = [m for m in dms if not m["embeds"] and f"#{gid} (" in m["content"]]
        texts = [json.loads(p)["text"] for (p,) in query(
            db, "SELECT payload FROM outbox WHERE kind = 'watch' AND game = ? ORDER BY id", gid)]
        if len(watch) != (1 if texts else 0):
            wrong.append(f"spectator: game {gid}, {len(watch)} watch DMs")
        elif texts and watch[0]["content"] != texts[-1]:
            wrong.append(f"spectator: game {gid}'s DM is not the newest turn")
        finals = [m for m in dms if m["embeds"] and m["embeds"][0].get("title", "").startswith(f"Game #{gid}:")]
        owed = query(db, "SELECT COUNT(*) FROM outbox WHERE kind = 'final' AND game = ?", gid)[0][0]
        if len(finals) != owed:
            wrong.append(f"spectator: game {gid}, {len(finals)} final summaries for {owed} owed")
    return wrong


def check(fake: FakeDiscord, world: FakeWorld, db: str, seen: dict[int, dict]) -> list[str]:
    """What is wrong after a restart (empty: one live card per game, nothing lost, nothing
    doubled, nothing told that the store does not hold)."""
    wrong: list[str] = []
    if undelivered(db):
        wrong.append(f"outbox: {undelivered(db)} rows undelivered")
    channels: dict[str, tuple[dict, list[int]]] = {}
    for gid, channel in seen.items():
        wrong += check_card(fake, db, gid, channel)
        channels.setdefault(channel["id"], (channel, []))[1].append(gid)
    for channel, gids in channels.values():
        wrong += check_told(fake, db, gids, channel)
    return wrong + check_spectator(fake, world, db, set(seen))


async def run(kills: int, ngames: int, seed: int, keep: Path | None) -> None:
    """Play, kill, restart, check; print the figures."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    # each problem once, with the crash point of the kill after which it was first seen
    problems: dict[str, str] = {}
    async with FakeDiscord() as fake:
        names = [f"g{i}" for i in range(ngames)]
        async with FakeWorld(fake=fake, users=["alice", "bob", "carol"], channels=names) as world:
            with tempfile.TemporaryDirectory() as tmp:
                db = str(Path(tmp) / "bench.db")
                logs = (Path(tmp) / f"bot{i}.log" for i in range(10_000))
                games: dict[int, dict] = {}  # the game in play in each channel
                seen: dict[int, dict] = {}  # every game played, with its channel
                moves = killed = 0
                proc = await BotProcess(fake, db, next(logs)).start()
                for name in names:
                    channel = world.channels[name]
                    games[await start_game(fake, world, db, channel)] = channel
                await proc.stop()
                point = "the start"
                while killed < kills:
                    last, point = point, f"{rng.choice(POINTS)}:{rng.randint(1, 8)}"
                    # the new process delivers what the last crash left before it is checked
                    proc = await BotProcess(fake, db, next(logs), point).start()
                    seen.update(games)
                    for p in check(fake, world, db, seen):
                        problems.setdefault(p, f"{last}, checked in {proc.log.name}")
                    while proc.proc is not None and proc.proc.returncode is None:
                        gid = rng.choice(list(games))
                        channel = games[gid]
                        status, version = query(
                            db, "SELECT status, version FROM games WHERE id = ?", gid
                        )[0]
                        if status != "active":
                            try:
                                new = await start_game(fake, world, db, channel)
                            except (RuntimeError, AssertionError, TimeoutError):
                                await asyncio.sleep(0.1)  # died opening it: taken up after the restart
                                continue
                            del games[gid]
                            games[new] = channel
                            continue
                        try:
                            if rng.random() < CHATTER:
                                await chatter(fake, world, channel, rng)
                                continue
                            await move_by_menu(fake, world, db, gid)
                            await fake.wait_until(settled(proc, db, gid, version), timeout=15)
                        except (RuntimeError, StopIteration, AssertionError, TimeoutError):
                            await asyncio.sleep(0.1)  # the bot died under us: its gateway is gone
                        moves += 1
                    killed += 1
                proc = await BotProcess(fake, db, next(logs)).start()
                seen.update(games)
                for p in check(fake, world, db, seen):
                    problems.setdefault(p, f"{point}, checked in {proc.log.name}")
                await proc.stop()
                if keep is not None:
                    shutil.copytree(tmp, keep, dirs_exist_ok=True)
    print(f"{killed} kills (SIGKILL) over {moves} moves tried in {time.perf_counter() - t0:.0f} s,"
          f" {len(seen)} games")
    kinds = Counter(p.split(":")[0] for p in problems)
    print(f"problems after the restarts: {len(problems)}"
          + "".join(f", {kind} {n}" for kind, n in sorted(kinds.items())))
    for p, after in list(problems.items())[:20]:
        print(f"  {p}  [after {after}]")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--kills", type=int, default=10)
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", type=Path, help="copy the bots' logs and database here")
    args = p.parse_args()
    asyncio.run(run(args.kills, args.games, args.seed, args.keep))


if __name__ == "__main__":
    main()
