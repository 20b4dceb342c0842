"""Ragami read again against its rulebook, passage by passage: one scenario per rule.

Each test quotes the passage it checks and builds the position directly (no long play-outs).
The worked examples ("En este ejemplo...") are in test_ragami_examples.py; the ones whose
numbers were not all checked there are completed here.
"""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.ragami.cards import CARDS, KIND, KINDS, deck_for
from rules.ragami.city import (
    AROUND,
    BUILDING_LINKS,
    BUILDINGS,
    BUILDINGS_AT,
    SQUARES,
    STREET,
    distance,
    street_reach,
)
from rules.ragami.flow import bonuses
from rules.ragami.model import (
    Adjust,
    Arrange,
    Cancel,
    CashCard,
    Commit,
    Convert,
    Discard,
    Done,
    EndTurn,
    Keep,
    Pick,
    Place,
    PlayCard,
    Power,
    PowerCard,
    RgState,
    Roll,
    SetDie,
    UseDie,
)
from tests.rules.rg_helpers import E, card, check_conservation, next_rolls, play, table

YELLOW, GREEN, BLUE, PURPLE = 0, 1, 2, 3
ONE_BUILDING = next(q for q in SQUARES if len(BUILDINGS_AT[q]) == 1)
TWO_BUILDINGS = next(q for q in SQUARES if len(BUILDINGS_AT[q]) == 2)


def keep_first_cards(s: RgState) -> RgState:
    """Setup step 8 for everybody: keep the first of the three cards."""
    for seat in range(s.num_seats):
        s, _ = play(s, (seat, Keep(card=s.drawn[seat][0])))
    return s


def pass_all(s: RgState) -> RgState:
    """Every player passes once, starting with the turn player."""
    for _ in range(s.num_seats):
        s, _ = play(s, (s.turn, EndTurn()))
    return s


def skip_virtue_step(s: RgState) -> RgState:
    """Round preparation 5: nobody touches their Virtue die."""
    while s.tasks and s.tasks[0].kind == "prep_virtue":
        s, _ = play(s, (s.tasks[0].seat, Done()))
    return s


def legal_places(s: RgState, seat: int) -> set[str]:
    return {a.at for a in E.legal_actions(s, seat) if isinstance(a, Place)}


# ============================================================================ setup 1-12


def test_setup_4_tracks_at_zero_supplies_full() -> None:
    # «Coloca los cubos de Conflictos resueltos y los marcadores usados para contar los PV en
    # el cero ... Coloca los cubos blancos y los Demonios en el suministro general»
    s = E.setup(4, {}, 21)
    assert s.vp == [0] * 4 and s.resolved == [0] * 4 and s.cubes == [0] * 4
    assert s.cube_supply == 30
    v = E.view(s, None)
    assert v.demon_supply == 6 - 4 and v.conflict_supply == 0


def test_setup_5_six_conflicts_on_six_locations_with_their_tokens() -> None:
    # «Tira los 6 dados de Conflicto y escoge una ficha de localización al azar para cada uno
    # ... 6 Conflictos en 6 localizaciones diferentes ... con la ficha de localización»
    for seed in range(5):
        s = E.setup(3, {}, seed)
        assert len(s.conflicts) == 6 and all(1 <= v <= 6 for v in s.conflicts.values())
        assert set(s.conflicts) <= set(s.tokens)
        assert not set(s.conflicts) & set(s.pool)


def test_setup_6_four_demons_each_with_its_token() -> None:
    # «Coge 4 fichas de localización al azar y coloca 4 Demonios ... Cada Demonio debe tener
    # su ficha de localización.»
    s = E.setup(3, {}, 4)
    assert len(s.demons) == 4 and len(set(s.demons)) == 4
    assert set(s.demons) <= set(s.tokens) and not set(s.demons) & set(s.conflicts)
    assert len(s.tokens) == 10 and len(s.pool) == 20


def test_setup_7_first_player_at_random() -> None:
    # «Se escoge al azar el jugador inicial»
    firsts = {E.setup(4, {}, seed).first for seed in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_setup_8_three_cards_keep_one_the_others_face_up() -> None:
    # «Cada jugador recibe 3 cartas de acción de las que escoge UNA y descarta dos,
    # colocándolas en el espacio de descartas usadas del tablero.»
    s = E.setup(3, {}, 8)
    assert all(len(d) == 3 for d in s.drawn)
    assert E.view(s, 1).me.drawn == sorted(s.drawn[1]) and E.view(s, 0).me.drawn == sorted(
        s.drawn[0]
    )
    assert E.view(s, None).me is None
    offered = list(s.drawn[0])
    s, _ = play(s, (0, Keep(card=offered[1])))
    assert s.hands[0] == [offered[1]] and sorted(s.discard) == sorted([offered[0], offered[2]])
    assert E.view(s, None).discard == s.discard  # face up


def setup_until_placement(n: int, seed: int) -> RgState:
    return keep_first_cards(E.setup(n, {}, seed))


def test_setup_9_saints_from_the_first_anywhere_no_cube_on_a_conflict() -> None:
    # «Comenzando por el primero, cada jugador coloca el Santo de su propio color en un espacio
    # de calle ... En este momento NO se obtienen puntos por colocar Santos en conflictos.»
    s = setup_until_placement(4, 2)
    f = s.first
    conflict = min(s.conflicts)
    for i in range(4):
        t = s.tasks[0]
        assert (t.kind, t.seat) == ("saint", (f + i) % 4)
        assert legal_places(s, t.seat) == {str(q) for q in SQUARES}
        s, _ = play(s, (t.seat, Place(at=str(conflict))))
    assert s.saints == [conflict] * 4 and s.cubes == [0] * 4 and s.cube_supply == 30


def test_setup_10_virtue_dice_from_the_second_at_one_on_any_building() -> None:
    # «Comenzando por el segundo, cada jugador coloca su dado de Virtud con el valor 1 en
    # cualquier edificio ... Puede haber más de un dado de Virtud en el mismo edificio.»
    s = setup_until_placement(4, 2)
    f = s.first
    while s.tasks[0].kind == "saint":
        s, _ = play(s, (s.tasks[0].seat, Place(at="1")))
    for i in range(4):
        t = s.tasks[0]
        assert (t.kind, t.seat) == ("virtue", (f + 1 + i) % 4)
        assert legal_places(s, t.seat) == set(BUILDINGS)
        s, _ = play(s, (t.seat, Place(at="E")))
    assert s.virtue_at == ["E"] * 4 and s.virtue == [1] * 4


def test_setup_11_ragamis_from_the_third_one_per_building() -> None:
    # «Comenzando por el tercero, cada jugador coloca su Ragami en un edificio ... Al
    # comienzo de la partida solo puede haber 1 Ragami por edificio.»
    s = setup_until_placement(4, 2)
    f = s.first
    while s.tasks[0].kind in ("saint", "virtue"):
        s, _ = play(s, (s.tasks[0].seat, E.legal_actions(s, s.tasks[0].seat)[0]))
    used: set[str] = set()
    for i in range(4):
        t = s.tasks[0]
        assert (t.kind, t.seat) == ("ragami", (f + 2 + i) % 4)
        places = legal_places(s, t.seat)
        assert places == set(BUILDINGS) - used
        b = sorted(places)[0]
        used.add(b)
        s, _ = play(s, (t.seat, Place(at=b)))
        assert s.ragamis[t.seat] == b
    with pytest.raises(IllegalAction):  # no square for a Ragami at the start
        s2 = setup_until_placement(4, 2)
        while s2.tasks[0].kind != "ragami":
            s2, _ = play(s2, (s2.tasks[0].seat, E.legal_actions(s2, s2.tasks[0].seat)[0]))
        E.apply(s2, s2.tasks[0].seat, Place(at="12"))


def place_all_but_last_ragami(n: int, seed: int) -> RgState:
    s = setup_until_placement(n, seed)
    while len(s.tasks) > 1:
        s, _ = play(s, (s.tasks[0].seat, E.legal_actions(s, s.tasks[0].seat)[0]))
    return s


def test_setup_12_the_last_player_rolls_places_demons_and_sets_the_red_ones() -> None:
    # «El cuarto jugador (el último jugador) tira los 3 dados de Acción. Por cada 1 de color
    # rojo ... coloca un Demonio del suministro general ... en la calle que elija.
    # Finalmente, el jugador gira el dado para mostrar un valor a su elección (cualquiera
    # excepto el 1 de color rojo), y coloca los tres dados en el Cuadro de Acciones»
    s = place_all_but_last_ragami(4, 6)
    last = (s.first - 1) % 4
    next_rolls(s, 1, 1, 6)
    s, _ = play(s, (s.tasks[0].seat, E.legal_actions(s, s.tasks[0].seat)[0]))
    assert s.rolled == [1, 1, 6]
    assert [(t.kind, t.seat) for t in s.tasks] == [("demon", last)] * 2 + [
        ("set_die", last),
        ("set_die", last),
        ("arrange", last),
    ]
    assert legal_places(s, last) == {str(q) for q in SQUARES}  # any street square
    s, _ = play(s, (last, Place(at="30")), (last, Place(at="30")))
    assert s.demons.count(30) == 2 and len(s.demons) == 6
    assert {a.value for a in E.legal_actions(s, last)} == {2, 3, 4, 5, 6}  # never the red 1
    s, _ = play(s, (last, SetDie(value=5)), (last, SetDie(value=2)))
    assert sorted(s.rolled) == [2, 5, 6]
    assert len(E.legal_actions(s, last)) == 6  # three different values: any order
    s, _ = play(s, (last, Arrange(values=[2, 6, 5])))
    assert s.dice == [2, 6, 5] and s.phase == "turn" and s.turn == s.first


def test_setup_12_no_demon_when_the_supply_is_empty() -> None:
    # «coloca un Demonio del suministro general (en el caso de que haya alguno)»
    s = place_all_but_last_ragami(3, 6)
    s.demons = sorted(s.demons + [1, 2])  # all six on the board
    next_rolls(s, 1, 3, 4)
    s, _ = play(s, (s.tasks[0].seat, E.legal_actions(s, s.tasks[0].seat)[0]))
    assert [t.kind for t in s.tasks] == ["set_die", "arrange"]


# ============================================================================ 2 and 3 players


def test_three_players_the_fourth_saint_goes_where_a_token_says() -> None:
    # «Para 3 jugadores ... El Santo que no pertenece a ninguno de los jugadores se coloca al
    # azar (usando una ficha de localización)»; three Ragamis only
    squares = set()
    for seed in range(12):
        s = E.setup(3, {}, seed)
        assert s.saints[:3] == [None] * 3 and s.saints[PURPLE] in SQUARES
        assert len(s.pool) == 20  # the token only chose the square
        squares.add(s.saints[PURPLE])
        s = keep_first_cards(s)
        f = s.first
        order = [(f + i) % 3 for i in range(3)]
        # the third player is the last one: Ragamis from the third, then the first, second
        assert [(t.kind, t.seat) for t in s.tasks[:9]] == (
            [("saint", x) for x in order]
            + [("virtue", x) for x in order[1:] + order[:1]]
            + [("ragami", x) for x in order[2:] + order[:2]]
        )
    assert len(squares) > 3


def test_two_players_neutral_saints_on_two_squares_and_the_placing_order() -> None:
    # «Los 2 Santos que no pertenecen a ninguno de los jugadores se colocan al azar (usando
    # una ficha de localización)» — a token for each: two different squares
    for seed in range(40):
        s = E.setup(2, {}, seed)
        assert s.saints[BLUE] != s.saints[PURPLE]
    # «El primer jugador coloca su Santo y su dado de Virtud. El segundo jugador coloca su
    # Santo, su dado de Virtud, su Ragami y el Ragami neutral. Finalmente, el primer jugador
    # coloca su Ragami.»
    s = keep_first_cards(E.setup(2, {}, 3))
    p1, p2 = s.first, 1 - s.first
    order = []
    while s.phase != "turn" and s.tasks[0].kind in ("saint", "virtue", "ragami"):
        t = s.tasks[0]
        order.append((t.kind, t.seat, t.colour))
        s, _ = play(s, (t.seat, E.legal_actions(s, t.seat)[0]))
    assert order == [
        ("saint", p1, -1),
        ("virtue", p1, -1),
        ("saint", p2, -1),
        ("virtue", p2, -1),
        ("ragami", p2, p2),
        ("ragami", p2, BLUE),
        ("ragami", p1, p1),
    ]
    assert len({s.ragamis[p1], s.ragamis[p2], s.ragamis[BLUE]}) == 3
    # the last player (the second) rolls the action dice
    assert s.tasks[-1].kind == "arrange" and s.tasks[-1].seat == p2


def test_two_players_without_card_ten() -> None:
    # «La carta mostrada no se usa en partidas de 2 jugadores» — «Nota: En partidas de 2
    # jugadores, esta carta no se usa» is written under the ? Power card (n.º 10)
    s = E.setup(2, {}, 1)
    ids = s.deck + [c for d in s.drawn for c in d]
    assert len(ids) == 31 and all(CARDS[c] != "poderx" for c in ids)


def test_two_players_the_neutral_ragami_only_helps() -> None:
    # «Este Ragami puede ser usado por cualquiera de los dos jugadores y solamente puede
    # ayudar a resolver conflictos.»
    q = TWO_BUILDINGS
    s = table(2, turn=GREEN, ragamis=["A", str(q), None, None], neutral=BLUE, conflicts={q: 4})
    s.ragamis[BLUE] = str(q)
    s.cubes = [0, 2]
    s.cube_supply = 28
    # green resolves with the neutral Ragami's 2 points; nobody receives its 2 cubes
    s, _ = play(s, (GREEN, UseDie(slot=2)))
    assert s.step.res.helper == BLUE and s.step.res.total == 2
    s, _ = play(s, (GREEN, Power(source="cubes", amount=2)), (GREEN, Commit()))
    assert s.vp == [0, 4] and s.cubes == [0, 0] and s.cube_supply == 30
    # both players may move it; it never resolves (only a player's own Ragami stands for
    # the resolve action)
    s = table(2, ragamis=["A", "C", None, None], neutral=BLUE, conflicts={q: 4})
    s.ragamis[BLUE] = str(q)
    assert not any(
        isinstance(a, UseDie) and a.slot == 2 and not a.move for a in E.legal_actions(s, 0)
    )
    s, _ = play(s, (YELLOW, UseDie(slot=0, move=True)))
    assert {a.piece for a in E.legal_actions(s, YELLOW)} == {"R0", "R2"}


def test_two_players_may_leave_the_neutral_ragami_out() -> None:
    # «Los jugadores pueden usar un tercer Ragami neutral» — they may: an option (on by
    # default); without it, the same order less the neutral Ragami
    s = keep_first_cards(E.setup(2, {"neutral_ragami": False}, 3))
    p1, p2 = s.first, 1 - s.first
    assert s.neutral is None and s.saints[BLUE] is not None and s.saints[PURPLE] is not None
    assert [(t.kind, t.seat) for t in s.tasks[:6]] == [
        ("saint", p1),
        ("virtue", p1),
        ("saint", p2),
        ("virtue", p2),
        ("ragami", p2),
        ("ragami", p1),
    ]
    assert E.setup(3, {"neutral_ragami": False}, 3).neutral is None
    c = card("ragami")
    s = table(2, ragamis=["A", "C", None, None], hands=[[c], []])
    s.options = s.options.model_copy(update={"neutral_ragami": False})
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert s.step.piece == "R0"  # only my own Ragami to move


# ============================================================================ round preparation


def test_preparation_1_the_first_player_cube_goes_left() -> None:
    # «El jugador inicial pasa el cubo de primer jugador a la persona situada a su izquierda.»
    s = table(4, turn=2, ragamis=["A", "C", "F", "H"])
    s = pass_all(s)
    assert s.round == 2 and s.first == 3
    s = skip_virtue_step(s)
    # «Aquel que sea ahora el nuevo cuarto jugador tira los 3 dados de acción»
    assert all(t.seat == 2 for t in s.tasks)


def test_preparation_2_conflicts_grow_and_a_seven_forbids_the_square() -> None:
    # «Incrementa el valor de todos los dados de Conflicto ... en 1 punto. Los dados de
    # Conflicto que tras ello debieran tener un valor de 7 se devuelven al suministro general.
    # Coloca una ficha ... "Paso prohibido" boca arriba en el lugar donde estaba situado el
    # dado ... Los Ragamis que se encontraran en dicho espacio deben moverse a un edificio
    # adyacente escogido por el jugador que controla el Ragami.»
    q2, q1 = TWO_BUILDINGS, ONE_BUILDING
    other = next(q for q in SQUARES if q not in (q1, q2) and q not in STREET[q2])
    s = table(
        3,
        ragamis=[str(q2), str(q2), str(q1), None],
        conflicts={q2: 6, q1: 6, other: 1},
        saints=[None, None, None, q2],
        demons=[q2],
    )
    s = pass_all(s)
    assert s.forbidden == sorted([q1, q2]) and s.conflicts[other] == 2
    assert q1 in s.tokens and q2 in s.tokens  # the token turns over where the die was
    assert s.ragamis[BLUE] == BUILDINGS_AT[q1][0]  # one building next to it: no choice
    assert [(t.kind, t.seat) for t in s.tasks[:2]] == [("flee", YELLOW), ("flee", GREEN)]
    assert legal_places(s, YELLOW) == set(BUILDINGS_AT[q2])
    s, _ = play(s, (YELLOW, Place(at=BUILDINGS_AT[q2][0])), (GREEN, Place(at=BUILDINGS_AT[q2][1])))
    assert s.ragamis[:2] == list(BUILDINGS_AT[q2])
    # Saints and Demons are not Ragamis: they stay
    assert s.saints[PURPLE] == q2 and s.demons == [q2]
    # «Desde ahora, ningún Ragami puede pasar a través o situarse en ese espacio»
    s = skip_virtue_step(s)
    assert str(q2) not in {a.at for a in _ragami_moves(s, s.first)}


def _ragami_moves(s: RgState, seat: int) -> list[Place]:
    t = E.copy_state(s)
    while t.phase != "turn":
        st = t.tasks[0]
        t, _ = play(t, (st.seat, E.legal_actions(t, st.seat)[0]))
    t.turn = seat
    t, _ = play(t, (seat, UseDie(slot=0, move=True)))
    if t.step.piece == "":
        t, _ = play(t, (seat, Pick(piece=f"R{seat}")))
    return [a for a in E.legal_actions(t, seat) if isinstance(a, Place)]


def test_preparation_3_virtue_dice_grow_one_and_one_per_ragami_near() -> None:
    # «Incrementa el valor de los dados de Virtud situados sobre el tablero en 1 punto más 1
    # punto adicional por cada Ragami situado sobre dicho edificio o en espacios adyacentes.»
    sq = AROUND["D"]
    s = table(
        4,
        ragamis=["D", str(sq[0]), str(sq[1]), "H"],
        virtue_at=["D", "D", None, "H"],
        virtue=[1, 4, 1, 2],
    )
    s = pass_all(s)
    # D: +1 for the round, +3 for the three Ragamis (any colour); never above 6
    # H: +1, +1 for the purple Ragami on it
    assert s.virtue == [5, 6, 1, 4] and s.virtue_at[BLUE] is None


def test_preparation_4_dice_in_the_supply_come_back_where_tokens_say() -> None:
    # «Lanza todos los dados de Conflicto situados en el suministro general ... y escoge al
    # azar una ficha de localización por cada dado ... Coloca el/los dado/s ... en los
    # espacios indicados»
    s = table(3, ragamis=["A", "C", "F", None], conflicts={5: 2, 9: 3})
    pool = list(s.pool)
    s = pass_all(s)
    assert len(s.conflicts) == 6
    new = set(s.conflicts) - {5, 9}
    assert len(new) == 4 and new <= set(pool) and not new & set(s.pool)
    assert s.conflicts[5] == 3 and s.conflicts[9] == 4


def test_preparation_5_virtue_exchange_move_or_place_at_one() -> None:
    # «convertir el valor de sus dados de Virtud en puntos de Virtud. Por cada 3 puntos del
    # dado = 1 VP. Además, un jugador puede en este momento mover su dado de Virtud a otro
    # edificio. Al mover el dado, su valor cambia a 1. Si un jugador no tiene su dado de
    # Virtud sobre el tablero, puede ahora colocarlo sobre cualquier edificio ... en su
    # valor 1.»
    s = table(3, ragamis=["A", "C", "F", None], virtue_at=["B", "G", None], virtue=[5, 2, 1])
    s = pass_all(s)  # B: 5 -> 6, G: 2 -> 3
    assert [(t.kind, t.seat) for t in s.tasks] == [("prep_virtue", x) for x in (1, 2, 0)]
    # green (the new first player): 3 -> 1 VP, the die leaves at 0, and is placed again at 1
    s, _ = play(s, (GREEN, Convert(what="virtue")))
    assert s.vp[GREEN] == 1 and s.virtue_at[GREEN] is None
    assert legal_places(s, GREEN) == set(BUILDINGS)
    s, _ = play(s, (GREEN, Place(at="H")))
    assert (s.virtue_at[GREEN], s.virtue[GREEN]) == ("H", 1)
    # blue had no die on the board: it places it at 1
    s, _ = play(s, (BLUE, Place(at="B")))
    assert (s.virtue_at[BLUE], s.virtue[BLUE]) == ("B", 1)
    # yellow: two exchanges (6 -> 0), or a move that sets the die to 1
    t, _ = play(s, (YELLOW, Convert(what="virtue")), (YELLOW, Convert(what="virtue")))
    assert t.vp[YELLOW] == 2 and t.virtue_at[YELLOW] is None
    t, _ = play(s, (YELLOW, Place(at="A")))
    assert (t.virtue_at[YELLOW], t.virtue[YELLOW], t.vp[YELLOW]) == ("A", 1, 0)
    assert "B" not in legal_places(s, YELLOW)  # another building


def test_preparation_6_and_7_the_new_last_player_rolls_then_the_first_begins() -> None:
    # «Aquel que sea ahora el nuevo cuarto jugador tira los 3 dados de acción ... Por cada 1
    # rojo ... coloca [un Demonio] en cualquier calle ... cambia el valor ... El jugador
    # inicial comienza la nueva ronda.»
    s = table(3, turn=0, ragamis=["A", "C", "F", None], dice=[0, 1, 2])
    s = pass_all(s)
    while len(s.tasks) > 1:
        s, _ = play(s, (s.tasks[0].seat, Done()))
    next_rolls(s, 1, 6, 1)
    s, _ = play(s, (s.tasks[0].seat, Done()))
    assert s.first == 1 and all(t.seat == 0 for t in s.tasks)
    assert [t.kind for t in s.tasks] == ["demon", "demon", "set_die", "set_die", "arrange"]
    s, _ = play(
        s,
        (0, Place(at="3")),
        (0, Place(at="4")),
        (0, SetDie(value=6)),
        (0, SetDie(value=3)),
        (0, Arrange(values=[6, 6, 3])),
    )
    assert s.dice == [6, 6, 3] and s.phase == "turn" and s.turn == 1 and s.round == 2


# ============================================================================ turns


def test_a_turn_is_one_die_action_and_any_cards_before_and_after() -> None:
    # «Una acción de cualquiera de los dados de Acción - Cualquier número de acciones de sus
    # cartas ... Puede jugar cartas de Acción antes y/o después de usar un dado de Acción.»
    c1, c2 = card("ajuste"), card("ajuste", 1)
    s = table(3, ragamis=["A", "C", "F", None], conflicts={5: 3}, hands=[[c1, c2], [], []])
    s, _ = play(s, (0, PlayCard(card=c1)), (0, Pick(piece="C5")), (0, Adjust(delta=1)))
    s, _ = play(s, (0, UseDie(slot=0, move=True)), (0, Place(at="B")))
    assert not any(isinstance(a, UseDie) for a in E.legal_actions(s, 0))
    with pytest.raises(IllegalAction):
        E.apply(s, 0, UseDie(slot=1))
    s, _ = play(s, (0, PlayCard(card=c2)), (0, Pick(piece="C5")), (0, Adjust(delta=2)))
    assert s.conflicts[5] == 6 and s.dice == [2, 3, 3]
    # «Los jugadores no tienen por qué realizar ninguna acción»
    assert EndTurn() in E.legal_actions(s, 0)


def test_a_card_drawn_in_a_turn_waits_for_a_later_turn() -> None:
    # «Un jugador solo puede usar la carta escogida en turnos posteriores.» «para poder ser
    # usadas las cartas deben haber sido obtenidas en turnos anteriores»
    s = table(3, ragamis=["A", "C", "F", None], conflicts={5: 3})
    s, _ = play(s, (0, UseDie(slot=1)))
    kept = s.drawn[0][0]
    s, _ = play(s, (0, Keep(card=kept)))
    legal = E.legal_actions(s, 0)
    assert PlayCard(card=kept) not in legal and CashCard(card=kept) not in legal
    s, _ = play(s, (0, EndTurn()), (1, UseDie(slot=0, move=True)), (1, Place(at="B")))
    s, _ = play(s, (1, EndTurn()), (2, EndTurn()))
    assert s.turn == 0 and s.fresh[0] == []  # the next turn of the same round: usable now


def test_the_round_ends_when_everybody_has_passed() -> None:
    # «se continúa de esta forma hasta que todos pasan porque no puedan o no quieran realizar
    # más acciones. Una vez que todos los jugadores han pasado, la ronda termina.»
    s = table(3, ragamis=["A", "C", "F", None])
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()))
    assert s.round == 1 and s.turn == 2
    s, _ = play(s, (2, UseDie(slot=0, move=True)), (2, Place(at="G")), (2, EndTurn()))
    # yellow and green passed, but blue acted: they get turns again and may act
    assert s.round == 1 and s.turn == 0
    s, _ = play(s, (0, UseDie(slot=0, move=True)), (0, Place(at="B")), (0, EndTurn()))
    s, _ = play(s, (1, EndTurn()), (2, EndTurn()))
    assert s.round == 1
    s, _ = play(s, (0, EndTurn()))
    assert s.round == 2


def test_the_die_value_is_how_often_its_action_may_be_used_in_the_round() -> None:
    # «El valor de los dados indica el número de veces que se puede realizar dicha acción
    # durante una ronda ... Tras usar un dado de Acción, su valor se reduce en 1 punto.»
    # «Cuando un dado tiene un valor de 1 ... solo se puede usar dicha acción una vez más.»
    s = table(3, ragamis=["A", "C", "F", None], dice=[1, 2, 1])
    s, _ = play(s, (0, UseDie(slot=0, move=True)), (0, Place(at="B")), (0, EndTurn()))
    assert s.dice == [0, 2, 1]
    # either action of a slot uses its die; at 0 neither is offered
    assert not any(isinstance(a, UseDie) and a.slot == 0 for a in E.legal_actions(s, 1))
    s, _ = play(s, (1, UseDie(slot=1)))
    assert s.dice == [0, 1, 1]


def test_a_full_hand_must_discard_or_use_a_card_before_drawing() -> None:
    # «Un jugador no puede tener más de 3 cartas en la mano. Un jugador que tenga 3 cartas en
    # la mano puede robar cartas, pero tendrá que descartar o usar una de sus cartas
    # previamente.» «toma 3 cartas del mazo de robo de entre las que escoge 1. Las cartas
    # descartadas se colocan boca arriba en el tablero.»
    hand = [card("ajuste"), card("virtud"), card("cubos")]
    s = table(3, ragamis=["A", "C", "F", None], hands=[hand, [], []])
    assert UseDie(slot=1) not in E.legal_actions(s, 0)
    s, _ = play(s, (0, Discard(card=hand[2])), (0, UseDie(slot=1)))
    drawn = list(s.drawn[0])
    assert len(drawn) == 3
    s, _ = play(s, (0, Keep(card=drawn[2])))
    assert len(s.hands[0]) == 3 and s.discard[-2:] == drawn[:2]


def test_an_empty_deck_is_the_shuffled_discard_pile() -> None:
    # «Si el mazo de robo se agota, se mezclan las cartas del mazo de descartes»
    s = table(3, ragamis=["A", "C", "F", None])
    s.discard = s.deck[:-1] + s.discard
    s.deck = s.deck[-1:]
    s, _ = play(s, (0, UseDie(slot=1)))
    assert len(s.drawn[0]) == 3 and len(s.deck) == 33 - 3 and s.discard == []
    check_conservation(s)


# ============================================================================ moving


def test_a_ragami_moves_up_to_four_spaces_through_streets_and_buildings() -> None:
    # «Un Ragami puede moverse hasta 4 espacios. Un Ragami puede moverse a través de las calles
    # y los edificios. Puede saltar de un edificio a otro adyacente sin pasar por la calle.
    # Cuando se mueve de un edificio a una localización en una calle, dicha localización tiene
    # que ser adyacente a dicho edificio.»
    s = table(3, ragamis=["E", "A", "C", None])
    places = {a.at for a in _ragami_moves(s, YELLOW)}
    nodes = [str(q) for q in SQUARES] + list(BUILDINGS)
    assert places == {n for n in nodes if n != "E" and distance("E", n) <= 4}
    assert "H" in BUILDING_LINKS["E"] and distance("E", "H") == 1  # a jump
    assert "C" not in BUILDING_LINKS["E"] and distance("E", "C") == 2  # by square 12
    assert all(distance("E", str(q)) == 1 for q in AROUND["E"])


def test_a_ragami_does_not_jump_to_a_building_that_is_not_next_to_it() -> None:
    # «El Ragami no puede (indicado en color rojo): saltar a un edificio no adyacente»:
    # with every square round the Ayuntamiento forbidden, only its linked building is open
    s = table(3, ragamis=["E", "A", "C", None])
    s.forbidden = list(AROUND["E"])
    s.tokens = sorted(set(s.tokens) | set(AROUND["E"]))
    s.pool = [q for q in s.pool if q not in s.forbidden]
    places = {a.at for a in _ragami_moves(s, YELLOW)}
    assert BUILDING_LINKS["E"] == ("H",)
    assert "H" in places and "C" not in places and "F" not in places
    assert not places & {str(q) for q in AROUND["E"]}


def test_a_ragami_passes_its_saint_but_does_not_stop_there() -> None:
    # «Un Ragami NO PUEDE situarse en la misma localización que un Santo del mismo color.
    # Sin embargo, si puede pasar entre ellos.»
    a, m, b = 11, 10, 16  # 11 - 10 - 16 along the streets
    assert m in STREET[a] and b in STREET[m]
    s = table(3, ragamis=[str(a), "C", "F", None], saints=[m, None, None, None])
    places = {p.at for p in _ragami_moves(s, YELLOW)}
    assert str(m) not in places and str(b) in places


def test_no_ragami_crosses_or_stops_on_a_forbidden_square() -> None:
    # «Un Ragami NO PUEDE pasar a través o terminar su movimiento en una localización que
    # tenga una ficha de "Paso prohibido"»
    s = table(3, ragamis=["11", "C", "F", None], forbidden=[10], tokens=[10])
    places = {p.at for p in _ragami_moves(s, YELLOW)}
    assert "10" not in places
    assert distance("11", "16") == 2 and distance("11", "16", frozenset({"10"})) == 4
    assert "16" in places  # the long way round, four spaces


def test_at_most_two_ragamis_on_a_street_square_any_number_in_a_building() -> None:
    # «Solo puede haber dos Ragamis en la misma localización en una calle. No hay límite para
    # el número de Ragamis que pueden situarse en un edificio.»
    q = AROUND["B"][0]
    s = table(4, ragamis=["B", str(q), str(q), "B"])
    places = {p.at for p in _ragami_moves(s, YELLOW)}
    assert str(q) not in places
    s = table(4, ragamis=["A", "B", "B", "B"])
    assert "B" in {p.at for p in _ragami_moves(s, YELLOW)}
    s = table(4, ragamis=["A", str(q), "C", "F"])
    assert str(q) in {p.at for p in _ragami_moves(s, YELLOW)}


def test_purifying_removes_only_demons_one_vp_each() -> None:
    # «Si un Ragami termina su movimiento en un espacio donde solo hay Demonios, éstos se
    # retiran del tablero y se devuelven al suministro general. El jugador gana 1 PV por cada
    # Demonio» «(no hay dados de Conflicto, ni otros Ragami o Santos). Sin embargo, si puede
    # haber varios Demonios.»
    q = AROUND["B"][1]
    s = table(3, ragamis=["B", "C", "F", None], demons=[q, q, q])
    s, events = play(s, (YELLOW, UseDie(slot=0, move=True)), (YELLOW, Place(at=str(q))))
    assert s.vp[YELLOW] == 3 and s.demons == [] and E.view(s, None).demon_supply == 6
    for extra in ({"conflicts": {q: 2}}, {"saints": [None, None, None, q]}):
        s = table(3, ragamis=["B", "C", "F", None], demons=[q], **extra)
        s, _ = play(s, (YELLOW, UseDie(slot=0, move=True)), (YELLOW, Place(at=str(q))))
        assert s.vp[YELLOW] == 0 and s.demons == [q]
    s = table(3, ragamis=["B", str(q), "F", None], demons=[q])
    s, _ = play(s, (YELLOW, UseDie(slot=0, move=True)), (YELLOW, Place(at=str(q))))
    assert s.vp[YELLOW] == 0 and s.demons == [q]


def test_a_ragami_move_ends_elsewhere_so_demons_brought_to_it_stay() -> None:
    # «Si un Ragami termina su movimiento en un espacio donde solo hay Demonios» — the Demons
    # a Saint-and-Demon action brings onto a Ragami's square are not purified, and the
    # Ragami cannot step out and back in one move (docs/rules/ragami.md, Moving)
    s = table(3, ragamis=["30", "A", "B", None], saints=[None, 27, None, None], demons=[24])
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")), (YELLOW, Place(at="26")))
    s, _ = play(s, (YELLOW, Pick(piece="D24")), (YELLOW, Place(at="30")))
    assert s.demons == [30] and s.vp[YELLOW] == 0
    s, _ = play(s, (YELLOW, EndTurn()), (GREEN, EndTurn()), (BLUE, EndTurn()))
    assert "30" not in {p.at for p in _ragami_moves(s, YELLOW)}
    s, _ = play(s, (YELLOW, UseDie(slot=1, move=True)), (YELLOW, Place(at="29")))
    s, _ = play(s, (YELLOW, EndTurn()), (GREEN, EndTurn()), (BLUE, EndTurn()))
    s, _ = play(s, (YELLOW, UseDie(slot=1, move=True)), (YELLOW, Place(at="30")))
    assert s.demons == [] and s.vp[YELLOW] == 1


def test_any_saint_moves_one_to_four_streets_and_its_mover_gets_the_cube() -> None:
    # «Un jugador puede mover CUALQUIER Santo ... Un Santo solo puede moverse por las calles
    # ... Un Santo puede moverse en cualquier dirección un mínimo de 1 espacio y un máximo de 4
    # ... Un Santo NO PUEDE terminar su movimiento en el mismo espacio donde comenzó ...
    # no es el jugador del color del Santo quien gana el cubo. El jugador que gana el cubo es
    # aquel que movió el Santo.»
    start = 28
    s = table(
        3,
        ragamis=["A", "C", "B", None],
        saints=[None, start, None, None],
        conflicts={29: 2},
    )
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")))
    assert legal_places(s, YELLOW) == {str(q) for q in street_reach(start)}
    assert str(start) not in legal_places(s, YELLOW) and not legal_places(s, YELLOW) & set(
        BUILDINGS
    )
    s, _ = play(s, (YELLOW, Place(at="29")))
    assert s.cubes == [1, 0, 0] and s.saints[GREEN] == 29


def test_a_saint_passes_but_never_stops_on_the_square_of_its_ragami() -> None:
    # «Un Santo no puede colocarse en el espacio donde se encuentre el Ragami del mismo color,
    # pero el Santo puede pasar a través de dicha localización.»
    s = table(3, ragamis=["A", "10", "B", None], saints=[None, 11, None, None])
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")))
    places = legal_places(s, YELLOW)
    assert "10" not in places and "16" in places  # 11 - 10 - 16


def test_no_saint_onto_the_movers_own_ragami() -> None:
    # «Un jugador no puede, sin embargo, colocar un Santo en un conflicto donde se encuentre
    # su Ragami.» and card n.º 1 «No puedes colocar Santos en la misma localización que tu
    # Ragami»: decided for every square (docs/rules/ragami.md, Moving)
    s = table(3, ragamis=["29", "A", "B", None], saints=[None, 28, None, None], conflicts={29: 2})
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")))
    assert "29" not in legal_places(s, YELLOW) and "30" in legal_places(s, YELLOW)
    s = table(3, ragamis=["30", "A", "B", None], saints=[None, 28, None, None])
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")))
    assert "30" not in legal_places(s, YELLOW)


def test_exchanges_and_discards_alone_are_a_pass() -> None:
    # «hasta que todos pasan porque no puedan o no quieran realizar más acciones» — decided:
    # a turn with no die action and no card is a pass, exchanges and discards included
    hand = [card("ajuste"), card("virtud"), card("cubos")]
    s = table(3, ragamis=["A", "C", "F", None], cubes=[2, 0, 0], hands=[hand, [], []])
    s, _ = play(s, (YELLOW, Convert(what="cubes")), (YELLOW, Discard(card=hand[0])))
    s, _ = play(s, (YELLOW, EndTurn()), (GREEN, EndTurn()), (BLUE, EndTurn()))
    assert s.round == 2
    # cashing a card for a cube is the card's use: it counts as acting
    s = table(3, ragamis=["A", "C", "F", None], hands=[hand, [], []])
    s, _ = play(s, (YELLOW, CashCard(card=hand[0])), (YELLOW, EndTurn()))
    s, _ = play(s, (GREEN, EndTurn()), (BLUE, EndTurn()))
    assert s.round == 1 and s.turn == YELLOW


def test_a_saint_moved_from_conflict_to_conflict_still_gives_a_cube() -> None:
    # «Cada vez que un jugador coloca un Santo en un conflicto (un espacio con un dado negro),
    # gana 1 cubo blanco.»
    s = table(
        3, ragamis=["A", "C", "B", None], saints=[None, 28, None, None], conflicts={28: 2, 29: 3}
    )
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")), (YELLOW, Place(at="29")))
    assert s.cubes[YELLOW] == 1


def test_after_the_saint_a_demon_must_move_or_come_from_the_supply() -> None:
    # «Tras mover un Santo, el jugador DEBE mover un Demonio o bien colocar uno nuevo en el
    # tablero ... Un Demonio SOLAMENTE se mueve por las calles ... un mínimo de 1 espacio y un
    # máximo de 4 ... NO PUEDE terminar su movimiento en el mismo espacio donde comenzó ...
    # puede colocarlo en cualquier espacio en la calle. No hay límite al número de Santos o
    # Demonios que pueden ocupar un mismo espacio.»
    s = table(3, ragamis=["A", "C", "B", None], saints=[None, 28, None, None], demons=[5, 5])
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")), (YELLOW, Place(at="29")))
    assert {a.piece for a in E.legal_actions(s, YELLOW)} == {"D5", "D0"}  # no Done: a must
    s2, _ = play(s, (YELLOW, Pick(piece="D5")))
    assert legal_places(s2, YELLOW) == {str(q) for q in street_reach(5)}
    s2, _ = play(s2, (YELLOW, Place(at="7")))
    assert s2.demons == [5, 7] and s2.step is None
    s3, _ = play(s, (YELLOW, Pick(piece="D0")), (YELLOW, Place(at="29")))
    assert s3.demons == [5, 5, 29] and s3.saints[GREEN] == 29
    # with all six Demons on the board, one of them moves
    s.demons = [5, 5, 6, 7, 8, 9]
    assert "D0" not in {a.piece for a in E.legal_actions(s, YELLOW)}


# ============================================================================ resolving


def test_resolving_needs_the_ragami_on_a_conflict() -> None:
    # «Para realizar esta acción, el jugador debe tener su Ragami en una localización donde
    # haya un conflicto (dado negro).»
    s = table(3, ragamis=["B", "C", "F", None], conflicts={1: 2})
    assert UseDie(slot=2) not in E.legal_actions(s, YELLOW)
    assert UseDie(slot=2, move=True) in E.legal_actions(s, YELLOW)
    s = table(3, ragamis=["1", "C", "F", None], conflicts={1: 2})
    assert UseDie(slot=2) in E.legal_actions(s, YELLOW)


def test_the_cost_is_the_die_plus_the_demons_and_cubes_pay_one_each() -> None:
    # «El valor del conflicto equivale al valor del dado + el número de Demonios ... Un cubo =
    # 1 Punto de Poder.» «debe igualar o superar el valor del conflicto»
    s = table(3, ragamis=["7", "C", "F", None], conflicts={7: 3}, demons=[7, 7], cubes=[6, 0, 0])
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    assert s.step.res.cost == 5 and E.view(s, None).conflicts[0].cost == 5
    s, _ = play(s, (YELLOW, Power(source="cubes", amount=4)))
    assert Commit() not in E.legal_actions(s, YELLOW)
    s, _ = play(s, (YELLOW, Power(source="cubes", amount=1)), (YELLOW, Commit()))
    assert s.vp[YELLOW] == 3 and s.cubes[YELLOW] == 1 and s.cube_supply == 29
    assert s.demons == [7, 7]  # the Demons stay


def test_only_one_red_triangle_card_per_resolution() -> None:
    # «Triángulo rojo: cuando se resuelve un conflicto, un jugador puede usar UNA carta con
    # triángulo rojo.»
    p2, p4 = card("poder2"), card("poder4")
    s = table(
        3,
        ragamis=["7", "C", "F", None],
        conflicts={7: 6},
        cubes=[3, 0, 0],
        hands=[[p2, p4], [], []],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, PowerCard(card=p2)))
    assert not any(isinstance(a, PowerCard) for a in E.legal_actions(s, YELLOW))
    with pytest.raises(IllegalAction):
        E.apply(s, YELLOW, PowerCard(card=p4))


def test_saints_on_the_conflict_add_one_each_and_score_for_their_owner() -> None:
    # «Santos que estén situados en la misma localización que el conflicto. Cada Santo
    # automáticamente contribuye con 1 punto de Poder ... Si el conflicto se resuelve, el
    # jugador del color del Santo gana 1 PV.»
    s = table(
        4,
        ragamis=["7", "C", "F", "H"],
        conflicts={7: 3},
        saints=[None, 7, 7, 7],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    assert s.step.res.total == 3 and E.legal_actions(s, YELLOW) == [Commit(), Cancel()]
    s, _ = play(s, (YELLOW, Commit()))
    assert s.vp == [3, 1, 1, 1]
    # a neutral Saint (three players) helps and scores for nobody
    s = table(3, ragamis=["7", "C", "F", None], conflicts={7: 1}, saints=[None, None, None, 7])
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, Commit()))
    assert s.vp == [1, 0, 0]


def test_the_virtue_die_of_a_connected_building_pays_and_leaves_at_zero() -> None:
    # «Si la localización del conflicto está conectada a un edificio donde el jugador tenga su
    # dado de Virtud, puede usar puntos del mismo ... reduciendo su valor. Si el valor
    # resultante es cero, el dado se retira del tablero y se devuelve al jugador ... que solo
    # podrá colocarlo de nuevo en un edificio al final de la ronda.»
    q = TWO_BUILDINGS
    near, far = BUILDINGS_AT[q][1], next(b for b in BUILDINGS if b not in BUILDINGS_AT[q])
    s = table(
        3,
        ragamis=[str(q), "C", "F", None],
        conflicts={q: 4},
        virtue_at=[far, None, None],
        virtue=[6, 1, 1],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    assert not any(
        isinstance(a, Power) and a.source == "virtue" for a in E.legal_actions(s, YELLOW)
    )
    s = table(
        3,
        ragamis=[str(q), "C", "F", None],
        conflicts={q: 4},
        virtue_at=[near, None, None],
        virtue=[4, 1, 1],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    assert Power(source="virtue", amount=4) in E.legal_actions(s, YELLOW)
    s, _ = play(s, (YELLOW, Power(source="virtue", amount=4)), (YELLOW, Commit()))
    assert s.virtue_at[YELLOW] is None and s.vp[YELLOW] == 4
    # not back during the round: card n.º 4 cannot bring it back either
    s.hands[YELLOW] = [card("virtud")]
    s.deck = [c for c in s.deck if c != card("virtud")]
    assert PlayCard(card=card("virtud")) not in E.legal_actions(s, YELLOW)
    s, _ = play(s, (YELLOW, EndTurn()))
    s = pass_all(s)
    while s.tasks[0].seat != YELLOW:
        s, _ = play(s, (s.tasks[0].seat, Done()))
    assert legal_places(s, YELLOW) == set(BUILDINGS)  # back at the end of the round


def test_a_second_ragami_adds_two_and_its_owner_gets_two_cubes_on_success() -> None:
    # «La presencia de un segundo Ragami en la localización del conflicto automáticamente
    # contribuye a su resolución con 2 puntos de Poder. El Ragami que brinda su ayuda recibe
    # 2 cubos blancos del suministro general cuando el conflicto sea resuelto.»
    q = TWO_BUILDINGS
    s = table(3, ragamis=[str(q), "C", str(q), None], conflicts={q: 5}, cubes=[1, 0, 0])
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    assert s.step.res.total == 2
    next_rolls(s, 1)
    s, _ = play(s, (YELLOW, Power(source="cubes", amount=1)), (YELLOW, Roll()))
    assert s.vp[YELLOW] == 0 and s.cubes == [1, 0, 0]  # failed: no cubes for the helper
    s = table(3, ragamis=[str(q), "C", str(q), None], conflicts={q: 5}, cubes=[3, 0, 0])
    s, _ = play(
        s, (YELLOW, UseDie(slot=2)), (YELLOW, Power(source="cubes", amount=3)), (YELLOW, Commit())
    )
    assert s.vp == [5, 0, 0] and s.cubes == [0, 0, 2]
    # the supply running out: what is left
    s = table(3, ragamis=[str(q), "C", str(q), None], conflicts={q: 2})
    s.cube_supply = 1
    s.cubes = [0, 29, 0]
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, Commit()))
    assert s.cubes == [0, 29, 1] and s.cube_supply == 0


def test_the_power_die_comes_last_and_its_extra_points_are_lost() -> None:
    # «Un jugador puede usar este dado en el momento que desee ... una vez que se usa el dado,
    # no se pueden añadir puntos de alguna de las otras formas ... Si el resultado es mayor de
    # lo que era necesario, los puntos restantes de descartan»
    s = table(3, ragamis=["7", "C", "F", None], conflicts={7: 3}, cubes=[2, 0, 0])
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, Power(source="cubes", amount=1)))
    next_rolls(s, 6)
    s, events = play(s, (YELLOW, Roll()))
    assert s.step is None and s.vp[YELLOW] == 3 and s.cubes[YELLOW] == 1
    assert [e.kind for e in events if e.kind in ("power_die", "resolved")] == [
        "power_die",
        "resolved",
    ]


def test_a_failed_resolution_sends_the_ragami_to_a_building_and_loses_nothing() -> None:
    # «Si la resolución del conflicto es fallida ... el jugador retira inmediatamente su
    # Ragami del conflicto, colocándolo en un edificio adyacente. No perderá los cubos, cartas
    # o puntos de los dados de Virtud que haya empleado como puntos de Poder.»
    q = TWO_BUILDINGS
    p2 = card("poder2")
    b = BUILDINGS_AT[q][0]
    s = table(
        3,
        ragamis=[str(q), "C", "F", None],
        conflicts={q: 6},
        demons=[q, q],
        cubes=[3, 0, 0],
        hands=[[p2], [], []],
        virtue_at=[b, None, None],
        virtue=[2, 1, 1],
    )
    s, _ = play(
        s,
        (YELLOW, UseDie(slot=2)),
        (YELLOW, Power(source="cubes", amount=2)),
        (YELLOW, Power(source="virtue", amount=2)),
        (YELLOW, PowerCard(card=p2)),
    )
    assert s.step.res.total == 6 and s.step.res.cost == 8
    t = E.copy_state(s)
    next_rolls(t, 2)
    t, _ = play(t, (YELLOW, Roll()))
    assert t.vp[YELLOW] == 6 and t.virtue_at[YELLOW] is None  # 6 + 2 = 8: resolved
    next_rolls(s, 1)
    s, _ = play(s, (YELLOW, Roll()))
    assert s.vp[YELLOW] == 0 and q in s.conflicts
    assert s.cubes[YELLOW] == 3 and s.virtue[YELLOW] == 2 and p2 in s.hands[YELLOW]
    assert legal_places(s, YELLOW) == set(BUILDINGS_AT[q])
    s, _ = play(s, (YELLOW, Place(at=BUILDINGS_AT[q][1])))
    assert s.ragamis[YELLOW] == BUILDINGS_AT[q][1] and s.dice[2] == 2


def test_success_scores_only_the_die_and_moves_the_resolved_track() -> None:
    # «Cuando un jugador resuelve un conflicto SOLAMENTE gana tantos puntos como indique el
    # valor del dado ... El dado negro se devuelve al suministro. La ficha de localización
    # permanece en su lugar. Las cartas y cubos blancos usados se devuelven al mazo de
    # descartes y al suministro general»
    p4 = card("poder4")
    s = table(
        3,
        ragamis=["7", "C", "F", None],
        conflicts={7: 2},
        demons=[7, 7],
        cubes=[2, 0, 0],
        hands=[[p4], [], []],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, PowerCard(card=p4)), (YELLOW, Commit()))
    assert s.vp[YELLOW] == 2 and s.resolved[YELLOW] == 1
    assert 7 not in s.conflicts and 7 in s.tokens and 7 not in s.pool
    assert E.view(s, None).conflict_supply == 6  # it was the only one on the board
    assert s.discard[-1] == p4 and s.cubes[YELLOW] == 0 and s.cube_supply == 30


# ============================================================================ victory points


def test_two_cubes_make_a_vp_in_the_turn_and_at_the_end() -> None:
    # «Intercambiando cubos blancos por PVs. Por cada 2 cubos = 1 PV. Un jugador puede realizar
    # este intercambio en cualquier momento de su turno y al final de la partida.»
    s = table(3, ragamis=["A", "C", "F", None], cubes=[5, 3, 1])
    s, _ = play(s, (YELLOW, Convert(what="cubes")), (YELLOW, Convert(what="cubes")))
    assert s.vp[YELLOW] == 2 and s.cubes[YELLOW] == 1
    assert Convert(what="cubes") not in E.legal_actions(s, YELLOW)
    s.pool = []  # last round
    s = pass_all(s)
    assert s.finished and [f.cubes for f in s.final] == [0, 1, 0] and s.vp == [2, 1, 0]


def test_virtue_three_for_a_vp_in_the_turn_without_an_action() -> None:
    # «Durante su turno ... y sin usar ninguna acción, un jugador puede convertir el valor de
    # su dado de Virtud en PVs. Por cada 3 puntos del dado = 1 PV. Si el dado tiene un valor
    # de 3 y se reduce a 0, el dado se retira del tablero y se devuelve al jugador.»
    s = table(3, ragamis=["A", "C", "F", None], virtue_at=["B", None, None], virtue=[5, 1, 1])
    s, _ = play(s, (YELLOW, Convert(what="virtue")))
    assert s.vp[YELLOW] == 1 and s.virtue[YELLOW] == 2 and s.virtue_at[YELLOW] == "B"
    assert not s.die_used and not s.acted  # no action used
    assert Convert(what="virtue") not in E.legal_actions(s, YELLOW)


def test_the_game_ends_at_the_end_of_the_round_someone_reaches_30() -> None:
    # «La partida termina al final de la ronda en que se produzca ... un jugador llega a 30
    # PV»
    s = table(3, ragamis=["A", "C", "F", None], vp=[29, 0, 0], cubes=[2, 0, 0])
    s, _ = play(s, (YELLOW, Convert(what="cubes")), (YELLOW, EndTurn()))
    assert s.vp[YELLOW] == 30 and not s.finished
    s, _ = play(s, (GREEN, UseDie(slot=0, move=True)), (GREEN, Place(at="B")), (GREEN, EndTurn()))
    assert not s.finished  # the round goes on
    s = pass_all(s)
    assert s.finished and s.end_reason == "vp"


def test_the_game_ends_at_the_end_of_the_round_the_tokens_run_out() -> None:
    # «... o bien se terminan las fichas de localización.»
    s = table(3, ragamis=["A", "C", "F", None], conflicts={1: 6, 2: 6, 3: 6})
    s.pool, s.tokens = s.pool[:2], sorted(s.tokens + s.pool[2:])
    s = pass_all(s)  # three dice go back; only two tokens are left for them
    assert not s.finished and s.pool == [] and len(s.conflicts) == 2
    s = skip_virtue_step(s)
    while s.phase != "turn":
        t = s.tasks[0]
        s, _ = play(s, (t.seat, E.legal_actions(s, t.seat)[0]))
    s = pass_all(s)
    assert s.finished and s.end_reason == "tokens"


def test_the_bonus_of_seven_and_four_with_every_tie() -> None:
    # «el jugador que haya resuelto mayor número de conflictos recibe 7 PVs ... El segundo
    # jugador que más conflictos haya resuelto recibe 4 PVs adicionales.» «El tercer y cuarto
    # jugador no obtienen ningún punto. Si hay un empate, todos los jugadores que hayan
    # empatado obtienen el mismo número de puntos. Por ejemplo: si dos jugadores empatan ...
    # los primeros obtienen ambos 7 PVs y los otros dos, 4 PVs por ser segundos.»
    s = table(4, ragamis=["A", "C", "F", "H"], resolved=[3, 1, 3, 1], vp=[10, 12, 14, 16])
    s.pool = []
    s = pass_all(s)
    assert s.vp == [17, 16, 21, 20] and [f.bonus for f in s.final] == [7, 4, 7, 4]
    assert bonuses([5, 2, 1, 0]) == [7, 4, 0, 0]  # third and fourth get nothing
    assert bonuses([4, 4, 4, 1]) == [7, 7, 7, 4]
    assert bonuses([4, 2, 2, 2]) == [7, 4, 4, 4]
    assert bonuses([3, 0, 0]) == [7, 0, 0]  # nobody is second with none resolved


def test_ties_go_to_most_conflicts_then_the_victory_is_shared() -> None:
    # «Si tras el recuento final existe un empate, el jugador que haya resuelto más conflictos
    # es el ganador. En el caso de que persista el empate, los jugadores empatados comparten
    # la victoria.»
    s = table(3, ragamis=["A", "C", "F", None], vp=[20, 23, 21], resolved=[4, 2, 4])
    s.pool = []
    s = pass_all(s)  # 20+7=27, 23+4=27, 21+7=28
    assert s.vp == [27, 27, 28] and E.outcome(s).ranking == [[2], [0], [1]]
    s = table(3, ragamis=["A", "C", "F", None], vp=[20, 20, 3], resolved=[2, 2, 1])
    s.pool = []
    s = pass_all(s)
    out = E.outcome(s)
    assert out.ranking == [[0, 1], [2]] and out.winners == [0, 1]


# ============================================================================ the 15 cards


def test_the_deck_of_33_cards_and_its_icons() -> None:
    # «33 cartas de acción»; «Explicación de las cartas ... 1 ... 15»; «la carta nº6» is the
    # power-die card
    assert len(CARDS) == 33 and sorted(k.number for k in KINDS) == list(range(1, 16))
    assert KIND["doble"].number == 6 and KIND["doble"].triangle
    assert sum(k.copies for k in KINDS) == 33
    assert len(deck_for(4, True)) == 33 and len(deck_for(3, False)) == 31


def test_card_1_two_saints_cube_only_from_outside_a_conflict() -> None:
    # «Mover 2 Santos. Cada Santo puede moverse hasta 4 espacios. No puedes colocar Santos en
    # la misma localización que tu Ragami. Ganas 1 por cada Santo que NO se encontrase en un
    # conflicto y que se desplace a uno.»
    c = card("santos")
    s = table(
        4,
        ragamis=["29", "A", "C", "F"],
        saints=[None, 28, 22, None],
        conflicts={28: 2, 29: 3, 21: 1},
        hands=[[c], [], [], []],
    )
    s, _ = play(s, (YELLOW, PlayCard(card=c)), (YELLOW, Pick(piece="S1")))
    assert "29" not in legal_places(s, YELLOW)  # my Ragami's square
    s, _ = play(s, (YELLOW, Place(at="21")))  # from a conflict to a conflict: nothing
    assert s.cubes[YELLOW] == 0
    s, _ = play(s, (YELLOW, Pick(piece="S2")), (YELLOW, Place(at="28")))
    assert s.cubes[YELLOW] == 1 and s.step is None and c in s.discard


def test_card_2_two_demons_not_with_my_ragami_cube_for_leaving_a_conflict() -> None:
    # «Mover 2 Demonios. Cada Demonio puede moverse hasta 4 espacios. No puedes mover
    # Demonios que se encuentren en el mismo espacio que tu Ragami. Ganas 1 por cada Demonio
    # que se retire de un conflicto y que no se haya movido a otro conflicto.»
    c = card("demonios")
    s = table(
        3,
        ragamis=["28", "A", "C", None],
        demons=[28, 29, 21],
        conflicts={29: 2, 21: 4},
        hands=[[c], [], []],
    )
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert {a.piece for a in E.legal_actions(s, YELLOW)} == {"D29", "D21"}
    s, _ = play(s, (YELLOW, Pick(piece="D29")), (YELLOW, Place(at="21")))  # into a conflict
    assert s.cubes[YELLOW] == 0
    s, _ = play(s, (YELLOW, Pick(piece="D21")), (YELLOW, Place(at="30")))  # out of all
    assert s.cubes[YELLOW] == 1 and s.demons == [21, 28, 30] and s.step is None


def test_card_3_adjust_a_conflict_by_up_to_two_within_one_to_six() -> None:
    # «Incrementa el valor de un dado de Conflicto hasta 2 puntos o Reduce ... El valor del
    # dado no puede ser mayor a 6 ni menor a 1.»
    c = card("ajuste")
    s = table(3, ragamis=["A", "C", "F", None], conflicts={5: 5, 9: 2}, hands=[[c], [], []])
    s, _ = play(s, (YELLOW, PlayCard(card=c)), (YELLOW, Pick(piece="C5")))
    assert {a.delta for a in E.legal_actions(s, YELLOW)} == {-2, -1, 1}
    s, _ = play(s, (YELLOW, Adjust(delta=-2)))
    assert s.conflicts == {5: 3, 9: 2}


def test_card_4_move_the_virtue_die_plus_one_at_most_six() -> None:
    # «Mover tu dado de Virtud de un edificio a otro. Suma 1 al valor que ya tuviese el dado.
    # El valor del dado no puede ser mayor de 6.»
    c, c2 = card("virtud"), card("virtud", 1)
    s = table(
        3,
        ragamis=["A", "C", "F", None],
        virtue_at=["B", None, None],
        virtue=[3, 1, 1],
        hands=[[c, c2], [], []],
    )
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert legal_places(s, YELLOW) == set(BUILDINGS) - {"B"}
    s, _ = play(s, (YELLOW, Place(at="H")))
    assert (s.virtue_at[YELLOW], s.virtue[YELLOW]) == ("H", 4)
    s.virtue[YELLOW] = 6
    s, _ = play(s, (YELLOW, PlayCard(card=c2)), (YELLOW, Place(at="B")))
    assert s.virtue[YELLOW] == 6


def test_card_5_extra_action_even_at_zero_pays_a_cube() -> None:
    # «1 acción extra con UN dado de Acción. Puede usarse con una acción que esté a cero.
    # Reduce el valor de uno de los dados de acción en 1 (en el caso de que quede alguno).
    # Paga 1 [cubo] devolviéndolo al suministro general.»
    c = card("extra")
    s = table(
        3, ragamis=["A", "C", "F", None], dice=[0, 2, 0], cubes=[1, 0, 0], hands=[[c], [], []]
    )
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert s.cubes[YELLOW] == 0 and s.cube_supply == 30
    assert {a.slot for a in E.legal_actions(s, YELLOW)} == {0, 1, 2}  # the dice at 0 too
    s, _ = play(s, (YELLOW, UseDie(slot=0, move=True)), (YELLOW, Place(at="B")))
    assert s.dice == [0, 2, 0] and s.ragamis[YELLOW] == "B"
    # the turn's own die action is still there
    assert not s.die_used and UseDie(slot=1) in E.legal_actions(s, YELLOW)
    # «Reduce el valor de uno de los dados de acción en 1 (en el caso de que quede alguno)»
    s.hands[YELLOW] = [card("extra", 1)]
    s.cubes[YELLOW], s.cube_supply = 1, 29
    s, _ = play(s, (YELLOW, PlayCard(card=card("extra", 1))), (YELLOW, UseDie(slot=1)))
    assert s.dice == [0, 1, 0]


def test_card_6_double_power_rolls_twice_before_the_roll_always_discarded() -> None:
    # «Lanzar el dado de Poder dos veces, sumando ambos resultados. Juega la carta ANTES de
    # tirar el dado. La carta se descarta siempre tanto si el conflicto se ha resuelto como si
    # no.»
    d = card("doble")
    s = table(
        3,
        ragamis=[str(ONE_BUILDING), "C", "F", None],
        conflicts={ONE_BUILDING: 6},
        demons=[ONE_BUILDING] * 2,
        hands=[[d], [], []],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, PowerCard(card=d)))
    next_rolls(s, 5, 2)
    s, _ = play(s, (YELLOW, Roll()))
    assert s.last_roll == [5, 2] and s.vp[YELLOW] == 0 and d in s.discard and d not in s.hands[0]
    assert s.ragamis[YELLOW] == BUILDINGS_AT[ONE_BUILDING][0]


def test_card_7_resolve_without_a_die_for_a_cube() -> None:
    # «Realizar una Acción de resolver conflicto. Paga 1 [cubo] devolviéndolo al suministro»
    c = card("resolver")
    s = table(
        3,
        ragamis=["7", "C", "F", None],
        conflicts={7: 2},
        cubes=[3, 0, 0],
        dice=[3, 3, 0],
        hands=[[c], [], []],
    )
    assert UseDie(slot=2) not in E.legal_actions(s, YELLOW)
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert s.cubes[YELLOW] == 2 and s.cube_supply == 28
    s, _ = play(s, (YELLOW, Power(source="cubes", amount=2)), (YELLOW, Commit()))
    assert s.vp[YELLOW] == 2 and c in s.discard and s.dice == [3, 3, 0]
    assert not s.die_used  # the turn's die action is still to be used


def test_cards_8_and_9_power_for_cubes_not_an_action() -> None:
    # «2 puntos de Poder. Paga 1 ... 4 puntos de Poder. Paga 2 ... Esta carta no representa
    # la acción de resolver conflicto. Solamente proporciona puntos de Poder.»
    p2, p4 = card("poder2"), card("poder4")
    s = table(
        3,
        ragamis=["7", "C", "F", None],
        conflicts={7: 6},
        cubes=[1, 0, 0],
        hands=[[p2, p4], [], []],
    )
    assert PlayCard(card=p2) not in E.legal_actions(s, YELLOW)  # not an action
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    legal = E.legal_actions(s, YELLOW)
    assert PowerCard(card=p2) in legal and PowerCard(card=p4) not in legal  # 2 cubes needed
    s, _ = play(s, (YELLOW, PowerCard(card=p2)))
    assert s.step.res.total == 2 and s.cubes[YELLOW] == 0


def test_card_10_unknown_power_by_the_standing() -> None:
    # «4 puntos de Poder si eres el jugador con menor puntuación ... 2 ... si eres el jugador
    # con menor puntuación empatado con otro/s jugador/es ... 1 punto de Poder en cualquier
    # otro caso.»
    x = card("poderx")
    for vp, power in (([1, 5, 5, 6], 4), ([1, 1, 5, 6], 2), ([1, 1, 1, 1], 2), ([3, 1, 5, 6], 1)):
        s = table(4, ragamis=["7", "C", "F", "H"], conflicts={7: 6}, vp=vp, hands=[[x], [], [], []])
        s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, PowerCard(card=x)))
        assert s.step.res.card_power == power, vp


def test_card_11_draw_three_keep_two_with_exactly_one_other_card() -> None:
    # «Robar 3 cartas y escoger 2. Puedes usar esta carta si tienes solamente otra carta
    # además de ésta en la mano.»
    c, o1, o2 = card("robar"), card("cubos"), card("ultimo")
    s = table(3, ragamis=["A", "C", "F", None], hands=[[c, o1, o2], [], []])
    assert PlayCard(card=c) not in E.legal_actions(s, YELLOW)
    s = table(3, ragamis=["A", "C", "F", None], hands=[[c, o1], [], []])
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    drawn = list(s.drawn[0])
    s, _ = play(s, (YELLOW, Keep(card=drawn[1])), (YELLOW, Keep(card=drawn[2])))
    assert sorted(s.hands[0]) == sorted([o1, drawn[1], drawn[2]]) and s.discard[-1] == drawn[0]
    assert s.fresh[0] == [drawn[1], drawn[2]]


def test_card_12_flight_moves_my_ragami_or_the_neutral_one() -> None:
    # «Mover tu Ragami hasta 4 espacios. Nota: En una partida de 2 jugadores, el Ragami neutral
    # puede moverse con esta carta.»
    c = card("ragami")
    s = table(3, ragamis=["E", "C", "F", None], hands=[[c], [], []], dice=[0, 0, 0])
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert {a.at for a in E.legal_actions(s, YELLOW)} == {
        n for n in [str(q) for q in SQUARES] + list(BUILDINGS) if n != "E" and distance("E", n) <= 4
    }
    s, _ = play(s, (YELLOW, Place(at="H")))
    assert s.ragamis[YELLOW] == "H" and not s.die_used


def test_card_13_swap_gives_a_cube_to_the_other_ragamis_controller() -> None:
    # «Intercambia [tu] Ragami con otro. Debes dar 1 [cubo] al jugador que controla el Ragami
    # por el que te intercambiaste.»
    c = card("cambio")
    s = table(
        3,
        ragamis=["A", "7", "F", None],
        cubes=[1, 0, 0],
        saints=[None, None, None, None],
        hands=[[c], [], []],
    )
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert {a.piece for a in E.legal_actions(s, YELLOW)} == {"R1", "R2"}
    s, _ = play(s, (YELLOW, Pick(piece="R1")))
    assert s.ragamis[:2] == ["7", "A"] and s.cubes == [0, 1, 0]
    # never onto the square of a Saint of the Ragami's colour
    s = table(
        3,
        ragamis=["A", "7", "F", None],
        cubes=[1, 0, 0],
        saints=[7, None, None, None],
        hands=[[c], [], []],
    )
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert {a.piece for a in E.legal_actions(s, YELLOW)} == {"R2"}


def test_card_14_a_cube_per_other_ragami_not_on_a_conflict() -> None:
    # «Recibe 1 [cubo] por cada Ragami que no se encuentre en un conflicto ... Tu propio Ragami
    # no cuenta. Nota: En una partida de 2 jugadores, el Ragami neutral no cuenta.»
    c = card("cubos")
    s = table(4, ragamis=["A", "7", "8", "F"], conflicts={7: 2}, hands=[[c], [], [], []])
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert s.cubes[YELLOW] == 2
    s = table(2, ragamis=["A", "C", "F", None], neutral=BLUE, hands=[[c], []])
    s, _ = play(s, (YELLOW, PlayCard(card=c)))
    assert s.cubes[YELLOW] == 1


def test_card_15_consolation_for_the_last() -> None:
    # «Incrementar la puntuación del último jugador en 1PV y obtener 2 [cubos]. Si hay dos
    # jugadores empatados en la última posición, ambos suman 1PV y se obtienen 3. Si hay tres
    # jugadores empatados en la última posición, la carta no tiene efecto. Puedes usar la
    # carta aunque no seas el jugador en última posición»
    c = card("ultimo")
    for vp, after, cubes in (
        ([4, 2, 3, 5], [4, 3, 3, 5], 2),
        ([4, 2, 2, 5], [4, 3, 3, 5], 3),
        ([2, 2, 2, 5], [2, 2, 2, 5], 0),
        ([1, 2, 3, 5], [2, 2, 3, 5], 2),
    ):
        s = table(4, ragamis=["A", "C", "F", "H"], vp=vp, hands=[[c], [], [], []])
        s, _ = play(s, (YELLOW, PlayCard(card=c)))
        assert (s.vp, s.cubes[YELLOW]) == (after, cubes), vp


def test_cube_icon_cards_exchange_for_a_cube_instead_of_their_action() -> None:
    # «Cubo blanco: esta carta puede cambiarse por un cubo blanco en lugar de usar su acción.»
    with_icon = [k.id for k in KINDS if k.cube]
    for kid in with_icon:
        c = card(kid)
        s = table(3, ragamis=["A", "C", "F", None], hands=[[c], [], []])
        s, _ = play(s, (YELLOW, CashCard(card=c)))
        assert s.cubes[YELLOW] == 1 and c in s.discard
    c = card("poder4")
    s = table(3, ragamis=["A", "C", "F", None], hands=[[c], [], []])
    assert CashCard(card=c) not in E.legal_actions(s, YELLOW)


# ============================================================================ no power die


def test_without_the_power_die_nor_card_six() -> None:
    # «(Regla opcional) Los jugadores pueden ponerse de acuerdo para no usar este dado ni la
    # carta nº6 para resolver conflictos.»
    s = E.setup(4, {"power_die": False}, 2)
    ids = s.deck + [c for d in s.drawn for c in d]
    assert len(ids) == 31 and not any(CARDS[c] == "doble" for c in ids)
    s = table(3, ragamis=["7", "C", "F", None], conflicts={7: 6}, cubes=[2, 0, 0])
    s.options = s.options.model_copy(update={"power_die": False})
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    assert Roll() not in E.legal_actions(s, YELLOW)
    with pytest.raises(IllegalAction):
        E.apply(s, YELLOW, Roll())
    # short of power, the player can only give up, and nothing is spent
    s, _ = play(s, (YELLOW, Power(source="cubes", amount=2)), (YELLOW, Cancel()))
    assert s.cubes[YELLOW] == 2 and s.dice[2] == 3 and not s.die_used and s.ragamis[YELLOW] == "7"
