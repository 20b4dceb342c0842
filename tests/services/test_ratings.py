"""Ratings: OpenSkill Plackett-Luce on our scale, ties, multiplayer, AI and empty rankings."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from services.ratings import (
    SCALE,
    RatedSeat,
    Rating,
    ranks_for,
    rate,
    replay,
    seats_and_ranking,
)
from storage.ratings import PlaceRow, ResultRow

H = [RatedSeat(u) for u in (11, 22, 33, 44, 55)]


def test_a_new_player_shows_zero() -> None:
    assert Rating().conservative == 0


def test_two_players_winner_up_loser_down() -> None:
    new = rate({}, H[:2], [[0], [1]])
    assert new is not None
    w, lo = new[11], new[22]
    assert w.mu > Rating().mu > lo.mu
    assert w.sigma < Rating().sigma and lo.sigma < Rating().sigma
    assert w.games == lo.games == 1
    assert isinstance(w.conservative, int) and w.conservative > lo.conservative
    # Symmetric for two equal newcomers.
    assert w.mu - Rating().mu == pytest.approx(Rating().mu - lo.mu)


def test_our_scale_is_openskill_default_times_sixty() -> None:
    plain = PlackettLuce()
    a, b, c = plain.rating(), plain.rating(), plain.rating()
    [[a2], [b2], [c2]] = plain.rate([[a], [b], [c]], ranks=[2, 1, 3])
    new = rate({}, H[:3], [[1], [0], [2]])
    assert new is not None
    assert new[11].mu == pytest.approx(a2.mu * SCALE)
    assert new[22].mu == pytest.approx(b2.mu * SCALE)
    assert new[33].sigma == pytest.approx(c2.sigma * SCALE)


def test_a_draw_between_equals_moves_no_estimate() -> None:
    new = rate({}, H[:2], [[0, 1]])
    assert new is not None
    assert new[11].mu == pytest.approx(Rating().mu)
    assert new[11] == new[22]


def test_multiplayer_order_and_shared_places() -> None:
    new = rate({}, H[:4], [[2], [0, 3], [1]])
    assert new is not None
    assert new[33].mu > new[11].mu == new[44].mu > new[22].mu
    assert new[11] == new[44]  # tied equals stay equal


def test_seats_missing_from_the_ranking_are_last() -> None:
    assert ranks_for(H[:3], [[1]]) == [2, 1, 2]


def test_ai_seat_leaves_the_game_unrated() -> None:
    seats = [RatedSeat(11), RatedSeat(None, ai=True)]
    assert rate({}, seats, [[0], [1]]) is None
    assert rate({}, [RatedSeat(11), RatedSeat(22, ai=True)], [[0], [1]]) is None


def test_a_game_nobody_wins_is_not_rated() -> None:
    assert rate({}, H[:3], []) is None


def test_one_player_or_the_same_player_twice_is_not_rated() -> None:
    assert rate({}, H[:1], [[0]]) is None
    assert rate({}, [RatedSeat(11), RatedSeat(11)], [[0], [1]]) is None


def test_ratings_build_on_the_current_ones() -> None:
    strong = Rating(mu=2500.0, sigma=100.0, games=40)
    upset = rate({11: strong}, H[:2], [[1], [0]])
    expected = rate({11: strong}, H[:2], [[0], [1]])
    assert upset is not None and expected is not None
    # Losing to a newcomer costs a strong player more than beating one earns.
    assert strong.mu - upset[11].mu > expected[11].mu - strong.mu
    assert upset[11].games == 41


def result(game: int, places: list[tuple[int | None, int | None]], *, rated=True, guild=1):
    return ResultRow(
        game,
        guild,
        "rattus_cartus",
        float(game),
        all(p is None for _, p in places),
        rated,
        tuple(PlaceRow(i, u, p) for i, (u, p) in enumerate(places)),
    )


def test_stored_places_back_to_seats_and_ranking() -> None:
    seats, ranking = seats_and_ranking(result(1, [(11, 1), (None, 0), (33, 1)]).places)
    assert seats == [RatedSeat(11), RatedSeat(None, True), RatedSeat(33)]
    assert ranking == [[1], [0, 2]]


def test_replay_matches_game_by_game_rating_and_skips_unrated() -> None:
    results = [
        result(1, [(11, 0), (22, 1)]),
        result(2, [(22, 0), (33, 1), (11, 2)]),
        result(3, [(11, 0), (None, 1)]),  # AI seat
        result(4, [(11, None), (22, None)]),  # nobody won
        result(5, [(33, 0), (11, 1)], rated=False),  # unrated tournament
        result(6, [(33, 0), (22, 1)]),
    ]
    out = replay(results)
    assert [g for g, *_ in out] == [1, 2, 6]
    current: dict[int, Rating] = {}
    for seats_places in ([(11, 0), (22, 1)], [(22, 0), (33, 1), (11, 2)], [(33, 0), (22, 1)]):
        seats, ranking = seats_and_ranking(result(0, seats_places).places)
        current.update(rate(current, seats, ranking) or {})
    last = {c.user_id: c for _, _, _, cs in out for c in cs}
    assert {u: (c.mu, c.sigma, c.games) for u, c in last.items()} == {
        u: (r.mu, r.sigma, r.games) for u, r in current.items()
    }
    # Each change starts where the previous one of that player ended.
    first_of_22_in_game_2 = next(c for c in out[1][3] if c.user_id == 22)
    after_game_1 = next(c for c in out[0][3] if c.user_id == 22)
    assert first_of_22_in_game_2.mu_before == after_game_1.mu


def test_the_shown_rating_starts_every_newcomer_at_1000_and_is_never_negative() -> None:
    from services.ratings import Rating, shown_rating

    assert Rating().conservative == 0 and Rating().shown == 1000
    loser = Rating(mu=Rating().mu - 2000)  # far below any real player
    assert loser.conservative < -1000 and loser.shown == 1
    assert shown_rating(-316) == 684 and shown_rating(250) == 1250
