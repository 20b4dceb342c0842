"""A part of a turn made step by step in the private panel edits the public card once, when
it ends: meanwhile the panel shows the table as each step left it (the card's picture and
story) with the next step, and the card waits. A mover who stops half way still gets the
card shown after a while, and a restart in between shows it at the start (Mundodisco:
Ankh-Morpork, whose card plays take several steps)."""

from __future__ import annotations

import asyncio
import json
import random
import re

import pytest

from cogs.common import card_hold
from rules.ankh_morpork.model import Play

from .driver import Driver
from .harness import FakeWorld, handled
from .test_ankh_morpork import UI as AM_UI
from .test_held_hands import NAMES, two_players

PARTS_WANTED = 3  # parts of a turn with steps held, ended and shown once


def card_writes(fake, mid: str) -> int:  # type: ignore[no-untyped-def]
    """How many requests edited or deleted card ``mid`` (the bot's own or through a webhook)."""
    return sum(1 for r in fake.requests if r.method in ("PATCH", "DELETE")
               and (r.path.endswith(f"/messages/{mid}") or (r.path.endswith("/@original")
                                                           and fake.interaction_responses.get(
                                                               fake._tokens.get(r.path.split("/")[3], ""), {}
                                                           ).get("message_id") == mid)))


def says_move(message: dict, version: int) -> bool:
    """Whether a message's embeds name move ``version`` (the card's footer)."""
    return re.search(rf"(move|jugada) {version}\b", json.dumps(message["embeds"], ensure_ascii=False)) is not None


async def delivered(t, gid: int) -> None:  # type: ignore[no-untyped-def]
    """Wait until nothing of the game is owed any more (a held message is marked delivered
    once the card's showing is done, just after the card changes)."""
    for _ in range(100):
        if not await t.bot.session.store.open_changes(gid):
            return
        await asyncio.sleep(0.05)
    assert not await t.bot.session.store.open_changes(gid)


async def step_in_panel(d: Driver, rng: random.Random) -> tuple[int, int, bool]:
    """The seat to act makes one step from its private panel (a card play when it can);
    returns (seat, version before, whether a reaction DM took it instead)."""
    t = d.t
    g = await t.game(d.gid)
    seat = sorted(g.pending())[0]
    version = g.version
    actions = g.legal_actions(seat)
    plays = [i for i, a in enumerate(actions) if isinstance(a, Play)]
    index = rng.choice(plays or range(len(actions)))
    if AM_UI.reaction(g, seat):
        dm = await t.fake.wait_for_dm(d.user(seat), lambda m: d.control(m, version, seat, index) is not None)
        await d.use(dm, version, seat, index)
        await d.moved_past(version)
        return seat, version, True
    await d.by_panel(seat, version, index)
    await d.moved_past(version)
    return seat, version, False


async def test_a_part_made_in_the_panel_edits_the_card_once_it_ends(fake, db) -> None:
    async with FakeWorld(users=list(NAMES), fake=fake) as world:
        d = await two_players(world, db)
        t, gid = d.t, d.gid
        rng = random.Random(4)
        part: dict | None = None  # the part under way with steps held: its card and what was counted
        ended = 0
        for _ in range(300):
            g = await t.game(gid)
            if g.status != "active" or ended >= PARTS_WANTED:
                break
            card = t.board(gid)
            assert card is not None
            messages = len(fake.channel_messages(world.channel))
            seat, version, by_dm = await step_in_panel(d, rng)
            await handled(fake)
            g = await t.game(gid)
            if not by_dm and set(g.pending()) == {seat} and g.status == "active":
                # The part goes on: the card waits, still showing where the part began; the
                # panel shows the table as the step left it (the card's picture, beside the hand).
                assert t.bot.boards.held.waiting(gid)
                if part is None:
                    part = {"card": card["id"], "writes": card_writes(fake, card["id"]), "from": version,
                            "messages": messages}
                assert t.board(gid)["id"] == part["card"]
                assert card_writes(fake, part["card"]) == part["writes"], "the card was edited mid-part"
                assert says_move(t.board(gid), part["from"]) and not says_move(t.board(gid), g.version)
                assert len(fake.channel_messages(world.channel)) == part["messages"]
                panel = fake.messages[d.panels[seat]]
                assert says_move(panel, g.version), panel
                assert panel["embeds"][0]["image"]["url"] == "attachment://table.png"
                assert "table.png" in [f["filename"] for f in fake.files(panel)]
            elif part is not None:
                # The part ended: the card shows the game as it is now, every held step included.
                assert not t.bot.boards.held.waiting(gid)
                if g.status == "active":
                    await d.settled(g.version)
                    assert says_move(t.board(gid), g.version)
                await delivered(t, gid)
                part = None
                ended += 1
        assert ended >= PARTS_WANTED, ended


async def test_a_held_card_is_shown_when_its_mover_stops_and_across_a_restart(
        fake, db, monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeWorld(users=list(NAMES), fake=fake) as world:
        d = await two_players(world, db)
        t, gid = d.t, d.gid
        rng = random.Random(4)

        async def until_held() -> int:
            """Steps until one leaves the card waiting; the version it made."""
            for _ in range(100):
                await step_in_panel(d, rng)
                await handled(fake)
                if t.bot.boards.held.waiting(gid):
                    return (await t.game(gid)).version
                g = await t.game(gid)
                if g.status == "active":
                    await d.settled(g.version)
            raise AssertionError("no step left the card waiting")

        # The mover stops half way: the card is shown after CARD_HELD_FOR all the same.
        monkeypatch.setattr(card_hold, "CARD_HELD_FOR", 0.3)
        version = await until_held()
        assert not says_move(t.board(gid), version)
        await fake.wait_until(lambda: says_move(t.board(gid), version), timeout=5)
        assert not t.bot.boards.held.waiting(gid)
        await delivered(t, gid)

        # Held when the bot stops: its message stays owed, and the next start shows the card.
        monkeypatch.setattr(card_hold, "CARD_HELD_FOR", 3600.0)
        version = await until_held()
        assert not says_move(t.board(gid), version)
        assert len(await t.bot.session.store.open_changes(gid)) == 1
        await t.restart()
        await t.game(gid)
        await fake.wait_until(lambda: (card := t.board(gid)) is not None and says_move(card, version), timeout=10)
        await delivered(t, gid)
