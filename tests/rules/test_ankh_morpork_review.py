"""Ankh-Morpork: scenarios from an independent rules review (each names the rule it checks)."""

from __future__ import annotations

from rules.ankh_morpork.model import TROLL
from tests.rules.am_helpers import (
    DO,
    GREEN_S,
    RED,
    YELLOW,
    E,
    acts,
    ar,
    area,
    card,
    interrupt,
    legal,
    piece,
    play,
    position,
    who,
)

EVERYWHERE = [str(a + 1) for a in range(12)]


def _roll_to(st, want):  # noqa: ANN001, ANN202
    """Reseed until the next die of ``st`` shows a value in ``want`` (1..12)."""
    for seed in range(1, 500):
        probe = st.model_copy(update={"rng": st.rng.model_copy(update={"seed": seed})})
        if probe.rng.model_copy().randint(1, 12) in want:
            return probe
    raise AssertionError("no seed gives that roll")


def test_errol_on_seven_or_more_may_remove_your_own_minion() -> None:
    # Errol: «7 or more, you remove a minion of your choice from an area containing a trouble
    # marker» — of your choice: your own too (the card shows no "not one of yours", unlike
    # the assassination symbol), e.g. to clear the trouble where you want to build.
    st = position(minions={"Dimwell": {RED: 2, YELLOW: 1}}, trouble=["Dimwell"], hands={RED: ["errol"]})
    st = play(_roll_to(st, range(7, 13)), RED, card("errol"), DO)
    offered = {(a["area"], a["piece"]) for a in legal(st, RED) if a["kind"] == "piece"}
    assert offered == {(ar("Dimwell"), RED), (ar("Dimwell"), YELLOW)}
    st = play(st, RED, piece("Dimwell", RED))
    assert st.minions[ar("Dimwell")] == [1, 1, 0] and not st.trouble[ar("Dimwell")]


def test_mysterious_murders_the_roller_chooses_any_minion_in_the_area() -> None:
    # «Tira el dado y retira un secuaz a tu elección de la zona que haya salido»: any minion
    # there, yours included, even when other players have minions there too.
    st = position(minions={n: {RED: 1, YELLOW: 1} for n in EVERYWHERE}, trolls={n: 1 for n in EVERYWHERE},
                  hands={RED: ["recent_runes", "groat"]}, events=["murders"])
    st = play(st, RED, card("recent_runes"))
    assert who(st) == RED and E.pending(st)[RED].kind == "event"
    a = st.stack[-1].area
    assert {(x["area"], x["piece"]) for x in legal(st, RED)} == {(a, RED), (a, YELLOW), (a, TROLL)}
    st = play(st, RED, {"kind": "piece", "area": a, "piece": RED})
    assert st.minions[a][RED] == 0 and st.minions[a][YELLOW] == 1


def test_susan_stops_the_auditors_taking_one_of_your_minions() -> None:
    # Susan: «Stop one of your minions from being removed from the board» — the Auditors
    # (another player's card) remove one of your minions: Susan answers it, once the minion
    # is chosen.
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}, "Longwall": {YELLOW: 1, GREEN_S: 1}},
                  hands={RED: ["the_auditors"], YELLOW: ["susan", "groat"]})
    st = play(st, RED, card("the_auditors"), DO)
    assert who(st) == YELLOW
    st = play(st, YELLOW, piece("Longwall", YELLOW))
    assert legal(st, YELLOW) == [{"kind": "interrupt", "card": "susan"}, {"kind": "skip"}]
    st = play(st, YELLOW, interrupt("susan"))
    assert st.minions[ar("Longwall")][YELLOW] == 1 and "susan" in st.discard
    st = play(st, GREEN_S, piece("Longwall", GREEN_S))
    assert st.minions[ar("Longwall")] == [0, 1, 0]


def test_fresh_start_club_answers_the_auditors_too() -> None:
    # Fresh Start Club: «If you have a minion removed you can place him in a different area».
    st = position(minions={"Dimwell": {RED: 1, YELLOW: 1}, "Longwall": {YELLOW: 1}},
                  hands={RED: ["the_auditors"], YELLOW: ["fresh_start_club"]})
    st = play(st, RED, card("the_auditors"), DO)
    st = play(st, YELLOW, piece("Longwall", YELLOW), interrupt("fresh_start_club"))
    assert st.minions[ar("Longwall")][YELLOW] == 0 and who(st) == YELLOW
    assert ar("Longwall") not in {a["area"] for a in legal(st, YELLOW) if a["kind"] == "area"}
    st = play(st, YELLOW, area("The Shades"))  # the normal placing rules: next to Dimwell
    assert st.minions[ar("The Shades")][YELLOW] == 1


def test_gaspode_does_not_answer_the_auditors() -> None:
    # Gaspode stops «a player» removing your minion; with the Auditors you remove it yourself.
    st = position(minions={"Longwall": {YELLOW: 1}}, hands={RED: ["the_auditors"], YELLOW: ["gaspode"]})
    st = play(st, RED, card("the_auditors"), DO)
    st, _ = acts(st, (YELLOW, piece("Longwall", YELLOW)))
    assert st.minions[ar("Longwall")][YELLOW] == 0 and "gaspode" in st.hands[YELLOW]


def test_cmot_dibbler_on_a_one_pays_what_it_can_when_it_has_no_minion() -> None:
    # «On a 1 you must pay $2 to the bank or remove one of your minions»: with $1 and no
    # minion there is no choice, and the rules page pays what you have in that case.
    st = position(minions={"Dimwell": {YELLOW: 1}}, hands={RED: ["cmot_dibbler"]}, money=[1, 10, 10])
    st, ev = acts(_roll_to(st, {1}), (RED, card("cmot_dibbler")), (RED, DO))
    assert any(e.kind == "roll" and e.data["roll"] == 1 for e in ev)
    assert st.money[RED] == 0


def test_wallace_against_carcer_keeps_the_rest_of_carcer_off_you() -> None:
    # Wallace Sonky: «You cannot be affected by the text on a card played by another player»:
    # once used against Carcer's first removal, Carcer's second removal cannot take your
    # minion either (Susan or Gaspode would protect one minion only, like against Death).
    st = position(minions={n: {YELLOW: 1, GREEN_S: 1} for n in EVERYWHERE},
                  hands={RED: ["carcer"], YELLOW: ["wallace_sonky", "susan"]})
    st = play(st, RED, card("carcer"), DO)
    first = st.stack[-1].area
    st = play(st, RED, {"kind": "piece", "area": first, "piece": YELLOW})
    st = play(st, YELLOW, interrupt("wallace_sonky"))
    assert st.minions[first][YELLOW] == 1 and who(st) == RED
    second = st.stack[-1].area
    assert {(x["area"], x["piece"]) for x in legal(st, RED)} == {(second, GREEN_S)}


def test_hobsons_first_asks_whom_to_pay() -> None:
    # Hobson's Livery Stable: «Pay $2 to a player of your choice. Then move one of your
    # minions»: the first question is whom to pay, and the prompt must say so.
    st = position(minions={"Dimwell": {RED: 1}}, hands={RED: ["hobsons"]})
    st = play(st, RED, card("hobsons"))
    assert {a["kind"] for a in legal(st, RED)} == {"player", "skip"}
    assert "pay" in E.pending(st)[RED].text.en.lower()


def test_the_game_ends_as_soon_as_the_last_card_is_drawn() -> None:
    # «La partida termina … cuando un jugador roba la última carta de la pila de cartas»,
    # and Vimes wins «si nadie más ha ganado cuando se agota la pila»: drawing the last card
    # mid-turn ends the game there; the player does not go on (here, to Riots that would
    # have ended it on points instead).
    st = position(personalities=["rust", "vimes", "selachii"], deck=["hex", "modo"], events=["riots"],
                  trouble=EVERYWHERE[:8], hands={RED: ["moist_von_lipwig", "doctor_hix"]})
    st, ev = acts(st, (RED, card("moist_von_lipwig")), (RED, {"kind": "skip"}), (RED, {"kind": "skip"}),
                  (RED, DO))
    assert st.finished and st.end_reason == "deck" and st.winners == [YELLOW]
    assert "moist_von_lipwig" in st.discard and "riots" not in st.event_done
