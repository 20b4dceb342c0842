"""/stats: a server's games in figures and a chart (services/stats.py computes them)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import services
from cogs.common.errors import reply
from cogs.common.i18n import locale_of, t, tn
from cogs.common.moves import within
from cogs.common.present import COLOUR, EMBED_FIELD, clip, ui_for
from cogs.common.usertext import plain
from cogs.pictures.pool import render
from cogs.pictures.stats import ChartRow, render_chart
from rules.core import Text
from rules.registry import games as registered_games
from services.stats import ServerStats, TitleStats, compute

CHART = "stats.png"
# The sides a title's line names at most (a pantheon each: there are many).
SIDES_SHOWN = 8


def _percent(rate: float | None) -> str:
    return "–" if rate is None else f"{round(rate * 100)}%"


def _length(ts: TitleStats, locale: str) -> str:
    """The median length of a title's finished games, in words."""
    if ts.median_moves is None:
        return t("stats.no_length", locale)
    days = ts.median_days or 0.0
    when = tn("stats.days", round(days), locale) if days >= 1 else tn("stats.hours", round(days * 24), locale)
    return t("stats.length", locale, moves=round(ts.median_moves), when=when)


def seat_labels(game_id: str, seats: int, locale: str) -> list[str]:
    """How a title's seats are named in the figures: its side where the game has one (a
    faction), else its place in turn order."""
    ui = ui_for(game_id)
    return [ui.seat_side(s, locale) or t("stats.seat", locale, n=s + 1) for s in range(seats)]


def side_wins(ts: TitleStats, locale: str) -> str | None:
    """How each side played (pantheon, personality) did, most played first; None where the
    title's sides are already its seats (a faction that always sits there) or none is stored."""
    ui = ui_for(ts.game_id)
    if not ts.sides or ui.seat_side(0, locale) is not None:
        return None
    parts = [t("stats.side_record", locale, side=plain(_side_name(side, locale)), wins=rec.wins,
               games=rec.games, rate=_percent(rec.rate))
             for side, rec in list(ts.sides.items())[:SIDES_SHOWN]]
    return t("stats.side_wins", locale, kind=t(ui.side_key, locale), wins=" · ".join(parts))


def _side_name(stored: str, locale: str) -> str:
    try:
        return Text.model_validate_json(stored).get(locale)
    except ValueError:  # written by a later version: show nothing rather than fail
        return "?"


def stats_embed(stats: ServerStats, guild: str, locale: str) -> discord.Embed:
    """The figures as an embed (the chart goes in it as a picture)."""
    engines = registered_games()
    embed = discord.Embed(title=clip(t("stats.title", locale, guild=plain(guild)), 256), colour=COLOUR,
                          description=tn("stats.total", stats.played, locale))
    for ts in stats.titles[:20]:
        engine = engines.get(ts.game_id)
        name = engine.title.get(locale) if engine is not None else ts.game_id
        labels = seat_labels(ts.game_id, len(ts.seats), locale)
        lines = [t("stats.games", locale, played=ts.played, finished=ts.finished, abandoned=ts.abandoned),
                 _length(ts, locale)]
        if ts.seats:
            wins = " · ".join(f"{label} {_percent(rec.rate)}" for label, rec in zip(labels, ts.seats, strict=False))
            lines.append(t("stats.seat_wins", locale, wins=wins))
        sides = side_wins(ts, locale)
        if sides:
            lines.append(sides)
        embed.add_field(name=name, value=clip("\n".join(lines), EMBED_FIELD), inline=False)
    if stats.players:
        lines = [t("stats.player", locale, n=k + 1, name=plain(p.name), games=p.games, wins=p.wins)
                 for k, p in enumerate(stats.players)]
        embed.add_field(name=t("stats.players", locale), value=clip("\n".join(lines), EMBED_FIELD), inline=False)
    return embed


def chart_rows(stats: ServerStats, locale: str) -> list[ChartRow]:
    """The chart's rows: plain values, so they can travel to a picture worker."""
    engines = registered_games()
    rows = []
    for ts in stats.titles[:8]:
        engine = engines.get(ts.game_id)
        rows.append(ChartRow(
            title=engine.title.get(locale) if engine is not None else ts.game_id,
            finished=ts.finished, abandoned=ts.abandoned, running=ts.played - ts.finished - ts.abandoned,
            seat_rates=tuple(rec.rate for rec in ts.seats),
            seat_labels=tuple(seat_labels(ts.game_id, len(ts.seats), locale)),
            note=_length(ts, locale),
        ))
    return rows


class Stats(commands.Cog):
    """A server's statistics."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="This server's games in figures, with a chart")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction) -> None:
        """Games played and finished per title, their length, seat wins, the most active players."""
        locale = locale_of(interaction)
        store = services(interaction).session.store
        guild = interaction.guild.name if interaction.guild is not None else ""

        async def work() -> tuple[discord.Embed, bytes | None]:
            games = await store.server_games(interaction.guild_id or 0)
            figures = await asyncio.to_thread(compute, games)
            embed = stats_embed(figures, guild, locale)
            if not figures.titles:
                return embed, None
            heading = t("stats.title", locale, guild=guild)
            png = await asyncio.to_thread(render, render_chart, chart_rows(figures, locale), heading, locale)
            return embed, png

        embed, png = await within(interaction, work())
        if png is None:
            embed.description = t("stats.none", locale)
            await reply(interaction, embed=embed, ephemeral=True)
            return
        embed.set_image(url=f"attachment://{CHART}")
        # Public, as a server likes to see its figures; names only, never a ping.
        await reply(interaction, embed=embed, files=[discord.File(io.BytesIO(png), filename=CHART)],
                    ephemeral=False, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    """Load the statistics cog (discord.py extension entry point)."""
    await bot.add_cog(Stats(bot))
