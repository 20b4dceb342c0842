"""Ankh-Morpork: the scrolls whose reading is documented in docs/rules/ankh_morpork.md."""

from __future__ import annotations

from rules.ankh_morpork.model import TROLL
from tests.rules.am_helpers import (
    DO,
    GREEN_S,
    PAY,
    RED,
    SKIP,
    YELLOW,
    E,
    acts,
    ar,
    area,
    areas_offered,
    card,
    interrupt,
    legal,
    pick,
    piece,
    play,
    player,
    position,
    who,
)


def test_loan_stays_in_front_and_pays_ten() -> None:
    st = position(hands={RED: ["mr_bent", "groat"]})
    st = play(st, RED, card("mr_bent"), DO)
    assert st.money[RED] == 20 and st.loans[RED] == ["mr_bent"] and "mr_bent" not in st.discard


def test_the_bursar_swaps_two_minions_and_troubles_both_areas() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}, "Longwall": {GREEN_S: 1}}, trolls={"Longwall": 1},
                  hands={RED: ["the_bursar"]}, events=["fog"])
    st = play(st, RED, card("the_bursar"), piece("Dimwell", YELLOW), piece("Longwall", TROLL))
    assert st.minions[ar("Dimwell")] == [1, 0, 0] and st.trolls[ar("Dimwell")] == 1
    assert st.minions[ar("Longwall")] == [0, 1, 1] and st.trolls[ar("Longwall")] == 0
    assert st.trouble[ar("Dimwell")] and st.trouble[ar("Longwall")]


def test_one_gaspode_stops_the_whole_swap() -> None:
    st = position(minions={"Dimwell": {YELLOW: 1}, "Longwall": {GREEN_S: 1}}, hands={RED: ["the_bursar"], YELLOW: ["gaspode"]},
                  events=["fog"])
    st = play(st, RED, card("the_bursar"), piece("Dimwell", YELLOW), piece("Longwall", GREEN_S))
    st = play(st, YELLOW, interrupt("gaspode"))
    assert st.minions[ar("Dimwell")] == [0, 1, 0] and st.minions[ar("Longwall")] == [0, 0, 1]


def test_cosmo_lavish_the_paid_player_chooses_the_victim() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1, GREEN_S: 1}}, trolls={"Dimwell": 1}, trouble=["Dimwell"],
                  hands={RED: ["cosmo_lavish"]})
    st = play(st, RED, card("cosmo_lavish"), player(YELLOW))
    assert who(st) == YELLOW and st.money[:2] == [8, 12]
    assert {(a["area"], a["piece"]) for a in legal(st, YELLOW)} == {(ar("Dimwell"), p) for p in (YELLOW, GREEN_S, TROLL)}
    st = play(st, YELLOW, piece("Dimwell", GREEN_S))
    assert st.minions[ar("Dimwell")] == [1, 1, 0]


def test_hubert_moves_three_dollars_between_two_others() -> None:
    st = position(hands={RED: ["hubert"]})
    st = play(st, RED, card("hubert"), player(YELLOW))
    assert [a["seat"] for a in legal(st, RED)] == [GREEN_S]
    st = play(st, RED, player(GREEN_S))
    assert st.money == [10, 7, 13]


def test_reacher_gilt_buys_a_troubled_building_and_its_card() -> None:
    st = position(buildings={"Dimwell": YELLOW, "Longwall": RED}, trouble=["Dimwell"], hands={RED: ["reacher_gilt"]})
    st = play(st, RED, card("reacher_gilt"))
    assert areas_offered(st, RED) == {ar("Dimwell")}
    st = play(st, RED, area("Dimwell"))
    assert st.buildings[ar("Dimwell")] == RED and st.money[:2] == [4, 16]
    # its card cannot be used this turn; Red's old Longwall card can
    assert legal(st, RED) == [{"kind": "power", "area": ar("Longwall")}, {"kind": "skip"}]


def test_wee_mad_arthur_builds_at_half_price() -> None:
    st = position(minions={"Seven Sleepers": {RED: 1}}, hands={RED: ["wee_mad_arthur"]})
    st = play(st, RED, card("wee_mad_arthur"), area("Seven Sleepers"))
    assert st.money[RED] == 1 and st.buildings[ar("Seven Sleepers")] == RED


def test_mr_shine_places_without_trouble() -> None:
    st = position(minions={"Longwall": {YELLOW: 1}}, hands={RED: ["mr_shine"]})
    st = play(st, RED, card("mr_shine"), area("Longwall"))
    assert st.minions[ar("Longwall")][RED] == 1 and not st.trouble[ar("Longwall")]


def test_stanley_keeps_one_of_two_random_cards() -> None:
    st = position(hands={RED: ["stanley"], YELLOW: ["hex", "modo", "ruby"]})
    st = play(st, RED, card("stanley"), player(YELLOW))
    offered = [a["card"] for a in legal(st, RED)]
    assert len(offered) == 2 and set(offered) <= {"hex", "modo", "ruby"}
    st = play(st, RED, pick(offered[0]))
    assert offered[0] in st.hands[RED] and offered[1] in st.hands[YELLOW] and len(st.hands[YELLOW]) == 2


def test_cable_street_discards_the_card_you_choose() -> None:
    st = position(hands={RED: ["cable_street"], YELLOW: ["hex", "modo"]})
    st = play(st, RED, card("cable_street"), player(YELLOW))
    assert {a["card"] for a in legal(st, RED)} == {"hex", "modo"}
    st = play(st, RED, pick("modo"))
    assert st.hands[YELLOW] == ["hex"] and "modo" in st.discard


def test_chair_swaps_hands_but_not_stuck_cards() -> None:
    st = position(hands={RED: ["chair_of_studies", "groat"], YELLOW: ["hex", "modo"]}, events=["fog"])
    st.stuck[YELLOW].append("fools_guild")
    st.deck.remove("fools_guild")
    st = play(st, RED, card("chair_of_studies"), player(YELLOW))
    assert st.hands[YELLOW] == ["groat"] and st.stuck[YELLOW] == ["fools_guild"]
    assert set(st.hands[RED]) == {"hex", "modo"}


def test_beggars_guild_target_chooses_two_cards() -> None:
    st = position(hands={RED: ["beggars_guild"], YELLOW: ["hex", "modo", "ruby"]})
    st = play(st, RED, card("beggars_guild"), player(YELLOW))
    st = play(st, YELLOW, pick("ruby"), pick("hex"))
    assert st.hands[YELLOW] == ["modo"] and {"ruby", "hex"} <= set(st.hands[RED])


def test_sunshine_sanctuary_each_gives_a_dollar_or_a_card() -> None:
    st = position(hands={RED: ["sunshine_sanctuary", "groat"], YELLOW: ["hex"], GREEN_S: ["modo"]})
    st = play(st, RED, card("sunshine_sanctuary"), DO)
    st = play(st, YELLOW, PAY)
    st = play(st, GREEN_S, pick("modo"))
    assert st.money == [11, 9, 10] and "modo" in st.hands[RED]


def test_fire_brigade_refused_lets_you_burn() -> None:
    st = position(buildings={"Dimwell": YELLOW}, hands={RED: ["fire_brigade", "groat"]})
    st = play(play(st, RED, card("fire_brigade"), player(YELLOW)), YELLOW, SKIP)
    st = play(st, RED, area("Dimwell"))
    assert st.buildings[ar("Dimwell")] == -1


def test_the_auditors_each_other_player_removes_one() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}, "Longwall": {YELLOW: 1, GREEN_S: 1}}, hands={RED: ["the_auditors"]})
    st = play(st, RED, card("the_auditors"), DO)
    st = play(st, YELLOW, piece("Longwall", YELLOW))
    assert [a["area"] for a in legal(st, GREEN_S)] == [ar("Longwall")]
    st = play(st, GREEN_S, piece("Longwall", GREEN_S))
    assert st.minions[ar("Dimwell")] == [1, 1, 0] and st.minions[ar("Longwall")] == [0, 0, 0]


def test_alchemists_discard_up_to_three_then_refill() -> None:
    st = position(hands={RED: ["alchemists_guild", "hex", "modo", "ruby", "groat"]})
    st = play(st, RED, card("alchemists_guild"), DO, pick("hex"), pick("modo"), DO)
    assert len(st.hands[RED]) == 5 and {"hex", "modo"} <= set(st.discard)


def test_zorgo_and_mrs_cake_touch_only_unused_personalities() -> None:
    st = position(hands={RED: ["zorgo", "mrs_cake"]}, personalities=["vimes", "rust", "selachii"])
    unused = set(st.unused)
    st, ev = acts(st, (RED, card("zorgo")), (RED, DO))
    assert st.personality[RED] in unused and "vimes" in st.unused
    private = [e for e in ev if e.kind == "personality_private"]
    assert private and private[0].audience == [RED]
    st = position(hands={RED: ["mrs_cake"]}, personalities=["vimes", "rust", "selachii"])
    st, ev = acts(st, (RED, card("mrs_cake")), (RED, DO))
    (peek,) = [e for e in ev if e.kind == "peek_private"]
    assert len(peek.data["personalities"]) == 3 and set(peek.data["personalities"]) <= set(st.unused)
    assert E.view(st, RED).peeked == peek.data["personalities"] and E.view(st, YELLOW).peeked == []


def test_carcer_can_take_your_own_minion_when_it_is_all_there_is() -> None:
    st = position(minions={str(a + 1): {RED: 1} for a in range(12)}, hands={RED: ["carcer"]})
    st = play(st, RED, card("carcer"), DO)
    assert {x["piece"] for x in legal(st, RED)} == {RED}


def test_demon_and_troll_count_for_the_isle_crowd() -> None:
    st = position(minions={"Isle of Gods": {YELLOW: 2}}, trolls={"Isle of Gods": 1}, demons={"Isle of Gods": 1},
                  hands={RED: ["opera_house"]})
    st = play(st, RED, card("opera_house"), DO)
    assert st.money[RED] == 14
