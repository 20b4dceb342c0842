"""Games that keep moving: the turn clock, reminders, pings, "my games", undo, spectators and
replays, through the real bot against the fake Discord server (the clock is a manual one)."""

from __future__ import annotations

import json
import random
import re

import pytest

from services.clock import ManualClock

from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table

HOUR = 3600.0


def embed_text(message: dict) -> str:
    return json.dumps(message.get("embeds", []), ensure_ascii=False) + (message.get("content") or "")


async def two_player_game(t: Table, **options) -> int:
    alice, bob = t.world["alice"], t.world["bob"]
    gid, lobby = await t.new_game(alice, **options)
    buttons = t.lobby_buttons(lobby)
    await t.click(lobby, buttons["join"], bob)
    await t.click(lobby, buttons["start"], alice)
    # the board in play (the lobby has components too, but not the game's "My hand" button)
    await t.fake.wait_until(lambda: t.board(gid) is not None and t.fake.find_component(
        t.board(gid), lambda c: c.get("custom_id") == f"tablero:hand:{gid}"))
    return gid


async def test_a_silent_player_is_reminded_twice_then_the_bot_plays_across_a_restart(fake, db) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(3), clock=clock)
        await t.start()
        gid = await two_player_game(t, clock="24h")
        seat, silent = await t.user_to_act(gid)
        g = await t.game(gid)
        assert g.row.clock_seconds == 24 * 3600
        lobby_text = embed_text(fake.channel_messages(world.channel)[0])
        assert "24h" in lobby_text

        dms_before = len(fake.dms_to(silent))
        clock.advance(12 * HOUR)
        done = await t.bot.scheduler.tick()
        assert done.reminders == 1
        reminder = await fake.wait_for_dm(silent, lambda m: "Reminder" in m["content"])
        assert f"game #{gid}" in reminder["content"] and "https://discord.com/channels/" in reminder["content"]

        # the bot is replaced by a new one on the same database in the middle of the wait
        await t.restart()
        clock.advance(10 * HOUR + 1)
        assert (await t.bot.scheduler.tick()).reminders == 1
        await fake.wait_until(lambda: len([m for m in fake.dms_to(silent) if "Reminder" in m["content"]]) == 2)
        clock.advance(HOUR)
        assert (await t.bot.scheduler.tick()).reminders == 0  # never a third

        clock.advance(HOUR)
        done = await t.bot.scheduler.tick()
        assert done.timeouts == 1
        notice = await fake.wait_for_message(world.channel, lambda m: "ran out of time" in m["content"])
        assert "the bot has played for them" in notice["content"]
        g = await t.game(gid)
        assert g.version > 0 and not g.seat_row(seat).ai  # the seat stays the player's
        assert (await t.bot.scheduler.tick()).timeouts == 0
        # two reminders, no more, and no DM storm
        assert len([m for m in fake.dms_to(silent) if "Reminder" in m["content"]]) == 2
        assert len(fake.dms_to(silent)) - dms_before == 2
        # back, the silent player is told what the bot played in their seat
        _, _, status = await t.slash("game status", silent)
        assert "The bot played for you:" in status["content"], status["content"]
        assert "Nothing new since your last move" not in status["content"]


async def test_one_ping_per_turn_and_none_in_an_edit(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        gid = await two_player_game(t)
        for _ in range(6):
            g = await t.game(gid)
            if g.status != "active":
                break
            await t.move_by_menu(gid)
        messages = fake.channel_messages(world.channel)
        pings = [(m["id"], p) for m in messages for p in fake.pinged(m)]
        # (a ping is in a new message recording a move: the turn's message, on its own or
        # carried by the new card a move from a private panel is answered with)
        # a player is pinged at most once per version of the game in which they became pending
        assert len(pings) == len(set(pings))
        g = await t.game(gid)
        assert len(pings) <= g.version + 1


async def test_my_games_across_two_servers_and_the_server_list(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        other = fake.add_guild("Other Server", ["tables"], [world["alice"], world["bob"]])
        t = Table(world, db, random.Random(2))
        await t.start()
        alice, bob = world["alice"], world["bob"]
        first = await two_player_game(t)
        # a lobby in the other server
        _, _, lobby = await t.slash("game new", alice, other["channels"][0], game="rattus_cartus")
        assert lobby is not None
        _, _, mine = await t.slash("game mine", alice)
        assert mine["flags"] & EPHEMERAL
        text = embed_text(mine)
        assert f"#{first}" in text and "Rattus Cartus" in text and other["id"] in text
        seat, user = await t.user_to_act(first)
        _, _, theirs = await t.slash("game mine", user)
        lines = json.loads(json.dumps(theirs["embeds"][0]["description"])).splitlines()
        assert "your turn" in lines[0]
        _, _, listed = await t.slash("game list", bob)
        assert f"#{first}" in embed_text(listed) and "Rattus Cartus" not in embed_text(listed)


async def test_undo_accepted_and_undo_refused(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(9))
        await t.start()
        gid = await two_player_game(t)
        seat, mover = await t.user_to_act(gid)
        other = world["bob"] if mover is world["alice"] else world["alice"]
        await t.move_by_menu(gid)
        g = await t.game(gid)
        while seat in g.pending():  # an effect to decide: the turn goes on until it is done
            await t.move_by_menu(gid)
        version = g.version
        _, _, asked = await t.slash("game undo", mover)
        assert not asked["flags"] & EPHEMERAL and other["id"] in fake.pinged(asked)
        no = next(c["custom_id"] for c in fake.components(asked) if c.get("custom_id", "").endswith(":no"))
        await t.click(asked, no, other)
        assert (await t.game(gid)).version == version  # refused: nothing changes

        _, _, asked = await t.slash("game undo", mover)
        yes = next(c["custom_id"] for c in fake.components(asked) if c.get("custom_id", "").endswith(":yes"))
        inter, _ = await t.click(asked, yes, mover)  # the asker cannot vote
        assert fake.response_message(inter)["flags"] & EPHEMERAL
        await t.click(asked, yes, other)
        await fake.wait_until(lambda: t.bot.session.cached(gid).version == version + 1)
        g = await t.game(gid)
        assert seat in g.pending()
        await fake.wait_for_message(world.channel, lambda m: "took back" in m["content"])


async def test_an_undo_request_shows_a_players_name_as_text_never_as_a_link_or_a_ping(fake, db) -> None:
    sly = "[Free Nitro](https://evil.example/claim) <@999> @everyone"
    async with FakeWorld(users=[sly, "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(9))
        await t.start()
        host = world[sly]
        gid, lobby = await t.new_game(host)
        b = t.lobby_buttons(lobby)
        await t.click(lobby, b["join"], world["bob"])
        await t.click(lobby, b["start"], host)
        seat, mover = await t.user_to_act(gid)
        if mover is not host:
            await t.move_by_menu(gid)
            seat, mover = await t.user_to_act(gid)
        assert mover is host
        while seat in (await t.game(gid)).pending():
            await t.move_by_menu(gid)
        _, _, asked = await t.slash("game undo", host)
        text = asked["content"]
        assert "Free Nitro" in text
        assert "](https://" not in text and "<@999>" not in text and "@everyone" not in text
        assert fake.pinged(asked) == [world["bob"]["id"]]


async def test_a_spectator_sees_the_public_game_and_the_secrets_only_at_the_end(fake, db) -> None:
    async with FakeWorld(users=["alice", "carol"], fake=fake) as world:
        t = Table(world, db, random.Random(4))
        await t.start()
        alice, carol = world["alice"], world["carol"]
        gid, lobby = await t.new_game(alice, variant="aleatorio_oculto")
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["ai"], alice)
        _, _, watching = await t.slash("game watch", carol)
        assert "follow" in watching["content"]
        await t.click(lobby, buttons["start"], alice)
        while (await t.game(gid)).status == "active":
            await t.move_by_menu(gid)
            g = await t.game(gid)
            secrets = [fact for seat in range(2) for fact in g.secrets(seat)]
            for dm in fake.dms_to(carol):
                if "what was hidden" in embed_text(dm):
                    continue
                for fact in secrets:
                    value = json.loads(fact.split("=", 1)[1])
                    if isinstance(value, str) and len(value) > 3:
                        assert value not in embed_text(dm), (fact, dm["content"])
        await fake.wait_until(lambda: any("what was hidden" in embed_text(m) for m in fake.dms_to(carol)))


async def test_a_replay_file_reproduces_the_final_state(fake, db) -> None:
    async with FakeWorld(users=["alice"], fake=fake) as world:
        t = Table(world, db, random.Random(6))
        await t.start()
        alice = world["alice"]
        gid, lobby = await t.new_game(alice)
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["ai"], alice)
        await t.click(lobby, buttons["start"], alice)
        _, _, early = await t.slash("game replay", alice)
        early_files = {f["filename"]: f for f in fake.files(early)}
        assert f"game-{gid}.json" in early_files and "seed" not in json.loads(early_files[f"game-{gid}.json"]["data"])
        while (await t.game(gid)).status == "active":
            await t.move_by_menu(gid)
        # drawing the animation takes a moment: the command is deferred meanwhile
        _, _, final = await t.slash("game replay", alice, wait=60)
        files = {f["filename"]: f for f in fake.files(final)}
        assert {f"game-{gid}.json", f"game-{gid}.txt", f"game-{gid}.gif"} <= set(files)
        assert files[f"game-{gid}.gif"]["data"][:6] in (b"GIF89a", b"GIF87a")
        from services.replay import replay_record

        record = json.loads(files[f"game-{gid}.json"]["data"])
        state = replay_record(record)
        g = await t.game(gid)
        assert g.engine.dump_state(state) == g.engine.dump_state(g.state)
        # and the result stays reachable after a restart
        await t.restart()
        _, _, status = await t.slash("game status", alice)
        assert status is not None and status["embeds"]


async def test_server_config_settings_and_the_paged_log(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake, owner="alice") as world:
        t = Table(world, db, random.Random(8))
        await t.start()
        alice, bob = world["alice"], world["bob"]
        # /config is for Manage Server: Discord does not even show it to bob
        with pytest.raises(PermissionError):
            await fake.slash("config", bob, world.channel, clock="48h")
        assert (await t.bot.session.store.guild_settings(int(world.guild["id"]))).clock_seconds is None
        _, _, shown = await t.slash("config", alice, language="es", clock="48h", timeout="drop")
        assert shown["flags"] & EPHEMERAL and "48h" in embed_text(shown)
        # a new game takes the server's clock, timeout action and language
        gid = await two_player_game(t)
        g = await t.game(gid)
        assert (g.row.clock_seconds, g.row.timeout_action, g.locale) == (48 * 3600, "drop", "es")
        assert f"Partida #{gid}" in embed_text(t.board(gid))  # the public board speaks Spanish
        # /settings: told by DM rather than by a mention
        seat, user = await t.user_to_act(gid)
        other = bob if user is alice else alice
        _, _, mine = await t.slash("settings", other, notify="dm")
        assert "direct message" in embed_text(mine)
        dms = len(fake.dms_to(other))
        await t.move_by_menu(gid)
        g = await t.game(gid)
        while seat in g.pending():
            await t.move_by_menu(gid)
        try:
            turn = await fake.wait_for_dm(other, lambda m: "Your turn" in m["content"])
        except TimeoutError:
            g = await t.game(gid)
            raise AssertionError((g.pending(), seat, [m["content"] for m in fake.dms_to(other)],
                                  [m["content"] for m in fake.channel_messages(world.channel)][-4:])) from None
        assert f"game #{gid}" in turn["content"] and len(fake.dms_to(other)) > dms
        newest = fake.channel_messages(world.channel)[-3:]
        assert all(other["id"] not in fake.pinged(m) for m in newest)
        # the log: timestamps, names, pages with buttons
        for _ in range(20):
            if (await t.game(gid)).status != "active":
                break
            await t.move_by_menu(gid)
        _, _, log = await t.slash("game log", alice)
        text = embed_text(log)
        assert "<t:" in text and "Player 1" not in text and "Jugador 1" not in text
        footer = log["embeds"][0]["footer"]["text"]
        page, pages = (int(x) for x in footer.split()[1::2])
        assert page == pages and pages >= 2  # the newest page first
        buttons = [c for c in fake.components(log) if c.get("custom_id", "").startswith("tablero:log:")]
        assert [b.get("disabled", False) for b in buttons] == [False, True]
        await t.click(log, buttons[0]["custom_id"], alice)
        shown = fake.messages[log["id"]]["embeds"][0]["footer"]["text"]
        assert shown == f"Page {pages - 1} of {pages}"


async def test_a_vacation_shows_on_the_board_and_stops_the_clock(fake, db) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(3), clock=clock)
        await t.start()
        gid = await two_player_game(t, clock="12h")
        seat, away = await t.user_to_act(gid)
        _, _, mine = await t.slash("game mine", away)
        due = (await t.bot.session.store.deadlines(gid))[0].due_at
        assert f"time runs out <t:{int(due)}:R>" in embed_text(mine)  # Discord shows "in 12 hours"
        _, _, said = await t.slash("game vacation", away, days=2)
        assert said["flags"] & EPHEMERAL and "28 days left" in said["content"]
        await fake.wait_until(lambda: "🏖️" in embed_text(t.board(gid)))
        board = embed_text(t.board(gid))
        assert "On vacation (clocks stopped)" in board and (await t.game(gid)).seat_row(seat).name in board
        field = next(f for f in t.board(gid)["embeds"][0]["fields"] if "🏖️" in f["name"] + f["value"])
        assert (field["name"] + field["value"]).count("🏖️") == 1  # one label, not "🏖️: 🏖️ On vacation"
        _, _, mine = await t.slash("game mine", away)
        assert "clock stopped" in embed_text(mine)
        clock.advance(47 * HOUR)
        done = await t.bot.scheduler.tick()
        assert done.reminders == 0 and done.timeouts == 0
        clock.advance(2 * HOUR)
        assert (await t.bot.scheduler.tick()).resumed == 1
        clock.advance(6 * HOUR)
        assert (await t.bot.scheduler.tick()).reminders == 1  # half of the 12 h, after the vacation


async def test_the_closed_dms_notice_shows_a_players_name_as_text(fake, db) -> None:
    sly = "[Free Nitro](https://evil.example/claim)"
    async with FakeWorld(users=["alice", sly], fake=fake,
                         user_options={sly: {"dms_open": False}}) as world:
        t = Table(world, db, random.Random(6))
        await t.start()
        _, _, lobby = await t.slash("game new", world["alice"], game="rattus_cartus")
        gid = int(lobby["embeds"][0]["title"].split("#")[-1])
        b = t.lobby_buttons(lobby)
        await t.click(lobby, b["join"], world[sly])
        await t.click(lobby, b["start"], world["alice"])
        notice = await fake.wait_for_message(world.channel, lambda m: "Free Nitro" in (m["content"] or ""))
        assert "](https://" not in notice["content"] and "https://" not in notice["content"]
        assert gid > 0


async def _game_in(t: Table, channel: dict) -> int:
    """A two-player game with a 24 h clock in ``channel`` (alice hosts, bob joins)."""
    alice, bob = t.world["alice"], t.world["bob"]
    _, _, lobby = await t.slash("game new", alice, channel, game="rey_hierofante", clock="24h")
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    buttons = t.lobby_buttons(lobby)
    await t.click(lobby, buttons["join"], bob)
    await t.click(lobby, buttons["start"], alice)
    await t.fake.wait_until(lambda: t.board(gid) is not None)
    return gid


async def test_a_player_waited_on_in_two_games_gets_one_reminder_listing_both(fake, db) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(5), clock=clock)
        await t.start()
        games = [await _game_in(t, world.channels[name]) for name in ("games", "general")]
        silent = [(await t.user_to_act(g))[1] for g in games]  # type: ignore[index]
        if silent[0]["id"] != silent[1]["id"]:
            await t.move_by_menu(games[1])  # the second game's turn passes to the other player
            await t.fake.wait_until(lambda: t.bot.session.cached(games[1]).version > 0)  # type: ignore[union-attr]
        (_, user), (_, other) = [await t.user_to_act(g) for g in games]  # type: ignore[misc]
        assert user["id"] == other["id"]
        before = len(fake.dms_to(user))
        clock.advance(12 * HOUR + 60)
        assert (await t.bot.scheduler.tick()).reminders == 2
        await fake.wait_until(lambda: len(fake.dms_to(user)) > before)
        await t.bot.outbox.drain(again=False)
        (dm,) = fake.dms_to(user)[before:]  # one DM for both games
        lang_reminder = "Reminder" if "Reminder" in dm["content"] else "Recordatorio"
        assert dm["content"].count(lang_reminder) == 1
        for gid, name in zip(games, ("games", "general"), strict=True):
            channel = world.channels[name]
            assert f"#{gid}" in dm["content"] and f"/{channel['id']}" in dm["content"]


async def test_a_game_speaks_the_servers_language_unless_its_host_chose_one(fake, db) -> None:
    # an English server, a host whose Discord is in Spanish
    async with FakeWorld(users=["alice", "bob"], user_options={"alice": {"locale": "es-ES"}},
                         fake=fake) as world:
        t = Table(world, db, random.Random(3))
        await t.start()
        gid = await two_player_game(t)
        assert (await t.game(gid)).locale == "en"
        assert f"game #{gid}" in embed_text(t.board(gid)) and "Partida" not in embed_text(t.board(gid))
        await t.slash("game abandon", world["alice"])
        # the host chooses Spanish for this game: its board speaks Spanish
        gid = await two_player_game(t, language="es")
        assert (await t.game(gid)).locale == "es"
        assert f"Partida #{gid}" in embed_text(t.board(gid))


async def test_closed_dms_found_by_a_turn_dm_are_told_in_the_channel_naming_the_player(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], user_options={"bob": {"dms_open": False}},
                         fake=fake) as world:
        t = Table(world, db, random.Random(4))
        await t.start()
        bob = world["bob"]
        await t.slash("settings", bob, notify="dm")
        gid = await two_player_game(t)
        for _ in range(6):
            g = await t.game(gid)
            if g.seat_row(1).dm_closed:
                break
            await t.move_by_menu(gid)
        notice = await fake.wait_for_message(world.channel, lambda m: "direct messages closed" in m["content"])
        assert notice["content"].startswith("bob has direct messages closed")
        assert "time runs out" not in notice["content"]  # a game without a clock has no deadline


async def test_closed_dms_notice_and_last_call_in_the_channel_say_what_the_deadline_brings(fake, db) -> None:
    # A Spanish server; bob's DMs are closed: no last-call DM can tell him what his deadline
    # brings, so the channel is told, naming him, and his last call there says it too.
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], guild_locale="es-ES", fake=fake,
                         user_options={"bob": {"dms_open": False, "locale": "es-ES"},
                                       "alice": {"locale": "es-ES"}}) as world:
        t = Table(world, db, random.Random(4), clock=clock)
        await t.start()
        bob = world["bob"]
        await t.slash("settings", bob, notify="dm")
        gid = await two_player_game(t, clock="24h")
        for _ in range(8):
            g = await t.game(gid)
            if g.seat_row(1).dm_closed and (await t.user_to_act(gid))[1] is bob:  # type: ignore[index]
                break
            await t.move_by_menu(gid)
        notice = await fake.wait_for_message(world.channel, lambda m: "mensajes directos cerrados" in m["content"])
        first, stake = notice["content"].split("\n")
        assert first.startswith("bob tiene los mensajes directos cerrados")
        assert stake == ("Si a bob se le acaba el tiempo, el bot juega ese turno por su cuenta. Se le ha "
                         "acabado el tiempo 0 de 3 veces en esta partida: a las 3, el bot se queda su "
                         "asiento hasta el final.")
        assert (await t.user_to_act(gid))[1] is bob  # type: ignore[index]
        for hours in (12, 10):  # the first reminder, then the last call
            clock.advance(hours * HOUR + 60)
            assert (await t.bot.scheduler.tick()).reminders == 1
            await t.bot.outbox.drain(again=False)
        calls = [m["content"] for m in fake.channel_messages(world.channel)
                 if m["content"].startswith(f"⏳ <@{bob['id']}>, te toca")]
        assert calls and calls[-1].endswith("\nSi se acaba, el bot juega este turno por ti. Se te ha acabado "
                                            "el tiempo 0 de 3 veces en esta partida: a las 3, el bot se "
                                            "queda tu asiento hasta el final."), calls


async def test_catch_up_tells_each_player_the_secret_choice_the_bot_made_for_them(fake, db) -> None:
    # Rattus Cartus's entering a building is made of secret steps (the building, the cards
    # face down) nobody else reads a word of: both players let the clock run out for a few
    # turns, and each is told, in their own language, what the bot chose for them.
    clock = ManualClock()
    async with FakeWorld(users=["ana", "ben"], user_options={"ana": {"locale": "es-ES"}},
                         fake=fake) as world:
        t = Table(world, db, random.Random(2), clock=clock)
        await t.start()
        t.bot.session._seed = lambda: 5  # the same deal every run
        ana, ben = world["ana"], world["ben"]
        _, _, lobby = await t.slash("game new", ana, game="rattus_cartus", clock="24h")
        assert lobby is not None
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["join"], ben)
        await t.click(lobby, buttons["start"], ana)
        gid = int(lobby["embeds"][0]["title"].split("#")[-1])
        g = await t.game(gid)
        assert sorted(g.pending()) == [0, 1]
        # the supplies chosen, then each enters in turn: two timeouts each (a third would make
        # the seat the bot's)
        for _ in range(3):
            clock.advance(25 * HOUR)
            assert (await t.bot.scheduler.tick()).timeouts >= 1
        for user, chose, words in ((ana, "🤖 El bot eligió por ti, en secreto: ", "entrar en"),
                                   (ben, "🤖 The bot chose for you, in secret: ", "enter")):
            _, _, status = await t.slash("game status", user)
            told = [line for line in status["content"].splitlines() if line.startswith(chose)]
            assert any(words in line.lower() for line in told), status["content"]
            # never told of their own move as a secret kept from them (others' secrets are)
            mine = f"**{user['username']}** "
            assert mine + "ha tomado una decisión" not in status["content"], status["content"]
            assert mine + "made a choice only" not in status["content"], status["content"]
        # one language per reader: ana reads the card of this English server's game in Spanish
        # beside her catch-up (without the last turn's story, told in English); ben in English
        _, _, hers = await t.slash("game status", ana)
        _, _, his = await t.slash("game status", ben)
        assert f"partida #{gid}" in hers["embeds"][0]["title"] and "Turno de" in embed_text(hers)
        assert not re.search(r"\b(?:game|turn|Last|to play|hand)\b", json.dumps(hers["embeds"], ensure_ascii=False))
        assert f"game #{gid}" in his["embeds"][0]["title"] and "Last turn" in embed_text(his)
