"""Tablero wherever the player is: a user who added the app to their own account uses the
commands about themself in their DM with the bot, in a group DM and in a server without the
bot; game commands stay where the game is. The fake models Discord's user install: the
commands' declared installations and contexts, ``authorizing_integration_owners``, and a bot
that can neither see nor post where it was not added."""

from __future__ import annotations

import json
import random

import pytest

from .checks import text_of
from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table


def _commands(fake) -> dict[str, dict]:
    return {c["name"]: c for c in fake.synced_commands(None)}


async def test_the_commands_declare_where_they_work(fake, db) -> None:
    async with FakeWorld(users=["alice"], fake=fake) as world:
        t = Table(world, db, random.Random(2))
        await t.start()
        cmds = _commands(fake)
        for name in ("game", "settings", "rating", "gdm"):
            assert sorted(cmds[name]["integration_types"]) == [0, 1], name
            assert sorted(cmds[name]["contexts"]) == [0, 1, 2], name
        for name in ("rh", "rc", "am", "rg", "config", "stats", "tournament"):
            assert cmds[name]["integration_types"] == [0], name
            assert cmds[name]["contexts"] == [0], name


async def test_a_users_own_install_answers_in_dms_group_dms_and_servers_without_the_bot(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob", "carol"], fake=fake) as world:
        t = Table(world, db, random.Random(3))
        await t.start()
        alice, bob, carol = world["alice"], world["bob"], world["carol"]
        alice_id = int(alice["id"])
        gid, lobby = await t.new_game(alice)
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["join"], bob)
        await t.click(lobby, buttons["start"], alice)
        await fake.wait_until(lambda: t._current_board(gid, 0))

        elsewhere = fake.add_guild("Elsewhere", ["chat"], [alice, carol], with_bot=False)
        chat = elsewhere["channels"][0]
        group = fake.add_group_dm([alice, carol])
        dm = fake._dm_channel(alice, create=True)
        fake.install_for_user(alice)
        posted = len(fake.messages)

        for where in (dm, chat, group):
            _, _, mine = await t.slash("game mine", alice, where)
            assert mine["flags"] & EPHEMERAL and f"#{gid}" in json.dumps(mine["embeds"])
            _, _, settings = await t.slash("settings", alice, where)
            assert settings["flags"] & EPHEMERAL and settings["embeds"]
            _, _, ratings = await t.slash("rating me", alice, where)
            assert ratings["flags"] & EPHEMERAL and ratings["embeds"]
            _, _, card = await t.slash("gdm card", alice, where, name="Zeus")
            assert card["flags"] & EPHEMERAL and "Zeus" in json.dumps([card["content"], card["embeds"]])
            # the hand of the only game alice plays, wherever she asks
            _, _, hand = await t.slash("game hand", alice, where)
            assert hand["flags"] & EPHEMERAL and str(gid) in json.dumps(hand["embeds"])
            # a game command is refused there, privately, and nothing is posted or created
            _, _, refused = await t.slash("game new", alice, where, game="ragami")
            assert refused["flags"] & EPHEMERAL and "Tablero" in text_of(refused)
            _, _, refused = await t.slash("game status", alice, where)
            assert refused["flags"] & EPHEMERAL
        # a game's own commands are not even offered there (guild install only)
        for where in (dm, chat, group):
            with pytest.raises(PermissionError):
                await fake.slash("rh place", alice, where, tile="rey", square="A1")
            with pytest.raises(PermissionError):
                await fake.slash("stats", alice, where)
        # only ephemeral answers went out, and the bot never wrote in the other server or the group
        new = [m for m in list(fake.messages.values())[posted:] if not m["flags"] & EPHEMERAL]
        assert not [m for m in new if m["channel_id"] in (chat["id"], group["id"], dm["id"])]
        assert await t.bot.session.store.user_open_games(alice_id) == [await t.bot.session.store.get_game(gid)]
        # outside a server, another player's ratings (which servers they play in) are not shown
        _, _, refused = await t.slash("rating me", alice, dm, player=bob["id"])
        assert refused["flags"] & EPHEMERAL and not refused["embeds"] and "rating" in text_of(refused)
        # carol never installed the app: it is not there for her in the other server
        with pytest.raises(PermissionError):
            await fake.slash("game mine", carol, chat)
