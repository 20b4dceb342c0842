"""One play-out harness for every game: seeded whole games checked against the rules contract.

A game's play-out test describes what differs from game to game in a ``Rules`` (its options
for a seed, its random player, how to redraw what a seat must not see, its invariants, how
its events may and may not speak) and calls ``play``. The harness plays the game to its end
with the players asked for (random, the built-in AI, or both) and checks the contract of
``rules/core.py`` (docs: DESIGN.md, "The rules contract"):

On every step (the cheap checks):
- some seat is pending; ``legal_actions`` of every pending seat does not raise and is not
  empty; the chosen action applies and moves the version on by one;
- the game's own event check (who may read what) holds for the events of the step;
- the game ends within ``Rules.max_steps``.

On the costly steps (every step of a ``deep`` game; otherwise one step in ``every``, from a
random offset; the last position of a game shorter than that):
- the state round-trips through JSON, the game's invariants hold;
- views (every viewer in a deep game; the public one and one seat at random otherwise)
  round-trip through JSON and do not change when everything that viewer must not see is
  redrawn (``Rules.scramble``); a pending viewer's legal actions and their labels do not
  change either, and every label has both languages;
- up to three other legal actions apply (every one in a deep game); a seat not pending, a stale version, an illegal
  action and a malformed one are refused with the right ``RuleError``; none of this changes
  the state it was given (apply never mutates its input);
- the events of the chosen move round-trip through JSON;
- (``Rules.blind_ai``) the built-in AI chooses the same move when what its seat must not see
  is redrawn.

At the end of every game: an outcome ranking every seat once (or at most once), nothing pending, no legal
action, any further move refused (``GameOver``), every view of the final table sound (as
above), the final state round-trips through JSON, and the state ``TAIL`` moves before the
end, read back from JSON, replays the logged actions (as JSON) to exactly the final state.
With ``replay`` the whole log replays from the seed to exactly the final state.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.core import (
    Action,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    InvalidAction,
    NotYourTurn,
    StaleAction,
)
from rules.registry import engine

TAIL = 30  # moves replayed at the end of every game from a state read back from JSON

State = Any
Mover = Callable[[random.Random, State, int, list[Action]], Action]


def uniform(rng: random.Random, state: State, seat: int, legal: list[Action]) -> Action:
    """The plain random player: any legal action, all alike."""
    return rng.choice(legal)


@dataclass(frozen=True)
class Rules:
    """What differs from game to game in its play-outs (the harness checks the rest)."""

    game_id: str
    # the options of a game of ``n`` seats for ``seed`` (None: the defaults)
    options: Callable[[int, int], Any] = lambda n, seed: None
    # the random player
    random_move: Mover = uniform
    # the same state with everything ``viewer`` must not see redrawn (a copy)
    scramble: Callable[[State, int | None, random.Random], State] | None = None
    # the part of a view compared before and after ``scramble`` (default: all of it)
    view_part: Callable[[State, int | None, Any], Any] = lambda st, viewer, v: v.model_dump()
    # whether a pending viewer's legal actions and labels are compared after ``scramble``
    same_choices: bool = True
    # whether the built-in AI is checked to choose the same when ``scramble`` redraws what
    # its seat must not see (on the costly steps of the AI's seats)
    blind_ai: bool = False
    # whether the outcome ranks every seat (else: each seat at most once)
    ranks_all: bool = True
    # the game's invariants of a position (conservation of cards and pieces...)
    invariants: Callable[[State], None] | None = None
    # the game's own checks of a position where ``seat`` chooses among ``legal``
    position: Callable[[State, int, list[Action]], None] | None = None
    # the game's check of one step's events: (state before, state after, seat, events)
    events: Callable[[State, State, int, list[Event]], None] | None = None
    # a well-formed action that is illegal for ``seat`` now
    illegal: Callable[[State, int, list[Action]], Any] | None = None
    # a malformed action (an InvalidAction before any game code)
    malformed: dict[str, Any] = field(default_factory=lambda: {"kind": "no_such_kind"})
    # the game's own checks of the final state
    end: Callable[[State], None] | None = None
    max_steps: int = 6000

    @property
    def engine(self) -> Engine[Any]:
        """The game's engine, from the registry."""
        return engine(self.game_id)


def probe(*candidates: Any) -> Callable[[State, int, list[Action]], Any]:
    """An ``illegal`` for ``Rules``: the first of ``candidates`` (action models) not legal now."""

    def illegal(st: State, seat: int, legal: list[Action]) -> Any:
        for a in candidates:
            if a not in legal:
                return a
        raise AssertionError("every probe is legal")

    return illegal


def seats(players: str | Sequence[str], n: int, seed: int) -> list[str]:
    """Who plays each seat: "random", "ai", or "mixed" (the AI in seat ``seed % n``)."""
    if not isinstance(players, str):
        assert len(players) == n
        return list(players)
    if players == "mixed":
        return ["ai" if s == seed % n else "random" for s in range(n)]
    assert players in ("random", "ai"), players
    return [players] * n


@dataclass
class Result:
    """A finished play-out: its final state, its log and what it met on the way."""

    state: State
    log: list[tuple[int, str]]
    kinds: set[str]  # the kinds of every event told
    steps: int


@dataclass
class Game:
    """One play-out in progress: the engine, the seeded choices and the log."""

    rules: Rules
    n: int
    seed: int
    players: list[str]
    rng: random.Random
    checker: random.Random  # the checks' own choices, so that they leave the game as it is
    log: list[tuple[int, str]] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)

    @property
    def e(self) -> Engine[Any]:
        """The game's engine."""
        return self.rules.engine

    def choose(self, st: State, seat: int, legal: list[Action], mover: Mover) -> Action:
        """The move of ``seat``: the built-in AI's (checked legal) or the random player's."""
        if self.players[seat] == "ai":
            a = self.e.ai_action(st, seat)
            assert a in legal, (seat, a)
            return a
        return mover(self.rng, st, seat, legal)


def play(
    rules: Rules,
    n: int,
    seed: int,
    *,
    players: str | Sequence[str] = "random",
    deep: bool = False,
    every: int | None = 40,
    replay: bool = False,
    rng: random.Random | None = None,
    mover: Mover | None = None,
    step_hook: Callable[[State, State, int, Action, list[Event]], None] | None = None,
    checked: bool = True,
) -> Result:
    """Play one seeded game to its end, checking the contract (see the module's docstring).

    ``deep``: the costly checks on every step, for every viewer. ``every``: otherwise the
    costly checks on one step in ``every`` (None: only at the end). ``rng``: the players'
    generator (default: seeded from ``seed``). ``mover``: the random player, if not the
    game's. ``step_hook(before, after, seat, action, events)``: a test's own check of a step.
    ``checked=False``: a game played to be counted (``ai_wins``), whose contract the checked
    play-outs prove: only the checks of every step that cost nothing extra (some seat pending
    with legal actions, the AI's move legal, the version moving on, the game ending).
    """
    e = rules.engine
    opts = rules.options(n, seed)
    g = Game(rules, n, seed, seats(players, n, seed), rng or random.Random(seed),
             random.Random(-seed - 1 - 1000 * n))
    move = mover or rules.random_move
    st = e.setup(n, opts, seed)
    tail: deque[State] = deque(maxlen=TAIL)  # the states before the last TAIL moves
    offset = g.checker.randrange(every) if every else -1
    steps = 0
    costly_done = False
    while not st.finished:
        pend = e.pending(st)
        assert pend, (seed, "nobody is pending in a game not over")
        choices = {s: e.legal_actions(st, s) for s in pend}
        assert all(choices.values()), (seed, "a pending seat has no legal action")
        seat = g.rng.choice(sorted(pend)) if len(pend) > 1 else next(iter(pend))
        legal = choices[seat]
        action = g.choose(st, seat, legal, move)
        costly = deep or (every is not None and steps % every == offset)
        if costly:
            check_position(g, st, seat, legal, action, every_viewer=deep)
            costly_done = True
        new, events = e.apply(st, seat, action, version=st.version)
        assert new.version == st.version + 1
        if rules.events is not None and checked:
            rules.events(st, new, seat, events)
        if costly:
            assert [Event.model_validate_json(ev.model_dump_json()) for ev in events] == events
        if step_hook is not None:
            step_hook(st, new, seat, action, events)
        g.kinds |= {ev.kind for ev in events}
        g.log.append((seat, e.dump_action(action)))
        tail.append(st)
        st = new
        steps += 1
        assert steps < rules.max_steps, (seed, "the game did not end")
    if every is not None and not costly_done:  # a game shorter than the offset: its last position
        seat, wire = g.log[-1]
        check_position(g, tail[-1], seat, e.legal_actions(tail[-1], seat), e.parse_action(wire),
                       every_viewer=False)
    if checked:
        check_end(g, st, tail, replay)
    return Result(st, g.log, g.kinds, steps)


def check_views(g: Game, st: State, viewers: Sequence[int | None]) -> None:
    """Views round-trip through JSON and do not change when what the viewer must not see is
    redrawn; nor do a pending viewer's legal actions and their labels (in both languages)."""
    e, rules = g.e, g.rules
    pend = e.pending(st)
    for viewer in viewers:
        v = e.view(st, viewer)
        assert type(v).model_validate_json(v.model_dump_json()) == v, viewer
        labels = None
        if viewer in pend:
            labels = [(a, e.describe(st, viewer, a)) for a in e.legal_actions(st, viewer)]
            for a, t in labels:
                assert t.es and t.en and not t.en.startswith("{"), (a, t)
        if rules.scramble is None:
            continue
        other = rules.scramble(st, viewer, g.checker)
        w = e.view(other, viewer)
        assert rules.view_part(st, viewer, v) == rules.view_part(other, viewer, w), (
            g.seed, viewer, "a view changed with what its viewer must not see")
        if labels is not None and rules.same_choices:
            again = [(a, e.describe(other, viewer, a)) for a in e.legal_actions(other, viewer)]
            assert again == labels, (g.seed, viewer, "choices changed with hidden things")


def check_position(g: Game, st: State, seat: int, legal: list[Action], action: Action,
                   *, every_viewer: bool) -> None:
    """The costly checks of one position (see the module's docstring)."""
    e, rules, n = g.e, g.rules, g.n
    before = e.dump_state(st)
    assert e.load_state(before) == st
    if rules.invariants is not None:
        rules.invariants(st)
    if rules.position is not None:
        rules.position(st, seat, legal)
    viewers: list[int | None] = [None, *range(n)]
    check_views(g, st, viewers if every_viewer else [None, g.checker.randrange(n)])
    trials = legal if every_viewer else g.checker.sample(legal, min(3, len(legal)))
    if rules.blind_ai and g.players[seat] == "ai":
        assert e.ai_action(rules.scramble(st, seat, g.checker), seat) == action, "the AI peeked"
    for a in trials:
        nxt, _ = e.apply(st, seat, a)  # every legal action applies
        assert nxt.version == st.version + 1
    pend = e.pending(st)
    idle = [s for s in range(n) if s not in pend]
    assert all(e.legal_actions(st, s) == [] for s in idle)
    if idle:
        with pytest.raises(NotYourTurn):
            e.apply(st, g.checker.choice(idle), action)
    with pytest.raises(StaleAction):
        e.apply(st, seat, action, version=st.version - 1)
    if rules.illegal is not None:
        with pytest.raises(IllegalAction):
            e.apply(st, seat, rules.illegal(st, seat, legal))
    with pytest.raises(InvalidAction):
        e.apply(st, seat, rules.malformed)
    assert e.dump_state(st) == before, "a refused or trial move changed the state"


def check_end(g: Game, st: State, tail: deque[State], replay: bool) -> None:
    """The final table (see the module's docstring)."""
    e, rules, n = g.e, g.rules, g.n
    out = e.outcome(st)
    assert out is not None
    ranked = sorted(s for group in out.ranking for s in group)
    assert ranked == (list(range(n)) if rules.ranks_all else sorted(set(ranked))), out.ranking
    assert set(ranked) <= set(range(n))
    assert e.pending(st) == {}
    assert all(e.legal_actions(st, s) == [] for s in range(n))
    seat, wire = g.log[-1]
    with pytest.raises(GameOver):
        e.apply(st, seat, e.parse_action(wire))
    if rules.invariants is not None:
        rules.invariants(st)
    check_views(g, st, [None, *range(n)])
    final = e.dump_state(st)
    assert e.dump_state(e.load_state(final)) == final
    if rules.end is not None:
        rules.end(st)
    again = e.load_state(e.dump_state(tail[0]))
    for seat, wire in g.log[len(g.log) - len(tail):]:
        again, _ = e.apply(again, seat, e.parse_action(wire))
    assert e.dump_state(again) == final, "the last moves, replayed, did not reach the final state"
    if replay:
        again = e.setup(n, rules.options(n, g.seed), g.seed)
        for seat, wire in g.log:
            again, _ = e.apply(again, seat, e.parse_action(wire))
        assert e.dump_state(again) == final, "the log, replayed from the seed, did not reach it"


def play_seeds(rules: Rules, n: int, seeds: range, *, deep: int, replay: int = 5,
               **kw: Any) -> list[Result]:
    """``play`` each seed: one in ``deep`` deep, one in ``replay`` replayed from the seed."""
    return [play(rules, n, seed, deep=seed % deep == 0, replay=seed % replay == 0, **kw)
            for seed in seeds]


def chunk(games: int, chunks: int, i: int) -> range:
    """The seeds of the ``i``-th of ``chunks`` test cases sharing ``games`` seeds."""
    per = games // chunks
    return range(i * per, (i + 1) * per)


def ai_wins(rules: Rules, n: int, seeds: range) -> int:
    """How many of the seeded games the built-in AI (in seat ``seed % n``, random players in
    the others) wins alone (games counted, not checked: see ``play``)."""
    wins = 0
    for seed in seeds:
        out = play(rules, n, seed, players="mixed", every=None, checked=False)
        wins += rules.engine.outcome(out.state).winners == [seed % n]
    return wins
