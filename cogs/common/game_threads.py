"""Games in their own threads: where /game new opens a game (a new thread or the channel,
as the server, the host and everyone's permissions allow), opening the thread, and
archiving a game's thread some hours after its game ends."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

from cogs.common.i18n import said
from cogs.common.patience import missing_permissions, permission_names
from services.session import Refusal
from storage.settings import GuildSettings

log = logging.getLogger("tablero.threads")

# What a member needs to open a game in a new thread, and to open it in the channel.
MEMBER_THREAD_NEEDS = ("view_channel", "create_public_threads", "send_messages_in_threads")
MEMBER_CHANNEL_NEEDS = ("view_channel", "send_messages")
# How often finished games' threads are looked at (the due times are in the store).
ARCHIVE_POLL = 600.0


def _refuse(key: str, channel: int, names: list[str]) -> Refusal:
    return Refusal(said(key, channel=f"<#{channel}>", perms=lambda language: permission_names(names, language)))


def thread_parent(interaction: discord.Interaction, games_channel: int | None) -> discord.TextChannel | None:
    """The text channel a new game's thread would open under: the server's games channel
    (/config channel:) when it is known, else the channel asked in; None when that is
    not a text channel (a thread, a voice channel's chat...)."""
    channel: Any = interaction.channel
    if games_channel is not None and interaction.guild is not None:
        channel = interaction.guild.get_channel(games_channel) or channel
    return channel if isinstance(channel, discord.TextChannel) else None


def member_permissions_in(interaction: discord.Interaction, channel: discord.abc.GuildChannel) -> discord.Permissions:
    """The member's permissions in ``channel``: Discord's own resolution for the channel the
    command came from, else computed from the cached roles and the channel's overwrites."""
    if channel.id == interaction.channel_id:
        return interaction.permissions
    user = interaction.user
    if not isinstance(user, discord.Member):
        return discord.Permissions.none()
    return channel.permissions_for(user)


def check_bot_permissions(interaction: discord.Interaction, thread: bool, games_channel: int | None) -> None:
    """Refuse a new game where the bot could not show it: the permissions it needs in the
    channel (or, for a thread, to open one and post in it), named in the member's language."""
    perms, where = interaction.app_permissions, interaction.channel_id or 0
    guild = interaction.guild
    if thread and games_channel is not None and guild is not None:
        target = guild.get_channel(games_channel)
        if target is not None:
            perms, where = target.permissions_for(guild.me), target.id
    names = missing_permissions(perms, thread)
    if thread and not perms.create_public_threads:
        names.append("create_public_threads")
    if names:
        raise _refuse("perm.new_missing", where, names)


def _member_missing(perms: discord.Permissions, needs: tuple[str, ...]) -> list[str]:
    return [name for name in needs if not getattr(perms, name)]


def _thread_refusal(interaction: discord.Interaction, parent: discord.TextChannel | None,
                    games_channel: int | None) -> Refusal | None:
    """Why the game cannot open in a new thread (None: it can)."""
    if parent is None:
        return Refusal(said("err.no_thread_here"))
    missing = _member_missing(member_permissions_in(interaction, parent), MEMBER_THREAD_NEEDS)
    if missing:
        return _refuse("perm.member_missing", parent.id, missing)
    try:
        check_bot_permissions(interaction, True, games_channel if parent.id != interaction.channel_id else None)
    except Refusal as refusal:
        return refusal
    return None


def place_new_game(interaction: discord.Interaction, asked: bool | None,
                   server: GuildSettings) -> discord.TextChannel | None:
    """Where /game new opens its game: the text channel to open a thread under, or None for
    the channel asked in. ``asked``: the host's explicit choice (None: the server's default).
    A thread asked for explicitly that cannot be opened is refused; the default falls back
    to the channel. The member must be allowed to do what the bot would do for them."""
    want = asked if asked is not None else server.game_threads
    if want:
        parent = thread_parent(interaction, server.games_channel_id)
        refusal = _thread_refusal(interaction, parent, server.games_channel_id)
        if refusal is None:
            return parent
        if asked:
            raise refusal
    here = interaction.channel
    needs = ("view_channel", "send_messages_in_threads") if isinstance(here, discord.Thread) else MEMBER_CHANNEL_NEEDS
    missing = _member_missing(interaction.permissions, needs)
    if missing:
        raise _refuse("perm.member_missing", interaction.channel_id or 0, missing)
    check_bot_permissions(interaction, False, None)
    return None


def can_view(guild: discord.Guild | None, member: Any, channel_id: int) -> bool:
    """Whether ``member`` may see the channel or thread ``channel_id`` of ``guild``, from the
    cache (the guild's roles and the channel's overwrites); False when it is not cached."""
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        return False
    return channel.permissions_for(member).view_channel


class ThreadKeeper:
    """Archives a game's thread once its game has been over for the server's archive_hours
    (the due times come from the store, so a restart misses none); archived, not locked,
    so the result stays readable and anyone may talk there again."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._poll: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Look at the due threads now and every ARCHIVE_POLL seconds."""
        if self._poll is None or self._poll.done():
            self._poll = asyncio.create_task(self._run(), name="tablero-threads")

    async def stop(self) -> None:
        """Stop looking."""
        if self._poll is not None:
            self._poll.cancel()
            try:
                await self._poll
            except (asyncio.CancelledError, Exception):
                pass
            self._poll = None

    async def _run(self) -> None:
        while True:
            try:
                await self.archive_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("archiving finished games' threads failed")
            await asyncio.sleep(ARCHIVE_POLL)

    async def archive_due(self, now: float | None = None) -> int:
        """Archive every game thread that is due at ``now`` (wall-clock seconds, as the
        games' finished_at; default: now). How many were archived."""
        store = self.bot.session.store
        done = 0
        for due in await store.threads_due(time.time() if now is None else now):
            try:
                thread = self.bot.get_channel(due.thread_id) or await self.bot.fetch_channel(due.thread_id)
                if isinstance(thread, discord.Thread) and not thread.archived:
                    await thread.edit(archived=True)
                    done += 1
            except discord.NotFound:
                log.info("game %s: its thread %s is gone", due.game, due.thread_id)
            except discord.Forbidden:
                # Discord's own auto-archive (a week without messages) still applies.
                log.info("game %s: not allowed to archive thread %s", due.game, due.thread_id)
            except discord.HTTPException:
                log.warning("game %s: could not archive thread %s; trying again later", due.game, due.thread_id)
                continue
            await store.thread_archived(due.thread_id)
        return done
