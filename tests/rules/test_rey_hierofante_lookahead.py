"""Rey y Hierofante's built-in player weighs its moves with the engine's light apply
(``RhEngine.after_legal``: no checks, no texts): the same states as ``apply``, the same
choices as when it weighed them with ``apply``, over many seeded positions."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from rules.core import IllegalAction, Text
from rules.registry import engine
from rules.rey_hierofante import ai
from rules.rey_hierofante import engine as engine_module
from rules.rey_hierofante.engine import RhEngine
from rules.rey_hierofante.model import Place, RhState

E = engine("rey_hierofante")
assert isinstance(E, RhEngine)
VARIANTS = ["original", "clasico", "aleatorio", "aleatorio_oculto", "draft", "draft_oculto"]


def positions(seed: int) -> Iterator[tuple[RhState, int]]:
    """Every position of a seeded match, its moves chosen at random (a third by the built-in
    player, so that its kind of positions come up too)."""
    rng = random.Random(seed)
    options = {"variant": VARIANTS[seed % len(VARIANTS)], "reshuffle": seed % 2 == 0,
               "wins_needed": 1 + seed % 2}
    state = E.setup(2, options, seed)
    while not state.finished:
        seat = next(iter(E.pending(state)))
        yield state, seat
        legal = E.legal_actions(state, seat)
        action = E.ai_action(state, seat) if rng.random() < 0.33 else rng.choice(legal)
        state, _ = E.apply(state, seat, action)


def by_apply(engine_: RhEngine, state: RhState, seat: int, action: object) -> RhState:
    """How the built-in player weighed a move before: the engine's full apply."""
    return engine_.apply(state, seat, action)[0]


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_the_light_apply_gives_the_state_apply_gives(seed: int) -> None:
    for k, (state, seat) in enumerate(positions(seed)):
        if k % 3:
            continue
        before = state.model_dump()
        for action in E.legal_actions(state, seat):
            light = E.after_legal(state, seat, action)
            assert light.model_dump() == by_apply(E, state, seat, action).model_dump(), (seed, k, action)
        assert state.model_dump() == before  # neither changed the position it was given


@pytest.mark.parametrize("seed", range(60))
def test_the_built_in_player_chooses_what_it_chose_before(seed: int) -> None:
    compared = 0
    for state, seat in positions(seed):
        if state.phase in ("place", "effect"):
            assert ai.choose(E, state, seat) == ai.choose(E, state, seat, step=by_apply)
            compared += 1
    assert compared > 5


def test_real_moves_keep_their_texts_after_a_look_ahead() -> None:
    state, seat = next((s, x) for s, x in positions(4) if s.phase == "place" and not s.first_move)
    engine_module._seat_text.cache_clear()  # the seats' names first made during a look-ahead
    ai.choose(E, state, seat)
    _, events = E.apply(state, seat, E.legal_actions(state, seat)[0])
    assert all(e.text.m for e in events)
    assert all(seat_text.m for e in events for seat_text in e.text.a.values() if isinstance(seat_text, Text))
    # a look-ahead that fails midway leaves the texts on as well
    with pytest.raises(ValueError):  # a tile in no area: the light apply does not check
        E.after_legal(state, seat, Place(tile="no-such-tile", square=0))
    with pytest.raises(IllegalAction) as refused:
        E.apply(state, seat, Place(tile="no-such-tile", square=0))
    assert refused.value.text.m
