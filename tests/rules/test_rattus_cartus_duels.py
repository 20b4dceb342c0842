"""Sword and Flute duels: the rulebook's rules and notes, with two to four players at a building."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.rattus_cartus.model import Choose, Give
from tests.rules.rc_helpers import E, at_building, of_kind, rats

FILL = ["campesinado", "burguesia", "iglesia", "caballeria", "hechiceria", "realeza"]


def test_fewest_swords_gives_half_the_hand_rounded_down() -> None:
    # seat 0 plays a Sword, seat 1 none: seat 1 (7 cards) gives 3 of its choice.
    s, ev = at_building("palacio-1", {0: (0, ["espada"]), 1: (0, []), 2: (1, [])},
                        extra={1: FILL + ["oro"]})
    assert E.pending(s).keys() == {1} and s.tasks[0].n == 3 and s.tasks[0].target == 0
    sword = [e for e in ev if e.kind == "sword"]
    assert sword and sword[0].data["loser"] == 1 and sword[0].data["cards"] == 3
    oro = of_kind(s, 1, "oro")[0]
    s, ev = E.apply(s, 1, Give(card=oro))
    assert oro in s.hands[0] and ev[0].audience == [1, 0]
    while 1 in E.pending(s):
        s, _ = E.apply(s, 1, E.legal_actions(s, 1)[0])
    assert len(s.hands[1]) == 4
    # the Sword itself went back to its pile; seat 0 holds the three cards given
    assert len(s.hands[0]) == 3 and len(s.piles["espada"]) == 12


def test_tie_for_most_swords_goes_to_the_first_disc() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["espada"]), 1: (0, ["espada"]), 2: (0, [])},
                        extra={2: FILL[:4]})
    assert s.tasks[0].kind == "give" and s.tasks[0].seat == 2 and s.tasks[0].target == 0


def test_tie_for_fewest_swords_the_winner_chooses() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["espada", "espada"]), 1: (0, []), 2: (0, [])},
                        extra={1: FILL[:2], 2: FILL[2:6]})
    assert E.pending(s).keys() == {0}
    assert E.legal_actions(s, 0) == [Choose(seat=1), Choose(seat=2)]
    with pytest.raises(IllegalAction):
        E.apply(s, 0, Choose(seat=0))
    s, _ = E.apply(s, 0, Choose(seat=2))
    assert s.tasks[0].kind == "give" and s.tasks[0].seat == 2 and s.tasks[0].n == 2


def test_the_middle_player_is_not_touched() -> None:
    s, _ = at_building("palacio-1", {0: (0, ["espada", "espada"]), 1: (0, ["espada"]), 2: (0, [])},
                       extra={1: FILL[:4], 2: ["iglesia:0"] * 4})
    # seat 2 gives two of its four cards (asked, though they are alike); seat 1 keeps its hand
    assert E.pending(s).keys() == {2} and s.tasks[0].n == 2 and s.tasks[0].target == 0
    for _ in range(2):
        s, _ = E.apply(s, 2, E.legal_actions(s, 2)[0])
    assert len(s.hands[1]) == 4 and len(s.hands[2]) == 2 and len(s.hands[0]) == 2


def test_equal_swords_nothing_happens() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["espada"]), 1: (0, ["espada"]), 2: (1, [])},
                        extra={0: FILL[:2], 1: FILL[2:4]})
    assert not [e for e in ev if e.kind == "sword"]
    assert len(s.hands[0]) == 2 and len(s.hands[1]) == 2


def test_a_sword_alone_at_a_building_does_nothing() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["espada"]), 1: (1, []), 2: (1, [])},
                        extra={1: FILL[:2], 2: FILL[2:4]}, filler="monasterio-1")
    assert not [e for e in ev if e.kind == "sword"]
    assert [len(h) for h in s.hands] == [0, 2, 2]


def test_half_of_one_card_is_nothing() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["espada"]), 1: (0, [])}, extra={1: ["oro"]}, n=2)
    assert len(s.hands[1]) == 1 and s.round == 2


def test_fewest_flutes_receives_a_rat_from_the_most() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["flauta"]), 1: (0, []), 2: (1, [])})
    assert rats(s) == [9, 11, 10]
    flute = [e for e in ev if e.kind == "flute"][0]
    assert flute.data == {"winner": 0, "loser": 1, "rats": 1} and flute.audience is None


def test_flute_rat_is_a_one_made_by_change() -> None:
    from tests.rules.rc_helpers import enter, game, to_enter

    s = to_enter(game(3, ["palacio-1", "granja-1"], {0: ["flauta"], 1: [], 2: []}))
    s.rats[0] = [5, 3]
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 0, [])
    s, _ = enter(s, 2, 1, [])
    # the 3 was broken into three 1s and one went to seat 1, whose three 1s became a 3
    # at the end of the round
    assert sorted(s.rats[0]) == [1, 1, 5] and sorted(s.rats[1]) == [3, 3, 5]


def test_tie_for_fewest_flutes_the_winner_chooses_who_gets_the_rat() -> None:
    s, _ = at_building("palacio-1", {0: (0, []), 1: (0, ["flauta"]), 2: (0, [])})
    assert E.pending(s).keys() == {1}
    s, _ = E.apply(s, 1, Choose(seat=0))
    assert rats(s) == [11, 9, 10]


def test_flute_winner_without_rats_passes_nothing() -> None:
    from tests.rules.rc_helpers import enter, game, to_enter

    s = to_enter(game(3, ["palacio-1", "granja-1"], {0: ["flauta"], 1: [], 2: []}))
    s.rats[0] = []
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 0, [])
    s, ev = enter(s, 2, 1, [])
    assert rats(s) == [0, 10, 10]
    assert [e.data["rats"] for e in ev if e.kind == "flute"] == [0]


def test_swords_and_flutes_bring_no_influence_and_no_rats() -> None:
    s, ev = at_building("palacio-1", {0: (0, ["espada", "flauta", "realeza"]), 1: (1, []),
                                      2: (1, [])})
    assert s.influence[0][5] == 1 and rats(s)[0] == 10


def test_both_duels_at_one_building() -> None:
    s, _ = at_building("palacio-1", {0: (0, ["espada"]), 1: (0, ["flauta"]), 2: (1, [])},
                       extra={0: ["oro", "oro"], 1: ["iglesia:0", "iglesia:0"]})
    # seat 1 lost the Swords (gives 1 of 2 alike cards), seat 0 lost the Flutes (gets a rat)
    assert E.pending(s).keys() == {1}
    s, _ = E.apply(s, 1, E.legal_actions(s, 1)[0])
    assert len(s.hands[0]) == 3 and len(s.hands[1]) == 1 and rats(s)[:2] == [11, 9]


def test_what_the_sword_loser_holds_does_not_show_in_the_public_view() -> None:
    """The hand is private: whether the Sword loser holds cards of one kind only or of several
    must not change what the others see (the loser is asked which cards to give either way)."""
    views = []
    for hand in (["iglesia"] * 4, ["iglesia", "oro", "realeza", "espada"]):
        s, ev = at_building("palacio-1", {0: (0, ["espada"]), 1: (0, []), 2: (1, [])},
                            extra={1: hand})
        assert E.pending(s).keys() == {1} and s.tasks[0].kind == "give"
        v = E.view(s, None)
        # (the piles and the deck differ only because the two hands were made up from them)
        views.append((v.phase, v.to_act, v.decision, v.players))
        assert not [e for e in ev if e.kind == "give"]
    assert views[0] == views[1]


def test_what_a_guard_tower_giver_holds_does_not_show_in_the_public_view() -> None:
    """Same for the Guard Tower: a giver with more than three cards chooses which three, even
    when they are all alike, so nobody learns that their hand is all one kind."""
    from rules.rattus_cartus.model import Give

    s, _ = at_building("torre_vigia-1", {0: (0, ["caballeria"]), 1: (1, []), 2: (1, [])},
                       extra={1: ["iglesia"] * 4, 2: ["realeza", "oro"]})
    # seat 2 (two cards, fewer than three) gives both without a question: hand sizes are public
    assert len(s.hands[2]) == 0
    assert E.pending(s).keys() == {1} and E.view(s, None).decision.left == 3
    for _ in range(3):
        s, _ = E.apply(s, 1, E.legal_actions(s, 1)[0])
        assert all(isinstance(a, Give) for a in E.legal_actions(s, 1)) or s.round == 2
    assert len(s.hands[1]) == 1 and s.round == 2
