"""The interpreter: resolves an ability's operations one by one, asking for each choice.

An ability being resolved is a ``Step`` on ``state.stack``. ``run`` carries out every
operation that needs no choice and stops at the first one that does; the pending seat then
answers with ``Target`` (a card), ``Choose`` (a player, an oracle, a number) or ``Pass``
(to stop an optional "up to" choice).
"""

from __future__ import annotations

from rules.core import Text, seat_name
from rules.guerra_de_mitos import board as B

# through the module, so that a test may watch the operations (verbs.perform) as they run
from rules.guerra_de_mitos import verbs as V
from rules.guerra_de_mitos.abilities import abilities
from rules.guerra_de_mitos.candidates import candidates, copy_choice, live_abilities, sub_options
from rules.guerra_de_mitos.cards import KEYS, key_id, verbatim
from rules.guerra_de_mitos.facts import (
    EVENT,
)
from rules.guerra_de_mitos.lines import name_of
from rules.guerra_de_mitos.matching import NUMBER, ability_of, key_list, oracle_at
from rules.guerra_de_mitos.model import (
    ORACLE,
    GdmState,
    Step,
)
from rules.guerra_de_mitos.primitives import Op
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")


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
            V.perform(st, step, op, None)
            _next(step)
            continue
        kind, opts = cand
        if op.all:
            for u in opts:
                V.perform(st, step, op, u)
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
        k = key_id(key_list()[value])
        return KEYS[k] if k else verbatim(key_list()[value])
    card = None
    if op.verb == "mute" and "_g" in step.vars:
        card = st.cards[step.vars["_g"]].card
    elif op.verb == "copy" and "_c" in step.vars:
        card = st.cards[step.vars["_c"]].card
    if card is not None and 0 <= value < len(abilities(card)):
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
        V.perform(st, step, op, value)
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
        and len(live_abilities(st, value)) > 1
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
        V.perform(st, step, op, value)
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
        V.begin(st, step.seat, copier, st.cards[step.vars["_c"]].card, value, step.phase)
        step.chosen.append(step.vars["_c"])
    elif op.verb == "copy" and op.params.get("src") == "mine" and "_g" not in step.vars:
        step.vars["_g"] = value
    elif (
        op.verb == "copy" and op.params.get("mode") != "keep" and copy_choice(st, step, op, value)
    ):
        pass  # several abilities could be copied: the player chooses one next
    elif op.verb == "under" and "_u" not in step.vars:
        step.vars["_u"] = value
    elif op.verb == "steal" and "_g" not in step.vars:
        step.vars["_g"] = value
    elif op.verb == "steal":
        V.perform(st, step, op, value)
        step.chosen.append(value)
        step.vars.pop("_g", None)
    else:
        V.perform(st, step, op, value)
        step.chosen.append(value)
    if resume:
        run(st)


def stop(st: GdmState) -> None:
    """Pass on an optional choice: the operation ends."""
    _next(st.stack[-1])
    run(st)


