"""A game as the session service holds it, what each seat sees beyond the public, and the
platform's refusals (not seated, no game...)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, Engine, GameState, Prompt, RuleError, Seat, View, private_facts
from rules.phrases import Phrases
from storage import GameRow, SeatRow

msg = Phrases("core")


class Refusal(RuleError):
    """A request the platform refuses (not seated, lobby full...), shown like a RuleError."""


class NotSeated(Refusal):
    """The user has no seat in the game."""

    def __init__(self) -> None:
        super().__init__(msg("You are not playing in this game."))


class NoGame(Refusal):
    """No open game where one was expected."""

    def __init__(self) -> None:
        super().__init__(
            msg("There is no open game in this channel. Start one with /game new."),
        )


@dataclass
class Game:
    """One game as the service holds it: its row, its seats and its decoded state."""

    row: GameRow
    seats: list[SeatRow]
    engine: Engine
    state: GameState | None = None  # None while in the lobby
    # The game's stamp in the store (storage/stamps.py) that this copy is as current as;
    # None: unknown (a process that is the games' one writer never reads it).
    stamp: int | None = field(default=None, compare=False)
    # What the rules said of ``state`` (who is pending, each seat's legal actions), kept
    # while it is the same object: a committed state is replaced, never changed, and a move
    # asks the same questions many times over (the menus, the card, the checks, the texts).
    _asked: tuple[GameState | None, dict[Any, Any]] = field(default_factory=lambda: (None, {}), init=False,
                                                            repr=False, compare=False)
    # The same of the state just replaced, for one move longer: what a move owes is found by
    # comparing each seat's view before it with the view after it.
    _asked_before: tuple[GameState | None, dict[Any, Any]] = field(default_factory=lambda: (None, {}),
                                                                   init=False, repr=False, compare=False)

    def copy(self) -> Game:
        """A shallow copy with its own list of seats, sharing what the rules said of the
        same state (a copy whose state is replaced starts afresh, as the game does)."""
        twin = dataclasses.replace(self, seats=list(self.seats))
        twin._asked = self._asked
        twin._asked_before = self._asked_before
        return twin

    @property
    def id(self) -> int:
        """The game's number in the store."""
        return self.row.id

    @property
    def status(self) -> str:
        """'lobby', 'active', 'finished' or 'abandoned'."""
        return self.row.status

    @property
    def version(self) -> int:
        """The version of the state (the number of moves made)."""
        return self.state.version if self.state is not None else self.row.version

    @property
    def locale(self) -> str:
        """The language of the game's public messages."""
        return self.row.locale

    @property
    def names(self) -> list[str]:
        """Display names in seat order."""
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat of ``user_id``, or None when they do not play."""
        for s in self.seats:
            if s.user_id == user_id and not s.ai:
                return s.seat
        return None

    def seat_row(self, seat: Seat) -> SeatRow:
        """The stored row of ``seat``."""
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def _answers(self) -> dict[Any, Any]:
        """The rules' answers about the current state (forgotten when the state is replaced)."""
        state, answers = self._asked
        if state is not self.state:
            self._asked_before = self._asked
            answers = {}
            self._asked = (self.state, answers)
        return answers

    def pending(self) -> dict[Seat, Prompt]:
        """Who must decide now (empty in the lobby and once finished)."""
        if self.state is None or self.status != "active":
            return {}
        answers = self._answers()
        if "pending" not in answers:
            answers["pending"] = self.engine.pending(self.state)
        return dict(answers["pending"])

    def view(self, seat: Seat | None) -> View:
        """The engine's view of the current state for ``seat`` (None: the public board);
        shared by every caller until the state is replaced, so never to be changed."""
        assert self.state is not None
        answers = self._answers()
        if ("view", seat) not in answers:
            answers["view", seat] = self.engine.view(self.state, seat)
        return answers["view", seat]

    def _answers_of(self, state: GameState) -> dict[Any, Any] | None:
        """The rules' answers kept about ``state``: the current state's or the one just
        replaced; None for any other."""
        if state is self.state:
            return self._answers()
        for held, answers in (self._asked, self._asked_before):
            if held is state:
                return answers
        return None

    def view_of(self, state: GameState, seat: Seat | None) -> View:
        """The engine's view of ``state`` for ``seat``: kept while ``state`` is the current
        state or the one just replaced (never to be changed), else asked anew."""
        answers = self._answers_of(state)
        if answers is None:
            return self.engine.view(state, seat)
        if ("view", seat) not in answers:
            answers["view", seat] = self.engine.view(state, seat)
        return answers["view", seat]

    def private_part(self, seat: Seat, state: GameState | None = None) -> dict[str, Any]:
        """The fields of ``seat``'s view that differ from the public one."""
        return private_part(self.engine, state if state is not None else self.state, seat)

    def secrets(self, seat: Seat, state: GameState | None = None) -> list[str]:
        """What ``seat`` knows that the public does not (empty: nothing hidden); kept with
        the views of the current state and the one just replaced (see secrets_of)."""
        st = state if state is not None else self.state
        answers = self._answers_of(st) if st is not None else None
        if st is None or answers is None:
            return secrets_of(self.engine, st, seat)
        if ("secrets", seat) not in answers:
            if ("dump", None) not in answers:
                answers["dump", None] = self.view_of(st, None).model_dump(mode="json")
            mine = self.view_of(st, seat).model_dump(mode="json")
            answers["secrets", seat] = sorted(private_facts(mine, answers["dump", None]))
        return list(answers["secrets", seat])

    def legal_actions(self, seat: Seat) -> list[Action]:
        """What ``seat`` may do now."""
        if self.state is None or self.status != "active":
            return []
        answers = self._answers()
        if ("legal", seat) not in answers:
            answers["legal", seat] = self.engine.legal_actions(self.state, seat)
        return list(answers["legal", seat])


def private_part(engine: Engine, state: GameState | None, seat: Seat) -> dict[str, Any]:
    """The fields of ``seat``'s view that differ from the public view.

    Generic across games: whatever a seat sees beyond the public board is by definition
    its private information.
    """
    if state is None:
        return {}
    mine = engine.view(state, seat).model_dump(mode="json")
    public = engine.view(state, None).model_dump(mode="json")
    return {k: v for k, v in mine.items() if k != "seat" and public.get(k) != v}


def secrets_of(engine: Engine, state: GameState | None, seat: Seat) -> list[str]:
    """What ``seat`` knows that the public does not, as a sorted list of facts.

    Each fact is a leaf of the seat's view that the public view lacks or shows otherwise,
    named by its field and value but not by its position: a hidden tile that merely moves
    up a slot when another tile leaves the zone is the same secret. DMs go out when this
    list changes, so players hear about new secrets, not about every move.
    """
    if state is None:
        return []
    mine = engine.view(state, seat).model_dump(mode="json")
    public = engine.view(state, None).model_dump(mode="json")
    return sorted(private_facts(mine, public))
