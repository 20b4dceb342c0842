"""Delivering what committed changes owe Discord: once each, in order, after a crash too.

A change (a move and the bot's replies, a game's start, a timeout, a reminder) writes an
outbox row in its own transaction (storage/outbox.py). Delivering it first expands it, in
one transaction, into the messages it owes (decided by ``plan``: the record, the board,
each hand, question, turn DM...), then sends each (``send``) and marks it done. A crash
anywhere leaves the rest undone, and ``drain`` after a restart delivers it; ``send`` is
told when a message may already have gone out (``again``), so it can look before sending.
Discord-free: the cogs give the plan and the sending.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from services.escalation import Escalation
from services.faults import crash_point
from services.history import replay_log
from services.session import Game, MoveResult, SessionService, Step
from storage.outbox import OutboxRow, Owed

log = logging.getLogger("tablero.outbox")

# How long a process's claim on a change it is delivering lasts (renewed halfway while
# it delivers): another process takes a change over only once its claim has run out.
CLAIM_SECONDS = 60.0


@dataclass
class Delivery:
    """One message being delivered: its row, the change it belongs to (rebuilt from the
    log after a restart; None for a reminder), what the caller passed along, and whether it
    may have been sent before a crash."""

    row: OutboxRow
    change: OutboxRow
    result: MoveResult | None
    context: Any = None
    again: bool = False
    # Set by the sending: the message stays owed (its change open), to be marked delivered
    # by whoever finishes it later (a card held for its mover's part, cogs/common/card_hold.py);
    # a restart delivers it again.
    left_open: bool = False


Planner = Callable[[OutboxRow, MoveResult | None, Any], Awaitable[list[Owed]]]
Sender = Callable[[Delivery], Awaitable[None]]


class Outbox:
    """Delivers outbox rows through ``plan`` and ``send`` (set by the Discord side)."""

    def __init__(self, session: SessionService) -> None:
        self.session = session
        self.plan: Planner | None = None
        self.send: Sender | None = None
        self._busy: set[int] = set()  # changes being delivered by a task of this process
        # Who this process is in the outbox's claims (several processes on one database).
        self.owner = secrets.token_hex(8)
        self.delivered = 0  # messages sent (or found already sent) and marked done
        self.again = 0  # of them, messages delivered after a restart
        # Set when the bot stops talking to Discord: a message failing then is left undone
        # (the next start delivers it), not given up as a bug.
        self.stopping = False

    async def deliver(
        self,
        change: int,
        result: MoveResult | None = None,
        context: Any = None,
        *,
        again: bool = False,
    ) -> None:
        """Deliver what change ``change`` still owes. ``result``: the change as it was just
        made (None: rebuild it from the log); ``again``: it may be half delivered already."""
        if change in self._busy:
            return  # another task of ours is on it; it delivers everything in order
        self._busy.add(change)
        try:
            await self._deliver(change, result, context, again)
        finally:
            self._busy.discard(change)

    async def _deliver(
        self, change: int, result: MoveResult | None, context: Any, again: bool
    ) -> None:
        assert self.plan is not None and self.send is not None
        store = self.session.store
        # Where other processes deliver too (shards), the change is claimed first: one that
        # another process is delivering is left to it.
        claims = self.session.shared
        row = await self._claim(change) if claims else await store.outbox_row(change)
        if row is None or row.done:
            return
        renew_at = time.time() + CLAIM_SECONDS / 2
        if result is None and row.payload.get("from") is not None:
            result = await self.rebuild(row)
        if not row.expanded:
            messages = await self.plan(row, result, context)
            children = await store.expand_change(change, messages)
            crash_point("outbox.expanded")
        else:
            children = await store.outbox_messages(change)
        for child in children:
            if child.done:
                continue
            if claims and time.time() > renew_at:
                if await self._claim(change) is None:
                    log.warning("game %s: change %s was taken over by another process", row.game, change)
                    return
                renew_at = time.time() + CLAIM_SECONDS / 2
            delivery = Delivery(row=child, change=row, result=result, context=context, again=again)
            try:
                await self.send(delivery)
                if delivery.left_open:
                    continue
            except Exception:
                if self.stopping:
                    log.info("game %s: %s of change %s left for the next start (stopping)",
                             row.game, child.key, change)
                    return
                # Not Discord saying no (the sending handles that): a bug. Give this message
                # up rather than retry it at every start; the rest still goes out.
                log.exception(
                    "game %s: could not deliver %s of change %s", row.game, child.key, change
                )
            crash_point("outbox.sent")
            crash_point(f"outbox.sent.{child.kind}")  # e.g. outbox.sent.remind, .react
            await store.outbox_done(child.id, change=change)
            self.delivered += 1
            self.again += again
            crash_point("outbox.marked")
        if not children:
            await store.outbox_done(change)

    async def _claim(self, change: int) -> OutboxRow | None:
        """Claim (or renew the claim on) ``change`` for this process; None if it is done or
        another process holds it."""
        now = time.time()
        return await self.session.store.claim_change(change, self.owner, now + CLAIM_SECONDS, now)

    async def drain(
        self, game: int | None = None, *, again: bool = True, before: float | None = None
    ) -> int:
        """Deliver every change left undone, oldest first; how many. ``again`` (at start-up):
        they may be half delivered by a process that died; False for changes this process
        just made (the game's, say, after an abandon). ``before``: only changes made before
        that time (the ones another process left, not those it is delivering now)."""
        changes = await self.session.store.open_changes(game)
        if before is not None:
            changes = [c for c in changes if c.created_at < before]
        before = self.again
        for change in changes:
            try:
                await self.deliver(change.id, again=again)
            except Exception:
                log.exception("game %s: could not deliver change %s", change.game, change.id)
        if changes and again:
            log.info(
                "outbox: %d changes left undelivered, %d messages delivered now",
                len(changes),
                self.again - before,
            )
        return len(changes)

    async def rebuild(self, change: OutboxRow) -> MoveResult | None:
        """The MoveResult of a stored change, from the game's seed and log (after a restart)."""
        g = await self.session.get(change.game)
        if g is None or g.row.seed is None or g.state is None:
            return None
        p = change.payload
        first, last = int(p["from"]), int(p.get("to") or p["from"])
        ai = list(p.get("ai") or [])
        rows = await self.session.store.actions(g.id)
        entries = list(replay_log(g.engine, len(g.seats), g.row.options, g.row.seed, rows))
        start = g.engine.setup(len(g.seats), g.row.options, g.row.seed)
        before = (
            start
            if first == start.version
            else next((e.after for e in entries if e.row.seq == first), None)
        )
        steps: list[Step] = []
        for e in entries:
            if first < e.row.seq <= last:
                action = None if e.undoes is not None else g.engine.parse_action(e.row.action)
                steps.append(
                    Step(
                        seat=e.row.seat,
                        action=action,
                        events=e.events,
                        version=e.row.seq,
                        ai=ai[len(steps)] if len(steps) < len(ai) else False,
                        state=e.after,
                    )
                )
        state = steps[-1].state if steps else before
        at = g if state is None or state.version == g.version else _at(g, state)
        return MoveResult(
            game=at,
            before=None if p.get("start") else before,
            steps=steps,
            timed_out=p.get("timed_out"),
            dropped=bool(p.get("dropped")),
            escalation=Escalation(*p["escalation"]) if p.get("escalation") else None,
            undone=p.get("undone"),
        )


def _at(g: Game, state: Any) -> Game:
    """``g`` as it was at ``state`` (a change older than the game's latest)."""
    import dataclasses

    status = "finished" if state.finished else ("active" if g.status == "finished" else g.status)
    row = dataclasses.replace(g.row, version=state.version, status=status)
    return dataclasses.replace(g, row=row, state=state)
