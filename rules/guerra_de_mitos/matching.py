"""Which cards, players and oracles an ability's selector matches, and the amounts it counts."""

from __future__ import annotations

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.abilities import RESOLUTIONS, SUBS, abilities
from rules.guerra_de_mitos.facts import (
    ACTION,
    CHAR,
    EQUIP,
    EVENT,
    INVOC,
    PANTHEON,
    RESOURCE,
    all_facts,
    facts,
)
from rules.guerra_de_mitos.model import (
    BATTLE,
    DECK,
    DISCARD,
    GEAR,
    HAND,
    ORACLE,
    GdmState,
    Oracle,
    Step,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.guerra_de_mitos.primitives import Ability, Op, Per, Selector

CARD, PLAYER, ORACLE_T, NUMBER = "card", "player", "oracle", "number"


_KEYS: list[str] = []


def key_list() -> list[str]:
    """Every key a card or token can carry, in one order: a chosen key is its index here."""
    if not _KEYS:
        _KEYS.extend(sorted({k for f in all_facts().values() for k in f.keys}))
    return _KEYS


def ability_of(step: Step) -> Ability:
    """The ability a step resolves."""
    if step.card.startswith("res:"):
        return RESOLUTIONS[step.card[4:]]
    if step.card.startswith("sub:"):
        return SUBS[step.card[4:]][max(0, step.ability)]
    return abilities(step.card)[step.ability]


def oracle_code(seat: int, idx: int) -> int:
    """An oracle as one number (seat * 16 + index)."""
    return seat * 16 + idx


def oracle_at(st: GdmState, code: int) -> Oracle | None:
    """The oracle a code names, if it still exists."""
    seat, idx = divmod(code, 16)
    if seat >= len(st.players):
        return None
    ors = st.players[seat].oracles
    return ors[idx] if idx < len(ors) else None


def enemies(st: GdmState, seat: int) -> list[int]:
    """The seats that count as enemies now (the opponent of the confrontation, if any)."""
    if st.fight is not None and seat in (st.fight.a, st.fight.b):
        return [st.fight.b if seat == st.fight.a else st.fight.a]
    return [s for s in range(st.num_seats) if s != seat and st.players[s].alive]


def actor_char(st: GdmState, step: Step) -> int | None:
    """The character doing the ability: the card itself, or the bearer of an equipment."""
    if step.src is None or step.src not in st.cards:
        return None
    c = B.peek(st, step.src)
    if c.zone == GEAR:
        return c.on
    if "_bearer" in step.vars:
        return step.vars["_bearer"]
    return step.src


def card_power(st: GdmState, uid: int) -> int:
    """Power on a card (on an oracle's top card: the oracle's power)."""
    where = B.oracle_of(st, uid)
    if where is not None:
        return st.players[where[0]].oracles[where[1]].power
    return B.peek(st, uid).power


def _value(st: GdmState, step: Step, word: str) -> int | None:
    """A number named in a filter: a literal, a variable, or a card's PM (self/it)."""
    if word.lstrip("-").isdigit():
        return int(word)
    if word == "self":
        a = actor_char(st, step)
        return None if a is None else B.max_power(st, a)
    if word in ("it", "that"):
        u = step.picks.get(word)
        return None if u is None else B.max_power(st, u)
    return step.vars.get(word, 0)


def default_zones(step: Step) -> tuple[str, ...]:
    """Where targets are by default: the pantheons in influence, the battlefield in a fight."""
    if step.phase == "influence":
        return (ZP,)
    if step.phase == "confrontation":
        return (BATTLE,)
    return (ZP, BATTLE)


def _zone_ok(st: GdmState, step: Step, sel: Selector, uid: int) -> bool:
    c = B.peek(st, uid)
    f = B.fx(st, uid)
    z = sel.zone
    if z == "@discard":
        return c.zone == DISCARD
    if z == "@hand":
        return c.zone == HAND
    if z == "@oracle":
        o = B.oracle_of(st, uid)
        return o is not None and st.players[o[0]].oracles[o[1]].up
    if z == "@panor":
        o = B.oracle_of(st, uid)
        return c.zone == ZP or (o is not None and st.players[o[0]].oracles[o[1]].up)
    if z == "@pantheon":
        zones: tuple[str, ...] = (ZP,)
    elif z == "@battle":
        zones = (BATTLE,)
    elif z == "@inplay":
        zones = (ZP, BATTLE)
    else:
        zones = default_zones(step)
    if f.type in (RESOURCE, PANTHEON):
        return c.zone == ZP
    if c.zone == GEAR:
        return c.on is not None and B.peek(st, c.on).zone in zones
    return c.zone in zones


def _kind_ok(st: GdmState, sel: Selector, uid: int) -> bool:
    f = B.fx(st, uid)
    k = sel.kind
    if k is None or k == "card":
        return f.type != PANTHEON or k == "card"
    if k == "char":
        return f.type == CHAR
    if k == "mortal":
        return B.is_mortal(st, uid)
    if k == "god":
        return B.is_god(st, uid)
    if k == "resource":
        return f.type == RESOURCE
    if k == "equip":
        return f.type in (EQUIP, INVOC)
    if k == "weapon":
        return f.type == EQUIP and "arma" in f.keys
    if k == "armour":
        return f.type == EQUIP and "armadura" in f.keys
    if k == "invoc":
        return f.type == INVOC
    if k == "event":
        return f.type == EVENT
    if k == "pantheon":
        return f.type == PANTHEON
    if k == "godcard":
        return f.type in (CHAR, RESOURCE)
    return False


def _filters_ok(st: GdmState, step: Step, sel: Selector, uid: int) -> bool:
    c = B.peek(st, uid)
    for flt in sel.filters:
        if flt == "tired" and not c.tired:
            return False
        if flt == "ready" and c.tired:
            return False
        if flt == "exhausted" and card_power(st, uid) > 0:
            return False
        if flt == "haspower" and card_power(st, uid) <= 0:
            return False
        if flt == "notself" and uid in (step.src, actor_char(st, step)):
            return False
        if flt == "notthat" and uid == step.picks.get("that"):
            return False
        if flt == "created" and not c.created:
            return False
        if flt == "hasweapon" and not any("arma" in B.fx(st, g).keys for g in c.gear):
            return False
        if flt == "hasinvoc" and not any(B.fx(st, g).type == INVOC for g in c.gear):
            return False
        if flt == "noninvoc" and B.fx(st, uid).type == INVOC:
            return False
        if flt == "faced" and not any(  # glossary "Enfrentado": an enemy on the battlefield
            B.is_char(st, e) for s in enemies(st, c.ctrl) for e in B.controlled(st, s, (BATTLE,))
        ):
            return False
        if flt == "half" and card_power(st, uid) * 2 <= B.max_power(st, uid):
            return False
        if flt.startswith("key:") and not (set(flt[4:].split("|")) & B.keys(st, uid)):
            return False
        if flt.startswith("nokey:") and set(flt[6:].split("|")) & B.keys(st, uid):
            return False
        if flt.startswith("myth:"):
            want = flt[5:]
            if want == "own":
                want = B.pantheon_myth(st, step.seat) or ""
            if B.fx(st, uid).myth != want:
                return False
        if flt.startswith("id:") and c.card != flt[3:]:
            return False
        for pre, test in (
            ("pm<=", lambda a, b: a <= b),
            ("pm>=", lambda a, b: a >= b),
            ("pm<", lambda a, b: a < b),
            ("pm=", lambda a, b: a == b),
            ("cost<=", lambda a, b: a <= b),
            ("p<=", lambda a, b: a <= b),
        ):
            if flt.startswith(pre):
                v = _value(st, step, flt[len(pre) :])
                if v is None:
                    return False
                if pre == "cost<=":
                    mine = B.fx(st, uid).cost
                elif pre == "p<=":
                    mine = card_power(st, uid)
                    a = actor_char(st, step)
                    v = card_power(st, a) if a is not None and flt.endswith("self") else v
                else:
                    mine = B.max_power(st, uid)
                if not test(mine, v):
                    return False
                break
    return True


# Zones where ``match`` refuses a card before looking at it (its first tests): the hand, the
# design deck and the cards gone; the discard and the oracles unless the selector looks there.
_SKIP = frozenset((HAND, DECK, "gone"))


_POOL_SKIP = {
    "@discard": _SKIP | {ORACLE},
    "@oracle": _SKIP | {DISCARD},
    "@panor": _SKIP | {DISCARD},
}


_POOL_SKIP_OTHER = _SKIP | {DISCARD, ORACLE}


def pool(st: GdmState, sel: Selector) -> list[int]:
    """The uids ``match`` may accept, in table order, without looking up each one."""
    skip = _POOL_SKIP.get(sel.zone, _POOL_SKIP_OTHER)  # type: ignore[arg-type]
    return [u for u, c in B.warm(st, B.COLD - skip) if c.zone not in skip]  # type: ignore[attr-defined]


def match(st: GdmState, step: Step, sel: Selector, uid: int) -> bool:
    """Whether a card fits a selector for the step's seat."""
    c = B.peek(st, uid)
    if sel.who == "own" and c.ctrl != step.seat:
        return False
    if sel.who == "enemy" and c.ctrl not in enemies(st, step.seat):
        return False
    if sel.who == "other" and c.ctrl == step.seat:
        return False
    if sel.zone != "@discard" and c.zone == DISCARD:
        return False
    if c.zone in (HAND, DECK) or c.zone == "gone":
        return False
    if c.zone == ORACLE and sel.zone not in ("@oracle", "@panor"):
        return False
    if c.shielded and step.card[:4] not in ("res:", "sub:") and facts(step.card).type == ACTION:
        if _targets(step, sel):
            return False  # Los gatos de Ulthar: no action may choose it (effects on all still do)
    return (
        _kind_ok(st, sel, uid) and _zone_ok(st, step, sel, uid) and _filters_ok(st, step, sel, uid)
    )


def _targets(step: Step, sel: Selector) -> bool:
    """Whether ``sel`` chooses the targets of the step's operation (not "all", not a count)."""
    ops = ability_of(step).steps
    if step.pos >= len(ops):
        return True
    op = ops[step.pos]
    return sel is op.t and not op.all


def counted(st: GdmState, step: Step, per: Per) -> int:
    """An amount counted over the board."""
    n = sum(1 for u in pool(st, per.sel) if match(st, step, per.sel, u))
    return min(n, per.cap) * per.times


def amount(st: GdmState, step: Step, op: Op, target: int | None = None) -> int:
    """The operation's number now."""
    n = op.n
    if isinstance(n, int):
        return n
    if isinstance(n, Per):
        return counted(st, step, n)
    sign = -1 if n.startswith("-") else 1
    name = n.lstrip("-")
    if name == "INV" and target is not None:
        return sign * sum(1 for g in B.peek(st, target).gear if B.fx(st, g).type == INVOC)
    return sign * step.vars.get(name, 0)


def per_player(st: GdmState, seat: int, name: str) -> int:
    """Amounts that depend on each player (oracles, events in discard, characters at home)."""
    p = st.players[seat]
    if name == "ORA":
        return len(p.oracles)
    if name == "EVD":
        return min(3, sum(1 for u in p.discard if B.fx(st, u).type == EVENT))
    if name == "PAN":
        return sum(1 for u in B.controlled(st, seat, (ZP,)) if B.is_char(st, u))
    return 0
