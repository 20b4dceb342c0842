"""Standings: points by rank, results from outcomes, tie-breaks computed by hand, CSV."""

from __future__ import annotations

import csv
import io
from fractions import Fraction as F

import pytest

from rules.core import Outcome, tr
from services.standings import (
    BUCHHOLZ,
    GAME_POINTS,
    HEAD_TO_HEAD,
    MEDIAN_BUCHHOLZ,
    ROUND_ROBIN_TIEBREAKS,
    SONNEBORN_BERGER,
    SWISS_TIEBREAKS,
    awarded,
    bye,
    compute_standings,
    result_from_abandon,
    result_from_outcome,
    result_with_leavers,
    show,
    standings_csv,
)

A, B, C, D = 1, 2, 3, 4
WHY = tr("fin", "end")


def game(round_no, seats, ranking, scores=None):
    """A result from an outcome whose ranking names seats (0..n-1) of `seats` (users)."""
    return result_from_outcome(
        round_no, seats, Outcome(ranking=ranking, scores=scores or {}, reason=WHY)
    )


def win(r, x, y):
    return game(r, (x, y), [[0], [1]])


def draw(r, x, y):
    return game(r, (x, y), [[0, 1]])


# A beats C, B draws D; A beats B, C beats D; A draws D, B beats C.
SWISS = [win(1, A, C), draw(1, B, D), win(2, A, B), win(2, C, D), draw(3, A, D), win(3, B, C)]


def by_player(standings):
    return {s.player: s for s in standings}


def test_points_wins_and_games() -> None:
    s = by_player(compute_standings([A, B, C, D], SWISS))
    assert [s[p].points for p in (A, B, C, D)] == [F(5, 2), F(3, 2), F(1), F(1)]
    assert [s[p].wins for p in (A, B, C, D)] == [2, 1, 1, 0]
    assert all(s[p].games == 3 for p in (A, B, C, D))


def test_buchholz_median_and_sonneborn_berger_by_hand() -> None:
    s = by_player(compute_standings([A, B, C, D], SWISS))
    # Buchholz: opponents' totals. A met C(1), B(3/2), D(1)...
    assert [s[p].tiebreaks[BUCHHOLZ] for p in (A, B, C, D)] == [F(7, 2), F(9, 2), F(5), F(5)]
    # Median: without the best and worst opponent.
    assert [s[p].tiebreaks[MEDIAN_BUCHHOLZ] for p in (A, B, C, D)] == [1, 1, F(3, 2), F(3, 2)]
    # Sonneborn-Berger: beaten opponents' totals plus half of drawn ones'.
    # A: C 1 + B 3/2 + D 1/2; B: D 1/2 + C 1; C: D 1; D: B 3/4 + A 5/4.
    sb = [s[p].tiebreaks[SONNEBORN_BERGER] for p in (A, B, C, D)]
    assert sb == [F(3), F(3, 2), F(1), F(2)]


def test_swiss_order_uses_the_tiebreaks_in_turn() -> None:
    st = compute_standings([A, B, C, D], SWISS, SWISS_TIEBREAKS)
    # C and D: 1 point each, equal median Buchholz (3/2) and Buchholz (5); D has the
    # better Sonneborn-Berger (2 against 1).
    assert [x.player for x in st] == [A, B, D, C]
    assert [x.rank for x in st] == [1, 2, 3, 4]


def test_round_robin_order_puts_head_to_head_first() -> None:
    st = compute_standings([A, B, C, D], SWISS, ROUND_ROBIN_TIEBREAKS)
    # C beat D, so C is ahead in a round robin despite the lower Sonneborn-Berger.
    assert [x.player for x in st] == [A, B, C, D]
    s = by_player(st)
    assert s[C].tiebreaks[HEAD_TO_HEAD] == 1 and s[D].tiebreaks[HEAD_TO_HEAD] == 0


def test_head_to_head_counts_only_among_the_tied() -> None:
    # Three tied on one point in a cycle: A beat B, B beat C, C beat A: level head to head.
    results = [win(1, A, B), win(2, B, C), win(3, C, A)]
    st = compute_standings([A, B, C], results, (HEAD_TO_HEAD,))
    assert {x.tiebreaks[HEAD_TO_HEAD] for x in st} == {1}
    assert [x.rank for x in st] == [1, 1, 1]
    assert [x.player for x in st] == [A, B, C]  # the seeding orders equal players


def test_points_by_rank_at_multiplayer_tables_and_shared_places() -> None:
    four = game(1, (A, B, C, D), [[0], [1, 2], [3]])
    assert [four.points(p) for p in (A, B, C, D)] == [1, F(1, 2), F(1, 2), 0]
    three = game(1, (A, B, C), [[2], [0], [1]])
    assert [three.points(p) for p in (A, B, C)] == [F(1, 2), 0, 1]
    five = game(1, (1, 2, 3, 4, 5), [[0], [1], [2], [3], [4]])
    assert [five.points(p) for p in (1, 2, 3, 4, 5)] == [1, F(3, 4), F(1, 2), F(1, 4), 0]
    assert four.won(A) and not four.won(B)
    shared = game(1, (A, B, C), [[0, 1], [2]])
    assert not shared.won(A)  # a shared first place is not a win


def test_multiplayer_buchholz_averages_the_table() -> None:
    t = game(1, (A, B, C), [[0], [1], [2]])
    s = by_player(compute_standings([A, B, C], [t]))
    assert s[A].tiebreaks[BUCHHOLZ] == F(1, 4)  # mean of 1/2 and 0
    assert s[B].tiebreaks[BUCHHOLZ] == F(1, 2)
    assert s[C].tiebreaks[BUCHHOLZ] == F(3, 4)
    assert s[A].tiebreaks[SONNEBORN_BERGER] == F(1, 4)  # ahead of B (1/2) and C (0)
    assert s[B].tiebreaks[SONNEBORN_BERGER] == 0


def test_nobody_wins_is_a_loss_for_everyone() -> None:
    t = game(2, (A, B, C), [], scores={0: 5, 1: 3, 2: 1})
    assert t.kind == "nobody"
    assert [t.points(p) for p in (A, B, C)] == [0, 0, 0]
    assert not any(t.won(p) for p in (A, B, C))
    s = by_player(compute_standings([A, B, C], [t], (GAME_POINTS,)))
    assert s[A].tiebreaks[GAME_POINTS] == 5  # in-game scores still count as game points


def test_abandoned_game_is_a_loss_for_whoever_left() -> None:
    two = result_from_abandon(1, (A, B), [A])
    assert (two.points(A), two.points(B)) == (0, 1)
    assert two.won(B) and two.kind == "abandoned"
    four = result_from_abandon(1, (A, B, C, D), [C])
    # The three who stayed share first to third place: (1 + 2/3 + 1/3) / 3 each.
    assert [four.points(p) for p in (A, B, C, D)] == [F(2, 3), F(2, 3), 0, F(2, 3)]


def test_organiser_award_and_bye() -> None:
    t = awarded(1, (A, B, C), [[C], [A]])
    assert [t.points(p) for p in (A, B, C)] == [F(1, 2), 0, 1]  # B left out: last
    with pytest.raises(ValueError):
        awarded(1, (A, B), [[C]])
    s = by_player(compute_standings([A, B, C], [bye(1, A), win(1, B, C)]))
    assert s[A].points == 1 and s[A].games == 0 and s[A].wins == 1
    assert s[A].tiebreaks[BUCHHOLZ] == 0  # a bye has no opponent


def test_game_points_sum_in_game_scores() -> None:
    r1 = game(1, (A, B), [[0], [1]], scores={0: 12, 1: 9})
    r2 = game(2, (B, A), [[0], [1]], scores={0: 15, 1: 7})
    s = by_player(compute_standings([A, B], [r1, r2], (GAME_POINTS,)))
    assert (s[A].tiebreaks[GAME_POINTS], s[B].tiebreaks[GAME_POINTS]) == (19, 24)
    assert compute_standings([A, B], [r1, r2], (GAME_POINTS,))[0].player == B


def test_unknown_tiebreak_is_refused() -> None:
    with pytest.raises(ValueError):
        compute_standings([A], [], ("coin_toss",))


def test_dropped_players_stay_in_the_standings_marked() -> None:
    st = compute_standings([A, B], [win(1, A, B)], dropped=[B])
    assert [(x.player, x.dropped) for x in st] == [(A, False), (B, True)]


def test_csv_export() -> None:
    st = compute_standings([A, B, C, D], SWISS, SWISS_TIEBREAKS)
    text = standings_csv(st, {A: "Ana", B: "Bea", C: "Ciro", D: "Dani"}, SWISS_TIEBREAKS)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "rank",
        "player",
        "user_id",
        "points",
        "games",
        "wins",
        *SWISS_TIEBREAKS,
        "dropped",
    ]
    assert rows[1][:6] == ["1", "Ana", "1", "2.50", "3", "2"]
    assert rows[3][:4] == ["3", "Dani", "4", "1"]
    assert len(rows) == 5
    assert show(F(2, 3)) == "0.67" and show(F(4)) == "4"


def test_a_player_dropped_by_the_clock_loses_whatever_their_seat_did() -> None:
    # The bot played A's seat on and came second; A left, so A is last.
    out = Outcome(ranking=[[2], [0], [1], [3]], scores={0: 9, 2: 12}, reason=WHY)
    t = result_with_leavers(1, (A, B, C, D), out, [A])
    assert t.kind == "abandoned"
    assert dict(t.places) == {C: 0, B: 1, D: 2, A: 3}
    assert t.scores[A] == 9
    # Two players: the leaver's seat won, the one who stayed gets the win.
    two = result_with_leavers(1, (A, B), Outcome(ranking=[[0], [1]], reason=WHY), [A])
    assert (two.points(A), two.points(B)) == (0, 1)
    # Nobody won: a loss for everyone, the leaver too.
    none = result_with_leavers(1, (A, B), Outcome(ranking=[], reason=WHY), [A])
    assert none.kind == "nobody" and none.points(B) == 0
    # Nobody left: the outcome as it is.
    same = result_with_leavers(1, (A, B), Outcome(ranking=[[1], [0]], reason=WHY), [])
    assert same.kind == "game" and same.won(B)


def test_a_name_that_would_start_a_formula_is_written_as_text() -> None:
    st = compute_standings([A, B, C, D], SWISS, SWISS_TIEBREAKS)
    names = {A: "=HYPERLINK(\"http://x\")", B: "+1", C: "@SUM(A1)", D: "-2"}
    rows = list(csv.reader(io.StringIO(standings_csv(st, names, SWISS_TIEBREAKS))))
    written = {row[1] for row in rows[1:]}
    assert written == {"'" + n for n in names.values()}
    assert all(cell[:1] not in "=+-@" for row in rows[1:] for cell in row[1:2])
