"""The heavy commands' cooldowns and the caps on open lobbies and threads, as refusals.

Each server sets its own in /config (storage/settings.py has the defaults); the counting is
in services/limits.py and the store. A refused command is not counted: the member may
correct it and send it again at once.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import astuple
from typing import Any

import discord

from cogs.common import services
from cogs.common.i18n import said
from rules.core import RuleError
from services.limits import Busy, CoolingDown, Limits
from services.session import Refusal
from storage.settings import GuildSettings, OpenCounts


def limits_of(interaction: discord.Interaction) -> Limits:
    """The bot's limits."""
    return services(interaction).limits


@asynccontextmanager
async def heavy(interaction: discord.Interaction, kind: str,
                server: GuildSettings | None = None) -> AsyncIterator[None]:
    """Run a heavy command (``kind`` of services.limits.HEAVY) under the server's cooldown:
    a refusal saying how long to wait if the member ran it too often lately."""
    if server is None:
        server = await services(interaction).session.store.guild_settings(interaction.guild_id)
    try:
        async with limits_of(interaction).cooldowns.use(
            kind, interaction.guild_id or 0, interaction.user.id, server.cooldown_seconds, refund=(RuleError,)
        ):
            yield
    except CoolingDown as wait:
        raise Refusal(said(f"limit.cooldown_{kind}", seconds=math.ceil(wait.left))) from None


@asynccontextmanager
async def replay_slot(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Wait for a turn to draw a replay; a refusal when too many are drawn or waiting."""
    try:
        async with limits_of(interaction).replays.enter():
            yield
    except Busy:
        raise Refusal(said("limit.replays_busy")) from None


@asynccontextmanager
async def open_slot(interaction: discord.Interaction, server: GuildSettings, thread: bool) -> AsyncIterator[None]:
    """Open a new lobby (in a new thread when ``thread``) in the body, refused past the
    server's caps counting the ones being opened at this moment too."""
    if interaction.guild_id is None:
        yield
        return
    store: Any = services(interaction).session.store
    guild, user = interaction.guild_id, interaction.user.id

    async def check(opening: OpenCounts) -> None:
        stored = await store.open_counts(guild, user)
        _refuse_past_caps(OpenCounts(*(a + b for a, b in zip(astuple(stored), astuple(opening), strict=True))),
                          server, thread)

    async with limits_of(interaction).openings.reserve(guild, user, thread, check):
        yield


def _refuse_past_caps(now: OpenCounts, server: GuildSettings, thread: bool) -> None:
    checks = [
        (now.member_lobbies >= server.lobbies_per_member, "limit.lobbies_member", server.lobbies_per_member),
        (now.lobbies >= server.lobbies_per_server, "limit.lobbies_server", server.lobbies_per_server),
    ]
    if thread:
        checks += [
            (now.member_threads >= server.threads_per_member, "limit.threads_member", server.threads_per_member),
            (now.threads >= server.threads_per_server, "limit.threads_server", server.threads_per_server),
        ]
    for over, key, most in checks:
        if over:
            raise Refusal(said(key, most=most))

