"""Seeded play-outs of whole Ragami games for 2 to 4 players on the shared harness
(tests/playout.py), random players in every seat (the built-in AI's play-outs are in
test_ragami_ai.py)."""

from __future__ import annotations

import random

import pytest

from rules.core import Event
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
from tests.playout import Rules, chunk, play_seeds, probe
from tests.rules.rg_helpers import E, check_conservation

# per player count: seeds 100-199 of two players met a move 0-99 did not (commit); for three
# and four players seeds 100-199 met nothing (events, prompts, moves, endings) new
GAMES = {2: 200, 3: 100, 4: 100}
CHUNKS = 2
DEEP = 50  # one game in DEEP has every check on every step, for every viewer


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


def check_events(events: list[Event], seat: int) -> None:
    """What a player draws or keeps reaches only that player."""
    for e in events:
        if e.kind in ("drawn", "kept"):
            assert e.audience == [seat], e


def end(state: RgState) -> None:
    """The game ends by victory points or tokens, with its final scoring added up."""
    check_conservation(state)
    assert state.end_reason in ("vp", "tokens")
    assert state.final is not None
    for f in state.final:
        assert f.total == f.vp_before + f.cubes + f.bonus == state.vp[f.seat]
        assert state.cubes[f.seat] <= 1
    if state.end_reason == "tokens":
        assert not state.pool


def own_hand(state: RgState, viewer: int | None, v: object) -> dict:
    """A view as compared under ``perturbed``, having checked that it shows its seat's hand."""
    if viewer is not None:
        assert v.me is not None and v.me.hand == sorted(state.hands[viewer])
    else:
        assert v.me is None
    return v.model_dump()


RULES = Rules(
    "ragami",
    options=lambda n, seed: options_for(seed),
    random_move=lambda r, st, seat, legal: policy(r, legal),
    scramble=perturbed,
    view_part=own_hand,
    invariants=check_conservation,
    events=lambda before, after, seat, evs: check_events(evs, seat),
    illegal=probe(EndTurn(), Commit(), Cancel(), Done(), Place(at="A"), Keep(card=0), SetDie(value=2)),
    malformed={"kind": "place"},
    end=end,
    blind_ai=True,
)


# ----------------------------------------------------------------------------- play-outs


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("i", range(CHUNKS))
def test_random_playouts(n: int, i: int) -> None:
    """Random players keep the contract for every player count, and every game ends."""
    play_seeds(RULES, n, chunk(GAMES[n], CHUNKS, i), deep=DEEP)

