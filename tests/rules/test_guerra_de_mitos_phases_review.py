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
    return next(
        u for u, c in st.cards.items() if c.card == card and (zone is None or c.zone == zone)
    )


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
    before = st.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        E.apply(st, 0, DropOracle(oracle=0))
    assert err.value.text.es and err.value.text.en and st.model_dump_json() == before
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


# ============================================================ 6.4 Enfrentamiento


def test_assignment_ready_characters_in_the_pantheon_pay_one_power() -> None:
    """6.4 Asignación: the start player begins; only ready characters of the pantheon; the
    character "pierde 1P como coste y se mueve al campo de batalla"; one at 0P cannot pay."""
    st = H.blank(2)
    st.first = st.actor = 1
    ready = H.put(st, "0004", 1, power=3)
    tired = H.put(st, "0013", 1, power=3, tired=True)
    empty = H.put(st, "0017", 1, power=0)
    F.start_confrontation(st)
    assert st.fight is not None and st.fight.a == 1 and list(E.pending(st)) == [1]
    legal = E.legal_actions(st, 1)
    assert Assign(uid=ready) in legal
    assert Assign(uid=tired) not in legal and Assign(uid=empty) not in legal
    st, _ = E.apply(st, 1, Assign(uid=ready))
    assert st.cards[ready].zone == "battle" and st.cards[ready].power == 2
    assert list(E.pending(st)) == [0]


def test_assignment_alternates_and_a_pass_ends_your_assigning() -> None:
    """6.4: "Cuando un jugador pase, el oponente puede seguir asignando personajes hasta que
    decida pasar"; whoever passed assigns no more."""
    st = H.blank(2)
    a1, a2 = H.put(st, "0015", 0, power=2), H.put(st, "0039", 0, power=2)
    b1, b2, b3 = (H.put(st, c, 1, power=2) for c in ("0058", "0015", "0039"))
    F.start_confrontation(st)
    st, _ = E.apply(st, 0, Assign(uid=a1))
    st, _ = E.apply(st, 1, Assign(uid=b1))
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Assign(uid=b2))
    assert list(E.pending(st)) == [1]  # seat 0 passed: seat 1 goes on
    st, _ = E.apply(st, 1, Assign(uid=b3))
    st, _ = E.apply(st, 1, Pass())
    assert st.fight.stage == "act" and st.fight.turn == 0
    assert st.cards[a2].zone == "pantheon"


def test_confrontation_actions_alternate_until_both_pass_in_a_row() -> None:
    """6.4 Enfrentamiento: from the start player, alternately, until both pass consecutively."""
    st = H.blank(2)
    a = H.put(st, "0015", 0, "battle", power=2)
    b = H.put(st, "0058", 1, "battle", power=3)
    inc = H.in_hand(st, "0262", 1)  # Incendio: every character on the battlefield -1P
    H.fight(st)
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Play(uid=inc))
    st = H.settle_choices(st)
    assert st.fight is not None and st.fight.turn == 0 and st.fight.passes == 0
    assert st.cards[a].power == 1 and st.cards[b].power == 2
    st, _ = E.apply(st, 0, Pass())
    assert st.fight is not None
    st, _ = E.apply(st, 1, Pass())
    assert st.fight is None  # resolution and reorganisation ran


def test_resolution_ready_whole_tired_half_after_weapons_exhausted_and_negative_none() -> None:
    """6.4 Resolución: ready characters add their whole strength; tired ones half, rounded
    down, of strength with weapons and bonuses; exhausted (0P) or negative strength add
    nothing; the loser loses the difference from the reserve."""
    st = H.blank(2)
    a = H.put(st, "0013", 0, "battle", power=2, tired=True)  # F4
    H.gear(st, "0224", a)  # +2: tired (4+2)//2 = 3
    H.put(st, "0015", 0, "battle", power=1)  # ready F1
    z = H.put(st, "0004", 0, "battle", power=0)  # exhausted F5: 0
    H.gear(st, "0224", z)
    n = H.put(st, "0039", 0, "battle", power=2)
    st.cards[n].f_turn = -3  # F1 - 3 < 0: 0
    H.put(st, "0058", 1, "battle", power=2)  # F1
    H.put(st, "0017", 1, "battle", power=1, tired=True)  # F2 tired: 1
    assert B.army(st, 0) == 4 and B.army(st, 1) == 2
    H.fight(st)
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    assert st.players[1].reserve == 18 and st.players[0].reserve == 20


def test_equal_armies_lose_nothing() -> None:
    """6.4: "el perdedor pierde la diferencia": with equal armies there is no loser."""
    st = H.blank(2)
    H.put(st, "0058", 0, "battle", power=2)
    H.put(st, "0015", 1, "battle", power=2)
    H.fight(st)
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    assert st.players[0].reserve == 20 and st.players[1].reserve == 20


def test_a_batalla_card_replaces_the_loss() -> None:
    """6.4: "Si no hay ninguna carta con la clave Batalla en juego, el perdedor pierde la
    diferencia": with Mariposa y guerrero played, the loser does not pay it."""
    st = H.blank(2)
    a = H.put(st, "0004", 0, power=3)  # F5
    b = H.put(st, "0017", 1, power=3)  # F2
    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0340", 0)))
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 0, Assign(uid=a))
    st, _ = E.apply(st, 1, Assign(uid=b))
    for seat in (0, 1, 0, 1):
        st, _ = E.apply(st, seat, Pass())
    st = H.settle_choices(st)
    assert st.players[1].reserve == 20 and st.players[0].reserve == 23


def test_confrontation_abilities_from_the_battlefield_on_the_battlefield() -> None:
    """5: in ENFRENTAMIENTO an ability is used only if its character is on the battlefield, and
    it only affects characters and equipment on the battlefield."""
    st = H.blank(2)
    home = H.put(st, "0017", 0, power=3)  # conf: an enemy character -2F
    H.put(st, "0015", 0, "battle", power=2)
    H.fight(st)
    assert Use(uid=home, ability=0) not in E.legal_actions(st, 0)
    st.cards[home].zone = "battle"
    st.cards[home].fought = True
    far = H.put(st, "0058", 1, power=2)  # in the pantheon
    near = H.put(st, "0039", 1, "battle", power=2)
    near2 = H.put(st, "0013", 1, "battle", power=2)
    st, _ = E.apply(st, 0, Use(uid=home, ability=0))
    opts = {a.uid for a in E.legal_actions(st, 0) if isinstance(a, Target)}
    assert opts == {near, near2} and far not in opts


def test_confrontation_action_needs_a_character_there_and_is_paid_by_one() -> None:
    """5: "sólo se pueden jugar si ... tenemos al menos un personaje en el campo de batalla";
    "El coste de poder se paga de la reserva del personaje" (one of ours on the battlefield)."""
    st = H.blank(2)
    exp = H.in_hand(st, "0269", 0)  # Expulsión, cost 1: send an enemy home
    foe = H.put(st, "0058", 1, "battle", power=2)
    H.fight(st)
    assert not any(isinstance(a, Play) for a in E.legal_actions(st, 0))
    poor = H.put(st, "0015", 0, "battle", power=0)
    rich = H.put(st, "0039", 0, "battle", power=2)
    plays = [a for a in E.legal_actions(st, 0) if isinstance(a, Play)]
    assert plays == [Play(uid=exp, payer=rich)] and poor != rich
    st, _ = E.apply(st, 0, plays[0])
    st = H.settle_choices(st)
    assert st.cards[rich].power == 1 and st.players[0].reserve == 20
    assert st.cards[foe].zone == "pantheon"


def test_influence_action_paid_from_the_reserve_and_affects_the_pantheon() -> None:
    """5: in INFLUENCIA "El coste en poder de la acción se paga de la reserva de poder del
    jugador" (Cabeza de Medusa, 2: agotar an enemy character)."""
    st = H.blank(2)
    med = H.in_hand(st, "0267", 0)
    foe = H.put(st, "0004", 1, power=5)
    st, _ = E.apply(st, 0, Play(uid=med))
    st = H.settle_choices(st)
    assert st.players[0].reserve == 18 and st.cards[foe].power == 0
    assert st.cards[med].zone == "discard"


def test_multiplayer_pairing_in_turn_order() -> None:
    """6.4 Multijugador: the start player chooses an opponent; the next in turn order who has
    not fought chooses among those who have not; an odd player out does not fight."""
    st = H.blank(5)
    st.first = 1
    F.start_confrontation(st)
    assert st.phase == "challenge" and list(E.pending(st)) == [1]
    assert {a.seat for a in E.legal_actions(st, 1)} == {0, 2, 3, 4}  # type: ignore[attr-defined]
    st, _ = E.apply(st, 1, Challenge(seat=3))
    assert st.fight is not None and (st.fight.a, st.fight.b) == (1, 3)
    for seat in (1, 3, 1, 3):
        st, _ = E.apply(st, seat, Pass())
    assert st.phase == "challenge" and list(E.pending(st)) == [2]
    assert {a.seat for a in E.legal_actions(st, 2)} == {0, 4}  # type: ignore[attr-defined]
    st, _ = E.apply(st, 2, Challenge(seat=0))
    for seat in (2, 0, 2, 0):
        st, _ = E.apply(st, seat, Pass())
    assert st.round == 2 and st.phase == "transfer"  # seat 4 was left without a fight


# ============================================================ 6.5 Reorganización


def test_reorganisation_steps_a_to_g() -> None:
    """6.5: A home; B effects without duration end; C power over the maximum cut, oracles too;
    D resources' oracles cut to the cost; E every player draws; F everything readied; G the
    start player passes to the left."""
    st = H.blank(3)
    st.first = 2
    a = H.put(st, "0015", 0, "battle", power=5, tired=True)  # PM 3
    st.cards[a].f_turn, st.cards[a].pm_turn = 2, 4  # this turn's +4PM does not protect at C
    res = H.put(st, "0149", 1, tired=True)
    g = H.gear(st, "0224", H.put(st, "0039", 2, power=1))
    st.cards[g].tired = True
    H.oracle(st, ["0015"], 0, power=6)
    H.oracle(st, ["0149"], 0, power=6)
    H.oracle(st, ["0015"], 0, power=6, up=False)
    decks = [H.on_deck(st, ["0269"], s) for s in range(3)]
    F.reorganise(st)
    c = st.cards[a]
    assert (c.zone, c.power, c.f_turn, c.pm_turn, c.tired) == ("pantheon", 3, 0, 0, False)
    assert [o.power for o in st.players[0].oracles] == [3, 3, 6]
    assert all(st.players[s].hand == decks[s] for s in range(3))
    assert not st.cards[res].tired and not st.cards[g].tired
    assert st.first == 0 and st.round == 2


def test_permanent_effects_survive_reorganisation() -> None:
    """7 Permanente: "Hasta el final de la partida" (Amenoukihashi: -1PM for good), while a
    bonus of the turn ends at B."""
    st = H.blank(2)
    foe = H.put(st, "0024", 1, power=9)
    st, _ = E.apply(st, 0, Use(uid=st.players[0].pantheon, ability=0))
    st = H.settle_choices(st)
    st.cards[foe].f_turn = 2
    F.reorganise(st)
    assert B.max_power(st, foe) == 8 and st.cards[foe].power == 8 and B.strength(st, foe) == 5


# ============================================================ 2. Objetivo


def test_thirty_counts_only_after_reorganisation() -> None:
    """2 Dios de dioses: "Si después de la fase de Reorganización un jugador tiene 30P o más"
    (30P in the influence phase is not yet a win)."""
    st = H.blank(2, reserve=29)
    H.put(st, "0149", 0)  # Templo Shitennoji: tire, gain 2P
    st, _ = E.apply(st, 0, Use(uid=_uid(st, "0149"), ability=0))
    assert st.players[0].reserve == 31 and not st.finished
    F.reorganise(st)
    assert st.finished and st.winners == [0] and st.end_reason == "dios_de_dioses"


def test_thirty_ties_more_points_then_the_start_player() -> None:
    """2: "En caso de empate gana el jugador con más puntos, en caso de continuar el empate gana
    el jugador inicial" (the start player of the turn just played)."""
    st = H.blank(2, reserve=30)
    st.players[0].reserve = 32
    st.first = 1
    F.reorganise(st)
    assert st.winners == [0]
    st = H.blank(2, reserve=30)
    st.first = 1
    F.reorganise(st)
    assert st.winners == [1]


def test_zero_at_any_time_and_both_below_zero() -> None:
    """2 Olvido: "Si en cualquier momento un jugador tiene 0 o menos puntos ... es eliminado. En
    caso de que todos ... bajen de 0 gana el que menos negativos tenga ... el jugador inicial"."""
    st = H.blank(2, reserve=2)
    H.put(st, "0004", 1, power=5)
    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0267", 0)))  # pays 2 from the reserve
    assert st.finished and st.winners == [1] and st.end_reason == "olvido"
    for r0, r1, first, win in ((-1, -3, 1, 0), (-2, 0, 0, 1), (-2, -2, 1, 1)):
        st = H.blank(2)
        st.players[0].reserve, st.players[1].reserve, st.first = r0, r1, first
        F.settle(st)
        assert st.finished and st.winners == [win], (r0, r1, first)
        out = [line.text.get("en") for line in st.log if "is out" in line.text.get("en")]
        short = -(r0, r1)[1 - win]
        said = f"at 0P, {short}P short." if short > 0 else "at 0P."
        assert out == [f"Player {2 - win} is out: their reserve is {said}"], out


def test_multiplayer_thirty_five_and_thirty_is_not_enough() -> None:
    """2 Multijugador: 35P after reorganisation: the player leaves and scores half the players
    who stay; 30P wins nothing with more than two players."""
    st = H.blank(4)
    st.players[1].reserve = 34
    F.reorganise(st)
    assert not st.finished and all(p.alive for p in st.players)
    st.players[1].reserve = 35
    F.reorganise(st)
    assert not st.players[1].alive and st.players[1].vp == 1.5


def test_multiplayer_two_reach_thirty_five_together() -> None:
    """2 Multijugador: two players at 35P after the same reorganisation both leave and each
    scores half of the players who stay at the table (2 stay: 1 point each)."""
    st = H.blank(4)
    st.players[1].reserve = st.players[2].reserve = 36
    F.reorganise(st)
    assert not st.players[1].alive and not st.players[2].alive
    assert st.players[1].vp == st.players[2].vp == 1.0
    assert not st.finished


def test_multiplayer_olvido_point_to_the_right_and_the_last_player() -> None:
    """2 Multijugador: at 0P the player to the right (the one before in turn order) scores 1;
    the last at the table scores 1 more; most points wins, ties share. Two eliminated at once:
    a point due to a player leaving too goes on to the next player at the table (reading)."""
    st = H.blank(3)
    st.players[1].reserve = 0
    F.settle(st)
    assert not st.players[1].alive and st.players[0].vp == 1 and st.players[2].vp == 0
    # the table is told who is out and why, in each reader's language
    said = [line.text for line in st.log]
    assert any(t.get("en") == "Player 2 is out: their reserve is at 0P." for t in said), said
    assert any(t.get("es") == "Jugador 2 queda fuera: su reserva está en 0P." for t in said), said
    st.players[0].reserve = -1
    F.settle(st)
    assert st.finished and st.players[2].vp == 2 and st.winners == [2]
    st = H.blank(3)
    st.players[0].vp = 1.5
    st.players[2].reserve = 0  # seat 1 scores 1 for seat 2 ...
    st.players[0].reserve = 0  # ... and 1 for seat 0 (seat 2 leaves too), then 1 as the last
    F.settle(st)
    assert st.finished and st.players[1].vp == 3 and st.players[2].vp == 0
    assert st.winners == [1]


# ============================================================ 7. Glosario


def test_agotar_takes_all_power_and_the_character_cannot_pay_to_fight() -> None:
    """7 Agotar: "Eliminar todo el P de un personaje"; at 0P it pays no assignment (NOTES 6)."""
    st = H.blank(2)
    foe = H.put(st, "0004", 1, power=6)
    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0267", 0)))  # Cabeza de Medusa
    st = H.settle_choices(st)
    assert st.cards[foe].power == 0 and not st.cards[foe].tired
    F.start_confrontation(st)
    st, _ = E.apply(st, 0, Pass())
    assert Assign(uid=foe) not in E.legal_actions(st, 1)


def test_cansar_a_tired_card_uses_no_ability_and_preparar_undoes_it() -> None:
    """7 Cansar: "Girar carta 90, no puede usar sus habilidades"; Preparar: "Devolver carta
    cansada a su posición inicial" (Takami-musubi readies a Japanese character)."""
    st = H.blank(2)
    zeus = H.put(st, "0044", 0, power=3, tired=True)  # inf: tire an enemy character
    H.put(st, "0058", 1, power=2)
    assert Use(uid=zeus, ability=0) not in E.legal_actions(st, 0)
    st.cards[zeus].tired = False
    assert Use(uid=zeus, ability=0) in E.legal_actions(st, 0)
    tm = H.put(st, "0011", 0, power=3)
    jp = H.put(st, "0015", 0, power=1, tired=True)
    st, _ = E.apply(st, 0, Use(uid=tm, ability=0))
    st = H.settle_choices(st)
    assert not st.cards[jp].tired


def test_control_makes_the_card_ours_and_it_goes_home_when_discarded() -> None:
    """7 Control: "se considera que es nuestra"; when discarded it goes to its owner's pile."""
    st = H.blank(2)
    eir = H.put(st, "0030", 1, power=3)  # Eir (owner 1): inf: an own character +1P
    st.cards[eir].ctrl = 0
    assert Use(uid=eir, ability=0) in E.legal_actions(st, 0)
    st.actor = 1
    assert Use(uid=eir, ability=0) not in E.legal_actions(st, 1)
    st.actor = 0
    st.cards[eir].pm_perm = -6  # PM 0: Ritual del guerrero may destroy it
    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0261", 0)))
    st = H.settle_choices(st)
    assert st.cards[eir].zone == "discard" and eir in st.players[1].discard
    assert st.cards[eir].ctrl == 1


def test_copiar_acts_as_if_written_on_the_copier() -> None:
    """7 Copiar: "actuaremos como si estuviera escrito en la carta que lo copia" (Palacio de
    Moctezuma copies an enemy Templo Shitennoji: the Palacio tires, its player gains 2P)."""
    st = H.blank(2)
    pal = H.put(st, "0151", 0)
    tem = H.put(st, "0149", 1)
    st, _ = E.apply(st, 0, Use(uid=pal, ability=0))
    st = H.settle_choices(st)
    assert st.players[0].reserve == 22 and st.players[1].reserve == 20
    assert st.cards[pal].tired and not st.cards[tem].tired


def test_destruir_sends_the_character_and_its_equipment_to_the_discard() -> None:
    """7 Destruir: "cuando se destruye un personaje también destruimos todos sus equipos"."""
    st = H.blank(2)
    nob = H.put(st, "0015", 1, power=1)  # PM 3
    axe = H.gear(st, "0224", nob)  # -1PM
    st.cards[nob].pm_perm = -2  # PM 0
    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0261", 0)))  # destroy a PM 0 character
    st = H.settle_choices(st)
    assert st.cards[nob].zone == "discard" and st.cards[axe].zone == "discard"
    assert st.players[1].discard[-2:] == [axe, nob]


def test_entorno_several_characters_pay_the_cost() -> None:
    """7 Entorno: "nos permite pagar el coste de más de un personaje" (Invasión, 2, paid 1P by
    each of two characters that could not pay it alone)."""
    st = H.blank(2)
    a = H.put(st, "0015", 0, "battle", power=1)
    b = H.put(st, "0039", 0, "battle", power=1)
    res = H.put(st, "0149", 1)
    inv = H.in_hand(st, "0292", 0)
    H.fight(st)
    plays = [x for x in E.legal_actions(st, 0) if isinstance(x, Play)]
    assert {x.payer for x in plays} == {a, b} and {x.uid for x in plays} == {inv}
    st, _ = E.apply(st, 0, plays[0])
    st = H.settle_choices(st)
    assert st.cards[a].power == 0 and st.cards[b].power == 0
    assert st.cards[res].zone == "discard" and st.players[0].reserve == 20


def test_mortal_is_a_character_without_the_key_dios() -> None:
    """7 Mortal: "Personaje que carece de la clave Dios" (La bestia en la cueva tires a mortal;
    Ambrosía gives the key Dios)."""
    st = H.blank(2)
    god = H.put(st, "0004", 1, power=2)
    blessed = H.put(st, "0039", 1, power=2)
    H.gear(st, "0232", blessed)
    bestia = H.in_hand(st, "0295", 0)
    assert Play(uid=bestia) not in E.legal_actions(st, 0)
    mortal = H.put(st, "0058", 1, power=2)
    st, _ = E.apply(st, 0, Play(uid=bestia))
    st = H.settle_choices(st)
    assert st.cards[mortal].tired and not st.cards[god].tired and not st.cards[blessed].tired


def test_oracle_reordering_loses_its_power_and_cards_go_in_face_down() -> None:
    """7 Oráculo: "En caso de que una acción ... cambie el orden de las cartas perderemos los
    puntos de poder"; "Cuando coloquemos una carta en un oráculo la pondremos siempre boca
    abajo" (Libro de Eibon reorders; Tezcalipoca makes a new oracle)."""
    st = H.blank(2)
    bearer = H.put(st, "0039", 0, power=2)
    H.gear(st, "0249", bearer)
    H.oracle(st, ["0015", "0058", "0039"], 0, power=4)
    st, _ = E.apply(st, 0, Use(uid=_uid(st, "0249"), ability=0))
    st = H.settle_choices(st)
    o = st.players[0].oracles[0]
    assert o.power == 0 and not o.up and len(o.cards) == 3
    st = H.blank(2)
    st.actor = 0
    tez = H.put(st, "0063", 0, power=2)
    dead = H.discarded(st, "0015", 0)
    st, _ = E.apply(st, 0, Use(uid=tez, ability=0))
    st = H.settle_choices(st)
    o = st.players[0].oracles[-1]
    assert o.cards == [dead] and not o.up and o.power == 0


# ============================================================ 5. Jugar acciones y habilidades


def test_an_ability_once_per_turn() -> None:
    """5: "Cada habilidad sólo se puede activar una vez por turno"; next turn it is back."""
    st = H.blank(2)
    eir = H.put(st, "0030", 0, power=3)
    st, _ = E.apply(st, 0, Use(uid=eir, ability=0))
    st = H.settle_choices(st)
    st, _ = E.apply(st, 1, Pass())
    assert st.actor == 0 and Use(uid=eir, ability=0) not in E.legal_actions(st, 0)
    F.reorganise(st)
    st.phase, st.actor, st.stack = "influence", 0, []
    assert Use(uid=eir, ability=0) in E.legal_actions(st, 0)


def test_an_action_only_in_its_phase_with_its_cost_and_a_possible_effect() -> None:
    """5: "debemos encontrarnos en la fase adecuada, se deben pagar los costes ... y se deben
    poder cumplir los efectos (en caso de elección ... al menos uno)"."""
    st = H.blank(2, reserve=1)
    paz = H.in_hand(st, "0265", 0)  # inf: an enemy character with power -1P
    inc = H.in_hand(st, "0262", 0)  # conf: every character -1P
    med = H.in_hand(st, "0267", 0)  # inf, cost 2
    assert Play(uid=paz) not in E.legal_actions(st, 0)  # nothing to affect
    foe = H.put(st, "0058", 1, power=2)
    legal = E.legal_actions(st, 0)
    assert Play(uid=paz) in legal and Play(uid=med) not in legal  # 1P cannot pay 2
    assert not any(isinstance(a, Play) and a.uid == inc for a in legal)  # wrong phase
    st.cards[foe].zone = "battle"
    H.put(st, "0015", 0, "battle", power=2)
    H.fight(st)
    legal = E.legal_actions(st, 0)
    assert any(isinstance(a, Play) and a.uid == inc for a in legal)
    assert not any(isinstance(a, Play) and a.uid == paz for a in legal)
    mits = H.in_hand(st, "0277", 0)  # +2P to one of ours, -2P to an enemy: one is enough
    st.cards[foe].power = 0
    assert any(isinstance(a, Play) and a.uid == mits for a in E.legal_actions(st, 0))


def test_a_card_named_in_its_own_cost_means_that_very_card() -> None:
    """5: "En algunas cartas podemos ver su nombre propio en la sección de costes ... siempre
    nos referimos a la propia carta" (two Amaterasu: the one used pays)."""
    st = H.blank(2)
    a = H.put(st, "0005", 0, power=0)
    b = H.put(st, "0005", 0, power=3)
    legal = E.legal_actions(st, 0)
    assert Use(uid=a, ability=0) not in legal and Use(uid=b, ability=0) in legal
    st, _ = E.apply(st, 0, Use(uid=b, ability=0))
    st = H.settle_choices(st)
    assert st.cards[b].power == 2 and st.cards[a].power == 0 and st.players[0].reserve == 22


def test_the_action_beats_the_rule() -> None:
    """5: "En caso de que una acción contradiga una regla, tiene preferencia la acción" (Duat
    discards a whole oracle although it holds power)."""
    st = H.blank(2, pantheons=("0081", "0022"))
    H.oracle(st, ["0015", "0058"], 0, power=3)
    H.oracle(st, ["0039"], 1, power=2)
    st, _ = E.apply(st, 0, Use(uid=st.players[0].pantheon, ability=0))
    st = H.settle_choices(st)
    gone = [len(p.oracles) for p in st.players]
    assert st.players[0].reserve == 18 and gone in ([0, 1], [1, 0])


def test_resource_confrontation_ability_needs_a_character_on_the_battlefield() -> None:
    """5 and NOTES 7: a resource's ENFRENTAMIENTO ability (Laberintos de maíz) is used by a
    player in the confrontation with a character on the battlefield."""
    st = H.blank(2)
    lab = H.put(st, "0142", 0)
    foe = H.put(st, "0058", 1, "battle", power=2)
    H.fight(st)
    assert Use(uid=lab, ability=0) not in E.legal_actions(st, 0)
    H.put(st, "0015", 0, "battle", power=1)
    st, _ = E.apply(st, 0, Use(uid=lab, ability=0))
    st = H.settle_choices(st)
    assert st.cards[lab].tired and st.cards[foe].power == 1


def test_influence_actions_reach_the_pantheon_not_the_oracles() -> None:
    """5: in INFLUENCIA an action "sólo afecta a personajes y equipos en la zona de panteón"
    (a face-up character on an enemy oracle is no target for Paz impuesta)."""
    st = H.blank(2)
    H.oracle(st, ["0058"], 1, power=2)
    paz = H.in_hand(st, "0265", 0)
    assert Play(uid=paz) not in E.legal_actions(st, 0)
    foe = H.put(st, "0039", 1, power=2)
    st, _ = E.apply(st, 0, Play(uid=paz))
    st = H.settle_choices(st)
    assert st.cards[foe].power == 1 and st.players[1].oracles[0].power == 2


def test_equip_and_meditate_are_influence_actions_in_the_alternation() -> None:
    """6.3: equipping and meditating are done "cualquier número de veces por turno", each as
    one of the alternating influence actions (reading): the other player acts in between."""
    st = H.blank(2)
    a = H.put(st, "0015", 0, power=3)
    b = H.put(st, "0039", 0, power=3)
    axe = H.in_hand(st, "0224", 0)
    st, _ = E.apply(st, 0, Meditate(uid=a))
    assert st.actor == 1
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Equip(uid=axe, target=b))
    assert st.actor == 1 and st.phase == "influence"
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Meditate(uid=b))
    assert st.cards[b].power == 3 - 2 + 2 and st.cards[b].tired


def test_control_given_back_leaves_the_card_where_it_is() -> None:
    """7 Control: when control returns to the original player the card "va a la misma zona de
    juego donde se encontrara" (a borrowed character on the battlefield stays there)."""
    st = H.blank(2)
    puk = H.put(st, "0050", 0, "battle", power=3)
    foe = H.put(st, "0058", 1, "battle", power=2)
    H.fight(st)
    st, _ = E.apply(st, 0, Use(uid=puk, ability=0))
    st = H.settle_choices(st)
    assert st.cards[foe].ctrl == 0 and st.cards[foe].owner == 1
    F.give_back(st)
    assert st.cards[foe].ctrl == 1 and st.cards[foe].zone == "battle"


def test_an_oracle_left_without_cards_disappears_with_its_power() -> None:
    """NOTES 3 and 12 (reading): the power stays on an oracle when an event leaves it; when
    the last card leaves, the oracle is gone and its power goes back to the central reserve."""
    st = H.blank(2)
    H.oracle(st, ["0127"], 0, power=2, up=False)  # Hinamatsuri, the only card
    H.oracle(st, ["0127", "0015"], 0, power=1, up=False)
    st.phase = "transfer"
    F.begin_transfer(st, 0)
    p = st.players[0]
    assert len(p.oracles) == 1 and p.oracles[0].power == 1 and p.reserve == 26


def test_an_empty_design_deck_draws_nothing_and_the_turn_goes_on() -> None:
    """6.5 E and NOTES 12 (reading): "Cada jugador roba una carta": from an empty design deck
    nothing is drawn and nobody loses for it."""
    st = H.blank(2)
    H.on_deck(st, ["0269"], 1)
    F.reorganise(st)
    assert st.players[0].hand == [] and len(st.players[1].hand) == 1
    assert not st.finished and st.round == 2 and st.phase == "transfer"


def test_power_from_the_bid_or_seat_is_no_win_before_a_reorganisation() -> None:
    """2 and 6.1: La Orden (29) given 4 by the bid holds 33P before the first turn: the
    reserve is checked for 30P only after reorganisation."""
    st = E.setup(2, Options(decks=[H.deck_for("nordica"), H.deck_for("griega")]), 5)
    st.players[0].reserve = 29
    st, _ = E.apply(st, 0, Bid(amount=1))
    st, _ = E.apply(st, 1, Bid(amount=4))
    assert st.players[0].reserve == 33 and not st.finished and st.phase == "starter"


def test_multiplayer_an_eliminated_players_cards_leave_and_borrowed_ones_go_home() -> None:
    """2 Multijugador, Olvido and 7 Control (reading): a player out of the game takes their
    cards out of play, and a card of another player they controlled goes back to its owner."""
    st = H.blank(3)
    mine = H.put(st, "0015", 1, power=2)
    taken = H.put(st, "0058", 2, power=2)
    st.cards[taken].ctrl = 1
    st.players[1].reserve = 0
    F.settle(st)
    assert st.cards[mine].zone == "discard" and mine in st.players[1].discard
    assert st.cards[taken].zone == "pantheon" and st.cards[taken].ctrl == 2
    assert not st.finished and st.players[0].vp == 1


def test_an_equipment_ability_needs_the_equipment_ready_not_its_bearer() -> None:
    """5 and 4 Equipo (reading): "la carta debe estar preparada" is the equipment itself; a
    tired bearer does not stop it (Gungnir readies its tired god), a tired Gungnir is stopped."""
    st = H.blank(2)
    god = H.put(st, "0024", 0, power=3, tired=True)
    gun = H.gear(st, "0257", god)
    st.cards[gun].tired = True
    assert Use(uid=gun, ability=1) not in E.legal_actions(st, 0)
    st.cards[gun].tired = False
    st, _ = E.apply(st, 0, Use(uid=gun, ability=1))
    st = H.settle_choices(st)
    assert not st.cards[god].tired and st.cards[god].power == 2


def test_a_batalla_card_needs_what_losing_would_give() -> None:
    """7 Batalla: "No pueden ser jugadas en caso de que el jugador que la juega no pueda cumplir
    los efectos en caso de perder el enfrentamiento": El juicio de Osiris gives the winner one of
    the loser's characters, so a player without any cannot play it (and so cannot escape the
    loss of the reserve by it); with a character it may be played."""
    st = H.blank(2)
    osiris = H.in_hand(st, "0323", 0)
    H.put(st, "0004", 1, power=3)
    assert Play(uid=osiris) not in E.legal_actions(st, 0)
    mine = H.put(st, "0015", 0, power=1)
    assert Play(uid=osiris) in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, Play(uid=osiris))
    assert st.cards[osiris].zone == "discard" and st.cards[mine].zone == "pantheon"
