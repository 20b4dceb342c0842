"""A small harness for per-card tests of Guerra de Mitos: a named cast, one ability, exact deltas.

A ``Case`` names the card and ability, the phase, the cards around it (``cast``: name ->
``Who``), the answers to the ability's choices (``picks``) and the exact changes expected
(``expect``). ``run_case`` builds the position, checks the ability is offered, plays it,
answers every choice, and compares a snapshot of every named card and both players before
and after: every attribute not listed in ``expect`` must be unchanged.

Snapshot keys: ``r0``/``r1`` reserves, ``hand0``, ``deck0``, ``disc0`` (sizes), ``o0.1``
(power on seat 0's oracle 1) and ``<name>.p`` power, ``.f`` strength, ``.pm`` maximum power,
``.tired``, ``.zone``, ``.ctrl``, ``.keys``. Numbers in ``expect`` are deltas; booleans,
strings and sets are the new value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos import verbs as V
from rules.guerra_de_mitos.model import Choose, GdmState, Play, Target, Use
from tests.rules import gdm_helpers as H

E = H.E


@dataclass(frozen=True)
class Now:
    """An expected absolute value where a number would mean a change (None: gone)."""

    value: Any


@dataclass
class Who:
    """A card of the cast: its id, seat, zone (None: where the phase acts), power, tired.

    ``zone`` may be ``"gear:<name>"`` (equipped on that cast member), ``"hand"``, ``"deck"``
    (on top of the design deck), ``"discard"`` or ``"oracle"`` (a new face-up oracle of its
    own; ``"oracle-down"`` face down), holding ``power`` on the oracle.
    """

    card: str
    seat: int = 0
    zone: str | None = None
    power: int = 2
    tired: bool = False


@dataclass
class Case:
    """One card's scenario (see the module docstring)."""

    card: str
    phase: str  # inf | conf | event
    expect: dict[str, Any]
    idx: int = 0
    cast: dict[str, Who] = field(default_factory=dict)
    picks: list[Any] = field(default_factory=list)
    power: int = 4  # power on the card itself (a character)
    tired: bool = False
    src_zone: str | None = None  # where the card itself is (default: where the phase acts)
    pan: tuple[str, str] = ("0003", "0023")
    offer: set[str] | None = None  # the named cards offered at the first card choice
    check: Callable[[GdmState, dict[str, int]], None] | None = None
    prep: Callable[[GdmState, dict[str, int]], None] | None = None
    note: str = ""

    @property
    def id(self) -> str:
        """A readable test id."""
        return f"{self.card}-{self.idx}" + (f"-{self.note}" if self.note else "")


DEFAULT_CAST = {
    "ally": Who("0015", 0),  # Nobunaka: Japanese mortal, Ashigaru, 1F 3PM
    "foe": Who("0039", 1),  # Harald: Norse mortal, Berserker Guerrero, 1F 3PM
}


def place(st: GdmState, w: Who, home: str, names: dict[str, int]) -> int:
    """Put one cast member where it says."""
    z = w.zone or home
    if z.startswith("gear:"):
        return H.gear(st, w.card, names[z[5:]])
    if z == "hand":
        return H.in_hand(st, w.card, w.seat)
    if z == "deck":
        return H.on_deck(st, [w.card], w.seat)[0]
    if z == "discard":
        return H.discarded(st, w.card, w.seat)
    if z in ("oracle", "oracle-down"):
        i = H.oracle(st, [w.card], w.seat, power=w.power, up=z == "oracle")
        return st.players[w.seat].oracles[i].cards[0]
    return H.put(st, w.card, w.seat, z, power=w.power, tired=w.tired)


def build(case: Case) -> tuple[GdmState, dict[str, int]]:
    """The position of a case: pantheons, cast, the card itself; a fight for ``conf``."""
    pan = case.pan
    st = H.blank(2, pantheons=pan)
    home = "battle" if case.phase == "conf" else "pantheon"
    names: dict[str, int] = {"pan0": st.players[0].pantheon, "pan1": st.players[1].pantheon}
    cast = dict(DEFAULT_CAST)
    cast.update(case.cast)
    for n, w in cast.items():
        if w.card:
            names[n] = place(st, w, home, names)
    from rules.guerra_de_mitos.facts import facts

    f = facts(case.card)
    if f.type == "pantheon":
        names["src"] = st.players[0].pantheon
        assert st.cards[names["src"]].card == case.card, "put the pantheon in Case.pan"
    elif f.type == "character":
        names["src"] = H.put(
            st, case.card, 0, case.src_zone or home, power=case.power, tired=case.tired
        )
    elif f.type == "resource":
        names["src"] = H.put(st, case.card, 0, "pantheon", tired=case.tired)
    elif f.type == "action":
        names["src"] = H.in_hand(st, case.card, 0)
    elif f.type in ("equipment", "invocation"):
        names["src"] = H.gear(st, case.card, names["bearer"])
    elif f.type == "event":
        names["src"] = -1
    if case.phase == "conf":
        H.fight(st)
    if case.prep:
        case.prep(st, names)
    return st, names


def snap(st: GdmState, names: dict[str, int]) -> dict[str, Any]:
    """Everything the expectations may speak of."""
    out: dict[str, Any] = {}
    for s, p in enumerate(st.players):
        out[f"r{s}"] = p.reserve
        out[f"hand{s}"] = len(p.hand)
        out[f"deck{s}"] = len(p.deck)
        out[f"disc{s}"] = len(p.discard)
        for i, o in enumerate(p.oracles):
            out[f"o{s}.{i}"] = o.power
    for n, u in names.items():
        if u < 0 or u not in st.cards:
            continue
        c = st.cards[u]
        out[f"{n}.zone"] = c.zone
        if c.zone not in ("pantheon", "battle", "gear"):
            continue  # out of play: only where it is (an oracle's power is o<seat>.<i>)
        out[f"{n}.p"] = M.card_power(st, u)
        out[f"{n}.tired"] = c.tired
        out[f"{n}.ctrl"] = c.ctrl
        if B.is_char(st, u):
            out[f"{n}.f"] = B.strength(st, u)
            out[f"{n}.pm"] = B.max_power(st, u)
            out[f"{n}.keys"] = frozenset(B.keys(st, u))
    return out


def value(st: GdmState, names: dict[str, int], pick: Any) -> int:
    """A pick as the engine's number: a cast name, ``"o<seat>.<i>"`` for an oracle, or an int."""
    if isinstance(pick, int):
        return pick
    if pick.startswith("o") and "." in pick:
        s, i = pick[1:].split(".")
        return M.oracle_code(int(s), int(i))
    return names[pick]


def offered_now(st: GdmState, names: dict[str, int]) -> set[str]:
    """The cast names offered by the pending card choice."""
    seat = st.stack[-1].seat
    uids = {a.uid for a in E.legal_actions(st, seat) if isinstance(a, Target)}
    return {n for n, u in names.items() if u in uids}


def answer(st: GdmState, names: dict[str, int], picks: list[Any]) -> GdmState:
    """Answer the pending choices in order; ``"pass"`` stops an optional one."""
    for pk in picks:
        assert st.stack, f"no choice pending for {pk!r}"
        seat = st.stack[-1].seat
        legal = E.legal_actions(st, seat)
        if pk == "pass":
            act = next(a for a in legal if a.kind == "pass")
        else:
            v = value(st, names, pk)
            act = Target(uid=v) if Target(uid=v) in legal else Choose(value=v)
            assert act in legal, f"{pk!r} is not offered: {legal}"
        st, _ = E.apply(st, seat, act)
    return st


def use(st: GdmState, uid: int, idx: int = 0, seat: int = 0, payer: int | None = None) -> GdmState:
    """Use (or play) the ability ``idx`` of ``uid``; it must be offered."""
    legal = E.legal_actions(st, seat)
    want = [
        a
        for a in legal
        if isinstance(a, Use | Play)
        and a.uid == uid
        and a.ability == idx
        and (payer is None or getattr(a, "payer", None) == payer)
    ]
    assert want, f"ability {idx} of {st.cards[uid].card} not offered: {legal}"
    st, _ = E.apply(st, seat, want[0])
    return st


def offered(st: GdmState, uid: int, idx: int = 0, seat: int = 0) -> bool:
    """Whether the ability is offered now."""
    return any(
        isinstance(a, Use | Play) and a.uid == uid and a.ability == idx
        for a in E.legal_actions(st, seat)
    )


def event_oracle(st: GdmState, card: str, seat: int = 0) -> int:
    """Put ``card`` face down on a new oracle of ``seat`` (over a Milo); its index."""
    return H.oracle(st, [card, "0097"], seat, power=0, up=False)


def reveal(st: GdmState, seat: int, i: int) -> GdmState:
    """Reveal the top of oracle ``i`` of ``seat`` (step A) and resolve what needs no choice."""
    V.reveal(st, seat, st.players[seat].oracles[i])
    R.run(st)
    return st


def run_case(case: Case) -> None:
    """Build, play, answer, compare."""
    st, names = build(case)
    if case.phase == "event":
        i = event_oracle(st, case.card)
        ev = st.players[0].oracles[i].cards[0]
        before = snap(st, names)
        st = reveal(st, 0, i)
    else:
        before = snap(st, names)
        st = use(st, names["src"], case.idx)
    if case.offer is not None:
        assert offered_now(st, names) == case.offer
    st = answer(st, names, case.picks)
    assert not st.stack, f"choices left: {E.legal_actions(st, st.stack[-1].seat)}"
    after = snap(st, names)
    if case.phase == "event":
        # the event leaves its oracle for its owner's discard
        assert st.cards[ev].zone == "discard" or case.expect.get("ev.zone")
        after["disc0"] -= st.cards[ev].zone == "discard"
    if case.phase != "event" and st.cards[names["src"]].card != case.card:
        raise AssertionError("the card changed identity")
    problems = []
    for k in sorted(set(before) | set(after)):
        b, a = before.get(k), after.get(k)
        if k in case.expect:
            want = case.expect[k]
            if isinstance(want, Now):
                ok = a == want.value
            elif isinstance(want, bool) or not isinstance(want, int):
                ok = a == want
            else:
                ok = isinstance(a, int) and isinstance(b, int) and a - b == want
            if not ok:
                problems.append(f"{k}: {b} -> {a}, expected {want}")
        elif a != b and (
            a is not None and b is not None or k[0] == "o" and k[1].isdigit() or k.endswith(".zone")
        ):
            problems.append(f"{k}: {b} -> {a}, expected no change")
    assert not problems, f"{case.id}: " + "; ".join(problems)
    if case.check:
        case.check(st, names)
