"""Message events from the fake Discord: MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE as a
bot without the message content intent gets them, and Tablero's board re-posted once chatter
buries it, every link the bot gave still leading to it."""

from __future__ import annotations

import json
import random
import re

import discord
from discord.ext import commands

from cogs.common.board import BURY_LIMIT
from services.clock import ManualClock

from .fake_discord import VIEW_CHANNEL, FakeDiscord
from .harness import FakeWorld
from .table import Table

HOUR = 3600.0


class Listener(commands.Bot):
    """A bot that keeps every message event discord.py hands it, and can post and edit."""

    def __init__(self, intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default())
        self.created: list[discord.Message] = []
        self.edited: list[discord.RawMessageUpdateEvent] = []
        self.deleted: list[int] = []

        @self.tree.command(name="say", description="Say something")
        async def say(interaction: discord.Interaction, text: str, hidden: bool = False) -> None:
            await interaction.response.send_message(text, ephemeral=hidden)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        self.created.append(message)

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        self.edited.append(payload)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        self.deleted.append(payload.message_id)


def events(fake: FakeDiscord, name: str) -> list[dict]:
    """The payloads of every ``name`` event the fake sent."""
    return [data for event, data in fake.dispatched if event == name]


async def test_users_messages_reach_the_bot_without_their_content(world: FakeWorld) -> None:
    fake, alice = world.fake, world["alice"]
    bot = Listener()
    await world.start(bot)
    plain = await fake.post_as(alice, world.channel, "a secret plan", embeds=[{"title": "and an embed"}])
    await fake.wait_until(lambda: len(bot.created) == 1)
    seen = bot.created[0]
    # no message content intent: Discord empties another user's content, embeds and components
    assert seen.id == int(plain["id"]) and seen.author.id == int(alice["id"])
    assert isinstance(seen.author, discord.Member)  # the event carries the author's member
    assert seen.content == "" and seen.embeds == [] and seen.attachments == []
    # ... also over REST, while the fake itself keeps what was written
    fetched = await bot.get_partial_messageable(int(world.channel["id"])).fetch_message(seen.id)
    assert fetched.content == "" and fake.messages[plain["id"]]["content"] == "a secret plan"
    # a message mentioning the bot keeps its content
    await fake.post_as(alice, world.channel, f"<@{fake.bot_user['id']}> hello")
    await fake.wait_until(lambda: len(bot.created) == 2)
    assert bot.created[1].content.endswith("hello")
    # edits and deletions are events too
    await fake.edit_as(alice, plain, "a new plan")
    await fake.wait_until(lambda: bot.edited)
    assert bot.edited[0].message_id == seen.id and bot.edited[0].data["content"] == ""
    await fake.delete_message(world.channel, plain)
    await fake.wait_until(lambda: bot.deleted == [seen.id])


async def test_the_bots_own_messages_and_replies_are_events(world: FakeWorld) -> None:
    fake, alice = world.fake, world["alice"]
    bot = Listener()
    await world.start(bot)
    sent = await bot.get_partial_messageable(int(world.channel["id"])).send("from the bot")
    await fake.wait_until(lambda: len(bot.created) == 1)
    assert bot.created[0].id == sent.id and bot.created[0].content == "from the bot"
    inter = await fake.slash("say", alice, world.channel, text="visible")
    await fake.wait_response(inter)
    await fake.wait_until(lambda: len(bot.created) == 2)
    reply = events(fake, "MESSAGE_CREATE")[-1]
    assert reply["content"] == "visible" and reply["webhook_id"] == fake.app_id and "member" not in reply
    # an ephemeral reply is nobody's channel message: no event
    inter = await fake.slash("say", alice, world.channel, text="hidden", hidden=True)
    await fake.wait_response(inter)
    await sent.edit(content="edited")
    await fake.wait_until(lambda: bot.edited)
    assert len(bot.created) == 2 and bot.edited[0].data["tts"] is False


async def test_dms_need_their_intent_and_keep_their_content(world: FakeWorld) -> None:
    fake, alice = world.fake, world["alice"]
    bot = Listener(discord.Intents.default() & ~discord.Intents(dm_messages=True))
    await world.start(bot)
    dm = fake.open_dm(alice)
    await fake.post_as(alice, dm, "no intent, no event")
    await fake.post_as(alice, world.channel, "but guild messages come")
    await fake.wait_until(lambda: bot.created)
    assert [m.channel.id for m in bot.created] == [int(world.channel["id"])]
    await world.restart(Listener())
    await fake.post_as(alice, dm, "in a DM the content stays")
    await fake.wait_until(lambda: world.bot.created)  # type: ignore[union-attr]
    assert world.bot.created[0].content == "in a DM the content stays"  # type: ignore[union-attr]


async def test_no_guild_message_events_without_the_intent_or_the_channel(world: FakeWorld) -> None:
    fake, alice = world.fake, world["alice"]
    bot = Listener(discord.Intents.default() & ~discord.Intents(guild_messages=True))
    await world.start(bot)
    await fake.post_as(alice, world.channel, "unseen")
    await bot.get_partial_messageable(int(world.channel["id"])).send("the bot's own, unseen too")
    await world.restart(Listener())
    await fake.deny_bot(world.channels["general"], VIEW_CHANNEL)
    await fake.post_as(alice, world.channels["general"], "where the bot cannot look")
    await fake.post_as(alice, world.channel, "seen")
    await fake.wait_until(lambda: world.bot.created)  # type: ignore[union-attr]
    assert [m.id for m in world.bot.created] == [int(fake.last_message(world.channel)["id"])]  # type: ignore[union-attr]
    assert not [e for e in events(fake, "MESSAGE_CREATE") if e["content"] in ("unseen", "the bot's own, unseen too")]


async def test_a_board_buried_under_chatter_is_posted_again_and_the_old_one_deleted(world: FakeWorld, db) -> None:
    fake, alice, bob = world.fake, world["alice"], world["bob"]
    t = Table(world, db, random.Random(3))
    await t.start()
    gid, lobby = await t.new_game(alice)
    buttons = t.lobby_buttons(lobby)
    await t.click(lobby, buttons["join"], bob)
    await t.click(lobby, buttons["start"], alice)
    board = await fake.wait_until(lambda: t._current_board(gid, 0))
    await t.move_by_menu(gid)
    board = await fake.wait_until(lambda: t._current_board(gid, 1))
    # one move with nothing said in between: the board is edited where it is
    assert t.board(gid)["id"] == board["id"]
    for i in range(BURY_LIMIT):
        await fake.post_as(alice if i % 2 else bob, world.channel, f"chatter {i}")
    await t.move_by_menu(gid)
    new = await fake.wait_until(lambda: t._current_board(gid, 2))
    assert new["id"] != board["id"] and board["id"] in fake.deleted_messages
    # the new board is below the chatter
    chatter = [m for m in fake.channel_messages(world.channel) if m["content"].startswith("chatter")]
    assert int(new["id"]) > int(chatter[-1]["id"])



async def _started(t: Table, alice: dict, bob: dict) -> int:
    """A Rey y Hierofante game between alice and bob, started; returns its id."""
    gid, lobby = await t.new_game(alice)
    buttons = t.lobby_buttons(lobby)
    await t.click(lobby, buttons["join"], bob)
    await t.click(lobby, buttons["start"], alice)
    await t.fake.wait_until(lambda: t._current_board(gid, 0))
    return gid


async def _chatter(world: FakeWorld, count: int) -> None:
    for i in range(count):
        await world.fake.post_as(world["alice"] if i % 2 else world["bob"], world.channel, f"chatter {i}")


async def test_a_board_from_before_a_restart_is_buried_too(world: FakeWorld, db) -> None:
    fake = world.fake
    t = Table(world, db, random.Random(4))
    await t.start()
    gid = await _started(t, world["alice"], world["bob"])
    board = await fake.wait_until(lambda: t.board(gid))
    before = len(fake.requests)
    await t.restart()
    # the new bot (from its login on, GET /users/@me) leaves the game's card as it is once it
    # is up (nothing is owed to it: its game is read when first touched) ...
    login = next(i for i in range(before, len(fake.requests)) if fake.requests[i].path == "/users/@me")
    assert t.bot._resume_task is not None
    await t.bot._resume_task
    assert not [r for r in fake.requests[login:] if r.path.endswith(f"/messages/{board['id']}")]
    assert t.bot.session.cached(gid) is None
    # ... and from then on chatter buries it as it buried the old process's boards
    await _chatter(world, BURY_LIMIT)
    await t.move_by_menu(gid)
    new = await fake.wait_until(lambda: t._current_board(gid, 1))
    assert new["id"] != board["id"] and board["id"] in fake.deleted_messages



LINK = re.compile(r"https://discord\.com/channels/(?:\d+|@me)/(\d+)(?:/(\d+))?|<#(\d+)>")


def links_in(message: dict) -> list[tuple[str, str | None]]:
    """The (channel, message or None) of every link and channel mention in ``message``."""
    text = (message.get("content") or "") + json.dumps(message.get("embeds", []))
    return [(m[1] or m[3], m[2]) for m in LINK.finditer(text)]


def leads_to_the_card(fake: FakeDiscord, link: tuple[str, str | None], card: dict) -> bool:
    """Whether following ``link`` now shows the live ``card``: a link to it, or to the channel
    (the game's thread) where it is live; never a deleted message."""
    channel, message = link
    if message is not None:
        return message == card["id"]
    return channel == card["channel_id"] and card["id"] in [m["id"] for m in fake.channel_messages(channel)]


async def test_every_link_the_bot_gives_leads_to_the_card_posted_again(world: FakeWorld, db) -> None:
    fake, alice, bob = world.fake, world["alice"], world["bob"]
    clock = ManualClock()
    t = Table(world, db, random.Random(5), clock=clock)
    await t.start()
    for player in (alice, bob):  # told of their turn by DM (with what happened meanwhile)
        await t.slash("settings", player, notify="dm")
    gid, lobby = await t.new_game(alice, clock="24h")
    buttons = t.lobby_buttons(lobby)
    await t.click(lobby, buttons["join"], bob)
    await t.click(lobby, buttons["start"], alice)
    await fake.wait_until(lambda: t._current_board(gid, 0))
    given: dict[str, dict] = {}  # what gave the link -> the message it is in
    seen: set[str] = set()

    async def collect(when: str) -> None:
        # moves until the turn passes (the next player's turn DM catches them up; their
        # clock starts anew), then the clock's reminder and "my games"
        mover = await t.user_to_act(gid)
        while await t.user_to_act(gid) == mover:
            version = (await t.game(gid)).version
            await t.move_by_menu(gid)
            await fake.wait_until(lambda v=version + 1: t._current_board(gid, v))
        _, player = await t.user_to_act(gid)
        given[f"turn DM, {when}"] = await fake.wait_for_dm(player, lambda m: "Your turn" in m["content"]
                                                            and m["id"] not in seen)
        clock.advance(12 * HOUR)
        assert (await t.bot.scheduler.tick()).reminders == 1
        given[f"reminder, {when}"] = await fake.wait_for_dm(player, lambda m: "Reminder" in m["content"]
                                                            and m["id"] not in seen)
        _, _, given[f"/game mine, {when}"] = await t.slash("game mine", player)
        seen.update(m["id"] for m in given.values())

    await collect("before")
    old = t.board(gid)
    assert old is not None
    for i in range(BURY_LIMIT):
        await fake.post_as(alice if i % 2 else bob, world.channel, f"chatter {i}")
    await collect("after")
    card = t.board(gid)
    assert card is not None and card["id"] != old["id"]
    assert old["id"] in fake.deleted_messages or not fake.components(fake.messages[old["id"]])
    assert "Since your last move" in given["turn DM, after"]["content"]  # the catch-up
    for what, message in given.items():
        found = links_in(message)
        assert found, f"{what} gives no link: {message['content']!r}"
        for link in found:
            assert leads_to_the_card(fake, link, card), (what, link, card["id"])


async def test_a_tournaments_posts_lead_to_a_tables_card_posted_again(fake: FakeDiscord, db) -> None:
    from .test_tournament import round_tables, sign_up

    names = ["org", "k1", "k2", "k3", "k4"]
    async with FakeWorld(users=names, fake=fake, owner="org") as world:
        t = Table(world, db, random.Random(6))
        await t.start()
        tid, _ = await sign_up(t, world["org"], [world[n] for n in names[1:]], name="Copa",
                               game="rey_hierofante", format="single_elim", options="wins_needed=1")
        await t.slash("tournament start", world["org"], wait=30)
        tables = await round_tables(t, tid, 1, 2)
        opened = await fake.wait_for_message(world.channel, lambda m: "round 1 begins" in m["content"])
        # chatter in one table's thread buries its card; the next moves post it again
        gid = tables[0].game
        g = await t.game(gid)
        thread = fake.channels[str(g.row.channel_id)]
        old = t.board(gid)
        assert old is not None
        seated = [world.users[t._name_of(uid)] for uid in tables[0].user_ids]
        for i in range(BURY_LIMIT):
            await fake.post_as(seated[i % len(seated)], thread, f"chatter {i}")
        version = (await t.game(gid)).version
        await t.move_by_menu(gid)
        await fake.wait_until(lambda: t._current_board(gid, version + 1))
        card = t.board(gid)
        assert card is not None and card["id"] != old["id"]
        assert old["id"] in fake.deleted_messages or not fake.components(fake.messages[old["id"]])
        # the round's post and each table's introduction: every link reaches a live message,
        # a table's thread reaches its live card
        cards = {}
        for m in tables:
            row = (await t.game(m.game)).row
            cards[str(row.channel_id)] = fake.messages[str(row.board_message_id)]
        posts = [opened] + [fake.channel_messages(channel)[0] for channel in cards]
        found = [link for post in posts for link in links_in(post)]
        assert {channel for channel, _ in found} >= set(cards)  # each table's thread is linked
        for channel, message in found:
            if message is not None:
                # the standings, live; never a card, gone or stripped
                assert message in fake.messages and message != old["id"], (channel, message)
            elif channel in cards:
                assert leads_to_the_card(fake, (channel, None), cards[channel]), channel
