"""The board message (edit, or post again) and DMs (closed ones recorded and announced once),
with a real session and store and a stand-in for Discord's channels."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import cogs.rey_hierofante  # noqa: F401 - registers the game's presentation
from cogs.common.board import BoardKeeper, too_old
from cogs.common.delivery import Delivery
from services.session import SessionService
from storage import Store

ALICE, BOB = 101, 202
# Ids dated now, like Discord's, so boards are not mistaken for old ones.
_ids = itertools.count(discord.utils.time_snowflake(discord.utils.utcnow()))


def http_error(kind: type[discord.HTTPException], status: int) -> discord.HTTPException:
    return kind(SimpleNamespace(status=status, reason="x"), {"message": "x", "code": 0})  # type: ignore[arg-type]


class Channel:
    """Stands in for discord.PartialMessageable: records sends, edits and deletes."""

    def __init__(self, world: World, channel_id: int) -> None:
        self.world, self.id = world, channel_id

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        if self.id in self.world.closed_dms:
            raise http_error(discord.Forbidden, 403)
        mid = next(_ids)
        self.world.messages[mid] = {"channel": self.id, "content": content, **kwargs}
        self.world.log.append(("send", self.id, mid))
        return SimpleNamespace(id=mid, channel=SimpleNamespace(id=self.id))

    def get_partial_message(self, mid: int) -> Any:
        world, channel = self.world, self.id

        class Message:
            async def edit(self, **kwargs: Any) -> None:
                if mid not in world.messages:
                    raise http_error(discord.NotFound, 404)
                world.messages[mid].update(kwargs)
                world.log.append(("edit", channel, mid))

            async def delete(self) -> None:
                world.messages.pop(mid, None)
                world.log.append(("delete", channel, mid))

        return Message()

    async def fetch_message(self, mid: int) -> Any:
        if mid not in self.world.messages:
            raise http_error(discord.NotFound, 404)
        return SimpleNamespace(id=mid, content=self.world.messages[mid].get("content") or "")


class World:
    """The bot as BoardKeeper and Delivery see it."""

    def __init__(self, session: SessionService) -> None:
        self.session = session
        self.messages: dict[int, dict[str, Any]] = {}
        self.log: list[tuple[str, int, int]] = []
        self.closed_dms: set[int] = set()

    def get_partial_messageable(self, id: int, **_: Any) -> Channel:
        return Channel(self, id)

    async def create_dm(self, user: Any) -> Channel:
        return Channel(self, -user.id)  # a DM channel per user: minus the user's id

    def close_dms(self, user: int) -> None:
        self.closed_dms.add(-user)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    store = await Store.open(tmp_path / "t.db")
    yield World(SessionService(store, seed_source=lambda: 99))
    await store.close()


async def start(world: World, **options: Any) -> int:
    g = await world.session.create(
        guild_id=1, channel_id=500, game_id="rey_hierofante", options=options,
        host_id=ALICE, host_name="alice", locale="en",
    )
    await world.session.join(g.id, user_id=BOB, name="bob", locale="es")
    await world.session.start(g.id, by=ALICE)
    return g.id


async def test_board_is_posted_then_edited_in_place(world: World) -> None:
    game = await start(world)
    keeper = BoardKeeper(world)  # type: ignore[arg-type]
    first = await keeper.refresh(game)
    assert first is not None and world.log == [("send", 500, first)]
    assert (await world.session.require(game)).row.board_message_id == first
    again = await keeper.refresh(game)
    assert again == first and world.log[-1] == ("edit", 500, first)


async def test_a_deleted_board_is_posted_again(world: World) -> None:
    game = await start(world)
    keeper = BoardKeeper(world)  # type: ignore[arg-type]
    first = await keeper.refresh(game)
    del world.messages[first]  # type: ignore[arg-type]
    second = await keeper.refresh(game)
    assert second is not None and second != first
    assert (await world.session.require(game)).row.board_message_id == second


async def test_a_buried_board_is_posted_again_below(world: World) -> None:
    game = await start(world)
    keeper = BoardKeeper(world)  # type: ignore[arg-type]
    keeper.bury_limit = 3
    first = await keeper.refresh(game)
    assert first is not None
    for _ in range(3):
        keeper.note_message(SimpleNamespace(id=next(_ids), channel=SimpleNamespace(id=500)))  # type: ignore[arg-type]
    second = await keeper.refresh(game)
    assert second != first
    assert ("delete", 500, first) in world.log and first not in world.messages


def test_age_is_read_from_the_snowflake() -> None:
    now = discord.utils.utcnow()
    fresh = discord.utils.time_snowflake(now - dt.timedelta(days=1))
    old = discord.utils.time_snowflake(now - dt.timedelta(days=15))
    assert not too_old(fresh, now=now) and too_old(old, now=now)
    assert not too_old(old, None, now=now)


async def test_check_after_restart_brings_the_board_up_to_date(world: World) -> None:
    game = await start(world)
    keeper = BoardKeeper(world)  # type: ignore[arg-type]
    first = await keeper.refresh(game)
    restarted = BoardKeeper(world)  # type: ignore[arg-type]
    await restarted.check(game)
    assert world.log[-1] == ("edit", 500, first)


async def test_hidden_hands_go_by_dm_only_when_they_change(world: World) -> None:
    game = await start(world, variant="aleatorio_oculto")
    delivery = Delivery(world)  # type: ignore[arg-type]
    g = await world.session.require(game)
    await delivery.private_updates(g, None)
    dms = {ch for (op, ch, _) in world.log if op == "send"}
    assert dms == {-ALICE, -BOB}
    bob_dm = next(m for m in world.messages.values() if m["channel"] == -BOB)
    assert "game #" in (bob_dm["content"] or "") or "partida #" in (bob_dm["content"] or "")
    before = len(world.log)
    await delivery.private_updates(g, g.state)  # nothing changed: nothing sent
    assert len(world.log) == before


async def test_closed_dms_are_recorded_and_announced_once(world: World) -> None:
    game = await start(world, variant="aleatorio_oculto")
    world.close_dms(BOB)
    delivery = Delivery(world)  # type: ignore[arg-type]
    g = await world.session.require(game)
    bob = g.seat_of(BOB)
    assert bob is not None
    assert not await delivery.send_private(g, bob)
    assert g.seat_row(bob).dm_closed
    notices = [m for m in world.messages.values() if m["channel"] == 500]
    assert len(notices) == 1 and "bob" in notices[0]["content"] and "/game hand" in notices[0]["content"]
    hidden = [z.tile for z in g.state.zones[bob] if z.hidden]  # type: ignore[union-attr]
    assert not any(tile in notices[0]["content"].lower() for tile in hidden)
    assert not await delivery.send_private(g, bob)  # still closed: no second notice
    assert len([m for m in world.messages.values() if m["channel"] == 500]) == 1
    world.closed_dms.clear()
    assert await delivery.send_private(g, bob)
    assert not g.seat_row(bob).dm_closed


async def test_with_shards_an_edit_overtaken_by_another_process_ends_on_the_newest(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(world)
    world.session.shared = True  # several processes share the database
    keeper = BoardKeeper(world)  # type: ignore[arg-type]
    board = await keeper.refresh(game)
    assert board is not None
    # Another process, on the same database: while this process's edit is on its way, it
    # commits the next move (and its own board edit lands first).
    other = SessionService(world.session.store, seed_source=lambda: 99)
    other.shared = True
    overtaken: list[int] = []
    plain = Channel.get_partial_message

    def racing(self: Channel, mid: int) -> Any:
        message = plain(self, mid)
        edit = message.edit

        async def edit_late(**kwargs: Any) -> None:
            if not overtaken:
                g = await other.require(game)
                (seat,) = g.pending()
                action = g.legal_actions(seat)[0]
                user = g.seat_row(seat).user_id
                overtaken.append(g.version)
                await other.move(game, user, action.model_dump(mode="json"), g.version)
            await edit(**kwargs)

        message.edit = edit_late
        return message

    monkeypatch.setattr(Channel, "get_partial_message", racing)
    assert await keeper.refresh(game) == board
    newest = (await world.session.require(game)).version
    assert overtaken and newest > overtaken[0]
    # The first edit showed the version it read; the board ends showing the newest.
    edits = [e for e in world.log if e[0] == "edit"]
    assert len(edits) == 2
    shown = world.messages[board]["embed"]
    assert str(newest) in (shown.footer.text or ""), shown.footer.text
    # One process alone (not shared) trusts its own order and edits once.
    world.session.shared = other.shared = False
    overtaken.clear()
    world.log.clear()
    assert await keeper.refresh(game) == board
    assert len([e for e in world.log if e[0] == "edit"]) == 1


class Stripped:
    """A channel of messages as Discord keeps them: an edit leaving one empty is refused
    (50006), and so is any edit of a message older than an hour (30046)."""

    id = 7

    def __init__(self, messages: dict[int, dict[str, Any]], old: bool = False) -> None:
        self.messages = messages
        self.old = old
        self.calls: list[tuple[str, int]] = []

    async def send(self, content: str | None = None, **kwargs: Any) -> Any:
        mid = max(self.messages, default=0) + 1
        self.messages[mid] = {"content": content}
        self.calls.append(("send", mid))
        return SimpleNamespace(id=mid)

    async def fetch_message(self, mid: int) -> Any:
        self.calls.append(("fetch", mid))
        return SimpleNamespace(id=mid, content=self.messages[mid].get("content") or "")

    def get_partial_message(self, mid: int) -> Any:
        channel = self

        def refused(code: int) -> discord.HTTPException:
            error = http_error(discord.HTTPException, 400)
            error.code = code
            return error

        class Message:
            async def edit(self, **kwargs: Any) -> None:
                channel.calls.append(("edit", mid))
                if channel.old:
                    raise refused(30046)
                left = {**channel.messages[mid], **kwargs}
                if not (left.get("content") or left.get("embeds") or left.get("view")):
                    raise refused(50006)
                channel.messages[mid] = left

            async def delete(self) -> None:
                channel.calls.append(("delete", mid))
                del channel.messages[mid]

        return Message()


TEXT = "ana places the King.\n<@2> to play"


@pytest.mark.parametrize("carries", [True, False, None])
async def test_an_old_card_keeps_the_turns_message_it_carries_and_goes_when_it_carries_none(
    carries: bool | None,
) -> None:
    channel = Stripped({1: {"content": TEXT if carries is not False else "", "embeds": ["card"], "view": "buttons"}})
    await BoardKeeper(SimpleNamespace())._retire(channel, 1, carries)  # type: ignore[arg-type]
    if carries is False:  # known to carry nothing: deleted at once
        assert channel.messages == {} and channel.calls == [("delete", 1)]
    else:  # carries (or may: a card from before a restart): only its embed and buttons go
        assert channel.messages[1] == {"content": TEXT, "embeds": [], "view": None, "attachments": []}
        assert channel.calls == [("edit", 1)]


async def test_an_old_card_of_unknown_content_that_carries_nothing_is_deleted() -> None:
    channel = Stripped({1: {"content": "", "embeds": ["card"], "view": "buttons"}})
    await BoardKeeper(SimpleNamespace())._retire(channel, 1, None)  # type: ignore[arg-type]
    assert channel.messages == {} and channel.calls == [("edit", 1), ("delete", 1)]


@pytest.mark.parametrize("carries", [True, None])
async def test_a_card_too_old_to_edit_leaves_its_turns_message_posted_on_its_own(carries: bool | None) -> None:
    channel = Stripped({1: {"content": TEXT, "embeds": ["card"], "view": "buttons"}}, old=True)
    await BoardKeeper(SimpleNamespace())._retire(channel, 1, carries)  # type: ignore[arg-type]
    # the card is gone (no second live card), its turn's message is there, unchanged
    assert list(channel.messages.values()) == [{"content": TEXT}]
    assert channel.calls == [("edit", 1), ("fetch", 1), ("send", 2), ("delete", 1)]
