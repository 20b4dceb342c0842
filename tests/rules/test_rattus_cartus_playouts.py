"""Seeded random play-outs of whole Rattus Cartus games for 2 to 5 players, checking the contract."""

from __future__ import annotations

import json
import random
import re

import pytest

from rules.core import Event, IllegalAction, InvalidAction, NotYourTurn, RuleError, StaleAction
from rules.rattus_cartus.cards import NUNS
from rules.rattus_cartus.model import Done, Play, RcState
from tests.rules.rc_helpers import E, check_conservation

GAMES = 500  # per player count
CHUNKS = 5
BUILDINGS = ["first_game", "random_cards", "random_buildings"]
CARD_ID = re.compile(r'"([pjefso]\d\d)"')
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


def secret_ids(state: RcState, viewer: int | None) -> set[str]:
    """Card ids the viewer may not know the place of: other hands, others' face-down or
    picked cards, the deck, the discard pile and (until the end) the nun row."""
    out = set(state.deck) | set(state.discard)
    if not state.finished:
        out |= set(state.nuns)
    for s in range(state.num_seats):
        if s != viewer:
            out |= set(state.hands[s]) | set(state.played[s])
    return out


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


def check_views(state: RcState, r: random.Random, every_viewer: bool) -> None:
    """Views round-trip, name no hidden card, and do not change when hidden things change
    (for every viewer, or one drawn at random)."""
    viewers = [None, *range(state.num_seats)]
    for viewer in viewers if every_viewer else [r.choice(viewers)]:
        v = E.view(state, viewer)
        text = v.model_dump_json()
        assert type(v).model_validate_json(text) == v
        leaked = set(CARD_ID.findall(text)) & secret_ids(state, viewer)
        assert not leaked, (viewer, leaked)
        other = E.view(perturbed(state, viewer, r), viewer)
        assert other == v, (viewer, state.phase)
        if viewer is not None:
            for a in E.legal_actions(state, viewer):
                label = E.describe(state, viewer, a)
                assert not set(CARD_WORD.findall(label.es + a.model_dump_json())) & secret_ids(
                    state, viewer)


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


def play_out(n: int, seed: int, deep: bool) -> None:
    """One whole game by random players; `deep` checks views and refusals at every step."""
    opts = options_for(seed)
    state = E.setup(n, opts, seed)
    r = random.Random(seed)
    log: list[tuple[int, str]] = []
    steps = 0
    every = 1 if deep else 40
    while not state.finished:
        pend = E.pending(state)
        assert pend
        for seat in pend:
            assert E.legal_actions(state, seat), (seed, state.phase, state.tasks[:1])
        seat = r.choice(sorted(pend))
        legal = E.legal_actions(state, seat)
        action = policy(r, legal)
        check = steps % every == 0
        if check:
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
                E.apply(state, seat, _illegal(state))
            with pytest.raises(InvalidAction):
                E.apply(state, seat, {"kind": "give"})
            assert E.dump_state(state) == before, "a refused or trial move changed the state"
        new, events = E.apply(state, seat, action, version=state.version)
        check_events(state, new, events)
        wire = E.dump_action(action)
        assert E.parse_action(wire) == action
        log.append((seat, wire))
        state = new
        steps += 1
        assert steps < 5000, "the game did not end"
    assert state.round == state.rounds and not state.building_deck
    check_conservation(state)
    check_views(state, r, deep)
    assert E.load_state(E.dump_state(state)) == state
    out = E.outcome(state)
    assert out is not None
    survivors = [f.seat for f in state.final if not f.eliminated]
    if survivors:
        assert set(out.winners) <= set(survivors) and out.ranking
    with pytest.raises(RuleError):
        E.apply(state, 0, Done())
    if deep or seed % 2 == 0:
        replay = E.setup(n, opts, seed)
        for seat, wire in log:
            replay, _ = E.apply(replay, seat, E.parse_action(wire))
        assert E.dump_state(replay) == E.dump_state(state)


def _illegal(state: RcState) -> object:
    """A well-formed action of the wrong kind for the moment."""
    from rules.rattus_cartus.model import Choose, Enter

    if state.phase == "enter":
        return Done() if state.entering < 0 else Choose(seat=0)
    return Enter(building=0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(n: int, chunk: int) -> None:
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        play_out(n, seed, deep=seed % 100 == 0)
