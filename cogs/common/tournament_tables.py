"""Tournament tables in Discord: a thread per table under the tournament's channel, its game
seated in the table's order and started; and the table closed when it will not be finished."""

from __future__ import annotations

import logging
import typing
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from cogs.common.announce import allowed_users
from cogs.common.i18n import t
from cogs.common.patience import forbidden, patiently, permission_names
from cogs.common.present import clip
from cogs.common.settings_view import clock_text
from cogs.common.usertext import plain
from services.faults import crash_point
from services.results import ResultFeed
from services.session import Refusal
from services.tournament import TournamentService
from storage.tournaments import MatchRow, TournamentRow

log = logging.getLogger("tablero.tournament")


def _bot(obj: discord.Interaction | commands.Bot) -> Any:
    """The bot with the attributes Tablero hangs on it (session, tournaments...)."""
    return typing.cast(Any, obj.client if isinstance(obj, discord.Interaction) else obj)


def message_url(t_: TournamentRow) -> str | None:
    """A link to the tournament's sign-up / standings message."""
    if t_.standings_message_id is None:
        return None
    return f"https://discord.com/channels/{t_.guild_id}/{t_.channel_id}/{t_.standings_message_id}"


# Per game id, filled by that game's cog: the options of a table's game (Guerra de Mitos:
# the locked decks).
TABLE_OPTIONS: dict[str, Callable[[TournamentRow, MatchRow], Awaitable[dict[str, Any]]]] = {}


class TableThreads:
    """The TableHost of the tournament service: one thread per table, its game seated and started."""

    def __init__(self, bot: commands.Bot, feed: ResultFeed | None = None) -> None:
        self.bot = bot
        self.feed = feed
        # Tournaments already told that Discord refuses their threads (told once, not
        # at every retry).
        self.told_refused: set[int] = set()

    async def open_table(self, tournament: TournamentRow, match: MatchRow) -> int:
        """Open a thread under the tournament's channel, create the game seated in the
        table's order with the tournament's clock, mention the players, post the board."""
        bot = _bot(self.bot)
        locale = tournament.locale
        channel = bot.get_channel(tournament.channel_id) or await bot.fetch_channel(
            tournament.channel_id
        )
        svc: TournamentService = bot.tournaments
        names = {e.user_id: e.name for e in await svc.store.entrants(tournament.id)}
        engine = bot.session.engine(tournament.game_id)
        where = match.bracket or str(match.number)
        title = clip(t("tourney.thread", locale, name=tournament.name, round=match.round,
                       table=where), 100)
        store = bot.session.store
        # Noted before the thread exists and dropped with the game's creation: a crash in
        # between leaves a thread the next start removes (the table opens in a new one).
        pending = await store.add_pending_thread(tournament.guild_id, channel.id, title)
        try:
            thread = await patiently(
                lambda: channel.create_thread(
                    name=title,
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=10080,
                )
            )
        except discord.HTTPException as exc:
            await store.drop_pending_thread(pending)
            if forbidden(exc) and tournament.id not in self.told_refused:
                # The table stays stored, unopened: the next check (every minute, and at
                # each start) opens it once the bot may open threads here.
                self.told_refused.add(tournament.id)
                await self._tell_refused(channel, tournament)
            raise
        self.told_refused.discard(tournament.id)
        bot.announcer.own_threads.add(thread.id)
        crash_point("tournament.thread")
        clock = tournament.clock or {}
        first = match.user_ids[0]
        shape = TABLE_OPTIONS.get(tournament.game_id)
        options = await shape(tournament, match) if shape is not None else tournament.options
        g = await bot.session.create(
            guild_id=tournament.guild_id,
            channel_id=thread.id,
            game_id=tournament.game_id,
            options=options,
            host_id=first,
            host_name=names.get(first, str(first)),
            locale=locale,
            clock_seconds=clock.get("seconds"),
            timeout_action=clock.get("timeout", "ai"),
            pending_thread=pending,
        )
        # Archived some hours after the table's game ends, as a lobby's thread.
        await store.note_game_thread(thread.id, g.id, tournament.guild_id)
        # Each player's private messages in the language their Discord last showed us.
        known = await bot.session.store.users_settings(list(match.user_ids))
        for user in match.user_ids[1:]:
            await bot.session.join(
                g.id, user_id=user, name=names.get(user, str(user)), locale=known[user].locale
            )
        players = " ".join(f"<@{u}>" for u in match.user_ids)
        link = message_url(tournament)
        intro = t(
            "tourney.table_intro",
            locale,
            name=plain(tournament.name),
            round=match.round,
            table=where,
            game=engine.title.get(locale),
            players=players,
            clock=clock_text(clock.get("seconds"), clock.get("timeout", "ai"), locale),
        )
        if link:
            intro += "\n" + t("tourney.standings_link", locale, url=link)
        try:
            await patiently(lambda: thread.send(clip(intro, 2000), allowed_mentions=allowed_users(match.user_ids)))
        except discord.HTTPException:
            # The game is seated either way; the board's own notices say what is missing.
            log.warning("tournament %s: could not introduce table %s", tournament.id, match.id)
        result = await bot.session.start(g.id, by=first)
        await bot.announcer.publish(result, board_repost=True)
        return g.id

    async def _tell_refused(self, channel: Any, tournament: TournamentRow) -> None:
        """Say in the tournament's channel that its tables wait for the thread permissions."""
        locale = tournament.locale
        perms = permission_names(["create_public_threads", "send_messages_in_threads"], locale)
        try:
            await patiently(lambda: channel.send(t("tourney.no_threads", locale, perms=perms)))
        except discord.HTTPException:
            log.warning("tournament %s: cannot open tables nor say why", tournament.id)

    async def close_table(self, tournament: TournamentRow, match: MatchRow) -> None:
        """Close a table's game that will not be finished (an award, a drop, a replay, the end)."""
        if match.game is None:
            return
        bot = _bot(self.bot)
        if self.feed is not None:
            self.feed.closing.add(match.game)
        try:
            g = await bot.session.abandon(match.game, by=tournament.organiser_id, can_manage=True)
        except Refusal:  # already over: nothing to close
            if self.feed is not None:
                self.feed.closing.discard(match.game)
            return
        await bot.boards.refresh(g.id)
        try:
            channel = bot.get_channel(g.row.channel_id) or await bot.fetch_channel(g.row.channel_id)
            await patiently(lambda: channel.send(t("tourney.table_closed", tournament.locale)))
        except discord.HTTPException:
            log.warning(
                "tournament %s: could not tell table %s it is closed", tournament.id, match.id
            )

