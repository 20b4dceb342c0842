"""The clock's escalation and the reliability record as players read them: the line a
timeout leaves on the card, the last reminder's word on what comes at the deadline, the DM
telling a player the seat is no longer theirs, and the record /rating me shows."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.common.i18n import count, t, tn
from cogs.common.present import jump_url
from rules.core import Seat
from services.escalation import step_for, timeouts_so_far
from services.reliability import Reliability, Requirements, reliability_of
from services.session import Game, MoveResult
from storage.outbox import Owed
from storage.tournaments import TournamentRow

# /config timeouts: after how many timeouts of one player in one game the bot keeps the seat.
TIMEOUT_LIMITS = {"1": 1, "2": 2, "3": 3, "5": 5, "never": 0}
TIMEOUT_LIMIT_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for value, name in (("1", "At the first timeout"), ("2", "After 2 timeouts"),
                        ("3", "After 3 timeouts"), ("5", "After 5 timeouts"),
                        ("never", "Never (the bot plays each turn, the seat stays theirs)"))
]
# The timeout actions a tournament may choose: the server's two, or a loss on time.
TOURNAMENT_TIMEOUT_CHOICES = [
    app_commands.Choice(name="The bot plays for them", value="ai"),
    app_commands.Choice(name="The bot takes the seat", value="drop"),
    app_commands.Choice(name="The game is lost on time", value="lose"),
]


# What the deadline brings, by the step it would take: said to the player, or of them.
STAKES = {"ai": "clock.stake_ai", "ai_count": "clock.stake_ai_count", "drop": "clock.stake_drop",
          "lose": "clock.stake_lose"}
THEIR_STAKES = {"ai": "clock.their_stake_ai", "ai_count": "clock.their_stake_ai_count",
                "drop": "clock.their_stake_drop", "lose": "clock.their_stake_lose"}


def timeout_line(g: Game, result: MoveResult, locale: str) -> str:
    """What a timeout did, on the card and in the turn's message."""
    assert result.timed_out is not None
    name = g.seat_row(result.timed_out).name
    step = result.escalation
    if step is None or step.action == "no":
        return t("clock.dropped" if result.dropped else "clock.timed_out", locale, name=name)
    if step.action == "lose":
        return t("clock.lost_on_time", locale, name=name)
    if step.action == "drop":
        if g.row.timeout_action == "drop" or not step.limit:
            return t("clock.dropped", locale, name=name)
        return t("clock.dropped_limit", locale, name=name, count=step.count)
    if step.limit:
        return t("clock.timed_out_count", locale, name=name, count=step.count, limit=step.limit)
    return t("clock.timed_out", locale, name=name)


async def at_stake(store: Any, g: Game, seat: Seat, locale: str, *, name: str | None = None) -> str:
    """The last reminder's word on what the deadline brings for ``seat``: said to the player,
    or, given their ``name``, said of them to the table (the channel told their DMs are closed)."""
    so_far, limit = await timeouts_so_far(store, g, seat)
    step = step_for(g.row.timeout_action, so_far + 1, limit)
    if step == "ai" and limit:
        step = "ai_count"
    return t(STAKES[step] if name is None else THEIR_STAKES[step], locale, count=so_far, limit=limit, name=name)


def out_owed(g: Game, result: MoveResult) -> list[Owed]:
    """The DM a timeout owes the player it put out of the game (none for a mere timeout)."""
    if result.timed_out is None or not result.dropped:
        return []
    seat = result.timed_out
    return [Owed("out", f"out:{seat}", {"seat": seat, "lost": bool(
        result.escalation is not None and result.escalation.action == "lose")})]


def out_text(g: Game, p: dict[str, Any], locale: str) -> str:
    """The DM telling a player the clock put them out of ``g``, and what that means."""
    where = dict(title=g.engine.title.get(locale), id=g.id, channel=f"<#{g.row.channel_id}>")
    text = t("clock.out_lost" if p.get("lost") else "clock.out_bot", locale, **where)
    url = jump_url(g)
    return f"{text}\n{url}" if url else text


def minutes_text(seconds: float | None, locale: str) -> str:
    """A time to move in words ("3 h 20 min", "45 min"); a dash when there is none."""
    if seconds is None:
        return "-"
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return t("reliability.minutes", locale, m=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours >= 48:
        return t("reliability.days", locale, d=round(hours / 24))
    return t("reliability.hours", locale, h=hours, m=minutes)


def reliability_text(r: Reliability, locale: str) -> str:
    """A reliability record in two lines, as /rating me shows it."""
    return "\n".join((
        t("reliability.games", locale, finished=count("finished", r.finished, locale),
          lost=count("lost_on_time", r.lost_on_time, locale)),
        t("reliability.clock", locale, timeouts=count("timeouts", r.timeouts, locale),
          pct=f"{r.timeout_pct:.0f}", median=minutes_text(r.median_move, locale)),
    ))


def requirement_lines(t_: TournamentRow, locale: str) -> list[str]:
    """What a tournament asks of a player signing up, one line each (none: nothing)."""
    asks = Requirements.from_json(t_.requirements)
    lines = []
    if asks.min_finished:
        lines.append(tn("tourney.min_finished_line", asks.min_finished, locale))
    if asks.max_timeout_pct is not None:
        lines.append(t("tourney.max_timeouts_line", locale, most=asks.max_timeout_pct))
    return lines


async def reliability_field(embed: discord.Embed, store: Any, user_id: int, guild_id: int | None,
                            locale: str) -> None:
    """The player's reliability record as a field of /rating me's embed (on ``guild_id``, or
    on every server when None), when they have played at all."""
    record = await reliability_of(store, user_id, guild_id)
    if record.finished or record.lost_on_time or record.turns or record.timeouts:
        embed.add_field(name=t("reliability.title", locale), value=reliability_text(record, locale),
                        inline=False)
