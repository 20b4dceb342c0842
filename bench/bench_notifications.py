"""Channel messages, pings and DMs per turn, for each game, through the real bot and the fake Discord.

Every seat is a human who plays a random legal move with ``/game move`` (its autocomplete
lists the legal moves), so the whole Discord side runs as in a server. A ping is counted
as Discord counts it: a user mentioned, and allowed to be notified, in a message when it is
created (never in an edit). A DM is a new message in a player's DM channel (an edit is
not counted). A seat's turn begins each time it goes from not having to act to having to
act; a turn change is a move after which some seat's turn begins, or the move that ends the
game (its end is told as a turn's message is). A channel message is any
message the bot created in the game's channel after the game began (the card included),
whether or not it was deleted later; answers only their asker sees are not. One spectator follows every game (``/game watch``).

    PYTHONPATH=. python bench/bench_notifications.py [--moves 80] [--all-counts] [--whole] [--games ragami ...]

``--all-counts`` plays every player count each game allows (else one count per game);
``--whole`` plays each game to its end (``--moves`` then bounds a game that does not end).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot import Settings, create_bot
from rules.registry import engine
from tests.e2e.fake_discord import EPHEMERAL, FakeDiscord
from tests.e2e.harness import FakeWorld

GAMES = {"rey_hierofante": 2, "rattus_cartus": 3, "ankh_morpork": 3, "ragami": 3, "guerra_de_mitos": 2}
NAMES = ["ana", "bruno", "carla", "dario", "elena", "fede"]
WATCHER = "vera"
MENTION_RE = r"<@!?(\d+)>"


@dataclass
class Figures:
    """What one game cost in notifications."""

    moves: int
    turns: int  # seats' turns begun
    changes: int  # moves after which some seat's turn began
    channel: int  # channel messages created after the lobby
    start: int  # of them, created by the game's start (before the first move)
    pings: int
    dms: int
    watcher_dms: int
    finished: bool


def _count_created(fake: FakeDiscord, pings: Counter[str], created: Counter[str]) -> None:
    """Wrap the fake's message creation to count pings as Discord would (at creation) and
    messages created per channel."""
    create = fake._create_message

    def counting(channel_id, body, files, **kw):  # type: ignore[no-untyped-def]
        msg = create(channel_id, body, files, **kw)
        if not msg["flags"] & EPHEMERAL:  # an answer only its asker sees is no channel message
            created[str(channel_id)] += 1
        allowed = body.get("allowed_mentions")
        ids = list(dict.fromkeys(re.findall(MENTION_RE, body.get("content") or "")))
        if allowed is not None and "users" not in allowed.get("parse", []):
            ids = [u for u in ids if u in {str(x) for x in allowed.get("users", [])}]
        if fake._channel(channel_id)["type"] != 1:
            pings.update(ids)
        else:  # every DM notifies; one that names its reader asks them to act (a reaction)
            reader = [u["id"] for u in fake._channel(channel_id)["recipients"]]
            pings.update(u for u in ids if u in reader)
        return msg

    fake._create_message = counting  # type: ignore[method-assign]


async def _delivered(bot: object, gid: int) -> None:
    """Wait until every change of game ``gid`` is delivered (at most 10 s)."""
    store = bot.session.store  # type: ignore[attr-defined]
    for _ in range(1000):
        if not await store.open_changes(gid):
            return
        await asyncio.sleep(0.01)


async def play(game_id: str, seats: int, moves: int, seed: int) -> Figures:
    """One game of ``game_id`` for ``seats`` humans, watched by one spectator."""
    rng = random.Random(seed)
    pings: Counter[str] = Counter()
    created: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeWorld(users=[*NAMES[:seats], WATCHER]) as world:
            fake = world.fake
            _count_created(fake, pings, created)
            bot = create_bot(Settings(token="fake-token", db_path=str(Path(tmp) / "b.db")))
            await world.start(bot)
            users = [world[n] for n in NAMES[:seats]]
            watcher = world[WATCHER]
            inter = await fake.slash("game new", users[0], world.channel, game=game_id, thread=False)
            await fake.wait_response(inter)
            gid = (await bot.session.in_channel(int(world.channel["id"]))).id
            for u in users[1:]:
                await fake.wait_response(await fake.slash("game join", u, world.channel))
            await fake.wait_response(await fake.slash("game watch", watcher, world.channel))
            start_count = created[world.channel["id"]]
            await fake.wait_response(await fake.slash("game start", users[0], world.channel))
            await fake.wait_until(lambda: bot.session.cached(gid) is not None
                                  and bot.session.cached(gid).state is not None)
            await _delivered(bot, gid)  # the start's messages
            start_msgs = created[world.channel["id"]] - start_count
            dms_start = {u["id"]: len(fake.dms_to(u)) for u in users}
            watch_start = len(fake.dms_to(watcher))
            turns: Counter[int] = Counter()
            changes = made = 0
            g = bot.session.cached(gid)
            before: set[int] = set()
            for i in range(moves + 1):
                # What the last move did (the start's turns, before the first): counted here,
                # so the loop goes round once more after the last move it makes.
                g = bot.session.cached(gid) or await bot.session.get(gid)
                pending = set(g.pending())
                begun = pending - before
                turns.update(begun)
                ended = not pending or g.status != "active"
                changes += (bool(begun) or ended) and made > 0  # the start is no turn change
                if ended or i == moves:
                    break
                seat = rng.choice(sorted(pending))
                uid = str(g.seat_row(seat).user_id)
                user = next(u for u in users if u["id"] == uid)
                version = g.version
                choices = await fake.autocomplete("game move", user, world.channel, focused="choice", choice="")
                if not choices:
                    break
                value = rng.choice(choices)["value"]
                await fake.wait_response(await fake.slash("game move", user, world.channel, choice=value))
                await fake.wait_until(lambda g=g, v=version: (bot.session.cached(gid) or g).version != v, timeout=10)
                moved = (bot.session.cached(gid) or g).version != version
                made += moved
                before = pending if moved else before
                # A player acts once told: the change's messages (card, DMs, questions) are out.
                # Moving sooner, a seat asked by DM may answer before its question is sent,
                # which is then rightly never sent (nor its ping counted).
                await _delivered(bot, gid)
            await asyncio.sleep(0.5)
            g = bot.session.cached(gid) or await bot.session.get(gid)
            figures = Figures(
                moves=made, turns=sum(turns.values()), changes=changes,
                channel=created[world.channel["id"]] - start_count, start=start_msgs,
                pings=sum(pings[u["id"]] for u in users),
                dms=sum(len(fake.dms_to(u)) - dms_start[u["id"]] for u in users),
                watcher_dms=len(fake.dms_to(watcher)) - watch_start,
                finished=g.status == "finished",
            )
            await world.stop()
    return figures


async def main_async(moves: int, all_counts: bool, whole: bool, only: Sequence[str] = ()) -> None:
    """Print the figures for every game (and player count)."""
    print("chan: channel messages after the lobby, of them start: the start's; chan/chg: the others\n"
          "per turn change (the game's end is one); pings/turn: per seat's turn begun; watch: DMs\n"
          "a spectator received")
    print(f"{'game':16} {'n':>2} {'moves':>5} {'turns':>5} {'chg':>4} {'chan':>5} {'start':>5} "
          f"{'chan/chg':>8} {'pings/turn':>10} {'dms/turn':>8} {'watch':>5} end")
    for game_id, seats in GAMES.items():
        if only and game_id not in only:
            continue
        e = engine(game_id)
        counts = range(e.min_players, min(e.max_players, len(NAMES)) + 1) if all_counts else [seats]
        for n in counts:
            r = await play(game_id, n, moves, 1)
            print(f"{game_id:16} {n:2} {r.moves:5} {r.turns:5} {r.changes:4} {r.channel:5} {r.start:5} "
                  f"{(r.channel - r.start) / max(1, r.changes):8.2f} {r.pings / max(1, r.turns):10.2f} "
                  f"{r.dms / max(1, r.turns):8.2f} {r.watcher_dms:5} {'yes' if r.finished else 'no'}",
                  flush=True)


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--all-counts", action="store_true")
    parser.add_argument("--whole", action="store_true", help="play each game to its end")
    parser.add_argument("--games", nargs="*", default=[], help="only these games (default: all five)")
    args = parser.parse_args()
    asyncio.run(main_async(args.moves if not args.whole else max(args.moves, 5000), args.all_counts, args.whole,
                           args.games))


if __name__ == "__main__":
    main()
