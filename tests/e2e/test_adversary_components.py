"""Every button and menu the bot shows, pressed by people who have no business with it: a
bystander presses each one on every game's card and public messages, chooses each menu's
options and fills any form it opens with junk; the seated player presses the menus of a
private panel after the game has moved on. The answer is private, no game changes (but by
that player's own legal move), the card says what it said, nobody is pinged, and nothing
fails inside the bot."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest_asyncio

from .adversary import (
    NASTY,
    Arena,
    build_arena,
    changed,
    look,
    message_texts,
    own_moves_only,
    private,
)
from .fake_model import BUTTON, EPHEMERAL, STRING_SELECT, TEXT_INPUT
from .fake_validation import walk_components
from .harness import DiscordLogCollector, FakeWorld
from .test_adversary import BUG_WORDS

PLAY = "tablero:play:"  # the card's Play button, which opens a seat's private panel
ACT = "tablero:act:"  # a button making one legal move


@pytest_asyncio.fixture
async def arena(fake, tmp_path) -> AsyncIterator[Arena]:
    """A game of each kind in progress between the player and their partner; a bystander."""
    async with FakeWorld(users=["player", "partner", "bystander"], channels=["games"], fake=fake) as world:
        yield await build_arena(world, str(tmp_path / "adversary.db"))


def pressable(message: dict) -> list[dict]:
    """The buttons (not links) and string menus of a message that are not disabled."""
    return [c for _, c in walk_components(message.get("components", []))
            if not c.get("disabled") and ((c["type"] == BUTTON and c.get("style") not in (5, 6))
                                          or c["type"] == STRING_SELECT)]


async def press(arena: Arena, who: dict, message: dict, comp: dict, value: str | None) -> dict:
    """``who`` presses ``comp`` (a button, or a menu choosing ``value``); the interaction."""
    fake = arena.fake
    if comp["type"] == BUTTON:
        return await fake.click(message, comp["custom_id"], who)
    return await fake.select(message, comp["custom_id"], who, [value])


async def answered(arena: Arena, inter: dict, problems: list[str], what: str) -> dict | None:
    """Wait for the bot's answer to ``inter`` (a deferral's filling too) and fill any form it
    opened with junk; the answer's record, or None when the bot never answered."""
    fake = arena.fake
    try:
        record = await fake.wait_response(inter, timeout=10)
    except (TimeoutError, AssertionError) as exc:
        problems.append(f"{what}: no answer ({exc})")
        return None
    if record["type"] == 9:
        fields = [c for _, c in walk_components(record["data"].get("components", [])) if c["type"] == TEXT_INPUT]
        for junk in (NASTY[5], NASTY[11], "9" * 30):
            values = {f["custom_id"]: junk[: f.get("max_length", 4000)] or "x" for f in fields}
            try:
                sub = await fake.submit_modal(inter, values)
            except ValueError:
                continue  # the form's own limits refuse it before Discord sends anything
            await fake.wait_response(sub, timeout=10)
    elif record["type"] == 5:
        def filled() -> bool:
            msg = fake.response_message(inter)
            return bool((msg is not None and (msg["content"] or msg["embeds"])) or fake.followups(inter))
        try:
            await fake.wait_until(filled, timeout=10)
        except TimeoutError:
            problems.append(f"{what}: a deferred answer never filled")
    return record


async def test_a_bystander_presses_everything_on_every_game(arena: Arena) -> None:
    fake = arena.fake
    bystander = arena.user("bystander")
    with DiscordLogCollector(("tablero",), level=logging.ERROR) as errors:
        problems: list[str] = []
        pressed = 0
        for kind, channel in arena.channels.items():
            for message in list(fake.channel_messages(channel)):
                for comp in pressable(message):
                    values = [None] if comp["type"] == BUTTON else \
                        sorted({o["value"] for o in comp.get("options", [])[:1] + comp.get("options", [])[-1:]})
                    for value in values:
                        live = fake.messages.get(message["id"])
                        if live is None or comp["custom_id"] not in {c.get("custom_id") for c in pressable(live)}:
                            continue  # re-posted or changed by an earlier press: pressed where it is now
                        before, card_before = await look(arena), message_texts(live)
                        known = set(fake.messages) | set(fake.deleted_messages)
                        what = f"the bystander pressing {comp.get('label') or comp['custom_id']!r} ({value}) in #{kind}"
                        inter = await press(arena, bystander, live, comp, value)
                        pressed += 1
                        record = await answered(arena, inter, problems, what)
                        if record is None:
                            continue
                        diff = changed(before, await look(arena))
                        if diff:
                            problems.append(f"{what} changed {sorted(diff)}")
                        if record["type"] in (4, 5) and not private(fake, inter, record):
                            problems.append(f"{what} was answered in public")
                        now = fake.messages.get(message["id"])
                        if record["type"] == 7 and now is not None and message_texts(now) != card_before:
                            problems.append(f"{what} changed the message it pressed")
                        for m in [m for mid, m in {**fake.messages, **fake.deleted_messages}.items()
                                  if mid not in known]:
                            text = message_texts(m)
                            if any(w in text for w in BUG_WORDS):
                                problems.append(f"{what} failed inside the bot: {text[:300]}")
                            if fake.pinged(m) or fake.pinged_groups(m):
                                problems.append(f"{what} pinged {fake.pinged(m) + fake.pinged_groups(m)}")
        assert pressed >= 2 * len(arena.channels), pressed  # every game shows something to press
        assert not problems, "\n".join(problems)
        assert not errors.messages(), errors.messages()
        assert not fake.invalid_requests


async def test_seated_players_choose_from_stale_and_out_of_turn_menus(arena: Arena) -> None:
    """Both seated players open their private menus from each card, then choose from them,
    twice over: after the first choice moved the game on, the menus are stale, and the one
    whose turn it is not chooses too. Each choice is refused privately or is that player's own
    legal move; nothing else changes."""
    fake = arena.fake
    users = [arena.world["player"], arena.world["partner"]]
    with DiscordLogCollector(("tablero",), level=logging.ERROR) as errors:
        problems: list[str] = []
        chosen: set[str] = set()
        for kind, channel in arena.channels.items():
            menus: list[tuple[dict, dict]] = []
            for user in users:
                card = next((m for m in reversed(fake.channel_messages(channel))
                             if any(c["custom_id"].startswith(PLAY) for c in pressable(m))), None)
                if card is None:
                    continue
                play = next(c for c in pressable(card) if c["custom_id"].startswith(PLAY))
                inter = await fake.click(card, play["custom_id"], user)
                record = await answered(arena, inter, problems, f"{user['username']} pressing Play in #{kind}")
                if record is not None and record["type"] == 6:  # the card as it is; the panel follows
                    await fake.wait_until(lambda inter=inter: fake.followups(inter), timeout=10)
                shown = [fake.response_message(inter), *fake.followups(inter)]
                menus += [(user, m) for m in shown if m is not None and m["flags"] & EPHEMERAL and pressable(m)]
            # a card with its own menu of moves (when it shows nothing hidden): anyone seated may use it
            card = fake.last_message(channel)
            if card is not None and any(c["type"] == STRING_SELECT for c in pressable(card)):
                menus += [(user, card) for user in users]
            for _ in range(2):  # the second time round, every menu is stale
                for user, message in menus:
                    live = fake.messages.get(message["id"])
                    if live is None:
                        continue
                    for comp in [c for c in pressable(live)
                                 if c["type"] == STRING_SELECT or c["custom_id"].startswith(ACT)][:2]:
                        value = comp["options"][0]["value"] if comp["type"] == STRING_SELECT else None
                        before = await look(arena)
                        known = set(fake.messages) | set(fake.deleted_messages)
                        what = f"{user['username']} choosing {value or comp.get('label')!r} in #{kind}"
                        try:
                            inter = await press(arena, user, live, comp, value)
                        except (LookupError, ValueError, PermissionError):
                            continue  # the menu changed under the player's hand: Discord sends nothing
                        chosen.add(kind)
                        if await answered(arena, inter, problems, what) is None:
                            continue
                        seat = next((s[0] for s in before[kind].seats if s[1] == int(user["id"])), None)
                        for k, (b, a) in changed(before, await look(arena)).items():
                            if k != kind or seat is None or not own_moves_only(b, a, seat):
                                problems.append(f"{what} changed the {k} game: {b} -> {a}")
                        for m in [m for mid, m in {**fake.messages, **fake.deleted_messages}.items()
                                  if mid not in known]:
                            if any(w in message_texts(m) for w in BUG_WORDS):
                                problems.append(f"{what} failed inside the bot: {message_texts(m)[:300]}")
        assert chosen == set(arena.channels), chosen  # every game gave someone something to choose
        assert not problems, "\n".join(problems)
        assert not errors.messages(), errors.messages()
        assert not fake.invalid_requests
