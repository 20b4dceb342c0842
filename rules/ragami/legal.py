"""What the turn player may do now: the legal actions of the main menu and of each step of a
many-step action."""

from __future__ import annotations

from rules.core import Action
from rules.ragami.cards import CARDS, POWER_CARDS, kind_of
from rules.ragami.city import BUILDINGS, BUILDINGS_AT, SQUARES, street_reach
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
    TOTAL_DEMONS,
    demon_dests,
    last_players,
    ragami_dests,
    ragami_square,
    saint_dests,
)

HAND_LIMIT = 3


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
