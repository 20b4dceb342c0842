"""Undo by consent in Discord: the request message and its Agree / Refuse buttons."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.common import services
from cogs.common.announce import allowed_users
from cogs.common.errors import guard, reply
from cogs.common.i18n import locale_of, names, t, tn
from cogs.common.usertext import plain
from services.session import Game
from storage.lookups import UndoRequest


def request_view(g: Game, req: UndoRequest, locale: str) -> discord.ui.View:
    """The Agree / Refuse buttons of an undo request."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(g.id, req.seq, "yes", t("btn.undo_yes", locale)))
    view.add_item(UndoButton(g.id, req.seq, "no", t("btn.undo_no", locale)))
    return view


async def ask(interaction: discord.Interaction, g: Game, req: UndoRequest) -> None:
    """Post the request in the game's channel, pinging the players who must answer."""
    voters = [r for r in g.seats if not r.ai and r.user_id is not None and r.seat != req.seat]
    who = names([f"<@{r.user_id}>" for r in voters], g.locale)
    text = tn("undo.asked", len(voters), g.locale, name=plain(g.seat_row(req.seat).name), seq=req.seq, who=who)
    await reply(interaction, text, ephemeral=False, view=request_view(g, req, g.locale),
                allowed_mentions=allowed_users([r.user_id for r in voters if r.user_id]))


class UndoButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"tablero:undo:(?P<game>\d+):(?P<seq>\d+):(?P<vote>yes|no)"):
    """Agree or refuse to take back a move; works after a restart."""

    def __init__(self, game: int, seq: int, vote: str, label: str | None = None) -> None:
        style = discord.ButtonStyle.success if vote == "yes" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=label or vote, style=style,
                                           custom_id=f"tablero:undo:{game}:{seq}:{vote}"))
        self.game, self.seq, self.vote = game, seq, vote

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> UndoButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["seq"]), match["vote"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Record the vote; carry the undo out when everyone agreed."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        locale = locale_of(interaction)
        g, req, outcome, result = await bot.session.answer_undo(
            self.game, interaction.user.id, self.vote == "yes")
        seq = req.seq
        if outcome == "pending":
            await interaction.response.send_message(t("undo.voted", locale), ephemeral=True)
            return
        key = {"done": "undo.done", "refused": "undo.refused", "lapsed": "undo.lapsed"}[outcome]
        name = plain(g.seat_row(req.seat).name)
        await interaction.response.edit_message(content=t(key, g.locale, name=name, seq=seq), view=None,
                                                allowed_mentions=discord.AllowedMentions.none())
        if result is not None:
            await bot.announcer.publish(result)
