"""Build Ragami positions by hand for scenario tests, and check the table's invariants."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rules.core import Action, Event
from rules.ragami.cards import CARDS, KIND
from rules.ragami.model import RgState
from rules.registry import engine

E = engine("ragami")  # with its built-in player


def skip_setup(state: RgState) -> RgState:
    """Take the first legal choice of every setup decision until round 1 begins."""
    while state.phase != "turn":
        seat = min(E.pending(state))
        state, _ = E.apply(state, seat, E.legal_actions(state, seat)[0])
    return state


def table(n: int = 3, seed: int = 1, *, turn: int = 0, **fields: Any) -> RgState:
    """A game in round 1 at ``turn``'s turn, with the board cleared and then set from
    ``fields`` (ragamis, saints, demons, conflicts, virtue_at, virtue, cubes, vp, hands, dice...)."""
    s = skip_setup(E.setup(n, {}, seed))
    for h in s.hands:
        s.deck += h
    s.hands = [[] for _ in range(n)]
    s.pool += [q for q in s.tokens if q not in fields.get("tokens", [])]
    s.tokens = []
    s.conflicts = {}
    s.demons = []
    s.saints = [None] * 4
    s.ragamis = [None] * 4
    s.dice = [3, 3, 3]
    s.virtue_at = [None] * n
    s.virtue = [1] * n
    s.turn = turn
    s.first = turn
    for k, v in fields.items():
        if k == "hands":
            s.hands = [list(h) for h in v]
            held = {c for h in s.hands for c in h}
            s.deck = [c for c in s.deck if c not in held]
            s.discard = [c for c in s.discard if c not in held]
        else:
            setattr(s, k, v)
    for q in s.conflicts:
        if q not in s.tokens:
            s.tokens.append(q)
    s.pool = [q for q in s.pool if q not in s.tokens]
    s.cube_supply = 30 - sum(s.cubes)
    return s


def card(kind: str, nth: int = 0) -> int:
    """The id of the nth card of a kind."""
    return [c for c, k in enumerate(CARDS) if k == kind][nth]


def play(
    state: RgState, *moves: tuple[int, dict[str, Any] | Action]
) -> tuple[RgState, list[Event]]:
    """Apply (seat, action) moves in order; returns the state and every event."""
    events: list[Event] = []
    for seat, a in moves:
        state, ev = E.apply(state, seat, a)
        events += ev
    return state, events


def next_rolls(state: RgState, *values: int) -> None:
    """Make the state's generator give these d6 results next (one draw each)."""
    d = state.rng.draws
    while [
        random.Random(f"{state.rng.seed}:{d + i}").randint(1, 6) for i in range(len(values))
    ] != list(values):
        d += 1
    state.rng.draws = d


def check_conservation(state: RgState) -> None:
    """Cards, cubes, Demons, dice and location tokens are each in exactly one place."""
    places = (
        state.deck
        + state.discard
        + [c for h in state.hands for c in h]
        + [c for d in state.drawn for c in d]
    )
    res = state.step.res if state.step is not None else None
    if res is not None:
        places += [c for c in (res.card, res.via) if c is not None]
    counts = Counter(places)
    assert all(v == 1 for v in counts.values()), counts
    expected = {
        c
        for c, k in enumerate(CARDS)
        if not (k == "poderx" and state.num_seats == 2)
        and not (k == "doble" and not state.options.power_die)
    }
    assert set(counts) == expected
    pledged = (res.cubes + res.card_cubes) if res is not None else 0
    assert state.cube_supply + sum(state.cubes) + pledged == 30
    assert min(state.cubes) >= 0 and state.cube_supply >= 0
    assert len(state.demons) <= 6
    assert len(state.conflicts) <= 6 and all(1 <= v <= 6 for v in state.conflicts.values())
    assert sorted(state.pool + state.tokens) == list(range(1, 31))
    assert set(state.conflicts) <= set(state.tokens) and set(state.forbidden) <= set(state.tokens)
    assert not set(state.conflicts) & set(state.forbidden)
    for c, node in enumerate(state.ragamis):
        if node is not None and node.isdigit():
            fleeing = any(t.kind == "flee" and t.colour == c for t in state.tasks)
            assert int(node) not in state.forbidden or fleeing
            assert state.saints[c] != int(node)
            assert state.ragamis.count(node) <= 2
    for s in range(state.num_seats):
        assert len(state.hands[s]) <= 3
        assert (state.virtue_at[s] is None) or 1 <= state.virtue[s] <= 6
    assert all(0 <= d <= 6 for d in state.dice)
    assert set(KIND) >= set(CARDS)
