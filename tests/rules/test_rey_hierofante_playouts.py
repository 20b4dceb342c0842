"""Seeded random play-outs of whole Rey y Hierofante matches, checking the contract at every step."""

from __future__ import annotations

import json
import random

import pytest

from rules.core import RuleError
from rules.rey_hierofante.engine import RhEngine
from rules.rey_hierofante.model import Options, RhState
from rules.rey_hierofante.tiles import TILES

E = RhEngine()
VARIANTS = ["original", "clasico", "aleatorio", "aleatorio_oculto", "draft", "draft_oculto"]
GAMES = 1000
CHUNKS = 10


def options_for(seed: int) -> dict:
    """A spread of every variant and scoring option."""
    r = random.Random(seed * 7919)
    opts: dict = {"variant": VARIANTS[seed % len(VARIANTS)], "reshuffle": r.random() < 0.5}
    if seed % 5 == 0:
        opts.update(scoring="points", games=r.randint(1, 6))
    else:
        opts.update(wins_needed=1 if seed % 3 else 2)
    return opts


def hidden_of(state: RhState, seat: int) -> set[str]:
    """Tiles in ``seat``'s area that only ``seat`` may know."""
    return {z.tile for z in state.zones[seat] if z.hidden}


def words(tiles: set[str]) -> set[str]:
    """Ids and display names (both languages) of tiles."""
    out: set[str] = set()
    for t in tiles:
        out |= {f'"{t}"', TILES[t].name.es, TILES[t].name.en}
    return out


def leaks(text: str, secret: set[str]) -> list[str]:
    return [w for w in words(secret) if w in text]


def check_views(state: RhState, seen: list[set[str]]) -> None:
    """No view shows another seat's hidden tiles; a seat's draft memory is what it was shown."""
    for viewer in (0, 1, None):
        secret = set()
        for owner in (0, 1):
            if owner != viewer:
                secret |= hidden_of(state, owner)
        v = E.view(state, viewer)
        dumped = v.model_dump(exclude={"draft_seen"})
        text = json.dumps(dumped, ensure_ascii=False)
        assert not leaks(text, secret), (viewer, leaks(text, secret))
        assert type(v).model_validate_json(v.model_dump_json()) == v
        if viewer is not None:
            if v.draft_offer is not None:
                seen[viewer] |= set(v.draft_offer)
            assert set(v.draft_seen) <= seen[viewer]
            for a in E.legal_actions(state, viewer):
                label = E.describe(state, viewer, a)
                assert not leaks(label.es + label.en + a.model_dump_json(), secret)


def play_out(seed: int, exhaustive: bool) -> None:
    opts = options_for(seed)
    state = E.setup(2, opts, seed)
    assert E.load_state(E.dump_state(state)) == state
    r = random.Random(seed)
    log: list[tuple[int, str]] = []
    seen: list[set[str]] = [set(), set()]
    check_views(state, seen)
    steps = 0
    while not state.finished:
        pend = E.pending(state)
        assert len(pend) == 1
        seat = next(iter(pend))
        assert E.legal_actions(state, 1 - seat) == []
        legal = E.legal_actions(state, seat)
        assert legal, (seed, state.phase)
        before = E.dump_state(state)
        sample = legal if exhaustive else r.sample(legal, min(3, len(legal)))
        for a in sample:
            E.apply(state, seat, a)
        assert E.dump_state(state) == before, "apply mutated its input"
        # an illegal move (wrong seat, or the same move twice) raises and changes nothing
        with pytest.raises(RuleError):
            E.apply(state, 1 - seat, legal[0])
        action = r.choice(legal)
        new, events = E.apply(state, seat, action, version=state.version)
        assert E.dump_state(state) == before
        with pytest.raises(RuleError):
            E.apply(state, seat, action, version=state.version - 1)
        for viewer in (0, 1):
            secret = hidden_of(new, 1 - viewer)
            for ev in events:
                if ev.visible_to(viewer):
                    assert not leaks(ev.model_dump_json() + ev.text.es, secret), (seed, ev)
        for ev in events:
            if ev.audience is None:
                assert not leaks(ev.model_dump_json() + ev.text.es, hidden_of(new, 0) | hidden_of(new, 1))
        wire = E.dump_action(E.parse_action(json.loads(action.model_dump_json())))
        log.append((seat, wire))
        state = new
        assert E.load_state(E.dump_state(state)) == state
        check_views(state, seen)
        steps += 1
        assert steps < 3000, "the match did not end"
    out = E.outcome(state)
    assert out is not None and out.ranking
    o = Options(**opts)
    if o.scoring == "match":
        assert max(state.wins) == o.wins_needed
    else:
        assert len(state.history) == o.games
    with pytest.raises(RuleError):
        E.apply(state, 0, E.parse_action({"kind": "decline"}))
    replay = E.setup(2, opts, seed)
    for seat, wire in log:
        replay, _ = E.apply(replay, seat, E.parse_action(wire))
    assert E.dump_state(replay) == E.dump_state(state)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(chunk: int) -> None:
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        play_out(seed, exhaustive=seed % 10 == 0)
