"""A player's turn: the action dice, the cards, conversions, and every many-step action
(moving pieces, drawing, resolving a conflict step by step)."""

from __future__ import annotations

from rules.core import Action, Event, Text
from rules.ragami.cards import CARDS, POWER_CARDS, card_name, kind_of
from rules.ragami.city import BUILDINGS, BUILDINGS_AT, SQUARES, node_name, street_reach
from rules.ragami.flow import draw_cards, end_turn
from rules.ragami.model import (
    Adjust,
    Cancel,
    CashCard,
    Commit,
    Convert,
    Discard,
    Done,
    EndTurn,
    Keep,
    Pick,
    Place,
    PlayCard,
    Power,
    PowerCard,
    Resolution,
    RgState,
    Roll,
    Step,
    UseDie,
    act,
)
from rules.ragami.table import (
    COLOUR_NAME,
    TOTAL_DEMONS,
    cubes,
    demon_count,
    demon_dests,
    ev,
    give_cubes,
    last_players,
    pay_cubes,
    piece_owner,
    purify,
    ragami_dests,
    ragami_square,
    ragamis_on,
    saint_dests,
    saints_on,
    who,
)
from rules.ragami.text import msg

HAND_LIMIT = 3
# the three slots of the action board, as the turn's events name them
SLOT_NAME = (msg("Saint and Demon"), msg("Draw cards"), msg("Resolve"))

# ----------------------------------------------------------------------------- what is possible


def ready(state: RgState, seat: int) -> list[int]:
    """Cards held since an earlier turn (only those may be used)."""
    return [c for c in state.hands[seat] if c not in state.fresh[seat]]


def movers(state: RgState, seat: int) -> list[int]:
    """The Ragamis a player may move: their own, and with 2 players the neutral one."""
    out = [seat]
    if state.neutral is not None:
        out.append(state.neutral)
    return [c for c in out if ragami_dests(state, c)]


def saint_choices(state: RgState, seat: int, exclude: list[str] = ()) -> list[int]:  # type: ignore[assignment]
    """Saints the player may move now."""
    mine = ragami_square(state, seat)
    out = []
    for c in range(4):
        start = state.saints[c]
        if start is None or f"S{c}" in exclude:
            continue
        reach = street_reach(start)
        # every square reaches at least three others, so only one or two can be barred
        if len(reach) > 2 or any(q not in (mine, ragami_square(state, c)) for q in reach):
            out.append(c)
    return out


def can_draw(state: RgState, seat: int) -> bool:
    """Drawing needs room in the hand and a card somewhere."""
    return len(state.hands[seat]) < HAND_LIMIT and bool(state.deck or state.discard)


def can_resolve(state: RgState, seat: int) -> bool:
    """The player's Ragami stands on a conflict."""
    q = ragami_square(state, seat)
    return q is not None and q in state.conflicts


def swap_targets(state: RgState, seat: int) -> list[int]:
    """Ragamis the player's own may change places with."""
    mine = state.ragamis[seat]
    out = []
    for c, node in enumerate(state.ragamis):
        if c == seat or node is None or mine is None or node == mine:
            continue
        if node == str(state.saints[seat]) or mine == str(state.saints[c]):
            continue
        out.append(c)
    return out


def die_options(state: RgState, seat: int, free: bool) -> list[UseDie]:
    """The action-die actions the player may take (``free``: the Extra action card)."""
    out = []
    move = bool(movers(state, seat))
    for slot in range(3):
        if not free and state.dice[slot] <= 0:
            continue
        main = (saint_choices(state, seat), can_draw(state, seat), can_resolve(state, seat))[slot]
        if main:
            out.append(act(UseDie, slot=slot))
        if move:
            out.append(act(UseDie, slot=slot, move=True))
    return out


def demon_choices(state: RgState, seat: int, step: Step) -> list[str]:
    """Demons that may be picked in a Demon step (card n.º 2: not those with your Ragami,
    not one already moved)."""
    if step.kind == "demon":
        out = [f"D{q}" for q in sorted(set(state.demons))]
        if len(state.demons) < TOTAL_DEMONS:
            out.append("D0")
        return out
    mine = ragami_square(state, seat)
    return [
        f"D{q}"
        for q in sorted(set(state.demons))
        if q != mine and state.demons.count(q) > step.done.count(str(q))
    ]


def card_playable(state: RgState, seat: int, card: int) -> bool:
    """Whether a card in hand may be played for its action outside a resolution."""
    k = CARDS[card]
    if k == "santos":
        return bool(saint_choices(state, seat))
    if k == "demonios":
        return bool(demon_choices(state, seat, Step(kind="demons")))
    if k == "ajuste":
        return bool(state.conflicts)
    if k == "virtud":
        return state.virtue_at[seat] is not None
    if k == "extra":
        return state.cubes[seat] >= 1 and bool(die_options(state, seat, free=True))
    if k == "resolver":
        return state.cubes[seat] >= 1 and can_resolve(state, seat)
    if k == "robar":
        return len(state.hands[seat]) == 2 and bool(state.deck or state.discard)
    if k == "ragami":
        return bool(movers(state, seat))
    if k == "cambio":
        return state.cubes[seat] >= 1 and bool(swap_targets(state, seat))
    return k in ("cubos", "ultimo")


def power_cards(state: RgState, seat: int) -> list[int]:
    """Red-triangle cards the player may add to a resolution now."""
    out = []
    for c in ready(state, seat):
        k = CARDS[c]
        if k not in POWER_CARDS:
            continue
        if (k == "poder2" and state.cubes[seat] < 1) or (k == "poder4" and state.cubes[seat] < 2):
            continue
        if k == "doble" and not state.options.power_die:
            continue
        out.append(c)
    return out


def unknown_power(state: RgState, seat: int) -> int:
    """Card n.º 10: 4 alone last in VP, 2 tied for last, 1 otherwise."""
    last = last_players(state)
    if seat not in last:
        return 1
    return 4 if len(last) == 1 else 2


# ----------------------------------------------------------------------------- legal actions


def legal(state: RgState, seat: int) -> list[Action]:
    """Every action the turn player may take now."""
    st = state.step
    if st is None:
        return main_menu(state, seat)
    return step_actions(state, seat, st)


def main_menu(state: RgState, seat: int) -> list[Action]:
    """Between actions: a die action, cards, exchanges, or end the turn."""
    out: list[Action] = []
    if not state.die_used:
        out += die_options(state, seat, free=False)
    mine = ready(state, seat)
    out += [act(PlayCard, card=c) for c in mine if card_playable(state, seat, c)]
    if state.cube_supply > 0:
        out += [act(CashCard, card=c) for c in mine if kind_of(c).cube]
    if len(state.hands[seat]) >= HAND_LIMIT:
        out += [act(Discard, card=c) for c in state.hands[seat]]
    if state.cubes[seat] >= 2:
        out.append(act(Convert, what="cubes"))
    if state.virtue_at[seat] is not None and state.virtue[seat] >= 3:
        out.append(act(Convert, what="virtue"))
    out.append(act(EndTurn))
    return out


def step_actions(state: RgState, seat: int, st: Step) -> list[Action]:
    """The next part of a many-step action."""
    k = st.kind
    if k in ("saint", "saints"):
        if not st.piece:
            out: list[Action] = [
                act(Pick, piece=f"S{c}") for c in saint_choices(state, seat, st.done)
            ]
            return out + ([act(Done)] if st.done else [])
        return [act(Place, at=str(q)) for q in saint_dests(state, int(st.piece[1:]), seat)]
    if k in ("demon", "demons"):
        if not st.piece:
            out = [act(Pick, piece=p) for p in demon_choices(state, seat, st)]
            return out + ([act(Done)] if st.done else [])
        q = int(st.piece[1:])
        return [act(Place, at=str(t)) for t in (SQUARES if q == 0 else demon_dests(q))]
    if k == "move":
        if not st.piece:
            return [act(Pick, piece=f"R{c}") for c in movers(state, seat)]
        return [act(Place, at=n) for n in ragami_dests(state, int(st.piece[1:]))]
    if k == "draw":
        return [act(Keep, card=c) for c in state.drawn[seat]]
    if k == "adjust":
        if not st.piece:
            return [act(Pick, piece=f"C{q}") for q in sorted(state.conflicts)]
        v = state.conflicts[int(st.piece[1:])]
        return [act(Adjust, delta=d) for d in (-2, -1, 1, 2) if 1 <= v + d <= 6]  # type: ignore[arg-type]
    if k == "virtue":
        return [act(Place, at=b) for b in BUILDINGS if b != state.virtue_at[seat]]
    if k == "extra":
        return list(die_options(state, seat, free=True))
    if k == "flee":
        return [act(Place, at=b) for b in BUILDINGS_AT[ragami_square(state, seat) or 0]]
    if k == "swap":
        return [act(Pick, piece=f"R{c}") for c in swap_targets(state, seat)]
    assert k == "resolve" and st.res is not None
    return resolve_actions(state, seat, st.res)


def resolve_actions(state: RgState, seat: int, res: Resolution) -> list[Action]:
    """Power sources still open, then commit, roll, or give up."""
    need = res.cost - res.total
    out: list[Action] = []
    if need > 0:
        out += [
            act(Power, source="cubes", amount=a) for a in range(1, min(state.cubes[seat], need) + 1)
        ]
        left = virtue_left(state, seat, res)
        out += [act(Power, source="virtue", amount=a) for a in range(1, min(left, need) + 1)]
        if res.card is None:
            out += [act(PowerCard, card=c) for c in power_cards(state, seat)]
        if state.options.power_die:
            out.append(act(Roll))
    else:
        out.append(act(Commit))
    out.append(act(Cancel))
    return out


def virtue_left(state: RgState, seat: int, res: Resolution) -> int:
    """Points of the player's Virtue die usable here (it must be next to the conflict)."""
    b = state.virtue_at[seat]
    if b is None or b not in BUILDINGS_AT[res.square]:
        return 0
    return state.virtue[seat] - res.virtue


# ----------------------------------------------------------------------------- apply


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


def dec_die(state: RgState, slot: int) -> None:
    """An action die used: one use fewer (never below zero)."""
    state.dice[slot] = max(0, state.dice[slot] - 1)


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


# ----------------------------------------------------------------------------- resolving


def running(res: Resolution) -> Text:
    """The power gathered so far against the cost: "power 5 of 7"."""
    return msg("power {total} of {cost}", total=res.total, cost=res.cost)


def resolution_event(state: RgState, seat: int, res: Resolution) -> Event:
    """A resolution begins: its cost, and the power Saints and a second Ragami give."""
    demons = res.cost - res.die
    price = (
        msg("die {die} + {demons}", die=res.die, demons=demon_count(demons))
        if demons
        else msg("die {die}", die=res.die)
    )
    saints = len(res.saints)
    helper = COLOUR_NAME[res.helper] if res.helper is not None else None
    if saints and helper is not None:
        bonus = msg.n(
            saints,
            "+{n} from the Saint, +2 from the {colour} Ragami",
            "+{n} from the Saints, +2 from the {colour} Ragami",
            colour=helper,
        )
    elif saints:
        bonus = msg.n(saints, "+{n} from the Saint", "+{n} from the Saints")
    elif helper is not None:
        bonus = msg("+2 from the {colour} Ragami", colour=helper)
    else:
        bonus = None
    text = (
        msg(
            "{seat} tries to resolve the conflict on square {square}, which costs {cost} "
            "({price}); {bonus}: {power}.",
            seat=who(seat),
            square=res.square,
            cost=res.cost,
            price=price,
            bonus=bonus,
            power=running(res),
        )
        if bonus is not None
        else msg(
            "{seat} tries to resolve the conflict on square {square}, which costs {cost} "
            "({price}): {power}.",
            seat=who(seat),
            square=res.square,
            cost=res.cost,
            price=price,
            power=running(res),
        )
    )
    return ev(
        "resolve_start",
        text,
        seat=seat,
        square=res.square,
        saints=res.saints,
        helper=res.helper,
        power=res.total,
        cost=res.cost,
    )


def resolve_step(state: RgState, seat: int, res: Resolution, a: Action) -> list[Event]:
    """One step of a resolution: add power, commit, roll, or give up."""
    if isinstance(a, Power):
        if a.source == "cubes":
            state.cubes[seat] -= a.amount
            res = res.model_copy(update={"cubes": res.cubes + a.amount})
            text = msg(
                "{seat} adds {amount} from cubes ({power}).",
                seat=who(seat),
                amount=a.amount,
                power=running(res),
            )
        else:
            res = res.model_copy(update={"virtue": res.virtue + a.amount})
            text = msg(
                "{seat} adds {amount} from their Virtue die ({power}).",
                seat=who(seat),
                amount=a.amount,
                power=running(res),
            )
        state.step = state.step.model_copy(update={"res": res})  # type: ignore[union-attr]
        return [
            ev(
                "power",
                text,
                seat=seat,
                source=a.source,
                amount=a.amount,
                power=res.total,
                cost=res.cost,
            )
        ]
    if isinstance(a, PowerCard):
        k = CARDS[a.card]
        state.hands[seat].remove(a.card)
        cost = {"poder2": 1, "poder4": 2}.get(k, 0)
        state.cubes[seat] -= cost
        power = {"poder2": 2, "poder4": 4, "poderx": unknown_power(state, seat)}.get(k, 0)
        res = res.model_copy(update={"card": a.card, "card_cubes": cost, "card_power": power})
        state.step = state.step.model_copy(update={"res": res})  # type: ignore[union-attr]
        # the card goes face up into the resolution: naming it reveals nothing hidden
        name = card_name(a.card)
        if k == "doble":  # (it costs no cube)
            text = msg(
                "{seat} plays {card}: the Power die will be rolled twice ({power}).",
                seat=who(seat),
                card=name,
                power=running(res),
            )
        elif cost:
            text = msg(
                "{seat} plays {card}, pays {cubes}: +{amount} ({power}).",
                seat=who(seat),
                card=name,
                cubes=cubes(cost),
                amount=power,
                power=running(res),
            )
        else:
            text = msg(
                "{seat} plays {card}: +{amount} ({power}).",
                seat=who(seat),
                card=name,
                amount=power,
                power=running(res),
            )
        return [
            ev(
                "power_card",
                text,
                seat=seat,
                card=a.card,
                cubes=cost,
                amount=power,
                power=res.total,
                cost=res.cost,
            )
        ]
    if isinstance(a, Cancel):
        return cancel(state, seat, res)
    if isinstance(a, Commit):
        return succeed(state, seat, res, [])
    assert isinstance(a, Roll)
    twice = res.card is not None and CARDS[res.card] == "doble"
    rolls = [state.rng.randint(1, 6) for _ in range(2 if twice else 1)]
    state.last_roll = rolls
    shown = " + ".join(str(r) for r in rolls)
    events = [
        ev(
            "power_die",
            msg("{seat} rolls the Power die: {rolls}.", seat=who(seat), rolls=shown),
            seat=seat,
            rolls=rolls,
        )
    ]
    if res.total + sum(rolls) >= res.cost:
        return succeed(state, seat, res, events)
    return fail(state, seat, res, events)


def cancel(state: RgState, seat: int, res: Resolution) -> list[Event]:
    """Give up before the end: everything goes back, the action is not used."""
    state.cubes[seat] += res.cubes + res.card_cubes
    if res.card is not None:
        state.hands[seat].append(res.card)
    if res.via is not None:
        state.hands[seat].append(res.via)
        give_back = 1
        state.cubes[seat] += give_back
        state.cube_supply -= give_back
    if not res.free:
        state.acted = res.was_acted
        state.die_used = res.die_was_used
    state.step = None
    return [
        ev(
            "cancel",
            msg(
                "{seat} gives up resolving the conflict on square {square} "
                "and takes back what they had added.",
                seat=who(seat),
                square=res.square,
            ),
            seat=seat,
            square=res.square,
        )
    ]


def spend(state: RgState, seat: int, res: Resolution) -> None:
    """The action itself is used, whatever the result."""
    if res.slot is not None:
        dec_die(state, res.slot)
    if res.via is not None:
        state.discard.append(res.via)


def succeed(state: RgState, seat: int, res: Resolution, events: list[Event]) -> list[Event]:
    """The conflict is resolved: the die's value in VP, the track, the helpers' rewards."""
    spend(state, seat, res)
    q = res.square
    del state.conflicts[q]
    state.cube_supply += res.cubes + res.card_cubes
    if res.card is not None:
        state.discard.append(res.card)
    if res.virtue:
        state.virtue[seat] -= res.virtue
        if state.virtue[seat] == 0:
            state.virtue_at[seat] = None
    state.vp[seat] += res.die
    state.resolved[seat] += 1
    state.step = None
    events = [
        *events,
        ev(
            "resolved",
            msg(
                "{seat} resolves the conflict on square {square}: +{vp} VP.",
                seat=who(seat),
                square=q,
                vp=res.die,
            ),
            seat=seat,
            square=q,
            die=res.die,
            cost=res.cost,
            power=res.total,
        ),
    ]
    for c in res.saints:
        owner = piece_owner(state, c)
        if owner is not None:
            state.vp[owner] += 1
            events.append(
                ev(
                    "saint_vp",
                    msg("{seat} scores 1 VP for their Saint.", seat=who(owner)),
                    seat=owner,
                )
            )
    if res.helper is not None:
        owner = piece_owner(state, res.helper)
        if owner is not None:
            got = give_cubes(state, owner, 2)
            events.append(
                ev(
                    "helper",
                    msg.n(
                        got,
                        "{seat} gets {n} cube for the help.",
                        "{seat} gets {n} cubes for the help.",
                        seat=who(owner),
                    ),
                    seat=owner,
                    cubes=got,
                )
            )
    return events


def fail(state: RgState, seat: int, res: Resolution, events: list[Event]) -> list[Event]:
    """The power die fell short: nothing spent is lost (but Double power), the Ragami leaves."""
    spend(state, seat, res)
    state.cubes[seat] += res.cubes + res.card_cubes
    if res.card is not None:
        if CARDS[res.card] == "doble":
            state.discard.append(res.card)
        else:
            state.hands[seat].append(res.card)
    events.append(
        ev(
            "failed",
            msg(
                "{seat} fails to resolve the conflict on square {square}.",
                seat=who(seat),
                square=res.square,
            ),
            seat=seat,
            square=res.square,
        )
    )
    choices = BUILDINGS_AT[res.square]
    if len(choices) == 1:
        state.ragamis[seat] = choices[0]
        state.step = None
        events.append(
            ev(
                "flee",
                msg(
                    "{seat}'s Ragami withdraws to {where}.",
                    seat=who(seat),
                    where=node_name(choices[0]),
                ),
                seat=seat,
                at=choices[0],
            )
        )
    else:
        state.step = Step(kind="flee")
    return events
