"""Junk into every slash command and every autocomplete of every cog, as a seated player, a
bystander and a member of another server, while a game of each kind is in progress: the
answer is private, no game changes (but by what that user may do), nobody is pinged, and
nothing fails inside the bot.

The commands come from what the bot synced with Discord, so a new command or option is
thrown junk without a line here; an option of a type with no junk fails the suite (see
adversary.junk_for). What each command may legitimately change is said below."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from cogs.common.i18n import t

from .adversary import (
    GAME_GROUPS,
    MAX_CHOICES,
    ROLES,
    Arena,
    Command,
    build_arena,
    changed,
    commands,
    host_handed,
    junk_for,
    look,
    message_texts,
    own_moves_only,
    private,
    typed,
)
from .harness import DiscordLogCollector, FakeWorld

# Commands that make a move: the seated player's junk may happen to be one of their legal
# moves (they are thrown the values the bot offered them), and then the game goes on by
# their seat alone, announced in public with a ping of whoever acts next.
MOVES = {
    "game move", "rh place", "rh effect", "rh starter", "rh draft", "rc supply", "rc enter", "rc pass",
    "rc decide", "am play", "am power", "am decide", "am pass", "rg die", "rg piece", "rg play", "rg keep",
    "rg resolve", "rg pass", "rg decide", "gdm bid", "gdm transfer", "gdm play", "gdm use", "gdm assign",
    "gdm choose", "gdm pass",
}
# Not thrown by the seated player, who may do them and so would end the games under test
# (the lobby's own tests cover them): everyone else throws them and must be refused.
SPARED = {
    ("player", "game abandon"): "the host closes the game for everyone",
    ("player", "game leave"): "a seated player gives up their seat",
    ("player", "game undo"): "a player asks the table to take back their move, in public",
}
# Answers that may be public because the command did what it says for whoever may do it:
# the host hands hosting over (said in the channel, pinging nobody); anyone opens a lobby
# where no game is (the other server's channel, or a thread), creates a tournament, or
# abandons the lobby they opened; and the server's leaderboard and figures are shown to all
# (public results only, with no pings).
PUBLIC = {"game host", "game new", "tournament create", "game abandon", "rating top", "stats"}
# The player (host of every arena game) may hand hosting to the other seated player.
HOST_MAY = {"game host"}

# Few examples (each throws junk into every command), the same ones every run, and no
# shrinking: each example's draws are labelled by command and option, which says enough,
# and shrinking a run of a hundred commands against a live bot takes minutes.
SUITE = settings(max_examples=3, deadline=None, derandomize=True, database=None, print_blob=False,
                 phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                        HealthCheck.data_too_large])
BUG_WORDS = tuple(t("err.bug", lang, id="\0").split("\0")[0] for lang in ("en", "es"))


@pytest_asyncio.fixture
async def arena(fake, tmp_path) -> AsyncIterator[Arena]:
    """A game of each kind in progress, the player, their partner, a bystander and a member
    of another server."""
    async with FakeWorld(users=["player", "partner", "bystander"], channels=["games"], fake=fake) as world:
        yield await build_arena(world, str(tmp_path / "adversary.db"))


def test_every_option_type_has_junk() -> None:
    """Each Discord option type the bot may use has its junk; an unknown one is refused."""
    with pytest.raises(KeyError, match="type 11"):
        junk_for({"type": 11, "name": "file"}, None, {}, [])  # type: ignore[arg-type]


def where(arena: Arena, role: str, cmd: Command) -> dict[str, dict]:
    """The channels ``role`` throws ``cmd`` in: a stranger in their own server (or a DM); the
    others in a channel with a game in progress, its own game's first, or a DM; by name (a
    failing example shows the names drawn)."""
    fake, user = arena.fake, arena.user(role)
    places = {"#lounge": arena.lounge} if role == "stranger" else {
        f"#{c['name']}": c for c in sorted(arena.channels.values(),
                                          key=lambda c: c["name"] != f"t-{GAME_GROUPS.get(cmd.group, '')}")}
    if cmd.in_dms:
        places["DM"] = fake.open_dm(user)
    return places


async def offers(arena: Arena, cmds: list[Command]) -> dict[tuple[str, str], list[Any]]:
    """What the bot offers the seated player in each autocomplete, in their games' channels."""
    out: dict[tuple[str, str], list[Any]] = {}
    user = arena.user("player")
    for cmd in cmds:
        channel = arena.channels.get(GAME_GROUPS.get(cmd.group, ""), arena.channels["rey_hierofante"])
        for opt in cmd.options:
            if opt.get("autocomplete"):
                try:
                    choices = await arena.fake.autocomplete(cmd.name, user, channel, opt["name"])
                except PermissionError:
                    continue
                out[(cmd.name, opt["name"])] = [c["value"] for c in choices]
    return out


def seat_of(arena: Arena, role: str, seats: tuple[tuple[int, int | None, bool, bool], ...]) -> int | None:
    """The seat ``role``'s user holds in a game, if any."""
    uid = int(arena.user(role)["id"])
    return next((s[0] for s in seats if s[1] == uid), None)


async def throw(arena: Arena, role: str, cmd: Command, channel: dict, options: dict[str, Any],
                problems: list[str]) -> None:
    """``role`` runs ``cmd`` with ``options`` in ``channel``; what breaks a promise of the
    suite is added to ``problems``."""
    fake, user = arena.fake, arena.user(role)
    before = await look(arena)
    known = set(fake.messages) | set(fake.deleted_messages)
    try:
        inter = await fake.slash_with(cmd.name, user, channel, options)
    except PermissionError:
        return  # Discord does not offer this command to this user here
    record = await fake.wait_response(inter, timeout=10)
    if record["type"] == 5:  # deferred: its answer comes later, filling or replacing the placeholder
        def answered() -> bool:
            msg = fake.response_message(inter)
            filled = msg is not None and msg["id"] in fake.messages and (msg["content"] or msg["embeds"])
            return bool(filled or fake.followups(inter))
        await fake.wait_until(answered, timeout=10)
    after = await look(arena)
    diff = changed(before, after)
    what = f"/{cmd.name} {options!r} by the {role} in #{channel.get('name', 'DM')}"
    may_ping: set[str] = set()
    for kind, (b, a) in diff.items():
        seat = seat_of(arena, role, b.seats)
        if role == "player" and cmd.name in MOVES and seat is not None and own_moves_only(b, a, seat):
            may_ping |= {str(s[1]) for s in a.seats if s[1] is not None}
            continue
        if role == "player" and cmd.name in HOST_MAY and host_handed(b, a):
            continue
        problems.append(f"{what} changed the {kind} game: {b} -> {a}")
    if not (cmd.name in PUBLIC or diff or private(fake, inter, record)):
        problems.append(f"{what} was answered in public")
    new = [m for mid, m in {**fake.messages, **fake.deleted_messages}.items() if mid not in known]
    for m in new:
        text = message_texts(m)
        if any(w in text for w in BUG_WORDS):
            problems.append(f"{what} failed inside the bot: {m['content']}")
        if fake.pinged_groups(m) or not set(fake.pinged(m)) <= may_ping:
            problems.append(f"{what} pinged {fake.pinged(m) + fake.pinged_groups(m)}: {text[:300]}")


async def complete(arena: Arena, role: str, cmd: Command, channel: dict, focused: dict, value: str,
                   options: dict[str, Any], problems: list[str]) -> None:
    """``role`` types ``value`` into ``focused``; the answer is a list within Discord's limits
    (the fake refuses any other), and nothing changes or is sent."""
    fake, user = arena.fake, arena.user(role)
    before = await look(arena)
    known = set(fake.messages)
    others = {k: v for k, v in options.items() if k != focused["name"]}
    try:
        choices = await fake.autocomplete_with(cmd.name, user, channel, focused["name"],
                                               {**others, focused["name"]: value})
    except PermissionError:
        return
    what = f"autocomplete of /{cmd.name} {focused['name']}={value!r} by the {role}"
    if len(choices) > MAX_CHOICES:
        problems.append(f"{what} offered {len(choices)} choices")
    if await look(arena) != before:
        problems.append(f"{what} changed a game")
    if not set(fake.messages) <= known:
        problems.append(f"{what} sent a message")


@pytest.mark.parametrize("role", ROLES)
@SUITE
@given(data=st.data())
async def test_junk_into_every_command_and_autocomplete(arena: Arena, role: str, data: st.DataObject) -> None:
    with DiscordLogCollector(("tablero",), level=logging.ERROR) as errors:
        problems: list[str] = []
        cmds = commands(arena.fake)
        offered = await offers(arena, cmds)
        for cmd in cmds:
            if (role, cmd.name) in SPARED:
                continue
            places = where(arena, role, cmd)
            channel = places[data.draw(st.sampled_from(list(places)), label=f"/{cmd.name} in")]
            options: dict[str, Any] = {}
            for opt in cmd.options:
                if opt.get("required") or data.draw(st.booleans(), label=f"/{cmd.name} {opt['name']} given"):
                    junk = junk_for(opt, arena, channel, offered.get((cmd.name, opt["name"]), []))
                    options[opt["name"]] = data.draw(junk, label=f"/{cmd.name} {opt['name']}")
            await throw(arena, role, cmd, channel, options, problems)
            for opt in cmd.options:
                if opt.get("autocomplete"):
                    value = data.draw(typed(opt), label=f"/{cmd.name} {opt['name']} typed")
                    await complete(arena, role, cmd, channel, opt, value, options, problems)
        assert not problems, "\n".join(problems)
        assert not errors.messages(), errors.messages()


async def test_what_the_junk_found_is_refused_privately(arena: Arena) -> None:
    """What the suite found, kept as plain cases: a user of no server of the game named as
    the new host, a lobby option thousands of characters long, a deck named with a mention."""
    cmds = {c.name: c for c in commands(arena.fake)}
    problems: list[str] = []
    stranger_id, channel = arena.user("stranger")["id"], arena.channels["rey_hierofante"]
    await throw(arena, "player", cmds["game host"], channel, {"player": stranger_id}, problems)
    await throw(arena, "stranger", cmds["game new"], arena.lounge,
                {"game": "rey_hierofante", "options": "x@everyone" * 600}, problems)
    for name in ("<@!1> deck", "@everyone"):
        await throw(arena, "bystander", cmds["gdm deck create"], channel, {"name": name}, problems)
        await throw(arena, "bystander", cmds["gdm deck create"], channel, {"name": name}, problems)  # taken
    assert not problems, "\n".join(problems)
    assert not arena.fake.invalid_requests


NO_CHOICE = "-"


async def test_a_bystanders_autocomplete_offers_no_seats_moves(arena: Arena) -> None:
    """What a move command's autocomplete offers the seated player (their legal moves, which
    may name their hidden cards) is never offered to a bystander typing into the same option
    in the same channel: by value or by name."""
    fake = arena.fake
    cmds = [c for c in commands(fake) if c.name in MOVES]
    checked = 0
    for cmd in cmds:
        channel = arena.channels.get(GAME_GROUPS.get(cmd.group, ""), arena.channels["rey_hierofante"])
        for opt in cmd.options:
            if not opt.get("autocomplete"):
                continue
            seen = {}
            for role in ("player", "partner", "bystander"):
                user = arena.world[role] if role == "partner" else arena.user(role)
                try:
                    seen[role] = await fake.autocomplete(cmd.name, user, channel, opt["name"])
                except PermissionError:
                    seen[role] = []
            # "-" is the bot's hint that no move can be chosen (not in this game, not your turn)
            seated = {(c["name"], str(c["value"])) for r in ("player", "partner") for c in seen[r]
                      if str(c["value"]) != NO_CHOICE}
            seated_names = {n for n, _ in seated}
            seated_values = {v for _, v in seated}
            leaked = [c for c in seen["bystander"] if c["name"] in seated_names or str(c["value"]) in seated_values]
            assert not leaked, (cmd.name, opt["name"], leaked)
            checked += bool(seated)
    assert checked >= len(GAME_GROUPS), checked  # every game offered its players something
