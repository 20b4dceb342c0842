"""Tablero under Discord's limits: 429s, missing permissions and expired interaction tokens,
through the real bot against the strict fake server."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from cogs.common import moves
from rules.core import StaleAction
from rules.registry import engine
from services.clock import ManualClock

from .checks import dm_text, text_of
from .fake_discord import ATTACH_FILES, CREATE_PUBLIC_THREADS, EMBED_LINKS, EPHEMERAL, SEND_MESSAGES
from .harness import FakeWorld
from .table import Table
from .test_async_play import two_player_game
from .test_rattus_cartus import hand_shown

RC = engine("rattus_cartus")


async def move_by_command(t: Table, gid: int, rng: random.Random) -> dict:
    """The player to act plays a random legal move with /game move, without waiting for
    the board; returns the interaction sent."""
    g = await t.game(gid)
    seat, user = await t.user_to_act(gid)
    legal = g.legal_actions(seat)
    version = g.version
    inter = await t.fake.slash(
        "game move", user, t.world.channel, choice=f"#{rng.randrange(len(legal))}@{version}"
    )
    await t.fake.wait_response(inter)
    await t.fake.wait_until(lambda: t.bot.session.cached(gid).version > version)
    return inter


async def test_a_busy_game_ends_on_its_latest_board_and_no_dm_is_lost(fake, db) -> None:
    # Discord's global limit, tightened so that the fan-out of quick moves meets 429s (a
    # quarter-second window: the outbox's bookkeeping between sends must not let a loaded
    # machine spread them out of it).
    fake.strict.window_scale, fake.strict.global_limit = 0.25, 4
    async with FakeWorld(
        users=["alice", "bob", "carol"], user_options={"bob": {"locale": "es-ES"}}, fake=fake
    ) as world:
        t = Table(world, db, random.Random(7))
        await t.start()
        t.bot.session._seed = lambda: 14
        _, _, lobby = await t.slash("game new", world["alice"], game="rattus_cartus")
        gid = int(lobby["embeds"][0]["title"].split("#")[-1])
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["join"], world["bob"])
        await t.click(fake.messages[lobby["id"]], buttons["join"], world["carol"])
        await t.click(fake.messages[lobby["id"]], buttons["start"], world["alice"])
        await fake.wait_until(lambda: t.board(gid) is not None, timeout=10)
        rng = random.Random(3)
        started, first = len(fake.requests), (await t.game(gid)).version
        for _ in range(24):
            if (await t.game(gid)).status != "active":
                break
            await move_by_command(t, gid, rng)
        g = await t.game(gid)
        final = g.version
        # the board catches up with the last move, whatever was refused on the way
        board = await fake.wait_until(lambda: t._current_board(gid, final), timeout=20)
        assert f"{final}" in text_of(board)
        assert fake.rate_limited, "the test meant to meet Discord's rate limits"
        # a busy game is not redrawn once per move: queued refreshes are coalesced
        keeper = t.bot.boards
        await fake.wait_until(
            lambda: not keeper._waiting.get(gid) and not keeper._lock(gid).locked(), timeout=20
        )
        channel_path = f"/channels/{world.channel['id']}/messages"
        board_writes = [
            r
            for r in fake.requests[started:]
            if r.status == 200
            and r.path.startswith(channel_path)
            and (r.method == "PATCH" or r.files)
        ]
        assert len(board_writes) < final - first
        # every player's hand DM shows the hand they hold now
        state = g.state
        for name, locale in (("alice", "en"), ("bob", "es"), ("carol", "en")):
            seat = g.seat_of(int(world[name]["id"]))

            def current(seat: int = seat, locale: str = locale, user: dict = world[name]) -> bool:
                return any(
                    hand_shown(dm_text(m), state.hands[seat], locale)
                    for m in fake.dms_to(user)[-1:]
                )

            await fake.wait_until(current, timeout=20)


async def test_missing_permissions_never_break_a_game(fake, db) -> None:
    async with FakeWorld(
        users=["alice", "bob"], user_options={"bob": {"locale": "es-ES"}}, fake=fake
    ) as world:
        t = Table(world, db, random.Random(2))
        await t.start()
        gid = await two_player_game(t)
        games = world.channel
        await fake.deny_bot(games, EMBED_LINKS | ATTACH_FILES)
        rng = random.Random(4)
        told: dict[str, Any] = {}
        for _ in range(2):  # one move by each player
            before = (await t.game(gid)).version
            _, user = await t.user_to_act(gid)
            posted = len(fake.channel_messages(games))
            inter = await move_by_command(t, gid, rng)
            # the move's record is a message of its own (Send Messages is all it needs); the
            # mover's private answer says what the bot lacks for the card
            await fake.wait_until(lambda n=posted: len(fake.channel_messages(games)) > n)
            assert fake.response_message(inter)["flags"] & EPHEMERAL
            notice = await fake.wait_until(
                lambda inter=inter: next(
                    (m for m in [fake.response_message(inter), *fake.followups(inter)]
                     if m["flags"] & EPHEMERAL and f"<#{games['id']}>" in m["content"]), None
                )
            )
            told[user["username"]] = notice["content"]
            assert (await t.game(gid)).version == before + 1
        assert "Embed Links" in told["alice"] and "Attach Files" in told["alice"]
        assert f"<#{games['id']}>" in told["alice"]
        assert "Insertar enlaces" in told["bob"] and "Adjuntar archivos" in told["bob"]
        # the board is shown privately meanwhile
        _, _, status = await t.slash("game status", world["alice"])
        assert status["flags"] & EPHEMERAL and status["embeds"]
        # permissions back: the next move brings the channel's board up to date
        await fake.deny_bot(games, 0)
        await move_by_command(t, gid, rng)
        version = (await t.game(gid)).version
        await fake.wait_until(lambda: t._current_board(gid, version))
        fake.errors.clear()  # the 403s above were expected


async def test_game_new_checks_the_bots_permissions_first(fake, db) -> None:
    async with FakeWorld(
        users=["alice", "bob"], user_options={"bob": {"locale": "es-ES"}}, fake=fake
    ) as world:
        t = Table(world, db)
        await t.start()
        await fake.deny_bot(world.channel, SEND_MESSAGES | ATTACH_FILES)
        _, _, refusal = await t.slash("game new", world["alice"], game="rey_hierofante")
        assert refusal["flags"] & EPHEMERAL
        assert "Send Messages" in refusal["content"] and "Attach Files" in refusal["content"]
        assert "Embed Links" not in refusal["content"]
        _, _, refusal = await t.slash("game new", world["bob"], game="rey_hierofante")
        assert "Enviar mensajes" in refusal["content"]
        assert await t.bot.session.in_channel(int(world.channel["id"])) is None
        # a thread: the bot must be able to open one
        general = world.channels["general"]
        await fake.deny_bot(general, CREATE_PUBLIC_THREADS)
        _, _, refusal = await t.slash(
            "game new", world["alice"], general, game="rey_hierofante", thread=True
        )
        assert "Create Public Threads" in refusal["content"] and refusal["flags"] & EPHEMERAL
        assert not [c for c in fake.channels.values() if c.get("parent_id") == general["id"]]
        # with what it needs, the game opens
        await fake.deny_bot(world.channel, 0)
        gid, _ = await t.new_game(world["alice"])
        assert gid > 0
        assert not fake.errors


async def test_no_interaction_token_is_used_after_it_expired(
    fake, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(6), clock=clock)
        await t.start()
        gid = await two_player_game(t)
        monkeypatch.setattr(moves, "SLOW", 0.01)  # every move is deferred ("thinking…")
        session = t.bot.session
        real_move = session.move
        go = asyncio.Event()

        async def held_move(*args: Any, **kwargs: Any) -> Any:
            await go.wait()
            return await real_move(*args, **kwargs)

        monkeypatch.setattr(session, "move", held_move)
        version = (await t.game(gid)).version
        seat, user = await t.user_to_act(gid)
        inter = await fake.slash("game move", user, world.channel, choice=f"#0@{version}")
        assert (await fake.wait_response(inter))["type"] == 5
        # the move takes 16 minutes (the world's clocks, the bot's and Discord's, move together)
        fake.clock.advance(16 * 60)
        clock.advance(16 * 60)
        seen = len(fake.requests)
        go.set()
        await fake.wait_until(lambda: t.bot.session.cached(gid).version > version)
        await fake.wait_until(lambda: t._current_board(gid, version + 1))
        later = fake.requests[seen:]
        assert not [r for r in later if r.path.startswith("/webhooks/")], [r.path for r in later]
        assert not fake.errors_with(50027)
        # the move's record still reached the channel, as a message of the bot's own
        record = fake.channel_messages(world.channel)[-2:]
        assert any(f"<@{int(user['id'])}>" not in m["content"] and m["content"] for m in record)


async def test_a_board_older_than_an_hour_is_posted_again(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(8))
        await t.start()
        gid = await two_player_game(t)
        old = t.board(gid)["id"]
        fake.clock.advance(3601)  # Discord now refuses edits of the board (30046)
        await move_by_command(t, gid, random.Random(1))
        version = (await t.game(gid)).version
        board = await fake.wait_until(lambda: t._current_board(gid, version))
        # the old board is deleted just after the new one is posted
        await fake.wait_until(lambda: old in fake.deleted_messages)
        assert board["id"] != old
        assert fake.errors_with(30046)
        fake.errors.clear()


async def test_a_refusal_after_the_token_expired_comes_by_dm(
    fake, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(6), clock=clock)
        await t.start()
        gid = await two_player_game(t)
        monkeypatch.setattr(moves, "SLOW", 0.01)
        go = asyncio.Event()

        async def refused_move(*args: Any, **kwargs: Any) -> Any:
            await go.wait()  # meanwhile the game moved on: the session refuses the move
            raise StaleAction("La partida ha cambiado.", "The game has moved on.")

        monkeypatch.setattr(t.bot.session, "move", refused_move)
        version = (await t.game(gid)).version
        _, user = await t.user_to_act(gid)
        inter = await fake.slash("game move", user, world.channel, choice=f"#0@{version}")
        assert (await fake.wait_response(inter))["type"] == 5
        fake.clock.advance(16 * 60)
        clock.advance(16 * 60)
        seen = len(fake.requests)
        go.set()
        dm = await fake.wait_for_dm(user, lambda m: "moved on" in m["content"])
        assert dm["content"] == "The game has moved on."
        assert not [r for r in fake.requests[seen:] if r.path.startswith("/webhooks/")]
        assert (await t.game(gid)).version == version
