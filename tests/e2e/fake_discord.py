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

The fake is one class assembled from mixins, each in a module named for what it holds:
fake_model (constants, ids, errors, records), fake_validation (payloads Discord refuses),
fake_world (users, guilds, channels, permissions), fake_reading (what tests read and wait
for), fake_gateway (websocket, sharding, dispatch), fake_actions (users' slash commands,
clicks, selects, modals, posts), fake_messages (message storage and events), fake_rest
(request plumbing, routes, rate limits), fake_routes (REST handlers by resource) and
fake_interactions (interaction callbacks, followups, webhook messages). The names tests
import from here (FakeDiscord, EPHEMERAL, SEND_MESSAGES, ...) are all re-exported.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import yarl
from aiohttp import web

from .fake_actions import ActionsMixin
from .fake_gateway import GatewayMixin
from .fake_interactions import InteractionsMixin
from .fake_limits import OLD_MESSAGE, TOKEN_LIFETIME, FakeClock, RateLimiter, Strictness, too_many
from .fake_messages import MessagesMixin
from .fake_model import (
    ACTION_ROW,
    ADD_REACTIONS,
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    API_PREFIX,
    APPLICATION_COMMAND,
    ATTACH_FILES,
    ATTACHMENT_SIZE_LIMIT,
    AUTOCOMPLETE,
    BAN_MEMBERS,
    BOT_PERMISSIONS,
    BUTTON,
    CHANGE_NICKNAME,
    CHANNEL_SELECT,
    COMMAND_NAME,
    CONNECT,
    CREATE_INSTANT_INVITE,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_PERMISSIONS,
    DIRECT_MESSAGES_INTENT,
    DISCORD_LOCALES,
    DM,
    EMBED_LINKS,
    EPHEMERAL,
    GATEWAY_GUILD_FIELDS,
    GATEWAY_PATH,
    GUILD_CATEGORY,
    GUILD_MESSAGES_INTENT,
    GUILD_TEXT,
    HAS_THREAD,
    IS_COMPONENTS_V2,
    KICK_MEMBERS,
    LABEL,
    LOADING,
    MANAGE_CHANNELS,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    MANAGE_ROLES,
    MANAGE_THREADS,
    MENTION,
    MENTION_EVERYONE,
    MENTIONABLE_SELECT,
    MESSAGE_COMPONENT,
    MESSAGE_CONTENT_INTENT,
    MODAL_SUBMIT,
    NONCE_WINDOW,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    ROLE_LOOK,
    ROLE_SELECT,
    SELECT_TYPES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    SPEAK,
    STRING_SELECT,
    SUPPRESS_EMBEDS,
    TEXT_INPUT,
    THREAD_TYPES,
    USE_APPLICATION_COMMANDS,
    USE_EXTERNAL_EMOJIS,
    USER_SELECT,
    VIEW_CHANNEL,
    DiscordError,
    Recorded,
    UserSettings,
    invalid_form,
    now_iso,
    public,
    snowflake,
    unknown,
)
from .fake_reading import ReadingMixin
from .fake_rest import Hold, RestMixin
from .fake_routes import RoutesMixin
from .fake_validation import stored_components, stored_embeds, walk_components
from .fake_world import WorldMixin

# Everything tests and benchmarks import from this module, as when it held it all.
__all__ = [
    "ACTION_ROW", "ADD_REACTIONS", "ADMINISTRATOR", "ALL_PERMISSIONS", "API_PREFIX",
    "APPLICATION_COMMAND", "ATTACHMENT_SIZE_LIMIT", "ATTACH_FILES", "AUTOCOMPLETE", "BAN_MEMBERS",
    "BOT_PERMISSIONS", "BUTTON", "CHANGE_NICKNAME", "CHANNEL_SELECT", "COMMAND_NAME", "CONNECT",
    "CREATE_INSTANT_INVITE", "CREATE_PRIVATE_THREADS", "CREATE_PUBLIC_THREADS",
    "DEFAULT_PERMISSIONS", "DIRECT_MESSAGES_INTENT", "DISCORD_LOCALES", "DM", "DiscordError",
    "EMBED_LINKS", "EPHEMERAL", "FakeClock", "FakeDiscord", "GATEWAY_GUILD_FIELDS", "GATEWAY_PATH",
    "GUILD_CATEGORY", "GUILD_MESSAGES_INTENT", "GUILD_TEXT", "HAS_THREAD", "IS_COMPONENTS_V2",
    "KICK_MEMBERS", "LABEL", "LOADING", "MANAGE_CHANNELS", "MANAGE_GUILD", "MANAGE_MESSAGES",
    "MANAGE_ROLES", "MANAGE_THREADS", "MENTION", "MENTIONABLE_SELECT", "MENTION_EVERYONE",
    "MESSAGE_COMPONENT", "MESSAGE_CONTENT_INTENT", "MODAL_SUBMIT", "NONCE_WINDOW", "OLD_MESSAGE",
    "PRIVATE_THREAD", "PUBLIC_THREAD", "READ_MESSAGE_HISTORY", "ROLE_LOOK", "ROLE_SELECT",
    "RateLimiter", "Recorded", "SELECT_TYPES", "SEND_MESSAGES", "SEND_MESSAGES_IN_THREADS", "SPEAK",
    "STRING_SELECT", "SUPPRESS_EMBEDS", "Strictness", "TEXT_INPUT", "THREAD_TYPES",
    "TOKEN_LIFETIME", "USER_SELECT", "USE_APPLICATION_COMMANDS", "USE_EXTERNAL_EMOJIS",
    "UserSettings", "VIEW_CHANNEL", "invalid_form", "now_iso", "public", "snowflake",
    "stored_components", "stored_embeds", "too_many", "unknown", "walk_components",
]


class FakeDiscord(WorldMixin, ReadingMixin, GatewayMixin, ActionsMixin, MessagesMixin, RestMixin, RoutesMixin,
                  InteractionsMixin):
    """Discord REST API and gateway on 127.0.0.1, holding the whole world in JSON-shaped dicts."""

    def __init__(self) -> None:
        self.app_id = snowflake()
        self.bot_user = self._new_user("Tablero", bot=True)
        self.app_owner = self._new_user("AppOwner")  # owns the application, not in any guild
        self.users: dict[str, dict] = {u["id"]: u for u in (self.bot_user, self.app_owner)}
        self.user_settings: dict[str, UserSettings] = {}
        self.guilds: dict[str, dict] = {}
        # Servers the bot is not in (a user may still use their own install of the app there)
        # and the users who installed the app to their account (Discord's user install).
        self.foreign_guilds: set[str] = set()
        self.user_installs: set[str] = set()
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
        self._holds: list[Hold] = []  # requests kept waiting by a test (see RestMixin.hold)
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
