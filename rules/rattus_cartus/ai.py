"""The built-in player: keeps its rats under the nuns it expects, and plays to its strengths."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rules.core import Action
from rules.rattus_cartus.cards import CLASSES, KIND, NUN_ROW, NUNS, building_of, supply_of
from rules.rattus_cartus.model import (
    Choose,
    Discard,
    Done,
    Enter,
    Give,
    Pass,
    Peek,
    Play,
    RcState,
    SupplyChoice,
    Undo,
)
from rules.rattus_cartus.table import rat_value, sort_cards

if TYPE_CHECKING:
    from rules.rattus_cartus.engine import RcEngine

# 168 nuns on 84 population cards make two a card on average, but a row of five often
# shows far fewer: an unseen card is counted below the average, to be safe.
CAUTIOUS_NUNS = 1.2


def expected_nuns(state: RcState, seat: int) -> float:
    """The nuns the seat can count on: what it has seen, and a cautious guess for the rest."""
    seen = state.peeks[seat]
    return sum(NUNS[state.nuns[p]] for p in seen) + CAUTIOUS_NUNS * (NUN_ROW - len(seen))


def danger(state: RcState, seat: int) -> float:
    """Rats over the expected nuns (negative: room to spare)."""
    return rat_value(state, seat) - expected_nuns(state, seat)


def rat_worth(state: RcState, seat: int) -> float:
    """What giving back one rat is worth now: a lot near the limit, little far below it."""
    d = danger(state, seat)
    return 3.0 if d > -2 else 1.5 if d > -4 else 0.4


def card_worth(state: RcState, seat: int, card: str) -> float:
    """How much the seat wants to keep a card."""
    k = KIND[card]
    if card in NUNS:
        return 1.0 + 0.1 * state.influence[seat][CLASSES.index(k)]
    treasury = "tesoro" in state.in_play
    return {"joker": 2.0, "espada": 1.2, "flauta": 0.8, "salvo": 0.4,
            "oro": 1.8 if treasury else 0.1}[k]


def choose(engine: RcEngine, state: RcState, seat: int) -> Action:
    """The built-in player's move."""
    legal = engine.legal_actions(state, seat)
    if state.phase == "supply":
        return max(legal, key=lambda a: _supply_value(state, seat, a))
    if state.phase == "enter":
        return _enter_step(state, seat, legal)
    t = state.tasks[0]
    if t.kind == "victim":
        if t.duel == "espada":
            return max(legal, key=lambda a: len(state.hands[a.seat]) if isinstance(a, Choose) else 0)
        return max(legal, key=lambda a: sum(state.influence[a.seat]) if isinstance(a, Choose) else 0)
    if t.kind in ("give", "tower"):
        return min(legal, key=lambda a: card_worth(state, seat, a.card) if isinstance(a, Give) else 0)
    if t.kind == "hospital":
        cards = [a for a in legal if isinstance(a, Discard)]
        if cards and danger(state, seat) > -3:
            cheapest = min(cards, key=lambda a: card_worth(state, seat, a.card))
            if card_worth(state, seat, cheapest.card) < rat_worth(state, seat):
                return cheapest
        return Done()
    peeks = [a for a in legal if isinstance(a, Peek)]
    return peeks[0] if peeks else legal[0]


def _supply_value(state: RcState, seat: int, a: Action) -> float:
    assert isinstance(a, SupplyChoice)
    sup = supply_of(state.row[a.card])
    fresh = NUN_ROW - len(state.peeks[seat])
    v = sup.draw * 0.9 + min(sup.rats, rat_value(state, seat)) * rat_worth(state, seat)
    if sup.peeks and fresh:
        v += 1.2
    # among equal options, the first unseen nun card
    return v - (a.peek or 0) * 0.001


# ----------------------------------------------------------------------------- entering


def _action_value(state: RcState, seat: int, b: int, premium: bool, k: int) -> float:
    """What taking a building's action is worth to the seat."""
    bd = building_of(state.row[b])
    if state.round >= state.rounds:
        return 1.5 if premium else 0.0
    n = bd.premium if premium else bd.standard
    rw = rat_worth(state, seat)
    rats = rat_value(state, seat)
    e = bd.effect
    if e == "draw":
        return 0.6 * n
    if e == "brew":
        return 0.6 * (k // (1 if premium else 2))
    if e == "take":
        return n * {"joker": 1.5, "salvo": 0.3, "espada": 0.7, "oro": 0.9, "flauta": 0.5}[bd.take]
    if e == "rats":
        return min(n, rats) * rw
    if e == "hospital":
        return (min(1, rats) * rw if premium else 0.0) + 0.3 * n * (rw > 1)
    if e == "vp":
        return 1.0 * n
    if e == "peek":
        return 0.8 * min(n, NUN_ROW - len(state.peeks[seat]))
    if e == "tower":
        return 2.0 if premium else 0.4
    return 0.0


def plan(state: RcState, seat: int) -> tuple[int, list[str]]:
    """The building to enter and the cards to play there (stable while the cards are picked)."""
    hand = sort_cards(state.hands[seat])
    margin = -danger(state, seat)
    best: tuple[float, int, list[str]] = (float("-inf"), 0, [])
    for b, card in enumerate(state.row):
        bd = building_of(card)
        c = CLASSES.index(bd.cls)
        others = state.slots[b]
        cards = [x for x in hand if KIND[x] == bd.cls or KIND[x] == "joker"]
        # off-class cards bring influence but a rat each: only with rats well under the nuns
        spare = int(margin) - 3
        off = [x for x in hand if x in NUNS and KIND[x] != bd.cls]
        if spare > 0:
            cards += off[:spare]
        if others:
            cards += [x for x in hand if KIND[x] == "espada"]
            if rat_value(state, seat):
                cards += [x for x in hand if KIND[x] == "flauta"]
        k = sum(1 for x in cards if x in NUNS or KIND[x] == "joker")
        rats = sum(1 for x in cards if x in NUNS and KIND[x] != bd.cls)
        # another seat's strength is hidden: the number of cards it played is the public bound
        top = max((len(state.played[s]) for s in others), default=-1)
        premium = k > top
        lead = max(state.influence[s][c] for s in range(state.num_seats) if s != seat)
        mine = state.influence[seat][c]
        # influence matters most where a majority is still open
        w = 1.4 if mine + k >= lead - 2 else 0.8
        v = k * w + _action_value(state, seat, b, premium, k) - rats * rat_worth(state, seat)
        if v > best[0]:
            best = (v, b, cards)
    return best[1], best[2]


def _enter_step(state: RcState, seat: int, legal: list[Action]) -> Action:
    b, cards = plan(state, seat)
    if state.entering < 0:
        if any(isinstance(a, Pass) for a in legal) and not state.order \
                and state.round < state.rounds:
            return Pass()
        return Enter(building=b)
    if state.entering != b:
        return Undo()
    # the plan names cards; the menu offers one card of each kind: play the one offered
    offered = {KIND[a.card]: a for a in legal if isinstance(a, Play)}
    wanted = Counter(KIND[c] for c in cards)
    wanted.subtract(KIND[c] for c in state.picking)
    for t, k in wanted.items():
        if k > 0 and t in offered:
            return offered[t]
    return Done()
