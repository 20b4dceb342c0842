"""The adversarial suite's arena and junk: two servers, a game of each kind in progress in its
own channel of the first, the three users who attack it (a seated player, a bystander, a
member of the other server), every slash command read from what the bot synced, and junk
for each option by its Discord type."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from .driver import start_game
from .fake_discord import EPHEMERAL, FakeDiscord
from .harness import FakeWorld
from .table import Table

# The games of the arena, one per channel of the first server, named as /game new names them.
GAMES = ("rey_hierofante", "rattus_cartus", "ankh_morpork", "ragami", "guerra_de_mitos")
# Each game's own command group (the lobby's /game and /game move act on any of them).
GAME_GROUPS = {"rh": "rey_hierofante", "rc": "rattus_cartus", "am": "ankh_morpork", "rg": "ragami",
               "gdm": "guerra_de_mitos"}
ROLES = ("player", "bystander", "stranger")
# Discord's limits on an autocomplete answer.
MAX_CHOICES, MAX_CHOICE_NAME, MAX_CHOICE_VALUE = 25, 100, 100

# Texts that have broken bots: Markdown, masked links, mentions of users, roles and
# everyone, control characters, digits of other scripts, right-to-left marks, formats.
NASTY = (
    "", " ", "\u200b", "**bold** __u__ ~~s~~ ||spoiler|| `code` ```block```", "> quote\n# Heading",
    "[free nitro](https://example.com/x)", "[<@1>](https://example.com)", "<@1>", "<@!1>", "<@&1>",
    "<#1>", "@everyone", "@here", "@everyone <@&1> <@1>", "\x00", "\x1b[31m", "\r\n\t", "\u202eevil",
    "١٢٣", "²", "٣", "９", "-0", "0", "-1", "1e309", "NaN", "nan", "inf", "9" * 30, "None", "null",
    "{}", "[]", '{"kind": "pass"}', "%s%s%n", "{0}{1}", "{{x}}", "${x}", "../../etc/passwd",
    "'; DROP TABLE games; --", "🎲" * 30, "ǅ", "İ", "ß", "\ufeff", "\U0001f3f3\ufe0f\u200d\U0001f308",
)


def _text(max_size: int) -> st.SearchStrategy[str]:
    """Junk text of at most ``max_size`` characters (Discord's max_length for the option)."""
    nasty = [s[:max_size] for s in NASTY]
    return st.one_of(
        st.sampled_from(nasty),
        st.text(max_size=min(max_size, 40)),
        st.text(st.characters(codec="utf-8", categories=("Nd", "Cc", "Cf", "Zs", "So")), max_size=12)
        .map(lambda s: s[:max_size]),
        st.builds(lambda a, b: (a + b)[:max_size], st.sampled_from(nasty), st.text(max_size=8)),
        st.integers(min_value=max_size // 2, max_value=max_size).map(lambda n: ("x@everyone" * n)[:n]),
    )


@dataclass
class Arena:
    """The world the junk is thrown at; ``games`` maps a game kind to its game id."""

    world: FakeWorld
    t: Table
    other: dict  # the other server
    lounge: dict  # its channel
    games: dict[str, int] = field(default_factory=dict)
    channels: dict[str, dict] = field(default_factory=dict)  # game kind -> its channel

    def __repr__(self) -> str:
        return f"Arena(games={self.games})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis prints a failing example's arguments: the games are enough."""
        printer.text(repr(self))

    @property
    def fake(self) -> FakeDiscord:
        """The fake Discord server."""
        return self.world.fake

    def user(self, role: str) -> dict:
        """The user playing ``role``: the seated player, a bystander of the first server,
        or a member of the other server only."""
        return self.world.users[{"player": "player", "bystander": "bystander", "stranger": "stranger"}[role]]


async def build_arena(world: FakeWorld, db: str) -> Arena:
    """Start the bot, a game of each kind in its own channel between ``player`` and
    ``partner``, and the other server with ``stranger`` in it."""
    fake = world.fake
    stranger = fake.add_user("stranger")
    other = fake.add_guild("Elsewhere", ["lounge"], [stranger], locale="en-US")
    world.users["stranger"] = stranger
    for kind in GAMES:
        fake.add_channel(world.guild, f"t-{kind}")
    t = Table(world, db)
    await t.start()
    t.bot.session._seed = lambda: 7  # the same deal every run
    # One host opens five games in a row: the server's admin lifts the cooldown, as /config can.
    await t.bot.session.store.update_guild(int(world.guild["id"]), cooldown_seconds=0)
    arena = Arena(world, t, other, other["channels"][0])
    for kind in GAMES:
        channel = fake.channel_named(world.guild, f"t-{kind}")
        arena.channels[kind] = channel
        t.world.channels[f"t-{kind}"] = channel
        saved = world._channel_names
        world._channel_names = [f"t-{kind}"]  # Table and start_game act in world.channel
        try:
            gid, _ = await start_game(t, world["player"], kind, click=(world["partner"],))
        finally:
            world._channel_names = saved
        arena.games[kind] = gid
    return arena


@dataclass(frozen=True)
class Command:
    """One slash command as synced: its full name, its options (Discord's JSON) and whether
    it may be used in DMs."""

    name: str
    options: tuple[dict, ...]
    in_dms: bool
    permissions: str | None

    @property
    def group(self) -> str:
        """Its top-level name."""
        return self.name.split()[0]


def commands(fake: FakeDiscord) -> list[Command]:
    """Every slash command and subcommand the bot synced, leaves only, by name."""
    out: list[Command] = []

    def walk(node: dict, name: str, top: dict) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]
        if not subs:
            contexts = top.get("contexts")
            in_dms = 1 in contexts if contexts is not None else top.get("dm_permission") is not False
            out.append(Command(name, tuple(node.get("options") or ()), in_dms, top.get("default_member_permissions")))
        for sub in subs:
            walk(sub, f"{name} {sub['name']}", top)

    for (_, _), cmd in fake.commands.items():
        if cmd.get("type", 1) == 1:
            walk(cmd, cmd["name"], cmd)
    return sorted(out, key=lambda c: c.name)


# -- junk by option type ---------------------------------------------------------------------

# Discord's option types with junk: string, integer, boolean, user, channel, role,
# mentionable, number (an attachment, 11, has none: the fake does not take uploads).
JUNK_TYPES = (3, 4, 5, 6, 7, 8, 9, 10)
# Discord's integer options carry at most 2^53 in magnitude.
DISCORD_INT = 2 ** 53


def junk_for(option: dict, arena: Arena, channel: dict, offered: list[Any]) -> st.SearchStrategy[Any]:
    """Junk for one option, of what Discord lets through for its type: choices are Discord's
    own (it sends only those), bounds and lengths are Discord's (its client refuses others);
    users of any server, the bot and the application's owner; roles and channels of the
    server it is typed in (the only ones Discord offers). ``offered``: what the bot offered
    the seated player for this option (their legal moves), thrown by everyone else too.
    Raises KeyError for an option type with no junk: a new type needs its strategy here."""
    kind = option["type"]
    if kind not in JUNK_TYPES:
        raise KeyError(f"no junk for option {option['name']!r} of Discord type {kind}: add its strategy")
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    if kind == 3:
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        text = _text(high).filter(lambda s: len(s) >= low)
        if low:
            text = st.one_of(text, st.just("x" * low), st.just("@everyone"[:high]).filter(lambda s: len(s) >= low))
        valid = [v for v in offered if isinstance(v, str) and low <= len(v) <= high]
        return st.one_of(text, st.sampled_from(valid)) if valid else text
    if kind in (4, 10):
        low = option.get("min_value", -DISCORD_INT)
        high = option.get("max_value", DISCORD_INT)
        edges = st.sampled_from(sorted({low, high, min(max(0, low), high), min(max(1, low), high)}))
        numbers = st.integers(min_value=int(low), max_value=int(high)) if kind == 4 else \
            st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
        valid = [v for v in offered if isinstance(v, int | float) and not isinstance(v, bool) and low <= v <= high]
        return st.one_of(edges, numbers, *([st.sampled_from(valid)] if valid else []))
    if kind == 5:
        return st.booleans()
    fake = arena.fake
    guild = channel.get("guild_id")
    # By id (what Discord sends): a failing example prints short.
    users = [u["id"] for u in fake.users.values()]
    roles = [r["id"] for r in fake.guilds[guild]["roles"]] if guild else []
    if kind == 6:
        return st.sampled_from(users)
    if kind == 7:
        allowed = option.get("channel_types")
        places = [c["id"] for c in fake.channels.values() if c.get("guild_id") == guild and guild
                  and (not allowed or c["type"] in allowed)]
        if not places:
            return st.nothing()
        return st.sampled_from(places)
    if kind == 8:
        return st.sampled_from(roles) if roles else st.nothing()
    return st.sampled_from(users + roles)  # 9, a mentionable


def typed(option: dict) -> st.SearchStrategy[str]:
    """What a user may have typed so far into an autocomplete option: any text at all (the
    focused value comes unchecked, whatever the option's type)."""
    return _text(option.get("max_length", 6000) if option["type"] == 3 else 100)


# -- what must not change ------------------------------------------------------------------------

@dataclass(frozen=True)
class GameLook:
    """What the store holds of one game, for comparing before and after a command."""

    status: str
    version: int
    state: str | None
    host: int
    seats: tuple[tuple[int, int | None, bool, bool], ...]  # seat, user, ai, dropped
    actions: tuple[int, ...]  # the seat of each logged action


async def look(arena: Arena) -> dict[str, GameLook]:
    """Every arena game as stored now, by its kind."""
    store = arena.t.bot.session.store
    out = {}
    for kind, gid in arena.games.items():
        row = await store.get_game(gid)
        assert row is not None
        seats = tuple((s.seat, s.user_id, s.ai, bool(getattr(s, "dropped", False))) for s in await store.seats(gid))
        acts = tuple(a.seat for a in await store.actions(gid))
        out[kind] = GameLook(row.status, row.version, row.state, row.host_id, seats, acts)
    return out


def changed(before: dict[str, GameLook], after: dict[str, GameLook]) -> dict[str, tuple[GameLook, GameLook]]:
    """The games whose stored look differs, with (before, after)."""
    return {k: (before[k], after[k]) for k in before if before[k] != after[k]}


def own_moves_only(before: GameLook, after: GameLook, seat: int) -> bool:
    """The game went on by moves of ``seat`` alone, and nothing else about it changed."""
    new = after.actions[len(before.actions):]
    return (after.actions[:len(before.actions)] == before.actions and bool(new) and set(new) == {seat}
            and dataclasses.replace(after, version=before.version, state=before.state, actions=before.actions,
                                    status=before.status) == before)


def host_handed(before: GameLook, after: GameLook) -> bool:
    """Only the host changed, to another seated human."""
    seated = {s[1] for s in before.seats if not s[2] and not s[3]}
    return after.host in seated and after.host != before.host and \
        dataclasses.replace(after, host=before.host) == before


def message_texts(message: dict) -> str:
    """Everything a message says, as text."""
    return json.dumps([message.get("content"), message.get("embeds"), message.get("components")], ensure_ascii=False)


def private(fake: FakeDiscord, interaction: dict, record: dict) -> bool:
    """The answer to ``interaction`` was seen by its user alone: a modal, or an ephemeral
    message (after a deferral, its followups too)."""
    if record["type"] == 9:
        return True
    shown = [m for m in [fake.response_message(interaction), *fake.followups(interaction)]
             if m is not None and m["id"] not in fake.deleted_messages]
    return bool(shown) and all(m["flags"] & EPHEMERAL for m in shown)


Check = Callable[[GameLook, GameLook], bool]
