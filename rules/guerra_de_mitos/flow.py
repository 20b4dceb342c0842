"""The turn: transfer, influence, confrontation, reorganisation, and the end of the game
(setup.py deals the table and runs the bid; plays.py plays cards and abilities)."""

from __future__ import annotations

from rules.core import seat_name
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos import verbs as V
from rules.guerra_de_mitos.facts import (
    CHAR,
    PANTHEON,
    RESOURCE,
    facts,
)
from rules.guerra_de_mitos.lines import say
from rules.guerra_de_mitos.model import (
    BATTLE,
    GEAR,
    Fight,
    GdmState,
    Inst,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.guerra_de_mitos.seats import alive, blocked_check, moves_for, order
from rules.guerra_de_mitos.verbs import draw, enter_from_oracle, reveal
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")

WIN_2P, WIN_MULTI = 30, 35


# ----------------------------------------------------------------------------- transfer


def start_round(st: GdmState) -> None:
    """Begin a turn with the start player's transfer."""
    st.phase = "transfer"
    st.order_pos = 0
    for k in [k for k, v in st.lasting.items() if v < st.round]:
        del st.lasting[k]
    begin_transfer(st, order(st)[0])


def begin_transfer(st: GdmState, seat: int) -> None:
    """Step A: reveal the top of each oracle (events resolve at once); then B and C are open."""
    st.actor = seat
    p = st.players[seat]
    p.moves = moves_for(st, seat)
    p.dropped = False
    for o in reversed(list(p.oracles)):
        if o.cards and not o.up:
            reveal(st, seat, o)
    R.run(st)


def can_move(st: GdmState, seat: int, src: int, dst: int) -> bool:
    """A counter move is possible (-1 is the reserve)."""
    p = st.players[seat]
    if p.moves <= 0 or src == dst:
        return False
    n = len(p.oracles)
    if not (-1 <= src < n and -1 <= dst < n):
        return False
    if src == -1:
        # step C sets no floor: moving the last counter is allowed, and Olvido then puts the
        # player out (docs/rules/guerra_de_mitos.md, 6.2)
        return p.reserve > 0
    return p.oracles[src].power > 0


def move(st: GdmState, seat: int, src: int, dst: int) -> None:
    """Move one counter."""
    p = st.players[seat]
    if src == -1:
        p.reserve -= 1
    else:
        p.oracles[src].power -= 1
    if dst == -1:
        p.reserve += 1
    else:
        p.oracles[dst].power += 1
    p.moves -= 1
    p.dropped = True  # the steps go in order: once C has begun, B (discard) is over


def can_drop(st: GdmState, seat: int, idx: int) -> bool:
    """Step B: discard the top card of an oracle without power, once."""
    p = st.players[seat]
    return not p.dropped and idx < len(p.oracles) and p.oracles[idx].power == 0


def drop(st: GdmState, seat: int, idx: int) -> None:
    """Discard an oracle's top card."""
    p = st.players[seat]
    p.dropped = True
    B.to_discard(st, p.oracles[idx].cards[0])


def can_enter(st: GdmState, seat: int, idx: int) -> bool:
    """An oracle's face-up top card has at least its cost in power."""
    p = st.players[seat]
    if idx >= len(p.oracles):
        return False
    o = p.oracles[idx]
    if not o.up or not o.cards:
        return False
    u = o.cards[0]
    if B.fx(st, u).type not in (CHAR, RESOURCE):
        return False
    return o.power >= B.cost(st, seat, u)


def enter(st: GdmState, seat: int, idx: int) -> None:
    """Put an oracle's top card into play."""
    o = st.players[seat].oracles[idx]
    st.players[seat].dropped = True  # putting into play follows C: B (discard) is over
    enter_from_oracle(st, o.cards[0], seat)


def end_transfer(st: GdmState) -> None:
    """The next seat's transfer, or the influence phase."""
    st.order_pos += 1
    seats = order(st)
    if st.order_pos < len(seats):
        begin_transfer(st, seats[st.order_pos])
        return
    st.phase = "influence"
    st.actor = seats[0]
    st.passes = 0
    for k in [
        k for k, v in st.lasting.items() if k in ("gain_cap", "festivals_void") and v <= st.round
    ]:
        del st.lasting[k]


# ----------------------------------------------------------------------------- influence


def next_actor(st: GdmState) -> None:
    """Alternate in turn order."""
    seats = order(st)
    i = seats.index(st.actor) if st.actor in seats else -1
    st.actor = seats[(i + 1) % len(seats)]


def influence_pass(st: GdmState, seat: int) -> None:
    """A pass; when everyone has passed in a row the confrontation begins."""
    st.passes += 1
    if st.passes >= len(alive(st)):
        start_confrontation(st)
    else:
        next_actor(st)


def give_back(st: GdmState, seat: int | None = None, lent_only: bool = False) -> None:
    """Control taken "until your next action" (Puk, Embrujo de Freya) returns to the owner."""
    for u, c in list(B.raw_items(st)):  # read shared records; copy only those that change
        if "borrow" not in c.marks or (seat is not None and c.ctrl != seat):
            continue
        if lent_only and "lent" not in c.marks:
            continue
        c = st.cards[u]
        c.ctrl, c.borrowed = c.owner, False
        c.marks = [m for m in c.marks if m not in ("borrow", "lent", "nodestroy")]
        for g in c.gear:
            st.cards[g].ctrl = c.owner


def influence_acted(st: GdmState, seat: int) -> None:
    """After an influence action: the tax of Eclipse, then the next player."""
    tax = st.flags.get("influence_tax")
    if tax == "on":
        V.lose_reserve(st, seat, 1)
    elif tax:  # Eclipse taxes the actions after it, not itself
        st.flags["influence_tax"] = "on"
    st.passes = 0
    next_actor(st)


def meditate(st: GdmState, seat: int, uid: int) -> None:
    """Tire a ready character; it gains 2P (3 with La música de Orfeo)."""
    c = st.cards[uid]
    c.tired = True
    V.gain_card(st, uid, 3 if st.flags.get("meditate_plus") else 2)


def equip(st: GdmState, seat: int, uid: int, target: int) -> None:
    """Pay the equipment's cost from the character and attach it."""
    n = B.cost(st, seat, uid, target)
    st.cards[target].power -= n
    st.players[seat].hand.remove(uid)
    B.attach(st, uid, target)
    st.flags.pop(f"equipdiscount:{seat}", None)


# ----------------------------------------------------------------------------- confrontation


def start_confrontation(st: GdmState) -> None:
    """Two players fight at once; with more, the start player chooses an opponent."""
    st.fought = []
    seats = alive(st)
    if len(seats) == 2:
        a = st.first if st.first in seats else seats[0]
        b = seats[1] if a == seats[0] else seats[0]
        open_fight(st, a, b)
    else:
        next_challenge(st)


def next_challenge(st: GdmState) -> None:
    """Multiplayer: the next seat in turn order that has not fought picks one that has not."""
    free = [s for s in order(st) if s not in st.fought]
    if len(free) < 2:
        if free and st.flags.pop("extra_fight", None):
            # Tácticas bélicas: the player left out fights one more confrontation, against
            # any player still seated.
            st.flags["extra_now"] = True
            st.phase = "challenge"
            st.chooser = free[0]
            return
        reorganise(st)
        return
    st.phase = "challenge"
    st.chooser = free[0]


def challengeable(st: GdmState, seat: int) -> list[int]:
    """Seats ``seat`` may confront."""
    if st.flags.get("extra_now"):
        return [s for s in order(st) if s != seat]
    return [s for s in order(st) if s != seat and s not in st.fought]


def open_fight(st: GdmState, a: int, b: int) -> None:
    """Begin the assignment between ``a`` (who starts) and ``b``."""
    st.phase = "fight"
    st.flags.pop("extra_now", None)
    st.fight = Fight(a=a, b=b, turn=a)
    st.fought += [a, b]


def assignable(st: GdmState, seat: int) -> list[int]:
    """Ready characters in the pantheon that may go to the battlefield."""
    out = []
    free = bool(st.flags.get("loco_free_assign"))
    for u in B.controlled(st, seat, (ZP,)):
        c = B.peek(st, u)
        if not B.is_char(st, u) or c.tired or c.no_assign:
            continue
        if "freeassign" in c.marks or (free and "loco" in B.keys(st, u)):
            out.append(u)
        elif c.power >= 1:
            out.append(u)
    return out


def assign(st: GdmState, seat: int, uid: int) -> None:
    """Pay 1P from the character and move it to the battlefield."""
    c = st.cards[uid]
    free = "freeassign" in c.marks or (
        st.flags.get("loco_free_assign") and "loco" in B.keys(st, uid)
    )
    if not free:
        c.power -= 1
    c.zone = BATTLE
    c.fought = True
    if st.flags.get(f"amon:{seat}"):
        c.f_turn += 1
        c.doomed = True
    f = st.fight
    assert f is not None
    other = f.b if seat == f.a else f.a
    if other not in f.passed:
        f.turn = other


def assign_pass(st: GdmState, seat: int) -> None:
    """A pass in the assignment; when both have passed the actions begin."""
    f = st.fight
    assert f is not None
    if seat not in f.passed:
        f.passed.append(seat)
    other = f.b if seat == f.a else f.a
    if other in f.passed:
        f.stage = "act"
        f.turn = f.a
        f.passes = 0
    else:
        f.turn = other


def fight_acted(st: GdmState, seat: int) -> None:
    """After a confrontation action: the other fighter's go."""
    f = st.fight
    assert f is not None
    give_back(st, seat, lent_only=True)
    f.passes = 0
    f.turn = f.b if seat == f.a else f.a


def fight_pass(st: GdmState, seat: int) -> None:
    """A pass; two in a row bring the resolution."""
    f = st.fight
    assert f is not None
    f.passes += 1
    if f.passes >= 2:
        resolve(st)
    else:
        f.turn = f.b if seat == f.a else f.a


def resolve(st: GdmState) -> None:
    """Resolution: compare armies; the loser pays the difference, or a Batalla rule applies."""
    f = st.fight
    assert f is not None
    f.stage = "done"
    give_back(st)
    sa, sb = B.army(st, f.a), B.army(st, f.b)
    say(st, None, msg("Resolution: {sa} against {sb}.", sa=sa, sb=sb))
    mode = "rules"
    for seat, m in st.flags.get("res", []):
        if seat in (f.a, f.b):
            mode = m
    if sa != sb:
        win, lose = (f.a, f.b) if sa > sb else (f.b, f.a)
        diff = abs(sa - sb)
        if mode == "rules":
            V.lose_reserve(st, lose, diff)
        else:
            V.begin(st, win, None, f"res:{mode}", 0, "confrontation", {"D": diff, "H": diff // 2})
            R.run(st)
    settle(st)
    if not st.stack:
        close_fight(st)


def close_fight(st: GdmState) -> None:
    """After the resolution: created creatures and doomed cards go; the next fight or reorganisation."""
    f = st.fight
    if f is None:
        return
    for u in list(st.cards):
        c = B.peek(st, u)  # read afresh: discarding a bearer discards its gear too
        if c.zone in (ZP, BATTLE, GEAR) and (c.temp or c.doomed):
            B.to_discard(st, u)
    for k in [k for k in st.flags if k.startswith("fight:")]:
        del st.flags[k]
    st.fight = None
    if st.finished:
        return
    if len(alive(st)) <= 2 or st.num_seats == 2:
        reorganise(st)
    else:
        next_challenge(st)


# ----------------------------------------------------------------------------- reorganisation


def reorganise(st: GdmState) -> None:
    """Steps A to G, then the victory check and a new turn."""
    st.fight = None
    # Cards are written (st.cards[u]) only where something changes: most records are shared
    # with the previous state and stay so.
    for u, c in B.raw_items(st):
        if c.zone == BATTLE:  # A
            st.cards[u].zone = ZP
    for u, c in B.raw_items(st):  # B: effects without a stated duration end
        if not _turn_marked(c):
            continue
        c = st.cards[u]
        c.f_turn = c.pm_turn = 0
        c.keys_turn, c.marks, c.used = [], [], []
        c.silenced = c.shielded = c.no_assign = c.f_double = c.fought = False
        c.pm_set = None
        if c.borrowed:
            c.ctrl, c.borrowed = c.owner, False
    st.flags = {}
    for u, c in B.raw_items(st):  # C: excess power on characters (also on oracle tops)
        if c.zone == ZP and B.is_char(st, u):
            keep = min(c.power, max(0, B.max_power(st, u)))
            if keep != c.power:
                st.cards[u].power = keep
    for p in st.players:
        for o in p.oracles:
            if o.up and o.cards:
                t = o.cards[0]
                if B.is_char(st, t):
                    o.power = min(o.power, max(0, B.max_power(st, t)))
                elif B.is_resource(st, t):  # D
                    o.power = min(o.power, B.fx(st, t).cost)
    for s in order(st):  # E
        draw(st, s, 1)
    for u, c in B.raw_items(st):  # F
        if c.tired or c.pm_round:
            c = st.cards[u]
            c.tired = False
            c.pm_round = 0
    for s in order(st):  # the end of the phase: Atlántida
        pan = st.players[s].pantheon
        for op in B.statics(st, pan, "endloss"):
            V.lose_reserve(st, s, int(op.n))  # type: ignore[arg-type]
    settle(st)
    if st.finished:
        return
    victory_check(st)
    if st.finished:
        return
    seats = alive(st)  # G
    n = st.num_seats
    nxt = (st.first + 1) % n
    while nxt not in seats:
        nxt = (nxt + 1) % n
    st.first = nxt
    if blocked_check(st):
        finish_by_reserve(st, "bloqueo")
        return
    st.round += 1
    if st.round > st.options.max_rounds:
        finish_by_reserve(st, "limite")
        return
    start_round(st)


def _turn_marked(c: Inst) -> bool:
    """Whether step B of reorganisation has anything to undo on this card."""
    return bool(
        c.f_turn
        or c.pm_turn
        or c.keys_turn
        or c.marks
        or c.used
        or c.silenced
        or c.shielded
        or c.no_assign
        or c.f_double
        or c.fought
        or c.pm_set is not None
        or c.borrowed
    )


def victory_check(st: GdmState) -> None:
    """Dios de dioses: 30P (two players) or 35P (more) after reorganisation."""
    seats = alive(st)
    if st.num_seats == 2:
        rich = [s for s in seats if st.players[s].reserve >= WIN_2P]
        if rich:
            best = max(st.players[s].reserve for s in rich)
            top = [s for s in rich if st.players[s].reserve == best]
            win = st.first if len(top) > 1 else top[0]
            end(st, [win], "dios_de_dioses")
        return
    rich = [s for s in seats if st.players[s].reserve >= WIN_MULTI]
    # Players reaching 35P together leave together: each scores half of those who stay.
    remaining = len(seats) - len(rich)
    for s in rich:
        st.players[s].alive = False
        st.players[s].out_round = st.round
        st.players[s].vp += remaining / 2
        _leave_table(st, s)
    _last_standing(st)


def _leave_table(st: GdmState, seat: int) -> None:
    # shared records are read, and copied (st.cards[u]) only where something changes
    for u, c in list(B.raw_items(st)):
        if c.zone not in (ZP, BATTLE, GEAR):
            continue
        if c.ctrl == seat and c.owner != seat:
            st.cards[u].ctrl = c.owner
        elif c.owner == seat and c.ctrl != seat:
            st.cards[u].ctrl = seat
    for u in list(st.cards):
        c = B.peek(st, u)  # read afresh: discarding a bearer discards its gear too
        if c.owner == seat and c.zone in (ZP, BATTLE, GEAR) and facts(c.card).type != PANTHEON:
            B.to_discard(st, u)


def _last_standing(st: GdmState) -> None:
    seats = alive(st)
    if len(seats) <= 1 and not st.finished:
        if seats:
            st.players[seats[0]].vp += 1
        best = max(p.vp for p in st.players)
        end(st, [s for s in range(st.num_seats) if st.players[s].vp == best], "puntos")


def settle(st: GdmState) -> None:
    """Olvido: a reserve at 0 or less eliminates its player at once."""
    if st.finished:
        return
    low = [s for s in alive(st) if st.players[s].reserve <= 0]
    if not low:
        return
    if st.num_seats == 2:
        seats = alive(st)
        if len(low) == len(seats):
            best = max(st.players[s].reserve for s in low)
            top = [s for s in low if st.players[s].reserve == best]
            win = st.first if len(top) > 1 else top[0]
        else:
            win = next(s for s in seats if s not in low)
        _told_out(st, [s for s in low if s != win])  # both below 0: the winner is not out
        end(st, [win], "olvido")
        return
    _told_out(st, low)
    for s in low:
        right = (s - 1) % st.num_seats
        while not st.players[right].alive or right in low:
            right = (right - 1) % st.num_seats
            if right == s:
                break
        if right != s:
            st.players[right].vp += 1
        st.players[s].alive = False
        st.players[s].out_round = st.round
        _leave_table(st, s)
        if st.fight is not None and s in (st.fight.a, st.fight.b):
            st.fight = None
            st.stack = []
    _last_standing(st)
    if not st.finished:
        _repair_turn(st)


def _told_out(st: GdmState, seats: list[int]) -> None:
    """Tell the table who leaves it and why, before what that leads to."""
    for s in seats:
        r = st.players[s].reserve
        if r < 0:  # a pile of counters holds no less than 0P: the loss was larger than it
            say(st, None, msg("{seat} is out: their reserve is at 0P, {short}P short.",
                              seat=seat_name(s), short=-r))
        else:
            say(st, None, msg("{seat} is out: their reserve is at {n}P.", seat=seat_name(s), n=r))


def _repair_turn(st: GdmState) -> None:
    """After an elimination, make sure the one to act is still at the table."""
    seats = alive(st)
    if st.phase in ("transfer", "influence") and st.actor not in seats:
        if st.phase == "transfer":
            st.stack = []
            end_transfer_after_loss(st)
        else:
            next_actor(st)
    if st.phase == "challenge" and st.chooser not in seats:
        next_challenge(st)
    if st.phase == "fight" and st.fight is None and not st.stack:
        next_challenge(st)
    if st.first not in seats:
        nxt = st.first
        while nxt not in seats:
            nxt = (nxt + 1) % st.num_seats
        st.first = nxt


def end_transfer_after_loss(st: GdmState) -> None:
    """The seat in transfer left the table: go on with the next."""
    seats = order(st)
    if st.order_pos < len(seats):
        begin_transfer(st, seats[st.order_pos])
    else:
        end_transfer(st)


def finish_by_reserve(st: GdmState, reason: str) -> None:
    """A blocked table or the turn bound: the largest reserve wins (two players), else most points."""
    seats = alive(st)
    if st.num_seats == 2:
        best = max(st.players[s].reserve for s in seats)
        top = [s for s in seats if st.players[s].reserve == best]
        end(st, [st.first] if len(top) > 1 and st.first in top else top[:1], reason)
        return
    best = max(p.vp for p in st.players)
    end(st, [s for s in range(st.num_seats) if st.players[s].vp == best], reason)


def end(st: GdmState, winners: list[int], reason: str) -> None:
    """The game is over."""
    st.finished = True
    st.phase = "over"
    st.winners = winners
    st.end_reason = reason
    st.stack = []

