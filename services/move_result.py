"""What a change did: the steps it committed, the outbox note it owes Discord, and the news
of a game's end that listeners hear."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, Event, GameState, Seat
from services.escalation import Escalation
from services.game import Game
from storage.outbox import ChangeNote


@dataclass(frozen=True)
class GameOver:
    """A game that has just ended: finished by its rules, or abandoned (and by whom); or,
    with ``dropped``, a player the clock has just put out of a game that goes on."""

    game: Game
    abandoned: bool = False
    by: int | None = None
    dropped: int | None = None


@dataclass
class Step:
    """One committed move: who, what, what it caused, the version and state it produced."""

    seat: Seat
    action: Action | None  # None for an undo
    events: list[Event]
    version: int
    ai: bool = False
    state: GameState | None = None


@dataclass
class MoveResult:
    """What a move (and the AI replies it triggered) did; the caller tells Discord from it."""

    game: Game
    before: GameState | None
    steps: list[Step] = field(default_factory=list)
    timed_out: Seat | None = None  # the seat whose clock ran out, when that caused this
    dropped: bool = False  # ...and its player lost the seat to the bot for good
    # What that timeout was in the escalation (services/escalation.py): its action, the
    # player's timeouts in the game so far and the server's limit.
    escalation: Escalation | None = None
    undone: int | None = None  # the seq of a move taken back
    # The outbox row of this change: written by the change's first commit, rewritten by
    # each one after, so what it owes Discord survives a crash (see services/outbox.py).
    change: ChangeNote | None = None

    def note(self) -> ChangeNote:
        """The change's outbox note, brought up to date with what happened so far."""
        if self.change is None:
            self.change = ChangeNote()
        self.change.payload = change_payload(self)
        return self.change

    def newly_pending(self) -> list[Seat]:
        """Seats this result made pending: pending now, and not pending at some point of it
        (before the first step or between two steps). The steps of a player's own turn
        keep them pending throughout, so they are not in it."""
        g = self.game
        if g.state is None or g.status != "active":
            return []
        now = set(g.engine.pending(g.state))
        if not now:
            return []
        states = [self.before] + [s.state for s in self.steps[:-1]]
        fresh: set[Seat] = set()
        for st in states:
            if st is None:
                fresh |= now
                break
            fresh |= now - set(g.engine.pending(st)) if not st.finished else now
        return sorted(fresh)

    @property
    def state(self) -> GameState:
        """The state after every step."""
        assert self.game.state is not None
        return self.game.state

    @property
    def events(self) -> list[Event]:
        """Every event of every step, in order."""
        return [e for s in self.steps for e in s.events]

    @property
    def finished(self) -> bool:
        """Whether the game ended."""
        return self.game.state is not None and self.game.state.finished


def change_payload(result: MoveResult) -> dict[str, Any]:
    """What the outbox keeps of a change: enough to rebuild the MoveResult from the log."""
    first = result.before.version if result.before is not None else None
    if first is None and result.steps:
        first = result.steps[0].version - 1
    return {
        "start": result.before is None,
        "from": first,
        "to": result.steps[-1].version if result.steps else first,
        "ai": [s.ai for s in result.steps],
        "timed_out": result.timed_out,
        "dropped": result.dropped,
        "escalation": _escalation_json(result.escalation),
        "undone": result.undone,
    }



def _escalation_json(step: Escalation | None) -> list[Any] | None:
    """A timeout's escalation as the outbox keeps it: [action, count, limit]."""
    return None if step is None else [step.action, step.count, step.limit]
