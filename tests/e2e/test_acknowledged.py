"""A move by command (/game move, a game's own commands) is acknowledged before any of its
work (a private "thinking…"), so Discord's 3 seconds never run out however busy the bot is;
the card's Play button answers with its private menu when that is ready within the answer's
budget, else the card is acknowledged as it is and the menu follows privately; and
every way a move's delivery can go fills the mover's "thinking…": the turn passing (its
message goes to the channel on its own), a step folded into the card, the turn's message
carried by a new card, a refusal, a missing permission, the change delivered meanwhile by
another task."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cogs.common import answering
from cogs.common.i18n import t as text

from .fake_discord import ATTACH_FILES, EMBED_LINKS, EPHEMERAL, FakeDiscord
from .harness import FakeWorld
from .table import Table

DONE = {text("board.done", "en"), text("board.done", "es")}


def order_of(t: Table, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What happened, in order: "ack" when an interaction's callback reached the fake,
    "work" when the bot began a move's work (finding the game, the seat, the move)."""
    events: list[str] = []
    fake, session = t.fake, t.bot.session
    respond = fake._respond

    def responded(inter: dict, body: dict, files: list[dict]) -> dict:
        events.append("ack")
        return respond(inter, body, files)

    monkeypatch.setattr(fake, "_respond", responded)
    for name in ("require_in_channel", "prepare", "move", "move_many"):
        real = getattr(session, name)

        async def working(*args: Any, real: Any = real, **kwargs: Any) -> Any:
            events.append("work")
            return await real(*args, **kwargs)

        monkeypatch.setattr(session, name, working)
    return events


async def two_players(t: Table, game_id: str = "rey_hierofante") -> int:
    """ana and bo in a started game of ``game_id``, its card out; its number."""
    ana, bo = t.world["ana"], t.world["bo"]
    _, _, lobby = await t.slash("game new", ana, game=game_id)
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    await t.slash("game join", bo)
    await t.slash("game start", ana)
    hand = f"tablero:hand:{gid}"
    await t.fake.wait_until(lambda: t.board(gid) is not None and not t.bot.boards._lock(gid).locked()
                            and t.fake.find_component(t.board(gid), lambda c: c.get("custom_id") == hand))
    return gid


async def move_by_command(t: Table, gid: int, rng: random.Random, value: str | None = None,
                          user: dict | None = None) -> dict:
    """The player to act (or ``user``) sends /game move (a random legal move, or ``value``);
    returns the interaction once its "thinking…" is filled."""
    fake = t.fake
    if user is None:
        _, user = await t.user_to_act(gid)
    if value is None:
        choices = await fake.autocomplete("game move", user, t.world.channel, focused="choice", choice="")
        value = rng.choice(choices)["value"]
    inter = await fake.slash("game move", user, t.world.channel, choice=value)
    answer = await fake.wait_response(inter)
    assert answer["type"] == 5 and answer["data"].get("flags", 0) & EPHEMERAL, answer  # private "thinking…"
    await fake.wait_until(lambda: not fake.unfilled_placeholders(), timeout=10)
    message = fake.response_message(inter)
    assert message is not None and message["flags"] & EPHEMERAL and message["content"], message
    return inter


@pytest.mark.asyncio
async def test_game_move_is_acknowledged_before_its_work(fake: FakeDiscord, db: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeWorld(users=["ana", "bo"], fake=fake) as world:
        t = Table(world, db, random.Random(1))
        await t.start()
        gid = await two_players(t)
        events = order_of(t, monkeypatch)
        version = (await t.game(gid)).version
        await move_by_command(t, gid, random.Random(2))
        assert (await t.game(gid)).version == version + 1
        assert events[0] == "ack" and "work" in events, events


@pytest.mark.asyncio
async def test_the_play_button_answers_with_the_menu_privately(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answering, "ANSWER_WITHIN", 2.5)  # the menu is always ready in time here
    async with FakeWorld(users=["ana", "bo", "vera"], fake=fake) as world:
        t = Table(world, db)
        await t.start()
        gid = await two_players(t, "rattus_cartus")  # a hand: its menus open privately
        card = t.board(gid)
        play = f"tablero:play:{gid}"
        assert fake.find_component(card, lambda c: c.get("custom_id") == play)
        _, user = await t.user_to_act(gid)
        inter = await fake.click(card, play, user)
        assert (await fake.wait_response(inter))["type"] == 4  # the menu is the answer
        menu = fake.response_message(inter)
        assert menu is not None and menu["flags"] & EPHEMERAL and menu["components"]
        assert menu["_visible_to"] == user["id"]
        assert not fake.followups(inter)  # nothing more was sent for it
        # someone with no seat is refused, privately, as the answer
        outsider = world["vera"]
        inter = await fake.click(t.board(gid), play, outsider)
        assert (await fake.wait_response(inter))["type"] == 4
        refusal = fake.response_message(inter)
        assert refusal is not None and refusal["flags"] & EPHEMERAL and refusal["content"]
        assert not fake.unfilled_placeholders()


@pytest.mark.asyncio
async def test_the_play_button_is_acknowledged_when_its_menu_is_late(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answering, "ANSWER_WITHIN", 0.0)  # no menu is ever ready in time
    async with FakeWorld(users=["ana", "bo", "vera"], fake=fake) as world:
        t = Table(world, db)
        await t.start()
        gid = await two_players(t, "rattus_cartus")
        card = t.board(gid)
        play = f"tablero:play:{gid}"
        _, user = await t.user_to_act(gid)
        events = order_of(t, monkeypatch)
        inter = await fake.click(card, play, user)
        assert (await fake.wait_response(inter))["type"] == 6  # an update of the card, at once
        menu = await fake.wait_until(lambda: next(iter(fake.followups(inter)), None))
        assert menu["flags"] & EPHEMERAL and menu["components"]
        assert events[0] == "ack" and "work" in events, events
        # someone with no seat is refused, privately, after the same acknowledgement
        outsider = world["vera"]
        inter = await fake.click(t.board(gid), play, outsider)
        assert (await fake.wait_response(inter))["type"] == 6
        refusal = await fake.wait_until(lambda: next(iter(fake.followups(inter)), None))
        assert refusal["flags"] & EPHEMERAL and refusal["content"]
        assert not fake.unfilled_placeholders()


@pytest.mark.asyncio
async def test_every_way_a_move_by_command_goes_fills_its_thinking(
    fake: FakeDiscord, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with FakeWorld(users=["ana", "bo", "vera"], fake=fake) as world:
        t = Table(world, db, random.Random(3))
        await t.start()
        gid = await two_players(t)
        rng = random.Random(4)
        seen: set[str] = set()
        # the turn passing (its message posted on its own) and steps folded into the card
        for _ in range(10):
            g = await t.game(gid)
            (seat,) = g.pending()
            posted = len(fake.channel_messages(world.channel))
            inter = await move_by_command(t, gid, rng)
            g = await t.game(gid)
            passed = seat not in g.pending()
            seen.add("passes" if passed else "folds")
            if passed:  # the pings went out in a message of the channel's own, not in the answer
                assert len(fake.channel_messages(world.channel)) > posted
                assert fake.response_message(inter)["content"] in DONE
        assert seen == {"passes", "folds"}
        # refused: out of turn, and a value no move has
        _, mover = await t.user_to_act(gid)
        other = world["bo"] if mover is world["ana"] else world["ana"]
        inter = await move_by_command(t, gid, rng, value="#0@0", user=other)
        inter = await move_by_command(t, gid, rng, value="nonsense", user=mover)
        assert fake.response_message(inter)["content"] not in DONE
        # the turn's message carried by a new card (the card it would bury comes down)
        t.bot.boards.bury_limit = 1
        for _ in range(4):
            await move_by_command(t, gid, rng)
        t.bot.boards.bury_limit = 10
        # delivered meanwhile by another task (a sweep): nothing left for the command to send
        real = t.bot.session.move

        async def swept(*args: Any, **kwargs: Any) -> Any:
            result = await real(*args, **kwargs)
            await t.bot.outbox.drain(gid, again=False)
            return result

        monkeypatch.setattr(t.bot.session, "move", swept)
        await move_by_command(t, gid, rng)
        monkeypatch.setattr(t.bot.session, "move", real)
        # a missing permission: the mover is told what the card needs
        await fake.deny_bot(world.channel, EMBED_LINKS | ATTACH_FILES)
        inter = await move_by_command(t, gid, rng)
        await fake.wait_until(lambda: any("Embed Links" in m["content"] or "Insertar enlaces" in m["content"]
                                          for m in [fake.response_message(inter), *fake.followups(inter)]))
        await fake.deny_bot(world.channel, 0)
        fake.errors.clear()  # the 403s were expected
        assert not fake.unfilled_placeholders()
