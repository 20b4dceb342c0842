"""What a card's text says is true at every moment: a card that carries a turn's message
(posted when that message would have buried it) keeps the turn that ended but loses its
"who acts now" lines once the turn moves on; a card from before a restart or an upgrade
(whose text may be an old ping line) is set right at its first edit. All by edits of the
card: no new channel message, and nobody pinged again (an edit allows no mention)."""

from __future__ import annotations

import asyncio
import random

import pytest

from cogs.common.card_text import split_told
from cogs.common.present import ping_line

from .fake_discord import EPHEMERAL, FakeDiscord
from .harness import FakeWorld
from .table import Table
from .test_acknowledged import move_by_command, two_players


def created(fake: FakeDiscord, channel: dict) -> int:
    """How many messages everyone sees were created in ``channel`` (deleted ones too)."""
    every = [*fake.channel_messages(channel),
             *(m for m in fake.deleted_messages.values() if m["channel_id"] == channel["id"])]
    return sum(not m["flags"] & EPHEMERAL for m in every)


async def settled(t: Table, gid: int) -> None:
    """Wait until the game's card shows its newest change and nothing more is owed."""
    version = (await t.game(gid)).version
    await t.fake.wait_until(lambda: t._current_board(gid, version) is not None, timeout=10)
    for _ in range(200):
        if not await t.bot.session.store.open_changes(gid) and not t.bot.boards._lock(gid).locked():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"game {gid}: changes left undelivered")


async def turn_passes(t: Table, gid: int, rng: random.Random) -> None:
    """Whoever acts moves (steps of their turn fold into the card) until the turn passes."""
    while True:
        g = await t.game(gid)
        (seat,) = g.pending()
        await move_by_command(t, gid, rng)
        await settled(t, gid)
        g = await t.game(gid)
        if g.status != "active" or seat not in g.pending():
            return


def edits_allowed_no_mention(fake: FakeDiscord, message_id: str) -> None:
    """Every edit of ``message_id``'s text (by the channel's route or a webhook) allowed no mention."""
    for rec in fake.requests:
        if rec.method == "PATCH" and isinstance(rec.body, dict) and "content" in rec.body \
                and rec.path.endswith(f"/messages/{message_id}"):
            allowed = rec.body.get("allowed_mentions") or {}
            assert not allowed.get("users") and not allowed.get("parse"), rec.body


@pytest.mark.asyncio
async def test_a_card_carrying_a_turns_message_drops_who_acts_once_the_turn_moves_on(
    fake: FakeDiscord, db: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db, random.Random(1))
        await t.start()
        gid = await two_players(t)
        rng = random.Random(6)
        t.bot.boards.bury_limit = 1  # the next turn's message buries the card: it carries it
        await turn_passes(t, gid, rng)
        card = t.board(gid)
        carried = card["content"]
        g = await t.game(gid)
        (seat,) = g.pending()
        acting = str(g.seat_row(seat).user_id)
        assert fake.pinged(card) == [acting] and f"<@{acting}>" in carried
        body, _ = split_told(carried, None)
        assert body and body != carried
        t.bot.boards.bury_limit = None  # from now on the card is edited in place
        count = len(fake.channel_messages(world.channel))
        before = created(fake, world.channel)
        await turn_passes(t, gid, rng)
        # the same card, telling the turn that ended and no longer who acted then
        assert t.board(gid)["id"] == card["id"]
        assert fake.messages[card["id"]]["content"] == body
        # one new message (the next turn's, with its ping); the card's edits pinged nobody
        assert created(fake, world.channel) == before + 1
        assert len(fake.channel_messages(world.channel)) == count + 1
        assert fake.pinged(fake.messages[card["id"]]) == [acting]  # from when it was posted
        edits_allowed_no_mention(fake, card["id"])


@pytest.mark.asyncio
async def test_a_card_from_before_an_upgrade_loses_its_old_ping_line_at_its_first_edit(
    fake: FakeDiscord, db: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db, random.Random(2))
        await t.start()
        gid = await two_players(t)
        rng = random.Random(3)
        await turn_passes(t, gid, rng)
        card = t.board(gid)
        assert card["content"] == ""
        # the card as the version before posted it: its text the ping of whoever acted then
        old = ping_line(await t.game(gid), "es")
        assert old and "<@" in old
        fake.messages[card["id"]]["content"] = old
        await t.restart()  # the upgrade
        before = created(fake, world.channel)
        # the restart's look at the card, or the next move's edit, sets its text right
        await move_by_command(t, gid, rng)
        await settled(t, gid)
        await fake.wait_until(lambda: fake.messages[card["id"]]["content"] == "")
        assert t.board(gid)["id"] == card["id"]
        reads = [r for r in fake.requests if r.method == "GET" and r.path.endswith(f"/messages/{card['id']}")]
        await turn_passes(t, gid, rng)
        # read once, then known
        assert [r for r in fake.requests if r.method == "GET"
                and r.path.endswith(f"/messages/{card['id']}")] == reads and len(reads) == 1
        assert created(fake, world.channel) - before <= 2  # the turns' messages alone
        edits_allowed_no_mention(fake, card["id"])


@pytest.mark.asyncio
async def test_a_card_carrying_a_turns_message_across_a_restart_drops_who_acts_when_the_turn_moves_on(
    fake: FakeDiscord, db: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db, random.Random(4))
        await t.start()
        gid = await two_players(t)
        rng = random.Random(5)
        t.bot.boards.bury_limit = 1
        await turn_passes(t, gid, rng)
        card = t.board(gid)
        carried = card["content"]
        body, _ = split_told(carried, None)
        assert body and body != carried
        await t.restart()
        t.bot.boards.bury_limit = None
        await settled(t, gid)
        assert fake.messages[card["id"]]["content"] == carried  # still true: kept
        await turn_passes(t, gid, rng)
        assert t.board(gid)["id"] == card["id"]
        assert fake.messages[card["id"]]["content"] == body
        edits_allowed_no_mention(fake, card["id"])
