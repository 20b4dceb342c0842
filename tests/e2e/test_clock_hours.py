"""Playing hours and time banks through the real bot against the fake Discord: /settings
sets a time zone and quiet hours (bad input refused in the player's language, nothing
changed), /config and /game new choose a time bank, and the card and /game mine show the
time left as it will really run."""

from __future__ import annotations

import random

from services.clock import ManualClock
from services.clock_time import end_after, hours_from_spec, running_between

from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table
from .test_async_play import embed_text, two_player_game

HOUR = 3600.0
DAY = 24 * HOUR


async def test_settings_sets_a_time_zone_and_quiet_hours_and_refuses_bad_ones(fake, db) -> None:
    async with FakeWorld(users=["alice", "bruno"], fake=fake,
                         user_options={"bruno": {"locale": "es-ES"}}) as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        alice, bruno = world["alice"], world["bruno"]
        store = t.bot.session.store
        choices = await fake.autocomplete("settings", alice, world.channel, "time_zone", time_zone="madrid")
        assert "Europe/Madrid" in [c["value"] for c in choices] and len(choices) <= 25
        assert await fake.autocomplete("settings", alice, world.channel, "time_zone", time_zone="new_y")
        _, _, shown = await t.slash("settings", alice, time_zone="Europe/Madrid", quiet_hours="23:00-08:00")
        assert shown["flags"] & EPHEMERAL
        text = embed_text(shown)
        assert "Playing hours" in text and "Europe/Madrid" in text and "23:00-08:00" in text
        mine = await store.user_settings(int(alice["id"]))
        assert (mine.time_zone, mine.quiet_hours) == ("Europe/Madrid", "23:00-08:00")
        # A second window, on weekdays only.
        _, _, shown = await t.slash("settings", alice, quiet_hours_2="9-17", quiet_days_2="weekdays")
        assert "09:00-17:00 Monday to Friday" in embed_text(shown)

        # Bad input: a clear refusal in the player's language, and nothing changed (not even
        # the parts that were right).
        before = await store.user_settings(int(alice["id"]))
        for options, words in (
            ({"quiet_hours": "25:00-08:00"}, "“25:00-08:00” is not a window of hours"),
            ({"time_zone": "Madrid"}, "“Madrid” is not a time zone I know"),
            ({"time_zone": "America/New_York", "quiet_hours": "8-8"}, "starts and ends at the same time"),
            ({"quiet_hours": "20:00-08:00", "quiet_hours_2": "08:00-17:00"}, "more than 20 hours a day"),
        ):
            _, _, refused = await t.slash("settings", alice, **options)
            assert refused["flags"] & EPHEMERAL and words in refused["content"], refused["content"]
            assert "Nothing was changed." in refused["content"]
            assert await store.user_settings(int(alice["id"])) == before
        _, _, refused = await t.slash("settings", bruno, time_zone="Madrid", notify="dm")
        assert "No conozco la zona horaria «Madrid»" in refused["content"]
        assert "No se ha cambiado nada." in refused["content"]
        assert (await store.user_settings(int(bruno["id"]))).notify == "channel"
        _, _, refused = await t.slash("settings", bruno, quiet_days="weekdays")
        assert "Elige primero las horas" in refused["content"]
        _, _, shown = await t.slash("settings", bruno, time_zone="America/Mexico_City", quiet_hours="0:30-7")
        assert "Horario de juego" in embed_text(shown) and "00:30-07:00" in embed_text(shown)
        # "-" takes the quiet hours away: the clock runs at any hour again.
        _, _, shown = await t.slash("settings", alice, quiet_hours="-")
        assert "no quiet hours" in embed_text(shown)
        assert (await store.user_settings(int(alice["id"]))).quiet_hours is None


async def test_a_time_bank_game_shows_each_players_time_as_it_will_run(fake, db) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake, owner="alice") as world:
        t = Table(world, db, random.Random(3), clock=clock)
        await t.start()
        alice, bob = world["alice"], world["bob"]
        store = t.bot.session.store
        # The server's default may be a bank too.
        _, _, shown = await t.slash("config", alice, clock="1d+12h")
        assert "time bank of 1d, +12h a move, up to 3d" in embed_text(shown)
        gs = await store.guild_settings(int(world.guild["id"]))
        assert (gs.clock_seconds, gs.bank_increment, gs.bank_cap) == (DAY, 12 * HOUR, 3 * DAY)
        for user in (alice, bob):
            await t.slash("settings", user, time_zone="Europe/Madrid", quiet_hours="23:00-08:00")
        gid = await two_player_game(t, clock="3d+1d")  # the host's choice wins
        g = await t.game(gid)
        assert (g.row.clock_seconds, g.row.bank_increment, g.row.bank_cap) == (3 * DAY, DAY, 7 * DAY)
        lobby = embed_text(fake.channel_messages(world.channel)[0])
        assert "time bank of 3d, +1d a move, up to 7d" in lobby
        seat, first = await t.user_to_act(gid)
        (wait,) = await store.deadlines(gid)
        hours = hours_from_spec(wait.hours)
        # The real deadline: 3 days of running clock, the nights left out.
        assert wait.due_at == end_after(hours, clock.now(), 3 * DAY) > clock.now() + 3 * DAY + 20 * HOUR
        await fake.wait_until(lambda: f"<t:{int(wait.due_at)}:R>" in embed_text(t.board(gid)))
        card = embed_text(t.board(gid))
        assert "Time banks" in card and card.count(": 3d") == 2
        _, _, mine = await t.slash("game mine", first)
        assert f"<t:{int(wait.due_at)}:R>" in embed_text(mine) and "bank 3d" in embed_text(mine)

        # A day later (part of it at night) the player moves: their bank is what ran off
        # it plus a day.
        start = clock.now()
        clock.advance(DAY)
        g = await t.game(gid)
        while seat in g.pending():
            await t.move_by_menu(gid)
            g = await t.game(gid)
        spent = running_between(hours, start, clock.now())
        assert 0 < spent < DAY
        left = (await store.clock_banks(gid))[seat]
        assert left == 3 * DAY - spent + DAY
        (other,) = await store.deadlines(gid)
        assert other.seat != seat and other.due_at == end_after(hours, clock.now(), 3 * DAY)
        name = g.seat_row(seat).name
        await fake.wait_until(lambda: f"<t:{int(other.due_at)}:R>" in embed_text(t.board(gid)))
        assert f"{name}: 3d {int((left - 3 * DAY) // HOUR)}h" in embed_text(t.board(gid))

        # The player now to act drops their quiet hours: their deadline moves to the bank's
        # plain end, and the card shows it.
        waiting = world["bob"] if first is world["alice"] else world["alice"]
        await t.slash("settings", waiting, quiet_hours="-")
        (plain,) = await store.deadlines(gid)
        assert plain.hours is None and plain.due_at == clock.now() + 3 * DAY
        await fake.wait_until(lambda: f"<t:{int(plain.due_at)}:R>" in embed_text(t.board(gid)))
