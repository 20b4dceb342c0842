"""The steps of the turn's many-step actions that move things: a saint or a demon moved, a
building's card swapped, the piece picked for a move, the draw finished."""

from __future__ import annotations

from rules.core import Event
from rules.ragami.cards import card_name
from rules.ragami.city import node_name
from rules.ragami.legal import (
    demon_choices,
    saint_choices,
)
from rules.ragami.model import (
    RgState,
    Step,
)
from rules.ragami.table import (
    COLOUR_NAME,
    ev,
    give_cubes,
    pay_cubes,
    piece_owner,
    who,
)
from rules.ragami.text import msg


def picked(state: RgState, seat: int, piece: str) -> Event:
    """The piece chosen to move (or the Conflict die to change), before where it goes."""
    kind, n = piece[0], int(piece[1:])
    if kind in ("S", "R"):
        place = state.saints[n] if kind == "S" else state.ragamis[n]
        at = node_name(str(place))
        if kind == "S" and n == seat:
            text = msg("{seat} chooses to move their Saint ({where}).", seat=who(seat), where=at)
        elif kind == "S":
            text = msg(
                "{seat} chooses to move the {colour} Saint ({where}).",
                seat=who(seat),
                colour=COLOUR_NAME[n],
                where=at,
            )
        elif n == seat:
            text = msg("{seat} chooses to move their Ragami ({where}).", seat=who(seat), where=at)
        else:
            text = msg(
                "{seat} chooses to move the {colour} Ragami ({where}).",
                seat=who(seat),
                colour=COLOUR_NAME[n],
                where=at,
            )
        return ev("pick", text, seat=seat, piece=piece)
    if kind == "C":
        return ev(
            "pick",
            msg(
                "{seat} chooses the Conflict die on square {square} ({die}).",
                seat=who(seat),
                square=n,
                die=state.conflicts[n],
            ),
            seat=seat,
            piece=piece,
        )
    text = (
        msg("{seat} chooses to place a new Demon.", seat=who(seat))
        if n == 0
        else msg("{seat} chooses to move a Demon from square {square}.", seat=who(seat), square=n)
    )
    return ev("pick", text, seat=seat, piece=piece)


def finish_draw(state: RgState, seat: int) -> list[Event]:
    """The cards not kept go face up to the discard pile."""
    rest = state.drawn[seat]
    state.discard += rest
    state.drawn[seat] = []
    state.step = None
    names = [card_name(c) for c in rest]
    return [
        ev(
            "keep",
            msg("{seat} keeps cards and discards: {cards}.", seat=who(seat), cards=names)
            if names
            else msg("{seat} keeps cards and discards: nothing.", seat=who(seat)),
            seat=seat,
            discarded=rest,
        )
    ]


def move_saint(state: RgState, seat: int, st: Step, c: int, to: int) -> list[Event]:
    """Move a Saint; a cube for reaching a conflict (card n.º 1: only from outside one)."""
    start = state.saints[c]
    state.saints[c] = to
    gain = to in state.conflicts and (st.kind == "saint" or start not in state.conflicts)
    got = give_cubes(state, seat, 1) if gain else 0
    text = (
        msg.n(
            got,
            "{seat} moves the {colour} Saint to square {square} (+{n} cube).",
            "{seat} moves the {colour} Saint to square {square} (+{n} cubes).",
            seat=who(seat),
            colour=COLOUR_NAME[c],
            square=to,
        )
        if got
        else msg(
            "{seat} moves the {colour} Saint to square {square}.",
            seat=who(seat),
            colour=COLOUR_NAME[c],
            square=to,
        )
    )
    events = [
        ev(
            "saint",
            text,
            seat=seat,
            colour=c,
            square=to,
            cubes=got,
        )
    ]
    if st.kind == "saint":
        state.step = Step(kind="demon", slot=st.slot, free=st.free)
        return events
    done = [*st.done, f"S{c}"]
    left = st.left - 1
    more = left > 0 and saint_choices(state, seat, done)
    state.step = st.model_copy(update={"piece": "", "done": done, "left": left}) if more else None
    return events


def move_demon(state: RgState, seat: int, st: Step, q: int, to: int) -> list[Event]:
    """Move a Demon (or bring a new one, q = 0); card n.º 2 pays for leaving a conflict."""
    if q:
        state.demons.remove(q)
    state.demons.append(to)
    state.demons.sort()
    gain = st.kind == "demons" and q in state.conflicts and to not in state.conflicts
    got = give_cubes(state, seat, 1) if gain else 0
    if q == 0:  # a new Demon comes from no conflict: it never earns a cube
        text = msg("{seat} places a new Demon on square {square}.", seat=who(seat), square=to)
    elif got:
        text = msg.n(
            got,
            "{seat} moves a Demon from square {start} to {square} (+{n} cube).",
            "{seat} moves a Demon from square {start} to {square} (+{n} cubes).",
            seat=who(seat),
            start=q,
            square=to,
        )
    else:
        text = msg(
            "{seat} moves a Demon from square {start} to {square}.",
            seat=who(seat),
            start=q,
            square=to,
        )
    events = [
        ev(
            "demon",
            text,
            seat=seat,
            start=q,
            square=to,
            cubes=got,
        )
    ]
    if st.kind == "demon":
        state.step = None
        return events
    done = [*st.done, str(to)]
    left = st.left - 1
    nxt = st.model_copy(update={"piece": "", "done": done, "left": left})
    state.step = nxt if left > 0 and demon_choices(state, seat, nxt) else None
    return events


def swap(state: RgState, seat: int, c: int) -> list[Event]:
    """Card n.º 13: the two Ragamis change places; 1 cube to the other one's controller."""
    state.ragamis[seat], state.ragamis[c] = state.ragamis[c], state.ragamis[seat]
    owner = piece_owner(state, c)
    pay_cubes(state, seat, 1)
    if owner is not None:
        give_cubes(state, owner, 1)
    state.step = None
    return [
        ev(
            "swap",
            msg(
                "{seat} swaps Ragami with the {colour} one.",
                seat=who(seat),
                colour=COLOUR_NAME[c],
            ),
            seat=seat,
            colour=c,
        )
    ]
