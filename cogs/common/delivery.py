"""Private views by DM; closed DMs are recorded and the channel told, with nothing revealed."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import discord

from cogs.common.choices import act_buttons, chooser
from cogs.common.coalesce import Coalescer
from cogs.common.escalation import at_stake
from cogs.common.i18n import lang, t
from cogs.common.patience import patiently
from cogs.common.present import (
    EMBED_FIELD,
    MENTIONS,
    NO_MENTIONS,
    Rendered,
    clip,
    draw,
    jump_url,
    snapshot,
    ui_for,
)
from cogs.common.usertext import plain
from rules.core import Event, GameState, Seat
from services.session import Game, SessionService

log = logging.getLogger("tablero.delivery")


class _Bot(Protocol):
    session: SessionService

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


# A hand DM younger than this, and still the newest message the bot sent that user, is
# edited in place rather than sent again (Discord refuses edits of old messages in busy
# channels, and an old message up the DM is easy to miss).
RECENT_DM = 45 * 60


def fresh_files(kwargs: dict[str, Any]) -> Any:
    """A maker of ``kwargs`` with new File objects each time: discord.py closes a message's
    files after a call, so a call tried again needs its own."""
    files = list(kwargs.get("files") or [])
    blobs = [(f.filename, f.fp.read(), f.description, f.spoiler) for f in files]

    def make() -> dict[str, Any]:
        if not files:
            return dict(kwargs)
        return {**kwargs, "files": [discord.File(io.BytesIO(data), filename=name, description=desc, spoiler=sp)
                                    for name, data, desc, sp in blobs]}

    return make


Matcher = Callable[[discord.Message], bool]
# A message sent just before a crash carries an id (a time) a little before or after the
# change's own clock reading: look this far back.
SINCE_MARGIN = 5.0


def same_content(kwargs: dict[str, Any]) -> Matcher:
    """Recognises a message by its text, or else by its first embed's title."""
    content = kwargs.get("content")
    embed = kwargs.get("embed")
    title = embed.title if isinstance(embed, discord.Embed) else None

    def match(message: discord.Message) -> bool:
        if content:
            return message.content == content
        return title is not None and any(e.title == title for e in message.embeds)

    return match


async def sent_since(channel: Any, me: int | None, since: float, match: Matcher) -> discord.Message | None:
    """The bot's message in ``channel`` sent after ``since`` (Unix time, less a margin)
    that ``match`` recognises, or None: a message a crash kept from being marked sent."""
    history = getattr(channel, "history", None)
    if history is None:
        return None
    after = discord.Object(id=discord.utils.time_snowflake(
        dt.datetime.fromtimestamp(since - SINCE_MARGIN, dt.UTC)))
    try:
        async for message in history(limit=50, after=after):
            if (me is None or message.author.id == me) and match(message):
                return message
    except discord.HTTPException:
        log.info("could not read the history of channel %s", getattr(channel, "id", "?"))
    return None


async def send_once(channel: Any, me: int | None, since: float | None, nonce: str | None,
                    match: Matcher | None = None, **kwargs: Any) -> Any:
    """Send ``kwargs`` to ``channel`` unless (``since`` given) it was sent already; with
    ``nonce``, a second send within Discord's window returns the first message."""
    if since is not None:
        found = await sent_since(channel, me, since, match or same_content(kwargs))
        if found is not None:
            return found
    extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
    return await patiently(lambda: channel.send(**kwargs, **extra), again_if_dropped=nonce is not None)


class Delivery:
    """Sends each player their private view when it changes."""

    def __init__(self, bot: _Bot) -> None:
        self.bot = bot
        # user id -> id of the newest DM the bot sent them (this process's memory: after a
        # restart the next hand goes out as a new message, which is always safe).
        self._newest: dict[int, int] = {}
        # user id -> their DM channel's id (this process's memory, one small entry a player)
        self._dm_channels: dict[int, int] = {}
        self._opening: dict[int, asyncio.Future[Any]] = {}  # user id -> their DM channel being opened
        # One private view at a time per seat, and one waiting (see send_private).
        self._hands: Coalescer[bool] = Coalescer()

    def _locale(self, g: Game, seat: Seat) -> str:
        row = g.seat_row(seat)
        return lang(row.locale or g.locale or None)

    async def dm(self, user_id: int, **kwargs: Any) -> bool:
        """Send a DM; False when the user does not accept DMs from the bot."""
        return await self.dm_message(user_id, **kwargs) is not None

    async def dm_message(
        self, user_id: int, *, nonce: str | None = None, since: float | None = None,
        match: Matcher | None = None, **kwargs: Any,
    ) -> discord.Message | None:
        """Send a DM and return it; None when the user does not accept DMs from the bot.

        Sending what a change owes, once: ``nonce`` makes Discord answer a second send
        within minutes with the first message (enforce_nonce); ``since`` (the change's time,
        when a crash may have cut its delivery) first looks for a DM sent after it that
        ``match`` (default: the same content) recognises, and returns that instead."""
        channel = await self._dm_channel(user_id)
        if since is not None:
            found = await sent_since(channel, self._me(), since, match or same_content(kwargs))
            if found is not None:
                self._newest[user_id] = found.id
                return found
        make = fresh_files(kwargs)
        extra: dict[str, Any] = {"nonce": nonce} if nonce is not None else {}
        try:
            message = await patiently(lambda: channel.send(**make(), **extra), again_if_dropped=nonce is not None)
        except discord.Forbidden:
            return None
        self._newest[user_id] = message.id
        return message

    async def _dm_channel(self, user_id: int) -> Any:
        """The DM channel with ``user_id``: opened once (one request), then known by id (a DM
        channel's id never changes), so later DMs cost only their own request."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        # Several DMs to one player at once (hands of several games) open it once: the others
        # wait for that opening rather than ask Discord again.
        opening = self._opening.get(user_id)
        if opening is None:
            opening = self._opening[user_id] = asyncio.ensure_future(
                patiently(lambda: self.bot.create_dm(discord.Object(id=user_id)), again_if_dropped=True))
            opening.add_done_callback(lambda _: self._opening.pop(user_id, None))
        channel = await asyncio.shield(opening)
        self._dm_channels[user_id] = channel.id
        return channel

    def _me(self) -> int | None:
        user = getattr(self.bot, "user", None)
        return user.id if user is not None else None

    async def _newest_of(self, user_id: int, channel_id: int) -> int | None:
        """The newest DM the bot sent ``user_id``: remembered, else asked of Discord once
        (after a restart, so that a hand is still edited in place when it may be)."""
        if user_id in self._newest:
            return self._newest[user_id]
        channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        history = getattr(channel, "history", None)
        if history is None:
            return None
        try:
            async for message in history(limit=1):
                self._newest[user_id] = message.id
                return message.id
        except discord.HTTPException:
            return None
        return None

    async def _edit_hand(self, g: Game, seat: Seat, user_id: int, kwargs: dict[str, Any]) -> bool:
        """Edit the seat's last hand DM in place if it is recent and still the newest DM."""
        last = await self.bot.session.store.dm_message(g.id, seat)
        if last is None or await self._newest_of(user_id, last.channel_id) != last.message_id:
            return False
        if time.time() - last.sent_at > RECENT_DM:
            return False
        channel = self.bot.get_partial_messageable(last.channel_id, type=discord.ChannelType.private)
        make = fresh_files(kwargs)

        def edit() -> dict[str, Any]:
            again = make()
            out = {k: v for k, v in again.items() if k != "files"}
            out["attachments"] = again.get("files", [])
            return out

        message = channel.get_partial_message(last.message_id)
        try:
            await patiently(lambda: message.edit(**edit()), again_if_dropped=True)
        except discord.HTTPException:
            return False
        return True

    async def send_private(self, g: Game, seat: Seat, news: Sequence[str] = (), *,
                           nonce: str | None = None, since: float | None = None) -> bool:
        """DM ``seat`` their private view (and ``news``: what only they were told just now);
        on closed DMs, record it and tell the channel once. ``nonce``, ``since``: see dm_message."""
        # Two changes close together deliver concurrently, and a busy DM channel holds one
        # back: one view at a time per seat, drawn from the game as it is when its turn
        # comes, so the player's last DM never shows an older hand than the newest; a view
        # asked for while another waits its turn joins it (one DM, not the same one twice).
        async def newest(all_news: list[str]) -> bool:
            fresh = await self.bot.session.get(g.id)
            return await self._send_private(fresh if fresh is not None else g, seat, all_news,
                                            nonce=nonce, since=since)

        return await self._hands.run((g.id, seat), news, newest)

    async def _send_private(self, g: Game, seat: Seat, news: Sequence[str], *,
                            nonce: str | None, since: float | None) -> bool:
        row = g.seat_row(seat)
        if row.ai or row.user_id is None:
            return False
        locale = self._locale(g, seat)
        rendered = await self.private_view(g, seat, news)
        rendered.content = t(
            "hand.dm_intro", locale, title=g.engine.title.get(locale), id=g.id, channel=f"<#{g.row.channel_id}>"
        )
        kwargs = rendered.send_kwargs()
        kwargs["allowed_mentions"] = NO_MENTIONS
        if not row.dm_closed and await self._edit_hand(g, seat, row.user_id, kwargs):
            return True
        try:
            message = await self.dm_message(row.user_id, nonce=nonce, since=since, **kwargs)
        except discord.HTTPException:
            log.warning("game %s: DM to seat %s failed", g.id, seat, exc_info=True)
            return False
        delivered = message is not None
        if message is not None:
            await self.bot.session.store.set_dm_message(g.id, seat, message.channel.id, message.id)
        changed = await self.bot.session.set_dm_closed(g.id, seat, not delivered)
        if not delivered and changed:
            await self.tell_closed(g, seat)
        return delivered

    async def private_view(self, g: Game, seat: Seat, news: Sequence[str] = ()) -> Rendered:
        """``seat``'s private view (their hand, its picture) with ``news``, what only they
        were told just now; for a hand DM, or a private panel's answer."""
        locale = self._locale(g, seat)
        g = snapshot(g)
        ui = ui_for(g.row.game_id)
        rendered = ui.private(g, seat, locale, await draw(ui, g, seat, locale))
        url = jump_url(g)
        if url is not None:
            rendered.embed.url = url
        if news:
            rendered.embed.add_field(
                name=t("hand.news", locale), value=clip("\n".join(news[-10:]), EMBED_FIELD), inline=False
            )
        return rendered

    async def tell_closed(self, g: Game, seat: Seat) -> None:
        """Tell the game's channel, naming the player, that ``seat``'s DMs are closed, and, in a
        game with a clock, what its deadline brings them (no last-call DM will say it)."""
        name = plain(g.seat_row(seat).name)
        text = t("hand.dm_closed", g.locale, name=name)
        if g.row.clock_seconds:
            text += "\n" + await at_stake(self.bot.session.store, g, seat, g.locale, name=name)
        channel = self.bot.get_partial_messageable(g.row.channel_id, guild_id=g.row.guild_id)
        try:
            await patiently(lambda: channel.send(text, allowed_mentions=NO_MENTIONS))
        except discord.HTTPException:
            log.warning("game %s: could not tell the channel about closed DMs", g.id, exc_info=True)

    async def private_updates(
        self, g: Game, before: GameState | None, events: Sequence[Event] = (), *, mover: Seat | None = None
    ) -> None:
        """DM every human seat whose secrets differ from what they were ``before``, with
        the events of ``events`` told to them alone; then ask every seat now in a reaction
        window (but ``mover``, who made the last move and sees the next step where they made it)."""
        if g.state is None:
            return
        await self._secrets(g, before, events)
        await self.ask_reactions(g, mover)

    async def _secrets(self, g: Game, before: GameState | None, events: Sequence[Event]) -> None:
        for seat, news in self.hands_owed(g, before, events):
            await self.send_private(g, seat, news)

    def hands_owed(self, g: Game, before: GameState | None,
                   events: Sequence[Event]) -> list[tuple[Seat, list[str]]]:
        """The human seats whose secrets differ from what they were ``before``, each with
        the events of ``events`` told to them alone: each is owed a hand DM."""
        ui = ui_for(g.row.game_id)
        out: list[tuple[Seat, list[str]]] = []
        for row in g.seats:
            if row.ai or row.user_id is None:
                continue
            now = ui.dm_facts(g, g.state, row.seat)
            if not now:
                continue
            if before is not None and ui.dm_facts(g, before, row.seat) == now:
                continue
            locale = self._locale(g, row.seat)
            news = [
                ui.wording(g, e.text, locale)
                for e in events
                if e.audience is not None and row.seat in e.audience
            ]
            out.append((row.seat, news))
        return out

    async def ask_reactions(self, g: Game, mover: Seat | None = None) -> None:
        """DM each human seat in a reaction window (but ``mover``) its question, with a
        button per answer; one whose DMs turn out closed is pinged in the channel instead."""
        for seat in self.reactions_owed(g, mover):
            await self.ask(g, seat)

    def reactions_owed(self, g: Game, mover: Seat | None = None) -> list[Seat]:
        """The human seats (but ``mover``) now in a reaction window whose DMs are open:
        each is owed its question by DM. (Closed DMs: the board and the move's record
        ping them in the channel.)"""
        if g.state is None or g.status != "active":
            return []
        ui = ui_for(g.row.game_id)
        out: list[Seat] = []
        for seat in sorted(g.pending()):
            row = g.seat_row(seat)
            if row.ai or row.user_id is None or seat == mover or not ui.reaction(g, seat):
                continue
            if not row.dm_closed:
                out.append(seat)
        return out

    async def ask(self, g: Game, seat: Seat, *, nonce: str | None = None, since: float | None = None) -> None:
        """Ask ``seat`` its reaction question by DM, or ping it in the channel when its
        DMs turn out closed. ``nonce``, ``since``: see dm_message."""
        if not await self._ask(g, seat, nonce=nonce, since=since):
            await self._ping_in_channel(g, seat, nonce=nonce, since=since)

    async def _ask(self, g: Game, seat: Seat, *, nonce: str | None = None, since: float | None = None) -> bool:
        row = g.seat_row(seat)
        assert row.user_id is not None
        locale = self._locale(g, seat)
        ui = ui_for(g.row.game_id)
        intro = t("board.react_dm", locale, who=f"<@{row.user_id}>", title=g.engine.title.get(locale),
                  id=g.id, channel=f"<#{g.row.channel_id}>")
        view = ui.menu(g, seat, locale) or act_buttons(g, seat, locale) or chooser(g, seat, locale)
        content = clip(intro + "\n" + ui.menu_text(g, seat, locale), 2000)
        try:
            delivered = await self.dm(row.user_id, content=content, view=view, allowed_mentions=MENTIONS,
                                      nonce=nonce, since=since)
        except discord.HTTPException:
            log.warning("game %s: reaction DM to seat %s failed", g.id, seat, exc_info=True)
            return False
        if not delivered and await self.bot.session.set_dm_closed(g.id, seat, True):
            await self.tell_closed(g, seat)
        return delivered

    async def _ping_in_channel(self, g: Game, seat: Seat, *, nonce: str | None = None,
                               since: float | None = None) -> None:
        row = g.seat_row(seat)
        channel = self.bot.get_partial_messageable(g.row.channel_id, guild_id=g.row.guild_id)
        text = t("board.react_ping", g.locale, who=f"<@{row.user_id}>")
        try:
            await send_once(channel, self._me(), since, nonce, content=text, allowed_mentions=MENTIONS)
        except discord.HTTPException:
            log.warning("game %s: could not ping seat %s in the channel", g.id, seat, exc_info=True)
