"""The game-agnostic /game commands: the lobby, looking at a game, what is waiting, undo,
spectators, replays, the host's tools, and the generic move."""

from __future__ import annotations

import asyncio
import io
import logging
import typing
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import services
from cogs.common.choices import COMPONENTS, action_choices, fold, play_value, show_hand, within
from cogs.common.contexts import ANY_INSTALL, EVERYWHERE, bot_is_here, require_bot_server
from cogs.common.errors import reply
from cogs.common.game_threads import ThreadKeeper, can_view, place_new_game
from cogs.common.gamelog import LogButton, render_log
from cogs.common.i18n import count as _count
from cogs.common.i18n import locale_of, public_locale, said, t, text_choice, tn
from cogs.common.limits import heavy, open_slot, replay_slot
from cogs.common.lobby_message import LOBBY_EXTRAS as LOBBY_EXTRAS
from cogs.common.lobby_message import LobbyButton, after_start, render_lobby
from cogs.common.lobby_message import LobbyExtra as LobbyExtra
from cogs.common.lobby_options import describe_options as describe_options
from cogs.common.lobby_options import gather_options as gather_options
from cogs.common.lobby_options import literal_autocomplete, option_suggestions
from cogs.common.lobby_options import literal_values as literal_values
from cogs.common.lobby_options import parse_options_text as parse_options_text
from cogs.common.overview import list_embed, mine_embed
from cogs.common.present import (
    BOT_MARK,
    NO_MENTIONS,
    clip,
)
from cogs.common.replay_files import REPLAY_TIMEOUT, replay_files
from cogs.common.settings_view import (
    GAME_CLOCK_CHOICES,
    GAME_LANGUAGES,
    TIMEOUT_CHOICES,
    clock_names,
    clock_setting,
    server_clock,
)
from cogs.common.undo import UndoButton, ask
from cogs.common.usertext import small_number
from cogs.common.verify import verdict
from cogs.pictures.pool import render_within
from rules.registry import games as registered_games
from services.faults import crash_point
from services.session import Game, NoGame, Refusal
from services.vacation import set_vacation

log = logging.getLogger("tablero.lobby")


# ----------------------------------------------------------------------------- the cog


def _game_choices() -> list[app_commands.Choice[str]]:
    return [text_choice(e.title, gid) for gid, e in registered_games().items()]




# The /game commands about the user themself, offered in DMs and wherever the user installed
# Tablero (cogs/common/contexts.py).
GAME_ANYWHERE = frozenset({"game mine", "game hand", "game vacation"})


class Lobby(commands.Cog):
    """Creating, joining, inspecting and closing games of any kind."""

    # Offered everywhere for /game mine, /game hand and /game vacation (about the user
    # themself); its other commands need a server with the bot (interaction_check).
    game = app_commands.Group(
        name="game", description="Board and card games, played over days",
        allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL,
    )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Game commands only where a game can be; the user's own ones anywhere."""
        return require_bot_server(interaction, GAME_ANYWHERE)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.threads = ThreadKeeper(bot)

    async def cog_load(self) -> None:
        """Register the persistent components and the lobby's look."""
        self.bot.add_dynamic_items(LobbyButton, LogButton, UndoButton, *COMPONENTS)
        services_ = typing.cast(Any, self.bot)
        services_.boards.lobby_renderer = render_lobby
        leases = getattr(self.bot, "leases", None)
        if leases is not None:
            # Several processes: the lease's holder archives finished games' threads.
            leases.job("threads", self._archive_taken, self.threads.stop)

    async def cog_unload(self) -> None:
        """Stop archiving threads."""
        await self.threads.stop()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Archive finished games' threads as they come due (those due while down first)."""
        if getattr(self.bot, "leases", None) is None:
            await self._archive_taken()

    async def _archive_taken(self) -> None:
        # A test's bot (run_clock False) archives when the test asks.
        if getattr(self.bot, "run_clock", True):
            self.threads.start()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Count messages under each board so a buried board gets posted again."""
        typing.cast(Any, self.bot).boards.note_message(message)

    # -- /game new -------------------------------------------------------------------

    @game.command(name="new", description="Open a game lobby in this channel")
    @app_commands.describe(
        game="Which game",
        thread="Open it in a new public thread (default: the server's setting)",
        variant="Variant of the rules",
        scoring="Match (first to N wins) or points over N games",
        wins_needed="Wins needed to take the match",
        games="Number of games when scoring by points",
        reshuffle="Reshuffle the used neutrals when they run out",
        options="More options as key=value separated by spaces",
        clock="Clock: time each player has to move, per turn or as a time bank",
        timeout="When time runs out: the bot plays, or takes the seat",
        language="Language of the game's public messages (default: the server's)",
    )
    @app_commands.choices(game=_game_choices(), clock=GAME_CLOCK_CHOICES, timeout=TIMEOUT_CHOICES,
                          language=GAME_LANGUAGES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        thread: bool | None = None,
        variant: str | None = None,
        scoring: str | None = None,
        wins_needed: app_commands.Range[int, 1, 9] | None = None,
        games: app_commands.Range[int, 1, 9] | None = None,
        reshuffle: bool | None = None,
        options: str | None = None,
        clock: str | None = None,
        timeout: str | None = None,
        language: str | None = None,
    ) -> None:
        """Open a lobby here (or in a new thread) with the host seated."""
        bot = services(interaction)
        locale = locale_of(interaction)
        engine = bot.session.engine(game)
        server = await bot.session.store.guild_settings(interaction.guild_id)
        role = server.creator_role_id
        member_roles = {r.id for r in getattr(interaction.user, "roles", [])}
        if role is not None and role not in member_roles and not interaction.permissions.manage_guild:
            raise Refusal(said("err.creator_role", role=f"<@&{role}>"))
        if clock is not None and clock not in clock_names():
            raise Refusal(said("err.bad_clock", value=clock, options=", ".join(clock_names())))
        clock_seconds, bank = clock_setting(clock) if clock is not None else server_clock(server)
        timeout_action = timeout if timeout in ("ai", "drop") else server.timeout_action
        public = public_locale(interaction, server.locale, language)
        explicit = {
            "variant": variant, "scoring": scoring, "wins_needed": wins_needed,
            "games": games, "reshuffle": reshuffle,
        }
        opts = gather_options(engine, explicit, options)
        # Validate before any Discord side effect (such as creating a thread).
        opts = engine.parse_options(opts).model_dump(mode="json")
        # Where it opens: a new thread (the server's default, or asked for), else here.
        parent = place_new_game(interaction, thread, server)
        user = interaction.user
        common = {
            "guild_id": interaction.guild_id, "game_id": game, "options": opts,
            "host_id": user.id, "host_name": user.display_name, "locale": public,
            "clock_seconds": clock_seconds, "timeout_action": timeout_action, "host_locale": locale,
            "bank": bank,
        }
        async with heavy(interaction, "new", server):  # the cooldown first: it costs no query
            async with open_slot(interaction, server, thread=parent is not None):
                await self._open(interaction, parent, common, clip(f"{engine.title.get(locale)} · {user.display_name}", 100))

    async def _open(self, interaction: discord.Interaction, parent: discord.TextChannel | None,
                    common: dict[str, Any], name: str) -> None:
        """Open the lobby: in this channel (``parent`` None) or in a thread ``name`` of ``parent``."""
        bot = services(interaction)
        locale = common["host_locale"]
        if parent is None:
            g = await bot.session.create(channel_id=interaction.channel_id or 0, **common)
            rendered = render_lobby(g, g.locale)
            try:
                response = await interaction.response.send_message(**rendered.send_kwargs())
            except discord.HTTPException:
                # The lobby never reached the channel: a game nobody can see must not hold it.
                await bot.session.withdraw(g.id)
                raise
            crash_point("lobby.posted")
            if response.message_id is not None:
                await bot.boards.adopt(g.id, interaction.channel_id or 0, response.message_id)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        # Noted first: a thread left without its game by a crash is removed at the next start.
        pending = await bot.session.store.add_pending_thread(interaction.guild_id, parent.id, name)
        try:
            created = await parent.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.Forbidden:
            await bot.session.store.drop_pending_thread(pending)
            raise Refusal(said("err.thread_forbidden")) from None
        bot.announcer.own_threads.add(created.id)
        crash_point("thread.created")
        g = await bot.session.create(channel_id=created.id, pending_thread=pending, **common)
        # Archived some hours after the game ends (see ThreadKeeper).
        await bot.session.store.note_game_thread(created.id, g.id, interaction.guild_id)
        try:
            message = await created.send(**render_lobby(g, g.locale).send_kwargs())
        except discord.HTTPException:
            await bot.session.withdraw(g.id)
            raise
        await bot.boards.adopt(g.id, created.id, message.id)
        await interaction.followup.send(t("lobby.in_thread", locale, id=g.id, thread=created.mention), ephemeral=True)

    @new.autocomplete("variant")
    async def _variant_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await literal_autocomplete(interaction, current, "variant")

    @new.autocomplete("scoring")
    async def _scoring_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await literal_autocomplete(interaction, current, "scoring")

    @new.autocomplete("options")
    async def _options_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            engines = registered_games()
            gid = getattr(interaction.namespace, "game", None)
            if gid not in engines:
                return []
            return option_suggestions(engines[gid], current, locale_of(interaction))
        except Exception:
            log.exception("options autocomplete failed")
            return []

    # -- lobby by command ------------------------------------------------------------------

    async def _channel_game(self, interaction: discord.Interaction) -> Game:
        return await services(interaction).session.require_in_channel(interaction.channel_id or 0)

    async def _latest_game(self, interaction: discord.Interaction) -> Game:
        g = await services(interaction).session.latest_in_channel(interaction.channel_id or 0)
        if g is None:
            raise NoGame()
        return g

    @game.command(name="join", description="Join the game of this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take a seat in this channel's lobby."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        user = interaction.user
        g = await bot.session.join(g.id, user_id=user.id, name=user.display_name, locale=locale_of(interaction))
        await reply(interaction, t("lobby.joined", locale_of(interaction), id=g.id), ephemeral=True)
        await bot.boards.refresh(g.id)

    @game.command(name="leave", description="Leave the lobby of this channel's game")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Give up your seat in this channel's lobby."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        g = await bot.session.leave(g.id, user_id=interaction.user.id)
        await reply(interaction, t("lobby.left", locale_of(interaction), id=g.id), ephemeral=True)
        await bot.boards.refresh(g.id)

    @game.command(name="start", description="Start this channel's game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal the game and post its board (host only)."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        result = await within(interaction, bot.session.start(g.id, by=interaction.user.id), ephemeral=True)
        await reply(interaction, t("lobby.started", locale_of(interaction)), ephemeral=True)
        # The lobby message stays a lobby, marked started by the start's delivery, which
        # then posts the card below it.
        await after_start(interaction, result)

    # -- looking at a game -------------------------------------------------------------------

    @game.command(name="status", description="Show this channel's game")
    async def status(self, interaction: discord.Interaction) -> None:
        """The lobby or the board, privately, with your move menu if it is your turn."""
        bot = services(interaction)
        locale = locale_of(interaction)
        g = await bot.session.latest_in_channel(interaction.channel_id or 0)
        if g is None:
            await reply(interaction, t("status.none", locale), ephemeral=True)
            return
        if g.state is None:
            rendered = render_lobby(g, locale)
        else:
            # the card in the reader's language, with their catch-up: one language per reader
            rendered = await within(interaction, bot.boards.render(g, locale), ephemeral=True)
            rendered.content = None
            seat = g.seat_of(interaction.user.id)
            if seat is not None and g.state is not None:
                news = await bot.announcer.catch_up(g, seat, locale)
                rendered.content = clip("\n".join(
                    [t("catchup.title", locale), *news] if news else [t("catchup.none", locale)]), 2000)
        kwargs = rendered.send_kwargs()
        kwargs["allowed_mentions"] = NO_MENTIONS
        await reply(interaction, ephemeral=True, **kwargs)

    @game.command(name="hand", description="See your hand (only you see it)")
    @app_commands.describe(game="The game's number (default: this channel's, or your only one)")
    async def hand(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """Your private view of a game: the one named, this channel's, or your only open one
        (so it works in a DM with the bot and wherever you installed Tablero)."""
        await show_hand(interaction, await self._hand_game(interaction, game))

    async def _hand_game(self, interaction: discord.Interaction, game: str | None) -> int:
        """Which game /game hand shows."""
        bot = services(interaction)
        if game is not None and game.strip():
            number = small_number(game.strip().lstrip("#"), 10**15)
            if number is None:
                raise Refusal(said("hand.which"))
            return number
        if bot_is_here(interaction):
            g = await bot.session.latest_in_channel(interaction.channel_id or 0)
            if g is not None and g.seat_of(interaction.user.id) is not None:
                return g.id
        mine = await bot.session.store.user_open_games(interaction.user.id)
        if len(mine) == 1:
            return mine[0].id
        if not mine:
            raise NoGame()
        numbers = ", ".join(f"#{row.id}" for row in mine[:20])
        raise Refusal(said("hand.pick", games=numbers))

    @hand.autocomplete("game")
    async def _hand_games(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The caller's open games, by number and title."""
        rows = await services(interaction).session.store.user_open_games(interaction.user.id)
        locale = locale_of(interaction)
        engines = registered_games()
        out = []
        for row in rows:
            engine = engines.get(row.game_id)
            name = f"#{row.id} · {engine.title.get(locale) if engine is not None else row.game_id}"
            if current.strip().lstrip("#") in name:
                out.append(app_commands.Choice(name=name[:100], value=str(row.id)))
        return out[:25]

    @game.command(name="log", description="The public log of moves")
    @app_commands.describe(page="Log page")
    async def log_(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] | None = None) -> None:
        """Every move so far with its time, with what you may know of each, in pages."""
        bot = services(interaction)
        g = await self._latest_game(interaction)
        kwargs = await render_log(bot.session, g, g.seat_of(interaction.user.id), locale_of(interaction),
                                  None if page is None else page - 1)
        await reply(interaction, ephemeral=True, **kwargs)

    @game.command(name="abandon", description="Close this channel's game for good (host or Manage Channels)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        """Close the game; its channel is free for a new one."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        can_manage = bool(interaction.permissions.manage_channels)
        g = await bot.session.abandon(g.id, by=interaction.user.id, can_manage=can_manage)
        await reply(
            interaction,
            t("abandon.done", g.locale, who=interaction.user.mention, id=g.id),
            ephemeral=False,
            allowed_mentions=NO_MENTIONS,
        )
        await bot.outbox.drain(g.id, again=False)  # the board without its menus, owed by the abandon


    # -- what is waiting ---------------------------------------------------------------------

    @game.command(name="mine", description="Every open game of yours, in every server")
    async def mine(self, interaction: discord.Interaction) -> None:
        """Your open games everywhere: yours to move first, with the time you have left."""
        bot = services(interaction)
        embed = await mine_embed(bot.session, interaction.user.id, locale_of(interaction))
        await reply(interaction, embed=embed, ephemeral=True)

    @game.command(name="list", description="The open games of this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        """This server's open games and whose turn it is."""
        bot = services(interaction)
        guild, member = interaction.guild, interaction.user
        # Only the games in channels this member can see (from the cached roles and overwrites).
        embed = await list_embed(bot.session, interaction.guild_id or 0, locale_of(interaction),
                                 visible=lambda channel: can_view(guild, member, channel))
        await reply(interaction, embed=embed, ephemeral=True)

    @game.command(name="vacation", description="Stop the clocks of all your games for some days")
    @app_commands.describe(days="Days of vacation (0 ends it)")
    async def vacation(self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 60]) -> None:
        """Pause (or, with 0, resume) the clocks of all your games; the tables see it."""
        bot = services(interaction)
        locale = locale_of(interaction)
        done = await set_vacation(bot.session, interaction.user.id, days)
        if done.until is None:
            text = tn("vacation.ended", len(done.games), locale)
        else:
            text = t("vacation.started", locale, when=f"<t:{int(done.until)}:f>",
                     games=_count("games", len(done.games), locale),
                     left=tn("vacation.days_left", done.days_left, locale))
        await reply(interaction, text, ephemeral=True)
        for game in done.games:
            await bot.boards.refresh(game)

    # -- undo, spectators, replays ---------------------------------------------------------------

    @game.command(name="undo", description="Ask to take back your last move")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Take back your last move if the others agree (before anyone else moves)."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        g, req, result = await bot.session.request_undo(g.id, interaction.user.id)
        if result is not None:
            await bot.announcer.publish(result, interaction=interaction)
        else:
            await ask(interaction, g, req)

    @game.command(name="watch", description="Follow this channel's game as a spectator (again to stop)")
    async def watch(self, interaction: discord.Interaction) -> None:
        """Follow (or stop following) this channel's game: its public moves reach you by DM."""
        bot = services(interaction)
        locale = locale_of(interaction)
        g = await self._channel_game(interaction)
        uid = interaction.user.id
        if g.seat_of(uid) is not None:
            await reply(interaction, t("watch.player", locale), ephemeral=True)
            return
        if await bot.session.store.add_watcher(g.id, uid):
            await reply(interaction, t("watch.on", locale, id=g.id), ephemeral=True)
        else:
            await bot.session.store.remove_watcher(g.id, uid)
            await reply(interaction, t("watch.off", locale, id=g.id), ephemeral=True)

    @game.command(name="replay", description="The game's record, transcript and animation")
    async def replay(self, interaction: discord.Interaction) -> None:
        """Files of this channel's newest game: a replayable record, a transcript, an animation."""
        locale = locale_of(interaction)
        g = await self._latest_game(interaction)
        async with heavy(interaction, "replay"):
            files = await within(interaction, self._replay_files(interaction, g, locale), ephemeral=True)
        text = t("replay.ready", locale, id=g.id)
        if g.state is None or not g.state.finished:
            text += "\n" + t("replay.public_only", locale)
        await reply(interaction, text, ephemeral=True, files=files)

    @game.command(name="verify", description="Check the game's dice: its seed's commitment and replay")
    async def verify(self, interaction: discord.Interaction) -> None:
        """The commitment to this channel's newest game's seed; once over, the proof."""
        import asyncio

        locale = locale_of(interaction)
        g = await self._latest_game(interaction)
        rows = await services(interaction).session.store.actions(g.id)
        text = await within(interaction, asyncio.to_thread(verdict, g, rows, locale), ephemeral=True)
        await reply(interaction, text, ephemeral=True)

    async def _replay_files(self, interaction: discord.Interaction, g: Game, locale: str) -> list[discord.File]:
        """The replay's files, made in the picture workers when a turn to draw one is free."""
        rows = await services_of(self.bot).session.store.actions(g.id)
        async with replay_slot(interaction):
            made = await asyncio.to_thread(render_within, REPLAY_TIMEOUT, replay_files, g, rows, locale)
        return [discord.File(io.BytesIO(data), filename=name) for name, data in made]

    # -- the host's tools -------------------------------------------------------------------------

    @game.command(name="remove", description="Take a player or bot out of the lobby (host)")
    @app_commands.describe(seat="The seat to free")
    async def remove(self, interaction: discord.Interaction, seat: str) -> None:
        """Free a seat of this channel's lobby (a bot, or a player who cannot come)."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        index = small_number(seat, len(g.seats))
        if index is None:
            raise Refusal(said("err.pick_seat"))
        name = g.seat_row(index).name
        g = await bot.session.remove_from_lobby(g.id, seat=index, by=interaction.user.id)
        await reply(interaction, t("lobby.removed", locale_of(interaction), name=name, id=g.id), ephemeral=True)
        await bot.boards.refresh(g.id)

    @remove.autocomplete("seat")
    async def _seat_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            g = await services(interaction).session.in_channel(interaction.channel_id or 0)
            if g is None:
                return []
            needle = fold(current)
            return [
                app_commands.Choice(name=clip(f"{s.seat + 1}. {BOT_MARK + ' ' if s.ai else ''}{s.name}", 100),
                                    value=str(s.seat))
                for s in g.seats if s.user_id != g.row.host_id and (not needle or needle in fold(s.name))
            ][:25]
        except Exception:
            log.exception("seat autocomplete failed")
            return []

    @game.command(name="host", description="Hand hosting over to another player (host)")
    @app_commands.describe(player="The new host")
    async def host(self, interaction: discord.Interaction, player: discord.User) -> None:
        """Make another seated player the host of this channel's game."""
        bot = services(interaction)
        g = await self._channel_game(interaction)
        g = await bot.session.transfer_host(g.id, to=player.id, by=interaction.user.id)
        await reply(interaction, t("lobby.host_now", g.locale, who=player.mention, id=g.id),
                    ephemeral=False, allowed_mentions=NO_MENTIONS)
        await bot.boards.refresh(g.id)

    # -- generic move ------------------------------------------------------------------------

    @game.command(name="move", description="Make a move from the list of legal moves")
    @app_commands.describe(choice="Your move")
    async def move(self, interaction: discord.Interaction, choice: str) -> None:
        """Play any legal move of any game, chosen from autocomplete."""
        await play_value(interaction, choice)

    @move.autocomplete("choice")
    async def _move_ac(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await action_choices(interaction, current)


def services_of(bot: commands.Bot) -> Any:
    """The bot seen through its services (outside an interaction)."""
    return typing.cast(Any, bot)


async def setup(bot: commands.Bot) -> None:
    """Load the lobby cog (discord.py extension entry point)."""
    await bot.add_cog(Lobby(bot))
