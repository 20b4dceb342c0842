"""A game cache shared with other processes (``shared``) on both backends: whatever another
store connection writes to a game's row or seats is seen at the next ``get``; the process's
own commits leave its copy trusted (its stamp, storage/stamps.py), not read again."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services.session import SessionService
from storage import Store
from tests.storage.conftest import backend, db_target, pg  # noqa: F401 (fixtures used here)

from .test_game_cache import play_one, started

READS = ("game_stamp", "get_game", "seats")


@pytest.fixture
async def stores(db_target: str | Path) -> AsyncIterator[tuple[Store, Store]]:  # noqa: F811
    """Two connections to one database, as two processes have."""
    a = await Store.open(db_target)
    b = await Store.open(db_target)
    yield a, b
    await a.close()
    await b.close()


def shared(store: Store) -> SessionService:
    service = SessionService(store, seed_source=lambda: 4)
    service.shared = True
    return service


def count_reads(store: Store, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each of the reads that ``get`` can make is made on ``store``."""
    counts: Counter[str] = Counter()
    for name in READS:
        real = getattr(store, name)

        async def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            counts[_name] += 1
            return await _real(*args)

        monkeypatch.setattr(store, name, counted)
    return counts


async def test_a_seat_written_by_another_connection_is_seen(stores: tuple[Store, Store]) -> None:
    a_store, b_store = stores
    a = shared(a_store)
    game = await started(a, 0)
    assert not (await a.require(game)).seats[1].dm_closed
    await b_store.set_dm_closed(game, 1, True)
    assert (await a.require(game)).seats[1].dm_closed


async def test_a_lobby_seat_taken_through_another_connection_is_seen(
    stores: tuple[Store, Store],
) -> None:
    a_store, b_store = stores
    a = shared(a_store)
    g = await a.create(guild_id=1, channel_id=5, game_id="rey_hierofante", options={}, host_id=1,
                       host_name="p", locale="es")
    assert len((await a.require(g.id)).seats) == 1
    await b_store.add_seat(g.id, user_id=2, name="q")
    assert [s.user_id for s in (await a.require(g.id)).seats] == [1, 2]


async def test_a_move_made_by_another_process_is_seen(stores: tuple[Store, Store]) -> None:
    a_store, b_store = stores
    a, b = shared(a_store), shared(b_store)
    game = await started(a, 0)
    await a.require(game)
    await play_one(b, game)
    ga, gb = await a.require(game), await b.require(game)
    assert ga.version == gb.version == 1
    assert ga.engine.dump_state(ga.state) == gb.engine.dump_state(gb.state)


async def test_a_write_by_another_between_a_read_and_an_own_commit_is_not_hidden(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    a_store, b_store = stores
    a = shared(a_store)
    game = await started(a, 0)
    commit = a_store.commit_moves

    async def others_write_first(*args: Any, **kwargs: Any) -> int:
        # Another process marks bob's messages refused after this one read the game for
        # its move and before the move commits: the move lands (a seat's mark is no move).
        await b_store.set_dm_closed(game, 1, True)
        return await commit(*args, **kwargs)

    monkeypatch.setattr(a_store, "commit_moves", others_write_first)
    await play_one(a, game)
    monkeypatch.setattr(a_store, "commit_moves", commit)
    g = await a.require(game)
    assert g.version == 1 and g.seats[1].dm_closed


async def test_own_commits_are_not_read_again(
    stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch
) -> None:
    a_store, _ = stores
    a = shared(a_store)
    lobby = await a.create(guild_id=1, channel_id=5, game_id="rey_hierofante", options={},
                           host_id=1, host_name="p", locale="es")
    game = await started(a, 1)
    await a.require(game)
    reads = count_reads(a_store, monkeypatch)
    for _ in range(3):
        await play_one(a, game)
        await a.require(game)
    await a.set_dm_closed(game, 1, True)
    await a.set_board_message(game, 101, 42)
    g = await a.require(game)
    assert g.seats[1].dm_closed and g.row.board_message_id == 42
    # The moves read nothing but stamps; set_dm_closed reads the seats it wrote, once.
    assert reads == Counter(game_stamp=reads["game_stamp"], seats=1)
    assert reads["game_stamp"] >= 5
    reads.clear()
    await a.join(lobby.id, user_id=7, name="q", locale="es")
    await a.leave(lobby.id, user_id=7)
    await a.require(lobby.id)
    # Each change of seats reads the seats it changed, and nothing is read again after.
    assert reads == Counter(game_stamp=reads["game_stamp"], seats=2)


async def test_a_lone_process_never_reads_stamps(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = SessionService(store, seed_source=lambda: 4)
    game = await started(service, 0)
    reads = count_reads(store, monkeypatch)
    await play_one(service, game)
    await service.require(game)
    assert reads["game_stamp"] == reads["get_game"] == 0


async def test_a_game_asked_for_while_its_own_write_is_read_back_is_never_the_old_one(
        stores: tuple[Store, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    a_store, _ = stores
    a = shared(a_store)
    g = await a.create(guild_id=1, channel_id=100, game_id="rey_hierofante", options={},
                       host_id=1000, host_name="ana", locale="es")
    await a.get(g.id)
    # The join's read of the seats it wrote waits; meanwhile another task asks for the game.
    reading, go = asyncio.Event(), asyncio.Event()
    real = a_store.seats

    async def slow(game: int) -> Any:
        if not reading.is_set():  # the join's read (the first after it) waits to be let go
            reading.set()
            await go.wait()
        return await real(game)

    monkeypatch.setattr(a_store, "seats", slow)
    join = asyncio.create_task(a.join(g.id, user_id=2000, name="bea", locale="es"))
    await reading.wait()
    meanwhile = await a.get(g.id)
    assert meanwhile is not None and [s.name for s in meanwhile.seats] == ["ana", "bea"]
    go.set()
    await join
    assert [s.name for s in (await a.require(g.id)).seats] == ["ana", "bea"]
