"""A whole game of each title, through the real bot and the fake Discord, leaves a quiet
channel: the game's one card, edited as it goes, a message when it starts and one when it
ends; the bot seats' moves and every step of the player's own turn fold into the card. A
spectator gets one DM about the game, edited as it goes, and the summary at the end."""

from __future__ import annotations

import random

import pytest

from cogs.common.card_text import split_told
from rules.registry import engine

from .fake_discord import EPHEMERAL, FakeDiscord
from .harness import FakeWorld
from .table import Table

# A whole game of each title: one player against the bots (their moves cost no interaction).
MAX_MOVES = 1500
TITLES = ["rey_hierofante", "rattus_cartus", "ankh_morpork", "ragami", "guerra_de_mitos"]


@pytest.mark.asyncio
@pytest.mark.parametrize("game_id", TITLES)
async def test_a_whole_game_against_bots_posts_its_start_its_card_and_its_end(
    fake: FakeDiscord, db: str, game_id: str
) -> None:
    async with FakeWorld(users=["ana", "vera"], fake=fake) as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        ana, vera = world["ana"], world["vera"]
        _, _, lobby = await t.slash("game new", ana, game=game_id)
        assert lobby is not None
        gid = int(lobby["embeds"][0]["title"].split("#")[-1])
        session = t.bot.session
        for _ in range(engine(game_id).min_players - 1):
            await session.add_ai(gid, by=int(ana["id"]))
        _, _, answer = await t.slash("game watch", vera)
        assert answer is not None
        lobby_count = len(fake.channel_messages(world.channel))
        await t.slash("game start", ana)
        await fake.wait_until(lambda: (g := session.cached(gid)) is not None and g.state is not None)
        watched = len(fake.dms_to(vera))
        rng = random.Random(11)
        moves = 0
        while (g := await session.get(gid)) is not None and g.status == "active":
            seat = g.seat_of(int(ana["id"]))
            if seat not in g.pending():
                await fake.wait_until(lambda s=seat: session.cached(gid).status != "active"
                                      or s in session.cached(gid).pending(), timeout=10)
                continue
            version = g.version
            choices = await fake.autocomplete("game move", ana, world.channel, focused="choice", choice="")
            assert choices and choices[0]["value"] != "-", choices
            await t.slash("game move", ana, choice=rng.choice(choices)["value"])
            await fake.wait_until(lambda v=version: session.cached(gid).version != v, timeout=10)
            moves += 1
            assert moves < MAX_MOVES
        await fake.wait_until(lambda: len(fake.dms_to(vera)) >= watched + 2, timeout=10)
        await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        posted = [m for m in fake.channel_messages(world.channel)[lobby_count:] if not m["flags"] & EPHEMERAL]
        gone = [m for m in fake.deleted_messages.values()
                if m["channel_id"] == world.channel["id"] and not m["flags"] & EPHEMERAL]
        # the start, the card, the end (a player's move answered on the card or privately)
        assert len(posted) + len(gone) <= 3, (moves, [m["content"][:80] for m in posted])
        assert moves > 3  # a game long enough for a message per move to break the bound
        end = posted[-1]["content"]
        assert "Game over" in end or "Fin de la partida" in end, end
        # the spectator: one DM about the game, edited to its end, and the summary
        dms = fake.dms_to(vera)[watched:]
        assert len(dms) == 2, [m["content"][:80] for m in dms]
        assert f"#{gid}" in dms[0]["content"] and ("Game over" in dms[0]["content"]
                                                   or "Fin de la partida" in dms[0]["content"])
        assert dms[1]["embeds"] and f"#{gid}" in dms[1]["embeds"][0]["title"]


async def _two_players(t: Table, world: FakeWorld, game_id: str) -> int:
    """A game of ``game_id`` between ana and bo, started; its id."""
    ana = world["ana"]
    _, _, lobby = await t.slash("game new", ana, game=game_id)
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    await t.slash("game join", world["bo"])
    await t.slash("game start", ana)
    await world.fake.wait_until(lambda: t._current_board(gid, 0) is not None)
    return gid


def _created_in(fake: FakeDiscord, channel: dict) -> list[dict]:
    """Every message created in ``channel`` that everyone sees, deleted ones included, oldest first."""
    every = [*fake.channel_messages(channel),
             *(m for m in fake.deleted_messages.values() if m["channel_id"] == channel["id"])]
    return sorted((m for m in every if not m["flags"] & EPHEMERAL), key=lambda m: int(m["id"]))


@pytest.mark.asyncio
async def test_a_card_buried_by_the_turns_messages_comes_down_as_the_next_turns_message(
    fake: FakeDiscord, db: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        t.bot.boards.bury_limit = 1  # one message below the card buries it
        gid = await _two_players(t, world, "rey_hierofante")
        session = t.bot.session
        users = {int(u["id"]): u for u in (world["ana"], world["bo"])}
        rng = random.Random(3)

        def cards() -> list[dict]:
            return [m for m in fake.channel_messages(world.channel)
                    if any(c.get("custom_id") == f"tablero:hand:{gid}" for c in fake.components(m))]

        passed = 0
        told: list[str] = []  # the turns' messages, each of which must stay in the channel
        for _ in range(8):
            g = await session.get(gid)
            (seat,) = g.pending()
            user = users[g.seat_row(seat).user_id]
            version = g.version
            count = len(_created_in(fake, world.channel))
            choices = await fake.autocomplete("game move", user, world.channel, focused="choice", choice="")
            await t.slash("game move", user, choice=rng.choice(choices)["value"])
            await fake.wait_until(lambda v=version: t._current_board(gid, v + 1) is not None, timeout=10)
            g = await session.get(gid)
            if g.status != "active":
                break
            (nxt,) = g.pending()
            if nxt == seat:
                continue
            # the turn passed: the card, which its message would bury, comes down carrying
            # it: one new message pinging the player to act; the old card keeps only the
            # turn's message it carried (one live card, last in the channel)
            mention = str(g.seat_row(nxt).user_id)
            card = await fake.wait_for_message(
                world.channel, lambda m, u=mention: u in fake.pinged(m) and m["content"] not in told)
            await fake.wait_until(lambda c=card["id"]: len(cards()) == 1 and cards()[0]["id"] == c
                                  and fake.last_message(world.channel)["id"] == c)
            assert len(_created_in(fake, world.channel)) == count + 1
            told.append(card["content"])
            passed += 1
        assert passed >= 3
        # every turn's message is still there, word for word but for the lines saying who
        # must act (dropped from a card's text once untrue), and only the live card has an
        # embed or buttons
        await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        messages = fake.channel_messages(world.channel)
        contents = [m["content"] for m in messages]
        assert all(text in contents or split_told(text, None)[0] in contents for text in told)
        assert [m["id"] for m in messages if m["embeds"] and fake.components(m)] == [cards()[0]["id"]]


@pytest.mark.asyncio
async def test_a_whole_game_between_two_players_posts_one_message_per_turn_and_loses_none(
    fake: FakeDiscord, db: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        gid = await _two_players(t, world, "rey_hierofante")
        session = t.bot.session
        users = {int(u["id"]): u for u in (world["ana"], world["bo"])}
        rng = random.Random(7)
        await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        start = len(_created_in(fake, world.channel))
        changes = 0
        while (g := await session.get(gid)).status == "active":
            before, version = set(g.pending()), g.version
            seat = rng.choice(sorted(before))
            user = users[g.seat_row(seat).user_id]
            choices = await fake.autocomplete("game move", user, world.channel, focused="choice", choice="")
            await t.slash("game move", user, choice=rng.choice(choices)["value"])
            await fake.wait_until(lambda v=version: session.cached(gid).version != v, timeout=10)
            after = await session.get(gid)
            changes += bool(set(after.pending()) - before) or after.status != "active"
            await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        assert changes > t.bot.boards.bury_limit  # long enough for the card to be buried by turns
        await fake.wait_until(lambda: not t.bot.boards._lock(gid).locked(), timeout=10)
        # one new channel message per turn that passed (the end's included), nothing more:
        # the card came down with a turn's message rather than after it
        assert len(_created_in(fake, world.channel)) - start == changes
        # every turn's message (the start's too), as the bot wrote it, is still readable
        # (a card's text without its who-acts-now lines once they are untrue)
        records = await session.store.recent_messages(gid, ("record",), limit=1000)
        contents = [m["content"] for m in fake.channel_messages(world.channel)]
        assert len(records) == changes + 1  # the start's too
        assert all(r.payload["text"] in contents
                   or split_told(r.payload["text"], None, r.payload["story"])[0] in contents for r in records)
