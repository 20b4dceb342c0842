"""Ragami in Discord: how the board, the hands and the choices look.

Every decision goes through the session service and the engine's legal actions (the
engine already splits many-step choices: piece, then destination; a resolution one power
source at a time), so the shared Play menu offers each step. This module only draws:
the public picture of the city, the board's text fields, the players' names in the
rules' texts, and each hand in private (by DM, or ephemerally when DMs are closed).
"""

from __future__ import annotations

import re

import discord
from discord.ext import commands

from cogs.common.present import GameUI, engine_view, mention, register
from cogs.pictures import draw_or_none
from cogs.pictures.ragami import render_board
from rules.core import GameState, Seat, Text
from rules.ragami.cards import card_name, kind_of
from rules.ragami.model import RgView
from services.session import Game

GAME_ID = "ragami"
# The engine names seats "Jugador 2 (verde)" / "Player 2 (green)"; Discord shows names.
SEAT_WORD = re.compile(r"\b(?:Jugador|Player) ([1-4])\b")
COLOUR_DISC = ("🟡", "🟢", "🔵", "🟣")

WORDS = {
    "players": ("Jugadores", "Players"),
    "conflicts": ("Conflictos", "Conflicts"),
    "dice": ("Dados de Acción", "Action dice"),
    "hand": ("Tu mano", "Your hand"),
    "new": ("nueva este turno", "new this turn"),
    "drawn": ("Eliges entre", "You choose among"),
    "resolving": ("Resolviendo", "Resolving"),
    "none": ("ninguna", "none"),
}


def word(key: str, locale: str) -> str:
    """A word of this module in the player's language."""
    es, en = WORDS[key]
    return es if (locale or "").lower().startswith("es") else en


class RgUI(GameUI):
    """How Ragami looks: the city picture and the players; hands in private."""

    game_id = GAME_ID

    def view(self, g: Game, seat: Seat | None, state: GameState | None = None) -> RgView:
        """The engine's view for ``seat`` (None: public)."""
        return engine_view(g, seat, RgView, state)

    def wording(self, g: Game, text: Text, locale: str) -> str:
        """The rules' texts with the players' names instead of seat numbers."""

        def named(m: re.Match[str]) -> str:
            seat = int(m[1]) - 1
            if seat >= len(g.seats):
                return m[0]
            return f"**{discord.utils.escape_markdown(self.name(g, seat))}**"

        return SEAT_WORD.sub(named, text.get(locale))

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """A DM when the hand or the cards to choose from change."""
        if state is None:
            return []
        me = self.view(g, seat, state).me
        if me is None:
            return []
        return [f"hand={me.hand}", f"drawn={me.drawn}"]

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The public board drawn by cogs/pictures (private views go without a picture)."""
        if seat is not None:
            return None
        return draw_or_none(render_board, self.view(g, None), g.names, locale, g.id)

    def board_fields(
        self, g: Game, locale: str, pictured: bool = False
    ) -> list[tuple[str, str, bool]]:
        """Players with their scores; without a picture also the conflicts and dice."""
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        es = (locale or "").lower().startswith("es")
        lines = []
        for p in v.players:
            score = (
                f"{p.vp} PV · {p.resolved} res. · {p.cubes} cubos"
                if es
                else f"{p.vp} VP · {p.resolved} res. · {p.cubes} cubes"
            )
            lines.append(f"{COLOUR_DISC[p.seat]} {mention(g, p.seat)} — {score}")
        fields = [(word("players", locale), "\n".join(lines), False)]
        if not pictured:
            conflicts = ", ".join(f"{c.square}: {c.die}+{c.demons}" for c in v.conflicts)
            fields.append((word("conflicts", locale), conflicts or "-", True))
            fields.append((word("dice", locale), " / ".join(str(d) for d in v.dice), True))
        if v.step is not None and v.step.res is not None:
            r = v.step.res
            fields.append((word("resolving", locale), f"{r.square}: {r.total}/{r.cost}", True))
        return fields

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """The hand (cards new this turn marked) and the cards being chosen from."""
        v = self.view(g, seat)
        me = v.me
        if me is None:
            return []
        out = [f"**{word('hand', locale)}**:"]
        for c in me.hand:
            k = kind_of(c)
            new = f" *({word('new', locale)})*" if c in me.fresh else ""
            out.append(f"• {card_name(c).get(locale)}{new} — {k.text.get(locale)}")
        if not me.hand:
            out.append(f"• {word('none', locale)}")
        if me.drawn:
            names = ", ".join(card_name(c).get(locale) for c in me.drawn)
            out.append(f"**{word('drawn', locale)}**: {names}")
        return out


UI = RgUI()
register(UI)


class Ragami(commands.Cog):
    """Ragami's presentation; moves go through the shared Play menu and /game commands."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot


async def setup(bot: commands.Bot) -> None:
    """Load the Ragami cog (discord.py extension entry point)."""
    await bot.add_cog(Ragami(bot))
