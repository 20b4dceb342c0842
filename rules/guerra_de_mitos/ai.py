"""The built-in Guerra de Mitos player: plans transfers, then picks the best-looking move.

Transfers follow a plan (put into play what it can, feed the oracle closest to paying for a
face-up card, keep a safe reserve). Everything else is one move of lookahead over a score of
the board: reserves, power and strength on the table, the battle's projected outcome.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.core import Action
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.model import (
    BATTLE,
    Assign,
    Bid,
    Challenge,
    DropOracle,
    Enter,
    GdmState,
    Meditate,
    Move,
    Pass,
    Starter,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP

if TYPE_CHECKING:
    from rules.guerra_de_mitos.engine import GdmEngine

SAFE_RESERVE = 9
LOW_RESERVE = 3  # kept by a player with no character to fight (``_floor``)
MAX_TRIED = 14


def score(st: GdmState, seat: int) -> float:
    """How good the board looks for ``seat``."""
    with B.reading(st):  # pure reading: maximum power and keys walk the cards in play only
        return _score(st, seat)


def _score(st: GdmState, seat: int) -> float:
    if st.finished:
        return 1000.0 if seat in st.winners else -1000.0
    me = st.players[seat]
    if not me.alive:
        return -1000.0
    others = [p.reserve for s, p in enumerate(st.players) if s != seat and p.alive]
    val = me.reserve * 1.0 - (max(others) if others else 0) * 0.8 + me.vp * 30
    for u, c in B.warm(st, (ZP, BATTLE)):  # type: ignore[attr-defined]
        if c.zone not in (ZP, BATTLE) or not B.is_char(st, u):
            continue
        w = 1 if c.ctrl == seat else -1
        s = max(0, B.strength(st, u))
        pm = B.max_power(st, u)
        val += w * (0.45 * min(c.power, pm) + 0.35 * s + 0.3 * pm)
        if c.tired and c.zone == ZP:
            # a tired character cannot be assigned; counted in every phase, so that the pass
            # which ends the influence phase does not look like it readies them
            val -= w * 0.6 * s
    for o in me.oracles:
        val += 0.6 * o.power
    val += 0.4 * len(me.hand)
    f = st.fight
    if f is not None and seat in (f.a, f.b) and f.stage == "act":
        other = f.b if seat == f.a else f.a
        val += 1.0 * (B.army(st, seat) - B.army(st, other))
    return val


def choose(engine: GdmEngine, st: GdmState, seat: int) -> Action:
    """The move the built-in player makes now."""
    legal = engine.legal_actions(st, seat)
    if len(legal) == 1:
        return legal[0]
    if st.phase == "bid" and not st.stack:
        return Bid(amount=1)
    if st.phase == "starter" and not st.stack:
        return Starter(seat=seat)
    if st.phase == "transfer" and not st.stack:
        return _transfer(st, seat, legal)
    if st.phase == "challenge" and not st.stack:
        weakest = min(
            (a for a in legal if isinstance(a, Challenge)), key=lambda a: _strength_home(st, a.seat)
        )  # type: ignore[attr-defined]
        return weakest
    if st.phase == "fight" and st.fight is not None and st.fight.stage == "assign" and not st.stack:
        return _assign(st, seat, legal)
    if st.phase == "influence" and not st.stack:
        rest = _rest(st, legal)
        if rest is not None:
            return rest
    return _best(engine, st, seat, legal)


def _rest(st: GdmState, legal: list[Action]) -> Meditate | None:
    """Meditate with the strongest character too weak in power to be sent to fight.

    The one-move lookahead of ``_best`` sees only that meditating tires a character this turn,
    never that it fights the next: without this a character left with 1P stays so for ever,
    and two players who both have only such characters never fight again.
    """
    weak = [
        a for a in legal
        if isinstance(a, Meditate)
        and B.peek(st, a.uid).power < 2
        and B.max_power(st, a.uid) > B.peek(st, a.uid).power
        and B.strength(st, a.uid) > 0
    ]
    return max(weak, key=lambda a: B.strength(st, a.uid), default=None)


def _strength_home(st: GdmState, seat: int) -> int:
    return sum(max(0, B.strength(st, u)) for u in B.controlled(st, seat, (ZP,)) if B.is_char(st, u))


def _best(engine: GdmEngine, st: GdmState, seat: int, legal: list[Action]) -> Action:
    """One move of lookahead; passing is the baseline."""
    seen: set[tuple[str, int]] = set()
    tried = []
    for a in legal:  # one payer per action card is enough to judge it
        k = (a.kind, getattr(a, "uid", -1) if a.kind == "play" else id(a))
        if k in seen:
            continue
        seen.add(k)
        tried.append(a)
    # abilities and actions first, then equipment, meditation and passing
    order = {"use": 0, "play": 0, "target": 0, "choose": 0, "equip": 1, "meditate": 2, "pass": 3}
    tried.sort(key=lambda a: order.get(a.kind, 1))
    if len(tried) > MAX_TRIED:
        tried = tried[: MAX_TRIED - 1] + [a for a in tried if isinstance(a, Pass)][:1]
    best, best_val = None, -1e9
    for a in tried:
        nxt = engine.copy_state(st)
        engine.do(nxt, seat, a)
        v = score(nxt, seat)
        if isinstance(a, Pass):
            v += 0.05  # prefer to stop when nothing helps
        if v > best_val:
            best, best_val = a, v
    return best if best is not None else legal[0]


def _assign(st: GdmState, seat: int, legal: list[Action]) -> Action:
    """Send the strongest ready characters that can afford it; pass when behind or done."""
    f = st.fight
    assert f is not None
    other = f.b if seat == f.a else f.a
    mine = sum(
        max(0, B.strength(st, u)) for u in B.controlled(st, seat, (BATTLE,)) if B.is_char(st, u)
    )
    theirs_home = _strength_home(st, other) if other not in f.passed else 0
    theirs = sum(
        max(0, B.strength(st, u)) for u in B.controlled(st, other, (BATTLE,)) if B.is_char(st, u)
    )
    options = [a for a in legal if isinstance(a, Assign)]
    options = [a for a in options if B.peek(st, a.uid).power >= 2 and B.strength(st, a.uid) > 0]
    if not options:
        return Pass()
    pick = max(options, key=lambda a: B.strength(st, a.uid))
    lead = mine - theirs - theirs_home  # the margin if they sent every character they have
    if lead > 2 and not _knocks_out(st, other, lead, B.strength(st, pick.uid)):
        return Pass()
    total = mine + sum(B.strength(st, a.uid) for a in options)
    if total < theirs and other in f.passed:
        return Pass()  # cannot win this fight: keep the power
    return pick


def _knocks_out(st: GdmState, other: int, lead: int, more: int) -> bool:
    """Whether ``more`` strength on top of a winning ``lead`` takes the opponent's reserve
    to 0 (Olvido: the loser loses the difference from it) when the lead alone does not."""
    reserve = st.players[other].reserve
    return lead < reserve <= lead + more


def _transfer(st: GdmState, seat: int, legal: list[Action]) -> Action:
    """Discard a costly top (step B comes first), put into play, then feed the oracle
    nearest to paying for its face-up card."""
    p = st.players[seat]
    drops = [a for a in legal if isinstance(a, DropOracle)]
    for a in drops:
        o = p.oracles[a.oracle]
        if o.up and o.cards and B.fx(st, o.cards[0]).cost > 8:
            return a
    enters = [a for a in legal if isinstance(a, Enter)]
    if enters:
        return max(enters, key=lambda a: B.fx(st, st.players[seat].oracles[a.oracle].cards[0]).cost)
    moves = {(a.src, a.dst) for a in legal if isinstance(a, Move)}
    best, need = None, 99
    for i, o in enumerate(p.oracles):
        if not o.up or not o.cards:
            continue
        top = o.cards[0]
        if not (B.is_char(st, top) or B.is_resource(st, top)):
            continue
        lack = B.cost(st, seat, top) - o.power
        if 0 < lack < need:
            best, need = i, lack
    if best is not None:
        # first from oracles that are not worth it, then from the reserve
        for j, o in enumerate(p.oracles):
            if j != best and o.power > 0 and not _worth(st, seat, j) and (j, best) in moves:
                return Move(src=j, dst=best)
        # from the reserve: above its floor, or to bring the card in this very transfer
        # while keeping a few points (a reserve held for ever brings nothing in)
        done_now = need <= p.moves and p.reserve - need >= LOW_RESERVE
        if (p.reserve > _floor(st, seat) or done_now) and (-1, best) in moves:
            return Move(src=-1, dst=best)
    return Pass()


def _floor(st: GdmState, seat: int) -> int:
    """The reserve kept when feeding an oracle: a safe one while the player has a character
    that can fight; without one, a player who keeps it never fights again (nor, when the
    others do the same, does anyone), so it spends down to a few points."""
    fighters = any(
        B.is_char(st, u) and B.strength(st, u) > 0 for u in B.controlled(st, seat, (ZP, BATTLE))
    )
    return SAFE_RESERVE if fighters else LOW_RESERVE


def _worth(st: GdmState, seat: int, idx: int) -> bool:
    o = st.players[seat].oracles[idx]
    return bool(o.up and o.cards and (B.is_char(st, o.cards[0]) or B.is_resource(st, o.cards[0])))
