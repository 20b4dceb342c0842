"""Swiss pairing: score groups, fold, byes, no rematch while avoidable, drops, tables."""

from __future__ import annotations

import random

from services.pairing import History, Round, Table, pair_swiss, table_sizes

from .helpers import (
    assert_seats_everyone_once,
    play_random,
    rematch_free_exists,
    rematches,
    standing,
)


def pairs(rnd: Round) -> set[frozenset[int]]:
    return {frozenset(t.players) for t in rnd.tables}


def test_first_round_folds_the_field_top_half_against_bottom_half() -> None:
    players = list(range(1, 9))
    rnd = pair_swiss(players, {}, History())
    assert pairs(rnd) == {frozenset(p) for p in [(1, 5), (2, 6), (3, 7), (4, 8)]}
    assert rnd.byes == ()
    # Top table first.
    assert set(rnd.tables[0].players) == {1, 5}


def test_players_meet_their_own_score_group() -> None:
    # Round 1: 1-5, 2-6, 3-7, 4-8; the first four won.
    history = History.of([Round((Table((1, 5)), Table((2, 6)), Table((3, 7)), Table((4, 8))))])
    scores = {1: 1, 2: 1, 3: 1, 4: 1, 5: 0, 6: 0, 7: 0, 8: 0}
    rnd = pair_swiss([1, 2, 3, 4, 5, 6, 7, 8], scores, history)
    # Winners meet winners (fold 1-3, 2-4), losers meet losers (5-7, 6-8).
    assert pairs(rnd) == {frozenset(p) for p in [(1, 3), (2, 4), (5, 7), (6, 8)]}


def test_no_rematch_inside_a_score_group() -> None:
    # 1 and 3 already met; both lead with 1 point, as do 2 and 4.
    history = History.of([Round((Table((1, 3)), Table((2, 4))))])
    scores = {1: 1, 2: 1, 3: 1, 4: 1}
    rnd = pair_swiss([1, 2, 3, 4], scores, history)
    assert pairs(rnd) == {frozenset((1, 2)), frozenset((3, 4))} or pairs(rnd) == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }
    assert rematches(rnd, history) == 0


def test_odd_count_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    players = [10, 20, 30, 40, 50]
    rnd = pair_swiss(players, {}, History())
    assert rnd.byes == (50,)
    assert_seats_everyone_once(rnd, players)
    history = History.of([rnd])
    scores = {10: 1, 20: 0, 30: 1, 40: 0, 50: 1}
    order = [10, 30, 50, 20, 40]
    rnd2 = pair_swiss(order, scores, history)
    # 40 is last and has had no bye.
    assert rnd2.byes == (40,)
    history.add(rnd2)
    rnd3 = pair_swiss([50, 10, 30, 40, 20], {50: 2, 10: 1, 30: 1, 40: 1, 20: 0}, history)
    # 20 is last without a bye (40 and 50 have had theirs).
    assert rnd3.byes == (20,)


def test_byes_go_round_before_anyone_gets_a_second() -> None:
    rng = random.Random(3)
    players = list(range(7))
    scores: dict[int, float] = {}
    history = History()
    byes = []
    for _ in range(7):
        rnd = pair_swiss(standing(players, scores), scores, history)
        byes.extend(rnd.byes)
        play_random(rnd, scores, rng)
        history.add(rnd)
    assert sorted(byes) == players


def test_rematch_only_when_unavoidable() -> None:
    # Over many seeded small events, a rematch appears only if brute force finds that
    # every pairing of that round repeats a game.
    for seed in range(30):
        rng = random.Random(seed)
        players = list(range(rng.choice([4, 6, 8])))
        scores: dict[int, float] = {}
        history = History()
        for _ in range(len(players) + 1):
            rnd = pair_swiss(standing(players, scores), scores, history)
            if rematches(rnd, history):
                assert not rematch_free_exists(players, history), (seed, rnd)
            play_random(rnd, scores, rng)
            history.add(rnd)


def test_drop_mid_event_leaves_the_rest_paired() -> None:
    rng = random.Random(5)
    players = list(range(1, 11))
    scores: dict[int, float] = {}
    history = History()
    for r in range(5):
        if r == 2:
            players.remove(4)  # drops after round 2: from now on an odd count
        rnd = pair_swiss(standing(players, scores), scores, history)
        assert_seats_everyone_once(rnd, players)
        assert 4 not in rnd.seated() or r < 2
        assert len(rnd.byes) == len(players) % 2
        assert rematches(rnd, history) == 0
        play_random(rnd, scores, rng)
        history.add(rnd)


def test_sixty_four_players_six_rounds_without_rematch() -> None:
    rng = random.Random(11)
    players = list(range(64))
    scores: dict[int, float] = {}
    history = History()
    for _ in range(6):
        rnd = pair_swiss(standing(players, scores), scores, history)
        assert_seats_everyone_once(rnd, players)
        assert rematches(rnd, history) == 0
        # Pairs never span more than two neighbouring score groups this early.
        groups = sorted(set(scores.get(p, 0) for p in players), reverse=True)
        g = {p: groups.index(scores.get(p, 0)) for p in players}
        assert all(abs(g[t.players[0]] - g[t.players[1]]) <= 1 for t in rnd.tables)
        play_random(rnd, scores, rng)
        history.add(rnd)


def test_who_plays_first_alternates() -> None:
    history = History.of([Round((Table((1, 2)),))])
    rnd = pair_swiss([1, 2], {1: 1}, history)
    # They must meet again (only two players): 2 played second, so now goes first.
    assert rnd.tables[0].players == (2, 1)


def test_table_sizes_balance_when_the_count_does_not_divide() -> None:
    assert table_sizes(9, 4, 3) == ([3, 3, 3], 0)
    assert table_sizes(10, 4, 3) == ([4, 3, 3], 0)
    assert table_sizes(11, 4, 3) == ([4, 4, 3], 0)
    assert table_sizes(13, 5, 3) == ([5, 4, 4], 0)
    assert table_sizes(7, 3, 3) == ([3, 3], 1)
    assert table_sizes(5, 4, 3) == ([4], 1)
    assert table_sizes(2, 4, 3) == ([], 2)
    assert table_sizes(9, 2, 2) == ([2, 2, 2, 2], 1)
    assert table_sizes(0, 4, 3) == ([], 0)


def test_multiplayer_tables_seat_by_standing() -> None:
    players = list(range(1, 11))
    rnd = pair_swiss(players, {}, History(), table_size=4, min_size=3)
    assert [sorted(t.players) for t in rnd.tables] == [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]]
    assert rnd.byes == ()


def test_multiplayer_second_round_avoids_sitting_together_again() -> None:
    # Nine players at tables of three: round 2 can mix everyone (one from each table).
    players = list(range(9))
    history = History()
    rnd1 = pair_swiss(players, {}, history, table_size=3, min_size=3)
    history.add(rnd1)
    scores = {p: 0.0 for p in players}
    for t in rnd1.tables:
        for i, p in enumerate(t.players):
            scores[p] = (2 - i) / 2
    rnd2 = pair_swiss(standing(players, scores), scores, history, table_size=3, min_size=3)
    assert_seats_everyone_once(rnd2, players)
    assert rematches(rnd2, history) == 0


def test_multiplayer_bye_to_the_lowest_ranked_without_one() -> None:
    players = [1, 2, 3, 4, 5]
    rnd = pair_swiss(players, {}, History(), table_size=4, min_size=3)
    assert rnd.byes == (5,)
    history = History.of([rnd])
    rnd2 = pair_swiss([5, 1, 2, 3, 4], {5: 1, 1: 1}, history, table_size=4, min_size=3)
    assert rnd2.byes == (4,)
