"""Moves of many games through the session service at once: they share commits (group
commit), each lands with its own version, log and outbox row, and a stale one is refused
alone while the others of its commit land."""

from __future__ import annotations

import asyncio

import pytest

from rules.core import StaleAction
from services.session import Game, SessionService
from storage import Store


async def started(session: SessionService, n: int) -> list[Game]:
    """``n`` Rey y Hierofante games between two humans, started."""
    games = []
    for i in range(n):
        g = await session.create(guild_id=1, channel_id=500 + i, game_id="rey_hierofante",
                                 options={}, host_id=1000 + i, host_name="Ana", locale="es")
        await session.join(g.id, user_id=2000 + i, name="Bea", locale="en")
        await session.start(g.id, by=1000 + i)
        games.append(g)
    return games


async def play_one(session: SessionService, g: Game) -> int:
    """The first legal move of whoever is pending; the version it produced."""
    seat = sorted(g.pending())[0]
    user = g.seat_row(seat).user_id
    assert user is not None
    result = await session.move(g.id, user, g.legal_actions(seat)[0], g.version)
    assert result.change is not None and result.change.id is not None
    return result.steps[-1].version


async def test_many_games_moving_at_once_land_with_their_logs_and_outbox_rows(store: Store) -> None:
    session = SessionService(store, seed_source=lambda: 5)
    games = await started(session, 10)
    start = {g.id: g.version for g in games}
    assert store._group is not None
    before = store._group.batches

    async def play(g: Game, moves: int) -> list[int]:
        return [await play_one(session, g) for _ in range(moves)]

    results = await asyncio.gather(*(play(g, 3) for g in games))
    assert store._group.batches - before < 30  # 30 moves shared commits
    for g, versions in zip(games, results, strict=True):
        assert versions == [start[g.id] + 1, start[g.id] + 2, start[g.id] + 3]
        row = await store.get_game(g.id)
        assert row is not None and row.version == g.version == versions[-1]
        assert row.state == g.engine.dump_state(g.state)
        assert [a.seq for a in await store.actions(g.id)][-3:] == versions
        # The start's change and one per move, each naming the versions it covers.
        changes = await store.open_changes(g.id)
        assert [(c.payload["from"], c.payload["to"]) for c in changes][-3:] == [
            (v - 1, v) for v in versions
        ]


async def test_a_stale_move_is_refused_alone_and_the_rest_of_its_commit_lands(store: Store) -> None:
    # Two services on one store, as two processes would be: the second one's copy of game
    # 0 goes stale when the first moves it; its move then fails in a commit it shares.
    first = SessionService(store, seed_source=lambda: 5)
    games = await started(first, 4)
    second = SessionService(store, seed_source=lambda: 5)
    theirs = [await second.require(g.id) for g in games]
    await play_one(first, games[0])
    versions = [g.version for g in theirs]
    assert store._group is not None
    before = store._group.batches
    results = await asyncio.gather(*(play_one(second, g) for g in theirs),
                                   return_exceptions=True)
    assert store._group.batches - before == 1
    assert isinstance(results[0], StaleAction)
    assert results[1:] == [v + 1 for v in versions[1:]]
    assert (await store.get_game(games[0].id)).version == games[0].version  # the first's move
    for g, v in zip(games[1:], versions[1:], strict=True):
        assert (await store.get_game(g.id)).version == v + 1
    # The refused one wrote no outbox row; its game reloads and plays on.
    assert len(await store.open_changes(games[0].id)) == 2  # the start and the first's move
    fresh = await second.require(games[0].id)
    assert await play_one(second, fresh) == games[0].version + 1


@pytest.mark.parametrize("group", [True, False])
async def test_moves_land_the_same_with_group_commit_on_or_off(tmp_path, group: bool) -> None:
    store = await Store.open(tmp_path / "t.db", group_commit=group)
    try:
        session = SessionService(store, seed_source=lambda: 5)
        games = await started(session, 3)
        await asyncio.gather(*(play_one(session, g) for g in games))
        await asyncio.gather(*(play_one(session, g) for g in games))
        for g in games:
            assert (await store.get_game(g.id)).state == g.engine.dump_state(g.state)
    finally:
        await store.close()
