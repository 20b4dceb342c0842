"""From a game's slash command to the move and then to the caller's next step: the game of
the channel, the caller's seat, refusals that say what the game asks instead, and the
base of every game's cog."""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar

import discord
from discord.ext import commands

from cogs.common import services
from cogs.common.autocomplete import chosen_version, kind_of, resolve_action
from cogs.common.components import private_menu
from cogs.common.i18n import locale_of, said
from cogs.common.moves import acknowledge_move, play_action
from cogs.common.present import clip, ui_for
from rules.core import Seat
from rules.registry import engine
from services.session import Game, Refusal


def refusal(key: str, **fmt: object) -> Refusal:
    """A refusal worded by catalogue entry ``key``, in the reader's language when shown (a
    value may be a Text, or a function giving it in a language)."""
    return Refusal(said(key, **fmt))


def nothing(g: Game, seat: Seat, key: str, **fmt: object) -> Refusal:
    """A refusal by ``key`` whose ``{prompt}`` says what the game asks ``seat`` instead."""
    prompt = g.pending().get(seat)
    ui = ui_for(g.row.game_id)
    return refusal(key, prompt=lambda lang: ui.wording(g, prompt.text, lang) if prompt else "", **fmt)


def require(g: Game, seat: Seat, kinds: Collection[str], key: str) -> None:
    """Refuse by ``key`` (saying what is asked instead) unless some legal action is of ``kinds``."""
    if not any(kind_of(a) in kinds for a in g.legal_actions(seat)):
        raise nothing(g, seat, key)


async def play_named(interaction: discord.Interaction, g: Game, seat: Seat, value: str,
                     kinds: Collection[str] | None = None) -> None:
    """Run the legal move of ``kinds`` that ``value`` names for the caller, then publish it."""
    action = resolve_action(g, seat, value, kinds)
    # The version the value was read at goes with it: the session checks it again under the
    # game's lock, so the same request twice (or crossing another move) applies once.
    at = chosen_version(value)
    await play_action(interaction, g.id, action, g.version if at is None else at)


async def play_value(
    interaction: discord.Interaction, value: str, kinds: Collection[str] | None = None
) -> None:
    """Run the move named by ``value`` for the caller in this channel's game, then publish it."""
    await acknowledge_move(interaction)
    bot = services(interaction)
    g = await bot.session.require_in_channel(interaction.channel_id or 0)
    g, seat = await bot.session.prepare(g.id, interaction.user.id)
    await play_named(interaction, g, seat, value, kinds)


async def then_panel(interaction: discord.Interaction, game: int) -> None:
    """After a move by command: the caller's next step, privately, if they have one."""
    g = await services(interaction).session.get(game)
    if g is None or g.status != "active":
        return
    seat = g.seat_of(interaction.user.id)
    if seat is None or seat not in g.pending():
        return
    locale = locale_of(interaction)
    text = ui_for(g.row.game_id).menu_text(g, seat, locale)
    await interaction.followup.send(clip(text, 2000), view=private_menu(g, seat, locale), ephemeral=True)


class GameCog(commands.Cog):
    """The base of a game's cog: its commands find the channel's game (refused by
    ``not_here`` when it is another game), make the move, and then show the caller's next
    step privately (unless ``panel_after`` is off)."""

    game_id: ClassVar[str]
    not_here: ClassVar[str] = "err.not_this_game"
    panel_after: ClassVar[bool] = True

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _game(self, interaction: discord.Interaction, *, latest: bool = False) -> Game:
        """The channel's game (with ``latest``, also one just finished), if it is this game."""
        session = services(interaction).session
        if latest:
            g = await session.latest_in_channel(interaction.channel_id or 0)
        else:
            g = await session.require_in_channel(interaction.channel_id or 0)
        if g is None or g.row.game_id != self.game_id:
            raise refusal(self.not_here, game=engine(self.game_id).title)
        return g

    async def _mine(self, interaction: discord.Interaction) -> tuple[Game, Seat]:
        """The channel's game of this kind and the caller's seat in it, ready for a move."""
        g = await self._game(interaction)
        return await services(interaction).session.prepare(g.id, interaction.user.id)

    async def _then_panel(self, interaction: discord.Interaction, game: int) -> None:
        """The caller's next step, privately, when this game shows it after a command."""
        if self.panel_after:
            await then_panel(interaction, game)

    async def _by_kind(self, interaction: discord.Interaction, value: str, kinds: Collection[str] | None,
                       nothing_key: str | None = None) -> None:
        """Make the caller's legal move of ``kinds`` named by ``value`` (refused by
        ``nothing_key`` when none of those kinds is possible now), then the next step."""
        await acknowledge_move(interaction)
        g, seat = await self._mine(interaction)
        if nothing_key is not None and kinds is not None:
            require(g, seat, kinds, nothing_key)
        await play_named(interaction, g, seat, value, kinds)
        await self._then_panel(interaction, g.id)

    async def _pass(self, interaction: discord.Interaction, kinds: Collection[str], nothing_key: str) -> None:
        """Make the caller's first legal move of ``kinds`` (a pass, a skip, the end of a
        turn: in the order of ``kinds``), then the next step."""
        await acknowledge_move(interaction)
        g, seat = await self._mine(interaction)
        legal = g.legal_actions(seat)
        action = next((a for kind in kinds for a in legal if kind_of(a) == kind), None)
        if action is None:
            raise nothing(g, seat, nothing_key)
        await play_action(interaction, g.id, action)
        await self._then_panel(interaction, g.id)
