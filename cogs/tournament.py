"""/tournament (/torneo) and /rating: tournaments from sign-up to podium, and ratings.

Thin, like every cog: the rules of a tournament live in services/tournament.py, results
reach it from the session service through services/results.py, and this module only
turns interactions into service calls and what the service did into messages. Each
table's game gets a thread of its own under the tournament's channel (``TableThreads``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.contexts import ANY_INSTALL, EVERYWHERE, bot_is_here, require_bot_server
from cogs.common.errors import reply
from cogs.common.escalation import TOURNAMENT_TIMEOUT_CHOICES, reliability_field
from cogs.common.game_threads import check_bot_permissions
from cogs.common.i18n import count as _count
from cogs.common.i18n import locale_of, public_locale, said, t, text_choice
from cogs.common.present import COLOUR, NO_MENTIONS, clip
from cogs.common.rating_fields import ratings_fields
from cogs.common.settings_view import CLOCK_CHOICES
from cogs.common.tournament_posts import TournamentPosts
from cogs.common.tournament_tables import TABLE_OPTIONS, TableThreads, _bot
from cogs.common.tournament_views import (
    SIGNUP_ASK,
    SignupButton,
    signup_message,
    standings_embed,
    standings_files,
)
from cogs.common.usertext import plain
from cogs.lobby import gather_options
from rules.registry import games as registered_games
from services.clock import CLOCKS
from services.ratings import shown_rating
from services.reliability import Requirements
from services.results import ResultFeed
from services.session import Refusal
from services.tournament import ELIMINATIONS, TournamentRefusal, TournamentService
from storage.tournaments import MatchRow, TournamentRow

log = logging.getLogger("tablero.tournament")


# How often the sign-up deadlines are looked at when the bot runs its own clock.
SIGNUP_POLL = 60.0
# Lines of standings shown in an embed (the picture and the CSV carry every player).
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


# ----------------------------------------------------------------------------- the cog


class Tournaments(TournamentPosts, commands.Cog):
    """Tournaments from sign-up to podium; ratings and records."""

    tournament = app_commands.Group(
        name="tournament", description="Tournaments of this server", guild_only=True
    )
    # Offered everywhere for /rating me (outside a server: the user's ratings on every
    # server); the leaderboard needs a server with the bot (interaction_check).
    rating = app_commands.Group(
        name="rating", description="Ratings of this server",
        allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL,
    )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Tournaments and leaderboards only in a server with the bot; your ratings anywhere."""
        return require_bot_server(interaction, frozenset({"rating me"}))

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
            for tid in await self.service.store.running_tournaments():
                await self._resume(tid)
            await self.tick()
            for tid in await self.service.store.tournaments_owing():
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
        store = self.service.store
        for tid in await store.running_tournaments():
            t_ = await store.get_tournament(tid)
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
        for tid in await store.tournaments_owing():
            await self.deliver(tid)


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
        found = await self.service.store.tournaments_in_guild(interaction.guild_id or 0, statuses)
        channel = interaction.channel
        here = {interaction.channel_id, getattr(channel, "parent_id", None)}
        local = [x for x in found if x.channel_id in here]
        # A table's thread belongs to its tournament.
        game = await _bot(interaction).session.latest_in_channel(interaction.channel_id or 0)
        if game is not None:
            match = await self.service.store.match_for_game(game.id)
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
            rows = await self.service.store.tournaments_in_guild(
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
        timeout="When time runs out: the bot plays, takes the seat, or the game is lost on time",
        min_games="Players need at least this many finished games on this server",
        max_timeouts="Players may have let at most this % of their turns run out",
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
        timeout=TOURNAMENT_TIMEOUT_CHOICES,
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
        min_games: app_commands.Range[int, 1, 1000] | None = None,
        max_timeouts: app_commands.Range[int, 0, 100] | None = None,
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
        check_bot_permissions(interaction, True, None)
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
        public = public_locale(interaction, server.locale)
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
            requirements=Requirements(min_games, max_timeouts),
        )
        await interaction.response.send_message(**await signup_message(self.service, t_, public))
        message = await interaction.original_response()
        await self.service.store.set_standings_message(t_.id, message.id)

    @tournament.command(name="join", description="Sign up for the tournament")
    @app_commands.describe(tournament="Which tournament")
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """Sign up (like the button)."""
        t_ = await self._which(interaction, tournament, ("signup",))
        if (ask := SIGNUP_ASK.get(t_.game_id)) is not None:
            await self.service.check_entry(t_, interaction.user.id)  # before asking for a deck
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
        for m in await self.service.store.matches(t_.id, t_.current_round):
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
        player: discord.User,
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
        self, interaction: discord.Interaction, player: discord.User | None = None
    ) -> None:
        """A player's shown rating for each game (a newcomer reads 1000) and their record: on
        this server, or outside a server with the bot (a DM, a server where the user added
        Tablero for themself) on every server where they finished a game."""
        locale = locale_of(interaction)
        who = player or interaction.user
        if bot_is_here(interaction):
            servers, named = [interaction.guild_id or 0], False
        elif who.id != interaction.user.id:
            # Which servers someone plays in is theirs to tell: outside a server, only your own.
            raise Refusal(said("rating.only_own"))
        else:
            servers, named = await self.service.ratings.player_servers(who.id), True
        embed = discord.Embed(
            title=t("rating.me_title", locale, who=plain(who.display_name)), colour=COLOUR
        )
        for guild in servers:
            await ratings_fields(self.bot, self.service.ratings, embed, guild, who.id, locale, named)
        store = self.service.store
        await reliability_field(embed, store, who.id, None if named else interaction.guild_id, locale)
        if not embed.fields:
            embed.description = t("rating.none", locale)
        await reply(interaction, embed=embed, ephemeral=True)

    @rating.command(name="top", description="The server's best players of a game")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=_game_choices())
    async def top(self, interaction: discord.Interaction, game: str) -> None:
        """The leaderboard: the shown rating (a newcomer reads 1000), best first."""
        locale = locale_of(interaction)
        engine = _bot(interaction).session.engine(game)
        rows = await self.service.ratings.leaderboard(interaction.guild_id or 0, game, limit=20)
        lines = [
            t(
                "rating.top_line",
                locale,
                rank=i,
                who=f"<@{r.user_id}>",
                rating=shown_rating(r.conservative),
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


__all__ = [
    "SIGNUP_ASK", "TABLE_OPTIONS", "SignupButton", "TableThreads", "Tournaments",
    "parse_ranking",
]
