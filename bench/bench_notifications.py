"""Pings and DMs per player per turn, for each game, through the real bot and the fake Discord.

Every seat is a human who plays a random legal move with ``/game move`` (its autocomplete
lists the legal moves), so the whole Discord side runs as in a server. A ping is counted
as Discord counts it: a user mentioned, and allowed to be notified, in a message when it is
created (never in an edit). A DM is a new message in a player's DM channel (an edit is
not counted). A turn is each time a seat goes from not having to act to having to act.

    PYTHONPATH=. python bench/bench_notifications.py [--moves 80]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
from collections import Counter
from pathlib import Path

from bot import Settings, create_bot
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.harness import FakeWorld

GAMES = {"rey_hierofante": 2, "rattus_cartus": 3, "ankh_morpork": 3, "ragami": 3, "guerra_de_mitos": 2}
NAMES = ["ana", "bruno", "carla"]
MENTION_RE = r"<@!?(\d+)>"


def _count_pings(fake: FakeDiscord, pings: Counter[str]) -> None:
    """Wrap the fake's message creation to count pings as Discord would, at creation."""
    import re

    create = fake._create_message

    def counting(channel_id, body, files, **kw):  # type: ignore[no-untyped-def]
        msg = create(channel_id, body, files, **kw)
        allowed = body.get("allowed_mentions")
        ids = list(dict.fromkeys(re.findall(MENTION_RE, body.get("content") or "")))
        if allowed is not None and "users" not in allowed.get("parse", []):
            ids = [u for u in ids if u in {str(x) for x in allowed.get("users", [])}]
        if fake._channel(channel_id)["type"] != 1:  # DMs notify anyway; count channel pings
            pings.update(ids)
        return msg

    fake._create_message = counting  # type: ignore[method-assign]


async def play(game_id: str, seats: int, moves: int, seed: int) -> dict[str, float]:
    """One game of ``game_id`` for ``seats`` humans; pings and DMs per player per turn."""
    rng = random.Random(seed)
    pings: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeWorld(users=NAMES[:seats]) as world:
            fake = world.fake
            _count_pings(fake, pings)
            bot = create_bot(Settings(token="fake-token", db_path=str(Path(tmp) / "b.db")))
            await world.start(bot)
            users = [world[n] for n in NAMES[:seats]]
            inter = await fake.slash("game new", users[0], world.channel, game=game_id)
            await fake.wait_response(inter)
            gid = (await bot.session.in_channel(int(world.channel["id"]))).id
            for u in users[1:]:
                await fake.wait_response(await fake.slash("game join", u, world.channel))
            await fake.wait_response(await fake.slash("game start", users[0], world.channel))
            await fake.wait_until(lambda: bot.session.cached(gid) is not None
                                  and bot.session.cached(gid).state is not None)
            dms_start = {u["id"]: len(fake.dms_to(u)) for u in users}
            turns: Counter[int] = Counter()
            g = bot.session.cached(gid)
            before: set[int] = set()
            for _ in range(moves):
                g = bot.session.cached(gid) or await bot.session.get(gid)
                pending = set(g.pending())
                turns.update(pending - before)
                if not pending or g.status != "active":
                    break
                seat = rng.choice(sorted(pending))
                user = users[seat]
                version = g.version
                choices = await fake.autocomplete("game move", user, world.channel, focused="choice", choice="")
                if not choices:
                    break
                value = rng.choice(choices)["value"]
                await fake.wait_response(await fake.slash("game move", user, world.channel, choice=value))
                await fake.wait_until(lambda g=g, v=version: (bot.session.cached(gid) or g).version != v, timeout=10)
                before = pending if (bot.session.cached(gid) or g).version != version else before
                await asyncio.sleep(0.05)  # let the fan-out (board, DMs) finish
            await asyncio.sleep(0.3)
            n_turns = sum(turns.values()) or 1
            n_pings = sum(pings[u["id"]] for u in users)
            n_dms = sum(len(fake.dms_to(u)) - dms_start[u["id"]] for u in users)
            await world.stop()
    return {"turns": n_turns, "pings_per_turn": n_pings / n_turns, "dms_per_turn": n_dms / n_turns}


async def main_async(moves: int) -> None:
    """Print the figures for every game."""
    for game_id, seats in GAMES.items():
        r = await play(game_id, seats, moves, 1)
        print(f"{game_id:16} {seats} players, {r['turns']:3.0f} turns: "
              f"{r['pings_per_turn']:.2f} pings and {r['dms_per_turn']:.2f} new DMs per player-turn")


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=80)
    args = parser.parse_args()
    asyncio.run(main_async(args.moves))


if __name__ == "__main__":
    main()
