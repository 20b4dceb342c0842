"""Ragami setup, rounds, turns, the end of the game, and each card."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.ragami.cards import CARDS, KINDS, deck_for
from rules.ragami.model import (
    Adjust,
    Cancel,
    CashCard,
    Commit,
    Discard,
    Done,
    EndTurn,
    Keep,
    Pick,
    Place,
    PlayCard,
    Power,
    PowerCard,
    Roll,
    UseDie,
)
from tests.rules.rg_helpers import E, card, next_rolls, play, table

YELLOW, GREEN, BLUE, PURPLE = 0, 1, 2, 3


# ----------------------------------------------------------------------------- components


def test_thirty_three_cards_of_fifteen_kinds() -> None:
    assert len(CARDS) == 33 and len(KINDS) == 15
    assert sorted(k.number for k in KINDS) == list(range(1, 16))
    assert next(k for k in KINDS if k.number == 6).id == "doble"  # «la carta nº6»
    assert {k.id for k in KINDS if k.triangle} == {"doble", "poder2", "poder4", "poderx"}
    assert len(deck_for(2, True)) == 31 and len(deck_for(3, False)) == 31


# ----------------------------------------------------------------------------- setup


def test_setup_steps_five_to_eight() -> None:
    s = E.setup(4, {}, 7)
    assert len(s.conflicts) == 6 and all(1 <= v <= 6 for v in s.conflicts.values())
    assert len(s.demons) == 4 and len(s.tokens) == 10 and len(s.pool) == 20
    assert not set(s.demons) & set(s.conflicts)
    assert s.phase == "keep" and set(E.pending(s)) == {0, 1, 2, 3}
    assert all(len(d) == 3 for d in s.drawn) and all(not h for h in s.hands)
    for seat in range(4):
        s, _ = play(s, (seat, Keep(card=s.drawn[seat][1])))
    assert all(len(h) == 1 for h in s.hands) and len(s.discard) == 8


def test_setup_seat_order_for_four() -> None:
    s = E.setup(4, {}, 3)
    for seat in range(4):
        s, _ = play(s, (seat, E.legal_actions(s, seat)[0]))
    f = s.first
    order = [(f + i) % 4 for i in range(4)]
    kinds = [(t.kind, t.seat) for t in s.tasks]
    assert kinds == (
        [("saint", x) for x in order]
        + [("virtue", x) for x in order[1:] + order[:1]]
        + [("ragami", x) for x in order[2:] + order[:2]]
    )
    while s.tasks and s.tasks[0].kind in ("saint", "virtue", "ragami"):
        t = s.tasks[0]
        if t.kind == "ragami":
            free = [a.at for a in E.legal_actions(s, t.seat)]
            assert not set(free) & set(s.ragamis)  # one Ragami per building at the start
        s, _ = play(s, (t.seat, E.legal_actions(s, t.seat)[-1]))
    assert s.tasks[-1].kind == "arrange" and s.tasks[-1].seat == (f - 1) % 4
    assert all(s.saints) and all(v == 1 for v in s.virtue)


def test_three_players_place_the_fourth_saint_at_random() -> None:
    s = E.setup(3, {}, 5)
    assert s.saints[PURPLE] is not None and s.saints[:3] == [None] * 3
    assert s.neutral is None and s.ragamis == [None] * 4


def test_two_players_neutral_pieces_order_and_cards() -> None:
    s = E.setup(2, {}, 11)
    assert s.saints[BLUE] is not None and s.saints[PURPLE] is not None
    assert s.neutral == BLUE
    assert all(CARDS[c] != "poderx" for c in s.deck + [c for d in s.drawn for c in d])
    for seat in range(2):
        s, _ = play(s, (seat, E.legal_actions(s, seat)[0]))
    p1, p2 = s.first, 1 - s.first
    assert [(t.kind, t.seat, t.colour) for t in s.tasks[:7]] == [
        ("saint", p1, -1),
        ("virtue", p1, -1),
        ("saint", p2, -1),
        ("virtue", p2, -1),
        ("ragami", p2, p2),
        ("ragami", p2, BLUE),
        ("ragami", p1, p1),
    ]


def test_without_the_power_die() -> None:
    s = table(3, ragamis=["21", "A", "C", None], conflicts={21: 6}, cubes=[2, 0, 0])
    assert Roll() in E.legal_actions(play(s, (0, UseDie(slot=2)))[0], 0)
    s = E.setup(3, {"power_die": False}, 1)
    assert all(CARDS[c] != "doble" for c in s.deck + [c for d in s.drawn for c in d])
    s = table(3, ragamis=["21", "A", "C", None], conflicts={21: 6}, cubes=[2, 0, 0])
    s.options = s.options.model_copy(update={"power_die": False})
    s, _ = play(s, (0, UseDie(slot=2)))
    assert Roll() not in E.legal_actions(s, 0) and Cancel() in E.legal_actions(s, 0)


# ----------------------------------------------------------------------------- turns


def test_one_die_per_turn_and_cards_only_from_earlier_turns() -> None:
    s = table(3, ragamis=["E", "A", "C", None], dice=[3, 3, 3])
    s, _ = play(s, (0, UseDie(slot=1)))
    kept = s.drawn[0][0]
    s, _ = play(s, (0, Keep(card=kept)))
    legal = E.legal_actions(s, 0)
    assert not any(isinstance(a, UseDie) for a in legal)
    assert PlayCard(card=kept) not in legal and CashCard(card=kept) not in legal
    with pytest.raises(IllegalAction):
        E.apply(s, 0, UseDie(slot=0, move=True))
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    assert s.fresh[0] == []


def test_a_player_who_passed_acts_again_while_others_act() -> None:
    s = table(3, ragamis=["E", "A", "C", None])
    s, _ = play(
        s,
        (0, EndTurn()),
        (1, UseDie(slot=0, move=True)),
        (1, Place(at="B")),
        (1, EndTurn()),
        (2, EndTurn()),
    )
    assert s.turn == 0 and s.round == 1  # player 1 acted: the round goes on
    s, _ = play(
        s,
        (0, UseDie(slot=0, move=True)),
        (0, Place(at="G")),
        (0, EndTurn()),
        (1, EndTurn()),
        (2, EndTurn()),
    )
    assert s.round == 1 and s.turn == 0
    s, _ = play(s, (0, EndTurn()))
    assert s.round == 2  # three passes in a row end the round


def test_a_full_hand_discards_before_drawing() -> None:
    hand = [card("ajuste"), card("virtud"), card("cubos")]
    s = table(3, ragamis=["E", "A", "C", None], hands=[hand, [], []])
    legal = E.legal_actions(s, 0)
    assert UseDie(slot=1) not in legal and Discard(card=hand[0]) in legal
    s, _ = play(s, (0, Discard(card=hand[0])), (0, UseDie(slot=1)))
    assert len(s.drawn[0]) == 3
    assert E.view(s, 1).me.drawn == [] and E.view(s, None).drawing == [0]
    assert E.view(s, 0).me.drawn == sorted(s.drawn[0])


def test_ageing_conflicts_forbid_the_square_and_move_ragamis() -> None:
    s = table(3, ragamis=["29", "A", "26", None], conflicts={29: 6, 26: 6, 5: 2})
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    assert s.forbidden == [26, 29] and 5 in s.conflicts and s.conflicts[5] == 3
    assert s.ragamis[BLUE] == "F"  # one building next to 26: no choice
    assert s.tasks[0].kind == "flee" and s.tasks[0].seat == YELLOW
    assert {a.at for a in E.legal_actions(s, YELLOW)} == {"G", "H"}
    s, _ = play(s, (YELLOW, Place(at="G")))
    assert s.ragamis[YELLOW] == "G"
    assert len(s.conflicts) == 6  # new conflicts from the tokens


def test_the_game_ends_at_the_end_of_the_round_with_30_vp() -> None:
    s = table(
        3,
        ragamis=["13", "A", "C", None],
        conflicts={13: 4},
        vp=[27, 10, 12],
        resolved=[2, 2, 1],
        cubes=[4, 3, 0],
    )
    s, _ = play(
        s, (0, UseDie(slot=2)), (0, Power(source="cubes", amount=4)), (0, Commit()), (0, EndTurn())
    )
    assert not s.finished and s.vp[0] == 31
    s, _ = play(s, (1, EndTurn()), (2, EndTurn()))
    assert not s.finished
    s, _ = play(s, (0, EndTurn()))  # three turns in a row without an action
    assert s.finished and s.end_reason == "vp"
    # cubes 2 = 1 VP at the end; 7 VP for most conflicts (3), 4 VP for the second (2)
    assert s.vp == [31 + 7, 10 + 1 + 4, 12]
    out = E.outcome(s)
    assert out.ranking == [[0], [1], [2]]


def test_the_game_ends_when_the_location_tokens_run_out() -> None:
    s = table(3, ragamis=["E", "A", "C", None], conflicts={13: 4})
    s.pool, s.tokens = s.pool[:2], s.tokens + s.pool[2:]
    s.tokens.sort()
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()))
    assert not s.finished and not s.pool and s.round == 2
    while s.phase != "turn":
        seat = min(E.pending(s))
        s, _ = play(s, (seat, E.legal_actions(s, seat)[-1]))
    s, _ = play(
        s, (s.turn, EndTurn()), ((s.turn + 1) % 3, EndTurn()), ((s.turn + 2) % 3, EndTurn())
    )
    assert s.finished and s.end_reason == "tokens"


def test_ties_share_the_victory_after_conflicts_resolved() -> None:
    s = table(4, ragamis=["E", "A", "C", "H"], vp=[20, 20, 20, 5], resolved=[3, 3, 2, 0])
    s.pool = []
    s, _ = play(s, (0, EndTurn()), (1, EndTurn()), (2, EndTurn()), (3, EndTurn()))
    assert s.vp == [27, 27, 24, 5]
    assert E.outcome(s).ranking == [[0, 1], [2], [3]]


# ----------------------------------------------------------------------------- cards


def test_card_two_saints() -> None:
    c = card("santos")
    s = table(
        3,
        ragamis=["A", "C", "F", None],
        saints=[5, 27, None, 13],
        conflicts={29: 3, 21: 2},
        hands=[[c], [], []],
    )
    s, _ = play(s, (0, PlayCard(card=c)), (0, Pick(piece="S1")), (0, Place(at="29")))
    assert s.cubes[0] == 1 and Done() in E.legal_actions(s, 0)
    assert Pick(piece="S1") not in E.legal_actions(s, 0)
    s, _ = play(s, (0, Pick(piece="S3")), (0, Place(at="21")))
    assert s.cubes[0] == 2 and s.step is None and c in s.discard


def test_card_two_demons_pays_for_leaving_conflicts() -> None:
    c = card("demonios")
    s = table(
        3,
        ragamis=["13", "C", "F", None],
        demons=[13, 21, 21],
        conflicts={21: 2, 13: 3},
        hands=[[c], [], []],
    )
    s, _ = play(s, (0, PlayCard(card=c)))
    assert E.legal_actions(s, 0) == [Pick(piece="D21")]  # not the Demon with my Ragami
    s, _ = play(
        s, (0, Pick(piece="D21")), (0, Place(at="22")), (0, Pick(piece="D21")), (0, Place(at="13"))
    )
    assert s.cubes[0] == 1 and s.demons == [13, 13, 22]


def test_card_adjust_a_conflict() -> None:
    c = card("ajuste")
    s = table(3, ragamis=["A", "C", "F", None], conflicts={21: 2}, hands=[[c], [], []])
    s, _ = play(s, (0, PlayCard(card=c)), (0, Pick(piece="C21")))
    assert set(a.delta for a in E.legal_actions(s, 0)) == {-1, 1, 2}
    s, _ = play(s, (0, Adjust(delta=-1)))
    assert s.conflicts[21] == 1


def test_card_move_the_virtue_die() -> None:
    c = card("virtud")
    s = table(
        3,
        ragamis=["A", "C", "F", None],
        virtue_at=["B", None, None],
        virtue=[6, 1, 1],
        hands=[[c], [], []],
    )
    s, _ = play(s, (0, PlayCard(card=c)), (0, Place(at="G")))
    assert s.virtue_at[0] == "G" and s.virtue[0] == 6


def test_card_extra_action_even_at_zero() -> None:
    c = card("extra")
    s = table(
        3, ragamis=["A", "C", "F", None], dice=[0, 0, 0], cubes=[1, 0, 0], hands=[[c], [], []]
    )
    assert not any(isinstance(a, UseDie) for a in E.legal_actions(s, 0))
    s, _ = play(s, (0, PlayCard(card=c)), (0, UseDie(slot=1)))
    assert s.cubes[0] == 0 and s.dice == [0, 0, 0] and len(s.drawn[0]) == 3
    s, _ = play(s, (0, Keep(card=s.drawn[0][0])))
    assert not s.die_used  # the die action of the turn is still there


def test_card_resolve_and_power_cards() -> None:
    r, p4 = card("resolver"), card("poder4")
    s = table(
        3,
        ragamis=["13", "C", "F", None],
        conflicts={13: 5},
        cubes=[3, 0, 0],
        hands=[[r, p4], [], []],
        dice=[0, 0, 0],
    )
    s, _ = play(s, (0, PlayCard(card=r)))
    assert s.cubes[0] == 2
    s, _ = play(s, (0, PowerCard(card=p4)))
    assert s.cubes[0] == 0 and s.step.res.total == 4
    assert not any(isinstance(a, PowerCard) for a in E.legal_actions(s, 0))  # one red card
    s, _ = play(s, (0, Cancel()))
    assert s.cubes[0] == 3 and sorted(s.hands[0]) == sorted([r, p4]) and not s.acted


def test_card_unknown_power_depends_on_the_standing() -> None:
    x = card("poderx")
    s = table(
        3, ragamis=["13", "C", "F", None], conflicts={13: 4}, vp=[1, 5, 5], hands=[[x], [], []]
    )
    s, _ = play(s, (0, UseDie(slot=2)), (0, PowerCard(card=x)))
    assert s.step.res.card_power == 4
    s = table(
        3, ragamis=["13", "C", "F", None], conflicts={13: 4}, vp=[1, 1, 5], hands=[[x], [], []]
    )
    s, _ = play(s, (0, UseDie(slot=2)), (0, PowerCard(card=x)))
    assert s.step.res.card_power == 2


def test_card_double_power_is_always_discarded() -> None:
    d = card("doble")
    s = table(3, ragamis=["21", "C", "A", None], conflicts={21: 6}, hands=[[d], [], []])
    s, _ = play(s, (0, UseDie(slot=2)), (0, PowerCard(card=d)))
    next_rolls(s, 1, 2)
    s, _ = play(s, (0, Roll()))
    assert s.last_roll == [1, 2] and d in s.discard and 21 in s.conflicts
    s = table(3, ragamis=["21", "C", "A", None], conflicts={21: 6}, hands=[[d], [], []])
    s, _ = play(s, (0, UseDie(slot=2)), (0, PowerCard(card=d)))
    next_rolls(s, 4, 3)
    s, _ = play(s, (0, Roll()))
    assert s.vp[0] == 6 and d in s.discard


def test_card_draw_three_keep_two() -> None:
    c, other = card("robar"), card("cubos")
    s = table(3, ragamis=["A", "C", "F", None], hands=[[c, other], [], []])
    s, _ = play(s, (0, PlayCard(card=c)))
    drawn = list(s.drawn[0])
    s, _ = play(s, (0, Keep(card=drawn[0])), (0, Keep(card=drawn[1])))
    assert sorted(s.hands[0]) == sorted([other, *drawn[:2]]) and drawn[2] in s.discard
    s = table(3, ragamis=["A", "C", "F", None], hands=[[c], [], []])
    assert PlayCard(card=c) not in E.legal_actions(s, 0)


def test_card_flight_and_two_player_neutral_ragami() -> None:
    c = card("ragami")
    s = table(2, ragamis=["A", "C", "F", None], hands=[[c], []], demons=[21], neutral=BLUE)
    s, _ = play(s, (0, PlayCard(card=c)))
    assert set(E.legal_actions(s, 0)) == {Pick(piece="R0"), Pick(piece="R2")}
    s, _ = play(s, (0, Pick(piece="R2")), (0, Place(at="21")))
    assert s.ragamis[BLUE] == "21" and s.vp[0] == 0 and s.demons == [21]  # only helps


def test_card_swap_gives_a_cube() -> None:
    c = card("cambio")
    s = table(3, ragamis=["A", "13", "F", None], cubes=[1, 0, 0], hands=[[c], [], []])
    s, _ = play(s, (0, PlayCard(card=c)), (0, Pick(piece="R1")))
    assert s.ragamis[:2] == ["13", "A"] and s.cubes[:2] == [0, 1]


def test_card_outside_help_and_consolation() -> None:
    h, k = card("cubos"), card("ultimo")
    s = table(
        4,
        ragamis=["A", "13", "F", "21"],
        conflicts={13: 2},
        hands=[[h, k], [], [], []],
        vp=[3, 1, 1, 5],
    )
    s, _ = play(s, (0, PlayCard(card=h)))
    assert s.cubes[0] == 2  # green is on a conflict; blue and purple are not
    s, _ = play(s, (0, PlayCard(card=k)))
    assert s.vp == [3, 2, 2, 5] and s.cubes[0] == 5


def test_cash_a_card_with_the_cube_icon() -> None:
    c = card("ajuste")
    s = table(3, ragamis=["A", "C", "F", None], hands=[[c, card("poder2")], [], []])
    legal = E.legal_actions(s, 0)
    assert CashCard(card=c) in legal and CashCard(card=card("poder2")) not in legal
    s, _ = play(s, (0, CashCard(card=c)))
    assert s.cubes[0] == 1 and c in s.discard
