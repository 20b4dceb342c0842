"""The clock's escalation through the real bot and the fake Discord (a manual clock): the last
reminder says what the deadline brings, each timeout says how many of the server's limit it
is, and at the limit the seat is the bot's for good, on the card and in a DM to the player."""

from __future__ import annotations

import random

from services.clock import ManualClock

from .checks import text_of
from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table
from .test_async_play import two_player_game

HOUR = 3600.0


async def other_moves(t: Table, gid: int, silent_seat: int) -> None:
    """The other player makes their turn (their game's AI picks the moves)."""
    session = t.bot.session
    g = await t.game(gid)
    while g.status == "active" and silent_seat not in g.pending():
        seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
        action = g.engine.ai_action(g.state, seat)
        await session.move(gid, g.seat_row(seat).user_id, action.model_dump(mode="json"))
        g = await t.game(gid)


async def test_two_timeouts_of_a_server_limit_of_two_make_the_seat_the_bots(fake, db) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake, owner="alice") as world:
        t = Table(world, db, random.Random(5), clock=clock)
        await t.start()
        _, _, shown = await t.slash("config", world["alice"], timeouts="2")
        assert shown["flags"] & EPHEMERAL and "after 2 timeouts of one player in one game" in text_of(shown)
        gid = await two_player_game(t, clock="24h")
        seat, silent = await t.user_to_act(gid)

        clock.advance(12 * HOUR)
        assert (await t.bot.scheduler.tick()).reminders == 1
        first = await fake.wait_for_dm(silent, lambda m: "Reminder" in m["content"])
        assert "If it runs out" not in first["content"]  # the first reminder is only a reminder
        clock.advance(10 * HOUR + 1)
        assert (await t.bot.scheduler.tick()).reminders == 1
        last = await fake.wait_for_dm(silent, lambda m: "If it runs out" in m["content"])
        assert ("the bot plays this turn for you. Your time has run out 0 of 2 times in this game:"
                " at 2, the bot keeps your seat until the end.") in last["content"]
        clock.advance(2 * HOUR)
        assert (await t.bot.scheduler.tick()).timeouts == 1
        notice = await fake.wait_for_message(world.channel, lambda m: "ran out of time (1 of 2)" in m["content"])
        assert "at 2 the bot keeps it" in notice["content"]

        await other_moves(t, gid, seat)
        await t.restart()  # the count is the store's: a restart changes nothing
        clock.advance(22 * HOUR + 1)
        await t.bot.scheduler.tick()
        await fake.wait_for_dm(silent, lambda m: "If it runs out, the bot takes your seat until the end"
                               in m["content"])
        clock.advance(2 * HOUR)
        assert (await t.bot.scheduler.tick()).timeouts == 1
        await fake.wait_for_message(world.channel, lambda m: "ran out of time again (2 times in this game)"
                                    in m["content"])
        out = await fake.wait_for_dm(silent, lambda m: "no way back" in m["content"])
        assert f"game #{gid}" in out["content"] and "the bot now plays your seat" in out["content"]
        g = await t.game(gid)
        assert g.seat_row(seat).ai and g.seat_row(seat).dropped
        # the card lists the seat as the bot's, and its last turn says why
        name = g.seat_row(seat).name
        await fake.wait_until(lambda: f"🤖 **{name}**" in text_of(t.board(gid)))
        assert "the bot takes their seat until the end" in text_of(t.board(gid))
        assert (await t.bot.scheduler.tick()).timeouts == 0
        assert len([m for m in fake.dms_to(silent) if "no way back" in m["content"]]) == 1


async def test_the_started_lobby_lists_the_seats_at_the_start_when_the_bot_takes_one_later(fake, db) -> None:
    """The lobby message, edited at the start, lists the players as they were then; when the
    bot takes a seat for good afterwards the card marks it, and the lobby claims nothing live."""
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake, owner="alice") as world:
        t = Table(world, db, random.Random(5), clock=clock)
        await t.start()
        await t.slash("config", world["alice"], timeouts="1")
        gid = await two_player_game(t, clock="24h")
        lobby = fake.channel_messages(world.channel)[0]
        assert lobby["id"] != t.board(gid)["id"]
        fields = lobby["embeds"][0]["fields"]
        assert fields[0]["name"] == "Players at the start (2)", fields
        assert "shows who plays each seat now" in lobby["embeds"][0]["description"]
        seat, _ = await t.user_to_act(gid)
        name = (await t.game(gid)).seat_row(seat).name
        clock.advance(24 * HOUR + 1)
        assert (await t.bot.scheduler.tick()).timeouts == 1
        await fake.wait_until(lambda: f"🤖 **{name}**" in text_of(t.board(gid)))
        assert (await t.game(gid)).seat_row(seat).ai
        # the lobby message still says "at the start", which stays true
        lobby = fake.messages[lobby["id"]]
        assert lobby["embeds"][0]["fields"][0]["name"] == "Players at the start (2)"
