"""Build Rattus Cartus positions by hand for scenario tests, and check the table's invariants."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.core import Action, Event
from rules.rattus_cartus.cards import BUILDING_CARDS, KIND, NUNS, PILES
from rules.rattus_cartus.model import RcState
from rules.rattus_cartus.phases import begin_round
from rules.registry import engine

E = engine("rattus_cartus")  # with its built-in player
SPECIAL_KINDS = ("joker", "espada", "flauta", "salvo", "oro")


def take(state: RcState, kind: str) -> str:
    """Take a card of `kind` ("iglesia", "iglesia:4", "joker", "espada"...) out of the deck,
    discard pile or its special pile."""
    k, _, nuns = kind.partition(":")
    if k in SPECIAL_KINDS:
        return state.piles[k].pop()
    for pile in (state.deck, state.discard):
        for c in reversed(pile):
            if KIND[c] == k and (not nuns or NUNS[c] == int(nuns)):
                pile.remove(c)
                return c
    raise AssertionError(f"no {kind} card left to take")


def deal(state: RcState, seat: int, kinds: list[str]) -> list[str]:
    """Replace a seat's hand with cards of these kinds (the old hand goes back where it came from)."""
    for c in state.hands[seat]:
        (state.deck if c in NUNS else state.piles[KIND[c]]).append(c)
    state.hands[seat] = [take(state, k) for k in kinds]
    return list(state.hands[seat])


def set_nuns(state: RcState, values: list[int]) -> None:
    """Make the nun row show these nun counts."""
    state.deck.extend(state.nuns)
    state.nuns = [take(state, _kind_with(state, v)) for v in values]


def _kind_with(state: RcState, nuns: int) -> str:
    c = next(c for c in reversed(state.deck) if NUNS[c] == nuns)
    return f"{KIND[c]}:{nuns}"


def set_row(state: RcState, cards: list[str]) -> list[Event]:
    """Start the current round again with these building cards as the row (phase B)."""
    pool = state.building_deck + state.reserve + state.row
    for c in cards:
        if c not in pool:
            raise AssertionError(f"{c} is not among the game's building cards")
    state.building_deck = [c for c in state.building_deck if c not in cards] + list(reversed(cards))
    state.reserve = [c for c in state.reserve if c not in cards]
    for c in state.row:
        if c not in cards:
            state.building_deck.insert(0, c)
    state.row = []
    events = begin_round(state)
    assert state.row == cards, state.row
    return events


def game(n: int, row: list[str], hands: dict[int, list[str]] | None = None, *, start: int = 0,
         seed: int = 1, **options: Any) -> RcState:
    """A fresh game at round 1, phase B, with this row, these hands and this start player."""
    opts = {"buildings": "random_cards", **options}
    s = E.setup(n, opts, seed)
    # every building card type may be wanted in a row: put them all among the building cards
    if opts["buildings"] == "random_cards":
        everything = list(BUILDING_CARDS)
        in_game = set(s.building_deck) | set(s.reserve) | set(s.row)
        for c in row:
            if c not in in_game:
                # swap in for a card of the same class that is not in the row
                cls = KIND_OF_BUILDING[c]
                out = next(x for x in s.building_deck if KIND_OF_BUILDING[x] == cls
                           and x not in row)
                s.building_deck[s.building_deck.index(out)] = c
                in_game = set(s.building_deck) | set(s.reserve) | set(s.row)
        s.in_play = sorted({BUILDING_CARDS[c][0] for c in in_game})
        assert all(c in everything for c in row)
    s.start = start
    set_row(s, row)
    for seat, kinds in (hands or {}).items():
        deal(s, seat, kinds)
    return s


def _building_class() -> dict[str, str]:
    from rules.rattus_cartus.cards import BUILDINGS

    return {c: BUILDINGS[b].cls for c, (b, _) in BUILDING_CARDS.items()}


KIND_OF_BUILDING = _building_class()


def play(state: RcState, *moves: tuple[int, dict[str, Any] | Action]) -> tuple[RcState, list[Event]]:
    """Apply (seat, action) moves in order; returns the state and every event."""
    events: list[Event] = []
    for seat, a in moves:
        state, ev = E.apply(state, seat, a)
        events += ev
    return state, events


def supply(state: RcState, choices: dict[int, tuple[int, int | None]]) -> tuple[RcState, list[Event]]:
    """Phase B: every seat's (row card, nun position) choice."""
    return play(state, *((s, {"kind": "supply", "card": b, "peek": p}) for s, (b, p) in choices.items()))


def enter(state: RcState, seat: int, building: int, cards: list[str]) -> tuple[RcState, list[Event]]:
    """Phase C: enter a building with these card ids, then confirm."""
    moves: list[tuple[int, dict[str, Any]]] = [(seat, {"kind": "enter", "building": building})]
    moves += [(seat, {"kind": "play", "card": c}) for c in cards]
    moves.append((seat, {"kind": "done"}))
    return play(state, *moves)


def rats(state: RcState) -> list[int]:
    """Every seat's rat value."""
    return [sum(r) for r in state.rats]


def of_kind(state: RcState, seat: int, kind: str) -> list[str]:
    """The seat's cards of a kind."""
    return [c for c in state.hands[seat] if KIND[c] == kind]


def check_conservation(state: RcState) -> None:
    """Every card is in exactly one place; building cards too."""
    places = (state.deck + state.discard + state.nuns + [c for h in state.hands for c in h]
              + [c for p in state.played for c in p] + [c for p in state.piles.values() for c in p])
    counts = Counter(places)
    assert all(v == 1 for v in counts.values()), [c for c, v in counts.items() if v > 1]
    assert set(counts) == set(NUNS) | {c for p in PILES.values() for c in p}
    b = state.building_deck + state.reserve + state.row + state.building_discard
    assert len(b) == len(set(b)) == 30
    assert all(t in (1, 3, 5) for r in state.rats for t in r)


def to_enter(state: RcState) -> RcState:
    """Skip phase B: everybody is to enter a building, the start player first."""
    n = state.num_seats
    state.phase = "enter"
    state.choices = [None] * n
    state.queue = [(state.start + k) % n for k in range(n)]
    return state


def at_building(card: str, plays: dict[int, tuple[int, list[str]]],
                extra: dict[int, list[str]] | None = None, *, n: int = 3,
                filler: str = "") -> tuple[RcState, list[Event]]:
    """A round with `card` first in the row: plays {seat: (row card, kinds played)} in seat
    order from seat 0, each hand being the played cards plus `extra`; phase D runs until
    its first decision."""
    filler = filler or ("granja-1" if card.startswith("palacio") else "palacio-1")
    extra = extra or {}
    hands = {s: kinds + extra.get(s, []) for s, (_, kinds) in plays.items()}
    s = to_enter(game(n, [card, filler] + (["castillo-1"] if n >= 4 else []), hands))
    events: list[Event] = []
    for seat in range(n):
        b, kinds = plays[seat]
        s, ev = enter(s, seat, b, s.hands[seat][:len(kinds)])
        events += ev
    return s, events
