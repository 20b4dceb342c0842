"""What a player or spectator is told by DM or by a ping of their own: turn DMs with a
catch-up, the clock's reminders, a spectator's one DM about a game, the final summary.
The announcer (cogs/common/announce.py) is made of this and of the public side."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs.common.delivery import send_once
from cogs.common.escalation import at_stake
from cogs.common.i18n import lang, t, tn
from cogs.common.patience import OLD_MESSAGE_EDITS, patiently
from cogs.common.present import (
    CONTENT,
    NO_MENTIONS,
    clip,
    event_lines,
    jump_url,
    outcome_line,
    said_by,
    ui_for,
)
from cogs.common.turn_record import allowed_users, timestamp
from cogs.common.usertext import plain
from rules.core import Seat
from services.session import Game
from storage.deadlines import DeadlineRow

if TYPE_CHECKING:
    from bot import TableroBot

log = logging.getLogger("tablero.announce")

# How many lines of catch-up a player is shown at most (the newest ones).
CATCH_UP_LINES = 12


class PlayerMessages:
    """The announcer's DMs and reminders (a part of Announcer, which sets ``bot``)."""

    bot: TableroBot

    @staticmethod
    def _watch_header(g: Game) -> str:
        return t("watch.update", g.locale, title=g.engine.title.get(g.locale), id=g.id,
                 channel=f"<#{g.row.channel_id}>")

    def _channel(self, g: Game) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(g.row.channel_id, guild_id=g.row.guild_id)

    def _locale(self, g: Game, seat: Seat) -> str:
        return lang(g.seat_row(seat).locale or g.locale)

    # -- turn DMs, reminders, catch-up --------------------------------------------------------

    async def catch_up(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """What happened since ``seat``'s last move, as lines ``seat`` may read (newest last),
        the moves the bot made in their seat meanwhile included."""
        since = g.seat_row(seat).seen_seq
        lines: list[str] = []
        for line in await self.bot.session.replay(g.id, seat):
            if line.seq <= since:
                continue
            name = g.seat_row(line.seat).name
            if line.undoes is not None:
                lines.append(t("undo.done", locale, name=name, seq=line.undoes))
                continue
            if line.before is not None:  # the bot's secret choice for the reader: its words
                what = ui_for(g.row.game_id).wording(g, g.engine.describe(
                    line.before, seat, g.engine.parse_action(line.action)), locale)
                lines.append(t("catchup.bot_chose", locale, choice=what))
                continue
            texts = event_lines(line.events, locale, seat, g=g)
            said = said_by(g, line.seat, texts, locale)
            # A move in the reader's own seat after their last one is the bot's for them
            # (at the deadline, or while their seat was the bot's): they are told so.
            lines.append(t("catchup.bot_for_you", locale, move=said) if line.seat == seat else said)
        if len(lines) > CATCH_UP_LINES:
            lines = [tn("catchup.more", len(lines) - CATCH_UP_LINES, locale)] + lines[-CATCH_UP_LINES:]
        return lines

    async def _deadline_of(self, g: Game, seat: Seat) -> DeadlineRow | None:
        for row in await self.bot.session.store.deadlines(g.id):
            if row.seat == seat:
                return row
        return None

    async def turn_dm(self, g: Game, seat: Seat) -> bool:
        """DM ``seat`` that it is their turn: where, what, their time, and a catch-up."""
        text = await self.turn_text(g, seat)
        return bool(text) and await self._dm(g, seat, text)

    async def turn_text(self, g: Game, seat: Seat) -> str:
        """The DM telling ``seat`` it is their turn ('' for a seat nobody plays)."""
        row = g.seat_row(seat)
        if row.user_id is None:
            return ""
        locale = self._locale(g, seat)
        prompt = g.pending().get(seat)
        what = ui_for(g.row.game_id).wording(g, prompt.text, locale) if prompt else ""
        lines = [t("turn.dm", locale, title=g.engine.title.get(locale), id=g.id,
                   channel=f"<#{g.row.channel_id}>", prompt=what)]
        deadline = await self._deadline_of(g, seat)
        if deadline is not None and not deadline.paused:
            lines.append(t("turn.time_left", locale, when=timestamp(deadline.due_at)))
        news = await self.catch_up(g, seat, locale)
        if news:
            lines.append(t("catchup.title", locale))
            lines.extend(news)
        url = jump_url(g)
        if url:
            lines.append(url)
        return clip("\n".join(lines), CONTENT)

    async def remind(self, deadline: DeadlineRow) -> None:
        """The clock's reminder (claimed with its outbox row): deliver it."""
        for change in await self.bot.session.store.open_changes(deadline.game):
            owed = change.payload.get("remind")
            if owed is not None and owed["seat"] == deadline.seat:
                await self.bot.outbox.deliver(change.id)

    async def _remind(self, g: Game, p: dict[str, Any], *, nonce: str | None = None,
                      since: float | None = None) -> None:
        """A DM with the time left and a link, or a ping in the channel; one DM listing
        every game of the player's whose reminder fell due at once ("also")."""
        if p.get("also"):
            await self._remind_many(g, p, nonce=nonce, since=since)
            return
        if g.status != "active":
            return
        seat, due_at, user_id = p["seat"], p["due_at"], p["user_id"]
        locale = self._locale(g, seat)
        text = t("clock.reminder", locale, title=g.engine.title.get(locale), id=g.id,
                 channel=f"<#{g.row.channel_id}>", when=timestamp(due_at), n=p["n"])
        if p["n"] >= 2:  # the last call: what the deadline brings
            text += "\n" + await at_stake(self.bot.session.store, g, seat, locale)
        url = jump_url(g)
        if url:
            text += "\n" + url
        if g.seat_row(seat).dm_closed or not await self._dm(g, seat, text, nonce=nonce, since=since):
            stake = await at_stake(self.bot.session.store, g, seat, g.locale) if p["n"] >= 2 else ""
            await self._remind_in_channel(g, user_id, due_at, stake, nonce=nonce, since=since)

    async def _remind_in_channel(self, g: Game, user_id: int, due_at: float, stake: str = "", *,
                                 nonce: str | None = None, since: float | None = None) -> None:
        """The reminder as a ping in the game's channel (the player's DMs are closed), with
        the last call's ``stake`` (what the deadline brings) when it is one."""
        text = t("clock.reminder_channel", g.locale, who=f"<@{user_id}>", when=timestamp(due_at))
        try:
            await send_once(self._channel(g), self._me(), since, nonce,
                            content=f"{text}\n{stake}" if stake else text,
                            allowed_mentions=allowed_users([user_id]))
        except discord.HTTPException:
            log.warning("game %s: could not remind user %s", g.id, user_id, exc_info=True)

    async def _remind_many(self, g: Game, p: dict[str, Any], *, nonce: str | None = None,
                           since: float | None = None) -> None:
        """One DM, in the player's language, listing each game whose reminder fell due at
        once (its time left and a link to its thread or channel); where the DM cannot go,
        each game's channel gets its own ping."""
        entries = [p, *p["also"]]
        games: list[tuple[Game, dict[str, Any]]] = []
        for entry in entries:
            other = g if entry.get("game", g.id) == g.id else await self.bot.session.get(entry["game"])
            # Still that player's wait (a game that ended meanwhile is not mentioned).
            if other is not None and other.status == "active" \
                    and other.seat_row(entry["seat"]).user_id == entry["user_id"]:
                games.append((other, entry))
        if not games:
            return
        first, entry = games[0]
        locale = self._locale(first, entry["seat"])
        lines = [t("clock.reminders", locale)]
        for other, e in games:
            line = t("clock.reminders_line", locale, title=other.engine.title.get(locale), id=other.id,
                     channel=f"<#{other.row.channel_id}>", when=timestamp(e["due_at"]))
            if e["n"] >= 2:
                line += " " + await at_stake(self.bot.session.store, other, e["seat"], locale)
            url = jump_url(other)
            lines.append(f"{line} {url}" if url else line)
        text = clip("\n".join(lines), CONTENT)
        if not first.seat_row(entry["seat"]).dm_closed and \
                await self._dm(first, entry["seat"], text, nonce=nonce, since=since):
            return
        for other, e in games:
            stake = await at_stake(self.bot.session.store, other, e["seat"], other.locale) if e["n"] >= 2 else ""
            await self._remind_in_channel(other, e["user_id"], e["due_at"], stake, nonce=f"{nonce}:{other.id}"
                                          if nonce else None, since=since)

    def _me(self) -> int | None:
        return self.bot.user.id if self.bot.user is not None else None

    async def _dm(self, g: Game, seat: Seat, content: str, **kwargs: Any) -> bool:
        row = g.seat_row(seat)
        if row.user_id is None:
            return False
        try:
            delivered = await self.bot.delivery.dm(row.user_id, content=content,
                                                   allowed_mentions=NO_MENTIONS, **kwargs)
        except discord.HTTPException:
            log.warning("game %s: DM to seat %s failed", g.id, seat, exc_info=True)
            return False
        if not delivered and await self.bot.session.set_dm_closed(g.id, seat, True):
            # found out by a turn DM or a reminder: the channel is told, as from a hand's DM
            await self.bot.delivery.tell_closed(g, seat)
        return delivered

    # -- spectators ------------------------------------------------------------------------

    async def _watch(self, g: Game, uid: int, text: str, *, nonce: str | None = None,
                     since: float | None = None) -> None:
        """Bring the spectator's one DM about ``g`` up to date: edited in place, or sent
        (and remembered) when there is none yet or it is gone."""
        store = self.bot.session.store
        where = await store.watch_message(g.id, uid)
        if where is not None:
            channel = self.bot.get_partial_messageable(where[0], type=discord.ChannelType.private)
            message = channel.get_partial_message(where[1])
            try:
                await patiently(lambda: message.edit(content=text, allowed_mentions=NO_MENTIONS),
                                again_if_dropped=True)
                return
            except discord.NotFound:
                log.info("game %s: spectator %s's DM is gone; sending it anew", g.id, uid)
            except discord.HTTPException as exc:
                if exc.code != OLD_MESSAGE_EDITS:
                    # Any other refusal: sending anew would leave two DMs about one game.
                    log.info("game %s: could not update spectator %s", g.id, uid)
                    return
                log.info("game %s: spectator %s's DM is too old to edit; sending it anew", g.id, uid)
        header = self._watch_header(g)
        try:
            sent = await self.bot.delivery.dm_message(
                uid, content=text, allowed_mentions=NO_MENTIONS, nonce=nonce, since=since,
                match=lambda m: m.content.startswith(header))
        except discord.HTTPException:
            log.info("game %s: could not update spectator %s", g.id, uid)
            return
        if sent is not None:
            await store.set_watch_message(g.id, uid, sent.channel.id, sent.id)

    def summary_lines(self, g: Game, locale: str) -> list[str]:
        """Every seat's hidden information, for the end of the game (nothing is secret then)."""
        ui = ui_for(g.row.game_id)
        out: list[str] = []
        for row in g.seats:
            lines = ui.revealed_lines(g, row.seat, locale)
            if lines:
                out.append(t("final.held", locale, name=plain(row.name)))
                out.extend(lines)
        return out

    async def final_summary(self, g: Game) -> None:
        """At the end: every hand and secret, to each spectator (the players saw their own,
        and /game replay gives anyone the whole record)."""
        seated = {s.user_id for s in g.seats}
        watchers = [u for u in await self.bot.session.store.watchers(g.id) if u not in seated]
        if not watchers:
            return
        for uid in watchers:
            await self._final(g, uid)

    async def _final(self, g: Game, uid: int, **kwargs: Any) -> None:
        lines = [outcome_line(g, g.locale)] if g.state is not None else []
        lines += self.summary_lines(g, g.locale)
        if not lines:
            return
        embed = discord.Embed(title=t("final.title", g.locale, id=g.id),
                              description=clip("\n".join(lines), 4096))
        try:
            await self.bot.delivery.dm(uid, embed=embed, allowed_mentions=NO_MENTIONS, **kwargs)
        except discord.HTTPException:
            log.info("game %s: could not send the final summary to %s", g.id, uid)
