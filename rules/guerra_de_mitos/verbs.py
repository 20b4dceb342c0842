"""What each operation of an ability does to the table, and the table's moves the operations
share with the phases (drawing, revealing an oracle, putting a card into play)."""

from __future__ import annotations

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.abilities import SUBS, abilities
from rules.guerra_de_mitos.candidates import (
    PLAYER_SPECIAL,
    copied_ability,
    copier_of,
    copy_index,
    copyable,
    in_cost,
    live_abilities,
)
from rules.guerra_de_mitos.facts import (
    CHAR,
    EVENT,
    INVOC,
    RESOURCE,
    norm_key,
)
from rules.guerra_de_mitos.lines import name_of, say, tag
from rules.guerra_de_mitos.matching import (
    ability_of,
    actor_char,
    amount,
    card_power,
    enemies,
    key_list,
    oracle_at,
    oracle_code,
    per_player,
)
from rules.guerra_de_mitos.model import (
    BATTLE,
    GEAR,
    HAND,
    ORACLE,
    GdmState,
    Oracle,
    Step,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.guerra_de_mitos.primitives import Op
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")


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
        draw(st, seat, n)
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
                say(st, None, msg("{who} shows {card} and takes it into hand",
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
            enter_from_oracle(
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
            c.muted = sorted({*c.muted, *live_abilities(st, target)[:1]})
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
        idx = copy_index(st, step, st.cards[g].card, target) if g is not None else None
        if g is not None and idx is not None:
            begin(st, seat, target, st.cards[g].card, idx, step.phase)
    elif v == "copy":
        idx = copyable(st, step, op, target)
        if idx is not None:
            begin(st, seat, copier_of(st, step, op, target), c.card, idx, step.phase)
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
        reveal(st, owner, o)
    elif v == "flip":
        if o.up:
            o.up = False
        else:
            reveal(st, owner, o)
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


def draw(st: GdmState, seat: int, n: int) -> None:
    """Draw up to ``n`` cards from the design deck (an empty deck gives nothing)."""
    p = st.players[seat]
    for _ in range(max(0, n)):
        if not p.deck:
            return
        u = p.deck.pop(0)
        st.cards[u].zone = HAND
        p.hand.append(u)


def reveal(st: GdmState, owner: int, o: Oracle) -> None:
    """Turn the top card face up; an event resolves (or is cancelled) and is discarded."""
    if not o.cards:
        return
    o.up = True
    u = o.cards[0]
    f = B.fx(st, u)
    say(st, None, msg("{who} reveals {card}", who=tag(owner), card=name_of(f.id)))
    if f.type != EVENT:
        return
    if st.lasting.get("next_event_void") is not None:
        del st.lasting["next_event_void"]
        B.to_discard(st, u)
        return
    if st.lasting.get("festivals_void") is not None and "festival" in f.keys:
        B.to_discard(st, u)
        return
    idx = st.players[owner].oracles.index(o)
    if abilities(f.id):
        begin(st, owner, u, f.id, 0, "event", {"_from": oracle_code(owner, idx)})
    else:
        B.to_discard(st, u)


def enter_from_oracle(st: GdmState, uid: int, seat: int, pay: bool = False) -> None:
    """Move an oracle's top card into the pantheon with the oracle's power (rules 6.2)."""
    where = B.oracle_of(st, uid)
    if where is None:
        return
    o = st.players[where[0]].oracles[where[1]]
    power = o.power - (B.fx(st, uid).cost if pay else 0)
    o.power = 0
    B.put_in_pantheon(st, uid, seat)
    c = st.cards[uid]
    f = B.fx(st, uid)
    if f.type == CHAR:
        power = min(power, B.max_power(st, uid))
        mine = B.pantheon_myth(st, seat)
        if f.myth not in (None, "neutral") and f.myth != mine:
            power -= 1
        c.power = max(0, power)
    else:
        c.power = 0
    say(st, None, msg("{who} puts {card} into play with {power}P", who=tag(seat), card=name_of(f.id), power=c.power))
