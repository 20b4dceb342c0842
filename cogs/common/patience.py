"""Living with Discord's limits: calls that outlast a rate limit, interaction tokens that
expire, and the bot's own permissions in a channel."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

log = logging.getLogger("tablero.patience")

T = TypeVar("T")

# discord.py already retries a 429 five times; past that, we wait longer and try again,
# so a busy evening delays an update but never drops it.
RETRY_PAUSES = (0.05, 0.2, 0.5, 1.0, 2.0, 4.0)
# Discord refuses an interaction's token 15 minutes after the interaction; stop a little
# earlier, as a request may take a moment to arrive.
TOKEN_LIFETIME = 15 * 60.0
TOKEN_MARGIN = 30.0
OLD_MESSAGE_EDITS = 30046  # Discord's code: too many edits of messages older than an hour
MISSING_PERMISSIONS = (50001, 50013)  # Missing Access, Missing Permissions

# What a game needs in its channel (a thread needs Send Messages in Threads instead of
# Send Messages), by discord.Permissions attribute.
CHANNEL_NEEDS = (
    "view_channel",
    "send_messages",
    "embed_links",
    "attach_files",
    "read_message_history",
)
THREAD_NEEDS = (
    "view_channel",
    "send_messages_in_threads",
    "embed_links",
    "attach_files",
    "read_message_history",
)


def rate_limited(exc: BaseException) -> bool:
    """Whether ``exc`` is Discord saying "later" (a 429 discord.py gave up on)."""
    return isinstance(exc, discord.RateLimited) or (
        isinstance(exc, discord.HTTPException) and exc.status == 429
    )


def forbidden(exc: BaseException) -> bool:
    """Whether ``exc`` is Discord refusing for a missing permission."""
    return isinstance(exc, discord.Forbidden) and exc.code in MISSING_PERMISSIONS


def dropped(exc: BaseException) -> bool:
    """Whether ``exc`` is the connection to Discord failing under a request (closed by the
    other side, or no answer in aiohttp's time): worth asking again, where discord.py does not."""
    return isinstance(exc, aiohttp.ClientConnectionError)


async def patiently(call: Callable[[], Awaitable[T]], *, again_if_dropped: bool = False) -> T:
    """Await ``call()`` again after a pause while Discord answers 429, and, with
    ``again_if_dropped``, when the connection drops under the request; other errors pass.
    Only a call that does the same when made twice may be made again after a drop (an
    edit; a send with a nonce, which Discord enforces): Discord may have done the first."""
    for pause in RETRY_PAUSES:
        try:
            return await call()
        except (discord.HTTPException, discord.RateLimited) as exc:
            if not rate_limited(exc):
                raise
            log.info("rate limited; trying again in %.2fs", pause)
        except aiohttp.ClientConnectionError as exc:
            if not again_if_dropped:
                raise
            log.info("connection to Discord dropped (%s); trying again in %.2fs", type(exc).__name__, pause)
        await asyncio.sleep(pause)
    return await call()


def _clock_now(interaction: discord.Interaction) -> float:
    clock = getattr(getattr(interaction, "client", None), "clock", None)
    return clock.now() if clock is not None else time.time()


def received(interaction: discord.Interaction) -> float:
    """When the bot received ``interaction``, on the bot's clock (stamped at first sight)."""
    return interaction.extras.setdefault("tablero.received", _clock_now(interaction))


def since_received(interaction: discord.Interaction) -> float:
    """Seconds since the bot received ``interaction``, on the bot's clock."""
    return _clock_now(interaction) - received(interaction)


def token_alive(interaction: discord.Interaction) -> bool:
    """Whether ``interaction``'s token may still be used (followups, edits of its messages)."""
    return _clock_now(interaction) - received(interaction) < TOKEN_LIFETIME - TOKEN_MARGIN


def missing_permissions(permissions: discord.Permissions, thread: bool) -> list[str]:
    """The permissions a game needs that ``permissions`` lacks (attribute names)."""
    return [
        name
        for name in (THREAD_NEEDS if thread else CHANNEL_NEEDS)
        if not getattr(permissions, name)
    ]


def permission_names(names: list[str], locale: str) -> str:
    """The permissions as Discord's settings name them, in the reader's language."""
    from cogs.common.i18n import t

    return ", ".join(t(f"perm.{name}", locale) for name in names)


async def permissions_in(bot: Any, channel_id: int) -> tuple[discord.Permissions, bool] | None:
    """The bot's permissions in a channel or thread from its cache (and whether it is a
    thread); None when the channel is not cached (a DM, or unknown)."""
    channel = bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    if channel is None or guild is None:
        return None
    return channel.permissions_for(guild.me), isinstance(channel, discord.Thread)
