"""When the card's Play button is acknowledged as an update of the card (its menu was not ready
within the answer's budget, or the bot's global pace is busy), its private menu comes as a
followup, and the move chosen there shows on the card through that click's interaction
webhook (``@original``), which Discord does not bind to the bot's global rate limit; when
Discord refuses that token (past its 15 minutes), the bot edits the card with its own."""

from __future__ import annotations

import random

import pytest

from cogs.common import answering

from .driver import Driver, seeded_table, start_game
from .fake_discord import FakeDiscord
from .fake_limits import TOKEN_LIFETIME
from .harness import FakeWorld
from .spec_check import invalid

SEED = 3


def _since(fake: FakeDiscord, mark: int, method: str, path: str) -> list:
    """Requests made since ``mark`` with ``method`` on exactly ``path``."""
    return [r for r in fake.requests[mark:] if r.method == method and r.path == path]


@pytest.mark.asyncio
async def test_a_move_from_the_private_menu_shows_on_the_card_through_the_clicks_webhook(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answering, "ANSWER_WITHIN", 0.0)  # Play acknowledged at once
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = await seeded_table(world, db, SEED)
        gid, _ = await start_game(t, world["alice"], "rattus_cartus", click=(world["bob"],))
        p = Driver(t, gid, rng=random.Random(SEED))
        version = p.version()
        card = await p.settled(version)
        channel = card["channel_id"]
        mark = len(fake.requests)
        await p.move_by_menu()  # the Play button, then the private menu: no public menu here
        plays = [i for i in fake.interactions.values()
                 if i.get("data", {}).get("custom_id", "").startswith(f"tablero:play:{gid}")]
        assert plays, "the move was not made through the Play button"
        play = plays[-1]
        assert fake.interaction_responses[play["id"]]["type"] == 6  # the card acknowledged as it is
        await p.settled(p.version())
        await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        assert t.board(gid)["id"] == card["id"]
        original = f"/webhooks/{fake.app_id}/{play['token']}/messages/@original"
        assert [r.status for r in _since(fake, mark, "PATCH", original)] == [200]
        assert not _since(fake, mark, "PATCH", f"/channels/{channel}/messages/{card['id']}")

        # Discord no longer takes that token: the card's next edit is the bot's own
        fake.clock.advance(TOKEN_LIFETIME + 1)
        version = p.version()
        seat, user = await t.user_to_act(gid)
        mark = len(fake.requests)
        choices = await fake.autocomplete("game move", user, world.channel, focused="choice", choice="")
        await t.slash("game move", user, choice=choices[0]["value"])
        await p.moved_past(version)
        shown = await p.settled(p.version())
        await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        assert shown["id"] == card["id"]  # the same card, edited (a few turns bury nothing)
        assert [r.code for r in _since(fake, mark, "PATCH", original)] == [50027]
        edits = _since(fake, mark, "PATCH", f"/channels/{channel}/messages/{card['id']}")
        assert [r.status for r in edits] == [200]
        # every answer and event, the webhook's included, as Discord's OpenAPI spec has them
        found, routes, _ = invalid(fake)
        assert not found, "\n".join(found)
        assert "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original" in routes, routes
