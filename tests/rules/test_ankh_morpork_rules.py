"""Ankh-Morpork: the rulebook's own examples, the symbols, trouble, and the turn."""

from __future__ import annotations

import pytest

from rules.ankh_morpork.board import ADJ, AREAS, RIVER, START_AREAS
from rules.ankh_morpork.cards import BROWN, CARDS, GREEN
from rules.ankh_morpork.model import TROLL
from rules.ankh_morpork.scoring import controller
from rules.core import IllegalAction, NotYourTurn, RuleError
from tests.rules.am_helpers import (
    BLUE,
    DO,
    GREEN_S,
    RED,
    SKIP,
    YELLOW,
    E,
    acts,
    ar,
    area,
    areas_offered,
    card,
    legal,
    piece,
    play,
    position,
    who,
)


def test_setup_follows_the_rulebook() -> None:
    st = E.setup(4, {}, seed=3)
    assert st.money == [10] * 4
    for a in START_AREAS:
        assert st.minions[a] == [1, 1, 1, 1] and st.trouble[a]
    assert sum(st.trouble) == 3
    assert all(len(h) == 5 for h in st.hands)
    # green cards are dealt first: 20 in hands and the next 28 on top of the deck
    assert all(c in GREEN for h in st.hands for c in h)
    assert set(st.deck[:28]) <= set(GREEN) and set(st.deck[28:]) == set(BROWN)
    assert len(st.deck) == 101 - 20 and len(set(st.personality + st.unused)) == 7
    assert list(E.pending(st)) == [st.turn]


def test_two_players_leave_out_chrysoprase_hubert_and_cosmo() -> None:
    for seed in range(20):
        st = E.setup(2, {}, seed)
        assert "chrysoprase" not in st.personality + st.unused
        every = st.deck + st.hands[0] + st.hands[1]
        assert "hubert" not in every and "cosmo_lavish" not in every and len(every) == 99


def test_board_data() -> None:
    assert [a.number for a in AREAS] == list(range(1, 13))
    assert [a.cost for a in AREAS] == [6, 18, 12, 18, 6, 12, 6, 6, 12, 12, 18, 12]
    assert all(b in ADJ[a] for a in range(12) for b in ADJ[a]) and all(a not in ADJ[a] for a in range(12))
    assert ar("dragons_landing") not in RIVER and ar("the_hippo") not in RIVER and len(RIVER) == 10
    assert len(CARDS) == 101 and len(GREEN) == 48 and len(BROWN) == 53


def test_placing_next_to_dolly_sisters() -> None:
    # Rulebook: with a minion in Dolly Sisters you may place in it or in the areas the arrows show.
    st = position(minions={"Dolly Sisters": {RED: 1}}, hands={RED: ["groat"]})
    st = play(st, RED, card("groat"))
    assert areas_offered(st, RED) == {ar(n) for n in ("Dolly Sisters", "Nap Hill", "Dragon's Landing", "Unreal Estate")}


def test_placing_where_a_minion_is_adds_trouble() -> None:
    # Rulebook: a minion placed in Dimwell, which already had one, brings a trouble marker.
    st = position(minions={"Dimwell": {YELLOW: 1}, "The Shades": {RED: 1}}, hands={RED: ["groat"]})
    st = play(st, RED, card("groat"), area("Dimwell"))
    assert st.trouble[ar("Dimwell")] and st.minions[ar("Dimwell")][RED] == 1


def test_faq_trouble_even_among_your_own_minions() -> None:
    st = position(minions={"Longwall": {RED: 1}}, hands={RED: ["groat"]})
    st = play(st, RED, card("groat"), area("Longwall"))
    assert st.trouble[ar("Longwall")]


def test_no_minion_on_the_board_places_anywhere() -> None:
    st = position(minions={"Longwall": {YELLOW: 1}}, hands={RED: ["groat"]})
    st = play(st, RED, card("groat"))
    assert areas_offered(st, RED) == set(range(12))


def test_all_twelve_out_takes_one_back_first() -> None:
    st = position(minions={"Longwall": {RED: 12}, "Dimwell": {YELLOW: 1}}, hands={RED: ["groat"]},
                  trouble=["Longwall"])
    st = play(st, RED, card("groat"))
    assert areas_offered(st, RED) == {ar("Longwall")}
    st = play(st, RED, area("Longwall"))
    assert not st.trouble[ar("Longwall")]  # a minion left: its trouble goes
    assert areas_offered(st, RED) == set(ADJ[ar("Longwall")])  # "otra zona"
    st = play(st, RED, area("Dimwell"))
    assert st.minions[ar("Dimwell")] == [1, 1, 0] and st.trouble[ar("Dimwell")]


def test_building_example_at_nap_hill() -> None:
    # Rulebook: only Nap Hill is possible; it costs $12 and brings its city area card.
    st = position(
        minions={"Dolly Sisters": {RED: 1}, "Seven Sleepers": {RED: 1, GREEN_S: 2}, "Nap Hill": {RED: 1, YELLOW: 3}},
        trouble=["Dolly Sisters"], buildings={"Seven Sleepers": GREEN_S}, hands={RED: ["royal_mint"]},
        money=[20, 10, 10], personalities=["vimes", "rust", "selachii"])
    st = play(st, RED, card("royal_mint"))
    assert areas_offered(st, RED) == {ar("Nap Hill")}
    st = play(st, RED, area("Nap Hill"))
    assert st.money[RED] == 8 and st.buildings[ar("Nap Hill")] == RED
    assert E.view(st, None).areas[ar("Nap Hill")].card_holder == RED
    # the card cannot be used the turn it is won
    st = play(st, RED, DO)
    assert {"kind": "power", "area": ar("Nap Hill")} not in legal(st, RED)


def test_control_example_with_trolls_and_a_demon() -> None:
    st = position(
        4,
        minions={"Seven Sleepers": {GREEN_S: 2, YELLOW: 1}, "Nap Hill": {YELLOW: 2, RED: 1},
                 "Dolly Sisters": {RED: 2}, "Unreal Estate": {BLUE: 1}, "Dragon's Landing": {YELLOW: 1, GREEN_S: 1}},
        trouble=["Nap Hill", "Dolly Sisters", "Unreal Estate"], demons={"Dolly Sisters": 1}, trolls={"Unreal Estate": 1},
        personalities=["vimes", "rust", "selachii", "de_worde"])
    assert controller(st, ar("Seven Sleepers")) == GREEN_S
    assert controller(st, ar("Nap Hill")) == YELLOW  # trouble does not matter
    assert controller(st, ar("Dolly Sisters")) is None  # a demon
    assert controller(st, ar("Unreal Estate")) is None  # one piece against one troll
    st.buildings[ar("Unreal Estate")] = BLUE
    assert controller(st, ar("Unreal Estate")) == BLUE  # another piece, a building, tips it
    assert controller(st, ar("Dragon's Landing")) is None  # a tie


def test_assassinate_needs_trouble_and_spares_your_own() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}, "Longwall": {YELLOW: 2}}, trouble=["Dimwell"],
                  trolls={"Dimwell": 1}, hands={RED: ["mr_gryle"]})
    st = play(st, RED, card("mr_gryle"))
    opts = {(a["area"], a["piece"]) for a in legal(st, RED) if a["kind"] == "piece"}
    assert opts == {(ar("Dimwell"), YELLOW), (ar("Dimwell"), TROLL)}
    st = play(st, RED, piece("Dimwell", TROLL))
    assert st.trolls[ar("Dimwell")] == 0 and not st.trouble[ar("Dimwell")]


def test_symbols_in_order_and_each_optional() -> None:
    # Captain Carrot: minion, remove trouble, $1 — each may be skipped.
    st = position(minions={"Dimwell": {RED: 1}}, trouble=["Longwall"], hands={RED: ["captain_carrot"]})
    st = play(st, RED, card("captain_carrot"))
    assert E.pending(st)[RED].kind == "minion"
    st = play(st, RED, SKIP)
    assert E.pending(st)[RED].kind == "trouble"
    st = play(st, RED, area("Longwall"))
    assert E.pending(st)[RED].kind == "money"
    st = play(st, RED, DO)
    assert st.money[RED] == 11 and not st.trouble[ar("Longwall")]
    assert "captain_carrot" in st.discard


def test_random_event_is_not_optional() -> None:
    st = position(hands={RED: ["recent_runes"]}, events=["fog"])
    st, ev = acts(st, (RED, card("recent_runes")))
    assert st.event_done == ["fog"] and any(e.kind == "fog" for e in ev)


def test_no_event_left_nothing_happens() -> None:
    st = position(hands={RED: ["recent_runes"]}, events=[])
    st, ev = acts(st, (RED, card("recent_runes")))
    assert any(e.kind == "no_event" for e in ev) and E.pending(st)[RED].kind == "scroll:draw2"


def test_faq_no_playable_card_passes_and_still_draws() -> None:
    st = position(hands={RED: ["gaspode"], YELLOW: ["groat"]})
    # a hand of interrupt cards only: the turn passes by itself and the player refills
    assert st.turn == YELLOW
    assert len(st.hands[RED]) == 5 and "gaspode" in st.hands[RED]


def test_pass_with_area_cards_is_a_choice() -> None:
    st = position(hands={RED: [], YELLOW: ["groat"], 2: ["hex"]}, buildings={"Longwall": RED}, minions={"Longwall": {RED: 1}})
    assert legal(st, RED) == [{"kind": "power", "area": ar("Longwall")}, {"kind": "skip"}]
    st = play(st, RED, {"kind": "power", "area": ar("Longwall")})
    assert st.money[RED] == 11 and st.turn == YELLOW  # nothing else to do: the turn ends


def test_area_card_once_a_turn_and_not_with_a_demon() -> None:
    st = position(buildings={"The Hippo": RED}, hands={RED: ["groat"]}, minions={"The Hippo": {RED: 1}})
    assert {"kind": "power", "area": ar("The Hippo")} in legal(st, RED)
    st = play(st, RED, {"kind": "power", "area": ar("The Hippo")})
    assert st.money[RED] == 12 and {"kind": "power", "area": ar("The Hippo")} not in legal(st, RED)
    st2 = position(buildings={"The Hippo": RED}, hands={RED: ["groat"]}, demons={"The Hippo": 1})
    assert {"kind": "power", "area": ar("The Hippo")} not in legal(st2, RED)


def test_refill_to_five_and_a_bigger_hand_is_kept() -> None:
    st = position(hands={RED: ["librarian", "groat"]})
    st = play(st, RED, card("librarian"), DO)  # draws 4: a hand of 5, nothing to refill
    assert st.turn == YELLOW and len(st.hands[RED]) == 5
    st = position(hands={RED: ["leonard_of_quirm", "groat", "hex", "modo", "ruby"]})
    st = play(st, RED, card("leonard_of_quirm"), DO)
    assert st.turn == YELLOW and len(st.hands[RED]) == 8  # no discard down to five
    st = position(hands={RED: ["groat"]}, minions={"Dimwell": {RED: 1}})
    st = play(st, RED, card("groat"), area("Dimwell"))
    assert len(st.hands[RED]) == 5


def test_six_buildings_then_one_moves() -> None:
    six = {n: RED for n in ("Dolly Sisters", "The Scours", "The Shades", "Dimwell", "Longwall", "Nap Hill")}
    st = position(minions={"The Hippo": {RED: 1}}, buildings=six, hands={RED: ["royal_mint"]}, money=[30, 10, 10])
    st = play(st, RED, card("royal_mint"), area("The Hippo"))
    assert E.pending(st)[RED].kind == "building"
    st = play(st, RED, area("Nap Hill"))
    assert st.buildings[ar("Nap Hill")] == -1 and st.buildings[ar("The Hippo")] == RED and st.money[RED] == 18


def test_illegal_actions_raise_and_change_nothing() -> None:
    st = position(hands={RED: ["groat"]})
    before = E.dump_state(st)
    with pytest.raises(IllegalAction) as exc:
        E.apply(st, RED, card("hex"))
    assert "Jugar Groat" in exc.value.message("es") and "Play Groat" in exc.value.message("en")
    with pytest.raises(NotYourTurn):
        E.apply(st, YELLOW, card("groat"))
    with pytest.raises(RuleError):
        E.apply(st, RED, {"kind": "nonsense"})
    assert E.dump_state(st) == before


def test_pieces_kinds_offered_for_assassination_are_labelled() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}}, demons={"Dimwell": 1}, trouble=["Dimwell"],
                  hands={RED: ["mr_gryle"]})
    st = play(st, RED, card("mr_gryle"))
    labels = {E.describe(st, RED, a).en for a in E.legal_actions(st, RED)}
    assert "Assassinate a demon in Dimwell" in labels and "Assassinate a minion of Player 2 in Dimwell" in labels
    assert who(st) == RED
