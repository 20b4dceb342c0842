"""A request sent twice applies once, and its refusal is private, even when the command
was slow enough to be deferred in public ("thinking…")."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from cogs.common import choices, i18n, moves

from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table


async def two_player_game(t: Table) -> int:
    """alice and bob in a started Rey y Hierofante game; its number."""
    gid, lobby = await t.new_game(t.world["alice"])
    b = t.lobby_buttons(lobby)
    await t.click(lobby, b["join"], t.world["bob"])
    await t.click(lobby, b["start"], t.world["alice"])
    return gid


def held(
    monkeypatch: pytest.MonkeyPatch, t: Table, calls: int, go: asyncio.Event | None = None
) -> list[Any]:
    """Hold the session's moves until ``calls`` of them have arrived (so they cross), and
    ``go`` is set if given; the versions they carry are recorded."""
    session = t.bot.session
    real_move = session.move
    seen: list[Any] = []
    all_in = asyncio.Event()

    async def move(game: int, user_id: int, action: Any, version: int | None = None) -> Any:
        seen.append(version)
        if len(seen) >= calls:
            all_in.set()
        await all_in.wait()
        if go is not None:
            await go.wait()
        return await real_move(game, user_id, action, version)

    monkeypatch.setattr(session, "move", move)
    return seen


@pytest.mark.parametrize("form", ["index", "json"])
async def test_the_same_move_sent_twice_applies_once_and_the_second_is_refused_privately(
    fake, db, monkeypatch: pytest.MonkeyPatch, form: str
) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(3))
        await t.start()
        gid = await two_player_game(t)
        g = await t.game(gid)
        version = g.version
        seat, user = await t.user_to_act(gid)
        action = g.legal_actions(seat)[0]
        # Both forms the autocomplete offers carry the version they were offered at.
        value = f"#0@{version}" if form == "index" else choices.encode(g, 0, action)
        assert value.endswith(f"@{version}")
        seen = held(monkeypatch, t, 2)
        first = await fake.slash("game move", user, world.channel, choice=value)
        second = await fake.slash("game move", user, world.channel, choice=value)
        await fake.wait_response(first)
        await fake.wait_response(second)
        await fake.wait_until(lambda: len(seen) == 2)  # acknowledged first, then moved
        assert seen == [version, version]  # checked again under the game's lock
        await fake.wait_until(lambda: t.bot.session.cached(gid).version == version + 1)
        # Both answered privately: the move that applied says it is done, the other is
        # refused (each in its own "thinking…", acknowledged before the move).
        answers = await fake.wait_until(
            lambda: (found := [m for m in fake.ephemeral_responses(user) if m["content"]])[1:] and found
        )
        done = {i18n.t("board.done", "en"), i18n.t("board.done", "es")}
        assert sorted(m["content"] in done for m in answers) == [False, True], answers
        assert not fake.unfilled_placeholders()
        # Sent again later (a double click, a retry), it is still refused: stale.
        _, _, again = await t.slash("game move", user, choice=value)
        assert again is not None and again["flags"] & EPHEMERAL
        assert (await t.game(gid)).version == version + 1


async def test_a_slow_commands_refusal_never_lands_in_the_public_thinking_message(
    fake, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(4))
        await t.start()
        gid = await two_player_game(t)
        monkeypatch.setattr(moves, "SLOW", 0.01)  # every move is deferred ("thinking…")
        version = (await t.game(gid)).version
        go = asyncio.Event()  # both moves wait until both commands were deferred
        seen = held(monkeypatch, t, 2, go)
        _, user = await t.user_to_act(gid)
        first = await fake.slash("game move", user, world.channel, choice=f"#0@{version}")
        second = await fake.slash("game move", user, world.channel, choice=f"#0@{version}")
        for inter in (first, second):
            assert (await fake.wait_response(inter))["type"] == 5  # deferred ("thinking…")
        go.set()
        await fake.wait_until(lambda: len(seen) == 2)
        assert seen == [version, version]
        refusal = await fake.wait_until(
            lambda: next((m for m in fake.ephemeral_responses(user) if m["content"]), None)
        )
        assert refusal["content"]
        await fake.wait_until(lambda: t._current_board(gid, version + 1))
        # In the channel: the move's record, and no "thinking…" placeholder left, nor a
        # public refusal (only the record and boards are public).
        public = fake.channel_messages(world.channel)
        assert not [m for m in public if m["flags"] & (1 << 7)], "a thinking placeholder was left"
        texts = json.dumps([m["content"] for m in public], ensure_ascii=False)
        assert refusal["content"] not in texts


async def test_an_abandoned_games_board_loses_its_menus_through_the_outbox(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        gid = await two_player_game(t)
        version = (await t.game(gid)).version
        await fake.wait_until(lambda: t._current_board(gid, version))  # with its menus
        await t.slash("game abandon", world["alice"])
        # The abandon and the board it owes were one transaction; the board is shown as the
        # game now is: no menus, nothing left owed.
        await fake.wait_until(lambda: not fake.components(t.board(gid)))
        # The edit lands before it is marked delivered: give the marking its moment.
        for _ in range(200):
            if not await t.bot.session.store.open_changes(gid):
                break
            await asyncio.sleep(0.05)
        assert await t.bot.session.store.open_changes(gid) == []
