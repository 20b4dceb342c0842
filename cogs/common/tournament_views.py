"""What a tournament shows in Discord: its sign-up message and buttons, the standings embed,
the standings and bracket pictures, the settings lines."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from cogs.common.errors import guard
from cogs.common.escalation import requirement_lines
from cogs.common.i18n import count as _count
from cogs.common.i18n import t
from cogs.common.present import COLOUR, NO_MENTIONS, clip
from cogs.common.settings_view import clock_text
from cogs.common.tournament_tables import _bot
from cogs.pictures.pool import render
from cogs.pictures.tournament import bracket_png, standings_png
from rules.registry import games as registered_games
from services.standings import ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS, Standing, show
from services.tournament import ELIMINATIONS, TournamentService
from storage.tournaments import TournamentRow

# Lines of standings shown in an embed (the picture and the CSV carry every player).
EMBED_LINES = 30

# Per game id, filled by that game's cog: what sign-up asks a player privately before it
# enters them (it answers the interaction and enters them itself: Guerra de Mitos asks for
# the deck to lock).
SIGNUP_ASK: dict[str, Callable[[discord.Interaction, TournamentRow], Awaitable[None]]] = {}


def tiebreaks_of(t_: TournamentRow) -> tuple[str, ...]:
    """The tie-breaks the tournament's format uses."""
    if t_.format == "swiss":
        return SWISS_TIEBREAKS
    if t_.format == "round_robin":
        return ROUND_ROBIN_TIEBREAKS
    return ()

async def names_of(svc: TournamentService, tournament: int) -> dict[int, str]:
    """Entrants' display names by user id."""
    return {e.user_id: e.name for e in await svc.store.entrants(tournament)}


def settings_lines(t_: TournamentRow, locale: str) -> list[str]:
    """The tournament's settings, one per line."""
    engine = registered_games()[t_.game_id]
    clock = t_.clock or {}
    lines = [
        t("tourney.game_line", locale, game=engine.title.get(locale)),
        t("tourney.format_line", locale, format=t(f"tourney.format.{t_.format}", locale)),
    ]
    if t_.format not in ELIMINATIONS:
        lines.append(t("tourney.table_size_line", locale, n=t_.table_size))
    if t_.rounds:
        lines.append(t("tourney.rounds_line", locale, n=t_.rounds))
    lines.append(
        t(
            "tourney.clock_line",
            locale,
            clock=clock_text(clock.get("seconds"), clock.get("timeout", "ai"), locale),
        )
    )
    lines.append(t(f"tourney.seeding.{t_.seeding}", locale))
    lines.append(t("tourney.rated" if t_.rated else "tourney.unrated", locale))
    if t_.cap:
        lines.append(t("tourney.cap_line", locale, n=t_.cap))
    if t_.check_in:
        lines.append(t("tourney.check_in_line", locale))
    lines.extend(requirement_lines(t_, locale))
    if t_.signup_deadline:
        lines.append(t("tourney.deadline_line", locale, when=f"<t:{int(t_.signup_deadline)}:f>"))
    return lines


async def signup_message(svc: TournamentService, t_: TournamentRow, locale: str) -> dict[str, Any]:
    """The sign-up message: settings, entrants and the buttons."""
    entrants = await svc.store.entrants(t_.id)
    embed = discord.Embed(
        title=t("tourney.title", locale, name=t_.name, id=t_.id),
        description="\n".join(settings_lines(t_, locale)),
        colour=COLOUR,
    )
    listed = "\n".join(
        f"{i}. <@{e.user_id}>{' ✅' if t_.check_in and e.checked_in else ''}"
        for i, e in enumerate(entrants, start=1)
    )
    cap = f"/{t_.cap}" if t_.cap else ""
    embed.add_field(
        name=t("tourney.entrants", locale, n=len(entrants), cap=cap),
        value=clip(listed or t("lobby.nobody", locale), 1024),
        inline=False,
    )
    embed.set_footer(text=t("tourney.signup_footer", locale))
    view = discord.ui.View(timeout=None)
    if t_.status == "signup":
        full = t_.cap is not None and len(entrants) >= t_.cap
        view.add_item(SignupButton(t_.id, "join", t("btn.join", locale), disabled=full))
        view.add_item(SignupButton(t_.id, "leave", t("btn.leave", locale)))
        if t_.check_in:
            view.add_item(SignupButton(t_.id, "checkin", t("tourney.btn.checkin", locale)))
    return {"embed": embed, "view": view, "allowed_mentions": NO_MENTIONS}


def standing_line(s: Standing, tiebreaks: tuple[str, ...], elimination: bool, locale: str) -> str:
    """One player's line of the standings embed."""
    who = f"<@{s.player}>"
    gone = " " + t("tourney.dropped_mark", locale) if s.dropped else ""
    if elimination:
        return (
            t("tourney.line_elim", locale, rank=s.rank, who=who, wins=s.wins, games=s.games) + gone
        )
    # Each tiebreak with its name: a bare "2.50 · 1.00" leaves the reader guessing.
    extra = " · ".join(f"{t(f'tourney.tb.{k}', locale)} {show(s.tiebreaks[k])}"
                       for k in tiebreaks if k in s.tiebreaks)
    line = t(
        "tourney.line",
        locale,
        rank=s.rank,
        who=who,
        points=show(s.points),
        games=_count("games", s.games, locale),
        wins=_count("wins", s.wins, locale),
    )
    return line + (f" · {extra}" if extra else "") + gone


async def standings_embed(svc: TournamentService, t_: TournamentRow, locale: str) -> discord.Embed:
    """The standings as an embed (the first lines; the picture and CSV carry all)."""
    rows = await svc.standings(t_.id)
    tbs = tiebreaks_of(t_)
    status = {
        "running": t("tourney.status.running", locale, round=t_.current_round),
        "finished": t("tourney.status.finished", locale),
        "cancelled": t("tourney.status.cancelled", locale),
    }.get(t_.status, "")
    lines = [standing_line(s, tbs, t_.format in ELIMINATIONS, locale) for s in rows[:EMBED_LINES]]
    if len(rows) > EMBED_LINES:
        lines.append(t("tourney.more", locale, n=len(rows) - EMBED_LINES))
    embed = discord.Embed(
        title=t("tourney.standings_title", locale, name=t_.name, id=t_.id),
        description=clip("\n".join([status, "", *lines]), 4096),
        colour=COLOUR,
    )
    if tbs:
        labels = ", ".join(t(f"tourney.tb.{k}", locale) for k in tbs)
        embed.set_footer(text=clip(t("tourney.tb_footer", locale, tiebreaks=labels), 2048))
    return embed


async def standings_files(
    svc: TournamentService, t_: TournamentRow, locale: str, *, csv: bool
) -> list[discord.File]:
    """The standings picture, the bracket picture (eliminations) and, if asked, the CSV."""
    rows = await svc.standings(t_.id)
    names = await names_of(svc, t_.id)
    title = t("tourney.standings_title", locale, name=t_.name, id=t_.id)
    png = await asyncio.to_thread(render, standings_png, rows, names, tiebreaks_of(t_), locale, title)
    files = [discord.File(io.BytesIO(png), filename=f"tournament-{t_.id}.png")]
    if t_.format in ELIMINATIONS and t_.status != "signup":
        bracket = await svc.bracket(t_.id)
        art = await asyncio.to_thread(render, bracket_png, bracket, names, locale, title)
        files.append(discord.File(io.BytesIO(art), filename=f"bracket-{t_.id}.png"))
    if csv:
        text = await svc.standings_csv(t_.id)
        files.append(
            discord.File(io.BytesIO(text.encode("utf-8")), filename=f"tournament-{t_.id}.csv")
        )
    return files


_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "checkin": discord.ButtonStyle.primary,
}


class SignupButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tablero:tourney:(?P<action>join|leave|checkin):(?P<tid>\d+)",
):
    """Sign up / Leave / Check in on a tournament's sign-up message; works after a restart."""

    def __init__(
        self, tournament: int, action: str, label: str | None = None, *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or action,
                style=_STYLES[action],
                custom_id=f"tablero:tourney:{action}:{tournament}",
                disabled=disabled,
            )
        )
        self.tournament, self.action = tournament, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> SignupButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["tid"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Sign the user up (or out, or in) and show the sign-up as it now is."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        svc: TournamentService = _bot(interaction).tournaments
        user = interaction.user
        if self.action == "join":
            t_ = await svc.require(self.tournament)
            if (ask := SIGNUP_ASK.get(t_.game_id)) is not None and t_.status == "signup":
                await svc.check_entry(t_, user.id)  # before asking anything more
                await ask(interaction, t_)
                return
            await svc.enter(self.tournament, user.id, user.display_name)
        elif self.action == "leave":
            await svc.leave(self.tournament, user.id)
        else:
            await svc.check_in(self.tournament, user.id)
        t_ = await svc.require(self.tournament)
        await interaction.response.edit_message(**await signup_message(svc, t_, t_.locale))


