"""The turn clock with a real store and real engines, driven by a manual clock (no sleeps)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from services.clock import ManualClock, Scheduler, new_wait, next_at, reminder_times
from services.session import Refusal, SessionService
from services.vacation import set_vacation
from storage import Store
from storage.deadlines import DeadlineRow

ALICE, BOB = 101, 202
HOUR = 3600.0
DAY = 24 * HOUR


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


class Recorder:
    """Stands in for the Discord side: records reminders and applies timeouts."""

    def __init__(self, service: SessionService) -> None:
        self.service = service
        self.reminders: list[DeadlineRow] = []
        self.results: list = []

    async def remind(self, row: DeadlineRow) -> None:
        self.reminders.append(row)

    async def expire(self, row: DeadlineRow) -> bool:
        result = await self.service.timeout(row)
        if result is None:
            return False
        self.results.append(result)
        return True


def make(store: Store, clock: ManualClock) -> tuple[SessionService, Scheduler, Recorder]:
    service = SessionService(store, seed_source=lambda: 1234, clock=clock)
    rec = Recorder(service)
    return service, Scheduler(store, clock, rec.remind, rec.expire), rec


async def started(service: SessionService, *, clock: int | None = int(DAY), action: str = "ai",
                  game_id: str = "rey_hierofante") -> int:
    g = await service.create(guild_id=1, channel_id=900, game_id=game_id, options={}, host_id=ALICE,
                             host_name="alice", locale="es", clock_seconds=clock, timeout_action=action)
    await service.join(g.id, user_id=BOB, name="bob", locale="en")
    await service.start(g.id, by=ALICE)
    return g.id


def pending_seat(service: SessionService, game: int) -> int:
    g = service.cached(game)
    assert g is not None
    (seat,) = g.pending()
    return seat


def test_reminders_fall_at_half_and_shortly_before_the_end() -> None:
    row = new_wait(1, 0, ALICE, 1000.0, DAY)
    first, second = reminder_times(row)
    assert first == 1000.0 + DAY / 2
    assert second == 1000.0 + DAY - 2 * HOUR  # the last call: two hours before, at most
    short = new_wait(1, 0, ALICE, 0.0, 12 * HOUR)
    assert reminder_times(short)[1] == 12 * HOUR - HOUR  # a twelfth of a 12 h clock
    assert row.next_at == first and next_at(row) == first


async def test_a_pending_seat_gets_a_deadline_only_with_a_clock(store: Store, clock: ManualClock) -> None:
    service, _, _ = make(store, clock)
    game = await started(service)
    seat = pending_seat(service, game)
    (row,) = await store.deadlines(game)
    assert (row.seat, row.started_at, row.due_at) == (seat, clock.now(), clock.now() + DAY)
    free = await service.create(guild_id=1, channel_id=901, game_id="rey_hierofante", options={},
                                host_id=ALICE, host_name="alice", locale="es")
    await service.join(free.id, user_id=BOB, name="bob", locale="en")
    await service.start(free.id, by=ALICE)
    assert await store.deadlines(free.id) == []


async def test_the_deadline_moves_to_whoever_must_act(store: Store, clock: ManualClock) -> None:
    service, _, _ = make(store, clock)
    game = await started(service)
    first = pending_seat(service, game)
    clock.advance(HOUR)
    g = service.cached(game)
    assert g is not None
    while pending_seat(service, game) == first:
        await service.move(game, g.seat_row(first).user_id, g.legal_actions(first)[-1])
    (row,) = await store.deadlines(game)
    assert row.seat != first and row.started_at == clock.now()


async def test_two_reminders_then_the_bot_plays_and_the_seat_stays_the_players(
    store: Store, clock: ManualClock
) -> None:
    service, scheduler, rec = make(store, clock)
    game = await started(service)
    seat = pending_seat(service, game)
    assert (await scheduler.tick()).reminders == 0
    clock.advance(DAY / 2)
    assert (await scheduler.tick()).reminders == 1
    assert (await scheduler.tick()).reminders == 0  # the same reminder never twice
    clock.advance(DAY / 2 - 2 * HOUR)
    assert (await scheduler.tick()).reminders == 1
    clock.advance(HOUR)
    assert (await scheduler.tick()).reminders == 0  # never more than two per turn
    assert [r.reminders for r in rec.reminders] == [1, 2]
    clock.advance(HOUR)
    done = await scheduler.tick()
    assert done.timeouts == 1 and not rec.results[0].dropped
    assert rec.results[0].timed_out == seat
    g = service.cached(game)
    assert g is not None
    assert not g.seat_row(seat).ai  # the seat stays the player's
    assert seat not in g.pending() or g.version > 0
    assert (await scheduler.tick()).timeouts == 0


async def test_drop_gives_the_seat_to_the_bot_for_good(store: Store, clock: ManualClock) -> None:
    service, scheduler, rec = make(store, clock)
    game = await started(service, action="drop")
    seat = pending_seat(service, game)
    clock.advance(DAY + 1)
    assert (await scheduler.tick()).timeouts == 1
    g = service.cached(game)
    assert g is not None
    row = g.seat_row(seat)
    assert row.ai and row.dropped and row.user_id is not None
    assert g.seat_of(row.user_id) is None  # the player can no longer move there
    assert all(d.seat != seat for d in await store.deadlines(game))
    # The bot played the seat's turn: the game went on to the other player.
    assert g.pending() and seat not in g.pending()


async def test_a_reaction_window_that_times_out_is_a_no(store: Store, clock: ManualClock) -> None:
    service, scheduler, rec = make(store, clock)
    game = await started(service)
    g = service.cached(game)
    assert g is not None
    # Rey y Hierofante asks the placer whether to use a tile's effect; treat that question
    # as a window asked out of turn, which the clock must answer "no".
    service.is_reaction = lambda g, seat: any(a.kind == "decline" for a in g.legal_actions(seat))
    for _ in range(60):
        seat = pending_seat(service, game)
        actions = g.legal_actions(seat)
        if any(a.kind == "decline" for a in actions):
            break
        await service.move(game, g.seat_row(seat).user_id, actions[0])
    else:
        raise AssertionError("no effect to decline came up")
    clock.advance(DAY + 1)
    assert (await scheduler.tick()).timeouts == 1
    step = rec.results[0].steps[0]
    assert step.action.kind == "decline" and step.ai and step.seat == seat


async def test_a_restart_goes_on_with_the_clock_and_fires_once(tmp_path: Path, clock: ManualClock) -> None:
    path = tmp_path / "t.db"
    store = await Store.open(path)
    service, _, _ = make(store, clock)
    game = await started(service)
    await store.close()
    clock.advance(2 * DAY)  # the deadline passes while the bot is down
    store = await Store.open(path)
    try:
        service, scheduler, rec = make(store, clock)
        first = await scheduler.tick()
        # Both reminders are due too: the overdue wait is handled in one go, and only once.
        assert first.timeouts == 1
        assert (await scheduler.tick()).timeouts == 0
        g = await service.get(game)
        assert g is not None and g.version > 0
    finally:
        await store.close()


async def test_two_schedulers_on_one_store_fire_each_deadline_once(store: Store, clock: ManualClock) -> None:
    service, s1, rec1 = make(store, clock)
    game = await started(service)
    s2 = Scheduler(store, clock, rec1.remind, rec1.expire)
    clock.advance(DAY / 2)
    a, b = await asyncio.gather(s1.tick(), s2.tick())
    assert a.reminders + b.reminders == 1
    clock.advance(DAY)
    a, b = await asyncio.gather(s1.tick(), s2.tick())
    assert a.timeouts + b.timeouts == 1
    assert len(rec1.results) == 1 and (await service.get(game)) is not None


async def test_vacation_stops_the_clock_and_gives_the_time_back(store: Store, clock: ManualClock) -> None:
    service, scheduler, rec = make(store, clock)
    game = await started(service)
    seat = pending_seat(service, game)
    g = service.cached(game)
    assert g is not None
    uid = g.seat_row(seat).user_id
    assert uid is not None
    clock.advance(10 * HOUR)
    done = await set_vacation(service, uid, 3)
    assert done.games == [game] and done.days_left == 27
    (row,) = await store.deadlines(game)
    assert row.paused and row.paused_left == pytest.approx(14 * HOUR)
    clock.advance(3 * DAY - 1)
    assert (await scheduler.tick()).timeouts == 0 and rec.reminders == []
    clock.advance(2)
    assert (await scheduler.tick()).resumed == 1
    (row,) = await store.deadlines(game)
    assert not row.paused and row.due_at == pytest.approx(clock.now() + 14 * HOUR - 1)
    clock.advance(14 * HOUR)
    assert (await scheduler.tick()).timeouts == 1


async def test_vacation_allowance_and_ending_early(store: Store, clock: ManualClock) -> None:
    service, _, _ = make(store, clock)
    await set_vacation(service, ALICE, 20)
    clock.advance(20 * DAY)
    with pytest.raises(Refusal, match="10"):
        await set_vacation(service, ALICE, 11)
    await set_vacation(service, ALICE, 5)
    clock.advance(2 * DAY)
    ended = await set_vacation(service, ALICE, 0)
    assert ended.until is None and ended.days_left == 8  # the 3 days not taken come back
    mine = await store.user_settings(ALICE)
    assert mine.vacation_until is None and mine.vacation_used == pytest.approx(22)


async def test_a_new_wait_of_a_player_on_vacation_starts_paused(store: Store, clock: ManualClock) -> None:
    service, _, _ = make(store, clock)
    await set_vacation(service, ALICE, 2)
    await set_vacation(service, BOB, 2)
    game = await started(service)
    (row,) = await store.deadlines(game)
    assert row.paused and row.next_at == pytest.approx(clock.now() + 2 * DAY)
