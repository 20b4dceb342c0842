"""/settings (each user's own) and /config (a server's, for members with Manage Server)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import services
from cogs.common.clock_view import DAYS_CHOICES, hours_text, new_hours, zone_choices
from cogs.common.errors import reply
from cogs.common.escalation import TIMEOUT_LIMIT_CHOICES, TIMEOUT_LIMITS
from cogs.common.i18n import locale_of, said, t, tn
from cogs.common.present import COLOUR
from cogs.common.settings_view import (
    ARCHIVE_CHOICES,
    ARCHIVE_HOURS,
    COOLDOWN_CHOICES,
    COOLDOWN_SECONDS,
    GAME_CLOCK_CHOICES,
    LANGUAGE_CHOICES,
    NOTIFY_CHOICES,
    TIMEOUT_CHOICES,
    clock_setting,
    config_embed,
)
from services.clock import VACATION_DAYS_PER_YEAR, year_of
from services.clock_time import hours_of
from services.playing_hours import set_playing_hours
from services.session import Refusal


class Settings(commands.Cog):
    """Per-user notification settings and per-server configuration."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="settings", description="Your own settings")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.describe(
        notify="How you are told it is your turn",
        time_zone="Your time zone (IANA name, e.g. Europe/Madrid)",
        quiet_hours="Hours you do not play, e.g. 23:00-08:00 (- removes them)",
        quiet_days="Days those hours apply",
        quiet_hours_2="A second window of hours you do not play, e.g. 09:00-17:00 (- removes it)",
        quiet_days_2="Days the second window applies",
    )
    @app_commands.choices(notify=NOTIFY_CHOICES, quiet_days=DAYS_CHOICES, quiet_days_2=DAYS_CHOICES)
    @app_commands.autocomplete(time_zone=zone_choices)
    async def settings(
        self,
        interaction: discord.Interaction,
        notify: str | None = None,
        time_zone: str | None = None,
        quiet_hours: str | None = None,
        quiet_days: str | None = None,
        quiet_hours_2: str | None = None,
        quiet_days_2: str | None = None,
    ) -> None:
        """Show your settings, changing how you are told it is your turn and your playing
        hours (time zone, quiet hours) if asked; bad hours change nothing."""
        session = services(interaction).session
        store = session.store
        locale = locale_of(interaction)
        uid = interaction.user.id
        mine = await store.user_settings(uid)
        asked = (time_zone, quiet_hours, quiet_days, quiet_hours_2, quiet_days_2)
        # Every part is checked before anything is stored.
        hours = new_hours(hours_of(mine), *asked) if any(a is not None for a in asked) else None
        if notify is not None:
            mine = await store.update_user(uid, notify=notify, locale=locale)
        moved: list[int] = []
        if hours is not None:
            moved = await set_playing_hours(session, uid, hours, locale)
            mine = await store.user_settings(uid)
        now = session.clock.now()
        used = mine.vacation_used if mine.vacation_year == year_of(now) else 0.0
        embed = discord.Embed(title=t("settings.title", locale), colour=COLOUR)
        embed.add_field(name=t("settings.notify", locale), value=t(f"notify.{mine.notify}", locale), inline=False)
        left = max(0, VACATION_DAYS_PER_YEAR - int(used))
        vacation = tn("settings.vacation_left", left, locale, total=VACATION_DAYS_PER_YEAR)
        if mine.vacation_until and mine.vacation_until > now:
            vacation += f" · 🏖️ <t:{int(mine.vacation_until)}:f>"
        embed.add_field(name=t("settings.vacation", locale), value=vacation, inline=False)
        embed.add_field(name=t("settings.hours", locale), value=hours_text(mine, locale), inline=False)
        await reply(interaction, embed=embed, ephemeral=True)
        # The cards of the games whose deadline moved show the new one.
        for game in moved:
            await services(interaction).boards.refresh(game)

    @app_commands.command(name="config", description="Server settings (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        language="Language of public messages",
        clock="Default clock of new games (per turn, or a time bank)",
        timeout="When time runs out: the bot plays, or takes the seat",
        timeouts="After how many timeouts in one game the bot keeps the seat",
        role="Role allowed to create games",
        channel="Channel where new games open their threads",
        organiser_role="Role allowed to run tournaments (besides Manage Server)",
        threads="Open new games in their own thread unless the host says otherwise",
        archive="When a finished game's thread is archived",
        cooldown="How often a member may run heavy commands (new game, replay, deck import)",
        lobbies_per_member="Open lobbies one member may host",
        lobbies_per_server="Open lobbies the whole server may hold",
        threads_per_member="Threads of unfinished games one member may host",
        threads_per_server="Threads of unfinished games the whole server may hold",
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, clock=GAME_CLOCK_CHOICES, timeout=TIMEOUT_CHOICES,
                          archive=ARCHIVE_CHOICES, cooldown=COOLDOWN_CHOICES,
                          timeouts=TIMEOUT_LIMIT_CHOICES)
    async def config(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        clock: str | None = None,
        timeout: str | None = None,
        timeouts: str | None = None,
        role: discord.Role | None = None,
        channel: discord.TextChannel | None = None,
        organiser_role: discord.Role | None = None,
        threads: bool | None = None,
        archive: str | None = None,
        cooldown: str | None = None,
        lobbies_per_member: app_commands.Range[int, 1, 25] | None = None,
        lobbies_per_server: app_commands.Range[int, 1, 500] | None = None,
        threads_per_member: app_commands.Range[int, 1, 25] | None = None,
        threads_per_server: app_commands.Range[int, 1, 1000] | None = None,
    ) -> None:
        """Show the server's settings, changing those given."""
        locale = locale_of(interaction)
        # default_permissions only hides the command by default; a server may show it to
        # anyone, so the permission is checked again here.
        if not interaction.permissions.manage_guild:
            raise Refusal(said("config.not_allowed"))
        store = services(interaction).session.store
        assert interaction.guild_id is not None
        changes: dict[str, object] = {}
        if language is not None:
            changes["locale"] = None if language == "user" else language
        if clock is not None:
            seconds, bank = clock_setting(clock)  # Discord lets only the choices through
            changes.update(clock_seconds=seconds, bank_increment=bank[0] if bank else None,
                           bank_cap=bank[1] if bank else None)
        if timeout is not None:
            changes["timeout_action"] = timeout
        if timeouts is not None:  # Discord lets only the choices through
            changes["timeout_limit"] = TIMEOUT_LIMITS[timeouts]
        if role is not None:
            # Choosing @everyone lets anyone create games again.
            changes["creator_role_id"] = None if role.is_default() else role.id
        if channel is not None:
            changes["games_channel_id"] = channel.id
        if organiser_role is not None:
            # Choosing @everyone leaves tournaments to Manage Server again.
            changes["organiser_role_id"] = None if organiser_role.is_default() else organiser_role.id
        if threads is not None:
            changes["game_threads"] = threads
        if archive is not None:  # Discord lets only the choices through
            changes["archive_hours"] = ARCHIVE_HOURS[archive]
        if cooldown is not None:
            changes["cooldown_seconds"] = COOLDOWN_SECONDS[cooldown]
        caps = {"lobbies_per_member": lobbies_per_member, "lobbies_per_server": lobbies_per_server,
                "threads_per_member": threads_per_member, "threads_per_server": threads_per_server}
        changes.update({k: v for k, v in caps.items() if v is not None})  # Discord keeps them in range
        if changes:
            gs = await store.update_guild(interaction.guild_id, **changes)
        else:
            gs = await store.guild_settings(interaction.guild_id)
        await reply(interaction, embed=config_embed(gs, locale), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the settings cog (discord.py extension entry point)."""
    await bot.add_cog(Settings(bot))
