"""Fake Discord server (REST API + gateway) that the real discord.py client talks to in e2e tests.

The unmodified discord.py client connects to an aiohttp server on 127.0.0.1; only two
library settings are redirected (see ``FakeDiscord.point_discord_py_here``) and they are put
back by ``FakeDiscord.stop``.  The fake keeps the whole world (users, guilds, channels,
threads, messages, synced commands, interactions) in plain dicts shaped like Discord's JSON,
so tests read what the bot did straight from ``fake.messages`` and friends.

It is deliberately strict where Discord is strict: unsynced commands, unknown or missing
options, invalid option values, disabled components, a second acknowledgement (40060),
late interaction responses (10062), message and command payloads Discord would refuse
(50035) and messages to users with closed DMs (50007) all fail the way they fail on Discord.
A message sent again with the same ``nonce`` and ``enforce_nonce`` within NONCE_WINDOW is
answered with the first one and not created twice, as Discord does.
Discord's limits are on by default and each can be switched off per test through
``fake.strict`` (tests/e2e/fake_limits.py): per-route rate-limit buckets with their
X-RateLimit-* headers, the global limit of 50 requests per second, 429 answers with
``retry_after``, 3 edits per 6 seconds per channel, 30046 on edits of messages older than an
hour, interaction tokens that die after 15 minutes (401/50027), the first answer due within
3 seconds (10062), and the bot's channel permissions from its roles and the channel's
overwrites (403/50013, 50001 without View Channel). Time is ``fake.clock``; tests move it
with ``fake.clock.advance(seconds)`` instead of waiting.
Routes the fake does not implement answer 404 and are recorded in ``fake.unhandled``.

Every message the bot may see (its own, interaction responses, and users' posts made with
``fake.post_as``) comes as MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE events, under the
intents the bot identified with (GUILD_MESSAGES, DIRECT_MESSAGES) and only for channels it can
view; without the message content intent, other users' messages come with empty content,
embeds, attachments and components, over the gateway and REST alike, as on Discord.
Answers and events have the shapes of Discord's OpenAPI description: tests/e2e/test_fake_matches_spec.py
checks them against tests/e2e/spec/discord.json.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import mimetypes
import re
import struct
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import yarl
from aiohttp import WSMsgType, web

from .fake_limits import OLD_MESSAGE, TOKEN_LIFETIME, FakeClock, RateLimiter, Strictness, too_many

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
# Gateway intents that decide which message events a bot gets (the "Gateway Intents" docs).
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12
MESSAGE_CONTENT_INTENT = 1 << 15
# What a fresh server grants @everyone, so "Manage Channels" etc. really are special.
DEFAULT_PERMISSIONS = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CONNECT | SPEAK | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS | CREATE_PUBLIC_THREADS | CREATE_PRIVATE_THREADS | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = ALL_PERMISSIONS & ~ADMINISTRATOR

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
HAS_THREAD = 1 << 5
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Component types.
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
LABEL = 18
SELECT_TYPES = (STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT)

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
DISCORD_LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk"
    " hi th zh-CN ja zh-TW ko".split()
)
# Discord's rule is ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$; \w is the closest stdlib match.
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
MENTION = re.compile(r"<@!?(\d+)>")

# How long a nonce sent with enforce_nonce stays unique ("the past few minutes", says Discord).
NONCE_WINDOW = 120.0

# A role's look when nobody styled it (no colour, icon or emoji), as Discord sends it.
ROLE_LOOK = {"color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
             "icon": None, "unicode_emoji": None}
# GUILD_CREATE's fields beyond the guild object; GET /guilds/{id} has none of them.
GATEWAY_GUILD_FIELDS = ("members", "channels", "threads", "joined_at", "large", "unavailable", "member_count",
                        "voice_states", "presences", "stage_instances", "guild_scheduled_events", "soundboard_sounds")

_DISCORD_EPOCH_MS = 1_420_070_400_000
_snowflakes = itertools.count()


def snowflake() -> str:
    """Return a fresh Discord-style id carrying the current time, as Discord's do.

    Ids increase, so they sort by creation, and a bot reading a message's age from its id
    (``discord.utils.snowflake_time``) sees a message made just now.
    """
    ms = int(time.time() * 1000) - _DISCORD_EPOCH_MS
    return str((ms << 22) | (next(_snowflakes) & 0x3FFFFF))


def now_iso() -> str:
    """Return the current time as Discord's ISO 8601 timestamp."""
    return datetime.now(UTC).isoformat()


def _id(obj: dict | str | int) -> str:
    """Accept a payload dict or a raw id, as tests find either handy."""
    return str(obj["id"]) if isinstance(obj, dict) else str(obj)


def public(obj: dict) -> dict:
    """Copy of a stored object without the fake's private ``_keys`` (bytes are not JSON)."""
    return {k: v for k, v in obj.items() if not k.startswith("_")}


class DiscordError(Exception):
    """An error answer exactly as Discord shapes it: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None) -> None:
        super().__init__(f"{status} {code} {message}" + (f" {errors}" if errors else ""))
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def payload(self) -> dict:
        """The JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def invalid_form(path: str, message: str, error_code: str = "BASE_TYPE_INVALID") -> DiscordError:
    """400/50035 with Discord's nested ``errors`` layout, which discord.py flattens into its message."""
    errors: dict = {"_errors": [{"code": error_code, "message": message}]}
    for part in reversed(path.split(".") if path else []):
        errors = {part: errors}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def unknown(kind: str, code: int) -> DiscordError:
    """404 "Unknown X" as Discord words it."""
    return DiscordError(404, code, f"Unknown {kind}")


@dataclass
class Recorded:
    """One REST request the bot made, with the answer the fake gave."""

    method: str
    path: str  # without /api/v10
    body: Any
    query: dict[str, str]
    files: list[str]  # uploaded file names
    at: float = field(default_factory=time.perf_counter)
    status: int = 0
    code: int | None = None  # Discord JSON error code when status >= 400
    answer: str | None = None  # the JSON body the fake answered with (None: no body)


@dataclass
class UserSettings:
    """Per-user knobs that are not part of Discord's user object."""

    locale: str = "en-US"
    dms_open: bool = True
    permissions: int = 0  # granted on top of @everyone through a role in each guild


@dataclass
class _Request:
    method: str
    params: tuple[str, ...]
    body: Any
    files: list[dict]
    query: dict[str, str]


# --------------------------------------------------------------------------- payload validation
def _check_len(value: Any, limit: int, path: str, minimum: int = 0) -> None:
    if value is None and minimum == 0:
        return
    if not isinstance(value, str) or not minimum <= len(value) <= limit:
        raise invalid_form(path, f"Must be between {minimum} and {limit} in length.", "BASE_TYPE_BAD_LENGTH")


def _validate_embeds(embeds: list[dict], prefix: str) -> None:
    if len(embeds) > 10:
        raise invalid_form(f"{prefix}embeds", "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    for i, embed in enumerate(embeds):
        p = f"{prefix}embeds.{i}."
        texts = [("title", embed.get("title"), 256), ("description", embed.get("description"), 4096),
                 ("footer.text", (embed.get("footer") or {}).get("text"), 2048),
                 ("author.name", (embed.get("author") or {}).get("name"), 256)]
        for key, value, limit in texts:
            _check_len(value, limit, p + key)
            total += len(value or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid_form(p + "fields", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for j, fld in enumerate(fields):
            _check_len(fld.get("name"), 256, f"{p}fields.{j}.name", minimum=1)
            _check_len(fld.get("value"), 1024, f"{p}fields.{j}.value", minimum=1)
            total += len(fld["name"]) + len(fld["value"])
    if total > 6000:
        raise invalid_form(f"{prefix}embeds", "Embed size exceeds maximum size of 6000",
                           "MAX_EMBED_SIZE_EXCEEDED")


def walk_components(components: list[dict], path: str = "components") -> Iterator[tuple[str, dict]]:
    """Yield (form path, component) for every component, however deeply nested (rows, V2 layouts)."""
    for i, comp in enumerate(components or []):
        here = f"{path}.{i}"
        yield here, comp
        yield from walk_components(comp.get("components") or [], f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield f"{here}.{key}", comp[key]
                yield from walk_components(comp[key].get("components") or [], f"{here}.{key}.components")


def stored_components(components: list[dict] | None) -> list[dict]:
    """Components as Discord keeps them: every one has an ``id``; those the sender left out are
    numbered from 1 in order, skipping ids the sender used ("Component Reference": ``id``).
    A Unicode emoji comes back without the null ``id`` discord.py sends with it."""
    out = json.loads(json.dumps(components or []))
    taken = {c["id"] for _, c in walk_components(out) if c.get("id") is not None}
    number = 0
    for _, comp in walk_components(out):
        if comp.get("id") is None:
            number += 1
            while number in taken:
                number += 1
            comp["id"] = number
        for holder in (comp, *comp.get("options", [])):
            emoji = holder.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is None:  # a Unicode emoji: just its name
                holder["emoji"] = {k: v for k, v in emoji.items() if k != "id"}
    return out


def stored_embeds(embeds: list[dict] | None) -> list[dict]:
    """Embeds as Discord answers with them: each has a ``type`` ("rich" unless the sender said)."""
    return [{"type": "rich", **embed} for embed in embeds or []]


def _validate_select(comp: dict, path: str) -> None:
    _check_len(comp.get("placeholder"), 150, f"{path}.placeholder")
    lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
    if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
        raise invalid_form(f"{path}.min_values", f"Invalid min/max values {lo}/{hi}.")
    if comp["type"] != STRING_SELECT:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= 25:
        raise invalid_form(f"{path}.options", "Must be between 1 and 25 in length.", "BASE_TYPE_BAD_LENGTH")
    if hi > len(options):
        raise invalid_form(f"{path}.max_values", "max_values exceeds the number of options.")
    seen: set[str] = set()
    for j, opt in enumerate(options):
        _check_len(opt.get("label"), 100, f"{path}.options.{j}.label", minimum=1)
        _check_len(opt.get("value"), 100, f"{path}.options.{j}.value", minimum=1)
        _check_len(opt.get("description"), 100, f"{path}.options.{j}.description")
        if opt["value"] in seen:
            raise invalid_form(f"{path}.options.{j}.value", "Select option values must be unique.",
                               "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED")
        seen.add(opt["value"])


def _validate_components(components: list[dict], prefix: str, v2: bool) -> None:
    if not v2:
        if len(components) > 5:
            raise invalid_form(f"{prefix}components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for i, row in enumerate(components):
            kids = row.get("components") or []
            if row.get("type") != ACTION_ROW:
                raise invalid_form(f"{prefix}components.{i}.type", "Top-level components must be action rows "
                                   "unless the message uses components V2.")
            if not 1 <= len(kids) <= 5:
                raise invalid_form(f"{prefix}components.{i}.components", "Must be between 1 and 5 in length.",
                                   "BASE_TYPE_BAD_LENGTH")
            if len(kids) > 1 and any(k.get("type") in SELECT_TYPES for k in kids):
                raise invalid_form(f"{prefix}components.{i}.components", "A select menu needs its own row.",
                                   "COMPONENT_LAYOUT_WIDTH_EXCEEDED")
    elif sum(1 for _ in walk_components(components)) > 40:
        raise invalid_form(f"{prefix}components", "Must be 40 or fewer components.", "BASE_TYPE_MAX_LENGTH")
    custom_ids: set[str] = set()
    for path, comp in walk_components(components, f"{prefix}components"):
        ctype = comp.get("type")
        if ctype == TEXT_INPUT:
            raise invalid_form(f"{path}.type", "Text inputs are only allowed in modals.")
        if ctype == BUTTON:
            _check_len(comp.get("label"), 80, f"{path}.label")
            if comp.get("style") == 5:
                if not comp.get("url") or comp.get("custom_id"):
                    raise invalid_form(path, "Link buttons need a url and no custom_id.")
                continue
            if comp.get("style") == 6:
                continue
        elif ctype in SELECT_TYPES:
            _validate_select(comp, path)
        else:
            continue
        cid = comp.get("custom_id")
        _check_len(cid, 100, f"{path}.custom_id", minimum=1)
        if cid in custom_ids:
            raise invalid_form(f"{path}.custom_id", "Component custom id cannot be duplicated",
                               "COMPONENT_CUSTOM_ID_DUPLICATED")
        custom_ids.add(cid)


def _validate_message(body: dict, prefix: str = "") -> None:
    """Refuse what Discord refuses (limits are the ones Discord documents)."""
    _check_len(body.get("content"), 2000, f"{prefix}content")
    flags = body.get("flags") or 0
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2 and (body.get("content") or body.get("embeds")):
        raise invalid_form(f"{prefix}content", "content and embeds cannot be used with components V2.")
    _validate_embeds(body.get("embeds") or [], prefix)
    _validate_components(body.get("components") or [], prefix, v2)
    allowed = body.get("allowed_mentions") or {}
    for kind in ("users", "roles"):
        # Discord refuses a kind both parsed and listed, and lists of more than 100 ids.
        if kind in (allowed.get("parse") or []) and allowed.get(kind):
            raise invalid_form(f"{prefix}allowed_mentions", f"parse:[\"{kind}\"] and {kind}: [ids...] are "
                               "mutually exclusive.")
        if len(allowed.get(kind) or []) > 100:
            raise invalid_form(f"{prefix}allowed_mentions.{kind}", "Must be 100 or fewer in length.",
                               "BASE_TYPE_MAX_LENGTH")


def _validate_modal(data: dict) -> None:
    _check_len(data.get("title"), 45, "data.title", minimum=1)
    _check_len(data.get("custom_id"), 100, "data.custom_id", minimum=1)
    if not 1 <= len(data.get("components") or []) <= 5:
        raise invalid_form("data.components", "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH")
    for path, comp in walk_components(data["components"], "data.components"):
        if comp.get("type") == TEXT_INPUT:
            _check_len(comp.get("custom_id"), 100, f"{path}.custom_id", minimum=1)
            _check_len(comp.get("label"), 45, f"{path}.label")
            _check_len(comp.get("value"), 4000, f"{path}.value")


def _validate_choices(choices: list[dict], path: str) -> None:
    if len(choices) > 25:
        raise invalid_form(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, choice in enumerate(choices):
        _check_len(choice.get("name"), 100, f"{path}.{i}.name", minimum=1)
        for locale, name in (choice.get("name_localizations") or {}).items():
            _check_len(name, 100, f"{path}.{i}.name_localizations.{locale}", minimum=1)
        if isinstance(choice.get("value"), str):
            _check_len(choice["value"], 100, f"{path}.{i}.value")


def _validate_name(name: Any, path: str, chat_input: bool) -> None:
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or (chat_input and name != name.lower()):
        raise invalid_form(path, f"Invalid command name {name!r}: 1-32 lowercase letters, digits, - or _.",
                           "APPLICATION_COMMAND_INVALID_NAME")


def _validate_localized(node: dict, path: str, chat_input: bool, needs_description: bool) -> None:
    """Name, description and their localizations; translator output is checked like anything else."""
    _validate_name(node.get("name"), f"{path}.name", chat_input)
    if needs_description:
        _check_len(node.get("description"), 100, f"{path}.description", minimum=1)
    for key in ("name_localizations", "description_localizations"):
        for locale, text in (node.get(key) or {}).items():
            where = f"{path}.{key}.{locale}"
            if locale not in DISCORD_LOCALES:
                raise invalid_form(where, f"{locale!r} is not a valid locale.", "INVALID_LOCALE")
            if key == "name_localizations":
                _validate_name(text, where, chat_input)
            else:
                _check_len(text, 100, where, minimum=1)


def _validate_options(options: list[dict], path: str, parent: str) -> None:
    """parent is "command", "group" or "subcommand": each allows different children."""
    if len(options) > 25:
        raise invalid_form(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    nested = [o.get("type") in (1, 2) for o in options]
    if any(nested) and not all(nested):
        raise invalid_form(path, "Subcommands cannot be mixed with regular options.")
    names: dict[str, set[str]] = {}
    optional_seen = False
    for i, opt in enumerate(options):
        p, otype = f"{path}.{i}", opt.get("type")
        _validate_localized(opt, p, chat_input=True, needs_description=True)
        for locale, name in [("", opt["name"]), *(opt.get("name_localizations") or {}).items()]:
            if name in names.setdefault(locale, set()):
                raise invalid_form(f"{p}.name", f"Duplicate option name {name!r}.",
                                   "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE")
            names[locale].add(name)
        if otype == 2:
            if parent != "command":
                raise invalid_form(f"{p}.type", "Subcommand groups can only be nested in a command.")
            if not all(o.get("type") == 1 for o in opt.get("options") or []):
                raise invalid_form(f"{p}.options", "Subcommand groups can only contain subcommands.")
            _validate_options(opt.get("options") or [], f"{p}.options", "group")
        elif otype == 1:
            if parent == "subcommand":
                raise invalid_form(f"{p}.type", "Subcommands cannot contain subcommands.")
            _validate_options(opt.get("options") or [], f"{p}.options", "subcommand")
        else:
            if opt.get("required") and optional_seen:
                raise invalid_form(f"{p}.required", "Required options must be placed before non-required options",
                                   "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID")
            optional_seen = optional_seen or not opt.get("required")
            if opt.get("choices") and opt.get("autocomplete"):
                raise invalid_form(f"{p}.autocomplete", "Autocomplete cannot be used with choices.")
            _validate_choices(opt.get("choices") or [], f"{p}.choices")


def _validate_commands(commands: list[dict]) -> None:
    if len(commands) > 100:
        raise invalid_form("", "Too many application commands.", "BASE_TYPE_MAX_LENGTH")
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = cmd.get("type", 1)
        _validate_localized(cmd, str(i), chat_input=ctype == 1, needs_description=ctype == 1)
        if (ctype, cmd["name"]) in seen:
            raise invalid_form(f"{i}.name", "Application command names must be unique",
                               "APPLICATION_COMMANDS_DUPLICATE_NAME")
        seen.add((ctype, cmd["name"]))
        _validate_options(cmd.get("options") or [], f"{i}.options", "command")


def _image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG, read from its IHDR chunk (Discord reports them for images)."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def _matches(node: dict, name: str) -> bool:
    """A command/option is addressed by its default name or by any of its localised names."""
    return node.get("name") == name or name in (node.get("name_localizations") or {}).values()


# --------------------------------------------------------------------------- the fake
class FakeDiscord:
    """Discord REST API and gateway on 127.0.0.1, holding the whole world in JSON-shaped dicts."""

    def __init__(self) -> None:
        self.app_id = snowflake()
        self.bot_user = self._new_user("Tablero", bot=True)
        self.app_owner = self._new_user("AppOwner")  # owns the application, not in any guild
        self.users: dict[str, dict] = {u["id"]: u for u in (self.bot_user, self.app_owner)}
        self.user_settings: dict[str, UserSettings] = {}
        self.guilds: dict[str, dict] = {}
        self.guild_members: dict[str, dict[str, dict]] = {}  # guild id -> user id -> member
        self.channels: dict[str, dict] = {}  # guild channels, threads and DM channels
        self.thread_members: dict[str, list[str]] = {}
        self.messages: dict[str, dict] = {}  # every live message, in creation order
        self.deleted_messages: dict[str, dict] = {}
        self.interactions: dict[str, dict] = {}  # id -> INTERACTION_CREATE payload sent
        self.interaction_responses: dict[str, dict] = {}  # id -> recorded callback
        self.rejected_callbacks: dict[str, DiscordError] = {}  # id -> why the callback was refused
        self.commands: dict[tuple[str | None, str], dict] = {}  # (guild id or None, name) -> command
        self.requests: list[Recorded] = []
        self.unhandled: list[Recorded] = []
        self.errors: list[Recorded] = []  # every request answered with status >= 400
        self.gateway_log: list[dict] = []  # every payload the bot sent on the gateway
        self.typing: list[str] = []  # channel ids the bot showed "is typing..." in
        self.dispatched: list[tuple[str, dict]] = []  # every event the fake sent
        self.identify: dict | None = None
        self.identify_count = 0
        # Sharded bots (IDENTIFY with shard [id, total], total > 1): one connection per shard;
        # a guild's events go to shard (guild_id >> 22) % total, DMs to shard 0 (Discord's
        # "Sharding" documentation).
        self.shard_total: int | None = None
        self.shard_sockets: dict[int, web.WebSocketResponse] = {}
        self.shards_ready: set[int] = set()
        self.identifies: list[dict] = []  # every IDENTIFY payload, in order
        self.ready = False  # READY and GUILD_CREATEs sent on the current connection
        # Discord's 3 s limit to answer an interaction; tests may shorten it to check deferral.
        self.response_deadline = 3.0
        # Discord hides commands whose default_member_permissions the user lacks.
        self.enforce_command_permissions = True
        self.bot_permissions = BOT_PERMISSIONS  # the bot's managed role in guilds made from now on
        # Discord's rules the fake enforces (all on; a test switches one off with
        # ``fake.strict.rate_limits = False``), the clock they run on, the buckets.
        self.strict = Strictness()
        self.clock = FakeClock()
        self.limiter = RateLimiter(self.clock, self.strict)
        self._bot_roles: dict[str, str] = {}  # guild id -> id of the bot's managed role
        self.port = 0
        self._ws: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._seq = 0
        self._tokens: dict[str, str] = {}  # interaction token -> interaction id
        self._modal_openers: dict[str, str] = {}  # modal submission id -> id of the interaction that opened it
        self._interaction_started: dict[str, float] = {}
        self._runner: web.AppRunner | None = None
        self._saved: dict[str, Any] = {}
        self._cleanups: list[Callable[[], Awaitable[None]]] = []
        self._change = asyncio.Event()
        # Message nonces sent with enforce_nonce: nonce -> (message id, when), for NONCE_WINDOW.
        self._nonces: dict[str, tuple[str, float]] = {}
        self.nonce_repeats = 0  # messages sent again with a known nonce, answered with the first
        self._routes = self._route_table()

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        """Listen on a free port of 127.0.0.1; returns self."""
        app = web.Application(client_max_size=4 * ATTACHMENT_SIZE_LIMIT)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        """Run cleanups (stopping bots still running), close connections, restore discord.py."""
        while self._cleanups:
            await self._cleanups.pop()()
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.restore_discord_py()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self.point_discord_py_here()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def add_cleanup(self, cleanup: Callable[[], Awaitable[None]]) -> None:
        """Register an async callable that ``stop`` awaits first (last registered runs first)."""
        self._cleanups.append(cleanup)

    @property
    def http_base(self) -> str:
        """Base URL of the fake REST API."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """URL of the fake gateway."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    def point_discord_py_here(self) -> None:
        """Redirect discord.py's REST base (also used by interaction webhooks) and gateway URL."""
        import discord.gateway
        import discord.http

        if not self._saved:
            self._saved = {"base": discord.http.Route.BASE,
                           "gateway": discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY}
        discord.http.Route.BASE = self.http_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def restore_discord_py(self) -> None:
        """Put back the settings changed by ``point_discord_py_here``."""
        if not self._saved:
            return
        import discord.gateway
        import discord.http

        discord.http.Route.BASE = self._saved["base"]
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved["gateway"]
        self._saved = {}

    # ------------------------------------------------------------------ building the world
    @staticmethod
    def _new_user(name: str, bot: bool = False) -> dict:
        # Every field Discord's user object always carries; those a user has not set are null.
        return {"id": snowflake(), "username": name, "global_name": None if bot else name,
                "discriminator": "0", "avatar": None, "bot": bot, "flags": 0, "public_flags": 0, "banner": None,
                "accent_color": None, "avatar_decoration_data": None, "collectibles": None, "primary_guild": None}

    def current_user(self) -> dict:
        """The bot's own user as Discord sends it to the bot (GET /users/@me, READY)."""
        return {**self.bot_user, "mfa_enabled": False, "locale": "en-US", "verified": True, "email": None}

    def add_user(self, name: str, *, locale: str = "en-US", dms_open: bool = True,
                 manage_channels: bool = False, permissions: int = 0) -> dict:
        """Create a user; returns Discord's user object. Extra permissions apply in every guild."""
        if locale not in DISCORD_LOCALES:
            raise ValueError(f"{locale!r} is not a Discord locale")
        user = self._new_user(name)
        self.users[user["id"]] = user
        self.user_settings[user["id"]] = UserSettings(
            locale=locale, dms_open=dms_open, permissions=permissions | (MANAGE_CHANNELS if manage_channels else 0))
        return user

    def settings(self, user: dict | str) -> UserSettings:
        """The fake-only settings of a user (locale, DMs open, extra permissions); mutable."""
        return self.user_settings.setdefault(_id(user), UserSettings())

    def user_named(self, name: str) -> dict:
        """Look a user up by username."""
        for user in self.users.values():
            if user["username"] == name:
                return user
        raise LookupError(f"no user named {name!r}")

    def add_guild(self, name: str, channel_names: list[str], members: list[dict], *,
                  owner: dict | None = None, locale: str = "en-US", guild_id: str | None = None) -> dict:
        """Create a guild with text channels and members; returns the GUILD_CREATE payload."""
        gid = guild_id or snowflake()
        everyone = {"id": gid, "name": "@everyone", "permissions": str(DEFAULT_PERMISSIONS), "position": 0,
                    **ROLE_LOOK, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        guild = {
            "id": gid, "name": name, "icon": None, "owner_id": (owner or self.app_owner)["id"],
            "unavailable": False, "roles": [everyone],
            # Like Discord for anything but tiny guilds: only the bot's own member is sent; other
            # members are only visible through the members intent (op 8 chunking) or events.
            "members": [], "member_count": 0, "channels": [], "threads": [], "presences": [],
            "voice_states": [], "emojis": [], "stickers": [], "features": [], "large": False,
            "joined_at": now_iso(), "preferred_locale": locale, "premium_tier": 0, "mfa_level": 0,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "nsfw_level": 0, "system_channel_flags": 0, "afk_timeout": 300, "system_channel_id": None,
            # What a new, unboosted guild has; Discord sends the unset ones as null.
            "description": None, "home_header": None, "splash": None, "discovery_splash": None, "banner": None,
            "application_id": None, "region": "deprecated", "afk_channel_id": None, "widget_enabled": False,
            "widget_channel_id": None, "max_presences": None, "max_members": 25000000,
            "max_stage_video_channel_users": 50, "max_video_channel_users": 25, "vanity_url_code": None,
            "premium_subscription_count": 0, "rules_channel_id": None, "safety_alerts_channel_id": None,
            "public_updates_channel_id": None, "premium_progress_bar_enabled": False, "nsfw": False,
            "incidents_data": None, "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        }
        self.guilds[gid] = guild
        self.guild_members[gid] = {}
        # The bot's own managed role, as Discord creates it when the bot joins with permissions.
        bot_role = {"id": snowflake(), "name": self.bot_user["username"], "permissions": str(self.bot_permissions),
                    "position": 1, **ROLE_LOOK, "hoist": False, "managed": True, "mentionable": False, "flags": 0,
                    "tags": {"bot_id": self.bot_user["id"]}}
        guild["roles"].append(bot_role)
        self._bot_roles[gid] = bot_role["id"]
        for user in [self.bot_user, *members]:
            self.add_member(guild, user)
        guild["members"] = [self.guild_members[gid][self.bot_user["id"]]]
        for cname in channel_names:
            self.add_channel(guild, cname)
        return guild

    def add_member(self, guild: dict | str, user: dict) -> dict:
        """Add a user to a guild (before the bot connects); returns the member object."""
        gid = _id(guild)
        extra = self.settings(user).permissions if not user.get("bot") else 0
        roles = [self._role_for(gid, extra)["id"]] if extra else []
        if user["id"] == self.bot_user["id"] and gid in self._bot_roles:
            roles = [self._bot_roles[gid]]
        member = {"user": user, "roles": roles, "nick": None, "avatar": None, "banner": None, "joined_at": now_iso(),
                  "premium_since": None, "deaf": False, "mute": False, "flags": 0, "pending": False,
                  "communication_disabled_until": None}
        self.guild_members[gid][user["id"]] = member
        self.guilds[gid]["member_count"] = len(self.guild_members[gid])
        return member

    def _role_for(self, gid: str, permissions: int) -> dict:
        """One role per distinct permission set, so Member.guild_permissions agrees with the payload."""
        guild = self.guilds[gid]
        for role in guild["roles"]:
            if role["id"] != gid and not role.get("managed") and int(role["permissions"]) == permissions:
                return role
        role = {"id": snowflake(), "name": f"granted-{permissions:x}", "permissions": str(permissions),
                "position": len(guild["roles"]), **ROLE_LOOK, "hoist": False, "managed": False,
                "mentionable": False, "flags": 0}
        guild["roles"].append(role)
        return role

    def add_channel(self, guild: dict | str, name: str, *, type: int = GUILD_TEXT,
                    parent_id: str | None = None) -> dict:
        """Add a guild channel (before the bot connects; bot-created channels go through REST)."""
        gid = _id(guild)
        channel = {"id": snowflake(), "type": type, "guild_id": gid, "name": name,
                   "position": len(self.guilds[gid]["channels"]), "permission_overwrites": [], "nsfw": False,
                   "parent_id": parent_id, "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
                   "flags": 0}
        self.guilds[gid]["channels"].append(channel)
        self.channels[channel["id"]] = channel
        return channel

    def channel_named(self, guild: dict | str, name: str) -> dict:
        """A guild channel or thread by name."""
        gid = _id(guild)
        for channel in self.channels.values():
            if channel.get("guild_id") == gid and channel.get("name") == name:
                return channel
        raise LookupError(f"no channel {name!r} in guild {gid}")

    def member_permissions(self, guild: dict | str, user: dict | str) -> int:
        """Permission bits of a member, computed from owner status and roles like Discord does."""
        gid, uid = _id(guild), _id(user)
        guild_obj = self.guilds[gid]
        if guild_obj["owner_id"] == uid:
            return ALL_PERMISSIONS
        member = self.guild_members[gid].get(uid)
        if member is None:
            raise LookupError(f"user {uid} is not a member of guild {gid}")
        roles = {r["id"]: int(r["permissions"]) for r in guild_obj["roles"]}
        perms = roles[gid]
        for rid in member["roles"]:
            perms |= roles[rid]
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def channel_permissions(self, channel: dict | str, user: dict | str | None = None) -> int:
        """A member's permissions in a channel (the bot's by default), as Discord computes them:
        @everyone and roles, then the channel's overwrites (@everyone, roles, the member).
        A thread uses its parent's overwrites. DMs: everything."""
        chan = self._channel(_id(channel))
        if chan["type"] == DM:
            return ALL_PERMISSIONS
        uid = _id(user) if user is not None else self.bot_user["id"]
        gid = chan["guild_id"]
        perms = self.member_permissions(gid, uid)
        if perms & ADMINISTRATOR or self.guilds[gid]["owner_id"] == uid:
            return ALL_PERMISSIONS
        base = self.channels.get(chan.get("parent_id") or "", chan) if chan["type"] in THREAD_TYPES else chan
        overwrites = {o["id"]: o for o in base.get("permission_overwrites") or []}
        roles = set(self.guild_members[gid][uid]["roles"])

        def apply(perms: int, allow: int, deny: int) -> int:
            return (perms & ~deny) | allow

        if gid in overwrites:
            perms = apply(perms, int(overwrites[gid]["allow"]), int(overwrites[gid]["deny"]))
        allow = deny = 0
        for rid in roles:
            if rid in overwrites:
                allow |= int(overwrites[rid]["allow"])
                deny |= int(overwrites[rid]["deny"])
        perms = apply(perms, allow, deny)
        if uid in overwrites:
            perms = apply(perms, int(overwrites[uid]["allow"]), int(overwrites[uid]["deny"]))
        return perms

    async def set_overwrite(self, channel: dict | str, target: dict | str, *, allow: int = 0, deny: int = 0,
                            member: bool = False) -> None:
        """Set a channel's permission overwrite for a role (or a member) as a server admin
        would; the connected bot is told (CHANNEL_UPDATE). ``target`` is a role, a user or an id."""
        chan = self._channel(_id(channel))
        tid = _id(target)
        kind = 1 if member or tid in self.users else 0
        rest = [o for o in chan["permission_overwrites"] if o["id"] != tid]
        chan["permission_overwrites"] = [*rest, {"id": tid, "type": kind, "allow": str(allow), "deny": str(deny)}]
        await self._dispatch_if_connected("CHANNEL_UPDATE", chan)

    async def deny_bot(self, channel: dict | str, permissions: int) -> None:
        """Take ``permissions`` from the bot in one channel (an overwrite on its member)."""
        await self.set_overwrite(channel, self.bot_user["id"], deny=permissions, member=True)

    async def set_bot_role_permissions(self, guild: dict | str, permissions: int) -> None:
        """Change what the bot's managed role grants in a guild (GUILD_ROLE_UPDATE is sent)."""
        gid = _id(guild)
        role = next(r for r in self.guilds[gid]["roles"] if r["id"] == self._bot_roles[gid])
        role["permissions"] = str(permissions)
        await self._dispatch_if_connected("GUILD_ROLE_UPDATE", {"guild_id": gid, "role": role})

    def _require(self, channel: dict, *needed: int) -> None:
        """Refuse as Discord does when the bot lacks one of ``needed`` in ``channel``:
        403/50001 without View Channel, 403/50013 for any other."""
        if not self.strict.permissions or channel["type"] == DM:
            return
        perms = self.channel_permissions(channel)
        if not perms & VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        for bit in needed:
            if not perms & bit:
                raise DiscordError(403, 50013, "Missing Permissions")

    def _dm_channel(self, user: dict | str, create: bool) -> dict | None:
        uid = _id(user)
        for channel in self.channels.values():
            if channel["type"] == DM and channel["recipients"][0]["id"] == uid:
                return channel
        if not create:
            return None
        channel = {"id": snowflake(), "type": DM, "recipients": [self.users[uid]], "last_message_id": None,
                   "flags": 0}
        self.channels[channel["id"]] = channel
        return channel

    # ------------------------------------------------------------------ reading what happened
    def channel_messages(self, channel: dict | str, *, ephemeral: bool = False) -> list[dict]:
        """Live messages of a channel, oldest first; ephemeral ones only when asked for."""
        cid = _id(channel)
        return [m for m in self.messages.values()
                if m["channel_id"] == cid and (ephemeral or not m["flags"] & EPHEMERAL)]

    def last_message(self, channel: dict | str) -> dict | None:
        """The newest non-ephemeral live message of a channel, or None."""
        messages = self.channel_messages(channel)
        return messages[-1] if messages else None

    def dm_channel(self, user: dict | str) -> dict | None:
        """The DM channel between the bot and a user, if the bot opened one."""
        return self._dm_channel(user, create=False)

    def open_dm(self, user: dict | str) -> dict:
        """The DM channel between the bot and a user, created if needed (to run commands in DMs)."""
        channel = self._dm_channel(user, create=True)
        assert channel is not None
        return channel

    def dms_to(self, user: dict | str) -> list[dict]:
        """Messages the bot sent to a user by DM, oldest first."""
        channel = self.dm_channel(user)
        return self.channel_messages(channel) if channel else []

    def ephemeral_responses(self, user: dict | str) -> list[dict]:
        """Ephemeral messages (responses and followups) only this user can see, oldest first."""
        uid = _id(user)
        return [m for m in self.messages.values() if m["flags"] & EPHEMERAL and m.get("_visible_to") == uid]

    def files(self, message: dict | str) -> list[dict]:
        """Attached files of a message: dicts with id, filename, content_type and data (bytes)."""
        return list(self._any_message(message).get("_files", []))

    def pinged(self, message: dict | str) -> list[str]:
        """Ids of users a message pinged: mentioned in its content and allowed by its
        allowed_mentions when it was created. As on Discord, a mention added or allowed by
        a later edit (the filling of a deferred "thinking" reply included) notifies nobody."""
        return list(self._any_message(message).get("_pinged", []))

    @staticmethod
    def _pings(content: str, allowed: dict | None) -> list[str]:
        ids = list(dict.fromkeys(MENTION.findall(content)))
        if allowed is None or "users" in allowed.get("parse", []):
            return ids
        return [uid for uid in ids if uid in {str(u) for u in allowed.get("users", [])}]

    def components(self, message: dict | str) -> list[dict]:
        """Every component of a message, flattened (action rows and V2 layouts included)."""
        return [c for _, c in walk_components(self._any_message(message).get("components", []))]

    def find_component(self, message: dict | str, predicate: Callable[[dict], Any]) -> dict | None:
        """The first component of a message for which predicate(component) is true, or None."""
        return next((c for c in self.components(message) if predicate(c)), None)

    def button(self, message: dict | str, label: str) -> dict:
        """The button with this label (handy for DynamicItem custom_ids); LookupError if absent."""
        found = self.find_component(message, lambda c: c.get("type") == BUTTON and c.get("label") == label)
        if found is None:
            raise LookupError(f"no button labelled {label!r} on message {_id(message)}")
        return found

    def synced_commands(self, guild: dict | str | None = None) -> list[dict]:
        """Commands as last synced (global, or for one guild), with their localizations."""
        gid = None if guild is None else _id(guild)
        return [c for (g, _), c in self.commands.items() if g == gid]

    def command(self, name: str, guild: dict | str | None = None) -> dict:
        """One synced top-level command by default name."""
        gid = None if guild is None else _id(guild)
        try:
            return self.commands[(gid, name)]
        except KeyError:
            raise LookupError(f"/{name} was never synced") from None

    @staticmethod
    def _interaction_id(interaction: dict) -> str:
        # Accept the INTERACTION_CREATE payload or the response record wait_response returned.
        return interaction.get("interaction_id") or interaction["id"]

    def response_message(self, interaction: dict) -> dict | None:
        """The message an interaction response created or updated, if any (deleted ones too)."""
        record = self.interaction_responses.get(self._interaction_id(interaction))
        if record is None or record["message_id"] is None:
            return None
        mid = record["message_id"]
        return self.messages.get(mid) or self.deleted_messages.get(mid)

    def followups(self, interaction: dict) -> list[dict]:
        """Followup messages sent for an interaction, oldest first."""
        iid = self._interaction_id(interaction)
        return [m for m in self.messages.values() if m.get("_followup_of") == iid]

    def errors_with(self, code: int) -> list[Recorded]:
        """Requests the fake refused with this Discord error code (e.g. 50007, 10008)."""
        return [r for r in self.errors if r.code == code]

    @property
    def invalid_requests(self) -> list[Recorded]:
        """Requests refused as Invalid Form Body (50035): always a bug in the bot."""
        return self.errors_with(50035)

    # ------------------------------------------------------------------ waiting
    def _changed(self) -> None:
        """Wake every waiter; they re-check their predicate."""
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until predicate() is truthy; returns its value. TimeoutError after timeout seconds.

        The predicate is checked after every request and gateway message, and every 10 ms too,
        so it may also look at the bot's own state (which changes after the fake answered).
        """
        try:
            async with asyncio.timeout(timeout):
                while True:
                    result = predicate()
                    if result:
                        return result
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._change.wait(), 0.01)
        except TimeoutError:
            raise TimeoutError(f"fake discord: condition not met within {timeout}s") from None

    async def wait_for_message(self, channel: dict | str, predicate: Callable[[dict], Any] | None = None,
                               *, timeout: float = 5.0, ephemeral: bool = False) -> dict:
        """The newest message of a channel matching predicate (edits count), waiting for it."""
        check = predicate or (lambda _m: True)
        return await self.wait_until(
            lambda: next((m for m in reversed(self.channel_messages(channel, ephemeral=ephemeral)) if check(m)),
                         None), timeout)

    async def wait_for_dm(self, user: dict | str, predicate: Callable[[dict], Any] | None = None,
                          *, timeout: float = 5.0) -> dict:
        """The newest DM to a user matching predicate, waiting for it."""
        check = predicate or (lambda _m: True)
        return await self.wait_until(lambda: next((m for m in reversed(self.dms_to(user)) if check(m)), None),
                                     timeout)

    async def wait_response(self, interaction: dict, timeout: float = 5.0) -> dict:
        """Wait for the bot's callback to an interaction; returns its record.

        The record has "type" (4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete
        choices, 9 modal), "data" (the callback's data), "message_id" (message created or updated,
        else None), "interaction_id", "files" (uploaded file names) and "at" (perf_counter time).
        Raises AssertionError if the fake refused the callback (use wait_until if the bot retries).
        """
        iid = interaction["id"]

        def answered() -> dict | None:
            if iid in self.interaction_responses:
                return self.interaction_responses[iid]
            if iid in self.rejected_callbacks:
                raise AssertionError(f"the bot's response was refused: {self.rejected_callbacks[iid]}")
            return None

        return await self.wait_until(answered, timeout)

    async def wait_connected(self, timeout: float = 10.0) -> None:
        """Wait until a bot has identified and received READY and its guilds."""
        await self.wait_until(lambda: self.ready, timeout)

    # ------------------------------------------------------------------ gateway
    @property
    def connected(self) -> bool:
        """Whether a bot is connected to the gateway right now."""
        return self._ws is not None and not self._ws.closed

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        # A restarted bot opens a new connection: from now on events go there.
        self._ws, self.ready = ws, False
        self._sockets.add(ws)
        self.gateway_query = dict(request.query)  # v=10&encoding=json&compress=... (compression ignored)
        try:
            await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                self.gateway_log.append(payload)
                await self._gateway_op(ws, payload)
                self._changed()
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws, self.ready = None, False
            for sid in [k for k, v in self.shard_sockets.items() if v is ws]:
                del self.shard_sockets[sid]
                self.shards_ready.discard(sid)
            self._changed()
        return ws

    async def _gateway_op(self, ws: web.WebSocketResponse, payload: dict) -> None:
        op, d = payload["op"], payload.get("d")
        if op == 1:  # HEARTBEAT
            await ws.send_json({"op": 11})
        elif op == 2 and d.get("shard") and d["shard"][1] > 1:  # IDENTIFY of one shard
            await self._identify_shard(ws, d)
        elif op == 2:  # IDENTIFY
            self.identifies.append(d)
            self.identify = d
            self.identify_count += 1
            await self.dispatch("READY", {
                "v": 10, "user": self.current_user(), "session_id": f"session-{self.identify_count}",
                "resume_gateway_url": self.gateway_url, "shard": [0, 1],
                "guilds": [{"id": g, "unavailable": True} for g in self.guilds],
                "application": {"id": self.app_id, "flags": 0}, "private_channels": [],
                "relationships": [], "user_settings": {}, "presences": [], "guild_join_requests": [],
            })
            for guild in self.guilds.values():
                # Like Discord, only active threads come with the guild.
                active = [t for t in guild["threads"] if not t["thread_metadata"]["archived"]]
                await self.dispatch("GUILD_CREATE", {**guild, "threads": active})
            self.ready = True
        elif op == 6:  # RESUME is not supported: an invalid session makes the client identify again
            await ws.send_json({"op": 9, "d": False})
        elif op == 8:  # REQUEST_GUILD_MEMBERS (members intent)
            gid = str(d["guild_id"])
            members = list(self.guild_members[gid].values())
            if d.get("user_ids"):
                wanted = {str(u) for u in d["user_ids"]}
                members = [m for m in members if m["user"]["id"] in wanted]
            elif d.get("query"):
                members = [m for m in members if m["user"]["username"].startswith(d["query"])]
            await self.dispatch("GUILD_MEMBERS_CHUNK", {
                "guild_id": gid, "members": members, "chunk_index": 0, "chunk_count": 1, "nonce": d.get("nonce")})

    # ------------------------------------------------------------------ sharding
    def shard_of(self, guild_id: str | int | None, total: int | None = None) -> int:
        """The shard that receives a guild's events: (guild_id >> 22) % total; DMs: shard 0."""
        total = total or self.shard_total or 1
        return 0 if guild_id is None else (int(guild_id) >> 22) % total

    @staticmethod
    def _event_guild(event: str, data: dict) -> str | None:
        if event in ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"):
            return data.get("id")
        return data.get("guild_id")

    def guilds_of_shard(self, shard: int, total: int) -> list[dict]:
        """The guilds whose events go to ``shard`` of ``total``."""
        return [g for gid, g in self.guilds.items() if self.shard_of(gid, total) == shard]

    async def _identify_shard(self, ws: web.WebSocketResponse, d: dict) -> None:
        sid, total = int(d["shard"][0]), int(d["shard"][1])
        if not 0 <= sid < total or (self.shard_total not in (None, total)):
            await ws.close(code=4010, message=b"Invalid shard")
            return
        self.identifies.append(d)
        self.identify = d
        self.identify_count += 1
        self.shard_total = total
        self.shard_sockets[sid] = ws
        self.shards_ready.discard(sid)
        mine = self.guilds_of_shard(sid, total)
        await self.dispatch("READY", {
            "v": 10, "user": self.current_user(), "session_id": f"session-{self.identify_count}",
            "resume_gateway_url": self.gateway_url, "shard": [sid, total],
            "guilds": [{"id": g["id"], "unavailable": True} for g in mine],
            "application": {"id": self.app_id, "flags": 0}, "private_channels": [],
            "relationships": [], "user_settings": {}, "presences": [], "guild_join_requests": [],
        }, ws=ws)
        for guild in mine:
            active = [t for t in guild["threads"] if not t["thread_metadata"]["archived"]]
            await self.dispatch("GUILD_CREATE", {**guild, "threads": active}, ws=ws)
        self.shards_ready.add(sid)

    @property
    def all_shards_ready(self) -> bool:
        """Whether every shard of a sharded bot has identified and received its guilds."""
        return self.shard_total is not None and self.shards_ready == set(range(self.shard_total))

    async def wait_shards_ready(self, timeout: float = 30.0) -> None:
        """Wait until every shard of a sharded bot is connected and has its guilds."""
        await self.wait_until(lambda: self.all_shards_ready, timeout)

    def add_guild_on_shard(self, shard: int, total: int, name: str, channel_names: list[str],
                           members: list[dict], **kwargs: Any) -> dict:
        """Create a guild (as add_guild) whose id falls on ``shard`` of ``total``."""
        gid = int(snowflake())
        while self.shard_of(gid, total) != shard:
            gid += 1 << 22  # one millisecond later: still a well-formed snowflake
        return self.add_guild(name, channel_names, members, guild_id=str(gid), **kwargs)

    async def dispatch(self, event: str, data: dict, *, ws: web.WebSocketResponse | None = None) -> None:
        """Send a gateway event (op 0) to the connected bot (to the shard it belongs to)."""
        if ws is None and self.shard_total is not None:
            sid = self.shard_of(self._event_guild(event, data))
            ws = self.shard_sockets.get(sid)
            if ws is None or ws.closed:
                raise RuntimeError(f"cannot send {event}: shard {sid} is not connected to the fake gateway")
        if ws is not None:
            self._seq += 1
            self.dispatched.append((event, data))
            await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})
            return
        if not self.connected:
            raise RuntimeError(f"cannot send {event}: no bot is connected to the fake gateway")
        assert self._ws is not None
        self._seq += 1
        self.dispatched.append((event, data))
        await self._ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    async def _dispatch_if_connected(self, event: str, data: dict) -> None:
        # World changes while no bot runs (e.g. between a stop and a restart) are simply not seen,
        # as a bot that is offline misses events on Discord.
        if self.shard_total is not None:
            if self.shard_of(self._event_guild(event, data)) in self.shards_ready:
                await self.dispatch(event, data)
            return
        if self.connected and self.ready:
            await self.dispatch(event, data)

    # ------------------------------------------------------------------ user actions
    def _guild_id_of(self, channel: dict) -> str | None:
        return channel.get("guild_id")

    def _channel_for_interaction(self, channel: dict, user: dict) -> dict:
        chan = public(self.channels[channel["id"]])
        if chan["type"] != DM:
            # Discord: the invoking user's permissions in the channel, overwrites included.
            chan["permissions"] = str(self.channel_permissions(chan, user))
        return chan

    async def _send_interaction(self, itype: int, user: dict, channel: dict | str, data: dict,
                                message: dict | None = None, opened_by: str | None = None) -> dict:
        if not self.connected:
            raise RuntimeError("no bot is connected to the fake gateway")
        channel = self._channel(_id(channel))
        iid = snowflake()
        token = f"interaction-token-{iid}"
        payload: dict[str, Any] = {
            "id": iid, "application_id": self.app_id, "type": itype, "token": token, "version": 1,
            "locale": self.settings(user).locale, "app_permissions": str(self.channel_permissions(channel)),
            "entitlements": [], "attachment_size_limit": ATTACHMENT_SIZE_LIMIT, "channel_id": channel["id"],
            "channel": self._channel_for_interaction(channel, user), "data": data,
        }
        gid = self._guild_id_of(channel)
        if gid is None:
            payload.update(user=user, context=1, authorizing_integration_owners={"0": "0"})
        else:
            if user["id"] not in self.guild_members[gid]:
                raise LookupError(f"{user['username']} is not a member of guild {gid}")
            guild = self.guilds[gid]
            # Discord: "total permissions of the member in the channel, including overwrites".
            member = dict(self.guild_members[gid][user["id"]],
                          permissions=str(self.channel_permissions(channel, user)))
            payload.update(guild_id=gid, guild_locale=guild["preferred_locale"], member=member, context=0,
                           guild={"id": gid, "locale": guild["preferred_locale"], "features": []},
                           authorizing_integration_owners={"0": gid})
        if message is not None:
            payload["message"] = public(message)
        self.interactions[iid] = payload
        if opened_by is not None:  # a modal's submission: the interaction answered with the modal
            self._modal_openers[iid] = opened_by
        self._tokens[token] = iid
        self._interaction_started[iid] = self.clock.now()
        await self.dispatch("INTERACTION_CREATE", payload)
        # Discord's clock starts when the event leaves its gateway.
        self._interaction_started[iid] = self.clock.now()
        return payload

    def _find_command(self, command: str, channel: dict, user: dict) -> tuple[dict, list[dict], dict]:
        """Resolve "game new" to (top-level command, [group/subcommand nodes], node holding the options)."""
        parts = command.split()
        if not parts:
            raise ValueError("empty command name")
        gid = self._guild_id_of(channel)
        scopes = [gid, None] if gid else [None]
        cmd = next((c for scope in scopes for (g, _), c in self.commands.items()
                    if g == scope and c.get("type", 1) == 1 and _matches(c, parts[0])), None)
        if cmd is None:
            raise LookupError(f"/{parts[0]} was never synced to the fake Discord (tree.sync())")
        self._check_can_use(cmd, user, channel)
        node, chain = cmd, []
        for part in parts[1:]:
            sub = next((o for o in node.get("options") or [] if o["type"] in (1, 2) and _matches(o, part)), None)
            if sub is None:
                raise LookupError(f"/{command}: {node['name']} has no subcommand or group {part!r}")
            chain.append(sub)
            node = sub
        subs = [o["name"] for o in node.get("options") or [] if o["type"] in (1, 2)]
        if subs:
            raise LookupError(f"/{command} is a group: pick one of {subs}")
        return cmd, chain, node

    def _check_can_use(self, cmd: dict, user: dict, channel: dict) -> None:
        """The Discord client only offers commands allowed in this context and to this member."""
        contexts = cmd.get("contexts")
        gid = self._guild_id_of(channel)
        if gid is None:
            if (contexts is not None and 1 not in contexts) or (contexts is None and cmd.get("dm_permission") is False):
                raise PermissionError(f"/{cmd['name']} cannot be used in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise PermissionError(f"/{cmd['name']} cannot be used in guilds")
        required = cmd.get("default_member_permissions")
        if required is None or not self.enforce_command_permissions:
            return
        perms = self.member_permissions(gid, user)
        if perms & ADMINISTRATOR or perms == ALL_PERMISSIONS:
            return
        if int(required) == 0 or perms & int(required) != int(required):
            raise PermissionError(f"/{cmd['name']} is hidden from {user['username']} "
                                  f"(default_member_permissions={required})")

    def _as_user(self, value: dict | str) -> dict:
        uid = _id(value)
        if uid not in self.users:
            raise LookupError(f"unknown user {uid}")
        return self.users[uid]

    def _as_role(self, value: dict | str, gid: str | None) -> dict:
        rid = _id(value)
        role = next((r for r in self.guilds[gid]["roles"] if r["id"] == rid), None) if gid else None
        if role is None:
            raise LookupError(f"unknown role {rid}")
        return role

    def _resolve_user(self, user: dict, gid: str | None, resolved: dict) -> str:
        resolved.setdefault("users", {})[user["id"]] = user
        if gid and user["id"] in self.guild_members[gid]:
            member = {k: v for k, v in self.guild_members[gid][user["id"]].items() if k != "user"}
            member["permissions"] = str(self.member_permissions(gid, user))
            resolved.setdefault("members", {})[user["id"]] = member
        return user["id"]

    def _resolve_channel(self, channel: dict, gid: str | None, resolved: dict, allowed: list[int] | None,
                         user: dict) -> str:
        chan = self._channel(_id(channel))
        if allowed and chan["type"] not in allowed:
            raise ValueError(f"channel type {chan['type']} is not allowed here (channel_types={allowed})")
        entry = public(chan)
        if chan.get("guild_id"):
            entry["permissions"] = str(self.member_permissions(chan["guild_id"], user))
        resolved.setdefault("channels", {})[chan["id"]] = entry
        return chan["id"]

    def _option_value(self, opt: dict, value: Any, gid: str | None, resolved: dict, user: dict) -> Any:
        """Check a value like the Discord client does and turn objects into ids plus resolved data."""
        otype, name = opt["type"], opt["name"]
        if otype == 3:
            if not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, got {value!r}")
            if not opt.get("min_length", 0) <= len(value) <= opt.get("max_length", 6000):
                raise ValueError(f"option {name!r}: length {len(value)} outside "
                                 f"{opt.get('min_length', 0)}..{opt.get('max_length', 6000)}")
        elif otype in (4, 10):
            kinds = (int,) if otype == 4 else (int, float)
            if isinstance(value, bool) or not isinstance(value, kinds):
                raise TypeError(f"option {name!r} is {'an integer' if otype == 4 else 'a number'}, got {value!r}")
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise ValueError(f"option {name!r}: {value} < min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise ValueError(f"option {name!r}: {value} > max_value {opt['max_value']}")
        elif otype == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif otype == 6:
            return self._resolve_user(self._as_user(value), gid, resolved)
        elif otype == 7:
            return self._resolve_channel(value, gid, resolved, opt.get("channel_types"), user)
        elif otype == 8:
            role = self._as_role(value, gid)
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        elif otype == 9:
            if _id(value) in self.users:
                return self._resolve_user(self._as_user(value), gid, resolved)
            role = self._as_role(value, gid)
            resolved.setdefault("roles", {})[role["id"]] = role
            return role["id"]
        else:
            raise NotImplementedError(f"option type {otype} ({name!r}) is not supported by the fake")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices "
                             f"{[c['value'] for c in choices]}")
        return value

    def _build_options(self, command: str, node: dict, options: dict[str, Any], gid: str | None,
                       resolved: dict, user: dict, focused: str | None = None) -> list[dict]:
        schema = node.get("options") or []
        by_name: dict[str, dict] = {}
        for opt in schema:
            by_name[opt["name"]] = opt
            for localised in (opt.get("name_localizations") or {}).values():
                by_name.setdefault(localised, opt)
        out, given = [], set()
        focus_opt = None
        if focused is not None:
            focus_opt = by_name.get(focused)
            if focus_opt is None or not focus_opt.get("autocomplete"):
                raise LookupError(f"/{command} has no autocomplete option {focused!r}")
        for key, value in options.items():
            opt = by_name.get(key)
            if opt is None:
                raise TypeError(f"/{command} has no option {key!r}; it has {[o['name'] for o in schema]}")
            if opt["name"] in given:
                raise TypeError(f"/{command}: option {opt['name']!r} given twice")
            given.add(opt["name"])
            if opt is focus_opt:
                # The focused value is whatever the user has typed so far: not checked, no resolved data.
                out.append({"name": opt["name"], "type": opt["type"], "value": value, "focused": True})
            else:
                out.append({"name": opt["name"], "type": opt["type"],
                            "value": self._option_value(opt, value, gid, resolved, user)})
        if focus_opt is not None and focus_opt["name"] not in given:
            out.append({"name": focus_opt["name"], "type": focus_opt["type"], "value": "", "focused": True})
        if focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise ValueError(f"/{command}: missing required options {missing}")
        return out

    @staticmethod
    def _command_data(cmd: dict, chain: list[dict], leaf_options: list[dict]) -> dict:
        options = leaf_options
        for node in reversed(chain):  # wrap: subcommand (type 1) inside group (type 2) inside command
            options = [{"name": node["name"], "type": node["type"], "options": options}]
        data = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    async def slash(self, command: str, user: dict, channel: dict | str, **options: Any) -> dict:
        """Run "/game new ..." as user in channel; returns the INTERACTION_CREATE payload sent."""
        chan = self._channel(_id(channel))
        cmd, chain, node = self._find_command(command, chan, user)
        resolved: dict = {}
        leaf = self._build_options(command, node, options, self._guild_id_of(chan), resolved, user)
        data = self._command_data(cmd, chain, leaf)
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(APPLICATION_COMMAND, user, chan, data)

    async def autocomplete(self, command: str, user: dict, channel: dict | str, focused: str,
                           **options: Any) -> list[dict]:
        """Type into option `focused` of a command; returns the choices the bot answered with."""
        chan = self._channel(_id(channel))
        cmd, chain, node = self._find_command(command, chan, user)
        # Discord sends no resolved data with autocomplete: discord.py then gives discord.Object.
        leaf = self._build_options(command, node, options, self._guild_id_of(chan), {}, user, focused=focused)
        payload = await self._send_interaction(AUTOCOMPLETE, user, chan, self._command_data(cmd, chain, leaf))
        record = await self.wait_response(payload)
        return record["data"]["choices"]

    def _live_message(self, message: dict | str) -> dict:
        mid = _id(message)
        if mid in self.messages:
            return self.messages[mid]
        if mid in self.deleted_messages:
            raise LookupError(f"message {mid} was deleted")
        raise LookupError(f"unknown message {mid}")

    def _any_message(self, message: dict | str) -> dict:
        mid = _id(message)
        found = self.messages.get(mid) or self.deleted_messages.get(mid)
        if found is None:
            raise LookupError(f"unknown message {mid}")
        return found

    def _component(self, message: dict, custom_id: str, user: dict) -> dict:
        if message.get("_visible_to") not in (None, user["id"]):
            raise PermissionError(f"message {message['id']} is ephemeral to someone else")
        comp = self.find_component(message, lambda c: c.get("custom_id") == custom_id)
        if comp is None:
            ids = [c["custom_id"] for c in self.components(message) if c.get("custom_id")]
            raise LookupError(f"no component {custom_id!r} on message {message['id']} (has {ids})")
        if comp.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return comp

    async def click(self, message: dict | str, custom_id: str, user: dict) -> dict:
        """Click a button on a message (its current state); returns the INTERACTION_CREATE payload."""
        msg = self._live_message(message)
        comp = self._component(msg, custom_id, user)
        if comp["type"] != BUTTON:
            raise TypeError(f"{custom_id!r} is not a button; use fake.select()")
        if comp.get("style") in (5, 6):
            raise ValueError(f"{custom_id!r} is a link/premium button: it sends no interaction")
        data = {"custom_id": custom_id, "component_type": BUTTON}
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg["channel_id"], data, message=msg)

    async def select(self, message: dict | str, custom_id: str, user: dict, values: list[Any]) -> dict:
        """Choose values in a select menu; returns the INTERACTION_CREATE payload sent."""
        msg = self._live_message(message)
        comp = self._component(msg, custom_id, user)
        ctype = comp["type"]
        if ctype not in SELECT_TYPES:
            raise TypeError(f"{custom_id!r} is not a select menu; use fake.click()")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        gid = self.channels[msg["channel_id"]].get("guild_id")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        resolved: dict = {}
        if ctype == STRING_SELECT:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad or len(set(values)) != len(values):
                raise ValueError(f"select {custom_id!r}: {values} not among its options {allowed}")
            data["values"] = list(values)
        else:
            ids = []
            for value in values:
                if ctype in (USER_SELECT, MENTIONABLE_SELECT) and _id(value) in self.users:
                    ids.append(self._resolve_user(self.users[_id(value)], gid, resolved))
                elif ctype == CHANNEL_SELECT:
                    ids.append(self._resolve_channel(value, gid, resolved, comp.get("channel_types"), user))
                elif ctype in (ROLE_SELECT, MENTIONABLE_SELECT):
                    role = self._as_role(value, gid)
                    resolved.setdefault("roles", {})[role["id"]] = role
                    ids.append(role["id"])
                else:
                    raise LookupError(f"unknown user {_id(value)}")
            data["values"], data["resolved"] = ids, resolved
        return await self._send_interaction(MESSAGE_COMPONENT, user, msg["channel_id"], data, message=msg)

    async def select_from_dm(self, message: dict | str, custom_id: str, user: dict, values: list[Any]) -> dict:
        """The same choice made on a copy of ``message``'s string menu that ``user`` got by DM:
        a DM interaction, which Discord sends to shard 0 whatever guild the game is in."""
        msg = self._live_message(message)
        comp = self._component(msg, custom_id, user)
        if comp["type"] != STRING_SELECT:
            raise TypeError(f"{custom_id!r} is not a string select menu")
        dm = self.open_dm(user)
        data = {"custom_id": custom_id, "component_type": comp["type"], "values": list(values)}
        return await self._send_interaction(MESSAGE_COMPONENT, user, dm["id"], data,
                                            message={**msg, "channel_id": dm["id"]})

    async def submit_modal(self, interaction: dict, values: dict[str, Any]) -> dict:
        """Fill in and submit the modal the bot answered `interaction` with ({custom_id: text})."""
        record = self.interaction_responses.get(interaction["id"])
        if record is None or record["type"] != 9:
            raise LookupError("the bot did not answer this interaction with a modal")
        modal, remaining = record["data"], dict(values)

        def answer(comp: dict) -> dict | None:
            cid = comp.get("custom_id")
            if comp.get("type") == TEXT_INPUT:
                text = remaining.pop(cid, comp.get("value") or "")
                if comp.get("required", True) and not text:
                    raise ValueError(f"modal field {cid!r} is required")
                if text and not comp.get("min_length", 0) <= len(text) <= comp.get("max_length", 4000):
                    raise ValueError(f"modal field {cid!r}: length {len(text)} out of range")
                return {"type": TEXT_INPUT, "custom_id": cid, "value": text}
            if comp.get("type") in SELECT_TYPES:
                return {"type": comp["type"], "custom_id": cid, "values": list(remaining.pop(cid, []))}
            return None

        components = []
        for comp in modal["components"]:
            if comp.get("type") == ACTION_ROW:
                kids = [a for a in (answer(c) for c in comp.get("components", [])) if a]
                components.append({"type": ACTION_ROW, "components": kids})
            elif comp.get("type") == LABEL and (inner := answer(comp.get("component") or {})):
                components.append({"type": LABEL, "component": inner})
        if remaining:
            raise LookupError(f"modal {modal['custom_id']!r} has no fields {sorted(remaining)}")
        user = self._user_of(interaction)
        message = interaction.get("message")
        data = {"custom_id": modal["custom_id"], "components": components}
        live = self.messages.get(message["id"]) if message else None
        return await self._send_interaction(MODAL_SUBMIT, user, interaction["channel_id"], data, message=live,
                                            opened_by=interaction["id"])

    async def delete_message(self, channel: dict | str, message: dict | str) -> None:
        """Delete a message as a moderator would; the bot then gets 10008 for it."""
        msg = self._get_message(_id(channel), _id(message))
        await self._delete(msg)

    async def delete_channel(self, channel: dict | str) -> None:
        """Delete a guild channel or thread as a moderator would."""
        await self._delete_channel(self._channel(_id(channel)))

    async def post_as(self, user: dict | str, channel: dict | str, content: str = "", **body: Any) -> dict:
        """``user`` posts a message in ``channel`` (e.g. chatter burying the board); returns it.

        Discord's checks for the user apply (a member with View Channel and Send Messages, or
        the DM's recipient) and the bot gets MESSAGE_CREATE if it can see the channel."""
        author, chan = self._as_user(user), self._channel(_id(channel))
        if chan["type"] == DM:
            if chan["recipients"][0]["id"] != author["id"]:
                raise PermissionError(f"{author['username']} is not in DM channel {chan['id']}")
        else:
            send = SEND_MESSAGES_IN_THREADS if chan["type"] in THREAD_TYPES else SEND_MESSAGES
            perms = self.channel_permissions(chan, author)
            if perms & (VIEW_CHANNEL | send) != VIEW_CHANNEL | send:
                raise PermissionError(f"{author['username']} cannot post in channel {chan['id']}")
        self._check_can_post(chan, by_bot=False)
        msg = self._create_message(chan["id"], {"content": content, **body}, [], author=author)
        await self._announce("MESSAGE_CREATE", msg)
        self._changed()
        return msg

    async def edit_as(self, user: dict | str, message: dict | str, content: str) -> dict:
        """``user`` edits their own message; the bot gets MESSAGE_UPDATE if it can see it."""
        msg = self._live_message(message)
        if msg["author"]["id"] != _id(user):
            raise PermissionError("users can only edit their own messages")
        self._edit_message(msg, {"content": content}, [])
        await self._announce("MESSAGE_UPDATE", msg)
        self._changed()
        return msg

    # ------------------------------------------------------------------ message events
    @property
    def intents(self) -> int:
        """The gateway intents the bot identified with (0 before it did)."""
        return int((self.identify or {}).get("intents") or 0)

    def _sees_messages(self, channel: dict) -> bool:
        """Whether the bot gets the message events of ``channel``: the intent for guild
        messages or DMs, and (in a guild) View Channel; a private thread also needs the bot
        to be in it or to hold Manage Threads."""
        if channel["type"] == DM:
            return bool(self.intents & DIRECT_MESSAGES_INTENT)
        if not self.intents & GUILD_MESSAGES_INTENT:
            return False
        if not self.strict.permissions:
            return True
        perms = self.channel_permissions(channel)
        if not perms & VIEW_CHANNEL:
            return False
        if channel["type"] == PRIVATE_THREAD:
            return self.bot_user["id"] in self.thread_members.get(channel["id"], []) or bool(perms & MANAGE_THREADS)
        return True

    def as_seen(self, msg: dict) -> dict:
        """A message as the bot receives it (gateway or REST): without the message content
        intent, another user's message has empty content, embeds, attachments and components
        unless it is in a DM with the bot or mentions it (the "Message Content Intent" docs)."""
        seen = public(msg)
        if self.intents & MESSAGE_CONTENT_INTENT or msg["author"]["id"] == self.bot_user["id"]:
            return seen
        channel = self.channels.get(msg["channel_id"])
        if (channel is not None and channel["type"] == DM) or any(
                u["id"] == self.bot_user["id"] for u in msg["mentions"]):
            return seen
        seen.update(content="", embeds=[], attachments=[], components=[])
        seen.pop("poll", None)
        return seen

    async def _announce(self, event: str, msg: dict) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE for ``msg``, if the bot may see it.
        Ephemeral messages have no events; a message from a webhook (interaction responses)
        carries no ``member``."""
        channel = self.channels.get(msg["channel_id"])
        if msg["flags"] & EPHEMERAL or channel is None or not self._sees_messages(channel):
            return
        if event == "MESSAGE_DELETE":
            data = {"id": msg["id"], "channel_id": msg["channel_id"]}
            if msg.get("guild_id"):
                data["guild_id"] = msg["guild_id"]
        else:
            data = self.as_seen(msg)
            gid = msg.get("guild_id")
            member = self.guild_members.get(gid or "", {}).get(msg["author"]["id"])
            if member is not None and not msg.get("webhook_id"):
                data["member"] = {k: v for k, v in member.items() if k != "user"}
            if event == "MESSAGE_UPDATE":
                data["tts"] = False  # "The value for tts will always be false in message updates."
        await self._dispatch_if_connected(event, data)

    # ------------------------------------------------------------------ storage
    def _channel(self, cid: str) -> dict:
        channel = self.channels.get(cid)
        if channel is None:
            raise unknown("Channel", 10003)
        return channel

    def _get_message(self, cid: str, mid: str) -> dict:
        msg = self.messages.get(mid)
        if msg is None or msg["channel_id"] != cid:
            raise unknown("Message", 10008)
        return msg

    def _user_of(self, interaction: dict) -> dict:
        return (interaction.get("member") or interaction)["user"]

    def _attachments(self, cid: str, spec: list[dict] | None, files: list[dict],
                     keep: list[dict], keep_files: list[dict]) -> tuple[list[dict], list[dict]]:
        """Final attachments of a message: listed existing ones are kept, index ids refer to uploads."""
        by_index = {f["index"]: f for f in files}
        if spec is None:
            spec = keep + [{"id": f["index"]} for f in files]
        attachments, stored = [], []
        existing = {a["id"]: (a, d) for a, d in zip(keep, keep_files, strict=True)}
        for i, entry in enumerate(spec):
            key = str(entry.get("id"))
            if key in existing:
                attachments.append(existing[key][0])
                stored.append(existing[key][1])
                continue
            upload = by_index.get(int(key)) if key.isdigit() else None
            if upload is None:
                raise invalid_form(f"attachments.{i}.id", f"Unknown attachment {key}")
            aid = snowflake()
            filename = entry.get("filename") or upload["filename"]
            ctype = mimetypes.guess_type(filename)[0] or upload["content_type"]
            attachment = {"id": aid, "filename": filename, "size": len(upload["data"]),
                          "url": f"https://cdn.discordapp.com/attachments/{cid}/{aid}/{filename}",
                          "proxy_url": f"https://media.discordapp.net/attachments/{cid}/{aid}/{filename}",
                          "content_type": ctype}
            if entry.get("description"):
                attachment["description"] = entry["description"]
            if size := _image_size(upload["data"]):
                attachment["width"], attachment["height"] = size
            attachments.append(attachment)
            stored.append({"id": aid, "filename": filename, "content_type": ctype, "data": upload["data"]})
        return attachments, stored

    def _mentions(self, content: str) -> list[dict]:
        return [self.users[uid] for uid in dict.fromkeys(MENTION.findall(content)) if uid in self.users]

    def _check_can_post(self, channel: dict, *, by_bot: bool = True) -> None:
        if by_bot and channel["type"] == DM and not self.settings(channel["recipients"][0]).dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        meta = channel.get("thread_metadata")
        if meta and meta["archived"]:
            if meta.get("locked"):
                raise DiscordError(400, 50083, "Thread is archived")
            meta["archived"] = False  # Discord unarchives an unlocked thread when someone posts

    def _create_message(self, channel_id: str, body: dict, files: list[dict], *, author: dict | None = None,
                        **extra: Any) -> dict:
        channel = self._channel(channel_id)
        _validate_message(body)
        if not (body.get("content") or body.get("embeds") or body.get("components") or files
                or body.get("sticker_ids") or body.get("poll")):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        attachments, stored = self._attachments(channel_id, body.get("attachments"), files, [], [])
        content = body.get("content") or ""
        msg = {"id": snowflake(), "channel_id": channel_id, "author": author or self.bot_user,
               "content": content, "embeds": stored_embeds(body.get("embeds")),
               "components": stored_components(body.get("components")),
               "attachments": attachments, "mentions": self._mentions(content), "mention_roles": [],
               "mention_everyone": False, "pinned": False, "tts": bool(body.get("tts")), "timestamp": now_iso(),
               "edited_timestamp": None, "type": 0, "flags": body.get("flags") or 0, "_files": stored,
               "_born": self.clock.now()}
        if body.get("allowed_mentions") is not None:
            msg["_allowed_mentions"] = body["allowed_mentions"]
        msg["_pinged"] = self._pings(content, body.get("allowed_mentions"))
        if ref := body.get("message_reference"):
            target = self.messages.get(str(ref.get("message_id")))
            if target is None and ref.get("fail_if_not_exists", True):
                raise invalid_form("message_reference", "Unknown message", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE")
            msg.update(type=19, message_reference=ref, referenced_message=public(target) if target else None)
        if channel.get("guild_id"):
            msg["guild_id"] = channel["guild_id"]
        msg.update(extra)
        self.messages[msg["id"]] = msg
        channel["last_message_id"] = msg["id"]
        if "thread_metadata" in channel:
            channel["message_count"] += 1
            channel["total_message_sent"] += 1
        return msg

    def _edit_message(self, msg: dict, body: dict, files: list[dict]) -> dict:
        _validate_message({**body, "flags": (body.get("flags") or 0) | (msg["flags"] & IS_COMPONENTS_V2)})
        # Build the new state first: a refused edit must leave the message untouched.
        new: dict[str, Any] = {}
        if "content" in body:
            new["content"] = body["content"] or ""
        if "embeds" in body:
            new["embeds"] = stored_embeds(body["embeds"])
        if "components" in body:
            new["components"] = stored_components(body["components"])
        if "attachments" in body or files:
            new["attachments"], new["_files"] = self._attachments(
                msg["channel_id"], body.get("attachments"), files, msg["attachments"], msg["_files"])
        merged = {**msg, **new}
        if not (merged["content"] or merged["embeds"] or merged["components"] or merged["attachments"]):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        msg.update(new)
        if body.get("allowed_mentions") is not None:
            msg["_allowed_mentions"] = body["allowed_mentions"]
        flags = body.get("flags")
        if flags is not None:  # only these can change after sending
            changeable = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
            msg["flags"] = (msg["flags"] & ~changeable) | (flags & changeable)
        if msg["flags"] & LOADING:
            msg["flags"] &= ~LOADING  # the deferred "is thinking..." message becomes the answer
        else:
            msg["edited_timestamp"] = now_iso()
        msg["mentions"] = self._mentions(msg["content"])
        return msg

    async def _delete(self, msg: dict) -> None:
        del self.messages[msg["id"]]
        self.deleted_messages[msg["id"]] = msg
        await self._announce("MESSAGE_DELETE", msg)
        self._changed()

    async def _delete_channel(self, channel: dict) -> dict:
        del self.channels[channel["id"]]
        gid = channel.get("guild_id")
        if channel["type"] in THREAD_TYPES:
            self.guilds[gid]["threads"].remove(channel)
            await self._dispatch_if_connected("THREAD_DELETE", {
                "id": channel["id"], "guild_id": gid, "parent_id": channel["parent_id"], "type": channel["type"]})
        else:
            self.guilds[gid]["channels"].remove(channel)
            await self._dispatch_if_connected("CHANNEL_DELETE", channel)
        self._changed()
        return channel

    # ------------------------------------------------------------------ REST plumbing
    async def _read_body(self, request: web.Request) -> tuple[Any, list[dict]]:
        if request.content_type == "application/json":
            return await request.json(), []
        if request.content_type.startswith("multipart/"):
            # discord.py sends payload_json plus one files[n] part per upload.
            body: Any = {}
            files: list[dict] = []
            async for part in await request.multipart():
                raw = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    body = json.loads(raw)
                elif (m := re.fullmatch(r"files\[(\d+)\]", part.name or "")) is not None:
                    files.append({"index": int(m.group(1)), "filename": part.filename, "data": bytes(raw),
                                  "content_type": part.headers.get("Content-Type", "application/octet-stream")})
            return body, files
        return None, []

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await self._read_body(request)
        rec = Recorded(request.method, path, body, dict(request.query), [f["filename"] for f in files])
        self.requests.append(rec)
        status: int
        payload: Any
        headers: dict[str, str] = {}
        limited = self._rate_limit(request.method, path)
        if limited is not None:
            payload, headers = limited
            rec.status = 429
            self.errors.append(rec)
            self._changed()
            return web.Response(body=json.dumps(payload).encode(), status=429,
                                headers={"Content-Type": "application/json", **headers})
        bucket = self._bucket_for(request.method, path)
        if bucket is not None:
            headers = bucket.headers(self.clock.now(), self.clock.wall())
        try:
            handler, params = self._match(request.method, path)
            if handler is None:
                self.unhandled.append(rec)
                raise DiscordError(404, 0, f"fake discord: no route {request.method} {path}")
            if any(len(f["data"]) > ATTACHMENT_SIZE_LIMIT for f in files):
                raise DiscordError(413, 40005, "Request entity too large")
            status, payload = await handler(_Request(request.method, params, body if body is not None else {}, files,
                                                     dict(request.query)))
        except DiscordError as exc:
            status, payload = exc.status, exc.payload()
            rec.code = exc.code
        rec.status = status
        if status >= 400:
            self.errors.append(rec)
        self._changed()
        if status == 204:
            return web.Response(status=204, headers=headers)
        rec.answer = json.dumps(payload)
        # discord.py only parses JSON when Content-Type is exactly application/json (no charset).
        return web.Response(body=rec.answer.encode(), status=status,
                            headers={"Content-Type": "application/json", **headers})

    _BUCKETED = (
        ("POST", re.compile(r"/channels/(\d+)/messages"), "message-create"),
        ("PATCH", re.compile(r"/channels/(\d+)/messages/\d+"), "message-edit"),
        ("DELETE", re.compile(r"/channels/(\d+)/messages/\d+"), "message-delete"),
        ("POST", re.compile(r"/channels/(\d+)(?:/messages/\d+)?/threads"), "thread-create"),
    )

    def _bucket_for(self, method: str, path: str) -> Any:
        """The per-route bucket of a request (per channel), or None for routes without one."""
        for route_method, pattern, kind in self._BUCKETED:
            if route_method == method and (m := pattern.fullmatch(path)):
                on = self.strict.edit_limit if kind == "message-edit" else self.strict.rate_limits
                return self.limiter.route_bucket(kind, m.group(1)) if on else None
        return None

    def _rate_limit(self, method: str, path: str) -> tuple[dict, dict] | None:
        """A 429 (body, headers) when this request is over a limit, else None (and counted).
        Interaction endpoints are bound neither by the global limit nor by these buckets."""
        if path.startswith(("/interactions/", "/webhooks/")):
            return None
        if self.strict.rate_limits:
            wait = self.limiter.take_global()
            if wait is not None:
                return too_many(wait, is_global=True)
        bucket = self._bucket_for(method, path)
        if bucket is not None and not bucket.take(self.clock.now()):
            now = self.clock.now()
            return too_many(max(bucket.reset_at - now, 0.001), is_global=False,
                            headers=bucket.headers(now, self.clock.wall()))
        return None

    @property
    def rate_limited(self) -> list[Recorded]:
        """Requests answered 429 (the bot should retry them; discord.py does)."""
        return [r for r in self.errors if r.status == 429]

    def _match(self, method: str, path: str) -> tuple[Callable[[_Request], Awaitable[tuple[int, Any]]] | None,
                                                      tuple[str, ...]]:
        for route_method, pattern, handler in self._routes:
            if route_method == method and (m := pattern.fullmatch(path)):
                return handler, m.groups()
        return None, ()

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Callable[[_Request], Awaitable[tuple[int, Any]]]]]:
        app, wh = r"/applications/(\d+)(?:/guilds/(\d+))?/commands", r"/webhooks/(\d+)/([^/]+)"
        table = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/(\d+)", self._get_user),
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/gateway(?:/bot)?", self._get_gateway),
            ("PUT", app, self._put_commands),
            ("GET", app, self._get_commands),
            ("POST", r"/users/@me/channels", self._open_dm),
            ("GET", r"/guilds/(\d+)", self._get_guild),
            ("GET", r"/guilds/(\d+)/channels", self._get_guild_channels),
            ("POST", r"/guilds/(\d+)/channels", self._create_channel),
            ("GET", r"/guilds/(\d+)/members/(\d+)", self._get_member),
            ("GET", r"/channels/(\d+)", self._get_channel),
            ("PATCH", r"/channels/(\d+)", self._edit_channel),
            ("DELETE", r"/channels/(\d+)", self._delete_channel_route),
            ("GET", r"/channels/(\d+)/messages", self._get_messages),
            ("POST", r"/channels/(\d+)/messages", self._post_message),
            ("GET", r"/channels/(\d+)/messages/(\d+)", self._get_message_route),
            ("PATCH", r"/channels/(\d+)/messages/(\d+)", self._patch_message),
            ("DELETE", r"/channels/(\d+)/messages/(\d+)", self._delete_message_route),
            ("POST", r"/channels/(\d+)/typing", self._typing),
            ("PUT", r"/channels/(\d+)/messages/pins/(\d+)", self._pin),
            ("DELETE", r"/channels/(\d+)/messages/pins/(\d+)", self._pin),
            ("POST", r"/channels/(\d+)/threads", self._create_thread),
            ("POST", r"/channels/(\d+)/messages/(\d+)/threads", self._create_thread),
            ("PUT", r"/channels/(\d+)/thread-members/(\d+|@me)", self._add_thread_member),
            ("DELETE", r"/channels/(\d+)/thread-members/(\d+|@me)", self._remove_thread_member),
            ("POST", r"/interactions/(\d+)/([^/]+)/callback", self._interaction_callback),
            ("POST", wh, self._followup),
            ("GET", wh + r"/messages/(@original|\d+)", self._get_webhook_message),
            ("PATCH", wh + r"/messages/(@original|\d+)", self._patch_webhook_message),
            ("DELETE", wh + r"/messages/(@original|\d+)", self._delete_webhook_message),
        ]
        return [(method, re.compile(pattern), handler) for method, pattern, handler in table]

    # ------------------------------------------------------------------ REST handlers
    async def _get_me(self, req: _Request) -> tuple[int, Any]:
        return 200, self.current_user()

    async def _get_user(self, req: _Request) -> tuple[int, Any]:
        if req.params[0] not in self.users:
            raise unknown("User", 10013)
        return 200, self.users[req.params[0]]

    async def _get_application(self, req: _Request) -> tuple[int, Any]:
        return 200, {"id": self.app_id, "name": self.bot_user["username"], "icon": None, "description": "",
                     "type": None, "bot_public": True, "bot_require_code_grant": False, "owner": self.app_owner,
                     "verify_key": "0" * 64, "flags": 0, "flags_new": "0", "team": None, "bot": self.bot_user,
                     "redirect_uris": [], "interactions_endpoint_url": None,
                     "role_connections_verification_url": None, "approximate_guild_count": len(self.guilds),
                     "approximate_user_install_count": 0, "approximate_user_authorization_count": 0,
                     "explicit_content_filter": 0, "eligible_oauth2_scopes": [], "tags": []}

    async def _get_gateway(self, req: _Request) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}

    async def _put_commands(self, req: _Request) -> tuple[int, Any]:
        app_id, gid = req.params
        if app_id != self.app_id:
            raise unknown("Application", 10002)
        if gid is not None and gid not in self.guilds:
            raise unknown("Guild", 10004)
        _validate_commands(req.body)
        for key in [k for k in self.commands if k[0] == gid]:
            del self.commands[key]
        out = []
        for cmd in req.body:
            stored = {**cmd, "id": snowflake(), "application_id": self.app_id, "version": snowflake()}
            if stored.get("integration_types") is None:  # Discord fills in its default: guild install
                stored["integration_types"] = [0]
            if stored.get("default_member_permissions") is not None:  # Discord answers with a string
                stored["default_member_permissions"] = str(stored["default_member_permissions"])
            if gid:
                stored["guild_id"] = gid
            self.commands[(gid, cmd["name"])] = stored
            out.append(stored)
        return 200, out

    async def _get_commands(self, req: _Request) -> tuple[int, Any]:
        return 200, self.synced_commands(req.params[1])

    async def _open_dm(self, req: _Request) -> tuple[int, Any]:
        uid = str(req.body.get("recipient_id"))
        if uid not in self.users:
            raise unknown("User", 10013)
        return 200, self._dm_channel(uid, create=True)

    async def _get_guild(self, req: _Request) -> tuple[int, Any]:
        guild = self.guilds.get(req.params[0])
        if guild is None:
            raise unknown("Guild", 10004)
        return 200, {k: v for k, v in guild.items() if k not in GATEWAY_GUILD_FIELDS}

    async def _get_guild_channels(self, req: _Request) -> tuple[int, Any]:
        if req.params[0] not in self.guilds:
            raise unknown("Guild", 10004)
        return 200, self.guilds[req.params[0]]["channels"]

    async def _create_channel(self, req: _Request) -> tuple[int, Any]:
        gid = req.params[0]
        if gid not in self.guilds:
            raise unknown("Guild", 10004)
        _check_len(req.body.get("name"), 100, "name", minimum=1)
        channel = self.add_channel(gid, req.body["name"], type=req.body.get("type") or GUILD_TEXT,
                                   parent_id=req.body.get("parent_id"))
        for key in ("topic", "permission_overwrites", "nsfw", "position", "rate_limit_per_user"):
            if req.body.get(key) is not None:
                channel[key] = req.body[key]
        await self._dispatch_if_connected("CHANNEL_CREATE", channel)
        return 201, channel

    async def _get_member(self, req: _Request) -> tuple[int, Any]:
        gid, uid = req.params
        if gid not in self.guilds:
            raise unknown("Guild", 10004)
        member = self.guild_members[gid].get(uid)
        if member is None:
            raise unknown("Member", 10007)
        return 200, member

    async def _get_channel(self, req: _Request) -> tuple[int, Any]:
        return 200, self._channel(req.params[0])

    async def _edit_channel(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        body = req.body
        if "thread_metadata" in channel and (body.get("archived") or "locked" in body):
            # Discord: only unarchiving an unlocked thread goes without Manage Threads.
            self._require(channel, MANAGE_THREADS)
        if "name" in body:
            _check_len(body["name"], 100, "name", minimum=1)
            channel["name"] = body["name"]
        for key in ("topic", "rate_limit_per_user", "nsfw", "position", "parent_id"):
            if key in body and key in channel:
                channel[key] = body[key]
        meta = channel.get("thread_metadata")
        if meta is not None:
            for key in ("archived", "locked", "auto_archive_duration", "invitable"):
                if key in body:
                    meta[key] = body[key]
            if "archived" in body:
                meta["archive_timestamp"] = now_iso()
            await self._dispatch_if_connected("THREAD_UPDATE", channel)
        elif channel["type"] != DM:
            await self._dispatch_if_connected("CHANNEL_UPDATE", channel)
        return 200, channel

    async def _delete_channel_route(self, req: _Request) -> tuple[int, Any]:
        return 200, await self._delete_channel(self._channel(req.params[0]))

    async def _get_messages(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        self._require(channel)
        if self.strict.permissions and not self.channel_permissions(channel) & READ_MESSAGE_HISTORY:
            return 200, []  # Discord answers an empty history rather than an error
        messages = [self.as_seen(m) for m in self.channel_messages(req.params[0])]
        if "before" in req.query:
            messages = [m for m in messages if int(m["id"]) < int(req.query["before"])]
        if "after" in req.query:
            messages = [m for m in messages if int(m["id"]) > int(req.query["after"])]
        limit = int(req.query.get("limit", 50))
        return 200, list(reversed(messages))[:limit]  # newest first, as Discord answers

    async def _post_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        needed = [SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES]
        if req.body.get("embeds"):
            needed.append(EMBED_LINKS)
        if req.files:
            needed.append(ATTACH_FILES)
        if req.body.get("message_reference"):
            needed.append(READ_MESSAGE_HISTORY)
        self._require(channel, *needed)
        self._check_can_post(channel)
        nonce = req.body.get("nonce")
        if nonce is not None:
            if len(str(nonce)) > 25:
                raise invalid_form("nonce", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
            seen = self._nonces.get(str(nonce))
            if (req.body.get("enforce_nonce") and seen is not None and seen[0] in self.messages
                    and self.clock.now() - seen[1] < NONCE_WINDOW):
                # Discord answers with the message already created with this nonce, and
                # creates none (enforce_nonce: the nonce is unique for a few minutes).
                self.nonce_repeats += 1
                return 200, {**public(self.messages[seen[0]]), "nonce": nonce}
        msg = self._create_message(channel["id"], req.body, req.files)
        await self._announce("MESSAGE_CREATE", msg)
        if nonce is not None:
            self._nonces[str(nonce)] = (msg["id"], self.clock.now())
            return 200, {**public(msg), "nonce": nonce}
        return 200, public(msg)

    async def _get_message_route(self, req: _Request) -> tuple[int, Any]:
        self._require(self._channel(req.params[0]), READ_MESSAGE_HISTORY)
        msg = self._get_message(*req.params)
        if msg["flags"] & EPHEMERAL:  # ephemeral messages cannot be fetched from the channel
            raise unknown("Message", 10008)
        return 200, self.as_seen(msg)

    async def _patch_message(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        needed = ([EMBED_LINKS] if req.body.get("embeds") else []) + ([ATTACH_FILES] if req.files else [])
        self._require(channel, *needed)
        msg = self._get_message(*req.params)
        if msg["flags"] & EPHEMERAL:
            raise unknown("Message", 10008)
        if self.strict.old_edits and self.clock.now() - msg.get("_born", self.clock.now()) > OLD_MESSAGE:
            raise DiscordError(400, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                           "Try again later")
        self._edit_message(msg, req.body, req.files)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, public(msg)

    async def _delete_message_route(self, req: _Request) -> tuple[int, Any]:
        self._require(self._channel(req.params[0]))
        msg = self._get_message(*req.params)
        if msg["flags"] & EPHEMERAL:
            raise unknown("Message", 10008)
        await self._delete(msg)
        return 204, None

    async def _typing(self, req: _Request) -> tuple[int, Any]:
        channel = self._channel(req.params[0])
        self._require(channel, SEND_MESSAGES_IN_THREADS if channel["type"] in THREAD_TYPES else SEND_MESSAGES)
        self.typing.append(req.params[0])
        return 204, None

    async def _pin(self, req: _Request) -> tuple[int, Any]:
        # Both PUT (pin) and DELETE (unpin) land here; the recorded method tells them apart.
        msg = self._get_message(*req.params)
        msg["pinned"] = req.method == "PUT"
        return 204, None

    async def _create_thread(self, req: _Request) -> tuple[int, Any]:
        parent = self._channel(req.params[0])
        if parent["type"] != GUILD_TEXT:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        _check_len(req.body.get("name"), 100, "name", minimum=1)
        from_message = len(req.params) > 1
        private = not from_message and (req.body.get("type") or PRIVATE_THREAD) == PRIVATE_THREAD
        self._require(parent, CREATE_PRIVATE_THREADS if private else CREATE_PUBLIC_THREADS)
        if from_message:
            msg = self._get_message(parent["id"], req.params[1])
            if msg.get("thread"):
                raise DiscordError(400, 160004, "A thread has already been created for this message")
            tid, ttype = msg["id"], PUBLIC_THREAD  # Discord reuses the message id
        else:
            tid, ttype = snowflake(), req.body.get("type") or PRIVATE_THREAD
        created = now_iso()
        thread = {
            "id": tid, "guild_id": parent["guild_id"], "parent_id": parent["id"], "owner_id": self.bot_user["id"],
            "name": req.body["name"], "type": ttype, "last_message_id": None, "message_count": 0,
            "member_count": 1, "total_message_sent": 0, "rate_limit_per_user": req.body.get("rate_limit_per_user")
            or 0, "flags": 0, "applied_tags": [],
            "thread_metadata": {"archived": False, "auto_archive_duration": req.body.get("auto_archive_duration")
                                or 4320, "archive_timestamp": created, "locked": False, "create_timestamp": created},
        }
        if ttype == PRIVATE_THREAD:
            thread["thread_metadata"]["invitable"] = req.body.get("invitable", True)
        self.channels[tid] = thread
        self.guilds[parent["guild_id"]]["threads"].append(thread)
        self.thread_members[tid] = [self.bot_user["id"]]
        if from_message:
            msg["thread"] = thread
            msg["flags"] |= HAS_THREAD
        # Dispatched before the HTTP answer so discord.py has the thread cached when its call returns.
        member = {"id": tid, "user_id": self.bot_user["id"], "join_timestamp": created, "flags": 0}
        await self._dispatch_if_connected("THREAD_CREATE", {**thread, "newly_created": True, "member": member})
        return 201, thread

    async def _add_thread_member(self, req: _Request) -> tuple[int, Any]:
        thread = self._channel(req.params[0])
        uid = self.bot_user["id"] if req.params[1] == "@me" else req.params[1]
        if "thread_metadata" not in thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        self._require(thread, SEND_MESSAGES_IN_THREADS)
        if uid not in self.guild_members[thread["guild_id"]]:
            raise unknown("Member", 10007)
        if uid not in self.thread_members[thread["id"]]:
            self.thread_members[thread["id"]].append(uid)
            thread["member_count"] = len(self.thread_members[thread["id"]])
        return 204, None

    async def _remove_thread_member(self, req: _Request) -> tuple[int, Any]:
        thread = self._channel(req.params[0])
        uid = self.bot_user["id"] if req.params[1] == "@me" else req.params[1]
        members = self.thread_members.get(thread["id"], [])
        if uid in members:
            members.remove(uid)
            thread["member_count"] = len(members)
        return 204, None

    # ------------------------------------------------------------------ interactions over REST
    def _interaction_for(self, app_id: str, token: str) -> dict:
        iid = self._tokens.get(token)
        if app_id != self.app_id or iid is None:
            raise unknown("Webhook", 10015)
        if self.strict.token_expiry and self.clock.now() - self._interaction_started[iid] > TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return self.interactions[iid]

    async def _interaction_callback(self, req: _Request) -> tuple[int, Any]:
        iid, token = req.params
        inter = self.interactions.get(iid)
        if inter is None or inter["token"] != token:
            raise unknown("interaction", 10062)
        try:
            answer = self._respond(inter, req.body, req.files)
        except DiscordError as exc:
            if iid not in self.interaction_responses:
                self.rejected_callbacks[iid] = exc
            raise
        record = self.interaction_responses[iid]
        if record["message_id"] is not None and record["type"] in (4, 5, 7):
            event = "MESSAGE_UPDATE" if record["type"] == 7 else "MESSAGE_CREATE"
            await self._announce(event, self.messages[record["message_id"]])
        return 200, answer

    def _respond(self, inter: dict, body: dict, files: list[dict]) -> dict:
        iid = inter["id"]
        if iid in self.interaction_responses:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        late = self.clock.now() - self._interaction_started[iid] > self.response_deadline
        if late and self.strict.response_deadline:
            raise unknown("interaction", 10062)  # too late: Discord already told the user it failed
        rtype, data = body.get("type"), dict(body.get("data") or {})
        on_message = "message" in inter  # components, and modals opened from a component
        allowed = {APPLICATION_COMMAND: {4, 5, 9}, MESSAGE_COMPONENT: {4, 5, 6, 7, 9}, AUTOCOMPLETE: {8},
                   MODAL_SUBMIT: {4, 5, 6, 7} if on_message else {4, 5, 6}}[inter["type"]]
        if rtype not in allowed:
            raise invalid_form("type", f"Response type {rtype} is not valid for interaction type {inter['type']}.")
        user = self._user_of(inter)
        record: dict[str, Any] = {"type": rtype, "data": data, "at": time.perf_counter(), "message_id": None,
                                  "interaction_id": iid, "files": [f["filename"] for f in files]}
        resource: dict[str, Any] = {"type": rtype}
        if rtype in (4, 5):  # (deferred) channel message with source
            flags = (data.get("flags") or 0) | (LOADING if rtype == 5 else 0)
            meta = self._interaction_metadata(inter)
            body_for_message = {**data, "flags": flags}
            if rtype == 5:
                channel = self._channel(inter["channel_id"])
                _validate_message(body_for_message)
                msg = self._new_loading_message(channel, flags)
            else:
                msg = self._create_message(inter["channel_id"], body_for_message, files)
            msg.update(webhook_id=self.app_id, interaction_metadata=meta, _interaction=iid,
                       type=20 if inter["type"] == APPLICATION_COMMAND else 19)
            if flags & EPHEMERAL:
                msg["_visible_to"] = user["id"]
            record["message_id"] = msg["id"]
            if rtype == 4:
                resource["message"] = public(msg)
        elif rtype == 6 and not on_message:
            pass  # a modal opened by a slash command: plain acknowledgement, nothing to update
        elif rtype in (6, 7):  # (deferred) update of the message the component is on
            msg = self._live_message(inter["message"]["id"])
            if rtype == 7:
                self._edit_message(msg, data, files)
                resource["message"] = public(msg)
            record["message_id"] = msg["id"]
        elif rtype == 8:
            _validate_choices(data.get("choices") or [], "data.choices")
        elif rtype == 9:
            _validate_modal(data)
        self.interaction_responses[iid] = record
        answer: dict[str, Any] = {"interaction": {"id": iid, "type": inter["type"]}}
        if rtype in (4, 5):
            answer["interaction"].update(response_message_id=record["message_id"], response_message_loading=rtype == 5,
                                         response_message_ephemeral=bool((data.get("flags") or 0) & EPHEMERAL))
        if "message" in resource:  # only a message sent (4) or updated (7) is a resource
            answer["resource"] = resource
        return answer

    def _interaction_metadata(self, inter: dict) -> dict:
        """A response message's ``interaction_metadata``: who did what, and on which message
        (components) or after which interaction (modal submissions)."""
        meta = {"id": inter["id"], "type": inter["type"], "user": self._user_of(inter),
                "authorizing_integration_owners": inter["authorizing_integration_owners"]}
        if inter["type"] == MESSAGE_COMPONENT:
            meta["interacted_message_id"] = inter["message"]["id"]
        elif inter["type"] == MODAL_SUBMIT:
            opener = self.interactions[self._modal_openers[inter["id"]]]
            meta["triggering_interaction_metadata"] = self._interaction_metadata(opener)
        return meta

    def _new_loading_message(self, channel: dict, flags: int) -> dict:
        # "Bot is thinking...": an empty message Discord fills in with the first edit or followup.
        msg = {"id": snowflake(), "channel_id": channel["id"], "author": self.bot_user, "content": "",
               "embeds": [], "components": [], "attachments": [], "mentions": [], "mention_roles": [],
               "mention_everyone": False, "pinned": False, "tts": False, "timestamp": now_iso(),
               "edited_timestamp": None, "type": 20, "flags": flags, "_files": [],
               "_born": self.clock.now()}
        if channel.get("guild_id"):
            msg["guild_id"] = channel["guild_id"]
        self.messages[msg["id"]] = msg
        return msg

    def _webhook_target(self, inter: dict, which: str) -> dict:
        if which != "@original":
            msg = self.messages.get(which)
            if msg is None:
                raise unknown("Message", 10008)
            return msg
        record = self.interaction_responses.get(inter["id"])
        if record is None or record["message_id"] is None:
            raise unknown("Message", 10008)
        msg = self.messages.get(record["message_id"])
        if msg is None:
            raise unknown("Message", 10008)
        return msg

    async def _followup(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(*req.params)
        record = self.interaction_responses.get(inter["id"])
        if record is None:  # followups only exist once the interaction was acknowledged
            raise unknown("Webhook", 10015)
        loading = self.messages.get(record["message_id"] or "")
        if record["type"] == 5 and loading is not None and loading["flags"] & LOADING:
            # The first followup after a "thinking" defer replaces the loading message and keeps
            # the defer's ephemeral flag; later followups are independent messages.
            msg = self._edit_message(loading, {k: v for k, v in req.body.items() if k != "flags"}, req.files)
            await self._announce("MESSAGE_UPDATE", msg)
        else:
            user = self._user_of(inter)
            msg = self._create_message(inter["channel_id"], req.body, req.files, webhook_id=self.app_id,
                                       _followup_of=inter["id"])
            if msg["flags"] & EPHEMERAL:
                msg["_visible_to"] = user["id"]
            await self._announce("MESSAGE_CREATE", msg)
        if req.query.get("wait", "").lower() not in ("true", "1"):
            return 204, None
        return 200, public(msg)

    async def _get_webhook_message(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(req.params[0], req.params[1])
        return 200, public(self._webhook_target(inter, req.params[2]))

    async def _patch_webhook_message(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(req.params[0], req.params[1])
        msg = self._webhook_target(inter, req.params[2])
        self._edit_message(msg, req.body, req.files)
        await self._announce("MESSAGE_UPDATE", msg)
        return 200, public(msg)

    async def _delete_webhook_message(self, req: _Request) -> tuple[int, Any]:
        inter = self._interaction_for(req.params[0], req.params[1])
        await self._delete(self._webhook_target(inter, req.params[2]))
        return 204, None
