"""Setup by player count, and phases A, B, C and E: order, secrecy, Safe-conducts, last round."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, InvalidAction, NotYourTurn, StaleAction
from rules.rattus_cartus.cards import BUILDING_CARDS, CLASSES, KIND, NUNS, building_of
from rules.rattus_cartus.model import Done, Enter, Pass, Play, SupplyChoice, Undo
from rules.rattus_cartus.phases import begin_round
from tests.rules.rc_helpers import (
    E,
    check_conservation,
    enter,
    game,
    play,
    rats,
    supply,
    to_enter,
)


@pytest.mark.parametrize(("n", "rounds", "reserve", "row"), [
    (2, 10, 10, 2), (3, 9, 12, 2), (4, 8, 6, 3), (5, 8, 6, 3)])
def test_setup_by_player_count(n: int, rounds: int, reserve: int, row: int) -> None:
    s = E.setup(n, {}, seed=n)
    assert s.rounds == rounds and len(s.reserve) == reserve and len(s.row) == row
    # the building deck holds exactly one row per round
    assert len(s.building_deck) + row == rounds * row == 30 - reserve
    assert len(s.nuns) == 5 and all(len(h) == 5 for h in s.hands)
    assert len(s.deck) == 84 - 5 - 5 * n
    assert s.rats == [[5, 3, 1, 1]] * n and rats(s) == [10] * n
    assert s.influence == [[0] * 6] * n and s.vp == [0] * n
    assert 0 <= s.start < n and s.phase == "supply" and s.round == 1
    assert sorted(E.pending(s)) == list(range(n))
    check_conservation(s)


def test_setup_rejects_wrong_player_counts_and_bad_choices() -> None:
    with pytest.raises(IllegalAction):
        E.setup(1, {}, 1)
    with pytest.raises(IllegalAction):
        E.setup(6, {}, 1)
    with pytest.raises(InvalidAction):
        E.setup(3, {"buildings": "chosen", "chosen": ["granja", "cerveceria"]}, 1)


def test_building_choices() -> None:
    def types(s) -> list[str]:
        cards = s.building_deck + s.reserve + s.row
        return sorted(BUILDING_CARDS[c][0] for c in cards)

    first = E.setup(3, {}, 1)
    assert types(first) == sorted(
        [b for b in ("granja", "mercado", "monasterio", "castillo", "palacio", "tienda")
         for _ in range(5)])
    chosen = ["cerveceria", "oficina", "hospital", "torre_vigia", "tesoro", "cabana"]
    s = E.setup(3, {"buildings": "chosen", "chosen": chosen}, 1)
    assert set(types(s)) == set(chosen) and s.in_play == sorted(chosen)
    for seed in range(5):
        s = E.setup(4, {"buildings": "random_buildings"}, seed)
        t = types(s)
        assert len(set(t)) == 6 and sorted({building_of(f"{b}-1").cls for b in t}) == sorted(CLASSES)
        s = E.setup(4, {"buildings": "random_cards"}, seed)
        cards = s.building_deck + s.reserve + s.row
        for cls in CLASSES:
            assert sum(1 for c in cards if building_of(c).cls == cls) == 5


def test_same_building_row_is_replaced_from_the_reserve() -> None:
    s = game(3, ["granja-1", "palacio-1"], buildings="first_game")
    s.building_discard.extend(s.row)
    s.row = []
    farms = [c for c in s.building_deck + s.reserve if c.startswith("granja")][:2]
    s.building_deck = [c for c in s.building_deck if c not in farms]
    s.reserve = [c for c in s.reserve if c not in farms]
    # the reserve's top card is a Farm too, the next one is not
    third = next(c for c in s.building_deck + s.reserve if c.startswith("granja"))
    (s.building_deck if third in s.building_deck else s.reserve).remove(third)
    other = s.reserve.pop()
    assert not other.startswith("granja")
    s.reserve += [other, third]
    s.building_deck += farms
    size = len(s.reserve)
    ev = begin_round(s)
    assert s.row == [farms[1], other]
    # each replaced card went to the bottom of the reserve
    assert s.reserve[:2] == [third, farms[0]] and len(s.reserve) == size
    assert ev[0].data["swaps"] == 2


# ----------------------------------------------------------------------------- phase B


def test_supply_choices_are_secret_until_everybody_has_chosen() -> None:
    s = game(3, ["granja-1", "monasterio-2"], start=1)
    hands = [list(h) for h in s.hands]
    s, ev = E.apply(s, 2, SupplyChoice(card=0))
    assert sorted(E.pending(s)) == [0, 1] and s.hands == hands
    assert E.view(s, 2).me.supply_choice == [0, -1]
    assert E.view(s, 0).me.supply_choice is None
    for viewer in (None, 0, 1):
        v = E.view(s, viewer)
        assert v.players[2].supply_done and not v.players[0].supply_done
        assert "supply_choice\":[" not in v.model_dump_json()
    assert [e.data for e in ev] == [{"seat": 2}]
    with pytest.raises(NotYourTurn):
        E.apply(s, 2, SupplyChoice(card=1))
    s, _ = E.apply(s, 0, SupplyChoice(card=1))
    s, ev = E.apply(s, 1, SupplyChoice(card=0))
    # carried out in turn order from the start player: 1, 2, 0
    assert [e.data["seat"] for e in ev if e.kind == "supply"] == [1, 2, 0]
    assert [len(h) for h in s.hands] == [5, 9, 9] and rats(s) == [8, 10, 10]
    drawn = [e for e in ev if e.kind == "drawn"]
    assert [e.audience for e in drawn] == [[1], [2]]
    assert s.phase == "enter" and s.queue == [1, 2, 0]


def test_supply_look_at_a_nun_card_is_private_and_offers_unseen_ones() -> None:
    s = game(3, ["tienda-3", "granja-1"])
    s.peeks[0] = [0, 2]
    assert [a.peek for a in E.legal_actions(s, 0) if a.card == 0] == [1, 3, 4]
    with pytest.raises(IllegalAction):
        E.apply(s, 0, SupplyChoice(card=0, peek=2))
    with pytest.raises(IllegalAction):
        E.apply(s, 0, SupplyChoice(card=1, peek=2))
    with pytest.raises(IllegalAction):
        E.apply(s, 0, SupplyChoice(card=0))
    s, ev = supply(s, {0: (0, 4), 1: (1, None), 2: (1, None)})
    peek = [e for e in ev if e.kind == "peek"]
    assert len(peek) == 1 and peek[0].audience == [0]
    assert peek[0].data == {"position": 4, "nuns": NUNS[s.nuns[4]]}
    assert E.view(s, 0).me.peeks == {0: NUNS[s.nuns[0]], 2: NUNS[s.nuns[2]], 4: NUNS[s.nuns[4]]}
    assert E.view(s, 1).me.peeks == {} and E.view(s, None).nuns is None


def test_all_nun_cards_seen_any_may_be_looked_at_again() -> None:
    s = game(3, ["tienda-3", "granja-1"])
    s.peeks[0] = [0, 1, 2, 3, 4]
    assert [a.peek for a in E.legal_actions(s, 0) if a.card == 0] == [0, 1, 2, 3, 4]


# ----------------------------------------------------------------------------- phase C


def test_entering_in_turn_order_one_card_at_a_time_with_undo() -> None:
    s = to_enter(game(3, ["granja-1", "palacio-1"], {
        0: ["campesinado:0", "campesinado:4", "oro", "salvo"], 1: ["realeza"], 2: []}, start=2))
    assert E.pending(s).keys() == {2}
    s, _ = E.apply(s, 2, Enter(building=1))
    assert E.legal_actions(s, 2) == [Done(), Undo()]
    s, _ = E.apply(s, 2, Done())
    assert E.pending(s).keys() == {0}
    legal = E.legal_actions(s, 0)
    assert legal == [Enter(building=0), Enter(building=1), Pass()]
    s, _ = E.apply(s, 0, Enter(building=0))
    plays = [a for a in E.legal_actions(s, 0) if isinstance(a, Play)]
    # the Gold and the Safe-conduct cannot be played; the two Peasants are one choice
    # (their nuns change nothing in play)
    assert [KIND[a.card] for a in plays] == ["campesinado"]
    peasants = [c for c in s.hands[0] if KIND[c] == "campesinado"]
    assert plays[0].card == peasants[0] or plays[0].card == peasants[1]
    with pytest.raises(IllegalAction):
        E.apply(s, 0, Play(card=[c for c in s.hands[0] if KIND[c] == "oro"][0]))
    with pytest.raises(IllegalAction):
        E.apply(s, 0, Play(card=s.hands[1][0]))  # not in this hand
    s, _ = play(s, (0, plays[0]))
    second = [a for a in E.legal_actions(s, 0) if isinstance(a, Play)]
    assert len(second) == 1 and second[0] != plays[0]
    s, _ = play(s, (0, second[0]), (0, Undo()))
    assert s.picking == [plays[0].card]
    assert E.legal_actions(s, 0) == [second[0], Done(), Undo()]
    s, _ = play(s, (0, Undo()), (0, Undo()))
    assert s.entering == -1 and s.picking == []
    # any card of the hand may be named, not only the one a menu offers
    other = next(c for c in peasants if c != plays[0].card)
    s, ev = play(s, (0, Enter(building=0)), (0, Play(card=other)), (0, Done()))
    assert [e.data for e in ev if e.kind == "enter"] == [
        {"seat": 0, "building": 0, "space": 1, "cards": 1}]
    assert s.played[0] == [other] and other not in s.hands[0]
    assert E.pending(s).keys() == {1}


def test_picking_is_private_until_confirmed() -> None:
    s = to_enter(game(3, ["granja-1", "palacio-1"], {0: ["campesinado", "realeza"]}))
    s, _ = play(s, (0, Enter(building=0)), (0, Play(card=s.hands[0][0])))
    for viewer in (None, 1, 2):
        v = E.view(s, viewer)
        assert v.players[0].hand == 2 and v.players[0].building is None
        assert s.hands[0][0] not in v.model_dump_json()
    assert E.view(s, 0).me.entering == 0 and E.view(s, 0).me.picking == [s.hands[0][0]]


def test_safe_conduct_passes_the_turn_until_the_others_have_chosen() -> None:
    s = to_enter(game(4, ["granja-1", "palacio-1", "castillo-1"],
                      {0: ["salvo", "salvo", "salvo"], 1: ["salvo"], 2: [], 3: []}))
    s, ev = E.apply(s, 0, Pass())
    assert s.queue == [1, 2, 3, 0] and len(s.piles["salvo"]) == 12 - 3
    assert ev[0].kind == "pass" and ev[0].audience is None
    s, _ = E.apply(s, 1, Pass())
    assert s.queue == [2, 3, 0, 1]
    s, _ = enter(s, 2, 0, [])
    s, _ = enter(s, 3, 0, [])
    s, _ = E.apply(s, 0, Pass())  # again: back behind seat 1
    assert s.queue == [1, 0]
    s, _ = enter(s, 1, 1, [])
    # the last one left to choose may not pass
    assert s.queue == [0] and Pass() not in E.legal_actions(s, 0)
    assert s.order == [2, 3, 1] and s.slots == [[2, 3], [1], []]
    s, ev = enter(s, 0, 2, [])
    assert [e.data["seat"] for e in ev if e.kind == "enter"] == [0]
    assert s.phase != "enter"


def test_the_last_to_choose_cannot_pass() -> None:
    s = to_enter(game(2, ["granja-1", "palacio-1"], {0: [], 1: ["salvo"]}))
    s, _ = enter(s, 0, 0, [])
    assert E.legal_actions(s, 1) == [Enter(building=0), Enter(building=1)]
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 1, Pass())
    assert "Enter" in err.value.message("en") and "Entrar" in err.value.message("es")


def test_refused_moves_leave_the_state_unchanged() -> None:
    s = to_enter(game(3, ["granja-1", "palacio-1"], {0: ["campesinado"]}))
    before = E.dump_state(s)
    with pytest.raises(NotYourTurn):
        E.apply(s, 1, Enter(building=0))
    with pytest.raises(StaleAction):
        E.apply(s, 0, Enter(building=0), version=s.version + 1)
    with pytest.raises(InvalidAction):
        E.apply(s, 0, {"kind": "enter", "building": 7})
    with pytest.raises(InvalidAction):
        E.apply(s, 0, {"kind": "fly"})
    with pytest.raises(IllegalAction):
        E.apply(s, 0, Play(card=s.hands[0][0]))  # choose a building first
    with pytest.raises(IllegalAction):
        E.apply(s, 0, SupplyChoice(card=0))
    assert E.dump_state(s) == before


# ----------------------------------------------------------------------------- two players


def test_two_players_one_premium_for_the_most_cards() -> None:
    s = to_enter(game(2, ["palacio-1", "mercado-1"], {0: ["realeza"], 1: ["burguesia"] * 2}))
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 1, list(s.hands[1]))
    # seat 0 is alone at the Palace but played fewer cards: the standard action only
    assert s.vp == [1, 0] and len([c for c in s.hands[1] if KIND[c] == "joker"]) == 2


def test_two_players_tie_goes_to_the_first_to_enter() -> None:
    s = to_enter(game(2, ["palacio-1", "mercado-1"], {0: ["realeza"], 1: ["burguesia"]}, start=1))
    s, _ = enter(s, 1, 1, list(s.hands[1]))
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    assert s.vp == [1, 0] and len(s.hands[1]) == 2


def test_two_players_cards_are_all_shown_before_resolving() -> None:
    s = to_enter(game(2, ["palacio-1", "mercado-1"], {0: ["realeza"], 1: ["burguesia"]}))
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, ev = enter(s, 1, 1, list(s.hands[1]))
    kinds = [e.kind for e in ev]
    assert kinds.index("reveal") < kinds.index("influence")
    assert kinds.count("reveal") == 2


# ----------------------------------------------------------------------------- last round


def test_last_round_premium_gains_one_influence_instead_of_the_action() -> None:
    s = to_enter(game(3, ["palacio-1", "granja-1"], {0: ["realeza"], 1: ["realeza"], 2: []}))
    s.round = s.rounds
    s.building_deck = []
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 0, list(s.hands[1]))
    s, ev = enter(s, 2, 1, [])
    assert s.finished and s.vp == [0, 0, 0]
    assert s.influence[0][5] == 2 and s.influence[1][5] == 1
    # alone at the Farm with no card, seat 2 was entitled to the premium: +1, and no draw
    assert s.influence[2] == [1, 0, 0, 0, 0, 0] and len(s.hands[2]) == 0
    assert [e.data["seat"] for e in ev if e.kind == "final_bonus"] == [0, 2]


def test_end_of_round_moves_the_start_player_left_and_clears_the_row() -> None:
    s = to_enter(game(3, ["palacio-1", "granja-1"], start=2))
    s, _ = enter(s, 2, 0, [])
    s, _ = enter(s, 0, 0, [])
    s, _ = enter(s, 1, 1, [])
    assert s.round == 2 and s.start == 0 and s.phase == "supply"
    assert {"palacio-1", "granja-1"} <= set(s.building_discard)
    assert s.where == [-1] * 3 and s.slots == [[] for _ in s.row]
    check_conservation(s)


def test_empty_population_deck_is_remade_from_the_discards() -> None:
    s = to_enter(game(3, ["granja-1", "palacio-1"], {0: ["campesinado"]}))
    s.discard = s.deck[:-2]
    s.deck = s.deck[-2:]
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 1, [])
    s, _ = enter(s, 2, 1, [])
    assert len(s.hands[0]) == 4
    check_conservation(s)


def test_a_whole_game_lasts_its_rounds() -> None:
    for n in (2, 3, 4, 5):
        s = E.setup(n, {}, seed=40 + n)
        rounds = set()
        while not s.finished:
            rounds.add(s.round)
            if s.round == s.rounds:
                assert not s.building_deck
            seat = min(E.pending(s))
            s, _ = E.apply(s, seat, E.ai_action(s, seat))
        assert rounds == set(range(1, s.rounds + 1))
        assert s.phase == "over" and E.pending(s) == {} and E.legal_actions(s, 0) == []


def test_two_players_single_premium_when_the_stronger_player_resolves_first() -> None:
    """Two players: only one premium action a round, for whoever played more population cards
    and jokers over both buildings. The one who played fewer takes the standard action even
    when their building is resolved after the other's cards have been discarded."""
    s = to_enter(game(2, ["palacio-1", "mercado-1"], {0: ["realeza"] * 2, 1: ["burguesia"]}))
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, ev = enter(s, 1, 1, list(s.hands[1]))
    assert s.vp == [2, 0]
    assert len([c for c in s.hands[1] if KIND[c] == "joker"]) == 1
    assert [e.data["seat"] for e in ev if e.kind == "action"] == [0, 1]
    actions = [e.text.en for e in ev if e.kind == "action"]
    assert "premium action" in actions[0] and "standard action" in actions[1]


def test_two_players_last_round_only_one_extra_influence() -> None:
    """Last round with two players: only the round's single premium holder gains the extra
    influence point, whichever building is resolved first."""
    s = to_enter(game(2, ["palacio-1", "mercado-1"], {0: ["realeza"] * 2, 1: ["burguesia"]}))
    s.round = s.rounds
    s.building_deck = []
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, ev = enter(s, 1, 1, list(s.hands[1]))
    assert s.finished
    assert s.influence[0][5] == 3 and s.influence[1][1] == 1
    assert [e.data["seat"] for e in ev if e.kind == "final_bonus"] == [0]
