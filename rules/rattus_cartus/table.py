"""Moving things on the table: cards between deck, hands and piles, rats, influence discs."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.core import Event, Text, seat_name
from rules.phrases import Phrases
from rules.rattus_cartus.cards import CLASSES, KIND, NUNS, TYPE, TYPE_ORDER
from rules.rattus_cartus.model import RcState

msg = Phrases("rattus_cartus")


@lru_cache(maxsize=16)
def who(seat: int) -> Text:
    """How events name a seat."""
    return seat_name(seat)


def ev(kind: str, text: Text, audience: list[int] | None = None, **data: Any) -> Event:
    """An event; `audience` None is everyone."""
    return Event(kind=kind, text=text, audience=audience, data=data)


def semicolons(items: list[Text]) -> Text:
    """Items that hold commas of their own, one after another with semicolons between
    (a list joined the usual way would read as one list)."""
    if not items:
        return msg("nothing")
    out = items[0]
    for item in items[1:]:
        out = msg("{items}; {item}", items=out, item=item)
    return out


def sort_cards(cards: list[str]) -> list[str]:
    """Cards by type, then id: the order hands are shown in."""
    return sorted(cards, key=lambda c: (TYPE_ORDER[TYPE[c]], c))


# ----------------------------------------------------------------------------- cards


def draw_population(state: RcState, n: int) -> list[str]:
    """Draw up to `n` population cards; an empty deck is remade from the shuffled discards."""
    out: list[str] = []
    for _ in range(n):
        if not state.deck:
            if not state.discard:
                break
            state.deck = state.discard
            state.discard = []
            state.rng.shuffle(state.deck)
        out.append(state.deck.pop())
    return out


def take_from_pile(state: RcState, pile: str, n: int) -> list[str]:
    """Take up to `n` cards of a special pile (or jokers); an empty pile gives nothing."""
    p = state.piles[pile]
    k = min(n, len(p))
    taken = p[len(p) - k:]
    del p[len(p) - k:]
    return taken


def put_away(state: RcState, cards: list[str]) -> None:
    """Discard cards: population cards to the discard pile, the rest back to their piles."""
    for c in cards:
        if c in NUNS:
            state.discard.append(c)
        else:
            state.piles[KIND[c]].append(c)


# ----------------------------------------------------------------------------- rats


def rat_value(state: RcState, seat: int) -> int:
    """The total value of a seat's rat tokens."""
    return sum(state.rats[seat])


def add_rats(state: RcState, seat: int, n: int) -> None:
    """A rat received is a token of value 1 from the supply (the supply never runs out)."""
    state.rats[seat].extend([1] * n)


def remove_rats(state: RcState, seat: int, n: int) -> int:
    """Give back `n` rats as tokens of value 1, breaking a 3 (else a 5) into ones when
    needed; returns how many could be given back."""
    tokens = state.rats[seat]
    done = 0
    for _ in range(n):
        if 1 not in tokens:
            big = 3 if 3 in tokens else 5 if 5 in tokens else 0
            if not big:
                break
            tokens.remove(big)
            tokens.extend([1] * big)
        tokens.remove(1)
        done += 1
    return done


def consolidate(state: RcState, seat: int) -> None:
    """Make change: every five 1s become a 5, then every three 1s a 3."""
    tokens = state.rats[seat]
    ones = tokens.count(1)
    if ones < 3:
        return
    rest = [t for t in tokens if t != 1]
    fives, ones = divmod(ones, 5)
    threes, ones = divmod(ones, 3)
    state.rats[seat] = sorted(rest + [5] * fives + [3] * threes, reverse=True) + [1] * ones


# ----------------------------------------------------------------------------- influence


def gain_influence(state: RcState, seat: int, cls: str, n: int) -> None:
    """Move a disc `n` steps up a class track; it lands on top of any discs already there."""
    if n <= 0:
        return
    c = CLASSES.index(cls)
    state.influence[seat][c] += n
    state.clock += 1
    state.arrived[seat][c] = state.clock
    state.gained[seat] += n


def track_order(state: RcState, c: int) -> list[int]:
    """Seats on class track `c` from first to last: more influence first, and on a shared
    space the disc lower in the stack (there earlier) first."""
    return sorted(range(state.num_seats),
                  key=lambda s: (-state.influence[s][c], state.arrived[s][c], s))
