"""Ankh-Morpork: every answer of the rulebook's FAQ, and the reaction windows."""

from __future__ import annotations

from rules.ankh_morpork.model import DEMON, TROLL
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

EVERYWHERE = ["Dolly Sisters", "Unreal Estate", "Dragon's Landing", "Small Gods", "The Scours", "The Hippo",
              "The Shades", "Dimwell", "Longwall", "Isle of Gods", "Seven Sleepers", "Nap Hill"]


def test_drumknott_plays_two_cards_each_on_its_own() -> None:
    st = position(hands={RED: ["drumknott", "pink_pussycat", "groat", "gimlets"]}, minions={"Dimwell": {RED: 1}})
    st = play(st, RED, card("drumknott"), DO)
    assert E.pending(st)[RED].kind == "double"
    assert {a["card"] for a in legal(st, RED) if a["kind"] == "play"} == {"pink_pussycat", "groat", "gimlets"}
    st = play(st, RED, card("pink_pussycat"), DO)  # $3, then its own "play another card"
    assert E.pending(st)[RED].kind == "another"
    st = play(st, RED, card("groat"), area("Dimwell"))
    assert E.pending(st)[RED].kind == "double"  # back to Drumknott's second card
    st = play(st, RED, card("gimlets"), DO, area("Dimwell"))
    # every card played: the turn ends
    assert st.turn == YELLOW and st.money[RED] == 16 and st.minions[ar("Dimwell")][RED] == 3
    assert {"drumknott", "pink_pussycat", "groat", "gimlets"} <= set(st.discard)


def test_ponder_stibbons_after_its_event() -> None:
    st = position(hands={RED: ["ponder_stibbons", "groat"]}, events=["fog"], minions={"Dimwell": {RED: 1}})
    st = play(st, RED, card("ponder_stibbons"))
    assert st.event_done == ["fog"]
    st = play(st, RED, DO, card("groat"), area("Dimwell"))
    assert st.turn == YELLOW


def _death_position(rv_cards: list[str]) -> object:
    return position(minions={"Dimwell": {RED: 1, YELLOW: 2}}, trouble=["Dimwell"],
                    hands={RED: ["death"], YELLOW: rv_cards})


def test_death_against_gaspode_a_second_card_is_needed() -> None:
    st = _death_position(["gaspode", "groat"])
    st = play(st, RED, card("death"), piece("Dimwell", YELLOW))
    assert who(st) == YELLOW and E.pending(st)[YELLOW].kind == "react"
    assert legal(st, YELLOW) == [{"kind": "interrupt", "card": "gaspode"}, {"kind": "skip"}]
    st = play(st, YELLOW, interrupt("gaspode"))
    assert st.minions[ar("Dimwell")][YELLOW] == 2 and "gaspode" in st.discard
    # the trouble is still there: the second assassination goes through, nobody can stop it
    st = play(st, RED, piece("Dimwell", YELLOW))
    assert who(st) == RED and st.minions[ar("Dimwell")][YELLOW] == 1


def test_death_against_two_interrupts() -> None:
    st = _death_position(["gaspode", "susan"])
    st = play(st, RED, card("death"), piece("Dimwell", YELLOW))
    st = play(st, YELLOW, interrupt("gaspode"))
    st = play(st, RED, piece("Dimwell", YELLOW))
    assert legal(st, YELLOW) == [{"kind": "interrupt", "card": "susan"}, {"kind": "skip"}]
    st = play(st, YELLOW, interrupt("susan"))
    assert st.minions[ar("Dimwell")][YELLOW] == 2


def test_saying_no_lets_it_happen() -> None:
    st = _death_position(["gaspode"])
    st = play(st, RED, card("death"), piece("Dimwell", YELLOW))
    st = play(st, YELLOW, SKIP)
    assert st.minions[ar("Dimwell")][YELLOW] == 1 and "gaspode" in st.hands[YELLOW]


def test_fresh_start_club_puts_the_minion_back_elsewhere() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}, "Longwall": {YELLOW: 1}}, trouble=["Dimwell"],
                  hands={RED: ["mr_gryle"], YELLOW: ["fresh_start_club"]})
    st = play(st, RED, card("mr_gryle"), piece("Dimwell", YELLOW))
    st = play(st, YELLOW, interrupt("fresh_start_club"))
    assert st.minions[ar("Dimwell")][YELLOW] == 0 and who(st) == YELLOW
    offered = areas_offered(st, YELLOW)
    assert ar("Dimwell") not in offered and ar("Longwall") in offered and ar("Seven Sleepers") in offered
    st = play(st, YELLOW, area("Seven Sleepers"))
    assert st.minions[ar("Seven Sleepers")][YELLOW] == 1 and who(st) == RED  # Mr Gryle's $1 next


def test_wallace_sonky_does_not_stop_symbols() -> None:
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}}, trouble=["Dimwell"],
                  hands={RED: ["mr_gryle"], YELLOW: ["wallace_sonky"]})
    st = play(st, RED, card("mr_gryle"), piece("Dimwell", YELLOW))
    assert who(st) == RED and st.minions[ar("Dimwell")][YELLOW] == 0  # no window was opened


def test_wallace_sonky_stops_carcer() -> None:
    st = position(minions={n: {YELLOW: 1} for n in EVERYWHERE}, hands={RED: ["carcer"], YELLOW: ["wallace_sonky", "susan"]})
    st = play(st, RED, card("carcer"), DO)
    a = st.stack[-1].area
    st = play(st, RED, {"kind": "piece", "area": a, "piece": YELLOW})
    assert {x["card"] for x in legal(st, YELLOW) if x["kind"] == "interrupt"} == {"wallace_sonky", "susan"}
    st = play(st, YELLOW, interrupt("wallace_sonky"))
    assert st.minions[a][YELLOW] == 1


def test_carcer_removes_trolls_and_demons_even_without_trouble() -> None:
    st = position(trolls={n: 1 for n in EVERYWHERE}, demons={n: 1 for n in EVERYWHERE}, hands={RED: ["carcer"]})
    st = play(st, RED, card("carcer"), DO)
    a = st.stack[-1].area
    assert {(x["area"], x["piece"]) for x in legal(st, RED)} == {(a, TROLL), (a, DEMON)}
    st = play(st, RED, {"kind": "piece", "area": a, "piece": TROLL})
    assert st.trolls[a] == 0


def test_wallace_sonky_against_fire_brigade_whiteface_and_thieves() -> None:
    st = position(buildings={"Dimwell": YELLOW}, hands={RED: ["fire_brigade", "groat"], YELLOW: ["wallace_sonky"]})
    st = play(play(st, RED, card("fire_brigade"), player(YELLOW)), YELLOW, interrupt("wallace_sonky"))
    assert st.buildings[ar("Dimwell")] == YELLOW and who(st) == RED  # on to "play another card"
    st = position(hands={RED: ["dr_whiteface"], YELLOW: ["wallace_sonky"]})
    st = play(play(st, RED, card("dr_whiteface"), player(YELLOW)), YELLOW, interrupt("wallace_sonky"))
    assert st.stuck[YELLOW] == [] and st.money[YELLOW] == 10
    st = position(hands={RED: ["thieves_guild"], YELLOW: ["wallace_sonky"]})
    st = play(play(st, RED, card("thieves_guild"), DO), YELLOW, interrupt("wallace_sonky"))
    # only the player who used it is spared: the third player still pays
    assert st.money == [12, 10, 8]


def test_wallace_sonky_the_blocked_card_cannot_turn_on_someone_else() -> None:
    st = position(hands={RED: ["nobby_nobbs", "groat"], YELLOW: ["wallace_sonky"]})
    st = play(play(st, RED, card("nobby_nobbs"), player(YELLOW)), YELLOW, interrupt("wallace_sonky"))
    assert st.money == [10, 10, 10] and E.pending(st)[RED].kind == "another"


def test_wallace_sonky_only_for_yourself_and_not_against_events() -> None:
    st = position(hands={RED: ["nobby_nobbs"], YELLOW: ["wallace_sonky"]})
    st = play(st, RED, card("nobby_nobbs"), player(GREEN_S))
    assert st.money == [13, 10, 7]  # Yellow's Wallace cannot shield Green
    st = position(minions={n: {YELLOW: 1} for n in EVERYWHERE}, hands={RED: ["recent_runes"], YELLOW: ["wallace_sonky", "gaspode"]},
                  events=["dragon"])
    st = play(st, RED, card("recent_runes"))
    assert who(st) == RED and sum(st.minions[a][YELLOW] for a in range(12)) == 11


def test_small_gods_keeps_a_demon_off_the_board() -> None:
    st = position(minions={n: {YELLOW: 1} for n in EVERYWHERE}, buildings={"Small Gods": YELLOW},
                  hands={RED: ["recent_runes"]}, events=["demons"], money=[10, 20, 10])
    st = play(st, RED, card("recent_runes"))
    assert who(st) == YELLOW and E.pending(st)[YELLOW].kind == "small_gods"
    first = st.stack[-2].area
    st = play(st, YELLOW, {"kind": "piece", "area": first, "piece": DEMON})
    while who(st) == YELLOW:
        st = play(st, YELLOW, SKIP)
    assert sum(st.demons) == 3 and st.money[YELLOW] == 17


def test_gaspode_stops_a_move_too() -> None:
    st = position(minions={"Dimwell": {YELLOW: 1}}, hands={RED: ["the_duckman"], YELLOW: ["gaspode"]})
    st = play(st, RED, card("the_duckman"), piece("Dimwell", YELLOW), area("Longwall"))
    assert legal(st, YELLOW) == [{"kind": "interrupt", "card": "gaspode"}, {"kind": "skip"}]
    st = play(st, YELLOW, interrupt("gaspode"))
    assert st.minions[ar("Dimwell")][YELLOW] == 1


def test_faq_moving_a_minion_makes_trouble() -> None:
    st = position(minions={"Dimwell": {RED: 2}, "Longwall": {YELLOW: 1}}, trouble=["Dimwell"], hands={RED: ["dorfl"]})
    st = play(st, RED, card("dorfl"), piece("Dimwell", RED), area("Longwall"))
    assert st.trouble[ar("Longwall")] and not st.trouble[ar("Dimwell")]


def test_faq_whiteface_and_fools_guild_cannot_be_discarded() -> None:
    st = position(hands={RED: ["fools_guild"], YELLOW: ["groat", "hex", "modo"]}, minions={"Dimwell": {RED: 1}},
                  buildings={"The Scours": YELLOW, "Unreal Estate": YELLOW})
    st = play(st, RED, card("fools_guild"), player(YELLOW))
    assert legal(st, YELLOW) == [{"kind": "pay"}, {"kind": "skip"}]
    st = play(st, YELLOW, SKIP)
    assert st.stuck[YELLOW] == ["fools_guild"] and "fools_guild" not in st.discard
    st = play(st, RED, SKIP)  # Red does not place the minion; the turn ends
    assert st.turn == YELLOW
    # the Scours and Unreal Estate offer only the cards in hand, never the stuck one
    st = play(st, YELLOW, {"kind": "power", "area": ar("The Scours")})
    assert {a["card"] for a in legal(st, YELLOW)} == {"groat", "hex", "modo"}
    st = play(st, YELLOW, pick("modo"), card("hex"), SKIP, SKIP)
    # it counts toward the hand: Yellow refills to four cards
    assert st.turn == GREEN_S and len(st.hands[YELLOW]) == 4


def test_paying_the_ransom() -> None:
    st = position(hands={RED: ["dr_whiteface"]})
    st = play(play(st, RED, card("dr_whiteface"), player(YELLOW)), YELLOW, PAY)
    assert st.money == [15, 5, 10] and "dr_whiteface" not in st.stuck[YELLOW]


def test_mossy_lawn_ends_the_turn_and_keeps_the_card() -> None:
    st = position(hands={RED: ["agony_aunts", "mossy_lawn"]}, minions={"Dimwell": {RED: 1, YELLOW: 1}}, trouble=["Dimwell"])
    st = play(st, RED, card("agony_aunts"), piece("Dimwell", YELLOW))
    assert {"kind": "interrupt", "card": "mossy_lawn"} in legal(st, RED)
    st, ev = acts(st, (RED, interrupt("mossy_lawn")))
    assert st.turn == YELLOW and "agony_aunts" in st.hands[RED] and "mossy_lawn" in st.discard
    assert st.money[RED] == 10  # the $2 symbol was never reached


def test_reaction_events_do_not_name_the_card_in_hand() -> None:
    st = _death_position(["gaspode"])
    st, ev = acts(st, (RED, card("death")), (RED, piece("Dimwell", YELLOW)))
    v = E.view(st, None)
    assert "Gaspode" not in v.model_dump_json() and "reacts" in v.waiting.en
    assert not any("Gaspode" in e.text.en for e in ev)
    assert ar("Dimwell") == 7
