"""Guerra de Mitos, passage by passage: each test sets up a position for one passage of the
rulebook (its section in the docstring) and checks the engine does what the passage says.

The cards themselves are tested one by one elsewhere; here a card appears only as the means
to exercise a rule (a glossary word, the cost of an action, a resolution change).
"""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos.decks import Deck, ready_decks, validate
from rules.guerra_de_mitos.facts import facts
from rules.guerra_de_mitos.model import (
    Assign,
    Bid,
    Challenge,
    DropOracle,
    Enter,
    Equip,
    Meditate,
    Move,
    Options,
    Pass,
    Play,
    Starter,
    Target,
    Use,
)
from tests.rules import gdm_helpers as H

E = H.E


def _transfer(st, seat: int = 0, moves: int = 5):  # type: ignore[no-untyped-def]
    """Put ``seat`` in its transfer after step A, with ``moves`` counter moves."""
    st.phase, st.actor = "transfer", seat
    st.players[seat].moves = moves
    st.players[seat].dropped = False
    return st


def _uid(st, card: str, zone: str | None = None) -> int:  # type: ignore[no-untyped-def]
    return next(u for u, c in st.cards.items() if c.card == card and (zone is None or c.zone == zone))


def _rules(deck: Deck) -> set[str]:
    return {p.rule for p in validate(deck)}


# ============================================================ 3. Construcción de mazos


def test_deck_copies_gods_uniques_and_batalla() -> None:
    """3: "un máximo de dos copias de cada carta, excepto Dioses y Únicas (1 copia) y un
    máximo de dos Batallas"."""
    base = ready_decks()["japonesa"].deck
    assert _rules(base) == set()
    common = next(c for c in base.god if not ({"dios", "unico"} & facts(c).keys))
    third = base.with_card(common, 3 - base.god[common])
    assert "copies" in _rules(third)
    god = next(c for c in base.god if "dios" in facts(c).keys)
    assert "one_copy" in _rules(base.with_card(god, 2 - base.god[god]))
    batallas = ["0289", "0323", "0340", "0342"]
    deck = base
    for b in batallas:
        deck = deck.with_card(b, 1 - deck.design.get(b, 0)) if deck.design.get(b, 0) < 1 else deck
    assert "battle_limit" in _rules(deck)


def test_deck_sizes_and_cards_keyed_to_another_mythology() -> None:
    """3 and 1: god deck 20+, design deck 30+; "No se puede incluir cartas con la clave
    específica de mitologías distintas al panteón" (Mjolnir, key Nórdico, in a Japanese deck),
    while a character of another mythology without that key is allowed."""
    deck = ready_decks()["japonesa"].deck
    assert "other_mythology" in _rules(deck.with_card("0217"))  # Mjolnir
    assert _rules(deck.with_card("0039")) == set()  # Harald (Nórdica, no mythology key)
    small = Deck(pantheon=deck.pantheon, god=dict(list(deck.god.items())[:3]), design={})
    assert {"god_deck_size", "design_deck_size"} <= _rules(small)


# ============================================================ 6.1 Preparación


def _two(seed: int = 3):  # type: ignore[no-untyped-def]
    return E.setup(2, Options(decks=[H.deck_for("griega"), H.deck_for("egipcia")]), seed)


def test_setup_reserve_from_the_pantheon_four_oracles_dealt_one_by_one_five_cards() -> None:
    """6.1: the pantheon's power makes the reserve; the god deck is dealt one by one into 4
    oracles (left to right: the first oracles get the odd cards); 5 design cards in hand."""
    st = _two()
    for s, myth in enumerate(("griega", "egipcia")):
        d = H.deck_for(myth)
        p = st.players[s]
        assert p.reserve == facts(d.pantheon).power
        sizes = [len(o.cards) for o in p.oracles]
        assert len(sizes) == 4 and sum(sizes) == len(d.gods)
        assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
        assert all(not o.up and o.power == 0 for o in p.oracles)
        assert len(p.hand) == 5 and len(p.deck) == len(d.designs) - 5
    # nobody sees another seat's oracle cards or hand
    v = E.view(st, 0)
    assert all(o.top is None for s in v.seats for o in s.oracles)


def test_bid_one_to_four_secret_and_given_to_the_opponent() -> None:
    """6.1: "separa en su mano de 1 a 4 ... revelan simultáneamente ... lo añaden a la reserva
    del jugador contrario"; the one who gave more decides, and may name the other player."""
    st = _two()
    assert sorted(a.amount for a in E.legal_actions(st, 0)) == [1, 2, 3, 4]  # type: ignore[attr-defined]
    r0, r1 = st.players[0].reserve, st.players[1].reserve
    st, _ = E.apply(st, 1, Bid(amount=4))
    assert E.view(st, 0).seats[1].bid is None and st.players[0].reserve == r0
    st, _ = E.apply(st, 0, Bid(amount=2))
    assert st.players[0].reserve == r0 + 4 and st.players[1].reserve == r1 + 2
    assert st.phase == "starter" and list(E.pending(st)) == [1]
    st, _ = E.apply(st, 1, Starter(seat=0))
    assert st.first == 0 and st.phase == "transfer" and st.actor == 0


def test_bid_ties_go_to_the_pantheon_then_to_chance() -> None:
    """6.1: "En caso de empate decide el jugador con más puntos de poder en su panteón, si aún
    continúa ... al azar"."""
    st = _two()  # Olimpo 18 against Nut 18: equal pantheons
    chooser = set()
    for seed in range(12):
        st = E.setup(2, Options(decks=[H.deck_for("griega"), H.deck_for("egipcia")]), seed)
        assert facts(B.pantheon_card(st, 0)).power == facts(B.pantheon_card(st, 1)).power
        st, _ = E.apply(st, 0, Bid(amount=3))
        st, _ = E.apply(st, 1, Bid(amount=3))
        chooser.add(st.chooser)
    assert chooser == {0, 1}
    st = E.setup(2, Options(decks=[H.deck_for("nordica"), H.deck_for("japonesa")]), 1)
    st, _ = E.apply(st, 0, Bid(amount=1))
    st, _ = E.apply(st, 1, Bid(amount=1))
    assert st.chooser == 1  # Yomi (20) beats Asgard (18)


def test_multiplayer_no_bid_random_start_and_extra_power_by_seat() -> None:
    """6.1 Multijugador: the start player +n P, the second n-1, and so on; the start is drawn."""
    myths = ("japonesa", "nordica", "griega", "azteca", "egipcia")
    firsts = set()
    for seed in range(8):
        st = E.setup(5, Options(decks=[H.deck_for(m) for m in myths]), seed)
        assert st.phase == "transfer"
        firsts.add(st.first)
        for k in range(5):
            s = (st.first + k) % 5
            base = facts(H.deck_for(myths[s]).pantheon).power
            assert st.players[s].reserve == base + 5 - k
    assert len(firsts) > 1


# ============================================================ 6.2 Transferencia


def test_transfer_goes_left_and_first_turn_moves_are_1_2_3_4_5_5() -> None:
    """6.2: the start player's transfer, then the player to the left; in the first transfer
    phase 1 move, then 2, 3... up to 5; later turns 5 each (NOTES 2)."""
    st = H.blank(6)
    st.first = 4
    st.phase = "transfer"
    F.start_round(st)
    seen = []
    for _ in range(6):
        seen.append((st.actor, st.players[st.actor].moves))
        st, _ = E.apply(st, st.actor, Pass())
    assert seen == [(4, 1), (5, 2), (0, 3), (1, 4), (2, 5), (3, 5)]
    assert st.phase == "influence" and st.actor == 4
    st.round = 2
    st.order_pos = 0
    F.begin_transfer(st, 4)
    assert st.players[4].moves == 5


def test_step_a_reveals_face_down_tops_and_resolves_events() -> None:
    """6.2 A: face-down tops are turned up; an event resolves at once and is discarded; a
    face-up top stays as it is; the card beneath an event stays face down (reading)."""
    st = H.blank(2)
    H.oracle(st, ["0015", "0039"], 0, power=1, up=False)
    H.oracle(st, ["0127", "0058"], 0, power=2, up=False)  # Hinamatsuri: gain 3P
    H.oracle(st, ["0149"], 0, power=0, up=True)
    st.phase = "transfer"
    F.begin_transfer(st, 0)
    o = st.players[0].oracles
    assert o[0].up and B.peek(st, o[0].cards[0]).card == "0015"
    assert st.players[0].reserve == 23
    assert B.peek(st, _uid(st, "0127")).zone == "discard"
    assert not o[1].up and o[1].power == 2 and B.peek(st, o[1].cards[0]).card == "0058"
    assert o[2].up


def test_step_b_discards_one_oracle_card_without_power_once() -> None:
    """6.2 B and glossary: "Puede descartar una carta de un oráculo que no tenga poder
    acumulado"; "No se puede descartar cartas de los oráculos que contengan puntos de poder"."""
    st = _transfer(H.blank(2))
    H.oracle(st, ["0015", "0039"], 0, power=1)
    H.oracle(st, ["0058", "0039"], 0, power=0)
    H.oracle(st, ["0017"], 0, power=0)
    legal = E.legal_actions(st, 0)
    assert DropOracle(oracle=0) not in legal and DropOracle(oracle=1) in legal
    with pytest.raises(IllegalAction):
        E.apply(st, 0, DropOracle(oracle=0))
    st, _ = E.apply(st, 0, DropOracle(oracle=1))
    assert B.peek(st, _uid(st, "0058")).zone == "discard"
    assert not any(isinstance(a, DropOracle) for a in E.legal_actions(st, 0))


def test_step_b_comes_before_the_counter_moves() -> None:
    """6.2: "realiza en orden todas las acciones": B (discard) comes before C (moves) and
    before putting cards into play; emptying an oracle by moves does not open B."""
    st = _transfer(H.blank(2))
    H.oracle(st, ["0015"], 0, power=1)
    H.oracle(st, ["0058"], 0, power=0)
    st, _ = E.apply(st, 0, Move(src=0, dst=-1))
    assert st.players[0].oracles[0].power == 0
    assert not any(isinstance(a, DropOracle) for a in E.legal_actions(st, 0))
    st = _transfer(H.blank(2))
    H.oracle(st, ["0015", "0039"], 0, power=1)
    H.oracle(st, ["0058"], 0, power=0)
    st, _ = E.apply(st, 0, Enter(oracle=0))
    assert not any(isinstance(a, DropOracle) for a in E.legal_actions(st, 0))
    st = _transfer(H.blank(2))  # B first, then C, is the order
    H.oracle(st, ["0015"], 0, power=1)
    H.oracle(st, ["0058", "0039"], 0, power=0)
    st, _ = E.apply(st, 0, DropOracle(oracle=1))
    st, _ = E.apply(st, 0, Move(src=-1, dst=1))
    assert st.players[0].oracles[1].power == 1


def test_step_c_moves_one_counter_at_a_time_three_ways() -> None:
    """6.2 C: reserve to oracle, oracle to reserve, oracle to oracle, one counter per move;
    the moves run out."""
    st = _transfer(H.blank(2), moves=3)
    H.oracle(st, ["0015"], 0, power=0)
    H.oracle(st, ["0058"], 0, power=0)
    legal = E.legal_actions(st, 0)
    assert Move(src=-1, dst=0) in legal and Move(src=0, dst=-1) not in legal  # empty oracle
    st, _ = E.apply(st, 0, Move(src=-1, dst=0))
    st, _ = E.apply(st, 0, Move(src=0, dst=1))
    st, _ = E.apply(st, 0, Move(src=1, dst=-1))
    p = st.players[0]
    assert (p.reserve, p.oracles[0].power, p.oracles[1].power, p.moves) == (20, 0, 0, 0)
    assert not any(isinstance(a, Move) for a in E.legal_actions(st, 0))


def test_put_into_play_with_exactly_the_cost_keeps_the_power() -> None:
    """6.2: "poner en juego ... aquellas cartas que tengan al menos tanto poder como indique en
    su coste. Al entrar en juego, los personajes mantienen encima sus puntos de poder"."""
    st = _transfer(H.blank(2, pantheons=("0001", "0022")), moves=0)
    H.oracle(st, ["0005", "0015"], 0, power=7)  # Amaterasu: cost 7, PM 9
    H.oracle(st, ["0004"], 0, power=7)  # Hachiman: cost 8
    legal = E.legal_actions(st, 0)
    assert Enter(oracle=0) in legal and Enter(oracle=1) not in legal
    st, _ = E.apply(st, 0, Enter(oracle=0))
    ama = _uid(st, "0005")
    assert st.cards[ama].zone == "pantheon" and st.cards[ama].power == 7
    assert st.players[0].oracles[0].power == 0 and not st.players[0].oracles[0].up
    assert st.players[0].reserve == 20


def test_excess_over_maximum_is_lost_to_the_central_reserve() -> None:
    """6.2: "Si hubiera más poder que el máximo ... perderá la diferencia (se devuelven a la
    reserva central)": the player's reserve does not get it."""
    st = _transfer(H.blank(2, pantheons=("0001", "0022")), moves=0)
    H.oracle(st, ["0015"], 0, power=6)  # Nobunaka: cost 1, PM 3
    st, _ = E.apply(st, 0, Enter(oracle=0))
    assert st.cards[_uid(st, "0015")].power == 3 and st.players[0].reserve == 20


def test_affiliation_penalty_and_neutral_characters() -> None:
    """6.2: "Si la afiliación del personaje y el panteón del jugador son diferentes, el
    personaje perderá un punto de poder"; Neutral: "No pertenece a ninguna mitología"."""
    st = _transfer(H.blank(2, pantheons=("0022", "0001")), moves=0)  # Asgard (Nórdica)
    H.oracle(st, ["0015"], 0, power=2)  # Nobunaka (Japonesa): 2 - 1
    H.oracle(st, ["0039"], 0, power=2)  # Harald (Nórdica): 2
    H.oracle(st, ["0181"], 0, power=5)  # Alejandro (Neutral): 5
    for _ in range(3):
        st, _ = E.apply(st, 0, Enter(oracle=0))
    assert [st.cards[_uid(st, c)].power for c in ("0015", "0039", "0181")] == [1, 2, 5]
    st = _transfer(H.blank(2, pantheons=("0177", "0001")), moves=0)  # Inframundo (Neutral)
    H.oracle(st, ["0039"], 0, power=2)
    H.oracle(st, ["0181"], 0, power=5)
    st, _ = E.apply(st, 0, Enter(oracle=0))
    st, _ = E.apply(st, 0, Enter(oracle=0))
    assert [st.cards[_uid(st, c)].power for c in ("0039", "0181")] == [1, 5]


def test_excess_is_cut_before_the_affiliation_point() -> None:
    """6.2: the two bullets in their order: down to the maximum, then -1 (Odín, PM 9, 12P
    under a Japanese pantheon enters with 8)."""
    st = _transfer(H.blank(2, pantheons=("0001", "0022")), moves=0)
    H.oracle(st, ["0024"], 0, power=12)
    st, _ = E.apply(st, 0, Enter(oracle=0))
    assert st.cards[_uid(st, "0024")].power == 8


def test_resources_lose_the_power_invested() -> None:
    """6.2: "Los recursos, sin embargo, pierden el poder invertido"."""
    st = _transfer(H.blank(2), moves=0)
    H.oracle(st, ["0149", "0015"], 0, power=5)  # Templo Shitennoji, cost 3
    st, _ = E.apply(st, 0, Enter(oracle=0))
    t = _uid(st, "0149")
    assert st.cards[t].zone == "pantheon" and st.cards[t].power == 0
    assert st.players[0].oracles[0].power == 0 and st.players[0].reserve == 20


def test_only_a_face_up_character_or_resource_enters() -> None:
    """6.2: a face-down card (not yet revealed) cannot be put into play, however much power."""
    st = _transfer(H.blank(2), moves=0)
    H.oracle(st, ["0015"], 0, power=5, up=False)
    assert Enter(oracle=0) not in E.legal_actions(st, 0)


# ============================================================ 6.3 Influencia


def test_influence_alternates_until_all_pass_in_a_row() -> None:
    """6.3: "realizan alternativamente acciones ... empezando por el jugador inicial hasta que
    todos pasen consecutivamente": a pass does not shut a player out; an action resets."""
    st = H.blank(3)
    st.first = st.actor = 1
    a = H.put(st, "0015", 2, power=1)
    b = H.put(st, "0039", 1, power=1)
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 2, Meditate(uid=a))
    st, _ = E.apply(st, 0, Pass())
    assert st.actor == 1 and st.phase == "influence"
    st, _ = E.apply(st, 1, Meditate(uid=b))  # passed before, may act again
    st, _ = E.apply(st, 2, Pass())
    st, _ = E.apply(st, 0, Pass())
    assert st.phase == "influence"
    st, _ = E.apply(st, 1, Pass())
    assert st.phase in ("challenge", "fight")


def test_equip_any_number_one_weapon_one_armour_paid_by_the_character() -> None:
    """6.3 Equipar: paid from the character's power; as many equipment cards as wished, but
    not more than one weapon nor more than one armour."""
    st = H.blank(2)
    god = H.put(st, "0024", 0, power=9)  # Odín
    axe, bow = H.in_hand(st, "0224", 0), H.in_hand(st, "0214", 0)
    yoroi, nord = H.in_hand(st, "0235", 0), H.in_hand(st, "0236", 0)
    amb = H.in_hand(st, "0232", 0)
    st, _ = E.apply(st, 0, Equip(uid=axe, target=god))
    st.actor = 0
    st, _ = E.apply(st, 0, Equip(uid=yoroi, target=god))
    st.actor = 0
    st, _ = E.apply(st, 0, Equip(uid=amb, target=god))
    st.actor = 0
    assert st.cards[god].power == 9 - 2 - 2 - 1 and len(st.cards[god].gear) == 3
    legal = E.legal_actions(st, 0)
    assert Equip(uid=bow, target=god) not in legal and Equip(uid=nord, target=god) not in legal
    poor = H.put(st, "0039", 0, power=1)
    legal = E.legal_actions(st, 0)
    assert Equip(uid=nord, target=poor) in legal and Equip(uid=bow, target=poor) not in legal


def test_invocations_only_on_an_invocador_and_never_below_zero_pm() -> None:
    """4 and 7: "Invocaciones: Equipo que sólo se puede añadir a personajes con la clave
    Invocador/a. No se puede equipar una invocación si ... el poder máximo ... por debajo de cero"."""
    st = H.blank(2)
    drug = H.in_hand(st, "0208", 0)  # -3 PM
    plain = H.put(st, "0039", 0, power=2)  # Harald, no Invocador
    inv = H.put(st, "0021", 0, power=2)  # Yama-uba, Invocador, PM 4
    low = H.put(st, "0063", 0, power=2)  # Tezcalipoca, Invocador, PM 4 ...
    st.cards[low].pm_perm = -2  # ... down to 2
    legal = E.legal_actions(st, 0)
    assert Equip(uid=drug, target=plain) not in legal
    assert Equip(uid=drug, target=low) not in legal
    assert Equip(uid=drug, target=inv) in legal
    st, _ = E.apply(st, 0, Equip(uid=drug, target=inv))
    assert B.max_power(st, inv) == 1


def test_equipment_modifiers_apply_while_tired() -> None:
    """4 Equipo: "Los modificadores de fuerza y poder máximo se aplican incluso cuando la carta
    está cansada"."""
    st = H.blank(2)
    u = H.put(st, "0039", 0, power=2)
    g = H.gear(st, "0224", u)  # Hacha +2F -1PM
    st.cards[g].tired = True
    assert B.strength(st, u) == 3 and B.max_power(st, u) == 2


def test_meditate_tires_and_gains_two_any_number_of_times() -> None:
    """6.3 Meditar: "Cualquier número de veces por turno, cansa tu personaje; gana 2P en él";
    a tired character cannot meditate; the excess waits for reorganisation C."""
    st = H.blank(2)
    a = H.put(st, "0015", 0, power=3)  # PM 3
    b = H.put(st, "0039", 0, power=0)
    st, _ = E.apply(st, 0, Meditate(uid=a))
    st.actor = 0
    st, _ = E.apply(st, 0, Meditate(uid=b))
    st.actor = 0
    assert st.cards[a].power == 5 and st.cards[b].power == 2 and st.players[0].reserve == 20
    assert not any(isinstance(x, Meditate) for x in E.legal_actions(st, 0))
    F.reorganise(st)
    assert st.cards[a].power == 3
