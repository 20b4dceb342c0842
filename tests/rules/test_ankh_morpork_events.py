"""Ankh-Morpork: the 12 random events, with the die read back from the game's own events."""

from __future__ import annotations

from rules.ankh_morpork.board import ADJ, RIVER
from tests.rules.am_helpers import GREEN_S, RED, YELLOW, E, acts, ar, area, card, position, who

ALL = range(12)
SG = ar("Small Gods")


def fire_event(event: str, seed: int = 1, **kw):  # noqa: ANN003, ANN201
    """Red plays the Professor of Recent Runes with ``event`` on top of the event pile."""
    st = position(hands={RED: ["recent_runes", "groat"], **kw.pop("hands", {})}, events=[event], seed=seed, **kw)
    st, ev = acts(st, (RED, card("recent_runes")))
    return st, ev


def dice(ev: list) -> list[int]:
    """Areas the die showed, in order."""
    return [e.data["area"] for e in ev if e.kind == "die"]


def built(owner: int) -> dict:
    """A building of ``owner`` everywhere but Small Gods (whose card would open windows)."""
    return {str(a + 1): owner for a in ALL if a != SG}


def full_board(n: int = 3) -> dict:
    """Every area with one minion of each seat."""
    return {str(a + 1): {s: 1 for s in range(n)} for a in ALL}


def test_the_dragon_clears_one_area() -> None:
    st, ev = fire_event("dragon", minions=full_board(), buildings=built(GREEN_S),
                        trouble=[str(a + 1) for a in ALL], trolls={"1": 1, "5": 1, "9": 1})
    (a,) = dice(ev)
    assert st.minions[a] == [0, 0, 0] and st.buildings[a] == -1 and not st.trouble[a] and st.trolls[a] == 0
    assert sum(st.buildings[b] == GREEN_S for b in ALL) == 11 - (a != SG) and sum(st.trouble) == 11


def test_small_gods_saves_a_building_from_the_dragon() -> None:
    for seed in range(1, 40):
        st, ev = fire_event("dragon", seed=seed, buildings={str(a + 1): YELLOW for a in ALL}, money=[10, 10, 10])
        if dice(ev)[0] != ar("Small Gods"):
            break
    a = dice(ev)[0]
    assert who(st) == YELLOW and E.pending(st)[YELLOW].kind == "small_gods"
    st, _ = acts(st, (YELLOW, area(str(a + 1))))
    assert st.buildings[a] == YELLOW and st.money[YELLOW] == 7


def test_flood_moves_minions_to_dry_neighbours_in_turn_order() -> None:
    for seed in range(1, 60):
        st, ev = fire_event("flood", seed=seed, minions=full_board())
        flooded = set(dice(ev)) & RIVER
        if flooded and any(set(ADJ[a]) - flooded for a in flooded):
            break
    order = []
    while E.pending(st) and E.pending(st).get(who(st)).kind == "event":
        s = who(st)
        order.append(s)
        st, _ = acts(st, (s, E.legal_actions(st, s)[0].model_dump()))
    assert order[0] == RED and order == sorted(order)
    for a in flooded:
        if set(ADJ[a]) - flooded:
            assert st.minions[a] == [0, 0, 0]
    assert sum(map(sum, st.minions)) == 36


def test_fire_spreads_through_neighbouring_buildings() -> None:
    st, ev = fire_event("fire", buildings=built(YELLOW), seed=3)
    rolls = dice(ev)
    burnt = [rolls[0]] if rolls[0] != SG else []
    for prev, nxt in zip(rolls, rolls[1:], strict=False):
        if burnt and nxt in ADJ[prev] and nxt not in burnt and nxt != SG:
            burnt.append(nxt)
        else:
            break
    assert {a for a in ALL if st.buildings[a] < 0} == set(burnt) | {SG}


def test_fog_discards_the_top_five_cards() -> None:
    st = position(hands={RED: ["recent_runes"]}, events=["fog"])
    top = st.deck[:5]
    st, _ = acts(st, (RED, card("recent_runes")))
    assert st.discard[-5:] == top and top[0] not in st.deck


def test_riots_end_the_game_with_eight_trouble_markers() -> None:
    troubles = [str(a + 1) for a in range(8)]
    st, ev = fire_event("riots", trouble=troubles, personalities=["vimes", "rust", "selachii"],
                        minions={"1": {YELLOW: 3}})
    assert st.finished and st.end_reason == "riots"
    assert st.winners == [YELLOW]  # on points: Vimes does not win by riots
    st, ev = fire_event("riots", trouble=troubles[:7])
    assert not st.finished


def test_subsidence_charges_two_a_building() -> None:
    st, _ = fire_event("subsidence", buildings={"1": RED, "2": YELLOW, "3": YELLOW, "4": YELLOW},
                       money=[10, 3, 10])
    assert st.money[RED] == 8 and who(st) == YELLOW  # Yellow can pay for one only
    st, _ = acts(st, (YELLOW, area("2")), (YELLOW, area("4")))
    assert [st.buildings[a] for a in range(4)] == [RED, -1, YELLOW, -1] and st.money[YELLOW] == 1


def test_explosion_and_earthquake_remove_buildings() -> None:
    st, ev = fire_event("explosion", buildings=built(YELLOW))
    assert {a for a in ALL if st.buildings[a] < 0} == set(dice(ev)) | {SG}
    st, ev = fire_event("earthquake", buildings=built(YELLOW))
    assert {a for a in ALL if st.buildings[a] < 0} == set(dice(ev)) | {SG} and len(dice(ev)) == 2


def test_mysterious_murders_each_player_removes_one() -> None:
    st, ev = fire_event("murders", minions=full_board())
    seen = []
    while E.pending(st) and E.pending(st)[who(st)].kind == "event":
        s = who(st)
        seen.append(s)
        opts = E.legal_actions(st, s)
        assert len(opts) == len({a.piece for a in opts}) >= 1  # any minion there, their own included
        st, e2 = acts(st, (s, opts[0].model_dump()))
        ev += e2
    assert seen == [RED, YELLOW, GREEN_S] and sum(map(sum, st.minions)) == 33


def test_murders_your_own_when_alone() -> None:
    st, ev = fire_event("murders", minions={str(a + 1): {RED: 1} for a in ALL})
    assert [a.piece for a in E.legal_actions(st, RED)] == [RED]


def test_demons_arrive_with_trouble() -> None:
    st, ev = fire_event("demons")
    assert sum(st.demons) == 4 and all(st.trouble[a] for a in dice(ev)) and len(dice(ev)) == 4
    for a in set(dice(ev)):
        assert st.demons[a] == dice(ev).count(a)


def test_bloody_stupid_johnson_sets_a_card_aside() -> None:
    for seed in range(1, 40):
        st, ev = fire_event("johnson", seed=seed, buildings=built(YELLOW), minions=full_board())
        (a,) = dice(ev)
        if a != SG:
            break
    assert st.card_out[a] and st.minions[a][YELLOW] == 0 and st.buildings[a] == YELLOW
    view = E.view(st, None).areas[a]
    assert view.card_holder is None and view.building == YELLOW
    # the building still counts for control
    st.minions[a] = [0, 0, 0]
    assert E.view(st, None).areas[a].controller == YELLOW


def test_trolls_arrive_and_bring_trouble_where_minions_are() -> None:
    st, ev = fire_event("trolls", minions={"1": {YELLOW: 1}, "2": {YELLOW: 1}, "3": {YELLOW: 1}})
    assert sum(st.trolls) == 3
    for a in set(dice(ev)):
        assert st.trolls[a] == dice(ev).count(a)
        assert st.trouble[a] == (a < 3 or dice(ev).count(a) > 1)


def test_each_event_happens_once() -> None:
    st = E.setup(3, {}, 5)
    assert sorted(st.event_deck) == sorted(set(st.event_deck)) and len(st.event_deck) == 12


def test_no_minion_to_move_out_skips_the_flood_question() -> None:
    st, ev = fire_event("flood")
    assert E.pending(st)[RED].kind == "scroll:draw2"  # straight on to the card's scroll
