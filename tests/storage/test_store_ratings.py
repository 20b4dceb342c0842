"""Results and ratings storage: one result per game, leaderboard, records, recomputation."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core import Outcome, tr
from services.ratings import RatedSeat, recompute_server, record_finished_game
from storage import Store
from storage.ratings import DuplicateResult, PlaceRow, RatingChange, RatingStore
from tests.storage.conftest import raw_fetch

WHY = tr("fin", "end")


async def _game(store: Store, channel: int, guild: int | None = 1) -> int:
    g = await store.create_game(
        guild_id=guild,
        channel_id=channel,
        game_id="rattus_cartus",
        options={},
        host_id=1,
        locale="es",
    )
    return g.id


def outcome(ranking, scores=None) -> Outcome:
    return Outcome(ranking=ranking, scores=scores or {}, reason=WHY)


async def test_a_rated_game_stores_result_ratings_and_history(store: Store) -> None:
    rs = RatingStore(store)
    g = await _game(store, 10)
    seats = [RatedSeat(100), RatedSeat(200), RatedSeat(300)]
    changes = await record_finished_game(
        rs,
        game=g,
        guild_id=1,
        game_id="rattus_cartus",
        seats=seats,
        outcome=outcome([[1], [0, 2]], {0: 10, 1: 14, 2: 10}),
    )
    assert {c.user_id for c in changes} == {100, 200, 300}
    ratings = await rs.ratings_of(1, "rattus_cartus", [100, 200, 300, 400])
    assert set(ratings) == {100, 200, 300}
    assert ratings[200].conservative > ratings[100].conservative == ratings[300].conservative
    assert ratings[200].games == 1
    board = await rs.leaderboard(1, "rattus_cartus")
    assert [r.user_id for r in board][0] == 200
    [res] = await rs.results(1)
    assert res.rated and not res.nobody_won
    assert [(p.user_id, p.place, p.score) for p in res.places] == [
        (100, 1, 10.0),
        (200, 0, 14.0),
        (300, 1, 10.0),
    ]
    with pytest.raises(DuplicateResult):
        await record_finished_game(
            rs, game=g, guild_id=1, game_id="rattus_cartus", seats=seats, outcome=outcome([[0]])
        )


async def test_ai_game_and_empty_ranking_are_stored_but_not_rated(store: Store) -> None:
    rs = RatingStore(store)
    g1, g2, g3 = await _game(store, 11), await _game(store, 12), await _game(store, 13, None)
    ai = [RatedSeat(100), RatedSeat(None, ai=True)]
    assert (
        await record_finished_game(
            rs, game=g1, guild_id=1, game_id="rattus_cartus", seats=ai, outcome=outcome([[0], [1]])
        )
        == []
    )
    humans = [RatedSeat(100), RatedSeat(200)]
    assert (
        await record_finished_game(
            rs, game=g2, guild_id=1, game_id="rattus_cartus", seats=humans, outcome=outcome([])
        )
        == []
    )
    assert (
        await record_finished_game(
            rs,
            game=g3,
            guild_id=None,
            game_id="rattus_cartus",
            seats=humans,
            outcome=outcome([[0], [1]]),
        )
        == []
    )
    assert await rs.ratings_of(1, "rattus_cartus", [100, 200]) == {}
    results = await rs.results(1)
    assert [r.nobody_won for r in results] == [False, True]
    assert results[0].places[1].user_id is None
    rec = await rs.record(1, "rattus_cartus", 100)
    assert (rec.games, rec.wins) == (2, 1)
    assert [(g, place) for g, place, _ in rec.recent] == [(g2, None), (g1, 0)]


async def test_record_counts_shared_first_as_no_win(store: Store) -> None:
    rs = RatingStore(store)
    g = await _game(store, 10)
    await record_finished_game(
        rs,
        game=g,
        guild_id=1,
        game_id="rattus_cartus",
        seats=[RatedSeat(1), RatedSeat(2)],
        outcome=outcome([[0, 1]]),
    )
    rec = await rs.record(1, "rattus_cartus", 1)
    assert (rec.games, rec.wins, rec.recent) == (1, 0, ((g, 0, 2),))


async def test_changes_for_an_unrated_game_are_refused(store: Store) -> None:
    rs = RatingStore(store)
    g = await _game(store, 10, None)
    change = RatingChange(1, 1500, 500, 1600, 480, 160, 1)
    with pytest.raises(ValueError):
        await rs.record_result(
            game=g, guild_id=None, game_id="x", places=[PlaceRow(0, 1, 0)], changes=[change]
        )


async def test_recompute_rebuilds_the_same_ratings_and_survives_reopen(db_target: str | Path) -> None:
    path = db_target
    store = await Store.open(path)
    rs = RatingStore(store)
    plays = [
        ([1, 2], [[0], [1]]),
        ([2, 3, 4], [[2], [0], [1]]),
        ([1, 3], [[0, 1]]),
        ([4, 1, 2, 3], [[3], [1, 2], [0]]),
    ]
    for i, (users, ranking) in enumerate(plays):
        g = await _game(store, 100 + i)
        await record_finished_game(
            rs,
            game=g,
            guild_id=7,
            game_id="rattus_cartus",
            seats=[RatedSeat(u) for u in users],
            outcome=outcome(ranking),
        )
    other = await _game(store, 200, guild=8)
    await record_finished_game(
        rs,
        game=other,
        guild_id=8,
        game_id="rattus_cartus",
        seats=[RatedSeat(1), RatedSeat(2)],
        outcome=outcome([[1], [0]]),
    )
    before = await rs.leaderboard(7, "rattus_cartus", limit=50)
    history = list(
        await raw_fetch(store, "SELECT * FROM rating_history ORDER BY game, user_id")
    )
    await store.close()

    store = await Store.open(path)
    rs = RatingStore(store)
    try:
        assert await rs.leaderboard(7, "rattus_cartus", limit=50) == before
        # Wipe one rating by hand, then recompute: everything comes back, to the float.
        await raw_fetch(store, "UPDATE ratings SET mu = 0 WHERE guild_id = 7 AND user_id = 1")
        assert await recompute_server(rs, 7) == 4
        after = await rs.leaderboard(7, "rattus_cartus", limit=50)
        assert [(r.user_id, r.mu, r.sigma, r.games) for r in after] == [
            (r.user_id, r.mu, r.sigma, r.games) for r in before
        ]
        assert (
            list(
                await raw_fetch(store, "SELECT * FROM rating_history ORDER BY game, user_id")
            )
            == history
        )
        # Another server's ratings were not touched.
        assert len(await rs.leaderboard(8, "rattus_cartus")) == 2
        mine = await rs.player_ratings(7, 1)
        assert [r.game_id for r in mine] == ["rattus_cartus"]
    finally:
        await store.close()
