"""Undo by consent: a player asks to take back their own last move, the other players vote,
and the move is taken back as a logged step of its own."""

from __future__ import annotations

from rules.core import Seat
from rules.phrases import Phrases
from services.game import Game, NotSeated, Refusal
from services.history import replay_log, reveals, undo_json
from services.move_result import MoveResult
from services.moves import MovesMixin
from storage.lookups import UndoRequest

msg = Phrases("core")

# An undo request lapses after this long when the game has no clock.
UNDO_TIMEOUT = 24 * 3600


class UndoMixin(MovesMixin):
    """Requests to take a move back, the votes on them, and the undo itself."""

    # -- undo by consent -----------------------------------------------------------------

    async def _undoable(self, g: Game, seat: Seat) -> int:
        """The seq of ``seat``'s last move if the rules of undo allow taking it back."""
        rows = await self.store.actions(g.id, after=max(0, g.version - 1))
        last = rows[-1] if rows else None
        if g.state is None or g.status != "active" or last is None or last.seq != g.version:
            raise _no_undo()
        if last.seat != seat or not self._was_own(g, seat, last.seq):
            raise Refusal(
                msg("You can only take back your own last move, before anyone else has moved."),
            )
        assert g.row.seed is not None
        entries = list(replay_log(g.engine, len(g.seats), g.row.options, g.row.seed,
                                  await self.store.actions(g.id)))
        entry = entries[-1]
        if entry.undoes is not None:
            raise _no_undo()
        if reveals(g.engine, entry.before, entry.after, entry.events, seat):
            raise Refusal(
                msg("That move cannot be taken back: it drew something at random or showed "
                    "hidden information."),
            )
        return last.seq

    @staticmethod
    def _was_own(g: Game, seat: Seat, seq: int) -> bool:
        # The player's own move (not the bot's for them): their seen_seq points at it.
        row = g.seat_row(seat)
        return not row.ai and row.seen_seq == seq

    async def request_undo(
        self, game: int, user_id: int
    ) -> tuple[Game, UndoRequest, MoveResult | None]:
        """Ask to take back ``user_id``'s last move. Returns the game, the request, and the
        undo itself when it was carried out at once (no other human to ask)."""
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            self._active(g)
            seq = await self._undoable(g, seat)
            others = self._undo_voters(g, seat)
            req = UndoRequest(game=g.id, seat=seat, seq=seq, approvals=(), created_at=self.clock.now())
            if not others:
                return g, req, await self._do_undo(g, req)
            await self.store.put_undo_request(req)
            return g, req, None

    def _undo_voters(self, g: Game, seat: Seat) -> list[Seat]:
        return [r.seat for r in g.seats if not r.ai and r.user_id is not None and r.seat != seat]

    async def answer_undo(
        self, game: int, user_id: int, yes: bool
    ) -> tuple[Game, UndoRequest, str, MoveResult | None]:
        """Approve or refuse the open undo request: 'pending' (more votes needed), 'done'
        (taken back: the result comes with it), 'refused', or 'lapsed' (the game moved on or
        the time ran out)."""
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            req = await self.store.undo_request(game)
            if req is None:
                raise Refusal(msg("There is no open request to take back a move."))
            if seat == req.seat:
                raise Refusal(msg("You cannot vote on your own request."))
            if seat not in self._undo_voters(g, req.seat):
                raise NotSeated()
            limit = g.row.clock_seconds or UNDO_TIMEOUT
            if g.version != req.seq or self.clock.now() - req.created_at > limit:
                await self.store.clear_undo_request(game)
                return g, req, "lapsed", None
            if not yes:
                await self.store.clear_undo_request(game)
                return g, req, "refused", None
            req = UndoRequest(req.game, req.seat, req.seq, tuple(sorted({*req.approvals, seat})),
                              req.created_at)
            if set(self._undo_voters(g, req.seat)) - set(req.approvals):
                await self.store.put_undo_request(req)
                return g, req, "pending", None
            return g, req, "done", await self._do_undo(g, req)

    async def _do_undo(self, g: Game, req: UndoRequest) -> MoveResult:
        assert g.state is not None and g.row.seed is not None
        entries = list(replay_log(g.engine, len(g.seats), g.row.options, g.row.seed,
                                  await self.store.actions(g.id)))
        entry = entries[-1]
        restored = entry.before.model_copy(update={"version": g.state.version + 1})
        result = MoveResult(game=g, before=g.state, undone=req.seq)
        await self._commit(g, req.seat, None, restored, [], result, ai=False,  # type: ignore[arg-type]
                           action_json=undo_json(req.seq))
        await self.store.clear_undo_request(g.id)
        return result

    async def pending_undo(self, game: int) -> UndoRequest | None:
        """The game's open undo request, if any and still current."""
        g = await self.get(game)
        req = await self.store.undo_request(game)
        if g is None or req is None or g.version != req.seq:
            return None
        return req


def _no_undo() -> Refusal:
    return Refusal(msg("There is no move to take back now."))
