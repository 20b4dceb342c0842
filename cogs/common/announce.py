"""What a committed change owes Discord: the public record (one ping per player per turn),
the board, private views, turn DMs, reminders, spectators (those told one by one are in
cogs/common/player_messages.py, what a turn's message says in cogs/common/turn_record.py).

Every path that changes a game (a command, a button, a DM answer, the clock, an undo)
ends here, so the rules of who is pinged and how are kept in one place.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord

from cogs.common.answering import card_held, followup_open, hand_shown, respond
from cogs.common.card import Story
from cogs.common.card_hold import holds_card
from cogs.common.delivery import send_once
from cogs.common.errors import mark_filled, placeholder_open, reply
from cogs.common.escalation import out_owed, out_text
from cogs.common.i18n import lang, locale_of, t
from cogs.common.patience import (
    forbidden,
    missing_permissions,
    permission_names,
    permissions_in,
    token_alive,
)
from cogs.common.player_messages import CATCH_UP_LINES as CATCH_UP_LINES
from cogs.common.player_messages import PlayerMessages
from cogs.common.present import CONTENT, NO_MENTIONS, asked_by_dm, ui_for
from cogs.common.turn_record import STORY_LINES, Context, change_lines, record, told_so_far
from cogs.common.turn_record import STORY_ROWS as STORY_ROWS
from cogs.common.turn_record import allowed_users as allowed_users
from cogs.common.turn_record import timestamp as timestamp
from rules.core import Seat
from services.outbox import Delivery as OutboxDelivery
from services.session import Game, MoveResult
from storage.deadlines import DeadlineRow
from storage.outbox import OutboxRow, Owed

if TYPE_CHECKING:
    from bot import TableroBot

log = logging.getLogger("tablero.announce")

# How many of a game's newest hand messages are read to learn which hands are held (a few
# a change at most, so this reaches back well beyond one seat's part of a turn).
HELD_LOOKED_AT = 50
HELD_GAMES_KEPT = 10_000  # games whose held hands are known in memory (a small set each)


class Announcer(PlayerMessages):
    """Tells Discord about committed changes, for every game alike."""

    def __init__(self, bot: TableroBot) -> None:
        self.bot = bot
        self.started = time.time()
        # Threads opened by this process for a game: never taken for a crash's orphans.
        self.own_threads: set[int] = set()
        # Per game, the seats whose hand DM waits for the end of their part (see _hands),
        # for the games most recently changed (one forgotten is read again from the store).
        self._held: OrderedDict[int, set[Seat]] = OrderedDict()

    # -- after a change ------------------------------------------------------------------

    async def publish(
        self,
        result: MoveResult,
        *,
        interaction: discord.Interaction | None = None,
        board_repost: bool = False,
        lobby_shown: bool = False,
    ) -> None:
        """Deliver what ``result`` owes through the outbox: the record (a new message, so its
        pings notify), the board, private views, questions, turn DMs, spectators. Never
        raises for Discord errors: the change is already committed. What a crash keeps
        from going out now goes out after the restart (Outbox.drain). A game's start is
        delivered whole by whoever delivers it (its lobby marked started, its message, its
        card), so a start delivered meanwhile by another task leaves this one nothing to do."""
        note = result.change
        if note is None or note.id is None:
            if interaction is not None:
                await self._answer_left(interaction)
            return  # nothing was committed: nothing is owed
        g = result.game
        for step in result.steps:
            kind = getattr(step.action, "kind", None) or ("undo" if step.action is None else type(step.action).__name__)
            log.info("game %s: seat %s %s, version %s", g.id, step.seat, kind, step.version,
                     extra={"event": "move", "guild": g.row.guild_id, "channel": g.row.channel_id,
                            "seat": step.seat, "version": step.version, "action": kind, "ai": step.ai})
        context = Context(interaction=interaction, board_repost=board_repost, lobby_shown=lobby_shown)
        await self.bot.outbox.deliver(note.id, result, context)
        if interaction is not None:
            await self._answer_left(interaction)

    @staticmethod
    async def _answer_left(interaction: discord.Interaction) -> None:
        """A move made away from the card (a command, a private menu) whose turn's message
        went to the channel as a message of its own, or whose steps folded into the card:
        the player still needs an answer, privately. It fills their "thinking…" (a public
        one goes, and the answer comes alone); once it is filled, nothing more is said."""
        if interaction.response.is_done() and not (placeholder_open(interaction) and token_alive(interaction)):
            return
        try:
            await reply(interaction, t("board.done", locale_of(interaction)), ephemeral=True)
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
        # A start's lobby message (none for a tournament's table) is marked started by the
        # start's own delivery, just before its card goes out below it.
        lobby = None
        if change.payload.get("start"):
            started = result.game if result is not None else await self.bot.session.get(change.game)
            lobby = started.row.board_message_id if started is not None else None
        if result is None:
            return [Owed("board", "board", {"repost": repost, "lobby": lobby})]
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
            board = Owed("board", "board", {"repost": repost, "last": story, "now": [], "turn": [],
                                            "lobby": lobby})
            # A move made on the card: the card's edit answers it (or goes through its
            # webhook), the turn's message follows on its own. Else the turn's message first:
            # the move's interaction, open or acknowledged, brings it as the new card (the
            # board then needs nothing more).
            owed = [board, told] if self._on_card(g, interaction) else [told, board]
        else:
            said = ""
            board_now: dict[str, Any] = {"repost": repost, "last": last, "now": story, "turn": mine}
            mover_seat = result.steps[-1].seat if result.steps else None
            if not repost and mover_seat is not None and card_held(interaction) == mover_seat \
                    and holds_card(result, mover_seat):
                # The mover's panel shows the table as it is now: the card waits for the end
                # of their part (card_hold.py), this message owed until it is shown.
                board_now["held"] = True
            owed = [Owed("board", "board", board_now)]
        owed.extend(await self._hands(g, result, interaction))
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

    async def _hands(self, g: Game, result: MoveResult, interaction: discord.Interaction | None) -> list[Owed]:
        """The hand DMs a change owes. A hand the step's own answer showed (the private panel's
        next step) is held while its seat's part goes on, and goes out once it ends: one DM a
        turn, not one a step, and never an older hand than the newest. A hold is written with
        the change (a "held" message that sends nothing), so a restart in between keeps it."""
        shown = hand_shown(interaction)
        held = await self.held_hands(g)
        owed: list[Owed] = []
        for seat, news in self.bot.delivery.hands_owed(g, result.before, result.events):
            if seat == shown:
                held.add(seat)
                owed.append(Owed("held", f"held:{seat}", {"seat": seat}))
                continue
            held.discard(seat)
            owed.append(Owed("hand", f"hand:{seat}", {"seat": seat, "news": news}))
        pending = g.pending()
        for seat in sorted(s for s in held if s not in pending):
            held.discard(seat)
            owed.append(Owed("hand", f"hand:{seat}", {"seat": seat, "news": []}))
        return owed

    async def held_hands(self, g: Game) -> set[Seat]:
        """The seats of ``g`` whose hand DM is held: known in memory once read from the
        newest hand messages the game's changes owed (always read where other processes
        deliver too)."""
        held = self._held.get(g.id)
        if held is None or self.bot.session.shared:
            newest: dict[Seat, str] = {}
            for row in await self.bot.session.store.recent_messages(g.id, ("hand", "held"), limit=HELD_LOOKED_AT):
                newest.setdefault(row.payload["seat"], row.kind)
            held = self._held[g.id] = {seat for seat, kind in newest.items() if kind == "held"}
            while len(self._held) > HELD_GAMES_KEPT:
                self._held.popitem(last=False)
        self._held.move_to_end(g.id)
        return held

    @staticmethod
    def _on_card(g: Game, interaction: discord.Interaction | None) -> bool:
        """Whether ``interaction`` came from a component of the game's card (its answer can
        then be the card's edit: no second call)."""
        message = interaction.message if interaction is not None else None
        return message is not None and message.id == g.row.board_message_id

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
            if d.again:
                await self._keep_one_card(g, since)
        elif row.kind == "board" and context.carded and not p["repost"] and not d.again:
            pass  # the turn's message was the card, posted anew as the game is now
        elif row.kind == "board" and p.get("held") and not d.again:
            # Shown in the mover's panel; the card waits (after a restart it is shown now).
            made = d.result.game.version if d.result is not None else g.version
            await self.bot.boards.hold(g.id, row.id, d.change.id, made, Story(list(p["last"]), list(p["now"])))
            d.left_open = True
        elif row.kind == "board":
            if p.get("lobby") and not context.lobby_shown:
                await self.bot.boards.show_lobby(g, p["lobby"])
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
        elif row.kind == "held":
            pass  # a hand DM held until the seat's part ends (see _hands): nothing to send
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

    async def _keep_one_card(self, g: Game, since: float | None) -> None:
        """After a crash cut a turn's message: it may have gone out as the game's new card
        (see _as_card) and the crash come before that card was stored, after the change's
        card was shown (a move made on the card shows it first). The copy found again is
        then a live card of its own: keep the card posted since the change, retire the
        other (BoardKeeper's look through the channel), and show it as the game is now."""
        if g.state is not None and since is not None:
            await self.bot.boards.refresh(g.id, since=since)

    async def _as_card(self, g: Game, p: dict[str, Any], nonce: str,
                       interaction: discord.Interaction | None) -> bool:
        """The turn's message as the new card's content, when the move's interaction may
        still be answered (the new card is its answer), or the card would be buried by it
        (or is gone or too old): one new message instead of two, and the old card goes
        (kept as the turn's message it carried, if any). False when it was not done."""
        boards = self.bot.boards
        if g.state is None or g.row.channel_id != (g.row.board_channel_id or g.row.channel_id):
            return False
        # A move whose interaction is still open (made in the card's channel) is answered by
        # the new card: one response instead of the turn's message and the card's edit; one
        # acknowledged or answered as an update of its message (its private panel) posts it
        # as a followup, outside the global limit.
        answer = interaction if interaction is not None and interaction.channel_id == g.row.channel_id \
            and not self._on_card(g, interaction) \
            and (not interaction.response.is_done() or followup_open(interaction)) else None
        if answer is None and not boards.buried_by_one_more(g):
            return False
        mid = await boards.refresh(g.id, story=Story(list(p["story"]), []), nonce=nonce,
                                   told=(p["text"], allowed_users(p["ping"])), answer=answer)
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
                answers: list[Any] = []

                async def answer_with_record() -> None:
                    answers.append(await interaction.response.send_message(said, allowed_mentions=allowed))

                try:
                    if await respond(interaction, answer_with_record):
                        answer = answers[0] if answers else None
                        if answer is not None and answer.message_id is not None and interaction.channel_id:
                            # counted below the card now: its event may come after the next turn
                            self.bot.boards.note(interaction.channel_id, answer.message_id)
                        return True
                except discord.NotFound:
                    interaction = None  # Discord forgot it (answered too late): post it below
            if interaction is not None and not interaction.response.is_done():
                # Moved from a DM (a reaction's buttons): the record belongs in the channel.
                done = t("board.done", interaction.locale)
                await respond(interaction, lambda: interaction.response.send_message(done, ephemeral=True))
            sent = await self._followup(interaction, said, allowed) if in_channel else None
            if sent is None:
                sent = await send_once(self._channel(g), self._me(), since, nonce, content=said,
                                       allowed_mentions=allowed)
            self.bot.boards.note(g.row.channel_id, sent.id)
        except discord.HTTPException as exc:
            if not forbidden(exc):
                log.warning("game %s: could not post the record of a move", g.id, exc_info=True)
            if interaction is not None and interaction.response.is_done():
                await self._fill_placeholder(interaction, said)
            return not forbidden(exc)
        if interaction is not None:
            # A command acknowledged with a "thinking…": the record could not be its answer
            # (filling it is an edit, and an edit notifies nobody), so it went out as a new
            # message; the mover's "thinking…" is answered privately.
            await self._answer_left(interaction)
        return True

    @staticmethod
    async def _followup(interaction: discord.Interaction | None, said: str,
                        allowed: discord.AllowedMentions) -> discord.Message | None:
        """The turn's message as a public followup of a move answered as an update of its
        message (one request through the interaction's webhook, outside the bot's global rate limit;
        a new message, so its mentions notify); None when it cannot go so."""
        if interaction is None or not followup_open(interaction):
            return None
        try:
            return await interaction.followup.send(said, allowed_mentions=allowed, wait=True)
        except discord.HTTPException:
            log.info("interaction %s could not bring the turn's message", interaction.id)
            return None

    @staticmethod
    async def _fill_placeholder(interaction: discord.Interaction, said: str) -> None:
        if not token_alive(interaction):
            return
        try:
            await interaction.edit_original_response(content=said, allowed_mentions=NO_MENTIONS)
            mark_filled(interaction)
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
                await reply(interaction, text, ephemeral=True)  # fills a "thinking…" if any
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

    @staticmethod
    def _human(g: Game, seat: Seat) -> bool:
        row = g.seat_row(seat)
        return not row.ai and row.user_id is not None

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

    async def expire(self, deadline: DeadlineRow) -> bool:
        """The clock ran out: apply the timeout action and tell everyone; False if stale."""
        result = await self.bot.session.timeout(deadline)
        if result is None:
            return False
        await self.publish(result)
        return True
