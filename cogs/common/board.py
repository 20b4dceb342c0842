"""The game's card, its one living message: edit it in place (as the answer to a move
made on it, when it can), or post it again when it is gone or buried; after a crash, find
every copy and keep exactly one."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import discord

from cogs.common import answering
from cogs.common.answering import followup_open, respond, timed
from cogs.common.card import Story, card
from cogs.common.card_hold import HeldCards
from cogs.common.card_text import CardTexts
from cogs.common.choices import board_view
from cogs.common.clock_view import bank_fields_of
from cogs.common.i18n import names, t
from cogs.common.patience import OLD_MESSAGE_EDITS, forbidden, patiently, token_alive
from cogs.common.present import COLOUR, NO_MENTIONS, Rendered, draw, snapshot, turn_lines, ui_for
from cogs.common.turn_record import STORY_LINES, change_lines, told_so_far
from cogs.common.usertext import plain
from services.faults import crash_point
from services.session import Game, MoveResult, SessionService

log = logging.getLogger("tablero.board")

T = TypeVar("T")

# A board further back than this many messages is hard to find: post it again below.
BURY_LIMIT = 10
# Old boards are re-posted rather than edited so the game comes back to the bottom of
# the channel and its components stay fresh.
MAX_AGE = dt.timedelta(days=14)
# An interaction on the card not acknowledged yet (a move is, at once: moves.within) is
# answered by the card's edit unless this many seconds of Discord's 3 have gone (the
# picture takes time to draw): then acknowledged first.
ANSWER_BY = 1.5
# How many of a channel's newest messages are looked through for copies of a card.
COPIES_LOOKED_AT = 50
# How many games' lent interaction tokens are kept at most (one each; they die in 15 min;
# an interaction holds its message, so a few kilobytes each).
LENT_TOKENS = 1024
# Discord's refusal of a message left with nothing in it.
EMPTY_MESSAGE = 50006
# The card's picture in a private panel beside the player's hand (whose picture has the
# usual name): a held card's preview (card_hold.py).
TABLE_FILE = "table.png"


@dataclass(frozen=True)
class Lent:
    """An interaction whose webhook reaches a game's card ``card``: as its ``@original`` (a
    component of the card acknowledged as an update of it, or the card posted as its
    answer), or as a followup it sent (``original`` False)."""

    interaction: discord.Interaction
    card: int
    original: bool = True

    async def edit(self, **kwargs: Any) -> None:
        """Edit the card through the interaction's webhook."""
        if self.original:
            await self.interaction.edit_original_response(**kwargs)
        else:
            await self.interaction.followup.edit_message(self.card, **kwargs)

    async def delete(self) -> None:
        """Delete the card through the interaction's webhook."""
        if self.original:
            await self.interaction.delete_original_response()
        else:
            await self.interaction.followup.delete_message(self.card)


class _Bot(Protocol):
    session: SessionService

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


LobbyRenderer = Callable[[Game, str], Rendered]


def too_old(message_id: int, max_age: dt.timedelta | None = MAX_AGE, now: dt.datetime | None = None) -> bool:
    """Whether a message (by the time in its snowflake) is older than ``max_age``."""
    if max_age is None:
        return False
    now = now or discord.utils.utcnow()
    return now - discord.utils.snowflake_time(message_id) > max_age


def age(interaction: discord.Interaction) -> float:
    """Seconds since ``interaction`` was made (Discord wants an answer within 3)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


async def acknowledge(interaction: discord.Interaction | None) -> None:
    """Acknowledge a component's interaction (its message is edited by the API after)."""
    if interaction is not None:
        await answering.acknowledge(interaction)


async def in_time(interaction: discord.Interaction | None, work: Awaitable[T]) -> T:
    """Await ``work``; should it outlast what is left of ``ANSWER_BY`` for ``interaction``,
    acknowledge the interaction meanwhile (its answer then comes by the API)."""
    task = asyncio.ensure_future(work)
    if interaction is not None and not interaction.response.is_done():
        done, _ = await asyncio.wait({task}, timeout=max(0.0, ANSWER_BY - age(interaction)))
        if not done:
            await acknowledge(interaction)
    return await task


def is_board_of(message: discord.Message, game: int, rendered: Rendered) -> bool:
    """Whether ``message`` is a board of ``game``: it carries the game's "My hand" button
    (a board in play), or the title and footer of ``rendered`` (a finished game's board).
    A lobby has the same title but neither."""
    hand = f"tablero:hand:{game}"
    for row in message.components:
        for item in getattr(row, "children", [row]):
            if getattr(item, "custom_id", None) == hand:
                return True
    title, footer = rendered.embed.title, rendered.embed.footer.text
    return footer is not None and any(e.title == title and e.footer.text == footer for e in message.embeds)


class BoardKeeper:
    """Keeps one up-to-date board (or lobby) message per game."""

    def __init__(self, bot: _Bot) -> None:
        self.bot = bot
        self.lobby_renderer: LobbyRenderer | None = None
        self.max_age: dt.timedelta | None = MAX_AGE  # None: never re-post for age
        self.bury_limit: int | None = BURY_LIMIT  # None: never re-post for being buried
        self._locks: dict[int, asyncio.Lock] = {}
        self._story: dict[int, Story] = {}  # game -> what its card tells (see announce.py)
        self._after: dict[int, set[int]] = {}  # board message id -> messages seen after it (capped)
        # card message id -> whether it carries a turn's message as its content, for the
        # cards this process posted; an unknown one is kept, never deleted unread
        self._carries: dict[int, bool] = {}
        self._board_of_channel: dict[int, int] = {}  # channel id -> board message id
        self._waiting: dict[int, int] = {}  # game -> refreshes queued behind the one running
        # game -> channel where the last refresh was refused for a missing permission
        self.refused: dict[int, int] = {}
        self.texts = CardTexts()  # what each card's text says, kept true (card_text.py)
        # game -> the newest interaction acknowledged on its card (a component's update):
        # its token edits the card through the interaction webhook for 15 minutes
        self._tokens: dict[int, Lent] = {}
        # Cards that wait for their mover's part to end (card_hold.py)
        self.held = HeldCards(self.refresh, self._outbox_done)

    # -- rendering ---------------------------------------------------------------------

    async def render(self, g: Game, locale: str | None = None, story: Story | None = None) -> Rendered:
        """The message for ``g`` as it is now: its lobby, or its board with components; in
        ``locale`` for one reader (/game status) when it is not the game's public language,
        without the last turn's story (its lines were written in the public one).
        ``story``: what the card tells, when not what it told last (a held card's preview)."""
        g = snapshot(g)
        where = locale or g.locale
        if g.state is None:
            if self.lobby_renderer is not None:
                return self.lobby_renderer(g, where)
            embed = discord.Embed(title=g.engine.title.get(where), colour=COLOUR)
            return Rendered(content=None, embed=embed)
        ui = ui_for(g.row.game_id)
        png = await draw(ui, g, None, where)
        store = self.bot.session.store
        if story is None:
            story = self._story.get(g.id)
        if story is None:
            # After a restart: the story the newest change wrote for the card.
            told = await store.recent_messages(g.id, ("board",), limit=1)
            p = told[0].payload if told else {}
            story = self._story[g.id] = Story(list(p.get("last") or []), list(p.get("now") or []))
        if where != g.locale:
            story = Story()
        waits = await store.deadlines(g.id)
        due = {d.seat: d.due_at for d in waits if not d.paused}
        banks = await bank_fields_of(store, g, waits, self.bot.session.clock.now(), where)
        rendered = card(ui, g, story, where, png, due=due, extra=await self._vacations(g, where) + banks)
        # A card's content is never written by its edits: it is empty, or the turn's message
        # the card was posted with (which must stay readable).
        rendered.content = None
        rendered.view = board_view(g, where)
        return rendered

    async def preview(self, result: MoveResult) -> Rendered:
        """The card as a held step leaves it (its story told up to that step), without its
        buttons: what its mover's panel shows while the card waits (card_hold.py)."""
        g = result.game
        last, now = await told_so_far(self.bot.session.store, g.id)
        rendered = await self.render(g, story=Story(last, (now + change_lines(g, result, g.locale))[-STORY_LINES:]))
        rendered.view = None
        rendered.rename(TABLE_FILE)
        return rendered

    async def hold(self, game: int, row: int, change: int, version: int, story: Story) -> None:
        """Hold the card of ``game`` for a step shown in its mover's panel (outbox message
        ``row`` of ``change``, which left the game at ``version``, owed until the card is
        shown): see card_hold.py. A step a later showing covered already is delivered now."""
        if self.held.hold(game, row, change, version):
            self._story[game] = story
        else:
            await self.held.release([(row, change)])

    async def _outbox_done(self, row: int, change: int) -> None:
        await self.bot.session.store.outbox_done(row, change=change)

    async def _vacations(self, g: Game, locale: str) -> list[tuple[str, str, bool]]:
        """Tell the table who is on vacation (their clocks are stopped) while the game is on."""
        if g.status != "active":
            return []
        users = [s.user_id for s in g.seats if s.user_id is not None and not s.ai]
        settings = await self.bot.session.store.users_settings(users)
        now = self.bot.session.clock.now()
        away = [
            t("vacation.until", locale, name=plain(s.name),
              when=f"<t:{int(settings[s.user_id].vacation_until or 0)}:f>")
            for s in g.seats
            if s.user_id is not None and not s.ai and (settings[s.user_id].vacation_until or 0) > now
        ]
        return [("🏖️", t("clock.vacation_board", locale, who=names(away, locale)), False)] if away else []

    # -- posting -----------------------------------------------------------------------

    def _lock(self, game: int) -> asyncio.Lock:
        lock = self._locks.get(game)
        if lock is None:
            lock = self._locks[game] = asyncio.Lock()
        return lock

    def _channel(self, g: Game) -> discord.PartialMessageable:
        channel_id = g.row.board_channel_id or g.row.channel_id
        # A partial channel needs no cache and no fetch: it works for threads the bot
        # has not seen since a restart, and sends and edits by id alone.
        return self.bot.get_partial_messageable(channel_id, guild_id=g.row.guild_id)

    def buried(self, g: Game) -> bool:
        """Whether the board has sunk too far below newer messages. A board this process has
        not posted (one from before a restart) is counted from its first look on."""
        mid = g.row.board_message_id
        if mid is None or self.bury_limit is None:
            return False
        if mid not in self._after:
            self._track(g.row.board_channel_id or g.row.channel_id, mid)
        return len(self._after[mid]) >= self.bury_limit

    def buried_by_one_more(self, g: Game) -> bool:
        """Whether one more message below the card would leave it buried, or it is gone or
        too old already: the turn's message is then best posted as the card itself."""
        if g.state is None:
            return False
        mid = g.row.board_message_id
        if mid is None or too_old(mid, self.max_age):
            return True
        if self.bury_limit is None:
            return False
        if mid not in self._after:
            self._track(g.row.board_channel_id or g.row.channel_id, mid)
        return len(self._after[mid]) + 1 >= self.bury_limit

    async def refresh(
        self,
        game: int,
        *,
        story: Story | None = None,
        repost: bool = False,
        keep_old: bool = False,
        rendered: Rendered | None = None,
        nonce: str | None = None,
        since: float | None = None,
        interaction: discord.Interaction | None = None,
        told: tuple[str, discord.AllowedMentions] | None = None,
        answer: discord.Interaction | None = None,
    ) -> int | None:
        """Show ``game`` as it is now: edit its message, or post a new one when the old is
        gone, too old, buried, or ``repost`` is asked. Returns the message id (None on failure).
        ``rendered`` replaces the usual rendering (e.g. the lobby marked as started).
        ``nonce`` goes with a new post (Discord then never creates it twice); ``since`` (a
        change whose delivery a crash cut) first adopts a board posted after it, if any.
        ``story``: what the card tells of the last turn and the turn in play (kept for the
        refreshes after). ``interaction``: a move made on the card, answered by its edit.
        ``told``: the turn's message (text, whom it pings), posted as the new card's content:
        a card about to be buried comes down with the turn's message as one message.
        ``answer``: an interaction (of the move) a card posted anew answers, when it still may.

        Never raises for Discord errors: the move behind it is already committed."""
        mid, shown = await self._refresh(game, story=story, repost=repost, keep_old=keep_old, rendered=rendered,
                                         nonce=nonce, since=since, interaction=interaction, told=told,
                                         answer=answer)
        # Several processes (shards) on one game: a newer move committed by another process
        # while this edit was on its way may have had its own edit land first; this older
        # picture would then stay. Look again, and show the newest (a few rounds at most).
        for _ in range(3):
            if not getattr(self.bot.session, "shared", False) or shown is None or rendered is not None:
                break
            g = await self.bot.session.get(game)
            if g is None or (g.version, g.status) == shown:
                break
            mid, shown = await self._refresh(game)
        return mid

    async def _refresh(
        self,
        game: int,
        *,
        story: Story | None = None,
        repost: bool = False,
        keep_old: bool = False,
        rendered: Rendered | None = None,
        nonce: str | None = None,
        since: float | None = None,
        interaction: discord.Interaction | None = None,
        told: tuple[str, discord.AllowedMentions] | None = None,
        answer: discord.Interaction | None = None,
    ) -> tuple[int | None, tuple[int, str] | None]:
        """One showing of the game (see refresh): the message id, and the version and status
        it showed (None when it showed nothing new: another refresh is queued, or it failed)."""
        if story is not None:
            self._story[game] = story
        if interaction is not None and not timed(interaction) and (
                self._lock(game).locked() or age(interaction) > ANSWER_BY):
            # Another showing of the game is under way, or Discord's 3 s are running out:
            # acknowledge now rather than after it; the card is edited by the API below.
            await acknowledge(interaction)
        if interaction is not None and interaction.response.is_done():
            if interaction.response.type is discord.InteractionResponseType.deferred_message_update:
                self.lend(game, interaction)  # acknowledged as an update of the card
            interaction = None
        repost = repost or told is not None
        plain = rendered is None and not repost and interaction is None
        self._waiting[game] = self._waiting.get(game, 0) + 1
        async with self._lock(game):
            self._waiting[game] -= 1
            g = await self.bot.session.get(game)
            if g is None:
                return None, None
            if plain and self._waiting[game] > 0:
                # A busy game: another refresh is queued behind this one and will show a
                # newer state; one edit instead of two keeps within Discord's edit limit.
                return g.row.board_message_id, None
            # Steps held for this card (card_hold.py) are shown by this showing, whatever
            # comes of it: a failed one is given up as any change's showing is.
            self.held.seen(game, g.version)
            covered = self.held.take(game)
            try:
                return await self._show(g, repost=repost, keep_old=keep_old, rendered=rendered,
                                        nonce=nonce, since=since, interaction=interaction, told=told,
                                        answer=answer)
            finally:
                if covered:
                    await self.held.release(covered)

    async def _show(
        self,
        g: Game,
        *,
        repost: bool,
        keep_old: bool,
        rendered: Rendered | None,
        nonce: str | None,
        since: float | None,
        interaction: discord.Interaction | None,
        told: tuple[str, discord.AllowedMentions] | None,
        answer: discord.Interaction | None,
    ) -> tuple[int | None, tuple[int, str] | None]:
        """_refresh's showing of ``g``, under its game's lock."""
        game = g.id
        shown = (g.version, g.status)
        is_card = rendered is None and g.state is not None
        try:
            rendered = rendered or await in_time(interaction, self.render(g))
            if since is not None and await self._adopt_posted(g, rendered, since):
                repost = False  # the board this change posted is there: bring it up to date
            mid = g.row.board_message_id
            self.refused.pop(game, None)
            if mid is not None and not repost and not too_old(mid, self.max_age) and not self.buried(g):
                message = self._channel(g).get_partial_message(mid)
                try:
                    edit = rendered.edit_kwargs()
                    if is_card:
                        del edit["content"]  # left as it is (see render), unless it went stale
                        content = await self.texts.content(g, mid, self._channel(g), self.bot.session.store)
                        if content is not None:
                            edit["content"] = content
                            self._carries[mid] = bool(content)
                    if await self._answer_with(interaction, edit):
                        self.lend(game, interaction)
                    elif not await self._edit_by_token(game, mid, edit):
                        await patiently(lambda: message.edit(**edit), again_if_dropped=True)
                    return mid, shown
                except discord.NotFound:
                    log.info("game %s: board message %s is gone; posting it again", g.id, mid)
                except discord.HTTPException as exc:
                    if exc.code != OLD_MESSAGE_EDITS:
                        raise
                    log.info("game %s: board message %s is too old to edit; posting it again", g.id, mid)
            return await self._post(g, rendered, delete_old=not keep_old, nonce=nonce,
                                    told=told if is_card else None, answer=answer), shown
        except discord.HTTPException as exc:
            if forbidden(exc):
                self.refused[game] = g.row.board_channel_id or g.row.channel_id
                log.info("game %s: missing permissions to show the board", game)
            else:
                log.warning("game %s: could not show the board", game, exc_info=True)
            return None, None

    @staticmethod
    async def _answer_with(interaction: discord.Interaction | None, edit: dict[str, Any]) -> bool:
        """Answer a move made on the card with the card's edit; False when it cannot be (no
        such move, already acknowledged, or Discord forgot it): the API edits the card then."""
        if interaction is None or interaction.response.is_done():
            return False
        try:
            return await respond(interaction, lambda: interaction.response.edit_message(**edit))
        except discord.HTTPException:
            log.info("interaction %s could not be answered with the card", interaction.id)
            return False

    def lend(self, game: int, interaction: discord.Interaction | None, card: int | None = None,
             original: bool = True) -> None:
        """Keep ``interaction`` (a component of the game's card, acknowledged as an update of
        it; or, ``card`` given, the interaction whose answer, or followup when not
        ``original``, posted that card) so that its webhook edits the card: Discord's
        interaction endpoints are not bound by the bot's global rate limit."""
        if interaction is None:
            return
        if card is None:
            if interaction.message is None:
                return
            card = interaction.message.id
        if len(self._tokens) >= LENT_TOKENS and game not in self._tokens:
            # many games played at once: forget the tokens that died, else the oldest lent
            for other, old in list(self._tokens.items()):
                if not token_alive(old.interaction):
                    del self._tokens[other]
            if len(self._tokens) >= LENT_TOKENS:
                del self._tokens[next(iter(self._tokens))]
        self._tokens[game] = Lent(interaction, card, original)

    def lent(self, game: int, mid: int | None) -> Lent | None:
        """The live interaction lent for card ``mid`` of ``game``, if any."""
        lent = self._tokens.get(game)
        if lent is None or mid is None:
            return None
        if lent.card != mid or not token_alive(lent.interaction):
            del self._tokens[game]
            return None
        return lent

    async def _edit_by_token(self, game: int, mid: int, edit: dict[str, Any]) -> bool:
        """Edit card ``mid`` through a lent interaction's webhook; False when none is lent for
        that card or Discord refuses it (its token died, the card is gone or too old to
        edit): the bot's own edit goes then."""
        lent = self.lent(game, mid)
        if lent is None:
            return False
        try:
            await lent.edit(**edit)
            return True
        except discord.HTTPException as exc:
            log.info("game %s: card %s not edited through interaction %s (%s)", game, mid,
                     lent.interaction.id, exc.code)
            self._tokens.pop(game, None)
            return False

    async def _adopt_posted(self, g: Game, rendered: Rendered, since: float) -> bool:
        """After a crash: keep exactly one card. A card of the game posted since ``since``
        (the change a crash cut posted it, and may not have stored it) is kept, the newest
        if several; else the stored one. Every other card of the game among the channel's
        recent messages goes (a crash between posting a card anew and deleting the old one
        left both live, menus and all). True if a card posted since ``since`` was found."""
        from cogs.common.delivery import SINCE_MARGIN

        me = getattr(getattr(self.bot, "user", None), "id", None)
        channel = self._channel(g)
        if not hasattr(channel, "history"):
            return False
        after = discord.utils.time_snowflake(dt.datetime.fromtimestamp(since - SINCE_MARGIN, dt.UTC))
        found: list[discord.Message] = []
        try:
            async for message in channel.history(limit=COPIES_LOOKED_AT):
                if (me is None or message.author.id == me) and is_board_of(message, g.id, rendered):
                    found.append(message)
        except discord.HTTPException:
            return False
        fresh = [m for m in found if m.id >= after]
        keep = max(fresh, key=lambda m: m.id).id if fresh else g.row.board_message_id
        if fresh and keep != g.row.board_message_id:
            assert keep is not None
            log.info("game %s: adopting card %s posted before a restart", g.id, keep)
            await self.bot.session.set_board_message(g.id, channel.id, keep)
            self._track(channel.id, keep)
        for message in found:
            if message.id != keep:
                log.info("game %s: retiring card %s, a copy a crash left live", g.id, message.id)
                await self._retire(channel, message.id, self._carries.get(message.id, bool(message.content)))
        return bool(fresh)

    async def _post(self, g: Game, rendered: Rendered, *, delete_old: bool, nonce: str | None = None,
                    told: tuple[str, discord.AllowedMentions] | None = None,
                    answer: discord.Interaction | None = None) -> int:
        """Post the message anew (a card with ``told`` as its content, when given) and retire
        the old one (``delete_old``): a card goes, a card carrying a turn's message stays as
        that message alone. ``answer``: the card is that interaction's answer (a new public
        message: its mentions notify) when it is still open, and its token edits the card."""
        channel = self._channel(g)
        old = g.row.board_message_id
        extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
        kwargs = rendered.send_kwargs()
        if told is not None:
            kwargs.update(content=told[0], allowed_mentions=told[1])
        await self._mark_posting(g)
        # the old card's lent token (if any) retires it, before the new card's replaces it
        old_token = self.lent(g.id, old)
        posted = await self._as_answer(answer, channel.id, kwargs, rendered)
        if posted is None:
            if answer is not None and rendered.png is not None:
                kwargs["files"] = rendered.files()  # an answer tried used (and closed) them
            message = await patiently(lambda: channel.send(**kwargs, **extra), again_if_dropped=nonce is not None)
            mid = message.id
        else:
            mid = posted.card
            self._tokens[g.id] = posted
        crash_point("board.posted")
        await self.bot.session.set_board_message(g.id, channel.id, mid)
        self._track(channel.id, mid)
        is_card = g.state is not None
        if is_card:
            self._carries[mid] = bool(kwargs.get("content"))
            self.texts.posted(mid, kwargs.get("content"), "\n".join(turn_lines(g, g.locale)))
        if old is not None and delete_old and old != mid:
            await self._retire(channel, old, self._carries.pop(old, None) if is_card else False,
                               by=old_token)
            self._after.pop(old, None)
            self.texts.forget(old)
        return mid

    async def _mark_posting(self, g: Game) -> None:
        """Mark a card about to be posted anew (cleared when it is stored): a crash in
        between leaves a second live card that find_posted_cards finds at the next start."""
        if g.state is not None:
            await self.bot.session.store.note_card_posting(g.id, time.time())

    async def find_posted_cards(self) -> int:
        """After a restart: each game whose card was being posted anew when the bot stopped
        keeps the card posted then, if it went out, and every other copy goes (see
        _adopt_posted); how many games were looked at."""
        store = self.bot.session.store
        marked = await store.cards_being_posted()
        for game, at in marked:
            await self.refresh(game, since=at)
            await store.clear_card_posting(game, at)
        return len(marked)

    async def _as_answer(self, answer: discord.Interaction | None, channel_id: int,
                         kwargs: dict[str, Any], rendered: Rendered) -> Lent | None:
        """Post a card through ``answer`` (a move's interaction in the card's channel): as its
        response while it is open, else (answered as an update of its message) as a public
        followup; either is a new message, so its mentions notify, and neither is bound by
        the bot's global rate limit. The card reached through it, or None when it was not
        posted so (then the bot posts it itself)."""
        if answer is None or answer.channel_id != channel_id:
            return None
        sent: list[Any] = []

        async def send() -> None:
            sent.append(await answer.response.send_message(**kwargs))

        try:
            if await respond(answer, send):
                mid = getattr(sent[0], "message_id", None) if sent else None
                if mid is None:
                    mid = (await answer.original_response()).id
                return Lent(answer, int(mid))
            if not followup_open(answer):
                return None
            again = {**kwargs, "files": rendered.files()} if rendered.png is not None else kwargs
            message = await answer.followup.send(**again, wait=True)
            return Lent(answer, message.id, original=False)
        except discord.HTTPException:
            log.info("interaction %s could not be answered with the card", answer.id)
            return None

    async def _retire(self, channel: discord.PartialMessageable, mid: int, carries: bool | None,
                      by: Lent | None = None) -> None:
        """Retire an old card: deleted when it carries nothing; when it carries a turn's
        message (or may: ``None``, a card from before a restart), only its embed,
        picture and buttons go, so the turn's message stays readable (one found empty is
        deleted). When Discord no longer lets it be edited (an old message), its turn's
        message is posted again on its own and the card deleted: no turn's text is lost and
        no second live card stays. ``by``: an interaction whose ``@original`` is that card: its
        webhook retires it (outside the bot's global rate limit) while Discord takes it."""
        if by is not None and await self._retire_by_token(by, carries):
            return
        message = channel.get_partial_message(mid)
        try:
            if carries is not False:
                try:
                    await message.edit(embeds=[], attachments=[], view=None)
                    return
                except discord.HTTPException as exc:
                    if exc.code == OLD_MESSAGE_EDITS:
                        text = (await channel.fetch_message(mid)).content
                        if text:
                            sent = await patiently(lambda: channel.send(content=text, allowed_mentions=NO_MENTIONS))
                            self.note(channel.id, sent.id)
                    elif exc.code != EMPTY_MESSAGE:
                        raise
            await message.delete()
        except discord.HTTPException:
            pass  # already gone, or not ours to change any more: the new card is what matters

    @staticmethod
    async def _retire_by_token(by: Lent, carries: bool | None) -> bool:
        """Retire the card ``by`` reaches through its webhook (see _retire); False when
        Discord refused (the bot's own requests do it then)."""
        try:
            if carries is not False:
                try:
                    await by.edit(embeds=[], attachments=[], view=None)
                    return True
                except discord.HTTPException as exc:
                    if exc.code != EMPTY_MESSAGE:
                        raise
            await by.delete()
            return True
        except discord.HTTPException as exc:
            log.info("card not retired through interaction %s (%s)", by.interaction.id, exc.code)
            return False

    async def show_lobby(self, g: Game, message_id: int) -> None:
        """Show a game's lobby message (``message_id``, never the card) as it is now, marked
        started and without its buttons: a start's delivery does it before posting the card."""
        if self.lobby_renderer is None:
            return
        edit = self.lobby_renderer(snapshot(g), g.locale).edit_kwargs()
        message = self._channel(g).get_partial_message(message_id)
        try:
            await patiently(lambda: message.edit(**edit), again_if_dropped=True)
        except discord.HTTPException:
            log.info("game %s: could not mark its lobby message %s started", g.id, message_id)

    async def adopt(self, game: int, channel_id: int, message_id: int) -> None:
        """Make ``message_id`` (e.g. the lobby sent as an interaction reply) the game's message."""
        await self.bot.session.set_board_message(game, channel_id, message_id)
        self._track(channel_id, message_id)

    def track_stored(self, cards: list[tuple[int, int]]) -> None:
        """After a restart: count the messages posted below each open game's stored card
        ``(channel, message)`` from now on, without reading the games (a card this process
        has already shown since is left as it is)."""
        for channel_id, message_id in cards:
            if channel_id not in self._board_of_channel and message_id not in self._after:
                self._track(channel_id, message_id)

    def _track(self, channel_id: int, message_id: int) -> None:
        self._board_of_channel[channel_id] = message_id
        self._after[message_id] = set()

    def note_message(self, message: discord.Message) -> None:
        """Count messages posted below a board (called for every message the bot sees)."""
        self.note(message.channel.id, message.id)

    def note(self, channel_id: int, message_id: int) -> None:
        """Count message ``message_id`` of ``channel_id`` if it is below the channel's board:
        the bot's own posts are counted when sent, their events later count them no more."""
        board = self._board_of_channel.get(channel_id)
        if board is None or message_id <= board:
            return
        below = self._after.setdefault(board, set())
        if len(below) < max(self.bury_limit or 0, BURY_LIMIT):
            below.add(message_id)

    # -- after a restart ---------------------------------------------------------------

    async def check(self, game: int) -> None:
        """After a restart: show ``game`` as it is now. Editing finds the message again
        (posting anew if it is gone or too old) and brings it up to date in case the
        bot stopped between a commit and the board's edit."""
        g = await self.bot.session.get(game)
        if g is None:
            return
        if g.row.board_message_id is None:
            await self._find_lost(g)
        await self.refresh(game)

    async def _find_lost(self, g: Game) -> None:
        """A game without a stored message (the bot died between posting its lobby and
        storing it): adopt the newest lobby or board of the game in its channel, so the game
        keeps one live message rather than gaining a second."""
        me = getattr(getattr(self.bot, "user", None), "id", None)
        channel = self._channel(g)
        if not hasattr(channel, "history"):
            return
        ours = re.compile(rf"tablero:(lobby:\w+|hand):{g.id}")
        try:
            async for message in channel.history(limit=50):
                if me is not None and message.author.id != me:
                    continue
                ids = [getattr(item, "custom_id", None) or ""
                       for row in message.components for item in getattr(row, "children", [row])]
                if any(ours.fullmatch(cid) for cid in ids):
                    log.info("game %s: adopting its message %s found after a restart", g.id, message.id)
                    await self.bot.session.set_board_message(g.id, channel.id, message.id)
                    self._track(channel.id, message.id)
                    return
        except discord.HTTPException:
            log.info("game %s: could not look for its message after a restart", g.id)
