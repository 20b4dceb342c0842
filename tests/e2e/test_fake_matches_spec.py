"""What the fake Discord answers and sends, checked against Discord's OpenAPI description.

Every REST answer the fake gives (for each route it implements) and every gateway event it
sends is validated against the schemas kept in tests/e2e/spec/discord.json, so the fake can
neither leave out a field Discord always sends nor shape one differently.
"""

from __future__ import annotations

import random

import discord

from .fake_discord import BOT_PERMISSIONS
from .harness import FakeWorld
from .spec_check import check_answer, check_event, invalid, spec
from .table import Table
from .test_message_events import Listener


async def test_tablero_sees_only_what_discord_would_send(world: FakeWorld, db) -> None:
    fake, alice, bob = world.fake, world["alice"], world["bob"]
    t = Table(world, db, random.Random(5))
    await t.start()
    gid, lobby = await t.new_game(alice)
    buttons = t.lobby_buttons(lobby)
    await t.click(lobby, buttons["join"], bob)
    await t.click(lobby, buttons["start"], alice)
    await fake.wait_until(lambda: t._current_board(gid, 0))
    await fake.post_as(bob, t.board(gid)["channel_id"], "good luck")
    for _ in range(3):
        await t.move_by_menu(gid)
    _, user = await t.user_to_act(gid)
    await fake.autocomplete("rh place", user, world.channel, focused="tile", tile="", square="")
    await t.restart()
    await t.move_by_menu(gid)
    found, routes, events = invalid(fake)
    assert not found, "\n".join(found)
    assert {"READY", "GUILD_CREATE", "INTERACTION_CREATE", "MESSAGE_CREATE", "MESSAGE_UPDATE"} <= events
    assert {"GET /users/@me", "GET /oauth2/applications/@me", "PUT /applications/{application_id}/commands",
            "POST /interactions/{interaction_id}/{interaction_token}/callback"} <= routes
    # the card's edits: with the bot's token, or through an interaction's webhook
    assert routes & {"PATCH /channels/{channel_id}/messages/{message_id}",
                     "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"}, routes


class Responder(Listener):
    """A Listener with a command that answers through every interaction webhook route."""

    def __init__(self) -> None:
        super().__init__()

        @self.tree.command(name="later", description="Answer later")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            first = await interaction.followup.send("first", wait=True)
            await interaction.original_response()
            await interaction.edit_original_response(content="first, edited")
            second = await interaction.followup.send("second", wait=True)
            await interaction.followup.fetch_message(second.id)
            await interaction.followup.edit_message(second.id, content="second, edited")
            assert first.id != second.id


async def test_every_route_of_the_fake_answers_as_the_spec_says(world: FakeWorld) -> None:
    fake, alice = world.fake, world["alice"]
    bot = Responder()
    await world.start(bot)
    http, cid, guild = bot.http, int(world.channel["id"]), int(world.guild["id"])
    assert bot.application_id is not None
    await http.get_user(int(alice["id"]))
    await http.get_guild(guild)
    await http.get_all_guild_channels(guild)
    await http.get_member(guild, int(alice["id"]))
    await http.get_channel(cid)
    await http.get_global_commands(bot.application_id)
    await http.get_guild_commands(bot.application_id, guild)
    await http.bulk_upsert_guild_commands(bot.application_id, guild, [])
    await http.get_bot_gateway()
    await http.start_private_message(int(alice["id"]))
    made = await bot.get_guild(guild).create_text_channel("made")  # type: ignore[union-attr]
    await made.edit(topic="a topic")
    sent = await made.send("hello", view=_view())
    await sent.edit(content="hello again")
    await sent.pin()
    await made.fetch_message(sent.id)
    await fake.post_as(alice, world.channel, "from alice")
    [m async for m in bot.get_partial_messageable(cid).history(limit=10)]
    thread = await sent.create_thread(name="from a message")
    private = await made.create_thread(name="private")
    await private.add_user(discord.Object(int(alice["id"])))
    await thread.edit(archived=True)
    await fake.delete_channel(private.id)
    await fake.set_bot_role_permissions(world.guild, BOT_PERMISSIONS)
    await sent.delete()
    await made.delete()
    # interaction callbacks of each type, followups and the original response
    for hidden in (False, True):
        inter = await fake.slash("say", alice, world.channel, text="hi", hidden=hidden)
        await fake.wait_response(inter)
    inter = await fake.slash("later", alice, world.channel)
    await fake.wait_until(lambda: any(m["content"] == "second, edited" for m in fake.followups(inter)))
    found, routes, events = invalid(fake)
    assert not found, "\n".join(found)
    assert {"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "CHANNEL_CREATE", "CHANNEL_UPDATE",
            "CHANNEL_DELETE", "THREAD_CREATE", "THREAD_UPDATE", "THREAD_DELETE", "GUILD_ROLE_UPDATE"} <= events
    missing = set(spec()["routes"]) - routes - {"GET /gateway"}  # discord.py asks for /gateway/bot
    assert not missing, f"routes this test does not reach: {sorted(missing)}"


def _view() -> discord.ui.View:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="a", custom_id="spec:a"))
    view.add_item(discord.ui.Select(custom_id="spec:s", options=[discord.SelectOption(label="x", value="x")]))
    return view


def test_the_checker_finds_what_discord_would_not_send() -> None:
    user = {"id": "1", "username": "a", "avatar": None, "discriminator": "0", "public_flags": 0, "flags": 0,
            "global_name": None, "primary_guild": None}
    assert check_answer("GET", "/users/1", user) == []
    no_guild = {k: v for k, v in user.items() if k != "primary_guild"}
    assert check_answer("GET", "/users/1", no_guild) == ["$: missing required 'primary_guild'"]
    assert check_answer("GET", "/users/1", {**user, "id": 1}) != []  # a snowflake is a string
    assert check_answer("GET", "/users/1", {**user, "flags": True}) != []  # a bool is no integer
    # the callback's resource for a deferred answer carries no message: Discord sends none
    answer = {"interaction": {"id": "5", "type": 2}, "resource": {"type": 5}}
    assert check_answer("POST", "/interactions/5/token/callback", answer) != []
    assert check_event("MESSAGE_DELETE", {"id": "1"}) == ["$: missing required 'channel_id'"]
