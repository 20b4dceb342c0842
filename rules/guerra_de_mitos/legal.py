"""The legal actions of a Guerra de Mitos position, by phase: all of them, or only those that
could equal one action (the check of ``apply``)."""

from __future__ import annotations

from typing import Any

from rules.core import Action, Seat
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import plays as PL
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos.abilities import abilities
from rules.guerra_de_mitos.facts import ACTION, EQUIP, INVOC
from rules.guerra_de_mitos.model import (
    BATTLE,
    GEAR,
    Assign,
    Bid,
    Challenge,
    Choose,
    DropOracle,
    Enter,
    Equip,
    GdmState,
    Meditate,
    Move,
    Pass,
    Play,
    Starter,
    Target,
    Use,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP

# Actions are frozen models: the common ones are built once and shared.
_PASS = Pass()
_BIDS = tuple(Bid(amount=k) for k in range(1, 5))
_MOVES: dict[tuple[int, int], Move] = {}
_ENTERS: dict[int, Enter] = {}
_DROPS: dict[int, DropOracle] = {}


def _move(src: int, dst: int) -> Move:
    m = _MOVES.get((src, dst))
    if m is None:
        m = _MOVES[(src, dst)] = Move(src=src, dst=dst)
    return m


def _enter(i: int) -> Enter:
    e = _ENTERS.get(i)
    if e is None:
        e = _ENTERS[i] = Enter(oracle=i)
    return e


_MADE: dict[tuple[Any, ...], Action] = {}


def _made(cls: type[Action], *args: int | None) -> Action:
    """A shared action of the kinds that name cards (uids repeat from game to game)."""
    key = (cls, *args)
    a = _MADE.get(key)
    if a is None:
        names = _FIELDS[cls]
        a = _MADE[key] = cls(**{k: v for k, v in zip(names, args, strict=True) if v is not None})
    return a


_FIELDS: dict[type[Action], tuple[str, ...]] = {
    Play: ("uid", "ability", "payer"),
    Use: ("uid", "ability"),
    Equip: ("uid", "target"),
    Meditate: ("uid",),
    Assign: ("uid",),
    Target: ("uid",),
}


def _hand_key(st: GdmState, u: int) -> tuple[Any, ...]:
    """What a card in hand may be played for depends on these only: two copies share it."""
    c = B.peek(st, u)
    return (c.card, tuple(c.muted), c.silenced, tuple(c.marks))


def _drop(i: int) -> DropOracle:
    d = _DROPS.get(i)
    if d is None:
        d = _DROPS[i] = DropOracle(oracle=i)
    return d


def legal(st: GdmState, seat: Seat, only: Action | None) -> list[Action]:
    """Every legal action of ``seat``; with ``only``, just those that could equal it."""
    if st.stack:
        ck = R.choice_kind(st)
        if ck is None:
            return []
        kind, opts, upto = ck
        acts: list[Action] = [
            _made(Target, u) if kind == M.CARD else Choose(value=u) for u in opts
        ]
        if upto or not acts:
            acts.append(_PASS)
        return acts
    ph = st.phase
    if ph == "bid":
        return list(_BIDS)
    if ph == "starter":
        return [Starter(seat=s) for s in range(st.num_seats)]
    if ph == "transfer":
        return transfer_actions(st, seat, only)
    if ph == "influence":
        return influence_actions(st, seat, only)
    if ph == "challenge":
        return [Challenge(seat=s) for s in F.challengeable(st, seat)]
    if ph == "fight" and st.fight is not None:
        if st.fight.stage == "assign":
            return [_made(Assign, u) for u in F.assignable(st, seat)] + [_PASS]
        return fight_actions(st, seat, only)
    return []


def transfer_actions(st: GdmState, seat: int, only: Action | None) -> list[Action]:
    """The transfer's actions: counters moved, an oracle's card discarded or put into play, the pass."""
    p = st.players[seat]
    out: list[Action] = []
    n = len(p.oracles)
    k = only.kind if only is not None else None
    if k in (None, "enter"):
        for i in range(n):
            if F.can_enter(st, seat, i):
                out.append(_enter(i))
    if k in (None, "drop"):
        for i in range(n):
            if F.can_drop(st, seat, i):
                out.append(_drop(i))
    if k in (None, "move"):
        for src in range(-1, n):
            for dst in range(-1, n):
                if F.can_move(st, seat, src, dst):
                    out.append(_move(src, dst))
    out.append(_PASS)
    return out


def influence_actions(st: GdmState, seat: int, only: Action | None) -> list[Action]:
    """The influence phase's actions: cards played, abilities used, equipping, meditating, the pass."""
    out: list[Action] = []
    p = st.players[seat]
    k = only.kind if only is not None else None
    one = getattr(only, "uid", None)
    if k in (None, "play"):
        allowed: dict[tuple[Any, ...], list[int]] = {}  # two copies in hand play alike
        for u in p.hand:
            if one is not None and u != one:
                continue
            f = B.fx(st, u)
            if f.type != ACTION:  # action_allowed refuses the rest at once
                continue
            hk = _hand_key(st, u)
            ok = allowed.get(hk)
            if ok is None:
                ok = allowed[hk] = [
                    i
                    for i in range(len(abilities(f.id)))
                    if PL.action_allowed(st, seat, u, i, "influence")
                ]
            out += [_made(Play, u, i, None) for i in ok]
    if k in (None, "use"):
        for u in my_cards(st, seat, one):
            for i, _ab in enumerate(abilities(B.peek(st, u).card)):
                if PL.ability_allowed(st, seat, u, i, "influence"):
                    out.append(_made(Use, u, i))
    if k in (None, "equip", "meditate"):
        chars = [u for u in B.controlled(st, seat, (ZP,)) if B.is_char(st, u)]
    if k in (None, "equip"):
        fits: dict[tuple[Any, ...], list[int]] = {}
        for u in p.hand:
            if (one is not None and u != one) or B.fx(st, u).type not in (EQUIP, INVOC):
                continue
            hk = _hand_key(st, u)
            ok = fits.get(hk)
            if ok is None:
                ok = fits[hk] = [
                    t
                    for t in chars
                    if B.peek(st, t).power >= B.cost(st, seat, u, t) and B.can_carry(st, u, t)
                ]
            out += [_made(Equip, u, t) for t in ok]
    if k in (None, "meditate") and not st.flags.get("no_meditate"):
        out += [_made(Meditate, u) for u in chars if not B.peek(st, u).tired]
    out.append(_PASS)
    return out


def fight_actions(st: GdmState, seat: int, only: Action | None) -> list[Action]:
    """A confrontation's actions: actions and abilities of the fight, the pass."""
    out: list[Action] = []
    p = st.players[seat]
    k = only.kind if only is not None else None
    one = getattr(only, "uid", None)
    if k in (None, "play"):
        allowed: dict[tuple[Any, ...], list[int]] = {}  # two copies in hand play alike
        for u in p.hand:
            if one is not None and u != one:
                continue
            card = B.peek(st, u).card
            hk = _hand_key(st, u)
            ok = allowed.get(hk)
            if ok is None:
                ok = allowed[hk] = [
                    i
                    for i in range(len(abilities(card)))
                    if PL.action_allowed(st, seat, u, i, "confrontation")
                ]
            for i in ok:
                if B.cost(st, seat, u) == 0:
                    out.append(_made(Play, u, i, None))
                else:
                    out += [_made(Play, u, i, w) for w in PL.payers(st, seat, u)]
    if k in (None, "use"):
        for u in my_cards(st, seat, one):
            for i, _ab in enumerate(abilities(B.peek(st, u).card)):
                if PL.ability_allowed(st, seat, u, i, "confrontation"):
                    out.append(_made(Use, u, i))
    out.append(_PASS)
    return out


def my_cards(st: GdmState, seat: int, one: int | None = None) -> list[int]:
    """The cards ``seat`` controls in play that have abilities (only ``one``, when given)."""
    return [
        u
        for u in B.controlled(st, seat, (ZP, BATTLE, GEAR))
        if (one is None or u == one) and abilities(B.peek(st, u).card)
    ]
