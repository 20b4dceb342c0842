"""Every encoded card plays its ability in a busy position, and its effect changes the board.

The position has characters of every key the abilities look for, ready and tired, in both
pantheons and on the battlefield, with weapons, armour and invocations, resources, oracles
face up and down, and cards in the discards and decks. The card is put where its ability
is used (in hand, in play, on an oracle); the test checks the ability is offered, pays its
costs, resolves it taking the first option at each choice, and proves the effect (not just
the cost) changed something a player can see.
"""

from __future__ import annotations

import pytest

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import running as R
from rules.guerra_de_mitos import verbs as V
from rules.guerra_de_mitos.abilities import ABILITIES, UNENCODED, VANILLA
from rules.guerra_de_mitos.facts import all_facts
from rules.guerra_de_mitos.model import GdmState, Play, Use
from tests.rules import gdm_helpers as H

# Characters of each key and mythology the abilities filter by.
CAST = ["0015", "0039", "0058", "0076", "0117", "0114", "0115", "0017", "0041", "0020", "0113"]


def rich(phase: str) -> GdmState:
    """The busy position, in influence or in a confrontation between seats 0 and 1."""
    st = H.blank(2)
    home = "pantheon" if phase == "influence" else "battle"
    for s in (0, 1):
        for i, c in enumerate(CAST):
            u = H.put(st, c, s, home, power=2 + (i % 3), tired=(i % 4 == 3))
            if c == "0017":
                H.gear(st, "0224", u)
                H.gear(st, "0190", u)
            if c == "0039":
                H.gear(st, "0235", u)
        H.put(st, "0097", s, home, power=0)  # an exhausted mortal
        for c in ("0058", "0015", "0017"):
            H.put(st, c, s, "pantheon" if home == "battle" else "pantheon", power=2)
        H.put(st, "0166", s, "pantheon")
        H.put(st, "0149", s, "pantheon", tired=True)
        for c in ("0031", "0034", "0015", "0114"):
            H.put(st, c, s, home, power=2, tired=True)
        H.put(st, "tk-criatura", s, home, power=1)
        st.cards[max(st.cards)].created = True
        H.oracle(st, ["0115", "0015"], s, power=3)
        H.oracle(st, ["0011", "0015"], s, power=2)
        H.oracle(st, ["0039", "0015"], s, power=2)
        H.oracle(st, ["0166", "0015"], s, power=1)
        H.oracle(st, ["0154", "0015"], s, power=1)
        H.oracle(st, ["0127", "0015"], s, power=0, up=False)
        H.oracle(st, ["0024", "0015"], s, power=2)
        H.oracle(st, ["0019", "0039"], s, power=2, up=False)
        for c in ("0015", "0166", "0195", "0224", "0127", "0119"):
            H.discarded(st, c, s)
        H.on_deck(st, ["0190", "0217", "0222", "0265", "0266", "0267"], s)
        for c in ("0265", "0299", "0266"):
            H.in_hand(st, c, s)
    if phase != "influence":
        H.fight(st)
    return st


def signature(st: GdmState) -> str:
    """Everything a player can see change, as one string."""
    parts = [
        str(
            [
                (
                    p.reserve,
                    p.hand,
                    p.deck[:3],
                    p.discard,
                    p.peeks,
                    [(o.cards, o.up, o.power) for o in p.oracles],
                )
                for p in st.players
            ]
        )
    ]
    for u in sorted(st.cards):
        c = st.cards[u]
        if c.zone in ("deck",):
            continue
        parts.append(
            str(
                (
                    u,
                    c.zone,
                    c.power,
                    c.tired,
                    c.ctrl,
                    c.gear,
                    c.on,
                    c.f_perm,
                    c.f_turn,
                    c.pm_perm,
                    c.pm_turn,
                    c.pm_round,
                    c.pm_set,
                    c.keys_add,
                    c.keys_turn,
                    c.keys_del,
                    c.muted,
                    c.silenced,
                    c.no_assign,
                    c.shielded,
                    c.marks,
                    c.f_double,
                    c.used if u != -1 else None,
                )
            )
        )
    parts.append(str(sorted(st.flags.items())) + str(sorted(st.lasting.items())) + str(st.first))
    return "|".join(parts)


def cases() -> list[tuple[str, int]]:
    """(card, ability index) for every ability used in a phase or revealed."""
    out = []
    for cid, abs_ in ABILITIES.items():
        for i, ab in enumerate(abs_):
            # "any": a copied ability (tested with Huitzilopochtli); "oddtable": three players
            if ab.phase not in ("static", "any") and ab.cond != "oddtable":
                out.append((cid, i))
    return out


def place(st: GdmState, cid: str, idx: int) -> tuple[GdmState, int]:
    """Put the card where its ability is used; returns the state and the card's uid."""
    ab = ABILITIES[cid][idx]
    f = all_facts()[cid]
    home = "pantheon" if ab.phase == "influence" else "battle"
    if ab.cond in ("in_pantheon", "fought"):
        home = "pantheon"
    if f.type == "pantheon":
        u = st.players[0].pantheon
        st.cards[u].card = cid
        return st, u
    if f.type == "character":
        u = H.put(st, cid, 0, home, power=5, tired=ab.when_tired)
        st.cards[u].fought = True
        return st, u
    if f.type == "resource":
        return st, H.put(st, cid, 0, "pantheon", tired=False)
    if f.type in ("equipment", "invocation"):
        moves = any(op.verb == "battle" and op.t.special == "bearer" for op in ab.effect)
        where = "pantheon" if (moves or ab.cond == "fought") else home
        readies = any(op.verb == "ready" and op.t.special == "bearer" for op in ab.effect)
        bearer = H.put(st, "0017", 0, where, power=2 if readies is False else 5, tired=readies)
        st.cards[bearer].fought = True
        st.cards[bearer].used = [0]  # Talismán de agua: its ability was used already
        st.cards[bearer].f_turn = -1  # Maza del Rey Escorpión removes penalties
        return st, H.gear(st, cid, bearer)
    if f.type == "action":
        return st, H.in_hand(st, cid, 0)
    raise AssertionError(f"no place for {cid}")


def play_case(cid: str, idx: int) -> tuple[str, str]:
    """Play the ability; return the board before the effect and after everything resolved."""
    ab = ABILITIES[cid][idx]
    st = rich("influence" if ab.phase in ("influence", "event") else "confrontation")
    if cid == "0352":  # four talismans of different elements
        g = H.put(st, "0017", 0, "pantheon", power=2)
        g2 = H.put(st, "0017", 0, "pantheon", power=2)
        for t, b in (("0213", g), ("0216", g), ("0233", g2), ("0234", g2)):
            H.gear(st, t, b)
    if cid == "0305":  # an Oricalco card in play
        H.gear(st, "0226", H.put(st, "0017", 0, "pantheon", power=2))
    if cid == "0233":  # a tired resource of cost 2 or less
        H.put(st, "0166", 0, "pantheon", tired=True)
    if cid == "0250":  # an enemy equipment with an INFLUENCIA ability
        H.gear(st, "0236", H.put(st, "0017", 1, "pantheon", power=3))
    if cid == "0347":
        st.first = 1
    if cid == "0360":
        for c in st.cards.values():
            if c.zone == "battle":
                c.f_turn = 1
    snap: dict[str, str] = {}
    orig = V.perform

    def spy(st_: GdmState, step, op, target):  # type: ignore[no-untyped-def]
        if step.card == cid and "before" not in snap and step.pos >= len(M.ability_of(step).cost):
            snap["before"] = signature(st_)
        return orig(st_, step, op, target)

    V.perform = spy  # type: ignore[assignment]
    try:
        if ab.phase == "event":
            o = st.players[0].oracles[2]
            u = B.new_inst(st, cid, 0, "oracle")
            o.cards.insert(0, u)
            o.up = False
            V.reveal(st, 0, o)
            R.run(st)
            st = H.settle_choices(st)
        else:
            st, u = place(st, cid, idx)
            legal = H.E.legal_actions(st, 0)
            want = [
                a for a in legal if isinstance(a, Play | Use) and a.uid == u and a.ability == idx
            ]
            assert want, (
                f"{cid} ability {idx} is not offered: {[H.E.describe(st, 0, a).en for a in legal]}"
            )
            st, _ = H.E.apply(st, 0, want[0])
            st = H.settle_choices(st)
    finally:
        V.perform = orig  # type: ignore[assignment]
    assert "before" in snap, f"{cid}: no effect operation ran"
    return snap["before"], signature(st)


@pytest.mark.parametrize(("cid", "idx"), cases())
def test_card_ability_changes_the_board(cid: str, idx: int) -> None:
    """The ability is offered, its costs are paid, and its effect changes what players see."""
    before, after = play_case(cid, idx)
    assert before != after, f"{cid} ability {idx}: the effect changed nothing"


def test_every_card_is_encoded_or_listed() -> None:
    """All 364 cards: with an ability, vanilla, or listed as not encoded with a reason."""
    ids = {c for c in all_facts() if not c.startswith("tk-")}
    assert len(ids) == 364
    assert ids == set(ABILITIES) | VANILLA | set(UNENCODED)
