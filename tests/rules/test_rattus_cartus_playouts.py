"""Seeded play-outs of whole Rattus Cartus games for 2 to 5 players on the shared harness
(tests/playout.py), random players in every seat (the built-in AI's play-outs are in
test_rattus_cartus_ai.py)."""

from __future__ import annotations

import json
import random
import re

import pytest

from rules.core import Event
from rules.rattus_cartus.cards import NUNS
from rules.rattus_cartus.model import Choose, Done, Enter, Play, RcState
from tests.playout import Rules, chunk, play_seeds
from tests.rules.rc_helpers import E, check_conservation

GAMES = 100  # per player count
CHUNKS = 2
DEEP = 50  # one game in DEEP has every check on every step, for every viewer
BUILDINGS = ["first_game", "random_cards", "random_buildings"]
CARD_WORD = re.compile(r"\b([pjefso]\d\d)\b")


def options_for(seed: int) -> dict:
    """A spread of building choices."""
    return {"buildings": BUILDINGS[seed % 3]}


def policy(r: random.Random, legal: list) -> object:
    """Uniform over the legal actions, except that a card choice confirms a third of the time
    (uniform picking would empty whole hands onto the table)."""
    if any(isinstance(a, Play) for a in legal) and r.random() < 0.35:
        return Done()
    return r.choice(legal)


# ----------------------------------------------------------------------------- secrecy


def perturbed(state: RcState, viewer: int | None, r: random.Random) -> RcState:
    """The same game with everything hidden from `viewer` redrawn: other hands, face-down and
    picked cards, rat token values, nun cards not seen, other seats' looks and secret choices."""
    s = E.copy_state(state)
    s.nuns = list(s.nuns)  # the engine never changes the nun row, so its copy shares it
    others = [x for x in range(s.num_seats) if x != viewer]
    hidden_played = [x for x in others if x < len(s.played) and not _revealed(s, x)]
    pool = list(s.deck) + list(s.discard) + [c for x in others for c in s.hands[x]] \
        + [c for x in hidden_played for c in s.played[x]]
    hidden_nuns: list[int] = []
    if not s.finished:
        seen = set(s.peeks[viewer]) if viewer is not None else set()
        hidden_nuns = [p for p in range(len(s.nuns)) if p not in seen]
        pool += [s.nuns[p] for p in hidden_nuns]
    r.shuffle(pool)
    for p in hidden_nuns:
        s.nuns[p] = next(c for c in pool if c in NUNS)
        pool.remove(s.nuns[p])
    for x in others:
        k = len(s.hands[x])
        s.hands[x], pool = pool[:k], pool[k:]
    for x in hidden_played:
        k = len(s.played[x])
        s.played[x], pool = pool[:k], pool[k:]
    k = len(s.discard)
    s.discard, s.deck = pool[:k], pool[k:]
    if s.phase == "enter" and s.queue and s.queue[0] != viewer and s.entering >= 0:
        s.picking = r.sample(s.hands[s.queue[0]], min(len(s.picking), len(s.hands[s.queue[0]])))
        s.entering = r.randrange(len(s.row))
    for x in others:
        if not s.finished:
            s.rats[x] = [r.choice((1, 3, 5)) for _ in s.rats[x]]
        s.peeks[x] = sorted(r.sample(range(5), len(s.peeks[x])))
        if s.phase == "supply" and s.choices[x] is not None:
            s.choices[x] = [r.randrange(len(s.row)), r.randrange(-1, 5)]
    return s


def _revealed(s: RcState, seat: int) -> bool:
    return s.where[seat] >= 0 and s.revealed[s.where[seat]] if s.where else False


def holds(state: RcState, seat: int) -> set[str]:
    """Cards a seat holds or has on the table."""
    return set(state.hands[seat]) | set(state.played[seat])


def check_events(before: RcState, after: RcState, events: list[Event]) -> None:
    """A public event names no card; a private one only cards its readers held before or after
    the step, or passed from hand to hand during it."""
    passed: dict[int, set[str]] = {}
    for e in events:
        if e.kind == "give":
            assert e.audience == [e.data["giver"], e.data["receiver"]]
            for seat in e.audience:
                passed.setdefault(seat, set()).add(e.data["card"])
    for e in events:
        ids = set(CARD_WORD.findall(e.text.es + e.text.en + json.dumps(e.data)))
        if e.audience is None:
            assert not ids, e
            assert e.kind != "peek"
            continue
        if e.kind == "peek":
            # a nun card's value reaches only the seat that looked at it
            assert len(e.audience) == 1 and e.data["position"] in after.peeks[e.audience[0]]
        for seat in e.audience:
            assert ids <= holds(before, seat) | holds(after, seat) | passed.get(seat, set()), (
                seat, e)


# ----------------------------------------------------------------------------- play-outs


def _illegal(state: RcState, seat: int, legal: list) -> object:
    """A well-formed action of the wrong kind for the moment."""
    if state.phase == "enter":
        return Done() if state.entering < 0 else Choose(seat=0)
    return Enter(building=0)


def _end(state: RcState) -> None:
    """Every round was played; the winners are among the seats not eliminated."""
    assert state.round == state.rounds and not state.building_deck
    out = E.outcome(state)
    assert out is not None
    survivors = [f.seat for f in state.final if not f.eliminated]
    if survivors:
        assert set(out.winners) <= set(survivors) and out.ranking


RULES = Rules(
    "rattus_cartus",
    options=lambda n, seed: options_for(seed),
    random_move=lambda r, st, seat, legal: policy(r, legal),
    scramble=perturbed,
    invariants=check_conservation,
    events=lambda before, after, seat, evs: check_events(before, after, evs),
    illegal=_illegal,
    malformed={"kind": "give"},
    end=_end,
    blind_ai=True,
    ranks_all=False,  # seats eliminated by the plague are not ranked
    max_steps=5000,
)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("i", range(CHUNKS))
def test_random_playouts(n: int, i: int) -> None:
    """Random players keep the contract for every player count, and every game ends."""
    play_seeds(RULES, n, chunk(GAMES, CHUNKS, i), deep=DEEP)

