"""Rey y Hierofante end to end: the real bot and discord.py client against the fake Discord."""

from __future__ import annotations

import asyncio
import json
import random

from rules.registry import engine
from services.fairness import commitment

from .checks import replay_matches_store
from .driver import Driver, board_picture, hand_notice
from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table

E = engine("rey_hierofante")
MAX_MOVES = 400


async def test_two_players_play_a_whole_match_across_a_restart(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(7))
        await t.start()
        alice, bob = world["alice"], world["bob"]
        gid, lobby = await t.new_game(alice)
        buttons = t.lobby_buttons(lobby)
        assert set(buttons) == {"join", "leave", "ai", "start"}
        await t.click(lobby, buttons["join"], bob)
        await t.click(lobby, buttons["start"], alice)
        board = await fake.wait_until(lambda: t._current_board(gid, 0))
        # the public board: an embed with the picture; the record of the start pings the
        # player to act, once, and the board itself pings nobody
        board_picture(t, board)
        seat, user = await t.user_to_act(gid)
        assert fake.pinged(board) == []
        pings = [m for m in fake.channel_messages(world.channel) if user["id"] in fake.pinged(m)]
        assert len(pings) == 1 and str(gid) in pings[0]["content"]

        # the first move by slash command, with the choices autocomplete offers
        tiles = await fake.autocomplete("rh place", user, world.channel, focused="tile", tile="", square="")
        assert [c["value"] for c in tiles] == ["ciudadano"]
        squares = await fake.autocomplete("rh place", user, world.channel, focused="square",
                                          tile="ciudadano", square="")
        assert len(squares) == 9
        _, _, msg = await t.slash("rh place", user, tile="ciudadano", square=squares[4]["value"])
        # acknowledged at once and answered privately; what was done is the channel's to see
        assert msg["flags"] & EPHEMERAL and msg["content"] and not fake.unfilled_placeholders()
        g = await t.game(gid)
        assert g.state.board[4].tile == "ciudadano" and g.version == 1
        # the dice: the card and /game verify show the commitment, never the seed
        dice = commitment(g.row.seed, g.row.seed_salt)
        _, _, msg = await t.slash("game verify", user)
        assert msg["flags"] & EPHEMERAL and dice in msg["content"]
        assert str(g.row.seed) not in msg["content"] and g.row.seed_salt not in msg["content"]
        card = t.board(gid)
        assert dice in json.dumps(card["embeds"]) and str(g.row.seed) not in json.dumps([card["content"], card["embeds"]])

        moves, restarted = 1, False
        while (await t.game(gid)).status == "active":
            await t.move_by_menu(gid)
            moves += 1
            if moves == 12 and not restarted:
                # days pass: the bot is stopped and a new one starts on the same database
                before = (await t.game(gid)).version
                await t.restart()
                restarted = True
                g = await t.game(gid)
                assert g.version == before and g.status == "active"
            assert moves < MAX_MOVES
        g = await t.game(gid)
        assert restarted and g.status == "finished" and g.state.finished
        assert max(g.state.wins) == 2
        winner = E.outcome(g.state).winners[0]
        # the channel was told the result, naming the winner
        await fake.wait_until(lambda: any("Fin del encuentro" in m["content"] or "match is over" in m["content"]
                                          for m in fake.channel_messages(world.channel)))
        assert g.seat_row(winner).name in json.dumps(
            [m["content"] for m in fake.channel_messages(world.channel)][-3:] + [t.board(gid)["embeds"]])
        await replay_matches_store(E, db, gid, 2)
        # once over, the seed and salt are revealed and verify
        _, _, msg = await t.slash("game verify", alice)
        assert msg["flags"] & EPHEMERAL
        assert all(x in msg["content"] for x in (dice, str(g.row.seed), g.row.seed_salt, "`"))
        assert "NO" not in msg["content"]
        # the server's figures: public, the finished game counted, both players named, a chart
        async def counted() -> dict | None:
            _, _, msg = await t.slash("stats", bob)
            text = json.dumps(msg["embeds"]) if msg else ""
            return msg if "1 finished" in text or "1 terminada" in text else None
        stats = None
        for _ in range(20):  # the result is stored by the game-over listener, just after
            stats = await counted()
            if stats is not None:
                break
            await asyncio.sleep(0.1)
        assert stats is not None and not stats["flags"] & EPHEMERAL
        assert "alice" in json.dumps(stats["embeds"]) and "bob" in json.dumps(stats["embeds"])
        assert stats["attachments"] and fake.pinged(stats) == []
        # after the end nobody can move
        _, _, msg = await t.slash("game move", alice, choice=f"#0@{g.version}")
        assert msg["flags"] & EPHEMERAL


async def test_outsider_and_out_of_turn_moves_are_refused(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob", "carol"],
                         user_options={"carol": {"locale": "es-ES"}}, fake=fake) as world:
        t = Table(world, db)
        await t.start()
        alice, bob, carol = world["alice"], world["bob"], world["carol"]
        gid, lobby = await t.new_game(alice)
        b = t.lobby_buttons(lobby)
        await t.click(lobby, b["join"], bob)
        # a third player cannot join a full game: the Join button is disabled
        lobby = fake.messages[lobby["id"]]
        join = fake.find_component(lobby, lambda c: c.get("custom_id") == b["join"])
        assert join["disabled"]
        await t.click(lobby, b["start"], alice)
        seat, user = await t.user_to_act(gid)
        other = bob if user is alice else alice
        before = (await t.game(gid)).version

        _, _, msg = await t.slash("rh place", carol, tile="ciudadano", square="B2")
        assert msg["flags"] & EPHEMERAL
        assert "No juegas en esta partida" in msg["content"]  # carol's Discord is in Spanish
        _, _, msg = await t.slash("rh place", other, tile="ciudadano", square="B2")
        assert msg["flags"] & EPHEMERAL
        # others see no choices in autocomplete
        hints = await fake.autocomplete("rh place", carol, world.channel, focused="tile", tile="", square="")
        assert all(c["value"] == "-" for c in hints)
        # a menu click by someone else is refused privately too
        board = await fake.wait_until(lambda: t._current_board(gid, 0))
        menu = Driver(t, gid).menu(board)
        inter = await fake.select(board, menu["custom_id"], other, [menu["options"][0]["value"]])
        await fake.wait_response(inter)
        assert fake.response_message(inter)["flags"] & EPHEMERAL
        # garbage typed by the right player: a clear message, nothing changes
        _, _, msg = await t.slash("rh place", user, tile="dragón gigante", square="Z9")
        assert msg["flags"] & EPHEMERAL and msg["content"]
        _, _, msg = await t.slash("rh place", user, tile="rey", square="B2")
        assert msg["flags"] & EPHEMERAL and ("Ciudadano" in msg["content"] or "Citizen" in msg["content"])
        g = await t.game(gid)
        assert g.version == before
        # carol speaks Spanish: her refusal came in Spanish
        refusals = fake.ephemeral_responses(carol)
        assert refusals and all("You " not in m["content"] for m in refusals)


async def test_closed_dms_get_the_hand_through_the_channel_without_revealing_it(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], user_options={"bob": {"dms_open": False}},
                         fake=fake) as world:
        t = Table(world, db)
        await t.start()
        alice, bob = world["alice"], world["bob"]
        gid, lobby = await t.new_game(alice, variant="aleatorio_oculto")
        b = t.lobby_buttons(lobby)
        await t.click(lobby, b["join"], bob)
        await t.click(lobby, b["start"], alice)
        g = await t.game(gid)
        bob_seat = g.seat_of(int(bob["id"]))
        secret = [z.tile for z in g.state.zones[bob_seat] if z.hidden]
        assert len(secret) == 2
        names = set()
        for tile in secret:
            from rules.rey_hierofante.tiles import TILES
            names |= {TILES[tile].name.es, TILES[tile].name.en}
        # alice got her hidden tiles by DM; bob's DMs are closed, and the channel says so
        assert await fake.wait_until(lambda: fake.dms_to(alice))
        await hand_notice(t, "bob", ("/game hand", "/partida mano"))
        public = json.dumps([m["content"] for m in fake.channel_messages(world.channel)]
                            + [m["embeds"] for m in fake.channel_messages(world.channel)], ensure_ascii=False)
        assert not any(n in public for n in names), "a hidden tile reached the channel"
        # bob reads his hand privately
        _, _, msg = await t.slash("game hand", bob)
        assert msg["flags"] & EPHEMERAL
        text = json.dumps(msg["embeds"], ensure_ascii=False) + msg["content"]
        assert all(any(n in text for n in (TILES[s].name.es, TILES[s].name.en)) for s in secret)
        # and alice's hand view does not show bob's tiles
        _, _, msg = await t.slash("game hand", alice)
        text = json.dumps(msg["embeds"], ensure_ascii=False) + msg["content"]
        assert not any(n in text for n in names)


async def test_a_game_against_the_ai(fake, db) -> None:
    async with FakeWorld(users=["alice"], fake=fake) as world:
        t = Table(world, db, random.Random(3))
        await t.start()
        alice = world["alice"]
        gid, lobby = await t.new_game(alice, wins_needed=1)
        b = t.lobby_buttons(lobby)
        await t.click(lobby, b["ai"], alice)
        await t.click(lobby, b["start"], alice)
        g = await t.game(gid)
        assert any(s.ai for s in g.seats)
        moves = 0
        while (await t.game(gid)).status == "active":
            who = await t.user_to_act(gid)
            if who is None:  # the AI is thinking; it moves by itself
                await asyncio.sleep(0.01)
                continue
            await t.move_by_menu(gid)
            moves += 1
            assert moves < MAX_MOVES
        g = await t.game(gid)
        assert g.state.finished and len(g.state.history) == 1
        store_actions = await t.bot.store.actions(gid)
        ai_seat = next(s.seat for s in g.seats if s.ai)
        assert any(a.seat == ai_seat for a in store_actions)
        await replay_matches_store(E, db, gid, 2)


async def test_a_game_in_a_new_thread_and_abandon(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], user_options={"bob": {"manage_channels": True}},
                         fake=fake) as world:
        t = Table(world, db)
        await t.start()
        alice, bob = world["alice"], world["bob"]
        _, _, msg = await t.slash("game new", alice, game="rey_hierofante", thread=True)
        threads = await fake.wait_until(lambda: [c for c in fake.channels.values() if c.get("type") == 11])
        assert len(threads) == 1
        g = await t.bot.session.in_channel(int(threads[0]["id"]))
        assert g is not None and g.status == "lobby"
        # one game per channel: a second one in the thread is refused
        _, _, msg = await t.slash("game new", bob, threads[0], game="rey_hierofante")
        assert msg["flags"] & EPHEMERAL
        # the host or a moderator may abandon it; bob has Manage Channels
        _, _, msg = await t.slash("game abandon", bob, threads[0])
        g = await t.game(g.id)
        assert g.status == "abandoned"
