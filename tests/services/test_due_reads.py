"""A burst of timeouts reads the deadlines and the players' settings once per batch, and a
wait that changed after that read (a move, a vacation) is never timed out on its strength;
users' settings kept in memory follow /settings, and are not kept where other processes
write the same database."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.clock import ManualClock
from services.session import SessionService
from services.vacation import set_vacation
from storage import Store
from storage.deadlines import DeadlineRow

from .test_clock_batches import DAY, Recorder, game_of, scheduler_for


async def read_when_due(store: Store) -> tuple[SessionService, ManualClock, int, DeadlineRow]:
    """A game whose wait has run out, read by a batch of timeouts (its timeout not run yet)."""
    clock = ManualClock()
    service = SessionService(store, seed_source=lambda: 5, clock=clock)
    game = await game_of(service, 1000, 2000, 500)
    clock.advance(DAY)
    (row,) = await store.due_deadlines(clock.now())
    await service.preload_deadlines([row])
    return service, clock, game, row


async def test_a_batch_of_timeouts_reads_each_games_deadlines_once_in_all(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = ManualClock()
    service = SessionService(store, seed_source=lambda: 5, clock=clock)
    games = [await game_of(service, 1000 + i, 2000 + i, 500 + i) for i in range(5)]
    for g in games:
        service.forget(g)  # as after a restart: nothing in memory
    one_by_one: list[int] = []
    read_game = store.deadlines

    async def deadlines(game: int) -> list[DeadlineRow]:
        one_by_one.append(game)
        return await read_game(game)

    monkeypatch.setattr(store, "deadlines", deadlines)
    rec = Recorder(service)
    clock.advance(DAY)
    done = await scheduler_for(service, rec).tick()
    assert done.timeouts == len(games) and sorted(rec.timed_out) == games
    assert one_by_one == []  # read with the batch, not once per timeout
    for g in games:
        assert (await service.get(g)).version == 1  # the bot's move, once each


async def test_a_move_made_after_the_batch_read_is_not_timed_out(store: Store) -> None:
    service, clock, game, row = await read_when_due(store)
    # Just in time the player moves, and the other answers: the player's new wait has
    # just begun (the batch read the old one).
    answered = False
    while True:
        g = await service.get(game)
        (seat,) = g.pending()
        if g.seat_row(seat).user_id != row.user_id:
            answered = True
        elif answered:
            break
        await service.move(game, g.seat_row(seat).user_id, g.legal_actions(seat)[0])
    moved = g.version
    assert await service.timeout(row) is None
    assert (await service.get(game)).version == moved  # the players' moves only
    (wait,) = await store.deadlines(game)
    assert wait.started_at == clock.now() and wait.reminders == 0


async def test_a_vacation_taken_after_the_batch_read_keeps_the_wait(store: Store) -> None:
    service, clock, game, row = await read_when_due(store)
    await set_vacation(service, row.user_id, 3)  # the clocks stop without a move
    assert await service.timeout(row) is None
    assert (await service.get(game)).version == 0
    (paused,) = await store.deadlines(game)
    assert paused.paused


async def test_kept_settings_follow_the_stores_own_writes(store: Store) -> None:
    store.keep_user_settings(2)
    assert (await store.user_settings(1)).notify == "channel"
    await store.update_user(1, notify="dm")
    assert (await store.user_settings(1)).notify == "dm"
    both = await store.users_settings([1, 2, 3])  # more than are kept
    assert [both[u].notify for u in (1, 2, 3)] == ["dm", "channel", "channel"]
    await store.update_user(1, notify="none")
    assert (await store.users_settings([1]))[1].notify == "none"


async def test_settings_are_read_each_time_where_other_processes_write_them(tmp_path: Path) -> None:
    here = await Store.open(tmp_path / "shared.db")
    there = await Store.open(tmp_path / "shared.db")
    try:
        service = SessionService(here, clock=ManualClock())
        service.shared = True
        assert (await here.user_settings(7)).notify == "channel"
        await there.update_user(7, notify="dm")  # /settings answered by the other process
        assert (await here.user_settings(7)).notify == "dm"
        assert (await here.users_settings([7]))[7].notify == "dm"
    finally:
        await here.close()
        await there.close()
