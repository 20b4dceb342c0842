"""Every card of the second half of the list (0183-0364) played where its text matters.

One compact scenario per card: the position is built by hand, the ability is taken from
the engine's legal actions (so it is offered exactly when the text allows it), each choice
is answered, and the exact effect is checked: amounts, targets, durations, costs paid.
Cards without ability text get a check of their printed numbers; static texts are checked
where they apply (costs, keys, transfers). ``COVERED_B`` lists the cards covered here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos.abilities import UNENCODED
from rules.guerra_de_mitos.facts import all_facts
from rules.guerra_de_mitos.model import (
    Assign,
    Choose,
    Equip,
    GdmState,
    Meditate,
    Pass,
    Play,
    Target,
    Use,
)
from tests.rules import gdm_helpers as H

E = H.E

# Bodies without abilities of their own (vanilla), so nothing else moves in a scenario.
NOBU = "0015"  # Nobunaka: mortal, Japonesa, F1 PM3, Ashigaru
MILO = "0097"  # Milo: mortal, Egipcia, F0 PM2
HARALD = "0039"  # Harald: mortal, Nórdica, F1 PM3, Guerrero
HERACLES = "0058"  # Heracles: mortal, Griega, F1 PM3, Héroe Guerrero
MIDORI = "0019"  # Midori: mortal Invocador, Japonesa, F0 PM2
RANDOLF = "0117"  # Randolf Carter: mortal, Primigenia, F1 PM3, Loco
DAGON = "0114"  # Dagon: mortal, Primigenia, F3 PM2, Criatura
SUSANOO = "0018"  # Susanoo: god, Japonesa, F2 PM6, Guerrero
EROS = "0048"  # Eros: god, Griega, F1 PM6
AME = "0017"  # Ame-no-oshido-mimi: god Invocador, Japonesa, F2 PM6
ITHAQUA = "0115"  # Ithaqua: god Primigenio, Primigenia, F1 PM5
KARASU = "0020"  # Karasu Tengu: mortal Demonio, Japonesa, F1 PM5
RES = "0166"  # a resource of cost 1 ("INFLUENCIA: cansa; ganas 1P")
RES2 = "0144"  # Norna, a resource of cost 2 ("INFLUENCIA: cansa; roba 1")
RES3 = "0149"  # Templo Shitennoji, cost 3 ("INFLUENCIA: cansa; ganas 2P")

SCENARIOS: dict[str, Callable[[str], None]] = {}


def card(*ids: str) -> Callable[[Callable[[str], None]], Callable[[str], None]]:
    """Register a scenario for one or more cards (it receives the card id)."""

    def deco(fn: Callable[[str], None]) -> Callable[[str], None]:
        for cid in ids:
            assert cid not in SCENARIOS, cid
            SCENARIOS[cid] = fn
        return fn

    return deco


# ----------------------------------------------------------------------------- helpers


def table(phase: str = "influence") -> GdmState:
    """Two players with 20P each, in influence or in a confrontation (seat 0 to act)."""
    st = H.blank(2)
    if phase == "fight":
        H.fight(st)
    return st


def ways(st: GdmState, uid: int, idx: int = 0, seat: int = 0) -> list[Play | Use]:
    """The legal actions that play or use ability ``idx`` of card ``uid``."""
    return [
        a
        for a in E.legal_actions(st, seat)
        if isinstance(a, Play | Use) and a.uid == uid and a.ability == idx
    ]


def offered(st: GdmState, uid: int, idx: int = 0, seat: int = 0) -> bool:
    """Whether the ability is offered now."""
    return bool(ways(st, uid, idx, seat))


def go(
    st: GdmState, uid: int, idx: int = 0, seat: int = 0, payer: int | None = None
) -> GdmState:
    """Play or use the ability (it must be offered)."""
    acts = ways(st, uid, idx, seat)
    assert acts, f"not offered: {[E.describe(st, seat, a).en for a in E.legal_actions(st, seat)]}"
    if payer is not None:
        acts = [a for a in acts if isinstance(a, Play) and a.payer == payer]
        assert acts, "that character cannot pay"
    st, _ = E.apply(st, seat, acts[0])
    return st


def options(st: GdmState) -> set[int]:
    """The cards or values offered by the pending choice."""
    seat = st.stack[-1].seat
    return {
        a.uid if isinstance(a, Target) else a.value  # type: ignore[union-attr]
        for a in E.legal_actions(st, seat)
        if isinstance(a, Target | Choose)
    }


def pick(st: GdmState, *values: int | str) -> GdmState:
    """Answer the pending choices in order (a card uid, a number, or "pass")."""
    for v in values:
        assert st.stack, f"no choice pending for {v}"
        seat = st.stack[-1].seat
        legal = E.legal_actions(st, seat)
        if v == "pass":
            act = Pass()
        else:
            found = [
                a
                for a in legal
                if (isinstance(a, Target) and a.uid == v) or (isinstance(a, Choose) and a.value == v)
            ]
            assert found, f"{v} is not among {options(st)}"
            act = found[0]
        assert act in legal
        st, _ = E.apply(st, seat, act)
    return st


def done(st: GdmState) -> None:
    """Nothing is left to choose."""
    assert not st.stack, f"a choice is still pending: {options(st)}"


def p(st: GdmState, uid: int) -> int:
    """Power on a card."""
    return st.cards[uid].power


def zone(st: GdmState, uid: int) -> str:
    """Where a card is."""
    return st.cards[uid].zone


def res(st: GdmState, seat: int = 0) -> int:
    """A player's reserve."""
    return st.players[seat].reserve


def both_pass(st: GdmState) -> GdmState:
    """Both fighters pass: the confrontation is resolved."""
    f = st.fight
    assert f is not None
    first = f.turn
    other = f.b if first == f.a else f.a
    st, _ = E.apply(st, first, Pass())
    st, _ = E.apply(st, other, Pass())
    return st


# ----------------------------------------------------------------------------- neutral


@card("0183")
def engwar(cid: str) -> None:
    """INFLUENCIA: tires a character with the key Demonio, yours or an enemy's."""
    st = table()
    me = H.put(st, cid, 0, power=3)
    demon = H.put(st, KARASU, 1, power=2)
    mine = H.put(st, "0004", 0, power=2)  # Hachiman: Dios, Demonio
    H.put(st, NOBU, 1, power=2)
    st = go(st, me)
    assert options(st) == {demon, mine}
    st = pick(st, demon)
    done(st)
    assert st.cards[demon].tired and not st.cards[me].tired and p(st, me) == 3
    st.actor = 0
    assert not offered(st, me)  # once a turn


# ----------------------------------------------------------------------------- invocations


@card("0184")
def urania(cid: str) -> None:
    """Pays 1P from its summoner on the battlefield; its player gains 2P."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=2)
    u = H.gear(st, cid, bearer)
    st = go(st, u)
    done(st)
    assert p(st, bearer) == 1 and res(st) == 22
    low = table("fight")
    b2 = H.put(low, MIDORI, 0, "battle", power=0)
    assert not offered(low, H.gear(low, cid, b2))  # the cost cannot be paid


@card("0185")
def melpomene(cid: str) -> None:
    """Pays 1P from its summoner; readies one of your tired characters."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=2)
    tired = H.put(st, NOBU, 0, "battle", power=1, tired=True)
    H.put(st, NOBU, 1, "battle", power=1, tired=True)
    u = H.gear(st, cid, bearer)
    st = go(st, u)
    done(st)
    assert p(st, bearer) == 1 and not st.cards[tired].tired


@card("0186")
def euterpe(cid: str) -> None:
    """+1F and +1P to a character with the key Héroe (any player's)."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    hero = H.put(st, HERACLES, 1, power=1)
    H.put(st, NOBU, 0, power=1)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert B.strength(st, hero) == 2 and p(st, hero) == 2
    assert st.cards[hero].f_turn == 1  # for this turn only


@card("0187")
def sangre_en_el_nilo(cid: str) -> None:
    """Tires its summoner as the cost; tires an enemy resource."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    r = H.put(st, RES, 1)
    H.put(st, RES, 0)
    u = H.gear(st, cid, bearer)
    st = go(st, u)
    done(st)
    assert st.cards[bearer].tired and st.cards[r].tired
    st2 = table()
    b2 = H.put(st2, MIDORI, 0, power=1, tired=True)
    H.put(st2, RES, 1)
    assert not offered(st2, H.gear(st2, cid, b2))  # a tired summoner cannot pay


@card("0188")
def caminos_de_tehuli(cid: str) -> None:
    """Discards the whole hand; draws one card fewer than it discarded."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    hand = [H.in_hand(st, "0265", 0) for _ in range(3)]
    H.on_deck(st, ["0266", "0267", "0268", "0269"], 0)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert all(zone(st, u) == "discard" for u in hand)
    assert [st.cards[u].card for u in st.players[0].hand] == ["0266", "0267"]


@card("0189")
def muerte_de_los_primogenitos(cid: str) -> None:
    """Destroys itself and one of your characters; each opponent destroys one of equal PM."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    mine = H.put(st, EROS, 0, power=2)  # PM 6
    same = H.put(st, SUSANOO, 1, power=2)  # PM 6
    other = H.put(st, NOBU, 1, power=2)  # PM 3
    u = H.gear(st, cid, bearer)
    st = go(st, u)
    st = pick(st, mine)
    done(st)  # the only enemy of PM 6 is destroyed without a choice
    assert zone(st, u) == "discard" and zone(st, mine) == "discard"
    assert zone(st, same) == "discard" and zone(st, other) == "pantheon"


@card("0190")
def clio(cid: str) -> None:
    """CONFRONTATION: one of your characters gains 1P."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=1)
    ally = H.put(st, NOBU, 0, "battle", power=1)
    H.put(st, NOBU, 1, "battle", power=1)
    st = go(st, H.gear(st, cid, bearer))
    assert options(st) == {bearer, ally}
    st = pick(st, ally)
    assert p(st, ally) == 2 and p(st, bearer) == 1


@card("0192")
def disfraces_de_xipe_totec(cid: str) -> None:
    """The summoner copies an enemy resource's ability: it is tired and its player gains 2P."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    enemy_res = H.put(st, RES3, 1)  # "cansa este recurso; ganas 2P"
    st = go(st, H.gear(st, cid, bearer))
    st = pick(st, enemy_res) if st.stack else st
    done(st)
    assert st.cards[bearer].tired and not st.cards[enemy_res].tired
    assert res(st, 0) == 22 and res(st, 1) == 20


@card("0193")
def talia(cid: str) -> None:
    """CONFRONTATION: moves one of your characters from the pantheon to the battlefield."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=1)
    home = H.put(st, NOBU, 0, power=2)
    H.put(st, NOBU, 1, power=2)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert zone(st, home) == "battle" and p(st, home) == 2  # no assignment cost


@card("0194")
def bake_kujira(cid: str) -> None:
    """Pays 1P from its summoner; tires an enemy character."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=2)
    foe = H.put(st, NOBU, 1, "battle", power=1)
    H.put(st, NOBU, 0, "battle", power=1)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert p(st, bearer) == 1 and st.cards[foe].tired


@card("0195")
def laguz(cid: str) -> None:
    """INFLUENCE: a character on top of one of your oracles gains 1P (on the oracle)."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    i = H.oracle(st, [NOBU, MILO], 0, power=1)
    H.oracle(st, [RES], 0, power=1)  # a resource is no character
    H.oracle(st, [NOBU], 1, power=1)  # an enemy oracle is not yours
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert st.players[0].oracles[i].power == 2 and st.players[1].oracles[0].power == 1


@card("0196")
def los_100000(cid: str) -> None:
    """The summoner's maximum power becomes an enemy character's for this turn."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)  # PM 2
    big = H.put(st, "0026", 1, power=1)  # Loki PM 9
    H.put(st, NOBU, 1, power=1)
    st = go(st, H.gear(st, cid, bearer))
    st = pick(st, big)
    done(st)
    assert B.max_power(st, bearer) == 9
    st.cards[bearer].power = 9
    F.reorganise(st)
    assert B.max_power(st, bearer) == 2 and p(st, bearer) == 2  # gone in reorganisation B


@card("0197")
def berkana(cid: str) -> None:
    """INFLUENCE: one of your characters in your pantheon gains 1P."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    ally = H.put(st, NOBU, 0, power=0)
    H.put(st, NOBU, 1, power=0)
    st = go(st, H.gear(st, cid, bearer))
    assert options(st) == {bearer, ally}
    st = pick(st, ally)
    assert p(st, ally) == 1


@card("0198")
def mannaz(cid: str) -> None:
    """Moves one of your mortals from the battlefield home as the cost; you gain 1P."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=1)
    god = H.put(st, EROS, 0, "battle", power=1)
    st = go(st, H.gear(st, cid, bearer))
    done(st)  # the only mortal is the summoner itself
    assert zone(st, bearer) == "pantheon" and zone(st, god) == "battle" and res(st) == 21


@card("0199")
def nue(cid: str) -> None:
    """Equips an enemy's equipment on one of your characters, without paying its cost."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=1)
    ally = H.put(st, NOBU, 0, "battle", power=1)
    foe = H.put(st, NOBU, 1, "battle", power=1)
    axe = H.gear(st, "0224", foe)
    st = go(st, H.gear(st, cid, bearer))
    assert options(st) == {bearer, ally}  # the only enemy equipment is taken at once
    st = pick(st, ally)
    done(st)
    assert st.cards[axe].on == ally and st.cards[axe].ctrl == 0 and st.cards[axe].owner == 1
    assert p(st, ally) == 1 and B.strength(st, ally) == 3 and B.strength(st, foe) == 1


@card("0200")
def tres_dias_de_tinieblas(cid: str) -> None:
    """-2F to an enemy character for the turn."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=1)
    foe = H.put(st, SUSANOO, 1, "battle", power=1)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert B.strength(st, foe) == 0 and st.cards[foe].f_turn == -2


@card("0201")
def peste_del_ganado(cid: str) -> None:
    """Destroys one of your mortals as the cost; an opponent loses 1P of reserve."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    mortal = H.put(st, NOBU, 0, power=1)
    H.put(st, EROS, 0, power=1)
    st = go(st, H.gear(st, cid, bearer))
    assert options(st) == {bearer, mortal}  # gods are no mortals
    st = pick(st, mortal)
    done(st)
    assert zone(st, mortal) == "discard" and res(st, 1) == 19 and res(st, 0) == 20


@card("0202")
def fehu(cid: str) -> None:
    """Gives the key Guerrero to a character for the turn."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    foe = H.put(st, MILO, 1, power=1)
    st = go(st, H.gear(st, cid, bearer))
    st = pick(st, foe)
    assert "guerrero" in B.keys(st, foe)
    F.reorganise(st)
    assert "guerrero" not in B.keys(st, foe)


@card("0203")
def basan(cid: str) -> None:
    """Tires its summoner; the opponent chooses: tire one of their gods or lose 2P on one."""
    for choice in (0, 1):
        st = table("fight")
        bearer = H.put(st, MIDORI, 0, "battle", power=1)
        god = H.put(st, EROS, 1, "battle", power=3)
        st = go(st, H.gear(st, cid, bearer))
        assert st.stack[-1].seat == 1 and options(st) == {0, 1}
        st = pick(st, choice)
        done(st)
        assert st.cards[bearer].tired
        assert (st.cards[god].tired, p(st, god)) == ((True, 3) if choice == 0 else (False, 1))


@card("0204")
def byakko(cid: str) -> None:
    """CONFRONTATION: uses an enemy character's ability as the summoner's own."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=2)
    foe = H.put(st, "0017", 1, "battle", power=2)  # Ame-no-oshido-mimi: -2F to an enemy
    st = go(st, H.gear(st, cid, bearer))
    st = pick(st, foe) if st.stack and foe in options(st) and st.stack[-1].card == cid else st
    done(st)
    assert B.strength(st, foe) == 0  # 2 - 2, the copied ability aimed at the enemy


@card("0205")
def simbolo_acano(cid: str) -> None:
    """INFLUENCE: you gain 1P."""
    st = table()
    u = H.gear(st, cid, H.put(st, MIDORI, 0, power=1))
    st = go(st, u)
    assert res(st) == 21
    st.actor = 0
    assert not offered(st, u)


@card("0206")
def lampara_de_alhazred(cid: str) -> None:
    """The summoner is assigned to the battlefield without paying 1P this turn."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=0)
    st = go(st, H.gear(st, cid, bearer))
    H.fight(st, stage="assign")
    assert Assign(uid=bearer) in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, Assign(uid=bearer))
    assert zone(st, bearer) == "battle" and p(st, bearer) == 0


@card("0207")
def trapezoedro_brillante(cid: str) -> None:
    """Takes a resource from your discard to your pantheon, paying its cost from the summoner."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=2)
    r = H.discarded(st, RES2, 0)  # cost 2
    H.discarded(st, RES2, 1)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert zone(st, r) == "pantheon" and p(st, bearer) == 0
    st2 = table("fight")
    b2 = H.put(st2, MIDORI, 0, "battle", power=1)
    H.discarded(st2, RES2, 0)
    assert not offered(st2, H.gear(st2, cid, b2))  # 1P cannot pay a cost of 2


@card("0208")
def droga_plutonica(cid: str) -> None:
    """Destroys itself; characters with the key Loco are assigned without paying 1P."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    loco = H.put(st, RANDOLF, 0, power=0)
    plain = H.put(st, NOBU, 0, power=0)
    u = H.gear(st, cid, bearer)
    st = go(st, u)
    assert zone(st, u) == "discard"
    H.fight(st, stage="assign")
    legal = E.legal_actions(st, 0)
    assert Assign(uid=loco) in legal and Assign(uid=plain) not in legal


@card("0209")
def amikiri(cid: str) -> None:
    """Tires its summoner; the enemy chosen cannot be assigned this turn."""
    st = table()
    bearer = H.put(st, MIDORI, 0, power=1)
    foe = H.put(st, NOBU, 1, power=2)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert st.cards[bearer].tired
    H.fight(st, stage="assign")
    st.fight.turn = 1  # type: ignore[union-attr]
    assert Assign(uid=foe) not in E.legal_actions(st, 1)


@card("0210")
def plaga_de_langostas(cid: str) -> None:
    """Destroys itself; every player loses as much power as they have oracles."""
    st = table("fight")
    u = H.gear(st, cid, H.put(st, MIDORI, 0, "battle", power=1))
    for _ in range(3):
        H.oracle(st, [NOBU], 0)
    for _ in range(2):
        H.oracle(st, [NOBU], 1)
    st = go(st, u)
    assert zone(st, u) == "discard" and res(st, 0) == 17 and res(st, 1) == 18


@card("0211")
def eis(cid: str) -> None:
    """Pays 1P from its summoner; moves an enemy character home."""
    st = table("fight")
    bearer = H.put(st, MIDORI, 0, "battle", power=2)
    foe = H.put(st, NOBU, 1, "battle", power=1)
    st = go(st, H.gear(st, cid, bearer))
    done(st)
    assert p(st, bearer) == 1 and zone(st, foe) == "pantheon"


COVERED_B = frozenset(SCENARIOS)


@pytest.mark.parametrize("cid", sorted(SCENARIOS))
def test_card_plays_as_printed(cid: str) -> None:
    """The card's scenario: its ability (or static text) does exactly what it says."""
    SCENARIOS[cid](cid)
