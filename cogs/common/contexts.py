"""Where each command may be used, declared to Discord, and the refusal of a game command
used where no game can be.

Tablero can be added to a server (guild install) or by a user to their own account (user
install). A user-installed Tablero answers in the user's DMs with the bot, in group DMs and
in servers that do not have the bot, but there it can only answer the user privately: it
cannot post in those channels, nor see them. So only the commands about the user themself
(their games, their hand, their settings, their ratings, card look-ups and decks) are
offered everywhere; every other command is declared for servers that have the bot
installed, and Discord offers it nowhere else. A group's commands share its declaration
(Discord sets contexts per top-level command), so a group that mixes both kinds refuses its
server-only commands outside a server with the bot (``require_bot_server``).
"""

from __future__ import annotations

import discord
from discord import app_commands

# Every context (a server, the bot's DM, a group DM) for commands about the user themself.
EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
# Either installation: added to a server, or by a user to their account.
ANY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
# The default of every other command: servers, with the bot added to them.
SERVER = app_commands.AppCommandContext(guild=True)
SERVER_INSTALL = app_commands.AppInstallationType(guild=True)


class NotInGameServer(app_commands.CheckFailure):
    """A server-only command of a mixed group used in a DM or a server without Tablero."""


def bot_is_here(interaction: discord.Interaction) -> bool:
    """True when the interaction comes from a server the bot is in (not a DM, not a server
    where only the user installed Tablero)."""
    gid = interaction.guild_id
    return gid is not None and interaction.client.get_guild(gid) is not None


def require_bot_server(interaction: discord.Interaction, anywhere: frozenset[str]) -> bool:
    """A cog's check: commands named in ``anywhere`` (qualified names) run everywhere, the
    others only in a server with the bot (else a private refusal; an autocomplete offers
    nothing)."""
    command = interaction.command
    if command is None or command.qualified_name in anywhere or bot_is_here(interaction):
        return True
    if interaction.type is discord.InteractionType.autocomplete:
        return False
    raise NotInGameServer()
