"""The built-in Ragami player: goes where a conflict is worth resolving and resolves it.

It looks only at what its seat may see (the board and its own hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core import Action
from rules.ragami.cards import CARDS
from rules.ragami.city import AROUND, BUILDINGS, BUILDINGS_AT, distance
from rules.ragami.legal import unknown_power, virtue_left
from rules.ragami.model import (
    Adjust,
    Cancel,
    CashCard,
    Commit,
    Convert,
    Done,
    EndTurn,
    Keep,
    Pick,
    Place,
    PlayCard,
    Power,
    PowerCard,
    RgState,
    Roll,
    SetDie,
    UseDie,
)
from rules.ragami.table import ragami_square

if TYPE_CHECKING:
    from rules.ragami.engine import RgEngine

# how much the player likes to hold each kind of card
KEEP = {
    "resolver": 9,
    "poder4": 8,
    "poder2": 7,
    "extra": 6,
    "ragami": 6,
    "poderx": 5,
    "doble": 4,
    "santos": 4,
    "cubos": 3,
    "demonios": 2,
    "ultimo": 2,
    "robar": 2,
    "virtud": 1,
    "ajuste": 1,
    "cambio": 1,
}
PLAY_NOW = {"santos", "cubos", "ultimo", "demonios"}


def choose(engine: RgEngine, state: RgState, seat: int) -> Action:
    """The built-in player's move."""
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if state.phase == "keep":
        return max(legal, key=lambda a: KEEP[CARDS[a.card]] if isinstance(a, Keep) else 0)
    if state.tasks:
        return _task(state, seat, legal)
    st = state.step
    if st is None:
        return _main(state, seat, legal)
    if st.kind == "resolve":
        return _resolve(state, seat, legal)
    return _step(state, seat, legal)


# ----------------------------------------------------------------------------- valuations


def _forbidden(state: RgState) -> frozenset[str]:
    return frozenset(str(q) for q in state.forbidden)


def _power(state: RgState, seat: int, square: int, helper: bool) -> float:
    """Power the player can bring to a conflict (the power die counted at its average)."""
    saints = sum(1 for q in state.saints if q == square)
    others = sum(1 for c, n in enumerate(state.ragamis) if n == str(square) and c != seat)
    p = saints + 2 * min(1, others + (1 if helper else 0)) + state.cubes[seat]
    b = state.virtue_at[seat]
    if b is not None and b in BUILDINGS_AT[square]:
        p += state.virtue[seat]
    cards = [CARDS[c] for c in state.hands[seat] if c not in state.fresh[seat]]
    best = 0
    for k in cards:
        best = max(
            best,
            {
                "poder4": 4,
                "poder2": 2,
                "poderx": unknown_power(state, seat),
                "doble": 5 if state.options.power_die else 0,
            }.get(k, 0),
        )
    return p + best + (2.5 if state.options.power_die else 0)


def _cost(state: RgState, square: int) -> int:
    return state.conflicts[square] + state.demons.count(square)


def _target_value(state: RgState, seat: int, square: int) -> float:
    """How good a conflict is to stand on: its VP if it can be afforded."""
    if square not in state.conflicts:
        return 0.0
    short = _cost(state, square) - _power(state, seat, square, False)
    die = state.conflicts[square]
    return die - max(0.0, short) * 2.0


def _node_value(state: RgState, seat: int, node: str) -> float:
    """How good a place is for the player's Ragami."""
    if node.isdigit():
        q = int(node)
        if q in state.conflicts:
            return 3.0 + _target_value(state, seat, q)
        if state.demons.count(q) and not any(s == q for s in state.saints):
            return 1.5 * state.demons.count(q)
    # near conflicts worth having
    best = 0.0
    forb = _forbidden(state)
    for q in state.conflicts:
        d = distance(node, str(q), forb)
        if d <= 4:
            best = max(best, (_target_value(state, seat, q) + 3.0) / (1 + d))
    return best


def _building_value(state: RgState, b: str) -> float:
    """How many conflicts, and how big, are around a building."""
    return sum(state.conflicts.get(q, 0) + 0.5 for q in AROUND[b] if q in state.conflicts)


# ----------------------------------------------------------------------------- decisions


def _task(state: RgState, seat: int, legal: list[Action]) -> Action:
    t = state.tasks[0]
    if t.kind == "saint":
        return max(legal, key=lambda a: state.conflicts.get(int(a.at), 0))  # type: ignore[union-attr]
    if t.kind in ("virtue", "ragami", "flee"):
        return max(legal, key=lambda a: _building_value(state, a.at))  # type: ignore[union-attr]
    if t.kind == "demon":
        mine = ragami_square(state, seat)

        def harm(a: Action) -> float:
            q = int(a.at)  # type: ignore[union-attr]
            if q == mine:
                return -10
            other = any(n == str(q) for c, n in enumerate(state.ragamis) if c != seat)
            return (3 if other and q in state.conflicts else 0) - (q in state.conflicts)

        return max(legal, key=harm)
    if t.kind == "set_die":
        return SetDie(value=6) if SetDie(value=6) in legal else legal[-1]
    if t.kind == "arrange":
        return max(legal, key=lambda a: (a.values[2], a.values[0]))  # type: ignore[union-attr]
    # prep_virtue
    at = state.virtue_at[seat]
    if Convert(what="virtue") in legal and (
        state.virtue[seat] >= 6 or _building_value(state, at or "A") == 0
    ):
        return Convert(what="virtue")
    best = max(BUILDINGS, key=lambda b: _building_value(state, b))
    if at is None or (
        _building_value(state, at) == 0
        and state.virtue[seat] <= 2
        and _building_value(state, best) > 0
    ):
        return Place(at=best) if Place(at=best) in legal else Done()
    return Done()


def _card_gain(state: RgState, seat: int, kind: str) -> float:
    """What a red-triangle card adds (Double power: worth most, it lets two dice roll)."""
    return {"poder4": 4, "poder2": 2, "poderx": unknown_power(state, seat), "doble": 7}.get(kind, 0)


def _card_ok(state: RgState, kind: str, cubes: int) -> bool:
    if kind == "doble":
        return state.options.power_die
    return cubes >= {"poder2": 1, "poder4": 2}.get(kind, 0)


def _plan(
    state: RgState, seat: int, need: int, virtue: int, card_played: bool, spare: int = 0
) -> tuple[int, bool]:
    """The power still missing after the player's way of adding virtue, a card and cubes,
    and whether Double power is in: exactly what ``_resolve`` will do."""
    need -= min(virtue, max(0, need))
    cubes = state.cubes[seat] - spare  # ``spare``: cubes a card costs before resolving
    twice = False
    if need > cubes and not card_played:
        kinds = [CARDS[c] for c in state.hands[seat] if c not in state.fresh[seat]]
        kinds = [k for k in kinds if _card_gain(state, seat, k) and _card_ok(state, k, cubes)]
        if kinds:
            k = max(kinds, key=lambda x: _card_gain(state, seat, x))
            twice = k == "doble"
            need -= 0 if twice else int(_card_gain(state, seat, k))
            cubes -= {"poder2": 1, "poder4": 2}.get(k, 0)
    need -= min(cubes, max(0, need))
    return need, twice


def _worth_rolling(state: RgState, need: int, twice: bool) -> bool:
    return state.options.power_die and (need <= 3 or (twice and need <= 7))


def _can_resolve_now(state: RgState, seat: int, spare: int = 0) -> bool:
    q = ragami_square(state, seat)
    if q is None or q not in state.conflicts:
        return False
    saints = sum(1 for x in state.saints if x == q)
    helper = any(n == str(q) for c, n in enumerate(state.ragamis) if c != seat)
    b = state.virtue_at[seat]
    virtue = state.virtue[seat] if b is not None and b in BUILDINGS_AT[q] else 0
    if state.cubes[seat] < spare:
        return False
    need, twice = _plan(state, seat, _cost(state, q) - saints - 2 * helper, virtue, False, spare)
    return need <= 0 or _worth_rolling(state, need, twice)


def _main(state: RgState, seat: int, legal: list[Action]) -> Action:
    if _can_resolve_now(state, seat):
        for a in legal:
            if isinstance(a, UseDie) and a.slot == 2 and not a.move:
                return a
    if _can_resolve_now(state, seat, spare=1):
        for a in legal:
            if isinstance(a, PlayCard) and CARDS[a.card] in ("resolver", "extra"):
                return a
    uses = [a for a in legal if isinstance(a, UseDie)]
    moves = [a for a in uses if a.move]
    here = state.ragamis[seat]
    if moves and here is not None:
        if ragami_square(state, seat) not in state.conflicts or not _can_resolve_now(state, seat):
            # the die whose own action is worth least to the player just now
            return min(moves, key=lambda a: (a.slot == 2, -state.dice[a.slot]))
    draw = UseDie(slot=1)
    if draw in legal and len(state.hands[seat]) < 2:
        return draw
    saint = UseDie(slot=0)
    if saint in legal and any(q in state.conflicts for q in range(1, 31)):
        return saint
    for a in legal:
        if isinstance(a, PlayCard) and CARDS[a.card] in PLAY_NOW:
            return a
        if (
            isinstance(a, PlayCard)
            and CARDS[a.card] == "ragami"
            and ragami_square(state, seat) not in state.conflicts
        ):
            return a
        if isinstance(a, CashCard) and KEEP[CARDS[a.card]] <= 1:
            return a
    if Convert(what="virtue") in legal and state.virtue[seat] >= 6:
        return Convert(what="virtue")
    if draw in legal:
        return draw
    return EndTurn()


def _resolve(state: RgState, seat: int, legal: list[Action]) -> Action:
    if Commit() in legal:
        return Commit()
    res = state.step.res  # type: ignore[union-attr]
    need = res.cost - res.total
    left = virtue_left(state, seat, res)
    if left:
        return Power(source="virtue", amount=min(left, need))
    cards = [a for a in legal if isinstance(a, PowerCard)]
    if cards and need > state.cubes[seat]:
        return max(cards, key=lambda a: _card_gain(state, seat, CARDS[a.card]))
    if state.cubes[seat]:
        return Power(source="cubes", amount=min(state.cubes[seat], need))
    twice = res.card is not None and CARDS[res.card] == "doble"
    if Roll() in legal and _worth_rolling(state, need, twice):
        return Roll()
    return Cancel()


def _step(state: RgState, seat: int, legal: list[Action]) -> Action:
    st = state.step
    assert st is not None
    if isinstance(legal[0], Keep):
        return max(legal, key=lambda a: KEEP[CARDS[a.card]])  # type: ignore[union-attr]
    if st.kind in ("saint", "saints"):
        if not st.piece:
            picks = [a for a in legal if isinstance(a, Pick)]
            if not picks:
                return Done()
            own = Pick(piece=f"S{seat}")
            return own if own in picks else picks[0]
        return max(legal, key=lambda a: state.conflicts.get(int(a.at), -1))  # type: ignore[union-attr]
    if st.kind in ("demon", "demons"):
        mine = ragami_square(state, seat)
        if not st.piece:
            picks = [a for a in legal if isinstance(a, Pick)]
            if not picks:
                return Done()
            if mine is not None and Pick(piece=f"D{mine}") in picks:
                return Pick(piece=f"D{mine}")
            on_conflict = [
                p for p in picks if p.piece != "D0" and int(p.piece[1:]) in state.conflicts
            ]
            return on_conflict[0] if on_conflict else picks[0]

        def spot(a: Action) -> float:
            q = int(a.at)  # type: ignore[union-attr]
            if q == mine:
                return -10
            other = any(n == str(q) for c, n in enumerate(state.ragamis) if c != seat)
            return (2 if other and q in state.conflicts else 0) - (q in state.conflicts)

        return max(legal, key=spot)
    if st.kind == "move":
        if not st.piece:
            own = Pick(piece=f"R{seat}")
            return own if own in legal else legal[0]
        return max(legal, key=lambda a: _node_value(state, seat, a.at))  # type: ignore[union-attr]
    if st.kind == "adjust":
        if not st.piece:
            return legal[0]
        return max(legal, key=lambda a: a.delta if isinstance(a, Adjust) else 0)
    if st.kind in ("virtue", "flee"):
        return max(legal, key=lambda a: _building_value(state, a.at))  # type: ignore[union-attr]
    if st.kind == "extra":
        for a in legal:
            if isinstance(a, UseDie) and a.slot == 2 and not a.move:
                return a
        return legal[0]
    return legal[0]
