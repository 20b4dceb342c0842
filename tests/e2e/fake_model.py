"""Discord's vocabulary for the fake server: API paths, permission bits, flags, channel,
interaction and component types, limits, ids (snowflakes), error answers and the records
the fake keeps of requests and users."""

from __future__ import annotations

import itertools
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

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
GROUP_DM = 3
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
