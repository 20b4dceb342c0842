"""The choices and embeds of /settings, /config and the clock options of /game new."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common.i18n import t, tn
from cogs.common.present import COLOUR
from services.clock import CLOCKS, clock_name
from services.clock_bank import BANKS, bank_of, span
from services.limits import BURST
from storage.settings import GuildSettings

NOTIFY_CHOICES = [
    app_commands.Choice(name="Mention in the channel", value="channel"),
    app_commands.Choice(name="Direct message", value="dm"),
    app_commands.Choice(name="Both", value="both"),
    app_commands.Choice(name="Neither", value="none"),
]
CLOCK_CHOICES = [
    app_commands.Choice(name="No clock", value="off"),
    app_commands.Choice(name="12 hours", value="12h"),
    app_commands.Choice(name="24 hours", value="24h"),
    app_commands.Choice(name="48 hours", value="48h"),
    app_commands.Choice(name="72 hours", value="72h"),
    app_commands.Choice(name="7 days", value="7d"),
]
# Time banks (services/clock_bank.py's BANKS), offered next to the per-turn clocks where a
# game's clock is chosen (/game new, /config).
BANK_CHOICES = [
    app_commands.Choice(name="Time bank: 1 day, +12 hours a move, up to 3 days", value="1d+12h"),
    app_commands.Choice(name="Time bank: 3 days, +1 day a move, up to 7 days", value="3d+1d"),
    app_commands.Choice(name="Time bank: 7 days, +2 days a move, up to 14 days", value="7d+2d"),
]
GAME_CLOCK_CHOICES = [*CLOCK_CHOICES, *BANK_CHOICES]
TIMEOUT_CHOICES = [
    app_commands.Choice(name="The bot plays for them", value="ai"),
    app_commands.Choice(name="The bot takes the seat", value="drop"),
]
# When a finished game's thread is archived: hours after the game ends (0: never).
ARCHIVE_HOURS = {"1h": 1, "24h": 24, "3d": 72, "7d": 168, "never": 0}
ARCHIVE_CHOICES = [
    app_commands.Choice(name="1 hour after the game ends", value="1h"),
    app_commands.Choice(name="24 hours after the game ends", value="24h"),
    app_commands.Choice(name="3 days after the game ends", value="3d"),
    app_commands.Choice(name="7 days after the game ends", value="7d"),
    app_commands.Choice(name="Never (Discord's own, after a week without messages)", value="never"),
]
# The window in which a member may run each heavy command (/game new, replay, deck import)
# BURST times (services/limits.py).
COOLDOWN_SECONDS = {"off": 0, "15s": 15, "30s": 30, "1m": 60, "5m": 300, "15m": 900}
COOLDOWN_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for value, name in (("off", "No limit"), ("15s", "15 seconds"), ("30s", "30 seconds"), ("1m", "1 minute"),
                        ("5m", "5 minutes"), ("15m", "15 minutes"))
]
# The languages a game's public messages can be in (/game new), and the server's setting
# (/config), whose "user" leaves each game to its host or the server's Discord language.
GAME_LANGUAGES = [
    app_commands.Choice(name="Spanish", value="es"),
    app_commands.Choice(name="English", value="en"),
]
LANGUAGE_CHOICES = [*GAME_LANGUAGES, app_commands.Choice(name="The server's Discord language", value="user")]


def clock_setting(name: str) -> tuple[int | None, tuple[int, int] | None]:
    """A clock menu choice as the game's columns: seconds (a per-turn clock's, or a bank's
    reserve) and the bank's (increment, cap), None for a per-turn clock. KeyError if unknown."""
    if name in BANKS:
        bank = BANKS[name]
        return bank.start, (bank.increment, bank.cap)
    return CLOCKS[name], None


def server_clock(gs: GuildSettings) -> tuple[int | None, tuple[int, int] | None]:
    """The server's default clock for new games, as ``clock_setting`` gives a choice's."""
    bank = (gs.bank_increment, gs.bank_cap) if gs.bank_increment is not None and gs.bank_cap is not None else None
    return gs.clock_seconds, bank


def clock_names() -> list[str]:
    """Every clock a menu offers, by name."""
    return [*CLOCKS, *BANKS]


def clock_text(seconds: int | None, action: str, locale: str,
               increment: int | None = None, cap: int | None = None) -> str:
    """A clock setting in words (a time bank when ``increment`` and ``cap`` are given)."""
    if not seconds:
        return t("clock.none", locale)
    what = t(f"timeout.{action}", locale)
    bank = bank_of(seconds, increment, cap)
    if bank is not None:
        return t("clock.bank_value", locale, start=span(bank.start), increment=span(bank.increment),
                 cap=span(bank.cap), action=what)
    return t("clock.value", locale, clock=clock_name(seconds), action=what)


def config_embed(gs: GuildSettings, locale: str) -> discord.Embed:
    """The server's settings as an embed."""
    embed = discord.Embed(title=t("config.title", locale), colour=COLOUR)
    embed.add_field(name=t("config.locale", locale),
                    value=gs.locale or t("config.locale_user", locale), inline=False)
    embed.add_field(name=t("clock.label", locale),
                    value=clock_text(gs.clock_seconds, gs.timeout_action, locale, gs.bank_increment, gs.bank_cap),
                    inline=False)
    embed.add_field(name=t("config.timeout_limit", locale), inline=False,
                    value=tn("config.timeout_limit_n", gs.timeout_limit, locale) if gs.timeout_limit
                    else t("config.timeout_limit_never", locale))
    embed.add_field(name=t("config.role", locale),
                    value=f"<@&{gs.creator_role_id}>" if gs.creator_role_id else t("config.anyone", locale),
                    inline=False)
    embed.add_field(name=t("config.channel", locale),
                    value=f"<#{gs.games_channel_id}>" if gs.games_channel_id else t("config.here", locale),
                    inline=False)
    embed.add_field(name=t("config.organiser_role", locale),
                    value=f"<@&{gs.organiser_role_id}>" if gs.organiser_role_id
                    else t("config.manage_server", locale), inline=False)
    embed.add_field(name=t("config.threads", locale),
                    value=t("config.threads_on" if gs.game_threads else "config.threads_off", locale),
                    inline=False)
    embed.add_field(name=t("config.archive", locale), value=archive_text(gs.archive_hours, locale), inline=False)
    embed.add_field(name=t("config.cooldown", locale),
                    value=tn("config.cooldown_seconds", gs.cooldown_seconds, locale, burst=BURST) if gs.cooldown_seconds
                    else t("config.cooldown_off", locale), inline=False)
    embed.add_field(name=t("config.lobbies", locale), inline=False,
                    value=t("config.per_member_server", locale, member=gs.lobbies_per_member,
                            server=gs.lobbies_per_server))
    embed.add_field(name=t("config.game_threads_cap", locale), inline=False,
                    value=t("config.per_member_server", locale, member=gs.threads_per_member,
                            server=gs.threads_per_server))
    return embed


def archive_text(hours: int, locale: str) -> str:
    """When finished games' threads are archived, in words."""
    if hours <= 0:
        return t("config.archive_never", locale)
    return tn("config.archive_hours", hours, locale)


