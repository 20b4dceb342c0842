"""The bot keeps its own requests under Discord's global limit: a burst waits, never a 429."""

from __future__ import annotations

import asyncio
import random

from .fake_discord import FakeDiscord
from .harness import FakeWorld
from .table import Table


async def test_a_burst_of_requests_is_paced_under_the_global_limit(fake: FakeDiscord, db: str) -> None:
    async with FakeWorld(fake=fake) as world:
        t = Table(world, db, random.Random(1))
        await t.start()
        # Discord's own window: 50 requests a second, whatever the route.
        fake.strict.window_scale = 1.0
        fake.limiter.global_bucket = None
        first = len(fake.requests)
        alice = int(world["alice"]["id"])
        users = await asyncio.gather(*(t.bot.fetch_user(alice) for _ in range(60)))
        assert {u.id for u in users} == {alice}
        burst = fake.requests[first:]
        assert len(burst) == 60
        assert not fake.rate_limited, "the bot met Discord's global limit instead of pacing itself"
        assert t.bot.pace.waited > 0  # the requests past the pace waited for room
        fake.strict.window_scale = 0.02


async def test_a_burst_of_dms_to_one_player_meets_no_bucket(fake: FakeDiscord, db: str) -> None:
    async with FakeWorld(fake=fake) as world:
        t = Table(world, db, random.Random(1))
        await t.start()
        alice = int(world["alice"]["id"])
        first = len(fake.requests)
        # A player told of many games at once: far more than a DM channel's 5 messages per
        # (scaled) 5 seconds, all asked for together, the first before the bucket is known.
        sent = await asyncio.gather(*(t.bot.delivery.dm(alice, content=f"game {k}") for k in range(60)))
        assert all(sent)
        burst = [r for r in fake.requests[first:] if r.method == "POST" and r.path.endswith("/messages")]
        assert len(burst) == 60  # each sent once: none refused and sent again
        assert not fake.rate_limited, "the bot overran the DM channel's bucket instead of waiting for it"
        assert t.bot.pace.routes.waited > 0
