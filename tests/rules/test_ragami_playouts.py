"""Seeded random play-outs of whole Ragami games for 2 to 4 players, checking the contract."""

from __future__ import annotations

import random

import pytest

from rules.core import Event, IllegalAction, InvalidAction, NotYourTurn, RuleError, StaleAction
from rules.ragami.model import (
    Cancel,
    Commit,
    Done,
    EndTurn,
    Keep,
    Place,
    RgState,
    SetDie,
)
from tests.rules.rg_helpers import E, check_conservation

GAMES = 300  # per player count
CHUNKS = 3


def options_for(seed: int) -> dict:
    """Every fourth game without the power die; every fifth without the neutral Ragami (it
    only matters with two players)."""
    return {"power_die": seed % 4 != 3, "neutral_ragami": seed % 5 != 4}


def policy(r: random.Random, legal: list) -> object:
    """Uniform over the legal actions, except that a turn ends seven times in ten when it may
    (uniform choice would play every card and die down to nothing in every turn) and a
    resolution is seldom given up (uniform choice would give up most of them)."""
    if isinstance(legal[-1], EndTurn) and r.random() < 0.7:
        return legal[-1]
    if isinstance(legal[-1], Cancel) and len(legal) > 1 and r.random() < 0.9:
        return r.choice(legal[:-1])
    return r.choice(legal)


# ----------------------------------------------------------------------------- secrecy


def perturbed(state: RgState, viewer: int | None, r: random.Random) -> RgState:
    """The same game with everything hidden from ``viewer`` redrawn: the other hands (and
    which of their cards are new this turn), the cards others are choosing from, the deck."""
    s = E.copy_state(state)
    others = [x for x in range(s.num_seats) if x != viewer]
    pool = list(s.deck) + [c for x in others for c in s.hands[x] + s.drawn[x]]
    r.shuffle(pool)
    for x in others:
        k, f, d = len(s.hands[x]), len(s.fresh[x]), len(s.drawn[x])
        s.hands[x], pool = pool[:k], pool[k:]
        s.fresh[x] = s.hands[x][:f]
        s.drawn[x], pool = pool[:d], pool[d:]
    s.deck = pool
    return s


def check_views(state: RgState, r: random.Random, every_viewer: bool) -> None:
    """Views round-trip and do not change when what they must not show changes."""
    viewers = [None, *range(state.num_seats)]
    for viewer in viewers if every_viewer else [r.choice(viewers)]:
        v = E.view(state, viewer)
        assert type(v).model_validate_json(v.model_dump_json()) == v
        assert E.view(perturbed(state, viewer, r), viewer) == v, viewer
        if viewer is not None:
            assert v.me is not None and v.me.hand == sorted(state.hands[viewer])
        else:
            assert v.me is None


def check_events(events: list[Event], seat: int) -> None:
    """What a player draws or keeps reaches only that player."""
    for e in events:
        if e.kind in ("drawn", "kept"):
            assert e.audience == [seat], e


def illegal(legal: list) -> object:
    """A well-formed action that is not legal now."""
    for a in (EndTurn(), Commit(), Cancel(), Done(), Place(at="A"), Keep(card=0), SetDie(value=2)):
        if a not in legal:
            return a
    raise AssertionError("every probe is legal")


# ----------------------------------------------------------------------------- play-outs


def play_out(n: int, seed: int, deep: bool) -> RgState:
    """One whole game by random players; ``deep`` checks views and refusals at every step."""
    opts = options_for(seed)
    state = E.setup(n, opts, seed)
    r = random.Random(seed)
    log: list[tuple[int, str]] = []
    steps = 0
    every = 1 if deep else 40
    while not state.finished:
        pend = E.pending(state)
        assert pend
        seat = r.choice(sorted(pend))
        legal = E.legal_actions(state, seat)
        assert legal, (seed, state.phase, state.step, state.tasks[:1])
        action = policy(r, legal)
        if steps % every == 0:
            for other in pend:
                assert E.legal_actions(state, other)
            before = E.dump_state(state)
            assert E.load_state(before) == state
            check_views(state, r, deep)
            check_conservation(state)
            for a in r.sample(legal, min(3, len(legal))):
                E.apply(state, seat, a)
            idle = [s for s in range(n) if s not in pend]
            if idle:
                with pytest.raises(NotYourTurn):
                    E.apply(state, idle[0], action)
            with pytest.raises(StaleAction):
                E.apply(state, seat, action, version=state.version - 1)
            with pytest.raises(IllegalAction):
                E.apply(state, seat, illegal(legal))
            with pytest.raises(InvalidAction):
                E.apply(state, seat, {"kind": "place"})
            assert E.dump_state(state) == before, "a refused or trial move changed the state"
        new, events = E.apply(state, seat, action, version=state.version)
        check_events(events, seat)
        log.append((seat, E.dump_action(action)))
        state = new
        steps += 1
        assert steps < 6000, "the game did not end"
    check_conservation(state)
    check_views(state, r, True)
    assert E.load_state(E.dump_state(state)) == state
    out = E.outcome(state)
    assert out is not None and sorted(s for g in out.ranking for s in g) == list(range(n))
    assert state.end_reason in ("vp", "tokens")
    assert state.final is not None
    for f in state.final:
        assert f.total == f.vp_before + f.cubes + f.bonus == state.vp[f.seat]
        assert state.cubes[f.seat] <= 1
    if state.end_reason == "tokens":
        assert not state.pool
    with pytest.raises(RuleError):
        E.apply(state, 0, EndTurn())
    if deep or seed % 5 == 0:
        replay = E.setup(n, opts, seed)
        for s, wire in log:
            replay, _ = E.apply(replay, s, E.parse_action(wire))
        assert E.dump_state(replay) == E.dump_state(state)
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(n: int, chunk: int) -> None:
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        play_out(n, seed, deep=seed % 150 == 0)
