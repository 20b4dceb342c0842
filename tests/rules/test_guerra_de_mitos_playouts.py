"""Seeded random play-outs of whole Guerra de Mitos games, checking the contract as they go.

Heavier counts run in bench/bench_guerra_de_mitos.py; here a few games per player count
keep the suite fast while every invariant is checked along the way.
"""

from __future__ import annotations

import random

import pytest

from rules.core import IllegalAction, RuleError
from rules.guerra_de_mitos.engine import ready_decks
from rules.guerra_de_mitos.model import GdmState, Options, Target
from tests.rules import gdm_helpers as H

E = H.E
GAMES = {2: 3, 3: 1, 4: 1}
EVERY = 40  # the costly checks run every EVERY moves


def options(rng: random.Random, n: int) -> Options:
    """Distinct ready decks in a random pairing (by name, as a player picks them)."""
    names = sorted(ready_decks())
    rng.shuffle(names)
    return Options(decks=names[:n], max_rounds=60 if n == 2 else 12)


def scrambled(st: GdmState, viewer: int | None) -> GdmState:
    """The same game with every secret of the other seats replaced by other cards."""
    other = E.copy_state(st)
    pool = ["0015", "0039", "0058", "0166", "0127", "0224", "0265"]
    k = 0
    for s, p in enumerate(other.players):
        if s == viewer:
            continue
        secret = list(p.hand) + list(p.deck)
        for o in p.oracles:
            secret += o.cards[1:] if o.up else o.cards
        for u in secret:
            other.cards[u].card = pool[k % len(pool)]
            k += 1
        if st.phase == "bid" and s != viewer:
            p.bid = None if p.bid is None else (p.bid % 4) + 1
    for s, p in enumerate(other.players):  # a viewer's own deck order is hidden from it too
        if s == viewer:
            p.deck = list(reversed(p.deck))
    return other


def check_views(st: GdmState) -> None:
    """No view changes when another seat's secrets change; views round-trip through JSON."""
    for viewer in [None, *range(st.num_seats)]:
        v = E.view(st, viewer)
        assert type(v).model_validate_json(v.model_dump_json()) == v
        if st.stack and viewer is not None and st.stack[-1].seat == viewer:
            continue  # a pending choice may name the viewer's own top card
        w = E.view(scrambled(st, viewer), viewer)
        assert v.model_dump(exclude={"prompt"}) == w.model_dump(exclude={"prompt"}), viewer


def play(n: int, seed: int) -> None:
    """One game of random moves with the checks along the way, then the replay."""
    rng = random.Random(seed * 31 + n)
    opts = options(rng, n)
    st = E.setup(n, opts, seed)
    log: list[tuple[int, object]] = []
    steps = 0
    while not st.finished:
        pend = E.pending(st)
        assert pend
        seat = rng.choice(sorted(pend))
        legal = E.legal_actions(st, seat)
        assert legal, (st.phase, st.stack)
        if steps % EVERY == 0:
            check_views(st)
            assert E.load_state(E.dump_state(st)) == st
            before = E.dump_state(st)
            with pytest.raises(RuleError):
                E.apply(st, seat, Target(uid=-7))
            others = [s for s in range(n) if s not in pend]
            if others:
                with pytest.raises(RuleError):
                    E.apply(st, others[0], legal[0])
            assert E.dump_state(st) == before
            for a in rng.sample(legal, min(3, len(legal))):
                E.apply(st, seat, a)  # every legal action applies
        a = rng.choice(legal)
        st, _ = E.apply(st, seat, a)
        log.append((seat, a))
        steps += 1
    assert E.outcome(st) is not None and E.legal_actions(st, 0) == []
    with pytest.raises(RuleError):
        E.apply(st, 0, legal[0])
    again = E.setup(n, opts, seed)
    for seat, a in log:
        again, _ = E.apply(again, seat, a)
    assert E.dump_state(again) == E.dump_state(st)


@pytest.mark.parametrize(("n", "seed"), [(n, s) for n, k in GAMES.items() for s in range(k)])
def test_random_playout(n: int, seed: int) -> None:
    """Every game ends and keeps the contract on the way."""
    play(n, seed)


def test_bad_input_is_refused_in_both_languages() -> None:
    """A malformed move is an InvalidAction; an illegal one names what is possible."""
    st = E.setup(2, options(random.Random(1), 2), 1)
    with pytest.raises(RuleError):
        E.apply(st, 0, {"kind": "bid", "amount": 9})
    with pytest.raises(IllegalAction) as err:
        E.apply(st, 0, {"kind": "pass"})
    assert "Pujar" in err.value.text.es and "Bid" in err.value.text.en
