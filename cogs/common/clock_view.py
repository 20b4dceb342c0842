"""The clock in words: time banks on the card and in /game mine, and a user's playing hours
in /settings (their checks and the time zone autocomplete)."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.autocomplete import quiet
from cogs.common.i18n import said, t
from cogs.common.usertext import plain
from services.clock_bank import balances, bank_of, span
from services.clock_time import (
    BadHours,
    PlayingHours,
    Window,
    check_quiet,
    check_zone,
    parse_quiet,
    parse_window,
    zone_names,
)
from services.session import Game, Refusal
from storage.deadlines import DeadlineRow
from storage.settings import UserSettings

# What a player writes to remove quiet hours.
NONE_WORDS = frozenset({"-", "none", "no", "off", "ninguna", "ninguno", "nada", "0"})
DAYS_CHOICES = [
    app_commands.Choice(name="Every day", value="all"),
    app_commands.Choice(name="Monday to Friday", value="weekdays"),
]
AUTOCOMPLETE_LIMIT = 25  # Discord shows at most this many choices


def bank_fields(g: Game, waits: list[DeadlineRow], stored: dict[int, float], now: float,
                locale: str) -> list[tuple[str, str, bool]]:
    """The card's field with every player's time bank (none for a per-turn clock): a
    pending player's as it runs now, quiet hours left out."""
    bank = bank_of(g.row.clock_seconds, g.row.bank_increment, g.row.bank_cap)
    if bank is None or g.status != "active":
        return []
    humans = [s for s in g.seats if not s.ai and s.user_id is not None]
    left = balances(bank, [s.seat for s in humans], stored, {w.seat: w for w in waits}, now)
    parts = [t("clock.bank_seat", locale, name=plain(s.name), left=span(left[s.seat])) for s in humans]
    return [(t("clock.bank_title", locale), " · ".join(parts), False)] if parts else []


async def bank_fields_of(store: object, g: Game, waits: list[DeadlineRow], now: float,
                         locale: str | None = None) -> list[tuple[str, str, bool]]:
    """``bank_fields`` of ``g`` read from the store (nothing read for a per-turn clock), in
    ``locale`` (default: the game's public language)."""
    if g.row.bank_increment is None or g.status != "active":
        return []
    stored = await store.clock_banks(g.id)  # type: ignore[attr-defined]
    return bank_fields(g, waits, stored, now, locale or g.locale)


def hours_text(mine: UserSettings, locale: str) -> str:
    """A user's playing hours in words: zone, and quiet hours or that the clock always runs."""
    zone = mine.time_zone or "UTC"
    if not mine.quiet_hours:
        return t("hours.none", locale, zone=zone)
    days = " " + t("hours.weekdays", locale)
    quiet = ", ".join(w.text().removesuffix(" weekdays") + (days if w.weekdays else "")
                      for w in parse_quiet(mine.quiet_hours))
    return t("hours.quiet", locale, zone=zone, quiet=quiet)


def refuse(e: BadHours) -> Refusal:
    """A refusal of bad playing hours in the player's language (what is wrong, what to write)."""
    return Refusal(said(e.key, value=e.value))


def _window(text: str, days: str | None, current: Window | None) -> Window | None:
    """The window a player wrote (None: removed), on the days chosen or as it was."""
    if text.strip().lower() in NONE_WORDS:
        return None
    weekdays = (days == "weekdays") if days is not None else bool(current and current.weekdays)
    return parse_window(text, weekdays)


def new_hours(mine: PlayingHours, zone: str | None, first: str | None, first_days: str | None,
              second: str | None, second_days: str | None) -> PlayingHours:
    """The playing hours /settings asks for, from the current ones; Refusal (nothing
    changed) when any part is wrong."""
    try:
        name = check_zone(zone) if zone is not None else mine.zone
        windows: list[Window | None] = [*mine.quiet, None, None][:2]
        for i, (text, days) in enumerate(((first, first_days), (second, second_days))):
            if text is not None:
                windows[i] = _window(text, days, windows[i])
            elif days is not None:
                if windows[i] is None:
                    raise BadHours("hours.days_without_window")
                windows[i] = Window(windows[i].start, windows[i].end, days == "weekdays")  # type: ignore[union-attr]
        if first is not None and windows[0] is None:
            windows[1] = None if second is None else windows[1]  # "-" removes them all
        kept = tuple(w for w in windows if w is not None)
        return PlayingHours(name, check_quiet(kept))
    except BadHours as e:
        raise refuse(e) from None


@quiet
async def zone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """IANA time zones matching what the user typed (by any part: "madrid", "new_york")."""
    typed = current.strip().lower().replace(" ", "_")
    names = sorted(zone_names())
    found = [n for n in names if n.lower().startswith(typed)] if typed else []
    found += [n for n in names if typed in n.lower() and n not in found]
    if not typed:
        found = ["UTC", "Europe/Madrid", "Europe/London", "America/New_York", "America/Mexico_City",
                 "America/Argentina/Buenos_Aires", "America/Bogota", "America/Los_Angeles"]
    return [app_commands.Choice(name=n, value=n) for n in found[:AUTOCOMPLETE_LIMIT]]
