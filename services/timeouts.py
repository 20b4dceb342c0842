"""The clock's timeouts: a due wait answered for its seat ("no" to a question asked out of
turn, the bot's move, or the seat taken by the bot for good: services/escalation.py says
which)."""

from __future__ import annotations

import logging

from rules.core import Action, Seat, StaleAction
from services.due_reads import DueReadsMixin
from services.escalation import Escalation, escalate, undo_escalation
from services.game import Game
from services.move_result import MoveResult
from services.moves import AI_MOVE_LIMIT
from storage.deadlines import DeadlineRow

# Kinds of action that say "no" to a question asked out of turn; an interrupt window
# whose time runs out is answered with one of them. ("pass" is not one: in Rattus Cartus
# it plays a Safe-conduct, a move of its own.)
DECLINE_KINDS = ("skip", "decline", "no")

log = logging.getLogger("tablero.clock")


class TimeoutsMixin(DueReadsMixin):
    """What happens when a player's wait runs out."""

    async def timeout(self, row: DeadlineRow) -> MoveResult | None:
        """Apply the timeout action for the due deadline ``row``: an interrupt window is
        answered "no"; otherwise the bot plays the seat's turn ('ai'), or takes the seat for
        good ('drop', or the server's number of timeouts reached; 'lose': lost on time).
        None when the wait was already over (someone moved first)."""
        async with self.lock(row.game):
            g = await self.get(row.game)
            if g is None or g.status != "active" or g.state is None:
                return None
            current = await self._deadlines_now(g, row.user_id)
            d = current.get(row.seat)
            if d is None or d.started_at != row.started_at or d.paused or d.due_at > self.clock.now():
                return None
            seat = row.seat
            srow = g.seat_row(seat)
            if seat not in g.pending() or srow.ai or srow.user_id != row.user_id:
                # A leftover wait (the seat changed hands, say): it has nothing to time.
                await self.store.claim_deadline(d)
                return None
            reaction = self.is_reaction(g, seat)
            # Stored once per wait, before anything moves: how many this player has had in
            # this game decides what this one does (services/escalation.py).
            step = await escalate(self.store, g, d, reaction=reaction, now=self.clock.now())
            result = MoveResult(game=g, before=g.state, timed_out=seat, escalation=step)
            try:
                await self._time_out(g, seat, row, step, result)
            except StaleAction:
                await undo_escalation(self.store, d)  # the player's move came first
                raise
            if not await self._table_closing(g, step):
                await self._play_ai(g, result)
            return result

    async def _table_closing(self, g: Game, step: Escalation) -> bool:
        """True when ``step`` leaves a tournament table with one player at most: the
        tournament closes it at once (services/results.py), so the bot makes no move for the
        seat the clock took, which nobody would play against."""
        if not step.for_good or sum(1 for s in g.seats if not s.ai) > 1:
            return False
        return await self.store.match_for_game(g.id) is not None

    async def _time_out(self, g: Game, seat: Seat, row: DeadlineRow, step: Escalation,
                        result: MoveResult) -> None:
        """Do what the timeout ``step`` says for ``seat``."""
        assert g.state is not None
        if step.action == "no":
            actions = g.legal_actions(seat)
            no = [a for a in actions if getattr(a, "kind", None) in DECLINE_KINDS]
            action = no[0] if no else await self._ai_choice(g, seat)
            new, events = g.engine.apply(g.state, seat, action)
            await self._commit(g, seat, action, new, events, result, ai=True)
        elif step.for_good:
            result.dropped = True
            await self.store.drop_seat(g.id, seat, change=result.note())
            await self._reload_seats(g)
            # Rewrite the deadlines without the dropped seat (and nothing else changes).
            await self.store.put_deadlines([])
            self._game_over(g, dropped=row.user_id)
        else:
            for _ in range(AI_MOVE_LIMIT):
                if g.state is None or g.state.finished or seat not in g.engine.pending(g.state):
                    break
                action = await self._ai_choice(g, seat)
                new, events = g.engine.apply(g.state, seat, action)
                await self._commit(g, seat, action, new, events, result, ai=True)

    async def _ai_choice(self, g: Game, seat: Seat) -> Action:
        """The built-in player's move for the timed-out ``seat``: chosen in a worker process
        when the host gave them (``chooser``), so a burst of timeouts leaves the event loop
        free for players' commands; chosen here otherwise, or when the worker fails."""
        assert g.state is not None
        if self.chooser is not None and self.chooser.worth_sending(g.row.game_id):
            # The stored text of the state is what the worker needs; it is the state held
            # in memory whenever the versions agree (a commit updates both).
            text = g.row.state if g.row.state and g.row.version == g.state.version else None
            try:
                data = await self.chooser.choose(g.row.game_id, text or g.engine.dump_state(g.state), seat)
                return g.engine.parse_action(data)
            except Exception:
                log.warning("game %s: the worker could not choose seat %s's move; choosing here",
                            g.id, seat, exc_info=True)
        return g.engine.ai_action(g.state, seat)
