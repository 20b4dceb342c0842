"""/tournament (/torneo) and /rating: tournaments from sign-up to podium, and ratings.

Thin, like every cog: the rules of a tournament live in services/tournament.py, results
reach it from the session service through services/results.py, and this module only
turns interactions into service calls and what the service did into messages. Each
table's game gets a thread of its own under the tournament's channel (``TableThreads``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
import time
import typing
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.delivery import send_once
from cogs.common.errors import guard, reply
from cogs.common.i18n import count as _count
from cogs.common.i18n import lang, locale_of, said, t, text_choice, tn
from cogs.common.patience import (
    forbidden,
    missing_permissions,
    patiently,
    permission_names,
    permissions_in,
)
from cogs.common.present import COLOUR, MENTIONS, NO_MENTIONS, clip
from cogs.common.settings_view import CLOCK_CHOICES, TIMEOUT_CHOICES, clock_text
from cogs.lobby import _check_bot_permissions, gather_options
from cogs.pictures.pool import render
from cogs.pictures.tournament import bracket_png, standings_png
from rules.core import Text
from rules.registry import games as registered_games
from services.clock import CLOCKS
from services.faults import crash_point
from services.results import ResultFeed
from services.session import Refusal
from services.standings import ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS, Standing, show
from services.tournament import ELIMINATIONS, Progress, TournamentRefusal, TournamentService
from storage.tournaments import MatchRow, OwedPost, TournamentRow

log = logging.getLogger("tablero.tournament")


# How often the sign-up deadlines are looked at when the bot runs its own clock.
SIGNUP_POLL = 60.0
# Lines of standings shown in an embed (the picture and the CSV carry every player).
EMBED_LINES = 30
MENTION = re.compile(r"<@!?(\d+)>")

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value="swiss"),
    app_commands.Choice(name="Round robin", value="round_robin"),
    app_commands.Choice(name="Single elimination", value="single_elim"),
    app_commands.Choice(name="Double elimination", value="double_elim"),
]
SEEDING_CHOICES = [
    app_commands.Choice(name="By rating", value="rating"),
    app_commands.Choice(name="At random", value="random"),
]


def _game_choices() -> list[app_commands.Choice[str]]:
    return [text_choice(e.title, gid) for gid, e in registered_games().items()]


def _bot(obj: discord.Interaction | commands.Bot) -> Any:
    return typing.cast(Any, obj.client if isinstance(obj, discord.Interaction) else obj)


def tiebreaks_of(t_: TournamentRow) -> tuple[str, ...]:
    """The tie-breaks the tournament's format uses."""
    if t_.format == "swiss":
        return SWISS_TIEBREAKS
    if t_.format == "round_robin":
        return ROUND_ROBIN_TIEBREAKS
    return ()


def message_url(t_: TournamentRow) -> str | None:
    """A link to the tournament's sign-up / standings message."""
    if t_.standings_message_id is None:
        return None
    return f"https://discord.com/channels/{t_.guild_id}/{t_.channel_id}/{t_.standings_message_id}"


def parse_ranking(text: str) -> list[list[int]]:
    """Parse "@a @b = @c @d" into ranking groups of user ids: best first, "=" ties two places."""
    groups: list[list[int]] = []
    tie = False
    for token in re.findall(r"<@!?\d+>|=", text):
        if token == "=":
            tie = True
            continue
        user = int(MENTION.fullmatch(token)[1])  # type: ignore[index]
        if tie and groups:
            groups[-1].append(user)
        else:
            groups.append([user])
        tie = False
    return groups


# Per game id, filled by that game's cog: what sign-up asks a player privately before it
# enters them (it answers the interaction and enters them itself: Guerra de Mitos asks for
# the deck to lock), and the options of a table's game (Guerra de Mitos: the locked decks).
SIGNUP_ASK: dict[str, Callable[[discord.Interaction, TournamentRow], Awaitable[None]]] = {}
TABLE_OPTIONS: dict[str, Callable[[TournamentRow, MatchRow], Awaitable[dict[str, Any]]]] = {}


# ----------------------------------------------------------------------------- tables


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
        names = {e.user_id: e.name for e in await svc.tournaments.entrants(tournament.id)}
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
            name=tournament.name,
            round=match.round,
            table=where,
            game=engine.title.get(locale),
            players=players,
            clock=clock_text(clock.get("seconds"), clock.get("timeout", "ai"), locale),
        )
        if link:
            intro += "\n" + t("tourney.standings_link", locale, url=link)
        try:
            await patiently(lambda: thread.send(clip(intro, 2000), allowed_mentions=MENTIONS))
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


# ----------------------------------------------------------------------------- rendering


async def names_of(svc: TournamentService, tournament: int) -> dict[int, str]:
    """Entrants' display names by user id."""
    return {e.user_id: e.name for e in await svc.tournaments.entrants(tournament)}


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
    if t_.signup_deadline:
        lines.append(t("tourney.deadline_line", locale, when=f"<t:{int(t_.signup_deadline)}:f>"))
    return lines


async def signup_message(svc: TournamentService, t_: TournamentRow, locale: str) -> dict[str, Any]:
    """The sign-up message: settings, entrants and the buttons."""
    entrants = await svc.tournaments.entrants(t_.id)
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
    extra = " · ".join(show(s.tiebreaks[k]) for k in tiebreaks if k in s.tiebreaks)
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


# ----------------------------------------------------------------------------- buttons


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
                await ask(interaction, t_)
                return
            await svc.enter(self.tournament, user.id, user.display_name)
        elif self.action == "leave":
            await svc.leave(self.tournament, user.id)
        else:
            await svc.check_in(self.tournament, user.id)
        t_ = await svc.require(self.tournament)
        await interaction.response.edit_message(**await signup_message(svc, t_, t_.locale))


# ----------------------------------------------------------------------------- the cog


class Tournaments(commands.Cog):
    """Tournaments from sign-up to podium; ratings and records."""

    tournament = app_commands.Group(
        name="tournament", description="Tournaments of this server", guild_only=True
    )
    rating = app_commands.Group(
        name="rating", description="Ratings of this server", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        b = _bot(bot)
        self.tables = TableThreads(bot)
        self.service = TournamentService(b.session.store, self.tables)
        self.feed = ResultFeed(b.session, self.service, self.announce)
        self.tables.feed = self.feed
        b.tournaments = self.service
        self._poll: asyncio.Task[None] | None = None
        self._resumed = False
        # Posts noted before this process started may have gone out just before a crash:
        # those are looked for in the channel before being sent again.
        self.started = time.time()
        self._posting: dict[int, asyncio.Lock] = {}
        # Tournaments whose organiser was told that Discord refuses their posts (once, not
        # at every retry; again after a post went through).
        self._told_no_posts: set[int] = set()

    async def cog_load(self) -> None:
        """Listen for ended games and register the persistent sign-up buttons."""
        self.bot.add_dynamic_items(SignupButton)
        _bot(self.bot).session.game_over_listeners.append(self.feed)
        leases = getattr(self.bot, "leases", None)
        if leases is not None:
            # Several processes: one of them (the lease's holder) opens rounds and polls.
            leases.job("tournaments", self._taken, self._lost)

    async def cog_unload(self) -> None:
        """Stop listening and polling."""
        listeners = _bot(self.bot).session.game_over_listeners
        if self.feed in listeners:
            listeners.remove(self.feed)
        if self._poll is not None:
            self._poll.cancel()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once connected: take results missed while down, resume every tournament."""
        if self._resumed or getattr(self.bot, "leases", None) is not None:
            return
        self._resumed = True
        await self.resume()
        if _bot(self.bot).run_clock and self._poll is None:
            self._poll = asyncio.create_task(self._poll_signups(), name="tablero-signups")

    async def _taken(self) -> None:
        """This process now runs the tournaments (first start, or its owner died)."""
        self._poll = asyncio.create_task(self._own(), name="tablero-signups")

    async def _lost(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    async def _own(self) -> None:
        await self.resume()
        if _bot(self.bot).run_clock:
            await self._poll_signups()

    async def resume(self) -> None:
        """Results missed while the bot was down, then each running tournament's next step,
        then every post a change owes (a finished tournament's podium too)."""
        try:
            await self.feed.catch_up()
            for tid in await self.service.tournaments.running_ids():
                await self._resume(tid)
            await self.tick()
            for tid in await self.service.tournaments.owing():
                await self.deliver(tid)
        except Exception:
            if self.bot.is_closed():  # stopped meanwhile: the next start takes it up
                log.info("stopped while resuming tournaments")
                return
            log.exception("resuming tournaments failed")

    async def _resume(self, tournament: int) -> None:
        """Open what a running tournament owes: tables never opened, a round that is due."""
        await self.service.resume(tournament)
        await self.deliver(tournament)

    async def _poll_signups(self) -> None:
        while True:
            await asyncio.sleep(SIGNUP_POLL)
            try:
                await self.tick()
            except Exception:
                log.exception("sign-up deadlines check failed")

    async def tick(self) -> None:
        """Start (or cancel) every tournament whose sign-up deadline has passed, and open
        any table stored but never opened (Discord refused its thread, say)."""
        store = self.service.tournaments
        for tid in await store.running_ids():
            t_ = await store.get(tid)
            if t_ is None or t_.status != "running":
                continue
            if any(m.status == "pending" for m in await store.matches(tid, t_.current_round)):
                try:
                    await self._resume(tid)
                except discord.HTTPException:
                    log.info("tournament %s: its tables still cannot open", tid)
        now = _bot(self.bot).clock.now()
        for tid in await self.service.start_due(now):
            await self.deliver(tid)
        # posts kept back (Discord refused them for a missing permission, or failed)
        for tid in await store.owing():
            await self.deliver(tid)

    # -- telling Discord ------------------------------------------------------------------

    async def _channel(self, t_: TournamentRow) -> Any:
        return self.bot.get_channel(t_.channel_id) or await self.bot.fetch_channel(t_.channel_id)

    async def _post(
        self,
        t_: TournamentRow,
        content: str,
        *,
        ping: list[int] | None = None,
        files: list[discord.File] | None = None,
        owed: OwedPost | None = None,
    ) -> bool:
        """Post in the tournament's channel; False if Discord refused it for good. An owed
        post goes out once: with its nonce, and, if noted before this process started,
        only when the channel does not show it already."""
        channel = await self._channel(t_)
        allowed = (
            discord.AllowedMentions(users=[discord.Object(u) for u in ping])
            if ping
            else NO_MENTIONS
        )
        kwargs: dict[str, Any] = {
            "content": clip(content, 2000), "allowed_mentions": allowed, "files": files or [],
        }
        nonce = f"tt{owed.id}" if owed is not None else None
        since = owed.created_at if owed is not None and owed.created_at < self.started else None
        try:
            await send_once(channel, self.bot.user.id if self.bot.user else None, since, nonce,
                            **kwargs)
        except discord.HTTPException as exc:
            log.warning("tournament %s: could not post in its channel", t_.id, exc_info=True)
            if forbidden(exc):
                # Kept for the next check (every minute): it goes out once the permission is
                # back; the organiser is told privately what is missing, once.
                await self._tell_no_posts(t_)
                return False
            # The channel gone or a bad request: given up; a server error is tried again.
            return exc.status < 500
        self._told_no_posts.discard(t_.id)
        if owed is not None:
            crash_point(f"tournament.sent.{owed.kind}")
        return True

    async def _tell_no_posts(self, t_: TournamentRow) -> None:
        """DM the organiser which permissions the bot lacks in the tournament's channel."""
        if t_.id in self._told_no_posts:
            return
        self._told_no_posts.add(t_.id)
        known = await permissions_in(self.bot, t_.channel_id)
        names = missing_permissions(*known) if known is not None else []
        settings = await _bot(self.bot).session.store.users_settings([t_.organiser_id])
        locale = lang(settings[t_.organiser_id].locale or t_.locale)
        text = t("tourney.no_posts", locale, name=t_.name, channel=f"<#{t_.channel_id}>",
                 perms=permission_names(names, locale) if names else "?")
        try:
            await _bot(self.bot).delivery.dm(t_.organiser_id, content=text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            log.info("tournament %s: could not tell its organiser about missing permissions", t_.id)

    async def refresh(self, t_: TournamentRow) -> None:
        """Edit the tournament's message: the sign-up while open, the standings after."""
        if t_.standings_message_id is None:
            return
        channel = await self._channel(t_)
        message = channel.get_partial_message(t_.standings_message_id)
        if t_.status == "signup":
            kwargs = await signup_message(self.service, t_, t_.locale)
        else:
            kwargs = {
                "embed": await standings_embed(self.service, t_, t_.locale),
                "view": None,
                "allowed_mentions": NO_MENTIONS,
            }
        try:
            await patiently(lambda: message.edit(**kwargs))
        except discord.HTTPException:
            log.warning("tournament %s: could not edit its standings", t_.id, exc_info=True)

    async def announce(self, tournament: int, progress: Progress | None = None) -> None:
        """Tell the tournament's channel what its changes did (see ``deliver``)."""
        await self.deliver(tournament)

    async def deliver(self, tournament: int) -> None:
        """Post, oldest first, what the tournament's committed changes owe its channel
        (results, a round and its tables, a table played again, a drop, the podium, a
        cancellation), each marked done once out: a crash in between loses none, and the
        restart posts each once. A round waits until every table of it has its thread."""
        crash_point("tournament.deliver")
        store = self.service.tournaments
        async with self._posting.setdefault(tournament, asyncio.Lock()):
            t_ = await store.get(tournament)
            if t_ is None:
                return
            owed = await store.owed(tournament)
            i = 0
            while i < len(owed):
                row = owed[i]
                if row.kind in ("result", "replayed"):
                    # consecutive results (and tables played again) are one post
                    batch: list[OwedPost] = []
                    while i < len(owed) and owed[i].kind in ("result", "replayed"):
                        if owed[i].kind == "replayed" and not await self._opened(owed[i]):
                            break
                        batch.append(owed[i])
                        i += 1
                    if not batch:
                        break  # a table waits for its thread: later posts wait with it
                    lines = [line for b in batch for line in await self._result_lines(t_, b)]
                    if not lines or await self._post(t_, "\n".join(lines), owed=batch[0]):
                        await store.owed_done([b.id for b in batch])
                    continue
                if row.kind == "round":
                    tables = await store.matches(tournament, row.payload["round"])
                    if any(m.status == "pending" for m in tables):
                        break
                    done = await self._round_opened(t_, row)
                elif row.kind == "podium":
                    done = await self._podium(t_, row)
                elif row.kind == "dropped":
                    done = await self._post(
                        t_, t("tourney.dropped", t_.locale, who=f"<@{row.payload['user']}>"),
                        owed=row,
                    )
                elif row.kind == "cancelled":
                    why = row.payload.get("why")
                    text = (
                        t("tourney.cancelled_few", t_.locale, name=t_.name,
                          why=Text.model_validate(why).get(t_.locale))
                        if why is not None
                        else t("tourney.cancelled", t_.locale, name=t_.name)
                    )
                    done = await self._post(t_, text, owed=row)
                else:  # a kind a newer version wrote: nothing this one can say
                    done = True
                if not done:
                    break  # kept for the next try (every minute, and at each start)
                await store.owed_done([row.id])
                i += 1
        await self.refresh(await self.service.require(tournament))

    async def _opened(self, row: OwedPost) -> bool:
        m = await self.service.tournaments.get_match(row.payload["match"])
        return m.status != "pending"

    async def _result_lines(self, t_: TournamentRow, row: OwedPost) -> list[str]:
        """The line a table's result (or its replay) gets in the channel."""
        locale = t_.locale
        m = await self.service.tournaments.get_match(row.payload["match"])
        if row.kind == "replayed":
            return [t("tourney.replayed", locale, table=m.bracket or m.number,
                      thread=await self._thread_of(m))]
        if m.result in (None, "bye"):
            return []  # played again since: its new result has a row of its own
        names = await names_of(self.service, t_.id)
        ranked = sorted(m.players, key=lambda p: (p.place is None, p.place or 0, p.seat))
        order = ", ".join(
            f"{(p.place or 0) + 1}. {names.get(p.user_id, p.user_id)}"
            if p.place is not None
            else f"– {names.get(p.user_id, p.user_id)}"
            for p in ranked
        )
        return [t("tourney.result", locale, round=m.round, table=m.bracket or m.number,
                  how=t(f"tourney.kind.{m.result or 'game'}", locale), order=order)]

    async def _thread_of(self, m: MatchRow) -> str:
        if m.game is None:
            return "-"
        g = await _bot(self.bot).session.get(m.game)
        return f"<#{g.row.channel_id}>" if g is not None else "-"

    async def _round_opened(self, t_: TournamentRow, row: OwedPost) -> bool:
        number = row.payload["round"]
        names = await names_of(self.service, t_.id)
        lines = [t("tourney.round_opened", t_.locale, name=t_.name, round=number)]
        for m in await self.service.tournaments.matches(t_.id, number):
            who = ", ".join(names.get(u, str(u)) for u in m.user_ids)
            if m.result == "bye":
                lines.append(t("tourney.bye", t_.locale, who=who))
            elif m.game is not None:
                lines.append(
                    t(
                        "tourney.table_line",
                        t_.locale,
                        table=m.bracket or m.number,
                        who=who,
                        thread=await self._thread_of(m),
                    )
                )
        return await self._post(t_, "\n".join(lines), owed=row)

    async def _podium(self, t_: TournamentRow, row: OwedPost) -> bool:
        places = await self.service.podium(t_.id)
        medals = ("🥇", "🥈", "🥉")
        lines = [t("tourney.finished", t_.locale, name=t_.name)]
        ping: list[int] = []
        for group in places:
            rank = group[0].rank
            medal = medals[min(rank, 3) - 1] if rank <= 3 else ""
            lines.append(f"{medal} {rank}. " + ", ".join(f"<@{s.player}>" for s in group))
            ping += [s.player for s in group]
        files = await standings_files(self.service, t_, t_.locale, csv=False)
        return await self._post(t_, "\n".join(lines), ping=ping, files=files, owed=row)

    # -- which tournament ------------------------------------------------------------------

    async def _which(
        self,
        interaction: discord.Interaction,
        tournament: int | None,
        statuses: tuple[str, ...] = ("signup", "running"),
    ) -> TournamentRow:
        if tournament is not None:
            t_ = await self.service.require(tournament)
            if t_.guild_id != interaction.guild_id:
                raise TournamentRefusal(said("tourney.none_here"))
            return t_
        found = await self.service.tournaments.in_guild(interaction.guild_id or 0, statuses)
        channel = interaction.channel
        here = {interaction.channel_id, getattr(channel, "parent_id", None)}
        local = [x for x in found if x.channel_id in here]
        # A table's thread belongs to its tournament.
        game = await _bot(interaction).session.latest_in_channel(interaction.channel_id or 0)
        if game is not None:
            match = await self.service.tournaments.match_for_game(game.id)
            if match is not None:
                local = [x for x in found if x.id == match.tournament] or local
        pick = local or found
        if len(pick) == 1 or (pick and local):
            return pick[-1]
        key = "tourney.which" if pick else "tourney.none_here"
        raise TournamentRefusal(said(key))

    async def _organiser(
        self, interaction: discord.Interaction, t_: TournamentRow | None = None
    ) -> None:
        if interaction.permissions.manage_guild:
            return
        if t_ is not None and interaction.user.id == t_.organiser_id:
            return
        gs = await _bot(interaction).session.store.guild_settings(interaction.guild_id)
        roles = {r.id for r in getattr(interaction.user, "roles", [])}
        if gs.organiser_role_id is not None and gs.organiser_role_id in roles:
            return
        raise TournamentRefusal(said("tourney.not_organiser"))

    async def _tournament_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        try:
            rows = await self.service.tournaments.in_guild(
                interaction.guild_id or 0, ("signup", "running", "finished")
            )
            return [
                app_commands.Choice(name=clip(f"#{x.id} {x.name}", 100), value=x.id)
                for x in reversed(rows)
                if current.lower() in f"#{x.id} {x.name}".lower()
            ][:25]
        except Exception:
            log.exception("tournament autocomplete failed")
            return []

    # -- /tournament -----------------------------------------------------------------------

    @tournament.command(
        name="create", description="Create a tournament with sign-up in this channel"
    )
    @app_commands.describe(
        name="The tournament's name",
        game="Which game",
        format="How players are paired",
        rounds="Rounds (Swiss; default: enough to separate the field)",
        table_size="Players per table (multiplayer games: 3 to 5)",
        clock="Turn clock of its games",
        timeout="When time runs out: the bot plays, or takes the seat",
        cap="Most players that may sign up",
        check_in="Players must check in before the start",
        seeding="Seeding by rating or at random",
        rated="Its games count for ratings",
        signup_hours="Sign-up closes and the tournament starts after these hours",
        options="Game options as key=value separated by spaces",
    )
    @app_commands.choices(
        game=_game_choices(),
        format=FORMAT_CHOICES,
        clock=CLOCK_CHOICES,
        timeout=TIMEOUT_CHOICES,
        seeding=SEEDING_CHOICES,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 80],
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, 30] | None = None,
        table_size: app_commands.Range[int, 2, 5] | None = None,
        clock: str | None = None,
        timeout: str | None = None,
        cap: app_commands.Range[int, 2, 1000] | None = None,
        check_in: bool = False,
        seeding: str = "rating",
        rated: bool = True,
        signup_hours: app_commands.Range[int, 1, 2000] | None = None,
        options: str | None = None,
    ) -> None:
        """Create a tournament in sign-up; its message here takes sign-ups."""
        await self._organiser(interaction)
        # Tables open as threads of this channel: it must be a text channel where the bot
        # may open threads and post in them.
        if not isinstance(interaction.channel, discord.TextChannel):
            raise Refusal(said("tourney.text_channel"))
        _check_bot_permissions(interaction, True, None)
        bot = _bot(interaction)
        engine = bot.session.engine(game)
        server = await bot.session.store.guild_settings(interaction.guild_id)
        opts = engine.parse_options(gather_options(engine, {}, options)).model_dump(mode="json")
        if table_size is None:
            table_size = (
                2
                if engine.max_players == 2 or format in ELIMINATIONS
                else min(4, engine.max_players)
            )
        seconds = CLOCKS[clock] if clock is not None else server.clock_seconds
        deadline = bot.clock.now() + signup_hours * 3600 if signup_hours else None
        public = server.locale or locale_of(interaction)
        t_ = await self.service.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            organiser_id=interaction.user.id,
            name=name,
            game_id=game,
            format=format,
            table_size=table_size,
            seed=secrets.randbits(62),
            locale=public,
            options=opts,
            rounds=rounds,
            clock={"seconds": seconds, "timeout": timeout or server.timeout_action},
            signup_deadline=deadline,
            cap=cap,
            check_in=check_in,
            seeding=seeding,
            rated=rated,
        )
        await interaction.response.send_message(**await signup_message(self.service, t_, public))
        message = await interaction.original_response()
        await self.service.tournaments.set_standings_message(t_.id, message.id)

    @tournament.command(name="join", description="Sign up for the tournament")
    @app_commands.describe(tournament="Which tournament")
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Sign up (like the button)."""
        t_ = await self._which(interaction, tournament, ("signup",))
        if (ask := SIGNUP_ASK.get(t_.game_id)) is not None:
            await ask(interaction, t_)
            return
        await self.service.enter(t_.id, interaction.user.id, interaction.user.display_name)
        await reply(
            interaction, t("tourney.joined", locale_of(interaction), name=t_.name), ephemeral=True
        )
        await self._refresh_signup(t_.id)

    @tournament.command(name="leave", description="Withdraw before the tournament starts")
    @app_commands.describe(tournament="Which tournament")
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Withdraw before the start (like the button)."""
        t_ = await self._which(interaction, tournament, ("signup", "running"))
        await self.service.leave(t_.id, interaction.user.id)
        await reply(
            interaction, t("tourney.left", locale_of(interaction), name=t_.name), ephemeral=True
        )
        await self._refresh_signup(t_.id)

    async def _refresh_signup(self, tournament: int) -> None:
        await self.refresh(await self.service.require(tournament))

    @tournament.command(name="start", description="Close sign-up and open round 1 (organiser)")
    @app_commands.describe(tournament="Which tournament")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Seed the players and open the first round's tables."""
        t_ = await self._which(interaction, tournament, ("signup",))
        await self._organiser(interaction, t_)
        await interaction.response.defer(ephemeral=True, thinking=True)
        progress = await self.service.start(t_.id)
        await reply(
            interaction, t("tourney.started", locale_of(interaction), name=t_.name), ephemeral=True
        )
        await self.announce(t_.id, progress)

    @tournament.command(name="standings", description="The standings, a picture and a CSV file")
    @app_commands.describe(tournament="Which tournament")
    async def standings(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        """The standings as an embed with the picture (and bracket) and the CSV export."""
        t_ = await self._which(interaction, tournament, ("signup", "running", "finished"))
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        embed = await standings_embed(self.service, t_, locale)
        files = await standings_files(self.service, t_, locale, csv=True)
        await reply(
            interaction, ephemeral=True, embed=embed, files=files, allowed_mentions=NO_MENTIONS
        )

    @tournament.command(name="award", description="Decide a table's result (organiser)")
    @app_commands.describe(
        table="The table's number in the current round",
        ranking="Players best first as mentions; '=' between two ties them",
        tournament="Which tournament",
    )
    async def award(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 1000],
        ranking: str,
        tournament: int | None = None,
    ) -> None:
        """Award a table's result; players left out are placed last."""
        t_ = await self._which(interaction, tournament, ("running",))
        await self._organiser(interaction, t_)
        match = await self._table(t_, table)
        groups = parse_ranking(ranking)
        if not groups:
            raise TournamentRefusal(said("tourney.ranking_help"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        progress = await self.service.award(t_.id, match.id, groups)
        await reply(
            interaction, t("tourney.awarded", locale_of(interaction), table=table), ephemeral=True
        )
        await self.announce(t_.id, progress)

    async def _table(self, t_: TournamentRow, number: int) -> MatchRow:
        for m in await self.service.tournaments.matches(t_.id, t_.current_round):
            if m.number == number and m.result != "bye":
                return m
        raise TournamentRefusal(said("tourney.no_table", table=number))

    @tournament.command(
        name="repair", description="Start a table again with a new game (organiser)"
    )
    @app_commands.describe(
        table="The table's number in the current round", tournament="Which tournament"
    )
    async def repair(
        self,
        interaction: discord.Interaction,
        table: app_commands.Range[int, 1, 1000],
        tournament: int | None = None,
    ) -> None:
        """Close a table's game and open a new one with the same players."""
        t_ = await self._which(interaction, tournament, ("running",))
        await self._organiser(interaction, t_)
        match = await self._table(t_, table)
        await interaction.response.defer(ephemeral=True, thinking=True)
        progress = await self.service.repair_table(t_.id, match.id)
        await reply(
            interaction, t("tourney.repaired", locale_of(interaction), table=table), ephemeral=True
        )
        await self.announce(t_.id, progress)

    @tournament.command(
        name="drop", description="Drop a player from the rest of the tournament (organiser)"
    )
    @app_commands.describe(player="The player to drop", tournament="Which tournament")
    async def drop(
        self,
        interaction: discord.Interaction,
        player: discord.Member,
        tournament: int | None = None,
    ) -> None:
        """Drop a player: an unfinished game of theirs is lost, they are not paired again."""
        t_ = await self._which(interaction, tournament, ("running",))
        if player.id != interaction.user.id:
            await self._organiser(interaction, t_)
        await interaction.response.defer(ephemeral=True, thinking=True)
        progress = await self.service.drop(t_.id, player.id)
        await reply(
            interaction,
            t("tourney.dropped", locale_of(interaction), who=player.mention),
            ephemeral=True,
            allowed_mentions=NO_MENTIONS,
        )
        await self.announce(t_.id, progress)

    @tournament.command(
        name="end", description="End the tournament now; the standings stand (organiser)"
    )
    @app_commands.describe(tournament="Which tournament")
    async def end(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """End early: open tables are closed unplayed (a tournament in sign-up is cancelled)."""
        t_ = await self._which(interaction, tournament)
        await self._organiser(interaction, t_)
        await interaction.response.defer(ephemeral=True, thinking=True)
        progress = await self.service.end(t_.id)
        await reply(
            interaction, t("tourney.ended", locale_of(interaction), name=t_.name), ephemeral=True
        )
        await self.announce(t_.id, progress)

    for _command in (join, leave, start, standings, award, repair, drop, end):
        _command.autocomplete("tournament")(_tournament_ac)
    del _command

    # -- /rating -----------------------------------------------------------------------------

    @rating.command(name="me", description="Your ratings and record on this server")
    @app_commands.describe(player="Whose ratings (default: yours)")
    async def me(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        """A player's rating for each game (the conservative estimate) and their record."""
        locale = locale_of(interaction)
        who = player or interaction.user
        guild = interaction.guild_id or 0
        ratings = {r.game_id: r for r in await self.service.ratings.player_ratings(guild, who.id)}
        embed = discord.Embed(
            title=t("rating.me_title", locale, who=who.display_name), colour=COLOUR
        )
        for gid, engine in registered_games().items():
            record = await self.service.ratings.record(guild, gid, who.id)
            if not record.games and gid not in ratings:
                continue
            r = ratings.get(gid)
            value = (
                tn("rating.value", r.games, locale, rating=r.conservative)
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
                "rating.record", locale, games=_count("games", record.games, locale),
                wins=_count("wins", record.wins, locale), recent=recent
            )
            embed.add_field(name=engine.title.get(locale), value=value, inline=False)
        if not embed.fields:
            embed.description = t("rating.none", locale)
        await reply(interaction, embed=embed, ephemeral=True)

    @rating.command(name="top", description="The server's best players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=_game_choices())
    async def top(self, interaction: discord.Interaction, game: str) -> None:
        """The leaderboard: the conservative estimate as a whole number, best first."""
        locale = locale_of(interaction)
        engine = _bot(interaction).session.engine(game)
        rows = await self.service.ratings.leaderboard(interaction.guild_id or 0, game, limit=20)
        lines = [
            t(
                "rating.top_line",
                locale,
                rank=i,
                who=f"<@{r.user_id}>",
                rating=r.conservative,
                games=_count("games", r.games, locale),
            )
            for i, r in enumerate(rows, start=1)
        ]
        embed = discord.Embed(
            title=t("rating.top_title", locale, game=engine.title.get(locale)),
            description="\n".join(lines) or t("rating.nobody", locale),
            colour=COLOUR,
        )
        embed.set_footer(text=t("rating.footer", locale))
        await reply(interaction, embed=embed, ephemeral=False, allowed_mentions=NO_MENTIONS)


async def setup(bot: commands.Bot) -> None:
    """Load the tournaments cog (discord.py extension entry point)."""
    await bot.add_cog(Tournaments(bot))


__all__ = ["SignupButton", "TableThreads", "Tournaments", "parse_ranking"]
