"""A game's lobby message: players, host, options, its buttons (Join, Leave, Add AI,
Start, working after a restart), and what pressing Start does."""

from __future__ import annotations

import re
import typing
from typing import Any

import discord

from cogs.common import services
from cogs.common.choices import within
from cogs.common.errors import guard
from cogs.common.i18n import locale_of, t
from cogs.common.lobby_options import describe_options
from cogs.common.patience import token_alive
from cogs.common.present import COLOUR, Rendered, clip, mention
from cogs.common.settings_view import clock_text
from services.session import Game, MoveResult


class LobbyExtra(typing.Protocol):
    """What a game adds to its lobby message (registered in LOBBY_EXTRAS by its cog)."""

    def seat_note(self, g: Game, seat: int, locale: str) -> str:
        """A few words after a seat's line (say, whether its player has chosen a deck)."""
        ...

    def items(self, g: Game, locale: str) -> list[discord.ui.Item[Any]]:
        """More components for the open lobby (say, a button to choose a deck privately)."""
        ...


# Game id -> its lobby additions; a game without one gets the plain lobby.
LOBBY_EXTRAS: dict[str, LobbyExtra] = {}


def render_lobby(g: Game, locale: str) -> Rendered:
    """The lobby message: players, host, options, and (while open) its four buttons."""
    e = g.engine
    # Once started, the lobby lists the seats as they were at the start, a fact that stays
    # true: the card below (and every live list) marks a seat the bot takes over later.
    started = g.status not in ("lobby", "abandoned")
    status_key = {"lobby": "lobby.open", "abandoned": "lobby.abandoned"}.get(g.status, "lobby.started_seats")
    embed = discord.Embed(
        title=t("lobby.title", locale, title=e.title.get(locale), id=g.id),
        description=t(status_key, locale),
        colour=COLOUR,
    )
    extra = LOBBY_EXTRAS.get(g.row.game_id) if g.status == "lobby" else None
    players = "\n".join(
        f"{i + 1}. {mention(g, s.seat)}"
        f"{extra.seat_note(g, s.seat, locale) if extra is not None else ''}"
        for i, s in enumerate(g.seats)
    )
    embed.add_field(
        name=t("lobby.players_at_start", locale, n=len(g.seats)) if started
        else t("lobby.players", locale, n=len(g.seats), max=e.max_players),
        value=players or t("lobby.nobody", locale),
        inline=True,
    )
    embed.add_field(name=t("lobby.host", locale), value=f"<@{g.row.host_id}>", inline=True)
    embed.add_field(name=t("lobby.options", locale), value=clip(describe_options(g, locale), 1024), inline=False)
    embed.add_field(name=t("clock.label", locale),
                    value=clock_text(g.row.clock_seconds, g.row.timeout_action, locale,
                                     g.row.bank_increment, g.row.bank_cap), inline=False)
    embed.set_footer(text=t("lobby.needs", locale, min=e.min_players, max=e.max_players))
    view: discord.ui.View | None = None
    if g.status == "lobby":
        full = len(g.seats) >= e.max_players
        view = discord.ui.View(timeout=None)
        view.add_item(LobbyButton(g.id, "join", t("btn.join", locale), disabled=full))
        view.add_item(LobbyButton(g.id, "leave", t("btn.leave", locale)))
        view.add_item(LobbyButton(g.id, "ai", t("btn.ai", locale), disabled=full))
        view.add_item(LobbyButton(g.id, "start", t("btn.start", locale), disabled=len(g.seats) < e.min_players))
        for item in extra.items(g, locale) if extra is not None else []:
            view.add_item(item)
    return Rendered(content=None, embed=embed, view=view)


_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "ai": discord.ButtonStyle.secondary,
    "start": discord.ButtonStyle.primary,
}


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tablero:lobby:(?P<action>join|leave|ai|start):(?P<game>\d+)",
):
    """Join / Leave / Add AI / Start on a lobby message; works after a restart."""

    def __init__(self, game: int, action: str, label: str | None = None, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=_STYLES.get(action, discord.ButtonStyle.secondary),
                custom_id=f"tablero:lobby:{action}:{game}",
                disabled=disabled,
            )
        )
        self.game, self.action = game, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Do what the button says and show the lobby as it now is."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        user = interaction.user
        if self.action == "join":
            g = await bot.session.join(self.game, user_id=user.id, name=user.display_name, locale=locale_of(interaction))
        elif self.action == "leave":
            g = await bot.session.leave(self.game, user_id=user.id)
        elif self.action == "ai":
            g = await bot.session.add_ai(self.game, by=user.id)
        else:
            result = await within(interaction, bot.session.start(self.game, by=user.id))
            await _update(interaction, render_lobby(result.game, result.game.locale))
            # Pressed on the public lobby, its answer showed it started; on a private copy
            # (from /game status) the start's delivery marks the public one.
            message = interaction.message
            await after_start(interaction, result, lobby_shown=message is not None and not message.flags.ephemeral)
            return
        await _update(interaction, render_lobby(g, g.locale))
        await self._sync_lobby(interaction, g)

    async def _sync_lobby(self, interaction: discord.Interaction, g: Game) -> None:
        # Pressed on a private copy (from /game status): the public lobby needs the change too.
        message = interaction.message
        if message is not None and message.id != g.row.board_message_id:
            await services(interaction).boards.refresh(g.id, rendered=render_lobby(g, g.locale))


async def _update(interaction: discord.Interaction, rendered: Rendered) -> None:
    """Edit the message the component sits on (in the response, or after a deferral)."""
    kw = rendered.edit_kwargs()
    if not interaction.response.is_done():
        await interaction.response.edit_message(**kw)
    elif token_alive(interaction):
        await interaction.edit_original_response(**kw)


async def after_start(interaction: discord.Interaction, result: MoveResult, *, lobby_shown: bool = False) -> None:
    """Announce the start (pinging whoever acts), post the board below the lobby, DM hands."""
    await services(interaction).announcer.publish(result, board_repost=True, lobby_shown=lobby_shown)
