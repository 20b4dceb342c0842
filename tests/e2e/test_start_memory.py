"""A start that does not grow with the stored games: none is read before the bot is ready,
each is read when first touched, and no more than the game cache's size stay in memory."""

from __future__ import annotations

from typing import Any

from bot import Settings, TableroBot
from services.session import SessionService
from storage import Store

from .harness import FakeWorld

GAMES = 24
CACHE = 5


class CountingBot(TableroBot):
    """The real bot, noting how many games it held when it became ready."""

    held_at_ready: int | None = None

    async def on_ready(self) -> None:
        if self.held_at_ready is None:
            self.held_at_ready = len(self.session._games)
        await super().on_ready()


async def stored_games(db: str, channel: int) -> list[int]:
    """Open games written as a previous run of the bot left them (their start delivered)."""
    store = await Store.open(db)
    try:
        service = SessionService(store, seed_source=lambda: 11)
        ids = []
        for i in range(GAMES):
            g = await service.create(guild_id=None, channel_id=channel + i, game_id="rey_hierofante",
                                     options={}, host_id=1000 + i, host_name="ana", locale="en")
            await service.join(g.id, user_id=2000 + i, name="bruno", locale="en")
            await service.start(g.id, by=1000 + i)
            ids.append(g.id)
        for change in await store.open_changes():
            await store.outbox_done(change.id)
        return ids
    finally:
        await store.close()


async def test_start_reads_no_game_and_memory_holds_only_the_cache(fake: Any, db: str) -> None:
    async with FakeWorld(users=["alice"], fake=fake) as world:
        ids = await stored_games(db, 10**15)
        bot = CountingBot(Settings(token="fake-token", db_path=db, game_cache=CACHE), run_clock=False)
        await world.start(bot)
        assert bot.held_at_ready == 0  # nothing read before ready, however many are stored
        assert bot._resume_task is not None
        # Their cards were never stored (no Discord side wrote them): each game is looked at
        # once, to find its card, and no more than the cache's size stay.
        await bot._resume_task
        assert len(bot.session._games) <= CACHE
        # A game let go is read again whole when touched.
        first = ids[0]
        assert bot.session.cached(first) is None
        g = await bot.session.get(first)
        assert g is not None and g.status == "active" and len(g.seats) == 2 and g.state is not None
        assert len(bot.session._games) <= CACHE
