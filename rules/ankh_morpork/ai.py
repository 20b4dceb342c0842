"""The built-in player: it scores cards by its own personality's goal and takes each
further choice greedily, one step ahead, on a copy of the game whose die and deck it
reshuffles so it never peeks at what is hidden."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.ankh_morpork import city, scoring
from rules.ankh_morpork.board import DIMWELL, DOLLY, ISLE, SCOURS, SHADES, UNREAL
from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.model import AmState, Interrupt, Pay, Play, Power, Skip
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.core import Action, Rng

if TYPE_CHECKING:
    from rules.ankh_morpork.engine import AmEngine

# How much each symbol helps each goal (before looking at the board).
_SYMBOL_TASTE: dict[str, dict[str, float]] = {
    "spies": {"minion": 8, "building": 1, "assassinate": 1, "trouble": 1, "scroll": 2, "event": -1, "another": 3},
    "control": {"minion": 6, "building": 6, "assassinate": 3, "trouble": 1, "scroll": 2, "event": -1, "another": 3},
    "trouble": {"minion": 5, "building": 0, "assassinate": -2, "trouble": -4, "scroll": 2, "event": 1, "another": 3},
    "wealth": {"minion": 1, "building": 2, "assassinate": 0, "trouble": 0, "scroll": 2, "event": -2, "another": 3},
    "deck": {"minion": 3, "building": 3, "assassinate": 1, "trouble": 3, "scroll": 2, "event": -1, "another": 3},
}
_SCROLL_TASTE: dict[str, dict[str, float]] = {
    "loan": {"wealth": -4, "deck": 3},
    "draw2": {"deck": 4}, "draw3": {"deck": 5}, "draw4": {"deck": 6},
    "steal_two_each": {"wealth": 6}, "steal_three": {"wealth": 4}, "pay_per_trouble": {"wealth": 4},
    "place_trouble": {"trouble": 8, "deck": -3}, "spread_trouble": {"trouble": 7, "deck": -3},
    "quiet_minion": {"spies": 8, "control": 5}, "near_unreal": {"spies": 5, "control": 4},
    "minion_at_trouble": {"spies": 5, "control": 4, "trouble": 2}, "minion_at_building": {"control": 5},
    "move_anywhere": {"spies": 4, "control": 3}, "half_price": {"control": 6, "wealth": 3},
    "buy_calm": {"control": 5}, "buy_troubled": {"control": 5}, "two_cards_play": {"spies": 5, "control": 5,
                                                                                   "trouble": 5, "wealth": 5, "deck": 5},
}


def goal(st: AmState, s: int) -> str:
    """The seat's personality goal."""
    return PERSONALITIES[st.personality[s]].goal


def evaluate(st: AmState, s: int) -> float:
    """How good ``st`` looks for ``s``, by its own personality first and by points second."""
    if st.finished:
        return 1e6 if s in st.winners else -1e6 + scoring.points(st, s)
    g = goal(st, s)
    v = 0.2 * scoring.points(st, s) + 0.8 * len(st.hands[s])
    if g == "spies":
        v += 30 * scoring.spy_areas(st, s)
    elif g == "control":
        v += 30 * scoring.controlled(st, s)
        for a in range(12):
            if st.demons[a]:
                continue
            mine = st.minions[a][s] + (st.buildings[a] == s)
            rival = max([st.minions[a][o] + (st.buildings[a] == o) for o in range(st.num_seats) if o != s] + [st.trolls[a]])
            v += 4 * max(-2, min(1, mine - rival))
    elif g == "trouble":
        v += 30 * sum(st.trouble)
    elif g == "wealth":
        v += 3 * scoring.wealth(st, s)
    else:  # Vimes: keep the city calm so the deck, not riots, ends the game
        v -= 6 * sum(st.trouble) + 0.3 * len(st.deck)
    return v


def card_value(st: AmState, s: int, c: str) -> float:
    """A static guess of what playing card ``c`` is worth to ``s`` now."""
    g = goal(st, s)
    card = CARDS[c]
    taste = _SYMBOL_TASTE[g]
    v = 0.0
    for sym in card.symbols:
        if sym == "money":
            v += card.money * (1.5 if g == "wealth" else 0.6)
        elif sym == "scroll":
            v += _SCROLL_TASTE.get(card.scroll, {}).get(g, taste["scroll"])
        elif sym == "assassinate" and not any(st.trouble):
            continue
        elif sym == "building" and (city.building_supply(st, s) == 0 or st.money[s] < 6):
            continue
        elif sym in taste:
            v += taste[sym]
    return v


def power_wanted(st: AmState, s: int, a: int) -> bool:
    """Whether to use area card ``a`` now."""
    g = goal(st, s)
    if a in (DOLLY, DIMWELL):
        return g in ("spies", "control") and st.money[s] >= 6
    if a == SHADES:
        return g == "trouble"
    if a == ISLE:
        return g == "deck" and st.money[s] >= 4
    if a == SCOURS:
        return len(st.hands[s]) > 3 or g == "wealth"
    return a == UNREAL or True


def choose(engine: AmEngine, st: AmState, s: int) -> Action:
    """The AI's move for seat ``s``."""
    legal = engine.legal_actions(st, s)
    if len(legal) == 1:
        return legal[0]
    f = st.stack[-1]
    if f.kind == "react":
        return next((a for a in legal if isinstance(a, Interrupt)), legal[-1])
    if f.kind in ("turn", "another", "double"):
        powers = [a for a in legal if isinstance(a, Power) and power_wanted(st, s, a.area)]
        if powers:
            return powers[0]
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            best = max(plays, key=lambda a: card_value(st, s, a.card))
            if f.kind == "turn" or card_value(st, s, best.card) > 0:
                return best
        return next((a for a in legal if isinstance(a, Skip)), legal[0])
    if f.kind == "small_gods":
        if st.money[s] >= 8:
            return legal[0]
        return legal[-1]
    # One step ahead on a copy whose die and hidden deck are reshuffled.
    sim = engine.copy_state(st)
    sim.rng = Rng(seed=st.rng.seed * 7919 + st.rng.draws)
    sim.rng.shuffle(sim.deck)
    sim.rng.shuffle(sim.event_deck)
    best_a, best_v = legal[0], float("-inf")
    for a in legal:
        if isinstance(a, Interrupt):  # Doctor Mossy Lawn: keep it for the rare good moment
            continue
        nxt, _ = engine.apply(sim, s, a)
        v = evaluate(nxt, s)
        if isinstance(a, Pay):
            v -= 0.5
        if v > best_v:
            best_a, best_v = a, v
    return best_a
