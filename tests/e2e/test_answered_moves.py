"""A move made with a component whose outcome is ready within the answer's budget is answered
by it, with no second request: the Play button by its private menu, a step that leaves the
mover to decide again by the private panel turned into their next step (with their hand as
the step left it), and the step that passes the turn by the turn's message as
the new card, public, pinging whoever acts now; the old card is retired and the new one
stored. When the budget runs out first, the move is acknowledged and the new card comes as
a public followup of the interaction instead. A move made on the card is answered by the
card's edit, and the turn's message it owes follows through the same interaction's webhook,
not the bot's own token."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator

import pytest

from cogs.common import answering

from .driver import Driver, seeded_table, start_game
from .fake_discord import EPHEMERAL, FakeDiscord
from .harness import FakeWorld
from .table import Table
from .test_acknowledged import two_players


@contextlib.asynccontextmanager
async def two_players_in_time(fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch,
                              move: float) -> AsyncIterator[FakeWorld]:
    """ana and bo's world, menus answered within 2.5 s and moves within ``move``, whatever the
    machine's load (the budget's gate on a busy loop left open)."""
    monkeypatch.setattr(answering, "ANSWER_WITHIN", 2.5)
    monkeypatch.setattr(answering, "MOVE_ANSWER_WITHIN", move)
    monkeypatch.setattr(answering, "MOVE_LAG_LIMIT", float("inf"))
    monkeypatch.setattr(answering, "MOVES_IN_FLIGHT_LIMIT", 10**6)
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        yield world


def _choice(fake: FakeDiscord, panel: dict, rng: random.Random) -> tuple[str, list[str] | None]:
    """A choice in a private panel: (custom_id, values) of a select (a move's option, or a
    game's own step such as Rattus Cartus's building, then its cards), or (custom_id, None) of
    a move's button."""
    for c in fake.components(panel):
        cid = c.get("custom_id", "")
        if c["type"] == 3 and cid.startswith("tablero:"):
            moves = [o["value"] for o in c["options"]
                     if not cid.startswith("tablero:pick:") or o["value"][:1] not in ("g", "p")]
            if len(moves) >= c.get("min_values", 1):
                return cid, rng.sample(moves, c.get("min_values", 1))
        if c["type"] == 2 and cid.startswith("tablero:act:"):
            return cid, None
    raise AssertionError(f"no move in the panel: {panel['components']}")


async def _play_until_the_turn_passes(t: Table, gid: int, budget: float) -> tuple[dict, dict, dict]:
    """Players open their menus and move until a step passes the turn (a public message
    answers it, or follows it); returns that step's interaction and response, and the card
    it was made under."""
    fake = t.fake
    rng = random.Random(5)
    for _ in range(20):
        seat, user = await t.user_to_act(gid)
        old = t.board(gid)
        inter = await fake.click(old, f"tablero:play:{gid}", user)
        assert (await fake.wait_response(inter))["type"] == 4
        panel = fake.response_message(inter)
        assert panel is not None and panel["flags"] & EPHEMERAL and panel["_visible_to"] == user["id"]
        while True:
            before = await t.game(gid)
            version, waiting = before.version, set(before.pending())
            edited = fake.messages[panel["id"]].get("edited_timestamp")
            cid, values = _choice(fake, panel, rng)
            if values is None:
                inter = await fake.click(panel, cid, user)
            else:
                inter = await fake.select(panel, cid, user, values)
            response = await fake.wait_response(inter)
            if response["type"] == 7 and t.bot.session.cached(gid).version == version:
                panel = fake.messages[panel["id"]]  # a step of the game's own (no move yet)
                continue
            await fake.wait_until(lambda v=version: t.bot.session.cached(gid).version > v)
            g = await t.game(gid)
            if set(g.pending()) - waiting:
                # someone new is to act: the turn passed (a public message says so), or a
                # question was asked of another player by DM (they take it from there)
                try:
                    await fake.wait_until(lambda i=inter: any(
                        m is not None and not m["flags"] & EPHEMERAL
                        for m in [fake.response_message(i), *fake.followups(i)]), timeout=2)
                except TimeoutError:
                    break
                return inter, response, old
            if seat not in g.pending():
                break  # their part is done, the turn goes on with the others: told privately
            if budget:
                # the next step is the answer, in place, with the hand as the step left it
                assert response["type"] == 7, response
                panel = fake.messages[panel["id"]]
                assert fake.components(panel) and panel["flags"] & EPHEMERAL
            else:
                assert response["type"] == 6
                panel = await fake.wait_until(lambda p=panel, e=edited: fake.messages[p["id"]]
                                              if fake.messages[p["id"]]["edited_timestamp"] != e else None)
    raise AssertionError("the turn never passed")


@pytest.mark.asyncio
async def test_the_step_that_passes_the_turn_is_answered_by_the_new_card(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_players_in_time(fake, monkeypatch, 2.5) as world:  # every outcome is ready in time here
        t = Table(world, db)
        await t.start()
        gid = await two_players(t, "ankh_morpork")
        inter, response, old = await _play_until_the_turn_passes(t, gid, 2.5)
        assert response["type"] == 4  # a new message: the turn's message, as the new card
        card = fake.response_message(inter)
        assert card is not None and not card["flags"] & EPHEMERAL
        assert fake.find_component(card, lambda c: c.get("custom_id") == f"tablero:hand:{gid}")
        _, nxt = await t.user_to_act(gid)
        assert nxt["id"] in fake.pinged(card)  # the answer is a new message: it pings
        await fake.wait_until(lambda: t.board(gid) is not None and t.board(gid)["id"] == card["id"])
        # exactly one live card: the old one is gone (it carried no turn's message)
        await fake.wait_until(lambda: old["id"] not in fake.messages)
        cards = [m for m in fake.channel_messages(world.channel)
                 if fake.find_component(m, lambda c: c.get("custom_id") == f"tablero:hand:{gid}")]
        assert [m["id"] for m in cards] == [card["id"]]
        assert not fake.unfilled_placeholders()


@pytest.mark.asyncio
async def test_a_step_acknowledged_first_posts_the_new_card_as_a_public_followup(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_players_in_time(fake, monkeypatch, 0.0) as world:  # every move acknowledged at once
        t = Table(world, db)
        await t.start()
        gid = await two_players(t, "ankh_morpork")
        inter, response, old = await _play_until_the_turn_passes(t, gid, 0.0)
        assert response["type"] == 6
        card = await fake.wait_until(lambda: next(iter(fake.followups(inter)), None))
        assert not card["flags"] & EPHEMERAL
        _, nxt = await t.user_to_act(gid)
        assert nxt["id"] in fake.pinged(card)
        await fake.wait_until(lambda: t.board(gid) is not None and t.board(gid)["id"] == card["id"])
        await fake.wait_until(lambda: old["id"] not in fake.messages)
        cards = [m for m in fake.channel_messages(world.channel)
                 if fake.find_component(m, lambda c: c.get("custom_id") == f"tablero:hand:{gid}")]
        assert [m["id"] for m in cards] == [card["id"]]


@pytest.mark.asyncio
async def test_a_move_on_the_card_answered_by_its_edit_brings_the_turns_message_as_a_followup(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_players_in_time(fake, monkeypatch, 2.5) as world:  # every outcome is ready in time here
        t = await seeded_table(world, db, 11)
        gid, _ = await start_game(t, world["ana"], "rey_hierofante", click=(world["bo"],))
        p = Driver(t, gid, rng=random.Random(11))
        for _ in range(12):
            version = p.version()
            card = await p.settled(version)
            _, user = await t.user_to_act(gid)
            menu = p.menu(card)
            assert menu is not None, "Rey y Hierofante's moves are chosen on the card"
            mark = len(fake.requests)
            message = card
            for _ in range(10):  # through the menu's groups and pages, on the card
                value = p.rng.choice(p.menu(message)["options"])["value"]
                inter = await fake.select(message, p.menu(message)["custom_id"], user, [value])
                response = await fake.wait_response(inter)
                if value[:1] not in ("g", "p") or response["type"] != 7:
                    break
                message = fake.messages[message["id"]]
            if message["id"] != card["id"] or response["type"] != 7:
                await p.moved_past(version)
                continue  # the move was finished away from the card
            await p.moved_past(version)
            g = await t.game(gid)
            _, nxt = await t.user_to_act(gid)
            if nxt["id"] == user["id"]:
                continue  # the same player goes on: nothing for the channel
            # the card's edit answered the move; the turn's message came through its webhook
            told = await fake.wait_until(lambda i=inter: next(iter(fake.followups(i)), None))
            assert not told["flags"] & EPHEMERAL and nxt["id"] in fake.pinged(told)
            await p.settled(g.version)
            posted = [r for r in fake.requests[mark:]
                      if r.method == "POST" and r.path == f"/channels/{world.channel['id']}/messages"]
            assert not posted, "the bot posted the turn's message with its own token"
            return
        raise AssertionError("no move made on the card passed the turn")
