"""The bounded game cache: the least recently used games are let go, a game let go is read
again exactly as it was, and a game being changed is never the one let go."""

from __future__ import annotations

import dataclasses

from services.session import SessionService
from storage import Store

CACHE = 3


async def started(service: SessionService, i: int, *, ai: bool = False) -> int:
    g = await service.create(guild_id=1, channel_id=100 + i, game_id="rey_hierofante", options={},
                             host_id=1000 + i, host_name=f"p{i}", locale="es", clock_seconds=86400)
    if ai:
        await service.add_ai(g.id, by=1000 + i)
    else:
        await service.join(g.id, user_id=2000 + i, name=f"q{i}", locale="en")
    await service.start(g.id, by=1000 + i)
    return g.id


def snapshot(service: SessionService, game: int) -> tuple[object, ...]:
    g = service.cached(game)
    assert g is not None and g.state is not None
    # The state is compared decoded (below); updated_at is the store's bookkeeping, not the game.
    row = dataclasses.replace(g.row, state=None, updated_at=0.0)
    return row, tuple(g.seats), g.engine.dump_state(g.state)


async def play_one(service: SessionService, game: int) -> None:
    """The waited-on human's first legal move."""
    g = await service.require(game)
    seat = next(s for s in g.pending() if not g.seat_row(s).ai)
    await service.move(game, g.seat_row(seat).user_id or 0, g.legal_actions(seat)[0])


async def test_the_least_recently_used_games_are_let_go(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 4, cache_size=CACHE)
    games = [await started(service, i) for i in range(6)]
    assert len(service._games) == CACHE
    assert [g for g in games if service.cached(g) is not None] == games[-CACHE:]
    await service.get(games[3])  # touched: now the most recently used
    await service.get(games[0])  # read again; games[4] is now the least recently used
    assert service.cached(games[4]) is None and service.cached(games[3]) is not None


async def test_a_game_let_go_is_read_again_exactly_as_it_was(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 4, cache_size=CACHE)
    game = await started(service, 0, ai=True)
    for _ in range(3):
        await play_one(service, game)
    before = snapshot(service, game)
    for i in range(1, CACHE + 2):
        await started(service, i)
    assert service.cached(game) is None
    await service.get(game)
    assert snapshot(service, game) == before
    await play_one(service, game)  # and play goes on from there
    g = service.cached(game)
    assert g is not None and (await store.get_game(game)).version == g.version  # type: ignore[union-attr]


async def test_a_game_being_changed_is_not_let_go(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 4, cache_size=CACHE)
    busy = await started(service, 0)
    held = service.cached(busy)
    async with service.lock(busy):
        for i in range(1, 2 * CACHE):
            await started(service, i)
        assert service.cached(busy) is held  # the one copy everyone changing it shares
    assert len(service._games) <= CACHE + 1


async def test_preload_reads_many_games_at_once_as_get_would(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 4, cache_size=10)
    games = [await started(service, i) for i in range(4)]
    expected = {g: snapshot(service, g) for g in games}
    fresh = SessionService(store, seed_source=lambda: 4, cache_size=10)
    await fresh.preload(games)
    assert {g: snapshot(fresh, g) for g in games} == expected
