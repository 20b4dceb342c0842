"""The interpreter: resolves an ability's operations one by one, asking for each choice.

An ability being resolved is a ``Step`` on ``state.stack``. ``run`` carries out every
operation that needs no choice and stops at the first one that does; the pending seat then
answers with ``Target`` (a card), ``Choose`` (a player, an oracle, a number) or ``Pass``
(to stop an optional "up to" choice).
"""

from __future__ import annotations

from rules.core import Text, seat_name
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
    norm_key,
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
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")

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


def sub_options(st: GdmState, step: Step) -> list[int]:
    """The follow-up options a player may choose (those with a possible effect)."""
    return [
        i
        for i in range(len(SUBS[step.card[4:]]))
        if possible(st, step.seat, step.src, step.card, i, step.phase)
    ]


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


# ----------------------------------------------------------------------------- context


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


def _pool(st: GdmState, sel: Selector) -> list[int]:
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
    n = sum(1 for u in _pool(st, per.sel) if match(st, step, per.sel, u))
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


# ----------------------------------------------------------------------------- power


def gain_reserve(st: GdmState, seat: int, n: int) -> int:
    """Add power to a reserve, unless a rule forbids it; returns what was added."""
    if n <= 0:
        return 0
    pan = st.players[seat].pantheon
    if B.statics(st, pan, "nogain"):
        return 0
    if st.flags.get("no_reserve_gain") and st.phase == "influence":
        return 0
    if st.lasting.get("gain_cap"):
        n = min(n, 1)
    st.players[seat].reserve += n
    return n


def lose_reserve(st: GdmState, seat: int, n: int, by: int | None = None) -> int:
    """Take power from a reserve (it may go to 0 or below: Olvido)."""
    if n <= 0:
        return 0
    if (
        by is not None
        and by != seat
        and st.phase == "influence"
        and st.flags.get(f"protect_reserve:{seat}")
    ):
        return 0
    st.players[seat].reserve -= n
    return n


def gain_card(st: GdmState, uid: int, n: int) -> int:
    """Add power on a character, or on the oracle holding the card."""
    if st.lasting.get("gain_cap"):
        n = min(n, 1)
    where = B.oracle_of(st, uid)
    if where is not None:
        st.players[where[0]].oracles[where[1]].power += n
    else:
        st.cards[uid].power += n
    return n


def lose_card(st: GdmState, uid: int, n: int) -> int:
    """Remove up to ``n`` power from a card (or its oracle); returns what was removed."""
    where = B.oracle_of(st, uid)
    if where is not None:
        o = st.players[where[0]].oracles[where[1]]
        k = min(n, o.power)
        o.power -= k
        return k
    c = st.cards[uid]
    k = min(n, c.power)
    c.power -= k
    return k


# ----------------------------------------------------------------------------- candidates


PLAYER_SPECIAL = {"me", "opps", "everyone", "fighters"}
NO_TARGET = {"draw", "token", "search", "fetch", "start", "resolution", "join", "copied"}


def in_cost(step: Step) -> bool:
    """Whether the step is among the ability's costs."""
    return step.pos < len(ability_of(step).cost)


def candidates(
    st: GdmState, step: Step, op: Op, first: bool = False
) -> tuple[str, list[int]] | None:
    """What the operation may be done to, or None when it needs no choice.

    With ``first``, a list of cards holds at most the first one (enough to know one exists).
    """
    t = op.t
    v = op.verb
    if v == "pick":
        return NUMBER, list(range(1, amount(st, step, op) + 1))
    if v == "key" and "|" in op.params.get("key", "") and "_k" not in step.vars:
        return NUMBER, list(range(len(op.params["key"].split("|"))))
    if v in NO_TARGET:
        return None
    if v == "bottomdeck":
        if op.params.get("mode") == "invoc" or not st.players[step.seat].deck:
            return None
        return NUMBER, [0, 1]
    if v == "look" and "_o" in step.vars:
        return NUMBER, [0, 1]
    if v == "mute" and "_g" in step.vars:
        return NUMBER, _live_abilities(st, step.vars["_g"])
    if v == "keyof" and "_g" in step.vars:
        idx = {k: i for i, k in enumerate(key_list())}
        return NUMBER, [idx[k] for k in sorted(B.keys(st, step.vars["_g"])) if k in idx]
    if v == "reorder" and "_r" in step.vars:
        o = oracle_at(st, step.vars["_r"])
        rest = o.cards[step.vars.get("_n", 0) :] if o is not None else []
        return CARD, rest if len(rest) > 1 else []
    if v == "copy" and "_c" in step.vars:
        copier = step.vars["_w"] if step.vars["_w"] >= 0 else None
        c = st.cards[step.vars["_c"]]
        return NUMBER, [i for i in _copy_indices(st, step, c.card, copier) if i not in c.muted]
    if v == "copy" and op.params.get("src") == "mine" and "_g" in step.vars:
        g = step.vars["_g"]
        return CARD, [
            u
            for u in B.controlled(st, step.seat, default_zones(step))
            if B.is_char(st, u) and _copy_index(st, step, st.cards[g].card, u) is not None
        ]
    if v == "under" and "_u" in step.vars:
        return ORACLE_T, [
            oracle_code(step.seat, i) for i in range(len(st.players[step.seat].oracles))
        ]
    if v == "neworacle" and op.params.get("mode") == "allgods":
        return None
    if v == "discard":
        if op.params.get("mode") == "all":
            return None
        return CARD, list(st.players[step.seat].hand)
    if t.special in PLAYER_SPECIAL:
        return None
    if v == "flag" and t.special is None and t.kind is None:
        return None
    if t.special == "opp" or v == "peekhand":
        return PLAYER, [s for s in enemies(st, step.seat)]
    if t.kind == "oracle":
        return ORACLE_T, _oracles(st, step, op)
    if v == "steal" and "_g" in step.vars:
        g = step.vars["_g"]
        return CARD, [
            u
            for u in B.controlled(st, step.seat, (ZP, BATTLE))
            if B.is_char(st, u) and u != B.peek(st, g).on and B.can_carry(st, g, u)
        ]
    if t.special in ("self", "bearer", "it", "that"):
        if t.special == "self":
            u = step.src
        elif t.special == "bearer":
            u = actor_char(st, step)
        else:
            u = step.picks.get(t.special)
        if u is None or u not in st.cards:
            return CARD, []
        return CARD, [u] if _verb_ok(st, step, op, u) else []
    out = (u for u in _pool(st, t) if match(st, step, t, u) and _verb_ok(st, step, op, u))
    if "rep" not in op.params:
        out = (u for u in out if u not in step.chosen)
    if op.params.get("distinct") == "myth" and step.chosen:
        seen = {B.fx(st, u).myth for u in step.chosen}
        out = (u for u in out if B.fx(st, u).myth not in seen)
    if first:
        u = next(out, None)
        return CARD, [] if u is None else [u]
    return CARD, list(out)


def _oracles(st: GdmState, step: Step, op: Op) -> list[int]:
    out = []
    mine = len(st.players[step.seat].oracles)
    for s, p in enumerate(st.players):
        if not p.alive:
            continue
        if op.t.who == "own" and s != step.seat:
            continue
        if op.t.who == "enemy" and s == step.seat:
            continue
        for i, o in enumerate(p.oracles):
            if "haspower" in op.t.filters and o.power <= 0:
                continue
            if "unrevealed" in op.t.filters and o.up:
                continue
            if "bigger" in op.t.filters and len(p.oracles) < mine:
                continue
            code = oracle_code(s, i)
            if code in step.chosen:
                continue
            out.append(code)
    return out


def _verb_ok(st: GdmState, step: Step, op: Op, uid: int) -> bool:
    """Whether the verb can be done to this card at all."""
    c = B.peek(st, uid)
    v = op.verb
    if v == "tire":
        return not c.tired
    if v == "ready":
        return c.tired
    if v == "lose":
        need = amount(st, step, op) if in_cost(step) else 1
        return card_power(st, uid) >= max(need, 1)
    if v == "destroy":
        return B.destroyable(st, uid)
    if v in ("battle", "muster"):
        return c.zone == ZP and B.is_char(st, uid) and not st.flags.get("no_battle_moves")
    if v == "keyof":
        return bool(B.keys(st, uid))
    if v == "mute" and op.dur == "perm":
        return bool(_live_abilities(st, uid))
    if v == "home":
        if c.zone == ORACLE:
            if op.params.get("pay") == "cost":
                return card_power(st, uid) >= B.fx(st, uid).cost
            return True
        return (
            c.zone == BATTLE
            and not B.statics(st, uid, "stuck")
            and not st.flags.get("no_battle_moves")
        )
    if v == "forge":
        return (
            B.is_char(st, uid)
            and not B.statics(st, uid, "noweapons")
            and not any("arma" in B.fx(st, g).keys for g in c.gear)
        )
    if v == "revive":
        if op.params.get("pay") == "reserve":
            return st.players[step.seat].reserve >= B.fx(st, uid).cost
        if op.params.get("pay") == "cost":
            a = actor_char(st, step)
            return a is not None and B.peek(st, a).power >= B.fx(st, uid).cost
        return True
    if v == "steal":
        return c.zone == GEAR
    if v == "fill":
        return card_power(st, uid) < B.max_power(st, uid)
    if v == "key":
        return True
    if v == "control":
        return c.ctrl != step.seat and not st.flags.get(f"no_control:{c.ctrl}")
    if v == "copy":
        return _copyable(st, step, op, uid) is not None
    if v == "under":
        return bool(st.players[step.seat].oracles)
    return True


def _copier(st: GdmState, step: Step, op: Op, uid: int | None = None) -> int | None:
    """The card that uses a copied ability: the source, its bearer, or the copied card itself."""
    src = op.params.get("src")
    if src == "bearer":
        return actor_char(st, step)
    if src == "target":
        return uid  # Deuda de honor: the opponent's resource is used as if it were yours
    return step.src


def _copy_indices(st: GdmState, step: Step, card: str, copier: int | None) -> list[int]:
    """The abilities of ``card`` of this phase that ``copier`` could use now."""
    out = []
    for i, ab in enumerate(abilities(card)):
        if ab.phase != step.phase:
            continue
        if any(o.verb in ("copy", "copied") for o in ab.steps):
            continue  # no copying a copy
        if possible(st, step.seat, copier, card, i, step.phase):
            out.append(i)
    return out


def _copy_index(st: GdmState, step: Step, card: str, copier: int | None) -> int | None:
    """The first ability of ``card`` of this phase that ``copier`` could use now."""
    got = _copy_indices(st, step, card, copier)
    return got[0] if got else None


def _copyable(st: GdmState, step: Step, op: Op, uid: int) -> int | None:
    """The first ability of the target usable now by the copier, as an index."""
    c = st.cards[uid]
    if op.params.get("mode") == "keep":
        # Huitzilopochtli takes the whole text for the turn: any ability that is no copy.
        for i, ab in enumerate(abilities(c.card)):
            if i not in c.muted and not any(o.verb in ("copy", "copied") for o in ab.steps):
                return i
        return None
    if op.params.get("src") == "mine":
        # Las manzanas de Loki: some character of yours could use it.
        for u in B.controlled(st, step.seat, default_zones(step)):
            if B.is_char(st, u):
                i = _copy_index(st, step, c.card, u)
                if i is not None and i not in c.muted:
                    return i
        return None
    src = _copier(st, step, op, uid)
    i = _copy_index(st, step, c.card, src)
    return None if i is None or i in c.muted else i


def _live_abilities(st: GdmState, uid: int) -> list[int]:
    """The abilities of a card that are not removed for good (static sentences included)."""
    c = st.cards[uid]
    return [i for i in range(len(abilities(c.card))) if i not in c.muted]


def _copy_choice(st: GdmState, step: Step, op: Op, value: int) -> bool:
    """When the copied card has several usable abilities, remember it and ask which one."""
    if op.params.get("src") == "mine":
        card_uid, copier = step.vars["_g"], value
    else:
        card_uid, copier = value, _copier(st, step, op, value)
    c = st.cards[card_uid]
    usable = [i for i in _copy_indices(st, step, c.card, copier) if i not in c.muted]
    if len(usable) < 2:
        return False
    step.vars["_c"] = card_uid
    step.vars["_w"] = -1 if copier is None else copier
    return True


def copied_ability(st: GdmState, uid: int | None, ab: Ability) -> tuple[str, int] | None:
    """For a ``copied N`` stand-in: the card copied this turn and the index of its ability N."""
    if uid is None or uid not in st.cards:
        return None
    card = next((m[5:] for m in st.cards[uid].marks if m.startswith("copy:")), None)
    if card is None:
        return None
    n = int(ab.effect[0].n)  # type: ignore[arg-type]
    usable = [
        i
        for i, a in enumerate(abilities(card))
        if a.phase in ("influence", "confrontation")
        and not any(o.verb in ("copy", "copied") for o in a.steps)
    ]
    return (card, usable[n]) if n < len(usable) else None


# ----------------------------------------------------------------------------- feasibility


def possible(st: GdmState, seat: int, src: int | None, card: str, idx: int, phase: str) -> bool:
    """An ability may start: every cost can be paid and at least one effect can happen."""
    step = Step(seat=seat, src=src, card=card, ability=idx, phase=phase)
    ab = ability_of(step)
    if ab.phase == "any":
        got = copied_ability(st, src, ab)
        return got is not None and possible(st, seat, src, got[0], got[1], phase)
    if ab.cond == "oddtable":
        # Tácticas bélicas: only when the pairing leaves a player without a confrontation
        if sum(1 for p in st.players if p.alive) % 2 == 0:
            return False
    if ab.cond == "talismans":
        tal = {"0213", "0216", "0233", "0234"}
        have = {B.peek(st, u).card for u in B.controlled(st, seat, (GEAR,))} & tal
        if len(have) < 4:
            return False
    named: set[str] = set()
    for i, op in enumerate(ab.steps):
        step.pos = i
        ok = _op_possible(st, step, op, named)
        if ok and "as" in op.params:
            named.add(op.params["as"])
        if not ok:
            if i < len(ab.cost):
                return False
            continue
        if i >= len(ab.cost):
            return True
    return False


def _op_possible(st: GdmState, step: Step, op: Op, named: set[str]) -> bool:
    if op.t.special in ("it", "that"):
        return op.t.special in named
    if any(f.endswith(("it", "that")) for f in op.t.filters):
        return any(f.endswith(tuple(named)) for f in op.t.filters) if named else False
    if op.verb == "lose" and op.t.special == "me":
        need = amount(st, step, op)
        return st.players[step.seat].reserve >= need if in_cost(step) else True
    if op.verb == "discard" and op.params.get("mode") == "all":
        return bool(st.players[step.seat].hand)
    if op.verb == "draw":
        return bool(st.players[step.seat].deck)
    if op.count > 1 and not op.upto and not op.all and in_cost(step):
        # "cansa dos de tus mortales": a cost naming two cards needs both
        full = candidates(st, step, op)
        return full is None or len(full[1]) >= op.count
    if op.verb == "resolution" and op.params.get("mode") == "osiris":
        # Batalla (glossary): "No pueden ser jugadas en caso de que el jugador que la juega no
        # pueda cumplir los efectos en caso de perder": losing, the player gives the winner one
        # of their characters, so a player without any cannot play it (the margin, and so
        # which PM the winner may take, is not known yet).
        return any(B.is_char(st, u) for u in B.controlled(st, step.seat))
    if op.verb == "resolution" or op.verb == "start":
        return True
    if op.verb == "pick":
        return True
    c = candidates(st, step, op, first=True)
    if c is None:
        return True
    if op.all:
        return bool(c[1]) or not in_cost(step)
    return bool(c[1])


# ----------------------------------------------------------------------------- running


def begin(
    st: GdmState,
    seat: int,
    src: int | None,
    card: str,
    idx: int,
    phase: str,
    vars_: dict[str, int] | None = None,
) -> None:
    """Start resolving an ability (an equipment remembers its bearer in case it leaves)."""
    v = dict(vars_ or {})
    if src is not None and src in st.cards and st.cards[src].zone == GEAR:
        on = st.cards[src].on
        if on is not None:
            v["_bearer"] = on
    st.stack.append(Step(seat=seat, src=src, card=card, ability=idx, phase=phase, vars=v))


def _total(st: GdmState, step: Step, op: Op) -> int:
    if "rep" in op.params:
        r = op.params["rep"]
        return int(r) if r.isdigit() else step.vars.get(r, 0)
    return op.count


def run(st: GdmState) -> None:
    """Resolve operations until a choice is needed or the stack is empty."""
    guard = 0
    while st.stack:
        guard += 1
        if guard > 500:
            raise RuntimeError("ability loop")
        step = st.stack[-1]
        if step.ability == -1:
            opts = sub_options(st, step)
            if not opts:
                st.stack.pop()
                continue
            if len(opts) > 1:
                return
            step.ability = opts[0]
        ops = ability_of(step).steps
        if step.pos >= len(ops):
            st.stack.pop()
            _after(st, step)
            continue
        op = ops[step.pos]
        cand = candidates(st, step, op)
        if cand is None:
            perform(st, step, op, None)
            _next(step)
            continue
        kind, opts = cand
        if op.all:
            for u in opts:
                perform(st, step, op, u)
            _next(step)
            continue
        if len(step.chosen) >= _total(st, step, op) or not opts:
            _next(step)
            continue
        if len(opts) == 1 and not op.upto and kind != NUMBER:
            choose(st, opts[0], resume=False)
            continue
        return


def _after(st: GdmState, step: Step) -> None:
    """A revealed event is discarded once resolved."""
    if step.vars.get("_keep"):
        return  # Drobbit: the looked-at event stays face down where it was
    if step.phase == "event" and step.src is not None and st.cards[step.src].zone == ORACLE:
        B.to_discard(st, step.src)


def _next(step: Step) -> None:
    step.pos += 1
    step.chosen = []
    for k in ("_k", "_o", "_g", "_u", "_r", "_n", "_c", "_w"):
        step.vars.pop(k, None)


def choice_kind(st: GdmState) -> tuple[str, list[int], bool] | None:
    """The pending choice: its kind, the options, and whether passing is allowed."""
    if not st.stack:
        return None
    step = st.stack[-1]
    if step.ability == -1:
        return NUMBER, sub_options(st, step), False
    op = ability_of(step).steps[step.pos]
    cand = candidates(st, step, op)
    if cand is None:
        return None
    return cand[0], cand[1], op.upto


def choice_text(st: GdmState, value: int) -> Text | None:
    """What a number means in the choices of the cards with code of their own (a key, an
    ability, an army, Jak's mode), in both languages; None for any other choice."""
    if not st.stack:
        return None
    step = st.stack[-1]
    if step.ability == -1 and step.card in ("sub:army", "sub:jak"):
        if step.card == "sub:jak":
            return (
                msg("Copy a key")
                if value == 0
                else msg("Remove a key")
            )
        f = st.fight
        seat = (f.a if value == 0 else f.b) if f is not None else value
        return msg("{seat}'s army", seat=seat_name(seat))
    if step.ability < 0:
        return None
    op = ability_of(step).steps[step.pos]
    if op.verb == "keyof" and "_g" in step.vars and 0 <= value < len(key_list()):
        from rules.guerra_de_mitos.cards import KEYS, key_id, verbatim

        k = key_id(key_list()[value])
        return KEYS[k] if k else verbatim(key_list()[value])
    card = None
    if op.verb == "mute" and "_g" in step.vars:
        card = st.cards[step.vars["_g"]].card
    elif op.verb == "copy" and "_c" in step.vars:
        card = st.cards[step.vars["_c"]].card
    if card is not None and 0 <= value < len(abilities(card)):
        from rules.guerra_de_mitos.telling import name_of

        name = name_of(card)
        ph = abilities(card)[value].phase
        if ph == "influence":
            return msg("{card}: ability {number} (INFLUENCE)", card=name, number=value + 1)
        if ph == "confrontation":
            return msg("{card}: ability {number} (CONFRONTATION)", card=name, number=value + 1)
        return msg("{card}: ability {number} (static)", card=name, number=value + 1)
    return None


def choose(st: GdmState, value: int, resume: bool = True) -> None:
    """Apply the current operation to the chosen card/player/oracle/number."""
    step = st.stack[-1]
    if step.ability == -1:
        step.ability = value
        if resume:
            run(st)
        return
    op = ability_of(step).steps[step.pos]
    if op.verb == "key" and "|" in op.params.get("key", "") and "_k" not in step.vars:
        step.vars["_k"] = value
    elif op.verb == "look" and "_o" not in step.vars:
        perform(st, step, op, value)
        o = oracle_at(st, value)
        mode = op.params.get("mode")
        top = o.cards[0] if o is not None and o.cards else None
        if top is not None and (
            (mode == "bottom" and len(o.cards) > 1)
            or (mode == "mayevent" and B.fx(st, top).type == EVENT)
        ):
            step.vars["_o"] = value
        else:
            step.chosen.append(value)
    elif op.verb == "look":
        code = step.vars.pop("_o")
        o = oracle_at(st, code)
        if value == 1 and o is not None and o.cards:
            if op.params.get("mode") == "bottom":
                o.cards.append(o.cards.pop(0))
                o.power = 0
                o.up = False
            else:
                B.to_discard(st, o.cards[0])
        step.chosen.append(code)
    elif (
        op.verb == "mute"
        and op.params.get("mode") == "one"
        and "_g" not in step.vars
        and len(_live_abilities(st, value)) > 1
    ):
        step.vars["_g"] = value  # Yig, Yogg-Sothoth, Shub-Niggurath: which ability goes
    elif op.verb == "mute" and "_g" in step.vars:
        c = st.cards[step.vars["_g"]]
        c.muted = sorted({*c.muted, value})
        step.chosen.append(step.vars["_g"])
    elif op.verb == "keyof" and "_g" not in step.vars:
        step.vars["_g"] = value
        if op.params.get("as"):
            step.picks[op.params["as"]] = value
    elif op.verb == "keyof":
        step.vars["_key"] = value
        step.chosen.append(value)
    elif op.verb == "reorder" and "_r" not in step.vars:
        perform(st, step, op, value)
    elif op.verb == "reorder":
        o = oracle_at(st, step.vars["_r"])
        n = step.vars.get("_n", 0)
        if o is not None and value in o.cards:
            o.cards.remove(value)
            o.cards.insert(n, value)
        step.vars["_n"] = n + 1
    elif op.verb == "copy" and "_c" in step.vars:
        # the ability chosen among those of the copied card
        copier = step.vars["_w"] if step.vars["_w"] >= 0 else None
        begin(st, step.seat, copier, st.cards[step.vars["_c"]].card, value, step.phase)
        step.chosen.append(step.vars["_c"])
    elif op.verb == "copy" and op.params.get("src") == "mine" and "_g" not in step.vars:
        step.vars["_g"] = value
    elif (
        op.verb == "copy" and op.params.get("mode") != "keep" and _copy_choice(st, step, op, value)
    ):
        pass  # several abilities could be copied: the player chooses one next
    elif op.verb == "under" and "_u" not in step.vars:
        step.vars["_u"] = value
    elif op.verb == "steal" and "_g" not in step.vars:
        step.vars["_g"] = value
    elif op.verb == "steal":
        perform(st, step, op, value)
        step.chosen.append(value)
        step.vars.pop("_g", None)
    else:
        perform(st, step, op, value)
        step.chosen.append(value)
    if resume:
        run(st)


def stop(st: GdmState) -> None:
    """Pass on an optional choice: the operation ends."""
    _next(st.stack[-1])
    run(st)


# ----------------------------------------------------------------------------- verbs


def _players(st: GdmState, step: Step, special: str | None) -> list[int]:
    if special == "me":
        return [step.seat]
    if special == "opps":
        return enemies(st, step.seat)
    if special == "fighters" and st.fight is not None:
        return [st.fight.a, st.fight.b]
    return [s for s in range(st.num_seats) if st.players[s].alive]


def perform(st: GdmState, step: Step, op: Op, target: int | None) -> None:
    """Do one operation to one target (None: the operation's own players or nothing)."""
    from rules.guerra_de_mitos import flow

    v = op.verb
    seat = step.seat
    p = st.players[seat]
    if op.params.get("tally") is not None or "tally" in op.t.filters:
        step.vars["X"] = step.vars.get("X", 0) + 1
    if v in ("gain", "lose") and (op.t.special in PLAYER_SPECIAL or (op.t.special == "opp")):
        seats = [target] if op.t.special == "opp" else _players(st, step, op.t.special)
        for s in seats:
            assert s is not None
            n = (
                per_player(st, s, str(op.n))
                if str(op.n) in ("ORA", "EVD", "PAN")
                else amount(st, step, op)
            )
            if "cap" in op.params:
                n = min(n, int(op.params["cap"]))
            if v == "gain":
                gain_reserve(st, s, n)
            else:
                got = lose_reserve(st, s, n, by=seat)
                step.vars["X"] = (
                    step.vars.get("X", 0) + got if in_cost(step) else step.vars.get("X", 0)
                )
        return
    if v == "draw":
        n = amount(st, step, op) - int(op.params.get("minus", 0))
        flow.draw(st, seat, n)
        return
    if v == "discard":
        if op.params.get("mode") == "all":
            step.vars["X"] = len(p.hand)
            for u in list(p.hand):
                B.to_discard(st, u)
        elif target is not None:
            B.to_discard(st, target)
        return
    if v == "token":
        n = amount(st, step, op)
        zone = BATTLE if op.params.get("zone") == "battle" else ZP
        for _ in range(max(0, n)):
            u = B.new_inst(st, op.params["tok"], seat, zone, created=True)
            st.cards[u].power = int(op.params.get("p", 0))
            st.cards[u].temp = op.params.get("temp") == "1"
            st.cards[u].fought = zone == BATTLE
        return
    if v == "flag":
        name = op.params["name"]
        dur = op.params.get("dur", "turn")
        if target is not None:
            st.cards[target].marks.append(name)
            if name == "doomed":  # destroyed after the confrontation's resolution
                st.cards[target].doomed = True
            return
        key = name
        if op.t.special in ("me", "opps"):
            for s in _players(st, step, op.t.special):
                _set_flag(st, f"{name}:{s}", dur)
            return
        _set_flag(st, key, dur)
        return
    if v == "search":
        want = op.params["card"]
        for u in list(p.deck):
            if st.cards[u].card == want:
                p.deck.remove(u)
                a = actor_char(st, step)
                if op.params.get("mode") == "equip" and a is not None and B.can_carry(st, u, a):
                    B.attach(st, u, a)
                else:
                    st.cards[u].zone = HAND
                    p.hand.append(u)
                break
        st.rng.shuffle(p.deck)
        return
    if v == "bottomdeck":
        if not p.deck:
            return
        u = p.deck[0]
        p.peeks.append(st.cards[u].card)
        if op.params.get("mode") == "invoc":
            if B.fx(st, u).type == INVOC:
                p.deck.pop(0)
                st.cards[u].zone = HAND
                p.hand.append(u)
                from rules.guerra_de_mitos.telling import name_of, tag

                flow.say(st, None, msg("{who} shows {card} and takes it into hand",
                                       who=tag(seat), card=name_of(B.peek(st, u).card)))
        elif target == 1:
            p.deck.append(p.deck.pop(0))
        return
    if v == "fetch":
        code = step.vars.get("_from")
        o = oracle_at(st, code) if code is not None else None
        if o is None:
            return
        res = [u for u in o.cards if B.fx(st, u).type == RESOURCE]
        if not res:
            return
        r = res[0]
        rest = [u for u in o.cards if u != r]
        st.rng.shuffle(rest)
        o.cards[:] = [r, *rest]
        o.up = True
        return
    if v == "start":
        st.first = seat
        return
    if v == "resolution":
        lst = list(st.flags.get("res", []))
        lst.append([seat, op.params["mode"]])
        st.flags["res"] = lst
        return
    if v == "pick":
        step.vars["X"] = int(target or 0)
        return
    if v == "neworacle" and op.params.get("mode") == "allgods":
        gods = [u for u in p.discard if B.fx(st, u).type in (CHAR, RESOURCE, EVENT)]
        if gods:
            for u in gods:
                B.leave(st, u)
                st.cards[u].zone = ORACLE
            st.rng.shuffle(gods)
            p.oracles.append(Oracle(cards=gods))
        return
    if v == "peekhand":
        assert target is not None
        p.peeks.extend(st.cards[u].card for u in st.players[target].hand)
        return
    if v == "make":
        seats = [target] if op.t.special == "opp" else _players(st, step, op.t.special)
        name = op.params["sub"]
        for s in seats:
            if s is None:
                continue
            n = len(SUBS[name])
            st.stack.append(
                Step(
                    seat=s,
                    src=step.src,
                    card=f"sub:{name}",
                    ability=-1 if n > 1 else 0,
                    phase=step.phase,
                    vars=dict(step.vars),
                )
            )
        return
    if v == "join":
        _join(st, step.picks.get("it"), op.params.get("mode", "a"))
        return
    if v == "copied":
        got = copied_ability(st, step.src, ability_of(step))
        if got is not None:
            begin(st, seat, step.src, got[0], got[1], step.phase)
        return
    if v == "under":
        assert target is not None
        card = step.vars.get("_u")
        o = oracle_at(st, target)
        if card is None or o is None:
            return
        B.leave(st, card)
        B.reset(st.cards[card])
        st.cards[card].zone = ORACLE
        o.cards.append(card)
        return
    # --- oracle targets
    if op.t.kind == "oracle":
        assert target is not None
        _oracle_op(st, step, op, target)
        return
    # --- card targets
    assert target is not None
    c = st.cards[target]
    if op.params.get("as"):
        step.picks[op.params["as"]] = target
    if v == "gain":
        gain_card(st, target, amount(st, step, op, target))
    elif v == "lose":
        got = lose_card(st, target, amount(st, step, op, target))
        step.vars["X"] = step.vars.get("X", 0) + got
    elif v == "exhaust":
        got = lose_card(st, target, card_power(st, target))
        step.vars["X"] = step.vars.get("X", 0) + got
    elif v == "f":
        n = amount(st, step, op, target)
        if op.dur == "perm":
            c.f_perm += n
        else:
            c.f_turn += n
    elif v == "pm":
        n = amount(st, step, op, target)
        if op.dur == "perm":
            c.pm_perm += n
        elif op.params.get("dur") == "round":
            c.pm_round += n
        else:
            c.pm_turn += n
    elif v == "tire":
        c.tired = True
    elif v == "ready":
        c.tired = False
    elif v == "untap":
        c.used = []
    elif v == "destroy":
        step.vars["P"] = card_power(st, target)
        step.vars["PM"] = B.max_power(st, target) if B.is_char(st, target) else 0
        step.vars["COST"] = B.fx(st, target).cost
        if B.destroyable(st, target):
            B.to_discard(st, target)
    elif v == "battle":
        c.zone = BATTLE
        c.fought = True
    elif v == "muster":
        # Upuat and the like: the character's controller decides which army it joins.
        c.zone = BATTLE
        c.fought = True
        st.stack.append(
            Step(
                seat=c.ctrl,
                src=step.src,
                card="sub:army",
                ability=-1,
                phase=step.phase,
                picks={"it": target},
            )
        )
    elif v == "home":
        if c.zone == ORACLE:
            flow.enter_from_oracle(
                st, target, c.ctrl if c.ctrl == seat else seat, pay=op.params.get("pay") == "cost"
            )
        else:
            c.zone = ZP
    elif v == "unkey":
        k = key_list()[step.vars["_key"]] if op.params["key"] == "@" else norm_key(op.params["key"])
        for lst in (c.keys_add, c.keys_turn):
            while k in lst:
                lst.remove(k)
        if k not in c.keys_del:
            c.keys_del.append(k)
    elif v == "keyof":
        pass  # handled in choose(): the card, then the key
    elif v == "key":
        keys = [norm_key(k) for k in op.params["key"].split("|")]
        if op.params["key"] == "@":
            keys = [key_list()[step.vars["_key"]]]
        k = keys[step.vars.get("_k", 0)] if len(keys) > 1 else keys[0]
        permif = op.params.get("permif")
        perm = op.dur == "perm" or (permif is not None and B.fx(st, target).myth == permif)
        (c.keys_add if perm else c.keys_turn).append(k)
        if k in c.keys_del:
            c.keys_del.remove(k)
    elif v == "noassign":
        c.no_assign = True
    elif v == "forge":
        u = B.new_inst(st, op.params["tok"], seat, GEAR, created=True)
        B.attach(st, u, target)
    elif v == "revive":
        a = actor_char(st, step)
        if op.params.get("pay") == "cost" and a is not None:
            st.cards[a].power -= B.fx(st, target).cost
        elif op.params.get("pay") == "reserve":
            lose_reserve(st, seat, B.fx(st, target).cost)
        if op.params.get("mode") == "hand":
            B.leave(st, target)
            c.zone = HAND
            st.players[c.owner].hand.append(target)
        else:
            B.put_in_pantheon(st, target, seat)
            if op.params.get("zone") == "battle":
                c.zone = BATTLE
                c.fought = True
    elif v == "bounce":
        B.leave(st, target)
        B.reset(c)
        c.ctrl = c.owner
        if c.created:
            c.zone = "gone"
        else:
            c.zone = HAND
            st.players[c.owner].hand.append(target)
    elif v == "control":
        c.ctrl = seat
        for g in c.gear:
            st.cards[g].ctrl = seat
        if op.params.get("mode") == "borrow":
            # Puk, Embrujo de Freya: given back after your next action or before the resolution
            c.borrowed = True
            c.marks.append("borrow")
            if op.params.get("name") == "freya":
                c.marks.append("nodestroy")
    elif v == "strip":
        mode = op.params.get("mode")
        if mode == "minus":
            c.f_turn, c.f_perm = max(0, c.f_turn), max(0, c.f_perm)
        elif mode == "plus":
            c.f_turn, c.f_perm = min(0, c.f_turn), min(0, c.f_perm)
        else:
            c.f_turn = c.f_perm = 0
    elif v == "mute":
        if op.dur == "perm" and op.params.get("mode") == "one":
            c.muted = sorted({*c.muted, *_live_abilities(st, target)[:1]})
        elif op.dur == "perm":
            c.muted = list(range(len(abilities(c.card))))
        else:
            c.silenced = True
    elif v == "setpm":
        a = actor_char(st, step)
        if a is not None:
            st.cards[a].pm_set = B.max_power(st, target)
    elif v == "shield":
        c.shielded = True
    elif v == "fill":
        need = B.max_power(st, target) - card_power(st, target)
        if need > 0:
            gain_card(st, target, need)
            step.vars["X"] = need
    elif v == "steal":
        B.attach(st, step.vars["_g"], target)
    elif v == "copy" and op.params.get("mode") == "keep":
        src = st.cards[step.src] if step.src is not None else None
        if src is not None:
            src.marks = [m for m in src.marks if not m.startswith("copy:")] + [f"copy:{c.card}"]
    elif v == "copy" and op.params.get("src") == "mine":
        g = step.vars.get("_g")
        idx = _copy_index(st, step, st.cards[g].card, target) if g is not None else None
        if g is not None and idx is not None:
            begin(st, seat, target, st.cards[g].card, idx, step.phase)
    elif v == "copy":
        idx = _copyable(st, step, op, target)
        if idx is not None:
            begin(st, seat, _copier(st, step, op, target), c.card, idx, step.phase)
    elif v == "double":
        c.f_double = True
    elif v == "neworacle":
        for g in list(c.gear):
            B.to_discard(st, g)
        B.leave(st, target)
        B.reset(c)
        c.zone = ORACLE
        c.ctrl = seat  # the new oracle is the player's own, whoever owns the card
        st.players[seat].oracles.append(Oracle(cards=[target]))


def _set_flag(st: GdmState, key: str, dur: str) -> None:
    if dur == "lasting":
        st.lasting[key] = st.round + 1
    elif dur == "fight":
        st.flags[f"fight:{key}"] = True
    else:
        st.flags[key] = True


def _oracle_op(st: GdmState, step: Step, op: Op, code: int) -> None:
    from rules.guerra_de_mitos import flow

    o = oracle_at(st, code)
    if o is None or not o.cards:
        return
    seat = step.seat
    owner = code // 16
    v = op.verb
    if v == "lose":
        got = min(o.power, amount(st, step, op))
        o.power -= got
        step.vars["X"] = step.vars.get("X", 0) + got
    elif v == "look":
        u = o.cards[0]
        st.players[seat].peeks.append(st.cards[u].card)
        if op.params.get("mode") == "event" and B.fx(st, u).type == EVENT:
            B.to_discard(st, u)
        if (
            op.params.get("mode") == "steal"
            and B.fx(st, u).type == EVENT
            and abilities(B.fx(st, u).id)
        ):
            # Drobbit: the event resolves for the one who looked, and stays face down
            begin(st, seat, u, B.fx(st, u).id, 0, "event", {"_from": code, "_keep": 1})
    elif v == "reveal":
        flow.reveal(st, owner, o)
    elif v == "flip":
        if o.up:
            o.up = False
        else:
            flow.reveal(st, owner, o)
    elif v == "drop":
        if op.params.get("mode") == "all":
            for u in list(o.cards):
                B.to_discard(st, u)
        else:
            B.to_discard(st, o.cards[0])
    elif v == "reorder":
        # "reordena como quieras": the player sees the cards and puts them in order one by
        # one (choose() places each); the oracle stays face down and loses its power.
        st.players[seat].peeks.extend(st.cards[u].card for u in o.cards)
        o.power = 0
        o.up = False
        step.vars["_r"] = code
        step.vars["_n"] = 0


def _join(st: GdmState, uid: int | None, mode: str) -> None:
    """A character on the battlefield joins the army of fighter a or b (control this turn)."""
    f = st.fight
    if uid is None or f is None or uid not in st.cards:
        return
    c = st.cards[uid]
    seat = f.a if mode == "a" else f.b
    c.ctrl = seat
    c.borrowed = seat != c.owner
    for g in c.gear:
        st.cards[g].ctrl = seat
