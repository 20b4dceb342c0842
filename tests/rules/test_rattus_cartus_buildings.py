"""Every building's premium and standard actions, and who takes which."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction
from rules.rattus_cartus.cards import BUILDINGS, CLASSES, KIND
from rules.rattus_cartus.model import Discard, Done, Give, Peek
from tests.rules.rc_helpers import E, at_building, of_kind, play, rats

FARM = "campesinado"


def first(s, seat: int, times: int):
    """Take the seat's first legal action `times` times."""
    for _ in range(times):
        s, _ = E.apply(s, seat, E.legal_actions(s, seat)[0])
    return s


def test_every_building_type_has_five_cards_and_both_actions() -> None:
    from rules.rattus_cartus.cards import BUILDING_CARDS, BY_CLASS

    assert len(BUILDINGS) == 12 and len(BUILDING_CARDS) == 60
    for cls in CLASSES:
        assert len(BY_CLASS[cls]) == 2
    for b in BUILDINGS.values():
        assert b.name.get("es") and b.name.get("en")
        for action in (b.premium_text, b.standard_text):  # written, and translated
            assert action.get("en") and action.get("es") != action.get("en")
        assert sum(1 for (t, _) in BUILDING_CARDS.values() if t == b.id) == 5


def test_farm_actions_draw_from_the_top_of_the_deck() -> None:
    from tests.rules.rc_helpers import enter, game, to_enter

    s = to_enter(game(3, ["granja-1", "palacio-1"], {0: [FARM, FARM], 1: [FARM], 2: []}))
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 0, list(s.hands[1]))
    deck = list(s.deck)
    s, _ = enter(s, 2, 1, [])
    assert sorted(s.hands[0]) == sorted(deck[-4:])
    assert sorted(s.hands[1]) == sorted(deck[-6:-4])
    assert s.influence[0][0] == 2 and s.influence[1][0] == 1


def test_brewery_draws_one_per_influence_or_one_per_two() -> None:
    s, _ = at_building("cerveceria-1", {0: (0, [FARM, FARM, FARM, "joker"]),
                                         1: (0, [FARM, FARM, FARM]), 2: (1, [])})
    assert len(s.hands[0]) == 4  # four influence points
    assert len(s.hands[1]) == 1  # three points: one card


def test_marketplace_gives_jokers() -> None:
    s, _ = at_building("mercado-1", {0: (0, ["burguesia"]), 1: (0, []), 2: (1, [])})
    assert len(of_kind(s, 0, "joker")) == 2 and len(of_kind(s, 1, "joker")) == 1


def test_office_gives_safe_conducts() -> None:
    s, _ = at_building("oficina-1", {0: (0, ["burguesia"]), 1: (0, []), 2: (1, [])})
    assert len(of_kind(s, 0, "salvo")) == 2 and len(of_kind(s, 1, "salvo")) == 1


def test_monastery_gives_back_rats() -> None:
    s, _ = at_building("monasterio-1", {0: (0, ["iglesia", FARM]), 1: (0, []), 2: (1, [])})
    assert rats(s)[:2] == [10 + 1 - 2, 10 - 1]


def test_castle_hut_treasury_give_their_specials() -> None:
    for card, kind in (("castillo-1", "espada"), ("cabana-1", "flauta"), ("tesoro-1", "oro")):
        cls = BUILDINGS[card.split("-")[0]].cls
        s, _ = at_building(card, {0: (0, [cls]), 1: (0, []), 2: (1, [])})
        assert len(of_kind(s, 0, kind)) == 2 and len(of_kind(s, 1, kind)) == 1, card


def test_palace_gives_victory_point_tokens() -> None:
    s, _ = at_building("palacio-1", {0: (0, ["realeza"]), 1: (0, []), 2: (1, [])})
    assert s.vp == [2, 1, 0]


def test_an_empty_pile_gives_what_is_left() -> None:
    from tests.rules.rc_helpers import enter, game, to_enter

    s = to_enter(game(3, ["castillo-1", "palacio-1"], {0: ["caballeria"], 1: [], 2: []}))
    s.piles["espada"] = s.piles["espada"][:1]
    s.hands[2] = s.hands[2] + [f"e{i:02d}" for i in range(1, 12)]
    s, _ = enter(s, 0, 0, list(s.hands[0]))
    s, _ = enter(s, 1, 0, [])
    s, _ = enter(s, 2, 1, [])
    assert len(of_kind(s, 0, "espada")) == 1 and len(of_kind(s, 1, "espada")) == 0


def test_fortune_teller_looks_at_two_or_one_nun_cards() -> None:
    s, _ = at_building("tienda-1", {0: (0, ["hechiceria"]), 1: (0, []), 2: (1, [])})
    assert E.pending(s).keys() == {0} and s.tasks[0].n == 2
    s, ev = play(s, (0, Peek(position=1)), (0, Peek(position=3)))
    assert s.peeks[0] == [1, 3]
    assert E.pending(s).keys() == {1}
    with pytest.raises(IllegalAction):
        E.apply(s, 1, Done())  # a look at the nun row is due, not a confirmation
    s2, ev = E.apply(s, 1, Peek(position=0))
    assert s2.peeks[1] == [0]
    peek = [e for e in ev if e.kind == "peek"]
    assert peek and peek[0].audience == [1] and "nuns" in peek[0].data


def test_hospital_premium_one_rat_then_up_to_three_cards() -> None:
    s, _ = at_building("hospital-1", {0: (0, ["iglesia"]), 1: (0, []), 2: (1, [])},
                       extra={0: [FARM, FARM, FARM, FARM], 1: [FARM, FARM, FARM]})
    assert rats(s)[0] == 10 - 1 and E.pending(s).keys() == {0}
    legal = E.legal_actions(s, 0)
    assert legal[-1] == Done() and all(isinstance(a, Discard) for a in legal[:-1])
    s = first(s, 0, 3)
    # three discarded: no more choice, the standard player's turn
    assert rats(s)[0] == 10 - 1 - 3 and len(s.hands[0]) == 1
    assert E.pending(s).keys() == {1} and s.tasks[0].n == 2
    s, _ = play(first(s, 1, 1), (1, Done()))
    assert rats(s)[1] == 9 and len(s.hands[1]) == 2


def test_hospital_is_skipped_without_rats() -> None:
    from tests.rules.rc_helpers import enter, game, to_enter

    s = to_enter(game(3, ["hospital-1", "palacio-1"], {0: ["iglesia", FARM], 1: [FARM], 2: []}))
    s.rats[1] = []
    s, _ = enter(s, 0, 0, s.hands[0][:1])
    s, _ = enter(s, 1, 0, [])
    s, _ = enter(s, 2, 1, [])
    assert E.pending(s).keys() == {0}
    s, _ = E.apply(s, 0, Done())
    assert s.round == 2  # seat 1 had no rat to give back: no question asked


def test_guard_tower_takes_three_cards_from_the_unprotected() -> None:
    # seat 0 premium at the Tower (1 card left in hand); seat 1 standard: protected;
    # seat 2 at the Palace holds 5 cards: gives 3 of its choice.
    s, ev = at_building("torre_vigia-1", {0: (0, ["caballeria"]), 1: (0, []), 2: (1, [])},
                        extra={0: [FARM], 1: [FARM] * 6, 2: [FARM, "iglesia", "oro", "espada", FARM]})
    assert E.pending(s).keys() == {2}
    assert s.tasks[0].seats == [2] and s.tasks[0].counts == [3]
    choices = E.legal_actions(s, 2)
    assert {KIND[a.card] for a in choices if isinstance(a, Give)} == {FARM, "iglesia", "oro", "espada"}
    before2 = list(s.hands[2])
    s, _ = play(s, (2, Give(card=of_kind(s, 2, "oro")[0])), (2, Give(card=of_kind(s, 2, "espada")[0])),
                (2, Give(card=of_kind(s, 2, "iglesia")[0])))
    assert len(s.hands[2]) == 2 and len(s.hands[0]) == 4
    assert set(before2) - set(s.hands[2]) <= set(s.hands[0])
    assert len(s.hands[1]) == 6  # protected


def test_guard_tower_spares_smaller_hands_and_takes_all_of_a_short_one() -> None:
    s, _ = at_building("torre_vigia-1", {0: (0, ["caballeria"]), 1: (1, []), 2: (1, []), 3: (1, [])},
                       extra={0: [FARM, FARM], 1: [FARM], 2: [FARM, "oro"], 3: ["iglesia:0"] * 4}, n=4)
    # seat 1 holds fewer cards than seat 0 (1 < 2): spared. Seat 2 holds exactly 2: gives
    # both (fewer than three), no question. Seat 3 chooses three of four, though all alike.
    assert len(s.hands[1]) == 1 and len(s.hands[2]) == 0
    assert E.pending(s).keys() == {3}
    s = first(s, 3, 3)
    assert len(s.hands[3]) == 1
    assert len(s.hands[0]) == 2 + 2 + 3


def test_guard_tower_givers_answer_at_the_same_time() -> None:
    s, _ = at_building("torre_vigia-1", {0: (0, ["caballeria"]), 1: (1, []), 2: (1, []), 3: (1, [])},
                       extra={1: [FARM, "oro", "iglesia", FARM], 2: ["oro", FARM, "iglesia"],
                              3: [FARM, "iglesia", "realeza", "oro"]}, n=4)
    assert E.pending(s).keys() == {1, 3}  # seat 2's three cards all go: no choice
    assert len(s.hands[2]) == 0
    s = first(first(s, 3, 1), 1, 1)
    assert E.pending(s).keys() == {1, 3}
    s = first(s, 1, 2)
    assert E.pending(s).keys() == {3}
    s = first(s, 3, 2)
    assert [len(h) for h in s.hands] == [9, 1, 0, 1]


def test_standard_action_needs_no_cards_and_ties_go_to_the_first_disc() -> None:
    # both play one card: seat 0 entered first, takes the premium
    s, _ = at_building("palacio-2", {0: (0, ["realeza"]), 1: (0, ["realeza"]), 2: (0, [])},
                       filler="granja-1")
    assert s.vp == [2, 1, 1]
    # a later disc with more cards takes the premium
    s, _ = at_building("palacio-2", {0: (0, ["realeza"]), 1: (0, ["realeza", "joker"]), 2: (0, [])},
                       filler="granja-1")
    assert s.vp == [1, 2, 1]
    # Swords and Flutes do not count towards the premium
    s, _ = at_building("palacio-2", {0: (0, ["espada"]), 1: (0, []), 2: (1, [])},
                       filler="granja-1")
    assert s.vp[:2] == [2, 1]


def test_a_lone_player_with_no_cards_takes_the_premium() -> None:
    s, _ = at_building("palacio-2", {0: (0, []), 1: (1, []), 2: (1, [FARM])}, filler="granja-1")
    assert s.vp[0] == 2
