"""Players' moves: checked, applied by the rules, committed with their deadlines and outbox
note in one transaction, then every AI reply they make pending.

Interaction -> parse -> this service -> rules layer -> store; the caller tells Discord
only after this service returns, that is after the move is committed.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

from rules.core import Action, Event, GameState, Seat, StaleAction
from rules.phrases import Phrases
from services.clock import new_wait
from services.clock_bank import bank_after, bank_of
from services.clock_time import hours_of
from services.faults import crash_point
from services.game import Game, NotSeated, Refusal
from services.game_cache import GameCache
from services.move_result import MoveResult, Step
from storage import StaleVersion
from storage.deadlines import DeadlinePlan, DeadlineRow
from storage.store import MoveWrite

msg = Phrases("core")

log = logging.getLogger("tablero.session")


# An AI seat never needs this many moves in a row; hitting it means an engine bug, and
# stopping beats spinning forever inside a game's lock.
AI_MOVE_LIMIT = 500


class MovesMixin(GameCache):
    """Moves of seated players and of AI seats, each committed before anyone is told."""

    def _active(self, g: Game) -> GameState:
        if g.status == "lobby" or g.state is None:
            raise Refusal(
                msg("The game has not started yet.")
            )
        if g.status == "abandoned":
            raise Refusal(msg("The game was abandoned."))
        return g.state

    async def seat_for(self, game: int, user_id: int) -> tuple[Game, Seat]:
        """The game and ``user_id``'s seat in it; refusals if absent or not seated."""
        g = await self.require(game)
        seat = g.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return g, seat

    async def prepare(self, game: int, user_id: int, version: int | None = None) -> tuple[Game, Seat]:
        """Check that ``user_id`` may move now (seated, game on, pending, version fresh)."""
        g, seat = await self.seat_for(game, user_id)
        state = self._active(g)
        g.engine.check(state, seat, version)
        return g, seat

    async def move(
        self, game: int, user_id: int, action_data: Any, version: int | None = None
    ) -> MoveResult:
        """Apply and commit ``user_id``'s move, then every AI reply it makes pending."""
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            state = self._active(g)
            # The shared pre-checks come before parsing, so a player out of turn hears
            # "not your turn" rather than a complaint about the move's shape.
            g.engine.check(state, seat, version)
            action = g.engine.parse_action(action_data)
            new, events = g.engine.apply(state, seat, action, version)
            result = MoveResult(game=g, before=state)
            await self._commit(g, seat, action, new, events, result, ai=False)
            await self._play_ai(g, result)
            return result

    async def move_many(
        self, game: int, user_id: int, actions: Sequence[Any], version: int | None = None
    ) -> MoveResult:
        """Apply and commit several moves of ``user_id`` in a row, then the AI replies.

        For a multi-step choice made in one go (a building and the cards played there):
        every step is applied in memory first, so nothing is committed unless all are
        legal; each step is then logged as its own move, as if made one at a time.
        """
        if not actions:
            raise Refusal(msg("You have not chosen anything."))
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            state = self._active(g)
            g.engine.check(state, seat, version)
            planned: list[tuple[Action, GameState, list[Event]]] = []
            current = state
            for data in actions:
                action = g.engine.parse_action(data)
                current, events = g.engine.apply(current, seat, action)
                planned.append((action, current, events))
            result = MoveResult(game=g, before=state)
            await self._commit_all(g, seat, planned, result)
            await self._play_ai(g, result)
            return result

    async def _commit(
        self,
        g: Game,
        seat: Seat,
        action: Action,
        new: GameState,
        events: list[Event],
        result: MoveResult,
        *,
        ai: bool,
        action_json: str | None = None,
    ) -> None:
        await self._commit_all(g, seat, [(action, new, events)], result, ai=ai,
                               action_json=action_json)

    async def _commit_all(
        self,
        g: Game,
        seat: Seat,
        planned: Sequence[tuple[Action, GameState, list[Event]]],
        result: MoveResult,
        *,
        ai: bool = False,
        action_json: str | None = None,
    ) -> None:
        """Commit ``seat``'s steps (already applied in memory) in one transaction, with the
        deadlines they leave and the outbox note of ``result``: all of it, or nothing."""
        assert g.state is not None
        writes: list[MoveWrite] = []
        steps: list[Step] = []
        prev = g.state
        new_waits = False
        for action, new, events in planned:
            plan = await self._plan(g, prev, new)
            new_waits = new_waits or (plan is not None and bool(plan.new))
            writes.append(MoveWrite(
                seat=seat,
                action=action_json if action_json is not None else g.engine.dump_action(action),
                state=g.engine.dump_state(new), finished=new.finished, deadlines=plan, own=not ai,
            ))
            steps.append(Step(seat=seat, action=action, events=events, version=new.version, ai=ai,
                              state=new))
            prev = new
        result.steps.extend(steps)
        written = result.change.id if result.change is not None else None
        try:
            await self.store.commit_moves(g.id, expected_version=g.state.version, steps=writes,
                                          change=result.note())
        except StaleVersion:
            del result.steps[-len(steps):]
            if result.change is not None:
                result.change.id = written  # a row written by the rolled-back commit is gone
            # Someone else's write landed first (another process, or a bug in our
            # locking): our copy is stale, so reload it and let the player look again.
            self.forget(g.id)
            raise StaleAction(
                msg("The game changed while you were choosing; look at the board again."),
            ) from None
        except BaseException:
            del result.steps[-len(steps):]
            if result.change is not None:
                result.change.id = written
            raise
        g.state = prev
        g.row = dataclasses.replace(
            g.row,
            version=prev.version,
            state=writes[-1].state,
            status="finished" if prev.finished else g.row.status,
        )
        if not ai:
            g.seats = [dataclasses.replace(r, seen_seq=prev.version) if r.seat == seat else r
                       for r in g.seats]
        self._written(g)
        crash_point("session.committed")
        if new_waits:
            self.on_deadlines()
        if new.finished:
            self._game_over(g)

    async def _plan(self, g: Game, prev: GameState | None, new: GameState) -> DeadlinePlan | None:
        """The game's deadlines after a step from ``prev`` to ``new``: a seat that stays
        pending keeps its wait, a seat that has just become pending starts one, the rest
        have none. None when the game has no clock (nothing to write)."""
        length = g.row.clock_seconds
        if not length or new.finished:
            return None
        humans = {s.seat: s for s in g.seats if not s.ai and s.user_id is not None}
        now_pending = set(g.engine.pending(new)) & set(humans)
        before = set(g.engine.pending(prev)) if prev is not None and not prev.finished else set()
        keep = now_pending & before
        fresh = sorted(now_pending - before)
        now = self.clock.now()
        bank = bank_of(length, g.row.bank_increment, g.row.bank_cap)
        ended = sorted((before - now_pending) & set(humans)) if bank is not None else []
        stored = await self.store.clock_banks(g.id) if bank is not None and (fresh or ended) else {}
        rows: list[DeadlineRow] = []
        if fresh:
            users = [humans[s].user_id for s in fresh]
            settings = await self.store.users_settings([u for u in users if u is not None])
            for seat in fresh:
                uid = humans[seat].user_id
                assert uid is not None
                mine = settings[uid]
                wait = stored.get(seat, float(length)) if bank is not None else length
                rows.append(new_wait(g.id, seat, uid, now, wait, mine.vacation_until,
                                     hours=hours_of(mine).spec()))
        banks: dict[int, float] = {}
        if ended:
            assert bank is not None
            waits = {d.seat: d for d in await self.store.deadlines(g.id)}
            banks = {seat: bank_after(waits[seat], now, bank) for seat in ended if seat in waits}
        return DeadlinePlan(keep=frozenset(keep), new=tuple(rows), banks=tuple(sorted(banks.items())))

    async def _play_ai(self, g: Game, result: MoveResult) -> None:
        ai_seats = {s.seat for s in g.seats if s.ai}
        for _ in range(AI_MOVE_LIMIT):
            if not ai_seats or g.state is None or g.state.finished:
                return
            turn = [s for s in g.engine.pending(g.state) if s in ai_seats]
            if not turn:
                return
            seat = turn[0]
            try:
                action = g.engine.ai_action(g.state, seat)
                new, events = g.engine.apply(g.state, seat, action)
            except Exception:
                # The human's move is already committed and must still reach Discord;
                # the AI gets another chance at the next start (resume_ai).
                log.exception("game %s: AI seat %s failed to move", g.id, seat)
                return
            await self._commit(g, seat, action, new, events, result, ai=True)
        log.error("game %s: AI seats kept moving past %s moves; stopped", g.id, AI_MOVE_LIMIT)

    async def resume_ai(self, game: int) -> MoveResult | None:
        """Let AI seats make any moves they owe (after a restart); None if there were none."""
        async with self.lock(game):
            g = await self.get(game)
            if g is None or g.status != "active" or g.state is None:
                return None
            result = MoveResult(game=g, before=g.state)
            await self._play_ai(g, result)
            return result if result.steps else None

    # -- reading ----------------------------------------------------------------------
