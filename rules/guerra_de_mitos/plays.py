"""Playing an action card or using a card's ability: whether it is allowed now, who may pay,
and starting it."""

from __future__ import annotations

from rules.core import Text
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import candidates as C
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos import verbs as V
from rules.guerra_de_mitos.abilities import abilities
from rules.guerra_de_mitos.facts import (
    ACTION,
    CHAR,
    EQUIP,
    INVOC,
    PANTHEON,
)
from rules.guerra_de_mitos.lines import name_of, say, tag
from rules.guerra_de_mitos.model import (
    BATTLE,
    GdmState,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")


def lend(st: GdmState, seat: int) -> None:
    """An action begins: what ``seat`` borrowed before it goes back once it has resolved."""
    for u, c in list(B.raw_items(st)):  # read shared records; copy only those that change
        if "borrow" in c.marks and c.ctrl == seat and "lent" not in c.marks:
            st.cards[u].marks.append("lent")


def ability_allowed(st: GdmState, seat: int, uid: int, idx: int, phase: str) -> bool:
    """A card in play may use this ability now (phase, ready, once a turn, not forbidden)."""
    c = B.peek(st, uid)
    abs_ = abilities(c.card)
    if idx >= len(abs_) or c.ctrl != seat:
        return False
    ab = abs_[idx]
    if ab.phase == "any":
        # Huitzilopochtli: the ability copied this turn, with its own phase and conditions
        got = C.copied_ability(st, uid, ab)
        if got is None:
            return False
        ab = abilities(got[0])[got[1]]
    own_phase = ab.phase
    if own_phase == "influence" and "konibori" in c.marks:
        own_phase = "confrontation"  # Konibori: this turn the ability belongs to the confrontation
    if own_phase != phase or idx in c.used or idx in c.muted or c.silenced:
        return False
    f = B.fx(st, uid)
    if c.tired and not ab.when_tired:
        return False
    if f.type == CHAR:
        if st.flags.get("no_god_abilities") and B.is_god(st, uid):
            return False
        if st.flags.get("no_mortal_abilities") and B.is_mortal(st, uid):
            return False
    if f.type in (EQUIP, INVOC) and st.flags.get("no_equip_abilities"):
        return False
    if f.type == PANTHEON and st.flags.get("no_pantheon_abilities"):
        return False
    where = c.zone
    if f.type in (EQUIP, INVOC):
        if c.on is None:
            return False
        where = B.peek(st, c.on).zone
        if B.peek(st, c.on).tired and f.type == INVOC and False:
            return False
    moves_self = any(op.verb == "battle" and op.t.special in ("self", "bearer") for op in ab.effect)
    if phase == "influence":
        if where != ZP:
            return False
    else:
        fighting = (
            st.fight is not None and seat in (st.fight.a, st.fight.b) and st.fight.stage == "act"
        )
        if not fighting:
            return False
        if ab.cond == "in_pantheon" and where != ZP:
            return False
        if ab.cond == "fought":
            holder = c.on if c.on is not None else uid
            if not B.peek(st, holder).fought or where != ZP:
                return False
        if f.type in (CHAR, EQUIP, INVOC):
            if where != BATTLE and not (moves_self and where == ZP):
                return False
        elif not any(B.is_char(st, u) for u in B.controlled(st, seat, (BATTLE,))):
            return False
    return C.possible(st, seat, uid, c.card, idx, phase)


def action_allowed(st: GdmState, seat: int, uid: int, idx: int, phase: str) -> bool:
    """An action card in hand may be played now: its phase, its cost, a possible effect."""
    c = B.peek(st, uid)
    f = B.fx(st, uid)
    if f.type != ACTION:
        return False
    abs_ = abilities(c.card)
    if idx >= len(abs_) or abs_[idx].phase != phase:
        return False
    n = B.cost(st, seat, uid)
    if phase == "influence":
        if st.players[seat].reserve < n:
            return False
    else:
        fighting = (
            st.fight is not None and seat in (st.fight.a, st.fight.b) and st.fight.stage == "act"
        )
        if not fighting:
            return False
        mine = [u for u in B.controlled(st, seat, (BATTLE,)) if B.is_char(st, u)]
        if not mine:
            return False
        if "entorno" in f.keys:
            if sum(B.peek(st, u).power for u in mine) < n:
                return False
        elif n > 0 and not any(B.peek(st, u).power >= n for u in mine):
            return False
        if st.flags.get("fight:jason") and not any(B.peek(st, u).power >= 1 for u in mine):
            return False
    return C.possible(st, seat, uid, c.card, idx, phase)


def payers(st: GdmState, seat: int, uid: int) -> list[int]:
    """Characters that may pay an action's cost in a confrontation."""
    n = B.cost(st, seat, uid)
    mine = [u for u in B.controlled(st, seat, (BATTLE,)) if B.is_char(st, u)]
    if "entorno" in B.fx(st, uid).keys:
        return [u for u in mine if B.peek(st, u).power >= 1] if n else mine[:1]
    return [u for u in mine if B.peek(st, u).power >= n]


def play_action(st: GdmState, seat: int, uid: int, idx: int, phase: str, payer: int | None) -> None:
    """Pay an action card's cost, discard it, and resolve it."""
    n = B.cost(st, seat, uid)
    f = B.fx(st, uid)
    p = st.players[seat]
    p.hand.remove(uid)
    if phase == "influence":
        V.lose_reserve(st, seat, n)
    rest = 0
    if phase != "influence":
        lend(st, seat)
        if "entorno" in f.keys:
            # Entorno: the named character pays 1P, the player takes the rest 1P at a time
            # from the characters of their army.
            if n > 0 and payer is not None:
                st.cards[payer].power -= 1
                rest = n - 1
        elif payer is not None:
            st.cards[payer].power -= n
    B.to_discard(st, uid)
    say(st, None, _played(st, seat, name_of(f.id), n, payer, phase))
    V.begin(st, seat, uid, f.id, idx, phase)
    if phase != "influence":
        _fight_taxes(st, seat, uid)
        if rest > 0:
            V.begin(st, seat, uid, "sub:entorno", 0, phase, {"N": rest})
    R.run(st)


def _played(st: GdmState, seat: int, card: Text, n: int, payer: int | None, phase: str) -> Text:
    """The line that tells an action card played, with how its cost was paid."""
    who = tag(seat)
    if n <= 0:
        return msg("{who} plays {card}", who=who, card=card)
    if phase == "influence":
        return msg("{who} plays {card} (pays {cost}P from their reserve)", who=who, card=card, cost=n)
    if payer is None:
        return msg("{who} plays {card} (cost {cost}P)", who=who, card=card, cost=n)
    return msg("{who} plays {card} (cost {cost}P, paid by {payer})", who=who, card=card, cost=n,
               payer=name_of(B.peek(st, payer).card))


def _fight_taxes(st: GdmState, seat: int, src: int) -> None:
    """Navíos de Jason and Chicomecoatl: extra costs on confrontation actions.

    Called once the action's own step is on the stack, so that Jason's 1P (the player
    chooses which of their characters on the battlefield pays it) is paid before it resolves.
    """
    if st.flags.get("fight:jason"):
        mine = [u for u in B.controlled(st, seat, (BATTLE,)) if B.is_char(st, u)]
        if any(st.cards[u].power > 0 for u in mine):
            V.begin(st, seat, src, "sub:jason", 0, "confrontation")
    if st.flags.get(f"fight:actiontax:{seat}"):
        V.lose_reserve(st, seat, 1)


def use_ability(st: GdmState, seat: int, uid: int, idx: int, phase: str) -> None:
    """Mark the ability used and resolve it."""
    c = st.cards[uid]
    c.used.append(idx)
    say(st, None, msg("{who} uses {card}", who=tag(seat), card=name_of(c.card)))
    V.begin(st, seat, uid, c.card, idx, phase)
    if phase == "confrontation":
        lend(st, seat)
        _fight_taxes(st, seat, uid)
    R.run(st)
