"""Small helpers over the Ragami table: events, names, cubes, and where pieces may go."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.core import Event, Text, seat_name
from rules.ragami.city import (
    BUILDINGS_AT,
    is_square,
    ragami_reach,
    street_reach,
)
from rules.ragami.model import RgState
from rules.ragami.text import msg

COLOUR_NAME = (
    msg("yellow"),
    msg("green"),
    msg("blue"),
    msg("purple"),
)
TOTAL_CUBES = 30
TOTAL_DEMONS = 6
TOTAL_CONFLICT_DICE = 6
WIN_VP = 30


def ev(kind: str, text: Text, audience: list[int] | None = None, **data: Any) -> Event:
    """An event for everyone (or only ``audience``)."""
    return Event(kind=kind, text=text, audience=audience, data=data)


def cubes(n: int) -> Text:
    """ "1 cube", "3 cubes"."""
    return msg.n(n, "{n} cube", "{n} cubes")


def demon_count(n: int) -> Text:
    """ "1 Demon", "2 Demons"."""
    return msg.n(n, "{n} Demon", "{n} Demons")


@lru_cache(maxsize=8)
def who(seat: int) -> Text:
    """A player's name in events: their seat and colour."""
    return msg("{seat} ({colour})", seat=seat_name(seat), colour=COLOUR_NAME[seat])


def piece_owner(state: RgState, colour: int) -> int | None:
    """The seat that owns a colour's pieces (None for a neutral colour)."""
    return colour if colour < state.num_seats else None


def give_cubes(state: RgState, seat: int, n: int) -> int:
    """Give up to ``n`` cubes from the supply (it may run out); returns how many were given."""
    n = max(0, min(n, state.cube_supply))
    state.cube_supply -= n
    state.cubes[seat] += n
    return n


def pay_cubes(state: RgState, seat: int, n: int) -> None:
    """Return ``n`` of a player's cubes to the supply."""
    assert state.cubes[seat] >= n
    state.cubes[seat] -= n
    state.cube_supply += n


def ragami_square(state: RgState, colour: int) -> int | None:
    """The street square a Ragami stands on (None in a building or absent)."""
    node = state.ragamis[colour]
    return int(node) if node is not None and node.isdigit() else None


def ragamis_on(state: RgState, square: int) -> list[int]:
    """Colours of the Ragamis on a street square."""
    return [c for c, n in enumerate(state.ragamis) if n == str(square)]


def saints_on(state: RgState, square: int) -> list[int]:
    """Colours of the Saints on a square."""
    return [c for c, q in enumerate(state.saints) if q == square]


def ragami_dests(state: RgState, colour: int) -> list[str]:
    """Where a Ragami may end a move: 1 to 4 spaces, never through or onto "paso prohibido",
    never onto its Saint's square, never onto a street square holding two Ragamis."""
    start = state.ragamis[colour]
    if start is None:
        return []
    full = {n for n in state.ragamis if n is not None and state.ragamis.count(n) >= 2}
    saint = str(state.saints[colour])
    return [
        n
        for n in ragami_reach(start, frozenset(str(q) for q in state.forbidden))
        if n != saint and n not in full or not is_square(n)
    ]


def saint_dests(state: RgState, colour: int, mover: int) -> list[int]:
    """Where a Saint may end: 1 to 4 squares along the streets, not where it started, not on
    the square of the Ragami of its colour nor on the square of the mover's Ragami."""
    start = state.saints[colour]
    if start is None:
        return []
    banned = {ragami_square(state, colour), ragami_square(state, mover)}
    return [q for q in street_reach(start) if q not in banned]


def demon_dests(square: int) -> tuple[int, ...]:
    """Where a Demon may end: 1 to 4 squares along the streets, not where it started."""
    return street_reach(square)


def flee_buildings(state: RgState, colour: int) -> tuple[str, ...]:
    """The buildings next to the square a Ragami stands on."""
    q = ragami_square(state, colour)
    return BUILDINGS_AT[q] if q is not None else ()


def purify(state: RgState, seat: int | None, colour: int) -> list[Event]:
    """A Ragami that ended on a square with only Demons removes them: +1 VP each."""
    q = ragami_square(state, colour)
    if q is None or seat is None or colour != seat:
        return []
    n = state.demons.count(q)
    if not n or q in state.conflicts or saints_on(state, q) or len(ragamis_on(state, q)) > 1:
        return []
    state.demons = [d for d in state.demons if d != q]
    state.vp[seat] += n
    return [
        ev(
            "purify",
            msg(
                "{seat} purifies {demons} on square {square}: +{vp} VP.",
                seat=who(seat),
                demons=demon_count(n),
                square=q,
                vp=n,
            ),
            seat=seat,
            square=q,
            demons=n,
        )
    ]


def last_players(state: RgState) -> list[int]:
    """The seats with the fewest VP."""
    low = min(state.vp)
    return [s for s in range(state.num_seats) if state.vp[s] == low]
