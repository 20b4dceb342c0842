"""Single and double elimination: seeding, byes, walkovers, drops, the bracket reset."""

from __future__ import annotations

import pytest

from services.pairing import bracket_from, double_elimination, single_elimination
from services.pairing.elimination import seed_positions


def play(bracket, winner_of) -> list[list[tuple[str, int, int]]]:
    """Play the bracket to the end; winner_of(key, a, b) picks each winner."""
    rounds = []
    while not bracket.finished():
        ready = bracket.playable()
        assert ready, "a bracket with no champion always has a match to play"
        rounds.append(ready)
        for key, a, b in ready:
            bracket.record(key, winner_of(key, a, b))
    return rounds


def test_seed_positions_meet_first_and_last() -> None:
    assert seed_positions(2) == [0, 1]
    assert seed_positions(4) == [0, 3, 1, 2]
    assert seed_positions(8) == [0, 7, 3, 4, 1, 6, 2, 5]


def test_single_elimination_byes_go_to_the_top_seeds() -> None:
    seeds = [101, 102, 103, 104, 105, 106]  # 101 is seed 1
    b = single_elimination(seeds)
    first = b.playable()
    # Seeds 1 and 2 have byes; 4 meets 5, 3 meets 6.
    assert [(a, c) for _, a, c in first] == [(104, 105), (103, 106)]


def test_single_elimination_favourites_reach_the_final() -> None:
    seeds = list(range(1, 9))
    b = single_elimination(seeds)
    rounds = play(b, lambda k, a, c: min(a, c))
    assert len(rounds) == 3
    assert [(a, c) for _, a, c in rounds[-1]] == [(1, 2)]
    assert b.champion() == 1
    places = b.placements()
    assert places[1] == 1 and places[2] == 2
    assert places[3] == places[4] == 3
    assert {places[p] for p in (5, 6, 7, 8)} == {5}


def test_record_refuses_a_match_not_waiting_or_a_wrong_winner() -> None:
    b = single_elimination([1, 2, 3, 4])
    with pytest.raises(ValueError):
        b.record("W2.0", 1)
    with pytest.raises(ValueError):
        b.record("W1.0", 2)  # W1.0 is 1 against 4


def test_a_drop_is_a_walkover_for_the_opponent() -> None:
    b = single_elimination([1, 2, 3, 4])
    b.drop(4)
    assert [(a, c) for _, a, c in b.playable()] == [(2, 3)]
    b.record("W1.1", 3)
    assert [(a, c) for _, a, c in b.playable()] == [(1, 3)]
    # Drop mid-event: the finalist leaves; the other wins without playing.
    b.drop(3)
    assert b.champion() == 1
    assert b.placements()[3] == 2


def test_double_elimination_everyone_loses_twice_but_the_champion() -> None:
    seeds = list(range(1, 9))
    b = double_elimination(seeds)
    # The lower id always wins but 1 loses the first final to the losers' champion once.
    gf_played = []

    def winner(key, a, c):
        if key == "GF":
            gf_played.append((a, c))
            return c  # the losers' champion takes the first final: reset
        return min(a, c)

    play(b, winner)
    assert gf_played == [(1, 2)]
    assert b.champion() == 1  # won the reset
    losses = {p: 0 for p in seeds}
    res = b.resolve()
    for _, _, _, loser in res.values():
        if isinstance(loser, int):
            losses[loser] += 1
    assert losses[1] == 1
    assert all(losses[p] == 2 for p in seeds if p != 1)
    places = b.placements()
    assert places[1] == 1 and places[2] == 2 and places[3] == 3


def test_double_elimination_no_reset_when_the_winners_champion_wins() -> None:
    b = double_elimination([1, 2, 3, 4])
    rounds = play(b, lambda k, a, c: min(a, c))
    assert "GF2" not in {k for r in rounds for k, _, _ in r}
    assert b.champion() == 1
    assert b.placements() == {1: 1, 2: 2, 3: 3, 4: 4}


def test_double_elimination_with_byes_and_odd_counts() -> None:
    for n in range(2, 17):
        b = double_elimination(list(range(n)))
        play(b, lambda k, a, c: max(a, c))
        assert sorted(b.placements()) == list(range(n))
        assert b.champion() == n - 1


def test_double_elimination_drop_in_the_losers_bracket() -> None:
    b = double_elimination(list(range(1, 9)))
    for key, a, c in b.playable():
        b.record(key, min(a, c))
    # 8 lost to 1 in round 1 and drops: their losers' match is a walkover.
    b.drop(8)
    playable = b.playable()
    assert all(8 not in (a, c) for _, a, c in playable)
    play(b, lambda k, a, c: min(a, c))
    assert b.champion() == 1
    assert 8 in b.placements()


def test_rebuilt_bracket_matches_the_played_one() -> None:
    b = double_elimination(list(range(1, 7)))
    for _ in range(3):
        for key, a, c in b.playable():
            b.record(key, max(a, c))
    again = bracket_from("double", b.seeds, dict(b.results), b.dropped)
    assert again.resolve() == b.resolve()
    assert again.playable() == b.playable()


def test_brackets_need_two_players() -> None:
    with pytest.raises(ValueError):
        single_elimination([1])
    with pytest.raises(ValueError):
        double_elimination([])
