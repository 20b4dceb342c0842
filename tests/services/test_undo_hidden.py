"""Undo never shows hidden information for free: a move the undo check lets a player take
back must show that player nothing that depends on what they could not see.

Over seeded random games of every game and player count: for every move the check allows
(``reveals`` is False), the same move made in a game whose hidden information (deck order,
other seats' hands, face-down cards, the random generator) is different, but which looks
the same to the mover, must leave the mover with the same view. Otherwise taking the move
back and making it again (or another) would have shown the mover part of the hidden game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest

from rules.core import Engine, GameState, RuleError, Seat, View
from rules.guerra_de_mitos.model import DECK, HAND
from rules.registry import games
from services.history import reveals

Scramble = Callable[[Any, Seat, random.Random], None]


def _deal(r: random.Random, piles: list[list[Any]]) -> None:
    """Shuffle the cards of ``piles`` together and deal them back, each pile its own size."""
    cards = [c for p in piles for c in p]
    r.shuffle(cards)
    for p in piles:
        p[:], cards = cards[: len(p)], cards[len(p):]


def _ragami(st: Any, mover: Seat, r: random.Random) -> None:
    # the deck and the cards other seats hold unseen (not those got this turn: they are marked)
    others = [s for s in range(st.num_seats) if s != mover]
    loose = [[c for c in st.hands[s] if c not in st.fresh[s]] for s in others]
    piles = [st.deck, *loose, *(st.drawn[s] for s in others)]
    _deal(r, piles)
    for s, cards in zip(others, loose, strict=True):
        st.hands[s] = cards + list(st.fresh[s])


def _rattus(st: Any, mover: Seat, r: random.Random) -> None:
    # the population deck, other hands (not cards being picked), the unseen nuns, the
    # building deck and reserve, and the values of other seats' rat tokens
    others = [s for s in range(st.num_seats) if s != mover]
    loose = [[c for c in st.hands[s] if c not in st.picking] for s in others]
    unseen = [p for p in range(len(st.nuns)) if p not in st.peeks[mover]]
    nuns = [st.nuns[p] for p in unseen]
    _deal(r, [st.deck, *loose, nuns])
    for s, cards in zip(others, loose, strict=True):
        st.hands[s] = cards + [c for c in st.hands[s] if c in st.picking]
    for p, c in zip(unseen, nuns, strict=True):
        st.nuns[p] = c
    _deal(r, [st.building_deck, st.reserve])
    _deal(r, [st.rats[s] for s in others])


def _ankh(st: Any, mover: Seat, r: random.Random) -> None:
    # the deck, other hands, the event deck, and the personalities the mover has not seen
    others = [s for s in range(st.num_seats) if s != mover]
    _deal(r, [st.deck, *(st.hands[s] for s in others)])
    r.shuffle(st.event_deck)
    people = [st.personality[s] for s in others]
    unseen = [p for p in st.unused if p not in st.peeks[mover]]
    _deal(r, [people, unseen])
    for s, p in zip(others, people, strict=True):
        st.personality[s] = p
    st.unused = [p for p in st.unused if p in st.peeks[mover]] + unseen


def _rey(st: Any, mover: Seat, r: random.Random) -> None:
    # the stock, and the other seat's hidden tiles (and its hidden draft offer)
    other = 1 - mover
    hidden = [z for z in st.zones[other] if z.hidden]
    tiles = [z.tile for z in hidden]
    offer = st.draft.offer if st.draft is not None and st.draft.picker == other \
        and st.options.variant == "draft_oculto" else []
    _deal(r, [st.stock, tiles, offer])
    for z, t in zip(hidden, tiles, strict=True):
        z.tile = t


def _guerra(st: Any, mover: Seat, r: random.Random) -> None:
    # every design deck's order, other seats' hands with their decks, face-down oracle cards
    for s, p in enumerate(st.players):
        if s != mover:
            _deal(r, [p.deck, p.hand])
            for u in p.hand:
                st.cards[u].zone = HAND
            for u in p.deck:
                st.cards[u].zone = DECK
        else:
            r.shuffle(p.deck)
        for o in p.oracles:
            hidden = o.cards[1:] if o.up else o.cards
            r.shuffle(hidden)
            o.cards[len(o.cards) - len(hidden):] = hidden


SCRAMBLES: dict[str, Scramble] = {
    "ragami": _ragami,
    "rattus_cartus": _rattus,
    "ankh_morpork": _ankh,
    "rey_hierofante": _rey,
    "guerra_de_mitos": _guerra,
}

# Cheap but varied: every player count, two seeds each, the first moves of each game; Rey y
# Hierofante also in its variants with hidden tiles.
MOVES = {"ragami": 150, "rattus_cartus": 150, "ankh_morpork": 120, "rey_hierofante": 120,
         "guerra_de_mitos": 80}
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "rey_hierofante": [{}, {"variant": "draft_oculto"}, {"variant": "aleatorio_oculto"}, {"variant": "draft"}],
}


def _cases() -> Iterator[Any]:
    for gid in SCRAMBLES:
        engine = games()[gid]
        for n in range(engine.min_players, engine.max_players + 1):
            for options in VARIANTS.get(gid, [{}]):
                for seed in (1, 2):
                    yield pytest.param(gid, n, options, seed, id=f"{gid}-{n}-{options.get('variant', '')}-{seed}")


def hidden_twin(engine: Engine, state: GameState, mover: Seat, scramble: Scramble,
                r: random.Random) -> GameState | None:
    """The same game with different hidden information and another random generator, or
    None when the difference would show in the mover's view."""
    twin = engine.load_state(engine.dump_state(state))
    scramble(twin, mover, r)
    twin.rng.seed = state.rng.seed + 1
    if engine.view(twin, mover) != engine.view(state, mover):
        return None
    return twin


@pytest.mark.parametrize(("gid", "n", "options", "seed"), list(_cases()))
def test_an_undoable_move_shows_the_mover_nothing_hidden(
        gid: str, n: int, options: dict[str, Any], seed: int) -> None:
    engine = games()[gid]
    state = engine.setup(n, options, seed)
    r = random.Random(seed)
    compared = 0
    for _ in range(MOVES[gid]):
        if state.finished:
            break
        mover = r.choice(sorted(engine.pending(state)))
        action = r.choice(engine.legal_actions(state, mover))
        after, events = engine.apply(state, mover, action)
        if not reveals(engine, state, after, events, mover):
            twin = hidden_twin(engine, state, mover, SCRAMBLES[gid], r)
            if twin is not None:
                compared += 1
                try:
                    twin_after, _ = engine.apply(twin, mover, action)
                except RuleError as exc:  # the move's legality hung on something hidden
                    pytest.fail(f"{action!r} by seat {mover} refused in the twin: {exc}")
                assert engine.view(twin_after, mover) == engine.view(after, mover), (
                    f"{action!r} by seat {mover} at version {state.version} is undoable but "
                    "shows the mover something hidden")
        state = after
    assert compared > 0  # the property was put to the test at least once


class _Plain(View):
    """A view that declares nothing."""

    board: list[int]
    hand: list[str] | None


class _Declared(_Plain):
    """The same view, declaring its hand and a pile fed from a deck."""

    shown: ClassVar[dict[str, str] | None] = {"hand": "card", "piles.*": "card"}
    piles: dict[str, list[str]]


def test_known_counts_what_comes_from_hidden_information() -> None:
    mine = _Declared(seat=0, version=1, board=[3], hand=["a", "b"], piles={"x": ["c"]})
    assert mine.known() == Counter({'card:"a"': 1, 'card:"b"': 1, 'card:"c"': 1})
    # a card moving from the hand to a pile is the same card; a second copy is new
    moved = mine.model_copy(update={"hand": ["b"], "piles": {"x": ["c", "a"]}})
    assert not moved.known() - mine.known()
    twice = mine.model_copy(update={"piles": {"x": ["c", "a"]}})
    assert twice.known() - mine.known() == Counter({'card:"a"': 1})
    # undeclared: every leaf beyond the public view (beyond nothing: every leaf)
    plain = _Plain(seat=0, version=1, board=[3], hand=["a"])
    public = _Plain(seat=None, version=1, board=[3], hand=None)
    assert plain.known(public) == Counter({'hand="a"': 1})
    assert plain.known() == Counter({"board=3": 1, 'hand="a"': 1})
