"""Final scoring: class majorities with the stacking tie-break, hands, specials, Gold, the plague."""

from __future__ import annotations

from rules.rattus_cartus.cards import CLASSES
from rules.rattus_cartus.model import Options, RcState
from rules.rattus_cartus.scoring import finish, gold_points, outcome
from rules.rattus_cartus.table import gain_influence
from tests.rules.rc_helpers import E, deal, game, set_nuns

IGL = CLASSES.index("iglesia")


def table(n: int, row: tuple[str, ...] = ("palacio-1", "granja-1", "castillo-1"),
          **options) -> RcState:
    """A game about to be scored: nobody has anything yet, ten nuns in the row, rats at 10."""
    options.setdefault("buildings", "first_game")
    s = game(n, list(row[:3 if n > 3 else 2]), **options)
    for seat in range(n):
        deal(s, seat, [])
    set_nuns(s, [4, 3, 2, 1, 0])
    return s


def test_class_majorities_ten_five_two() -> None:
    s = table(4)
    for seat, pts in ((0, 3), (1, 5), (2, 1), (3, 2)):
        gain_influence(s, seat, "iglesia", pts)
    finish(s)
    assert [f.classes[IGL] for f in s.final] == [5, 10, 0, 2]


def test_only_players_with_influence_score_a_class() -> None:
    # the rulebook's note: only one player has influence: 10, and no 5 or 2 for anybody
    s = table(3)
    gain_influence(s, 2, "realeza", 1)
    finish(s)
    assert [sum(f.classes) for f in s.final] == [0, 0, 10]


def test_two_players_only_ten_and_five() -> None:
    s = table(2)
    gain_influence(s, 0, "iglesia", 2)
    gain_influence(s, 1, "iglesia", 4)
    finish(s)
    assert [f.classes[IGL] for f in s.final] == [5, 10]


def test_same_influence_the_disc_underneath_wins() -> None:
    s = table(3)
    gain_influence(s, 1, "iglesia", 3)  # there first: at the bottom of the stack
    gain_influence(s, 0, "iglesia", 1)
    gain_influence(s, 2, "iglesia", 3)  # lands on top of seat 1
    gain_influence(s, 0, "iglesia", 2)  # lands on top of both
    finish(s)
    assert [f.classes[IGL] for f in s.final] == [2, 10, 5]
    assert E.view(s, None).tracks[IGL] == [1, 2, 0]


def test_hand_majority_counts_population_cards_and_jokers_only() -> None:
    s = table(3)
    deal(s, 0, ["iglesia", "joker"])
    deal(s, 1, ["iglesia", "espada", "espada", "oro"])
    deal(s, 2, ["realeza"])
    finish(s)
    assert [f.hand for f in s.final] == [2, 0, 0]
    assert [f.held["hand"] for f in s.final] == [2, 1, 1]
    s = table(3)
    deal(s, 0, ["iglesia", "joker"])
    deal(s, 1, ["joker", "joker"])
    finish(s)
    assert [f.hand for f in s.final] == [1, 1, 0]


def test_special_majorities_two_or_one_each_on_a_tie_gold_excluded() -> None:
    s = table(3)
    deal(s, 0, ["espada", "espada", "flauta", "salvo"])
    deal(s, 1, ["espada", "flauta", "oro", "oro"])
    deal(s, 2, ["salvo"])
    finish(s)
    assert [f.specials for f in s.final] == [
        {"espada": 2, "flauta": 1, "salvo": 1}, {"espada": 0, "flauta": 1, "salvo": 0},
        {"espada": 0, "flauta": 0, "salvo": 1}]
    # no Treasury among the buildings: Gold scores nothing
    assert [f.gold for f in s.final] == [0, 0, 0]


def test_gold_six_and_three_with_ties_split() -> None:
    assert gold_points([3, 1, 0], False) == [6, 3, 0]
    assert gold_points([3, 1, 1, 0], False) == [6, 1, 1, 0]  # 3 split between two
    assert gold_points([2, 2, 1], False) == [4, 4, 0]  # 9 split, no second place
    assert gold_points([2, 2, 2], False) == [3, 3, 3]
    assert gold_points([1, 1, 1, 1, 1], False) == [1] * 5
    assert gold_points([0, 0, 0], False) == [0, 0, 0]
    assert gold_points([2, 1], True) == [6, 0]  # two players: no second place
    assert gold_points([2, 2], True) == [3, 3]


def test_gold_scores_when_the_treasury_is_in_the_game() -> None:
    s = table(3, ("tesoro-1", "granja-1"), buildings="chosen",
              chosen=["granja", "mercado", "monasterio", "castillo", "tesoro", "tienda"])
    assert s.in_play == sorted(["granja", "mercado", "monasterio", "castillo", "tesoro", "tienda"])
    deal(s, 0, ["oro", "oro"])
    deal(s, 1, ["oro"])
    finish(s)
    assert [f.gold for f in s.final] == [6, 3, 0]


def test_victory_point_tokens_count() -> None:
    s = table(3)
    s.vp = [3, 0, 1]
    finish(s)
    assert [f.total for f in s.final] == [3, 0, 1]


def test_plague_eliminates_rats_over_the_nuns() -> None:
    s = table(3)
    s.vp = [9, 5, 1]
    s.rats = [[5, 5, 1], [5, 5], [5, 3]]  # 11 > 10 nuns: out; 10 is not over
    ev = finish(s)
    assert [f.eliminated for f in s.final] == [True, False, False]
    out = outcome(s)
    assert out.ranking == [[1], [2], [0]] and out.winners == [1]
    assert ev[0].audience is None and ev[0].data["nuns"] == [4, 3, 2, 1, 0]
    v = E.view(s, None)
    assert v.nuns == [4, 3, 2, 1, 0] and v.final is not None and E.outcome(s) == out


def test_tie_on_points_fewer_rats_wins_then_shared() -> None:
    s = table(3)
    s.vp = [4, 4, 4]
    s.rats = [[5, 3], [5, 1], [5, 3]]
    finish(s)
    assert outcome(s).ranking == [[1], [0, 2]]
    s = table(3)
    s.vp = [4, 4, 1]
    s.rats = [[3], [3], []]
    finish(s)
    out = outcome(s)
    assert out.ranking == [[0, 1], [2]] and out.winners == [0, 1]
    assert "comparten" in out.reason.es and "share" in out.reason.en


def test_everybody_eliminated() -> None:
    s = table(3)
    s.rats = [[5, 5, 3], [5, 5, 1], [5, 5, 5]]
    s.vp = [1, 0, 9]
    finish(s)
    out = outcome(s)
    assert out.ranking == [] and out.winners == [] and "nadie" in out.reason.es
    s.options = Options(all_eliminated="fewest_rats")
    out = outcome(s)
    assert out.ranking == [[1], [0, 2]]
    assert "survivor" in out.reason.en
