"""/rating me's fields: a player's shown rating and record for each game on one server."""

from __future__ import annotations

from typing import Any

import discord

from cogs.common.i18n import count, t, tn
from cogs.common.usertext import plain
from rules.registry import games as registered_games
from services.ratings import shown_rating
from storage.ratings import RatingStore


async def ratings_fields(bot: Any, ratings: RatingStore, embed: discord.Embed, guild: int, user: int,
                         locale: str, named: bool) -> None:
    """One field per game the player has a rating or a record in on ``guild`` (``named``:
    the server's name beside the game's)."""
    rated = {r.game_id: r for r in await ratings.player_ratings(guild, user)}
    server = bot.get_guild(guild)
    where = plain(server.name) if server is not None else t("rating.server", locale, id=guild)
    for gid, engine in registered_games().items():
        if len(embed.fields) >= 24:  # Discord's limit of 25 fields, one kept for the reliability
            return
        record = await ratings.record(guild, gid, user)
        if not record.games and gid not in rated:
            continue
        r = rated.get(gid)
        value = (
            tn("rating.value", r.games, locale, rating=shown_rating(r.conservative))
            if r
            else t("rating.unrated", locale)
        )
        recent = (
            " ".join(
                "·" if place is None else f"{place + 1}/{n}" for _, place, n in record.recent
            )
            or "-"
        )
        value += "\n" + t(
            "rating.record", locale, games=count("games", record.games, locale),
            wins=count("wins", record.wins, locale), recent=recent
        )
        name = engine.title.get(locale) + (f" · {where}" if named else "")
        embed.add_field(name=name[:256], value=value, inline=False)
