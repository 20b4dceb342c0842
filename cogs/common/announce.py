"""What a committed change owes Discord: the public record (one ping per player per turn),
the board, private views, turn DMs, reminders, spectators.

Every path that changes a game (a command, a button, a DM answer, the clock, an undo)
ends here, so the rules of who is pinged and how are kept in one place.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs.common.card import Story, keep_newest
from cogs.common.delivery import send_once
from cogs.common.escalation import at_stake, out_owed, out_text, timeout_line
from cogs.common.i18n import lang, locale_of, t, tn
from cogs.common.patience import (
    OLD_MESSAGE_EDITS,
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
    outcome_line,
    said_by,
    turn_lines,
    ui_for,
)
from cogs.common.usertext import plain
from rules.core import Seat
from services.outbox import Delivery as OutboxDelivery
from services.session import Game, MoveResult
from storage.deadlines import DeadlineRow
from storage.outbox import OutboxRow, Owed

if TYPE_CHECKING:
    from bot import TableroBot

log = logging.getLogger("tablero.announce")

# How many lines of catch-up a player is shown at most (the newest ones).
CATCH_UP_LINES = 12
# How many of a game's newest owed messages are read to find the turn in play; and how
# many lines of a turn are kept (the card and the turn message show the newest).
STORY_ROWS = 200
STORY_LINES = 60


def allowed_users(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (never roles or @everyone)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=u) for u in dict.fromkeys(user_ids)],
    )


def timestamp(ts: float, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in their own time zone."""
    return f"<t:{int(ts)}:{style}>"


def change_lines(g: Game, result: MoveResult, locale: str) -> list[str]:
    """What a change did, as lines that read on their own: what caused it (clock, undo),
    then each player's moves (the steps of one choice on one line)."""
    from cogs.common.choices import announcement

    lines: list[str] = []
    if result.timed_out is not None:
        lines.append(timeout_line(g, result, locale))
    if result.undone is not None:
        name = g.seat_row(result.steps[0].seat).name if result.steps else "?"
        lines.append(t("undo.done", locale, name=name, seq=result.undone))
    said = announcement(g, result, locale)
    turn = "\n".join(turn_lines(g, locale))
    if turn and said.endswith("\n" + turn):
        said = said[: -len(turn) - 1]
    elif turn and said == turn:
        said = ""
    return [line for line in [*lines, said] if line]


def record(story: Sequence[str], g: Game, locale: str, limit: int = CONTENT) -> str:
    """The message of a turn that passes: the turn that ended, step by step (its oldest
    steps go first when it is long), then who acts now (whole: it holds the pings)."""
    turn = "\n".join(turn_lines(g, locale))
    room = limit - len(turn) - 1 if turn else limit
    body = keep_newest(story, room) if room > 2 else ""
    return clip("\n".join(part for part in (body, turn) if part), limit)


async def told_so_far(store: Any, game: int) -> tuple[list[str], list[str]]:
    """What the game's last turn message told (its story), and the steps folded since then
    into the card (the turn in play so far), from the outbox's newest rows."""
    now: list[str] = []
    for row in await store.recent_messages(game, ("board", "record"), limit=STORY_ROWS):
        if row.kind == "record":
            return list(row.payload.get("story") or []), now
        now[:0] = row.payload.get("turn") or []
    return [], now


@dataclass
class Context:
    """What the code that made a change passes to its delivery: the interaction to answer
    (with the record), whether the board is posted anew below (a game's start), and
    whether whoever acted was already told of a missing permission."""

    interaction: discord.Interaction | None = None
    board_repost: bool = False
    told: bool = False
    # The turn's message went out as the card itself (posted anew, up to date): the
    # change's board needs no edit of its own.
    carded: bool = False


class Announcer:
    """Tells Discord about committed changes, for every game alike."""

    def __init__(self, bot: TableroBot) -> None:
        self.bot = bot
        self.started = time.time()
        # Threads opened by this process for a game: never taken for a crash's orphans.
        self.own_threads: set[int] = set()

    # -- after a change ------------------------------------------------------------------

    async def publish(
        self,
        result: MoveResult,
        *,
        interaction: discord.Interaction | None = None,
        board_repost: bool = False,
    ) -> None:
        """Deliver what ``result`` owes through the outbox: the record (a new message, so its
        pings notify), the board, private views, questions, turn DMs, spectators. Never
        raises for Discord errors: the change is already committed. What a crash keeps
        from going out now goes out after the restart (Outbox.drain)."""
        note = result.change
        if note is None or note.id is None:
            return  # nothing was committed: nothing is owed
        g = result.game
        for step in result.steps:
            kind = getattr(step.action, "kind", None) or ("undo" if step.action is None else type(step.action).__name__)
            log.info("game %s: seat %s %s, version %s", g.id, step.seat, kind, step.version,
                     extra={"event": "move", "guild": g.row.guild_id, "channel": g.row.channel_id,
                            "seat": step.seat, "version": step.version, "action": kind, "ai": step.ai})
        context = Context(interaction=interaction, board_repost=board_repost)
        await self.bot.outbox.deliver(note.id, result, context)
        if interaction is not None:
            await self._answer_left(interaction)

    @staticmethod
    async def _answer_left(interaction: discord.Interaction) -> None:
        """A move whose steps folded into the card, made away from it (a command): the
        player still needs an answer, privately; a public "thinking…" placeholder goes."""
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(t("board.done", locale_of(interaction)), ephemeral=True)
            elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message \
                    and token_alive(interaction):
                await interaction.delete_original_response()
                await interaction.followup.send(t("board.done", locale_of(interaction)), ephemeral=True)
        except discord.HTTPException:
            log.info("could not answer interaction %s", interaction.id)

    # -- what a change owes, and sending it --------------------------------------------------

    async def plan(self, change: OutboxRow, result: MoveResult | None, context: Any) -> list[Owed]:
        """The messages a change owes, in the order they go out; written once, so that a
        delivery cut by a crash goes on with the same messages and texts."""
        remind = change.payload.get("remind")
        if remind is not None:
            # With the player's other games whose reminders fell due at once: one DM for all.
            also = {"also": change.payload["also"]} if change.payload.get("also") else {}
            return [Owed("remind", f"remind:{remind['seat']}:{remind['n']}", {**remind, **also})]
        repost = bool(context.board_repost) if isinstance(context, Context) else bool(change.payload.get("start"))
        if result is None:
            return [Owed("board", "board", {"repost": repost})]
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
        # Every step of one player's turn, the bots' replies and answered questions fold
        # into the card; a message of its own only when the turn passes to others (it pings
        # them once and tells the turn that ended), at the start and at the end.
        mine = change_lines(g, result, g.locale)
        last, now = await told_so_far(self.bot.session.store, g.id)
        story = (now + mine)[-STORY_LINES:]
        # Back to the one who just moved (the bots answered, or their turn goes on): the
        # card they are looking at says so; the channel hears nothing new.
        movers = {step.seat for step in result.steps if not step.ai}
        passes = any(s not in movers for s in fresh) or result.finished or result.before is None
        interaction = context.interaction if isinstance(context, Context) else None
        if passes:
            said = record(story, g, g.locale)
            told = Owed("record", "record", {"text": said, "ping": ping, "story": story})
            # The turn's message is always a message of its own, never inside the card (whose
            # next edit would erase it): a card posted anew when buried comes below it.
            board = Owed("board", "board", {"repost": repost, "last": story, "now": [], "turn": []})
            # A move made on the card: the card's edit answers it, the message follows.
            owed = [board, told] if self._on_card(g, interaction) else [told, board]
        else:
            said = ""
            owed = [Owed("board", "board", {"repost": repost, "last": last, "now": story, "turn": mine})]
        for seat, news in self.bot.delivery.hands_owed(g, result.before, result.events):
            owed.append(Owed("hand", f"hand:{seat}", {"seat": seat, "news": news}))
        mover = result.steps[-1].seat if result.steps and interaction is not None else None
        for seat in self.bot.delivery.reactions_owed(g, mover):
            owed.append(Owed("react", f"react:{seat}", {"seat": seat}))
        for seat in by_dm:
            text = await self.turn_text(g, seat)
            if text:
                owed.append(Owed("turn", f"turn:{seat}", {"seat": seat, "text": text}))
        owed.extend(out_owed(g, result))
        seated = {s.user_id for s in g.seats}
        watchers = [u for u in await self.bot.session.store.watchers(g.id) if u not in seated]
        if passes:
            # A spectator's one DM about the game, edited at each turn that passes.
            header = self._watch_header(g)
            text = header + "\n" + record(story, g, g.locale, CONTENT - len(header) - 1)
            owed.extend(Owed("watch", f"watch:{uid}", {"uid": uid, "text": text}) for uid in watchers)
        if result.finished:
            owed.extend(Owed("final", f"final:{uid}", {"uid": uid}) for uid in watchers)
        return owed

    @staticmethod
    def _on_card(g: Game, interaction: discord.Interaction | None) -> bool:
        """Whether ``interaction`` came from a component of the game's card (its answer can
        then be the card's edit: no second call)."""
        message = interaction.message if interaction is not None else None
        return message is not None and message.id == g.row.board_message_id

    @staticmethod
    def _watch_header(g: Game) -> str:
        return t("watch.update", g.locale, title=g.engine.title.get(g.locale), id=g.id,
                 channel=f"<#{g.row.channel_id}>")

    async def send(self, d: OutboxDelivery) -> None:
        """Send one message a change owes. ``d.again``: a crash may have cut its delivery
        after it went out, so look first (nonce, the channel's recent history)."""
        row, p = d.row, d.row.payload
        g = await self.bot.session.get(row.game)
        if g is None:
            return
        context = d.context if isinstance(d.context, Context) else Context()
        interaction = None if d.again else context.interaction
        since = d.change.created_at if d.again else None
        nonce = f"tb{row.id}"
        if row.kind == "record":
            # (not at a start, whose card comes below the lobby, kept)
            if not d.again and not context.board_repost and await self._as_card(g, p, nonce, interaction):
                context.carded = True
            elif not await self._post(d.result.game if d.result is not None else g, p["text"],
                                      allowed_users(p["ping"]), interaction, nonce=nonce, since=since):
                context.told = True
                await self.tell_missing(g, g.row.channel_id, interaction)
        elif row.kind == "board" and context.carded and not p["repost"] and not d.again:
            pass  # the turn's message was the card, posted anew as the game is now
        elif row.kind == "board":
            story = Story(list(p["last"]), list(p["now"])) if "last" in p else None
            on_card = interaction if self._on_card(g, interaction) else None
            if interaction is not None and on_card is None:
                # A step folded into the card, made away from it: answered at once, privately.
                await self._answer_left(interaction)
            await self.bot.boards.refresh(g.id, story=story, repost=p["repost"], keep_old=p["repost"],
                                          nonce=nonce, since=since, interaction=on_card)
            refused = self.bot.boards.refused.get(g.id)
            if refused is not None and not context.told:
                context.told = True
                await self.tell_missing(g, refused, interaction)
        elif row.kind == "hand":
            await self.bot.delivery.send_private(g, p["seat"], p["news"], nonce=nonce, since=since)
        elif row.kind == "react":
            seat = p["seat"]
            # Asked only while the question is still open (a restart may come later).
            if seat in g.pending() and ui_for(g.row.game_id).reaction(g, seat) and not g.seat_row(seat).dm_closed:
                await self.bot.delivery.ask(g, seat, nonce=nonce, since=since)
        elif row.kind == "turn":
            if p["seat"] in g.pending():
                await self._dm(g, p["seat"], p["text"], nonce=nonce, since=since)
        elif row.kind == "watch":
            await self._watch(g, p["uid"], p["text"], nonce=nonce, since=since)
        elif row.kind == "final":
            await self._final(g, p["uid"], nonce=nonce, since=since)
        elif row.kind == "remind":
            await self._remind(g, p, nonce=nonce, since=since)
        elif row.kind == "out":
            await self._dm(g, p["seat"], out_text(g, p, self._locale(g, p["seat"])), nonce=nonce, since=since)
        else:
            log.error("game %s: outbox row %s of unknown kind %r", g.id, row.id, row.kind)
            return
        log.info("game %s: delivered %s of change %s", g.id, row.key, d.change.id,
                 extra={"event": "delivery", "guild": g.row.guild_id, "kind": row.kind, "again": d.again})

    async def _as_card(self, g: Game, p: dict[str, Any], nonce: str,
                       interaction: discord.Interaction | None) -> bool:
        """The turn's message as the new card's content, when the card would be buried by
        it (or is gone or too old): one new message instead of two, and the old card goes
        (kept as the turn's message it carried, if any). False when it was not done."""
        boards = self.bot.boards
        if g.state is None or g.row.channel_id != (g.row.board_channel_id or g.row.channel_id) \
                or not boards.buried_by_one_more(g):
            return False
        mid = await boards.refresh(g.id, story=Story(list(p["story"]), []), nonce=nonce,
                                   told=(p["text"], allowed_users(p["ping"])))
        if mid is None:
            return False  # refused: the turn's message goes on its own (or says what is missing)
        if interaction is not None:
            await self._answer_left(interaction)
        return True

    async def _post(self, g: Game, said: str, allowed: discord.AllowedMentions,
                    interaction: discord.Interaction | None, *, nonce: str | None = None,
                    since: float | None = None) -> bool:
        """Post the record; False when a missing permission kept it from the channel."""
        in_channel = interaction is not None and interaction.channel_id in (
            g.row.channel_id, g.row.board_channel_id)
        try:
            if interaction is not None and in_channel and not interaction.response.is_done():
                # The answer to the interaction is a new message: its mentions notify.
                try:
                    answer = await interaction.response.send_message(said, allowed_mentions=allowed)
                    if answer is not None and answer.message_id is not None and interaction.channel_id:
                        # counted below the card now: its event may come after the next turn
                        self.bot.boards.note(interaction.channel_id, answer.message_id)
                    return True
                except discord.NotFound:
                    interaction = None  # Discord forgot it (answered too late): post it below
            if interaction is not None and not interaction.response.is_done():
                # Moved from a DM (a reaction's buttons): the record belongs in the channel.
                await interaction.response.send_message(t("board.done", interaction.locale), ephemeral=True)
            sent = await send_once(self._channel(g), self._me(), since, nonce, content=said,
                                   allowed_mentions=allowed)
            self.bot.boards.note(g.row.channel_id, sent.id)
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

    # -- after a restart -------------------------------------------------------------------

    async def remove_orphan_threads(self) -> int:
        """Threads opened for a new game that a crash kept from holding it (noted before
        they were opened): removed, so no empty game thread is left behind. How many."""
        from cogs.common.delivery import SINCE_MARGIN

        store = self.bot.session.store
        removed = 0
        for pending in await store.pending_threads():
            if pending.created_at >= self.started:
                continue  # being opened by this process right now
            guild = self.bot.get_guild(pending.guild_id) if pending.guild_id is not None else None
            for thread in guild.threads if guild is not None else []:
                # a thread this process opened is not a crash's (a tournament's table opened
                # again under the same name, or a lobby of the same name, while this runs)
                if (thread.parent_id != pending.parent_id or thread.name != pending.name
                        or thread.id in self.own_threads
                        or discord.utils.snowflake_time(thread.id).timestamp() < pending.created_at - SINCE_MARGIN
                        or await store.latest_game_in_channel(thread.id) is not None):
                    continue
                try:
                    await thread.delete()
                    removed += 1
                    log.info("removed thread %s, opened for a game a crash kept from it", thread.id)
                except discord.HTTPException:
                    log.warning("could not remove thread %s, left without its game", thread.id)
            await store.drop_pending_thread(pending.id)
        return removed

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
            await self._remind_in_channel(g, user_id, due_at, nonce=nonce, since=since)

    async def _remind_in_channel(self, g: Game, user_id: int, due_at: float, *,
                                 nonce: str | None = None, since: float | None = None) -> None:
        """The reminder as a ping in the game's channel (the player's DMs are closed)."""
        try:
            await send_once(self._channel(g), self._me(), since, nonce,
                            content=t("clock.reminder_channel", g.locale, who=f"<@{user_id}>",
                                      when=timestamp(due_at)),
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
            await self._remind_in_channel(other, e["user_id"], e["due_at"], nonce=f"{nonce}:{other.id}"
                                          if nonce else None, since=since)

    async def expire(self, deadline: DeadlineRow) -> bool:
        """The clock ran out: apply the timeout action and tell everyone; False if stale."""
        result = await self.bot.session.timeout(deadline)
        if result is None:
            return False
        await self.publish(result)
        return True

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
                await patiently(lambda: message.edit(content=text, allowed_mentions=NO_MENTIONS))
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
