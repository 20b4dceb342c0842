"""The rulebook's worked examples ("En este ejemplo...") played on the engine."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.ragami.city import distance
from rules.ragami.flow import bonuses
from rules.ragami.model import (
    Arrange,
    Commit,
    Convert,
    Done,
    EndTurn,
    Pick,
    Place,
    Power,
    Roll,
    SetDie,
    UseDie,
)
from tests.rules.rg_helpers import E, next_rolls, play, table

YELLOW, GREEN, BLUE = 0, 1, 2


def test_a_ragami_that_ends_on_demons_purifies_them() -> None:
    # «El Ragami amarillo se mueve dos espacios y termina su movimiento en una localización
    # en la que hay un Demonio. El Ragami amarillo gana 1PV y retira el Demonio»
    s = table(3, ragamis=["E", "A", "C", None], demons=[22])
    assert distance("E", "22") == 2  # two spaces: square 18, then 22
    s, events = play(s, (YELLOW, UseDie(slot=0, move=True)), (YELLOW, Place(at="22")))
    assert s.ragamis[YELLOW] == "22"
    assert s.vp[YELLOW] == 1 and s.demons == []
    assert E.view(s, None).demon_supply == 6
    assert any(e.kind == "purify" for e in events)


def test_where_a_ragami_may_not_end() -> None:
    # «terminar su movimiento en el mismo espacio donde se encuentra el Santo del mismo
    # color, o en el espacio donde se encuentra una ficha de "Paso prohibido"»; «Solo puede
    # haber dos Ragamis en la misma localización en una calle»
    s = table(
        3,
        ragamis=["E", "13", "13", None],
        saints=[14, None, None, None],
        forbidden=[19],
        tokens=[19],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=0, move=True)))
    dests = {a.at for a in E.legal_actions(s, YELLOW)}
    assert "14" not in dests and "19" not in dests and "13" not in dests
    assert {"12", "15", "18", "20", "H", "G", "C"} <= dests
    with pytest.raises(IllegalAction):
        E.apply(s, YELLOW, Place(at="19"))


def test_a_ragami_with_demons_and_others_does_not_purify() -> None:
    s = table(3, ragamis=["E", "A", "C", None], demons=[21], saints=[None, 21, None, None])
    s, _ = play(s, (YELLOW, UseDie(slot=0, move=True)), (YELLOW, Place(at="21")))
    assert s.vp[YELLOW] == 0 and s.demons == [21]


def test_the_saint_and_demon_example() -> None:
    # «El jugador amarillo escoge mover un Santo. Escoge mover el Santo azul hacia el
    # conflicto 29 ... gana un cubo blanco. No podría haber colocado el Santo azul en el
    # conflicto 23 porque su Ragami se encuentra allí. Tras ello mueve el Demonio situado en
    # el espacio 19 y elige colocarlo en el mismo conflicto.»
    s = table(
        4,
        ragamis=["A", "C", "23", "F"],
        saints=[None, None, 27, None],
        conflicts={29: 3, 23: 2},
        demons=[19],
    )
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S2")))
    dests = {a.at for a in E.legal_actions(s, YELLOW)}
    assert "29" in dests and "23" not in dests
    s, _ = play(s, (YELLOW, Place(at="29")))
    assert s.saints[BLUE] == 29 and s.cubes[YELLOW] == 1
    choices = E.legal_actions(s, YELLOW)
    assert Pick(piece="D19") in choices and Pick(piece="D0") in choices  # or a new one
    s, _ = play(s, (YELLOW, Pick(piece="D19")), (YELLOW, Place(at="29")))
    assert s.demons == [29]
    assert E.view(s, None).conflicts[1].cost == 3 + 1
    assert s.dice[0] == 2 and s.die_used


def test_a_new_demon_may_go_anywhere() -> None:
    s = table(3, ragamis=["A", "C", "F", None], saints=[None, 5, None, None])
    s, _ = play(s, (YELLOW, UseDie(slot=0)), (YELLOW, Pick(piece="S1")), (YELLOW, Place(at="7")))
    assert s.cubes[YELLOW] == 0  # no conflict there
    assert E.legal_actions(s, YELLOW) == [Pick(piece="D0")]
    s, _ = play(s, (YELLOW, Pick(piece="D0")))
    assert len(E.legal_actions(s, YELLOW)) == 30


def test_resolution_with_cubes_and_a_saint() -> None:
    # «el Ragami verde necesita 3 puntos de Poder = dado de Conflicto de valor 2 + 2
    # Demonios – 1 Santo ... lo consigue usando 3 de sus cubo blancos ... Añade 2 PV ... El
    # jugador amarillo obtiene 1 PV (porque su Santo estaba implicado en el conflicto).»
    s = table(
        3,
        turn=GREEN,
        ragamis=["A", "24", "C", None],
        saints=[24, None, None, None],
        conflicts={24: 2},
        demons=[24, 24],
        cubes=[0, 5, 0],
    )
    s, _ = play(s, (GREEN, UseDie(slot=2)))
    res = s.step.res
    assert (res.cost, res.total) == (4, 1)
    assert Power(source="cubes", amount=3) in E.legal_actions(s, GREEN)
    assert Power(source="cubes", amount=4) not in E.legal_actions(s, GREEN)
    s, _ = play(s, (GREEN, Power(source="cubes", amount=3)))
    assert Commit() in E.legal_actions(s, GREEN)
    s, _ = play(s, (GREEN, Commit()))
    assert s.vp == [1, 2, 0] and s.resolved == [0, 1, 0]
    assert s.cubes[GREEN] == 2 and s.cube_supply == 28
    assert 24 not in s.conflicts and 24 in s.tokens  # «La ficha de localización permanece»
    assert s.demons == [24, 24] and s.dice[2] == 2


def test_resolution_with_a_second_ragami_and_the_power_die() -> None:
    # «necesita 1 punto de Poder = dado de Conflicto de valor 2 + 1 Demonio - 2 puntos
    # (debido al Ragami azul) ... usa el dado de Poder. El resultado es 1 ... añade 2 PV ...
    # El jugador azul obtiene 2 cubos blancos»
    s = table(3, turn=GREEN, ragamis=["A", "24", "24", None], conflicts={24: 2}, demons=[24])
    s, _ = play(s, (GREEN, UseDie(slot=2)))
    assert s.step.res.cost - s.step.res.total == 1
    next_rolls(s, 1)
    s, events = play(s, (GREEN, Roll()))
    assert s.last_roll == [1]
    assert s.vp[GREEN] == 2 and s.resolved[GREEN] == 1 and s.cubes[BLUE] == 2
    assert any(e.kind == "helper" for e in events)


def test_resolution_with_the_virtue_die() -> None:
    # «necesita dos puntos de Poder ... lo consigue usando su dado de Virtud, gastando dos
    # puntos ... resta 2 puntos a su dado de Virtud.»
    s = table(
        3,
        turn=GREEN,
        ragamis=["A", "24", "C", None],
        conflicts={24: 2},
        virtue_at=[None, "H", None],
        virtue=[1, 3, 1],
    )
    s, _ = play(
        s, (GREEN, UseDie(slot=2)), (GREEN, Power(source="virtue", amount=2)), (GREEN, Commit())
    )
    assert s.vp[GREEN] == 2 and s.virtue[GREEN] == 1 and s.virtue_at[GREEN] == "H"


def test_the_virtue_die_must_be_next_to_the_conflict_and_leaves_at_zero() -> None:
    s = table(
        3,
        turn=GREEN,
        ragamis=["A", "24", "C", None],
        conflicts={24: 2},
        virtue_at=[None, "A", None],
        virtue=[1, 3, 1],
    )
    s, _ = play(s, (GREEN, UseDie(slot=2)))
    assert not any(isinstance(a, Power) and a.source == "virtue" for a in E.legal_actions(s, GREEN))
    s = table(
        3,
        turn=GREEN,
        ragamis=["A", "24", "C", None],
        conflicts={24: 2},
        virtue_at=[None, "H", None],
        virtue=[1, 2, 1],
    )
    s, _ = play(
        s, (GREEN, UseDie(slot=2)), (GREEN, Power(source="virtue", amount=2)), (GREEN, Commit())
    )
    assert s.virtue_at[GREEN] is None


def test_scoring_only_the_die_value() -> None:
    # «El jugador amarillo tiene 6 PV y 4 conflictos resueltos. Acaba de resolver otro
    # conflicto de valor 4. Mueve su marcador de PV hasta el 10 y añade 1 al número de
    # conflictos resueltos»
    s = table(
        3,
        ragamis=["13", "A", "C", None],
        conflicts={13: 4},
        demons=[13, 13],
        vp=[6, 0, 0],
        resolved=[4, 0, 0],
        cubes=[8, 0, 0],
    )
    s, _ = play(
        s, (YELLOW, UseDie(slot=2)), (YELLOW, Power(source="cubes", amount=6)), (YELLOW, Commit())
    )
    assert s.vp[YELLOW] == 10 and s.resolved[YELLOW] == 5


def test_a_failed_power_die_sends_the_ragami_to_a_building_and_loses_nothing() -> None:
    # «el jugador retira inmediatamente su Ragami del conflicto, colocándolo en un edificio
    # adyacente. No perderá los cubos, cartas o puntos de los dados de Virtud»
    s = table(3, ragamis=["29", "A", "C", None], conflicts={29: 6}, cubes=[2, 0, 0])
    s, _ = play(s, (YELLOW, UseDie(slot=2)), (YELLOW, Power(source="cubes", amount=2)))
    next_rolls(s, 3)
    s, _ = play(s, (YELLOW, Roll()))
    assert s.cubes[YELLOW] == 2 and s.vp[YELLOW] == 0 and 29 in s.conflicts
    assert s.dice[2] == 2  # the action was used
    assert {a.at for a in E.legal_actions(s, YELLOW)} == {"G", "H"}
    s, _ = play(s, (YELLOW, Place(at="H")))
    assert s.ragamis[YELLOW] == "H" and s.step is None
    # a square next to one building only: the Ragami goes there at once
    s = table(3, ragamis=["26", "A", "C", None], conflicts={26: 6})
    s, _ = play(s, (YELLOW, UseDie(slot=2)))
    next_rolls(s, 2)
    s, _ = play(s, (YELLOW, Roll()))
    assert s.ragamis[YELLOW] == "F" and s.step is None


def test_end_of_round_virtue_example() -> None:
    # «la ronda termina y por lo tanto los dados amarillo y verde se incrementan de 1 a 4
    # puntos. + 1 punto por tratarse del final de la ronda + 1 por el Ragami amarillo +?»
    s = table(3, ragamis=["E", "12", "A", None], virtue_at=["E", "E", "G"], virtue=[1, 1, 1])
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    assert s.round == 2 and s.tasks[0].kind == "prep_virtue"
    # +1 for the round, +1 for the yellow Ragami on E, +1 for the green one on square 12
    assert s.virtue == [4, 4, 2]
    s = table(3, ragamis=["E", "A", "16", None], virtue_at=["E", "D", "D"], virtue=[1, 5, 6])
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    assert s.virtue == [3, 6, 6]  # E: +1 +1 (yellow on E); D (blue on 16): never above 6


def test_action_dice_example_red_one() -> None:
    # «el nuevo cuarto jugador lanzó los dados de Acción y obtuvo un 1 rojo, un 5 y un 4 ...
    # coge un Demonio ... Entonces cambia el valor del dado (obligatorio). Escoge un valor
    # de 3 y el jugador coloca el dado en la acción restante.»
    s = table(3, ragamis=["E", "A", "C", None])
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    assert s.first == 1
    while s.tasks[0].kind == "prep_virtue":
        if len(s.tasks) == 1:
            next_rolls(s, 1, 5, 4)
        s, _ = play(s, (s.tasks[0].seat, Done()))
    last = 0  # the player right of the new first player
    assert [t.kind for t in s.tasks] == ["demon", "set_die", "arrange"]
    assert all(t.seat == last for t in s.tasks)
    s, _ = play(s, (last, Place(at="16")), (last, SetDie(value=3)))
    assert s.demons == [16] and sorted(s.rolled) == [3, 4, 5]
    assert Arrange(values=[5, 4, 3]) in E.legal_actions(s, last)
    s, _ = play(s, (last, Arrange(values=[5, 4, 3])))
    assert s.dice == [5, 4, 3] and s.phase == "turn" and s.turn == 1


def test_the_die_value_is_how_many_uses_are_left() -> None:
    # «Este dado aún tiene disponibles 4 acciones ... El siguiente jugador que use este dado
    # ha de reducir su valor a 3.» «Cuando un dado tiene un valor de 1 ... solo se puede usar
    # dicha acción una vez más.»
    s = table(3, ragamis=["E", "A", "C", None], dice=[4, 1, 3])
    s, _ = play(s, (0, UseDie(slot=1)))
    assert s.dice == [4, 0, 3]
    s, _ = play(s, (0, E.legal_actions(s, 0)[0]), (0, EndTurn()))
    assert not any(isinstance(a, UseDie) and a.slot == 1 for a in E.legal_actions(s, 1))
    s, _ = play(s, (1, UseDie(slot=0, move=True)))
    assert s.dice[0] == 3


def test_two_cubes_and_three_virtue_points_make_a_vp() -> None:
    # «Por cada 2 cubos = 1 PV.» «Por cada 3 puntos del dado = 1 PV. Si el dado tiene un
    # valor de 3 y se reduce a 0, el dado se retira del tablero»
    s = table(
        3,
        cubes=[3, 0, 0],
        virtue_at=["B", None, None],
        virtue=[3, 1, 1],
        ragamis=["E", "A", "C", None],
    )
    s, _ = play(s, (0, Convert(what="cubes")))
    assert s.vp[0] == 1 and s.cubes[0] == 1
    assert Convert(what="cubes") not in E.legal_actions(s, 0)
    s, _ = play(s, (0, Convert(what="virtue")))
    assert s.vp[0] == 2 and s.virtue_at[0] is None
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    seat = s.tasks[0].seat
    while seat != 0:
        s, _ = play(s, (seat, Done()))
        seat = s.tasks[0].seat
    s, _ = play(s, (0, Place(at="F")))
    assert s.virtue_at[0] == "F" and s.virtue[0] == 1


def test_final_bonus_ties() -> None:
    # «si dos jugadores empatan en número de conflictos resueltos y los otros dos jugadores
    # también empatan como segundos, los primeros obtienen ambos 7 PVs y los otros dos, 4»
    assert bonuses([3, 3, 1, 1]) == [7, 7, 4, 4]
    assert bonuses([5, 3, 3, 1]) == [7, 4, 4, 0]
    assert bonuses([2, 0, 0]) == [7, 0, 0]
    assert bonuses([0, 0]) == [0, 0]
