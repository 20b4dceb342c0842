"""What a step of an ability may choose, and whether an ability can be used at all."""

from __future__ import annotations

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.abilities import SUBS, abilities
from rules.guerra_de_mitos.matching import (
    CARD,
    NUMBER,
    ORACLE_T,
    PLAYER,
    ability_of,
    actor_char,
    amount,
    card_power,
    default_zones,
    enemies,
    key_list,
    match,
    oracle_at,
    oracle_code,
    pool,
)
from rules.guerra_de_mitos.model import (
    BATTLE,
    GEAR,
    ORACLE,
    GdmState,
    Step,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.guerra_de_mitos.primitives import Ability, Op


def sub_options(st: GdmState, step: Step) -> list[int]:
    """The follow-up options a player may choose (those with a possible effect)."""
    return [
        i
        for i in range(len(SUBS[step.card[4:]]))
        if possible(st, step.seat, step.src, step.card, i, step.phase)
    ]


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
        return NUMBER, live_abilities(st, step.vars["_g"])
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
            if B.is_char(st, u) and copy_index(st, step, st.cards[g].card, u) is not None
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
    out = (u for u in pool(st, t) if match(st, step, t, u) and _verb_ok(st, step, op, u))
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
        return bool(live_abilities(st, uid))
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
        return copyable(st, step, op, uid) is not None
    if v == "under":
        return bool(st.players[step.seat].oracles)
    return True


def copier_of(st: GdmState, step: Step, op: Op, uid: int | None = None) -> int | None:
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


def copy_index(st: GdmState, step: Step, card: str, copier: int | None) -> int | None:
    """The first ability of ``card`` of this phase that ``copier`` could use now."""
    got = _copy_indices(st, step, card, copier)
    return got[0] if got else None


def copyable(st: GdmState, step: Step, op: Op, uid: int) -> int | None:
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
                i = copy_index(st, step, c.card, u)
                if i is not None and i not in c.muted:
                    return i
        return None
    src = copier_of(st, step, op, uid)
    i = copy_index(st, step, c.card, src)
    return None if i is None or i in c.muted else i


def live_abilities(st: GdmState, uid: int) -> list[int]:
    """The abilities of a card that are not removed for good (static sentences included)."""
    c = st.cards[uid]
    return [i for i in range(len(abilities(c.card))) if i not in c.muted]


def copy_choice(st: GdmState, step: Step, op: Op, value: int) -> bool:
    """When the copied card has several usable abilities, remember it and ask which one."""
    if op.params.get("src") == "mine":
        card_uid, copier = step.vars["_g"], value
    else:
        card_uid, copier = value, copier_of(st, step, op, value)
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
