"""A game's start posts exactly two channel messages, whoever delivers it: its message
(pinging whoever acts first) and one card below the lobby, which stays a lobby marked
started. The start's delivery is one piece (the lobby marked, the message, the card), so
another task delivering the same change meanwhile (the resume after a restart, another
process's sweep) leaves nothing behind: no second card, no card turned back into a lobby."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from rules.registry import engine

from .fake_discord import EPHEMERAL, FakeDiscord
from .harness import FakeWorld
from .table import Table

TITLES = ["rey_hierofante", "rattus_cartus", "ankh_morpork", "ragami", "guerra_de_mitos"]
CALLBACK = r"/interactions/\d+/[^/]+/callback"


def created_in(fake: FakeDiscord, channel: dict) -> list[dict]:
    """Every message created in ``channel`` that everyone sees, deleted ones included, oldest first."""
    every = [*fake.channel_messages(channel),
             *(m for m in fake.deleted_messages.values() if m["channel_id"] == channel["id"])]
    return sorted((m for m in every if not m["flags"] & EPHEMERAL), key=lambda m: int(m["id"]))


async def open_lobby(t: Table, world: FakeWorld, game_id: str, channel: dict | None = None) -> tuple[int, dict]:
    """A lobby of ``game_id`` with ana (host) and bo seated, and bots up to its minimum."""
    ana = world["ana"]
    _, _, lobby = await t.slash("game new", ana, channel, game=game_id)
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    await t.slash("game join", world["bo"], channel)
    for _ in range(engine(game_id).min_players - 2):
        await t.bot.session.add_ai(gid, by=int(ana["id"]))
    return gid, lobby


async def delivered(t: Table, gid: int) -> None:
    """Wait until everything game ``gid`` owes Discord is out."""
    store = t.bot.session.store
    for _ in range(500):
        if not await store.open_changes(gid) and not t.bot.boards._lock(gid).locked():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"game {gid}: changes left undelivered")


def assert_started_once(t: Table, channel: dict, gid: int, lobby: dict, before: int) -> None:
    """The start's message, then exactly one card (the game's board, last in the channel);
    the lobby kept, marked started, without its buttons."""
    fake = t.fake
    new = created_in(fake, channel)[before:]
    hand = f"tablero:hand:{gid}"
    cards = [m for m in new if any(c.get("custom_id") == hand for c in fake.components(m))]
    assert len(new) == 2, [(m["content"][:60], bool(m["components"])) for m in new]
    told, card = new
    assert fake.pinged(told) and not told["components"], told
    assert cards == [card] and card["id"] in fake.messages, "one live card, below the start's message"
    assert t.board(gid)["id"] == card["id"] == fake.last_message(channel)["id"]
    kept = fake.messages[lobby["id"]]
    assert kept["embeds"] and not t.lobby_buttons(kept), "the lobby stays, marked started"


async def started_while_delivered(t: Table, gid: int, lobby: dict,
                                  start: Callable[[], Awaitable[dict]]) -> None:
    """Start the game with ``start`` (a command or the lobby's button) while Discord is slow
    to take its answer (to the host alone), another task meanwhile delivering what the
    committed start owes, as a resume or a sweep does: its message and one card, once."""
    fake, channel = t.world.fake, t.world.channel
    before = len(created_in(fake, channel))
    held = fake.hold("POST", CALLBACK)
    inter = await start()
    await asyncio.wait_for(held.arrived.wait(), 10)
    assert await t.bot.outbox.drain(gid) == 1
    held.release.set()
    await fake.wait_response(inter)
    await delivered(t, gid)
    assert_started_once(t, channel, gid, lobby, before)


@pytest.mark.asyncio
@pytest.mark.parametrize("game_id", TITLES)
async def test_a_start_delivered_meanwhile_by_another_task_posts_its_message_and_one_card(
    fake: FakeDiscord, db: str, game_id: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db)
        await t.start()
        gid, lobby = await open_lobby(t, world, game_id)
        await started_while_delivered(
            t, gid, lobby, lambda: fake.slash("game start", world["ana"], world.channel))


@pytest.mark.asyncio
async def test_a_start_by_the_lobbys_button_delivered_meanwhile_posts_its_message_and_one_card(
    fake: FakeDiscord, db: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db)
        await t.start()
        gid, lobby = await open_lobby(t, world, "rey_hierofante")
        start = t.lobby_buttons(lobby)["start"]
        await fake.wait_until(lambda: not fake.find_component(lobby["id"], lambda c: c.get("custom_id") == start)
                              .get("disabled"))  # once the join shows: two players can start
        lobby = fake.messages[lobby["id"]]
        await started_while_delivered(t, gid, lobby, lambda: fake.click(lobby, start, world["ana"]))


@pytest.mark.asyncio
@pytest.mark.parametrize("game_id", TITLES)
async def test_starts_of_three_games_at_once_post_each_its_message_and_one_card(
    fake: FakeDiscord, db: str, game_id: str
) -> None:
    async with FakeWorld(users=["ana", "bo"], channels=["games", "mesa-1", "mesa-2"],
                         fake=fake) as world:
        t = Table(world, db)
        await t.start()
        lobbies = [(c, *await open_lobby(t, world, game_id, c)) for c in world.channels.values()]
        counts = [len(created_in(fake, c)) for c, _, _ in lobbies]
        starts = [await fake.slash("game start", world["ana"], c) for c, _, _ in lobbies]
        await asyncio.gather(*(fake.wait_response(i) for i in starts))
        for (channel, gid, lobby), before in zip(lobbies, counts, strict=True):
            await delivered(t, gid)
            assert_started_once(t, channel, gid, lobby, before)
