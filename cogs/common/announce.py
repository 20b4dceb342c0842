"""What a committed change owes Discord: the public record (one ping per player per turn),
the board, private views, turn DMs, reminders, spectators.

Every path that changes a game (a command, a button, a DM answer, the clock, an undo)
ends here, so the rules of who is pinged and how are kept in one place.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs.common.i18n import lang, locale_of, t
from cogs.common.patience import (
    forbidden,
    missing_permissions,
    patiently,
    permission_names,
    permissions_in,
    token_alive,
)
from cogs.common.present import (
    CONTENT,
    NO_MENTIONS,
    asked_by_dm,
    clip,
    event_lines,
    jump_url,
    said_by,
    ui_for,
)
from rules.core import Seat
from services.session import Game, MoveResult
from storage.deadlines import DeadlineRow

if TYPE_CHECKING:
    from bot import TableroBot

log = logging.getLogger("tablero.announce")

# How many lines of catch-up a player is shown at most (the newest ones).
CATCH_UP_LINES = 12


def allowed_users(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (never roles or @everyone)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=u) for u in dict.fromkeys(user_ids)],
    )


def timestamp(ts: float, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in their own time zone."""
    return f"<t:{int(ts)}:{style}>"


def record(g: Game, result: MoveResult, locale: str) -> str:
    """The public record of a change: what caused it (clock, undo), the moves, who acts now."""
    from cogs.common.choices import announcement

    lines: list[str] = []
    if result.timed_out is not None:
        name = g.seat_row(result.timed_out).name
        key = "clock.dropped" if result.dropped else "clock.timed_out"
        lines.append(t(key, locale, name=name))
    if result.undone is not None:
        name = g.seat_row(result.steps[0].seat).name if result.steps else "?"
        lines.append(t("undo.done", locale, name=name, seq=result.undone))
    lines.append(announcement(g, result, locale))
    return clip("\n".join(lines), CONTENT)


class Announcer:
    """Tells Discord about committed changes, for every game alike."""

    def __init__(self, bot: TableroBot) -> None:
        self.bot = bot

    # -- after a change ------------------------------------------------------------------

    async def publish(
        self,
        result: MoveResult,
        *,
        interaction: discord.Interaction | None = None,
        board_repost: bool = False,
    ) -> None:
        """The record (a new message, so its pings notify), the board, private views, turn
        DMs, spectators. Never raises for Discord errors: the change is already committed."""
        g = result.game
        fresh = [s for s in result.newly_pending() if self._human(g, s) and not asked_by_dm(g, s)]
        users = {s: g.seat_row(s).user_id for s in fresh}
        prefs = await self.bot.session.store.users_settings([u for u in users.values() if u])
        ping: list[int] = []
        by_dm: list[Seat] = []
        for seat, uid in users.items():
            assert uid is not None
            notify = prefs[uid].notify
            dm_ok = not g.seat_row(seat).dm_closed
            if notify in ("channel", "both") or (notify == "dm" and not dm_ok):
                ping.append(uid)
            if notify in ("dm", "both") and dm_ok:
                by_dm.append(seat)
        said = record(g, result, g.locale)
        posted = await self._post(g, said, allowed_users(ping), interaction)
        await self.bot.boards.refresh(g.id, events=result.events, repost=board_repost, keep_old=board_repost)
        refused = self.bot.boards.refused.get(g.id)
        if refused is not None or not posted:
            await self.tell_missing(g, refused or g.row.channel_id, interaction)
        mover = result.steps[-1].seat if result.steps and interaction is not None else None
        await self.bot.delivery.private_updates(g, result.before, result.events, mover=mover)
        for seat in by_dm:
            await self.turn_dm(g, seat)
        await self._tell_watchers(g, said)
        if result.finished:
            await self.final_summary(g)

    async def _post(self, g: Game, said: str, allowed: discord.AllowedMentions,
                    interaction: discord.Interaction | None) -> bool:
        """Post the record; False when a missing permission kept it from the channel."""
        in_channel = interaction is not None and interaction.channel_id in (
            g.row.channel_id, g.row.board_channel_id)
        try:
            if interaction is not None and in_channel and not interaction.response.is_done():
                # The answer to the interaction is a new message: its mentions notify.
                await interaction.response.send_message(said, allowed_mentions=allowed)
                return True
            if interaction is not None and not interaction.response.is_done():
                # Moved from a DM (a reaction's buttons): the record belongs in the channel.
                await interaction.response.send_message(t("board.done", interaction.locale), ephemeral=True)
            await patiently(lambda: self._channel(g).send(said, allowed_mentions=allowed))
        except discord.HTTPException as exc:
            if not forbidden(exc):
                log.warning("game %s: could not post the record of a move", g.id, exc_info=True)
            if interaction is not None and interaction.response.is_done():
                await self._fill_placeholder(interaction, said)
            return not forbidden(exc)
        if interaction is not None and interaction.response.type is \
                discord.InteractionResponseType.deferred_channel_message and token_alive(interaction):
            # A slow command left a "thinking…" reply. Filling it would be an edit, and an
            # edit notifies nobody: the record went out as a new message, so this goes.
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                pass
        return True

    @staticmethod
    async def _fill_placeholder(interaction: discord.Interaction, said: str) -> None:
        if not token_alive(interaction):
            return
        try:
            await interaction.edit_original_response(content=said, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            pass

    async def tell_missing(self, g: Game, channel_id: int, interaction: discord.Interaction | None) -> None:
        """Tell whoever acted (privately), or else the host by DM, which permissions the bot
        lacks in the game's channel; the game goes on without what they would allow."""
        known = await permissions_in(self.bot, channel_id)
        if known is not None:
            names = missing_permissions(*known)
        elif interaction is not None and interaction.channel_id == channel_id:
            names = missing_permissions(interaction.app_permissions, False)
        else:
            names = []
        if interaction is not None and token_alive(interaction):
            locale = locale_of(interaction)
            text = t("perm.missing", locale, channel=f"<#{channel_id}>",
                     perms=permission_names(names, locale) if names else "?", id=g.id)
            try:
                if interaction.response.is_done():
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
                return
            except discord.HTTPException:
                log.info("game %s: could not tell the player about missing permissions", g.id)
        host = next((s for s in g.seats if s.user_id == g.row.host_id), None)
        locale = lang(host.locale if host is not None and host.locale else g.locale)
        text = t("perm.missing", locale, channel=f"<#{channel_id}>",
                 perms=permission_names(names, locale) if names else "?", id=g.id)
        try:
            await self.bot.delivery.dm(g.row.host_id, content=text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            log.info("game %s: could not tell the host about missing permissions", g.id)

    def _channel(self, g: Game) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(g.row.channel_id, guild_id=g.row.guild_id)

    @staticmethod
    def _human(g: Game, seat: Seat) -> bool:
        row = g.seat_row(seat)
        return not row.ai and row.user_id is not None

    def _locale(self, g: Game, seat: Seat) -> str:
        return lang(g.seat_row(seat).locale or g.locale)

    # -- turn DMs, reminders, catch-up --------------------------------------------------------

    async def catch_up(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """What happened since ``seat``'s last move, as lines ``seat`` may read (newest last)."""
        since = g.seat_row(seat).seen_seq
        lines: list[str] = []
        for line in await self.bot.session.replay(g.id, seat):
            if line.seq <= since or line.seat == seat:
                continue
            name = g.seat_row(line.seat).name
            if line.undoes is not None:
                lines.append(t("undo.done", locale, name=name, seq=line.undoes))
                continue
            texts = event_lines(line.events, locale, seat, g=g)
            lines.append(said_by(g, line.seat, texts, locale))
        if len(lines) > CATCH_UP_LINES:
            lines = [t("catchup.more", locale, n=len(lines) - CATCH_UP_LINES)] + lines[-CATCH_UP_LINES:]
        return lines

    async def _deadline_of(self, g: Game, seat: Seat) -> DeadlineRow | None:
        for row in await self.bot.session.store.deadlines(g.id):
            if row.seat == seat:
                return row
        return None

    async def turn_dm(self, g: Game, seat: Seat) -> bool:
        """DM ``seat`` that it is their turn: where, what, their time, and a catch-up."""
        row = g.seat_row(seat)
        if row.user_id is None:
            return False
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
        return await self._dm(g, seat, clip("\n".join(lines), CONTENT))

    async def remind(self, deadline: DeadlineRow) -> None:
        """The clock's reminder: a DM with the time left and a link, or a ping in the channel."""
        g = await self.bot.session.get(deadline.game)
        if g is None or g.status != "active":
            return
        seat = deadline.seat
        locale = self._locale(g, seat)
        text = t("clock.reminder", locale, title=g.engine.title.get(locale), id=g.id,
                 channel=f"<#{g.row.channel_id}>", when=timestamp(deadline.due_at),
                 n=deadline.reminders)
        url = jump_url(g)
        if url:
            text += "\n" + url
        if g.seat_row(seat).dm_closed or not await self._dm(g, seat, text):
            mention = f"<@{deadline.user_id}>"
            try:
                await patiently(lambda: self._channel(g).send(
                    t("clock.reminder_channel", g.locale, who=mention, when=timestamp(deadline.due_at)),
                    allowed_mentions=allowed_users([deadline.user_id]),
                ))
            except discord.HTTPException:
                log.warning("game %s: could not remind seat %s", g.id, seat, exc_info=True)

    async def expire(self, deadline: DeadlineRow) -> bool:
        """The clock ran out: apply the timeout action and tell everyone; False if stale."""
        result = await self.bot.session.timeout(deadline)
        if result is None:
            return False
        await self.publish(result)
        return True

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
        if not delivered:
            await self.bot.session.set_dm_closed(g.id, seat, True)
        return delivered

    # -- spectators ------------------------------------------------------------------------

    async def _tell_watchers(self, g: Game, said: str) -> None:
        watchers = await self.bot.session.store.watchers(g.id)
        seated = {s.user_id for s in g.seats}
        for uid in watchers:
            if uid in seated:
                continue
            text = clip(t("watch.update", g.locale, title=g.engine.title.get(g.locale), id=g.id,
                          channel=f"<#{g.row.channel_id}>") + "\n" + said, CONTENT)
            try:
                await self.bot.delivery.dm(uid, content=text, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                log.info("game %s: could not update spectator %s", g.id, uid)

    def summary_lines(self, g: Game, locale: str) -> list[str]:
        """Every seat's hidden information, for the end of the game (nothing is secret then)."""
        ui = ui_for(g.row.game_id)
        out: list[str] = []
        for row in g.seats:
            lines = ui.private_lines(g, row.seat, locale)
            if lines:
                out.append(f"**{discord.utils.escape_markdown(row.name)}**")
                out.extend(lines)
        return out

    async def final_summary(self, g: Game) -> None:
        """At the end: every hand and secret, to each spectator (the players saw their own,
        and /game replay gives anyone the whole record)."""
        seated = {s.user_id for s in g.seats}
        watchers = [u for u in await self.bot.session.store.watchers(g.id) if u not in seated]
        if not watchers:
            return
        lines = self.summary_lines(g, g.locale)
        if not lines:
            return
        embed = discord.Embed(title=t("final.title", g.locale, id=g.id),
                              description=clip("\n".join(lines), 4096))
        for uid in watchers:
            try:
                await self.bot.delivery.dm(uid, embed=embed, allowed_mentions=NO_MENTIONS)
            except discord.HTTPException:
                log.info("game %s: could not send the final summary to %s", g.id, uid)
