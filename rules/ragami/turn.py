"""A player's turn: the action dice, the cards, conversions, and the answers to every
many-step action (legal.py lists what may be done; moves.py moves the pieces, resolution.py
resolves a conflict)."""

from __future__ import annotations

from rules.core import Action, Event
from rules.ragami.cards import CARDS, card_name, kind_of
from rules.ragami.city import node_name
from rules.ragami.flow import draw_cards, end_turn
from rules.ragami.legal import (
    HAND_LIMIT,
    card_playable,
    die_options,
    movers,
    step_actions,
)
from rules.ragami.model import (
    Adjust,
    CashCard,
    Convert,
    Discard,
    Done,
    EndTurn,
    Keep,
    Pick,
    Place,
    PlayCard,
    Resolution,
    RgState,
    Step,
    UseDie,
)
from rules.ragami.moves import finish_draw, move_demon, move_saint, picked, swap
from rules.ragami.resolution import dec_die, resolution_event, resolve_step
from rules.ragami.table import (
    COLOUR_NAME,
    cubes,
    ev,
    give_cubes,
    last_players,
    pay_cubes,
    piece_owner,
    purify,
    ragami_square,
    ragamis_on,
    saints_on,
    who,
)
from rules.ragami.text import msg

# the three slots of the action board, as the turn's events name them
SLOT_NAME = (msg("Saint and Demon"), msg("Draw cards"), msg("Resolve"))

def apply(state: RgState, seat: int, a: Action) -> list[Event] | None:
    """Apply a turn action; None if it is not legal now."""
    st = state.step
    if st is None:
        if not main_allowed(state, seat, a):
            return None
        return apply_main(state, seat, a)
    options = step_actions(state, seat, st)
    # the menus hand back the very objects they listed: compare by identity first
    if not any(b is a for b in options) and a not in options:
        return None
    return apply_step(state, seat, st, a)


def main_allowed(state: RgState, seat: int, a: Action) -> bool:
    """Whether ``a`` is in ``main_menu`` (checked without building the whole menu)."""
    if isinstance(a, EndTurn):
        return True
    if isinstance(a, UseDie):
        return not state.die_used and a in die_options(state, seat, free=False)
    if isinstance(a, PlayCard | CashCard):
        if a.card not in state.hands[seat] or a.card in state.fresh[seat]:
            return False
        if isinstance(a, PlayCard):
            return card_playable(state, seat, a.card)
        return kind_of(a.card).cube and state.cube_supply > 0
    if isinstance(a, Discard):
        return len(state.hands[seat]) >= HAND_LIMIT and a.card in state.hands[seat]
    if isinstance(a, Convert):
        if a.what == "cubes":
            return state.cubes[seat] >= 2
        return state.virtue_at[seat] is not None and state.virtue[seat] >= 3
    return False


def apply_main(state: RgState, seat: int, a: Action) -> list[Event]:
    """An action chosen between actions."""
    if isinstance(a, UseDie):
        return start_die_action(state, seat, a.slot, a.move, free=False)
    if isinstance(a, PlayCard):
        return play_card(state, seat, a.card)
    if isinstance(a, CashCard):
        state.hands[seat].remove(a.card)
        state.discard.append(a.card)
        give_cubes(state, seat, 1)
        state.acted = True
        return [
            ev(
                "cash",
                msg(
                    "{seat} exchanges {card} for a white cube.",
                    seat=who(seat),
                    card=card_name(a.card),
                ),
                seat=seat,
                card=a.card,
            )
        ]
    if isinstance(a, Discard):
        state.hands[seat].remove(a.card)
        if a.card in state.fresh[seat]:
            state.fresh[seat].remove(a.card)
        state.discard.append(a.card)
        return [
            ev(
                "discard",
                msg("{seat} discards {card}.", seat=who(seat), card=card_name(a.card)),
                seat=seat,
                card=a.card,
            )
        ]
    if isinstance(a, Convert):
        return convert(state, seat, a.what)
    assert isinstance(a, EndTurn)
    return end_turn(state)


def convert(state: RgState, seat: int, what: str) -> list[Event]:
    """2 cubes = 1 VP, or 3 points of the Virtue die = 1 VP (at 0 the die leaves the board)."""
    state.vp[seat] += 1
    if what == "cubes":
        pay_cubes(state, seat, 2)
        return [
            ev(
                "convert",
                msg("{seat} exchanges 2 cubes for 1 VP.", seat=who(seat)),
                seat=seat,
            )
        ]
    state.virtue[seat] -= 3
    gone = state.virtue[seat] == 0
    if gone:
        state.virtue_at[seat] = None
    return [
        ev(
            "convert",
            msg("{seat} exchanges 3 Virtue points for 1 VP and takes the die back.", seat=who(seat))
            if gone
            else msg("{seat} exchanges 3 Virtue points for 1 VP.", seat=who(seat)),
            seat=seat,
        )
    ]


def start_die_action(state: RgState, seat: int, slot: int, move: bool, free: bool) -> list[Event]:
    """Begin the action of an action die (``free``: given by the Extra action card)."""
    if move:
        text = msg(
            "{seat} uses the {slot} die: move a Ragami.", seat=who(seat), slot=SLOT_NAME[slot]
        )
    elif slot == 0:
        text = msg("{seat} uses the Saint and Demon die: move a Saint and a Demon.", seat=who(seat))
    elif slot == 1:
        text = msg("{seat} uses the Draw cards die: draw cards.", seat=who(seat))
    else:
        text = msg("{seat} uses the Resolve die: resolve a conflict.", seat=who(seat))
    events = [
        ev(
            "die_action",
            text,
            seat=seat,
            slot=slot,
            move=move,
        )
    ]
    if not move and slot == 2:
        res = new_resolution(state, seat, slot=slot, via=None, free=free)
        state.step = Step(kind="resolve", slot=slot, free=free, res=res)
        events.append(resolution_event(state, seat, res))
    if not free:
        state.die_used = True
    state.acted = True
    if state.step is not None:
        return events
    dec_die(state, slot)
    if move:
        state.step = move_step(state, seat, slot, free)
    elif slot == 0:
        state.step = Step(kind="saint", slot=slot, free=free)
    else:
        state.drawn[seat] = draw_cards(state, 3)
        state.step = Step(kind="draw", keep=1, slot=slot, free=free)
        events.append(drawn_event(state, seat))
    return events


def move_step(state: RgState, seat: int, slot: int | None, free: bool) -> Step:
    """A Ragami move: the piece is picked first only when there are two to choose from."""
    who_moves = movers(state, seat)
    return Step(
        kind="move", slot=slot, free=free, piece=f"R{who_moves[0]}" if len(who_moves) == 1 else ""
    )


def drawn_event(state: RgState, seat: int) -> Event:
    """Tell the drawer (only) what was drawn."""
    names = [card_name(c) for c in state.drawn[seat]]
    return ev(
        "drawn",
        msg("You draw: {cards}.", cards=names),
        [seat],
        cards=state.drawn[seat],
    )


def new_resolution(
    state: RgState, seat: int, slot: int | None, via: int | None, free: bool
) -> Resolution:
    """The conflict under the player's Ragami, with the power that comes for free."""
    q = ragami_square(state, seat)
    assert q is not None
    die = state.conflicts[q]
    others = [c for c in ragamis_on(state, q) if c != seat]
    return Resolution(
        square=q,
        die=die,
        cost=die + state.demons.count(q),
        saints=saints_on(state, q),
        helper=others[0] if others else None,
        slot=slot,
        via=via,
        free=free,
        was_acted=state.acted,
        die_was_used=state.die_used,
    )


def play_card(state: RgState, seat: int, card: int) -> list[Event]:
    """Play a card for its action."""
    k = CARDS[card]
    state.hands[seat].remove(card)
    events = [
        ev(
            "play",
            msg("{seat} plays {card}.", seat=who(seat), card=card_name(card)),
            seat=seat,
            card=card,
        )
    ]
    if k == "resolver":
        pay_cubes(state, seat, 1)
        res = new_resolution(state, seat, slot=None, via=card, free=False)
        state.step = Step(kind="resolve", res=res)
        state.acted = True
        return [*events, resolution_event(state, seat, res)]
    state.acted = True
    state.discard.append(card)
    if k == "santos":
        state.step = Step(kind="saints", left=2)
    elif k == "demonios":
        state.step = Step(kind="demons", left=2)
    elif k == "ajuste":
        state.step = Step(kind="adjust")
    elif k == "virtud":
        state.step = Step(kind="virtue")
    elif k == "extra":
        pay_cubes(state, seat, 1)
        state.step = Step(kind="extra")
    elif k == "robar":
        state.drawn[seat] = draw_cards(state, 3)
        state.step = Step(kind="draw", keep=min(2, len(state.drawn[seat])))
        events.append(drawn_event(state, seat))
    elif k == "ragami":
        state.step = move_step(state, seat, None, False)
    elif k == "cambio":
        state.step = Step(kind="swap")
    elif k == "cubos":
        n = sum(
            1
            for c, node in enumerate(state.ragamis)
            if node is not None
            and c != seat
            and c != state.neutral
            and not (node.isdigit() and int(node) in state.conflicts)
        )
        got = give_cubes(state, seat, n)
        events.append(
            ev(
                "cubes",
                msg("{seat} gets {cubes}.", seat=who(seat), cubes=cubes(got)),
                seat=seat,
                cubes=got,
            )
        )
    else:
        events += consolation(state, seat)
    return events


def consolation(state: RgState, seat: int) -> list[Event]:
    """Card n.º 15: the last in VP score 1; the player gets 2 or 3 cubes."""
    last = last_players(state)
    if len(last) > 2:
        return [
            ev(
                "no_effect",
                msg("Three or more are tied for last: no effect."),
            )
        ]
    for s in last:
        state.vp[s] += 1
    got = give_cubes(state, seat, 2 if len(last) == 1 else 3)
    return [
        ev(
            "consolation",
            msg.n(
                len(last),
                "{last} scores 1 VP; {seat} gets {cubes}.",
                "{last} score 1 VP; {seat} gets {cubes}.",
                last=[who(s) for s in last],
                seat=who(seat),
                cubes=cubes(got),
            ),
            seat=seat,
            last=last,
            cubes=got,
        )
    ]


def apply_step(state: RgState, seat: int, st: Step, a: Action) -> list[Event]:
    """The next part of a many-step action."""
    k = st.kind
    if isinstance(a, Pick):
        state.step = st.model_copy(update={"piece": a.piece})
        if k == "swap":
            return swap(state, seat, int(a.piece[1:]))
        return [picked(state, seat, a.piece)]
    if isinstance(a, Done):
        state.step = None
        return [
            ev(
                "done",
                msg("{seat} moves no more Saints.", seat=who(seat))
                if k == "saints"
                else msg("{seat} moves no more Demons.", seat=who(seat)),
                seat=seat,
                step=k,
            )
        ]
    if k in ("saint", "saints"):
        assert isinstance(a, Place)
        return move_saint(state, seat, st, int(st.piece[1:]), int(a.at))
    if k in ("demon", "demons"):
        assert isinstance(a, Place)
        return move_demon(state, seat, st, int(st.piece[1:]), int(a.at))
    if k == "move":
        assert isinstance(a, Place)
        c = int(st.piece[1:])
        state.ragamis[c] = a.at
        state.step = None
        name = node_name(a.at)
        return [
            ev(
                "ragami",
                msg(
                    "{seat} moves the {colour} Ragami to {where}.",
                    seat=who(seat),
                    colour=COLOUR_NAME[c],
                    where=name,
                ),
                seat=seat,
                colour=c,
                at=a.at,
            )
        ] + purify(state, piece_owner(state, c), c)
    if k == "draw":
        assert isinstance(a, Keep)
        state.drawn[seat].remove(a.card)
        state.hands[seat].append(a.card)
        state.fresh[seat].append(a.card)
        left = st.keep - 1
        # which card is kept stays private; that one was kept is told to everyone
        kept = [
            ev(
                "kept",
                msg("You keep {card}.", card=card_name(a.card)),
                [seat],
                card=a.card,
            )
        ]
        if left > 0 and state.drawn[seat]:
            state.step = st.model_copy(update={"keep": left})
            return [
                ev(
                    "keep_one",
                    msg("{seat} keeps a card and chooses one more.", seat=who(seat)),
                    seat=seat,
                ),
                *kept,
            ]
        return finish_draw(state, seat) + kept
    if k == "adjust":
        assert isinstance(a, Adjust)
        q = int(st.piece[1:])
        state.conflicts[q] += a.delta
        state.step = None
        return [
            ev(
                "adjust",
                msg(
                    "{seat} sets the conflict on square {square} to {die}.",
                    seat=who(seat),
                    square=q,
                    die=state.conflicts[q],
                ),
                seat=seat,
                square=q,
                die=state.conflicts[q],
            )
        ]
    if k == "virtue":
        assert isinstance(a, Place)
        state.virtue_at[seat] = a.at
        state.virtue[seat] = min(6, state.virtue[seat] + 1)
        state.step = None
        return [
            ev(
                "virtue_move",
                msg(
                    "{seat} moves the Virtue die to {where} ({value}).",
                    seat=who(seat),
                    where=node_name(a.at),
                    value=state.virtue[seat],
                ),
                seat=seat,
                at=a.at,
            )
        ]
    if k == "extra":
        assert isinstance(a, UseDie)
        state.step = None
        return start_die_action(state, seat, a.slot, a.move, free=True)
    if k == "flee":
        assert isinstance(a, Place)
        state.ragamis[seat] = a.at
        state.step = None
        return [
            ev(
                "flee",
                msg("{seat}'s Ragami withdraws to {where}.", seat=who(seat), where=node_name(a.at)),
                seat=seat,
                at=a.at,
            )
        ]
    assert st.res is not None
    return resolve_step(state, seat, st.res, a)

