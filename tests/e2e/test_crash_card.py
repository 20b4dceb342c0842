"""Exactly one live card per game after a crash: the real bot, killed with SIGKILL after it
posted a game's card anew (the old one could no longer be edited, or the turn's message
went out as the new card) and before it stored it, then started again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from cogs.common.board import BURY_LIMIT
from cogs.common.delivery import SINCE_MARGIN

from .fake_discord import FakeDiscord
from .fake_limits import OLD_MESSAGE
from .harness import FakeWorld
from .test_crash import WAIT, BotProcess, boards, move_by_menu, open_lobby, query, undelivered

# What crashed_game gives.
Crashed = tuple[FakeWorld, str, dict, BotProcess, BotProcess, int, dict]


@asynccontextmanager
async def crashed_game(fake: FakeDiscord, tmp_path: Path, name: str) -> AsyncIterator[Crashed]:
    """A game of alice and bob started in a channel ``name`` of its own by a bot that dies the
    second time it posts a card (the start posts the first): (world, database, channel, that
    bot, the one to start after it, the game's number, the card the start posted). Both bots
    are stopped at the end, and neither may have logged an error."""
    async with FakeWorld(fake=fake, users=["alice", "bob"], channels=[name]) as world:
        db = str(tmp_path / "tablero.db")
        channel = world.channels[name]
        first = BotProcess(fake, db, tmp_path / "bot0.log", "board.posted:2")
        second = BotProcess(fake, db, tmp_path / "bot1.log")
        try:
            await first.start()
            gid, old = await started(fake, world, db, channel)
            yield world, db, channel, first, second, gid, old
        finally:
            await first.stop()
            await second.stop()
        for proc in (first, second):
            assert not proc.errors(), proc.text()[-3000:]


async def started(fake: FakeDiscord, world: FakeWorld, db: str, channel: dict) -> tuple[int, dict]:
    """alice and bob start a Rey y Hierofante game in ``channel``; its number and its card."""
    gid = await open_lobby(fake, world, channel, "rey_hierofante")
    inter = await fake.slash("game start", world["alice"], channel)
    await fake.wait_response(inter, timeout=WAIT)
    await fake.wait_until(lambda: undelivered(db) == 0 and boards(fake, channel, gid), timeout=WAIT)
    (card,) = boards(fake, channel, gid)
    return gid, card


def stored_card(db: str, gid: int) -> str:
    """The id of the card the store holds for game ``gid``."""
    return str(query(db, "SELECT board_message_id FROM games WHERE id = ?", gid)[0][0])


def two_live_cards(fake: FakeDiscord, channel: dict, db: str, gid: int, old: dict) -> list[dict]:
    """After the kill: the old card and the one posted anew are both live, the old one still
    the stored one; the live cards, oldest first."""
    live = boards(fake, channel, gid)
    assert len(live) == 2 and old["id"] in [m["id"] for m in live], [m["id"] for m in live]
    assert stored_card(db, gid) == old["id"]
    return live


async def one_live_card(fake: FakeDiscord, channel: dict, db: str, gid: int, second: BotProcess) -> dict:
    """Start the bot again and let it deliver what is owed: one live card is left, and it is
    the stored one; that card."""
    await second.start()
    await fake.wait_until(lambda: undelivered(db) == 0, timeout=WAIT)
    live = boards(fake, channel, gid)
    assert len(live) == 1, [m["id"] for m in live]
    assert stored_card(db, gid) == live[0]["id"]
    return live[0]


@pytest.mark.asyncio
async def test_a_card_posted_anew_and_not_stored_is_kept_and_the_old_one_goes(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    # the start posts the card (board.posted 1); the move below posts it anew (2)
    async with crashed_game(fake, tmp_path, "card") as (world, db, channel, first, second, gid, old):
        # A card posted more than a moment before the change (ids carry real time) is
        # not among the messages a restart looks through for that change's own posts.
        await asyncio.sleep(SINCE_MARGIN + 1)
        # An hour on, Discord refuses to edit the card: the move's card is posted anew,
        # and the bot dies before it stores it or deletes the old one.
        fake.clock.advance(OLD_MESSAGE + 60)
        menu = next(c["custom_id"] for c in fake.components(old)
                    if c.get("custom_id", "").startswith(f"tablero:pick:{gid}:"))
        uid = query(db, "SELECT user_id FROM seats WHERE game = ? AND seat = ?", gid,
                    int(menu.split(":")[4]))[0][0]
        user = next(u for u in world.users.values() if int(u["id"]) == uid)
        choices = await fake.autocomplete("game move", user, channel, focused="choice", choice="")
        assert choices
        await fake.slash("game move", user, channel, choice=choices[0]["value"])
        await first.killed()
        two_live_cards(fake, channel, db, gid, old)

        kept = await one_live_card(fake, channel, db, gid, second)
        assert kept["id"] != old["id"]  # the card posted before the crash is the one kept
        assert kept["embeds"][0]["footer"]["text"].splitlines()[0].endswith(" 1")


@pytest.mark.asyncio
async def test_a_turns_message_posted_as_the_new_card_and_not_stored_is_the_card_kept(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    # the start posts the card (board.posted 1); the turn's message below posts it anew (2)
    async with crashed_game(fake, tmp_path, "buried") as (world, db, channel, first, second, gid, old):
        # Chatter one message short of burying the card: the next turn's message is
        # posted as the new card. The move is made on the card, so the card is shown
        # (its edit answers the move) before the turn's message goes.
        for i in range(BURY_LIMIT - 1):
            await fake.post_as(world["alice"] if i % 2 else world["bob"], channel, f"chatter {i}")
        await move_by_menu(fake, world, db, gid)
        await first.killed()
        live = two_live_cards(fake, channel, db, gid, old)
        assert old["id"] == live[0]["id"]
        assert live[1]["content"]  # the new one carries the turn's message

        kept = await one_live_card(fake, channel, db, gid, second)
        assert kept["id"] == live[1]["id"]  # the card posted before the crash, with its text
        assert kept["content"].startswith(live[1]["content"].split("\n")[0])
        assert old["id"] in fake.deleted_messages  # the old card carried no turn's message
        # the turn's message was told once: as the card's text, not posted again
        told = live[1]["content"].split("\n")[0]
        assert [m["id"] for m in fake.channel_messages(channel) if told in m["content"]] == [kept["id"]]


@pytest.mark.asyncio
async def test_a_buried_card_posted_anew_outside_a_change_and_not_stored_is_found_at_the_start(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    # the start posts the card (board.posted 1); the vacation's showing posts it anew (2)
    async with crashed_game(fake, tmp_path, "vacation") as (world, db, channel, first, second, gid, old):
        for i in range(BURY_LIMIT):
            await fake.post_as(world["alice"] if i % 2 else world["bob"], channel, f"chatter {i}")
        # The clocks stop: the cards show it. No change of the game's is written for that,
        # so no delivery after the restart looks for what this showing posted.
        await fake.slash("game vacation", world["alice"], channel, days=3)
        await first.killed()
        live = two_live_cards(fake, channel, db, gid, old)
        assert old["id"] == live[0]["id"]

        kept = await one_live_card(fake, channel, db, gid, second)
        assert kept["id"] == live[1]["id"]  # the card posted before the crash
        assert query(db, "SELECT card_posting_at FROM games WHERE id = ?", gid) == [(None,)]
        assert old["id"] in fake.deleted_messages
