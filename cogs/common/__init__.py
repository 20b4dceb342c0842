"""Shared pieces of the Discord side: session service, i18n, errors, boards, DMs, menus."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

if TYPE_CHECKING:
    from cogs.common.announce import Announcer
    from cogs.common.board import BoardKeeper
    from cogs.common.delivery import Delivery
    from services.limits import Limits
    from services.session import SessionService


class Services(Protocol):
    """What the cogs need from the bot (TableroBot provides it)."""

    session: SessionService
    boards: BoardKeeper
    delivery: Delivery
    announcer: Announcer
    limits: Limits
    settings: Any


def services(interaction: discord.Interaction) -> Services:
    """The bot behind ``interaction``, seen through the services the cogs use."""
    return cast(Services, interaction.client)
