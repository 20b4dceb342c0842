"""Time banks and playing hours with a real store, real engines and a manual clock: banks
spent, topped up and capped, quiet hours across daylight saving changes, a restart in the
middle, each deadline firing once."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from pathlib import Path

import pytest

from services.clock import ManualClock, Scheduler
from services.clock_bank import BANKS, balances
from services.clock_time import PlayingHours, end_after, parse_window, quiet_now, running_between
from services.playing_hours import set_playing_hours
from services.session import SessionService
from storage import Store
from storage.deadlines import DeadlineRow
from tests.services.test_clock import ALICE, BOB, DAY, HOUR, make, pending_seat

MADRID = "Europe/Madrid"
NEW_YORK = "America/New_York"
BANK = BANKS["3d+1d"]  # 3 days at the start, a day a move, at most 7


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def at(zone: str, *when: int) -> float:
    """Unix seconds of a wall time in ``zone``."""
    return dt.datetime(*when, tzinfo=zoneinfo.ZoneInfo(zone)).timestamp()


def nights(zone: str) -> PlayingHours:
    """Quiet from 23:00 to 08:00 every day in ``zone``."""
    return PlayingHours(zone, (parse_window("23:00-08:00"),))


async def banked(service: SessionService, channel: int = 900, *, clock: int = BANK.start,
                 bank: tuple[int, int] | None = (BANK.increment, BANK.cap)) -> int:
    """A started two-player game with a time bank (or, with ``bank`` None, a per-turn clock)."""
    g = await service.create(guild_id=1, channel_id=channel, game_id="rey_hierofante", options={},
                             host_id=ALICE, host_name="alice", locale="es", clock_seconds=clock,
                             bank=bank)
    await service.join(g.id, user_id=BOB, name="bob", locale="en")
    await service.start(g.id, by=ALICE)
    return g.id


async def finish_turn(service: SessionService, game: int) -> int:
    """The pending seat plays until the turn passes; that seat."""
    g = service.cached(game)
    assert g is not None
    seat = pending_seat(service, game)
    while not g.state.finished and pending_seat(service, game) == seat:  # type: ignore[union-attr]
        await service.move(game, g.seat_row(seat).user_id, g.legal_actions(seat)[-1])
    return seat


async def wait_of(store: Store, game: int) -> DeadlineRow:
    (row,) = await store.deadlines(game)
    return row


async def test_a_bank_is_spent_topped_up_and_capped(store: Store, clock: ManualClock) -> None:
    service, _, _ = make(store, clock)
    game = await banked(service)
    first = await wait_of(store, game)
    assert first.due_at == clock.now() + 3 * DAY  # the whole reserve
    clock.advance(DAY + 5 * HOUR)
    mover = await finish_turn(service, game)
    # 3 days less 29 hours spent, plus a day.
    assert (await store.clock_banks(game))[mover] == pytest.approx(3 * DAY - 29 * HOUR + DAY)
    other = await wait_of(store, game)
    assert other.seat != mover and other.due_at == clock.now() + 3 * DAY
    # Moving at once, again and again: a day more each time, never past 7.
    seen = []
    for _ in range(12):
        seat = await finish_turn(service, game)
        seen.append((await store.clock_banks(game))[seat])
    assert max(seen) == 7 * DAY and seen.count(7 * DAY) >= 4
    g = service.cached(game)
    assert g is not None
    now_banks = balances(BANK, [0, 1], await store.clock_banks(game),
                         {d.seat: d for d in await store.deadlines(game)}, clock.now())
    assert now_banks == {0: 7 * DAY, 1: 7 * DAY}
    assert (await wait_of(store, game)).due_at == clock.now() + 7 * DAY


async def test_running_out_of_bank_is_a_timeout_once_and_leaves_the_increment(
    store: Store, clock: ManualClock
) -> None:
    service, scheduler, rec = make(store, clock)
    game = await banked(service)
    seat = pending_seat(service, game)
    clock.advance(3 * DAY - 1)
    assert (await scheduler.tick()).timeouts == 0
    clock.advance(2)
    assert (await scheduler.tick()).timeouts == 1
    assert (await scheduler.tick()).timeouts == 0
    assert rec.results[0].timed_out == seat
    assert (await store.clock_banks(game))[seat] == BANK.increment
    # The bot played the turn; the other player's wait is their own full reserve.
    assert (await wait_of(store, game)).due_at == pytest.approx(clock.now() + 3 * DAY)


async def test_quiet_hours_stop_a_per_turn_clock_across_the_spring_change(
    store: Store, clock: ManualClock
) -> None:
    for user in (ALICE, BOB):
        await set_playing_hours(make(store, clock)[0], user, nights(MADRID))
    clock.t = at(MADRID, 2027, 3, 27, 20)  # Saturday evening; clocks go forward that night
    service, scheduler, rec = make(store, clock)
    game = await banked(service, clock=int(DAY), bank=None)
    row = await wait_of(store, game)
    assert row.due_at == at(MADRID, 2027, 3, 29, 14)  # 3 h + 15 h + 6 h of running clock
    fired = await run_until_quiet(scheduler, store, clock)
    assert [what for what, _ in fired] == ["remind", "remind", "timeout"]
    assert all(not quiet_now(nights(MADRID), when) for _, when in fired)
    assert fired[-1][1] == row.due_at


async def run_until_quiet(scheduler: Scheduler, store: Store, clock: ManualClock,
                          stop: float | None = None) -> list[tuple[str, float]]:
    """Jump from one next_at to the next (until ``stop``), ticking: what fired, and when."""
    fired: list[tuple[str, float]] = []
    while (nxt := await store.next_deadline_at()) is not None and (stop is None or nxt <= stop):
        clock.t = max(clock.t, nxt)
        done = await scheduler.tick()
        fired += [("remind", clock.t)] * done.reminders + [("timeout", clock.t)] * done.timeouts
        if done.timeouts:
            break
    return fired


async def test_a_restart_in_the_middle_of_a_quiet_banked_wait_fires_each_deadline_once(
    tmp_path: Path, clock: ManualClock
) -> None:
    path = tmp_path / "t.db"
    store = await Store.open(path)
    service, scheduler, _ = make(store, clock)
    await set_playing_hours(service, ALICE, nights(NEW_YORK))
    await set_playing_hours(service, BOB, nights(NEW_YORK))
    clock.t = at(NEW_YORK, 2027, 11, 5, 21)  # the clocks go back on Sunday 7 November
    game = await banked(service)
    row = await wait_of(store, game)
    assert running_between(nights(NEW_YORK), clock.now(), row.due_at) == 3 * DAY
    before = await run_until_quiet(scheduler, store, clock, stop=row.due_at - 10 * HOUR)
    assert [w for w, _ in before] == ["remind"]
    await store.close()
    clock.advance(5 * HOUR)  # down for a while
    store = await Store.open(path)
    try:
        service, scheduler, rec = make(store, clock)
        again = await wait_of(store, game)
        assert (again.reminders, again.due_at, again.hours) == (1, row.due_at, row.hours)
        after = await run_until_quiet(scheduler, store, clock)
        assert [w for w, _ in after] == ["remind", "timeout"]
        assert after[-1][1] == row.due_at
        assert all(not quiet_now(nights(NEW_YORK), when) for _, when in before + after)
        assert len(rec.results) == 1 and (await scheduler.tick()).timeouts == 0
    finally:
        await store.close()


async def test_new_hours_retime_a_running_wait_and_keep_its_time_left(
    store: Store, clock: ManualClock
) -> None:
    service, _, _ = make(store, clock)
    clock.t = at(MADRID, 2027, 6, 2, 12)
    game = await banked(service)
    seat = pending_seat(service, game)
    g = service.cached(game)
    assert g is not None
    uid = g.seat_row(seat).user_id
    assert uid is not None
    clock.advance(10 * HOUR)
    moved = await set_playing_hours(service, uid, nights(MADRID))
    row = await wait_of(store, game)
    assert moved == [game] and row.hours == nights(MADRID).spec()
    left = 3 * DAY - 10 * HOUR
    assert row.due_at == end_after(nights(MADRID), clock.now(), left)
    assert running_between(nights(MADRID), clock.now(), row.due_at) == left
    # Setting the same hours again changes nothing.
    assert await set_playing_hours(service, uid, nights(MADRID)) == []
    # The seat's move leaves its bank: what ran (none of the night) comes off.
    clock.t = at(MADRID, 2027, 6, 3, 9)  # of the 11 h since 22:00, 22-23 and 08-09 ran
    mover = await finish_turn(service, game)
    assert mover == seat
    assert (await store.clock_banks(game))[seat] == pytest.approx(left - 2 * HOUR + BANK.increment)


async def test_a_timeout_after_a_restart_without_reminders_pending_fires_once(
    tmp_path: Path, clock: ManualClock
) -> None:
    """The bot was down through a whole banked wait: one timeout, both reminders at most once."""
    path = tmp_path / "t.db"
    store = await Store.open(path)
    service, _, _ = make(store, clock)
    game = await banked(service, bank=(BANKS["1d+12h"].increment, BANKS["1d+12h"].cap), clock=int(DAY))
    await store.close()
    clock.advance(2 * DAY)
    store = await Store.open(path)
    try:
        service, scheduler, rec = make(store, clock)
        first = await scheduler.tick()
        assert first.timeouts == 1 and (await scheduler.tick()).timeouts == 0
        assert len(rec.results) == 1
        seat = rec.results[0].timed_out
        assert (await store.clock_banks(game))[seat] == 12 * HOUR
    finally:
        await store.close()


async def test_a_reminder_overdue_at_night_after_a_restart_waits_for_the_morning(
    tmp_path: Path, clock: ManualClock
) -> None:
    path = tmp_path / "t.db"
    store = await Store.open(path)
    service, _, _ = make(store, clock)
    for user in (ALICE, BOB):
        await set_playing_hours(service, user, nights(MADRID))
    clock.t = at(MADRID, 2027, 6, 5, 20)  # Saturday 20:00; a 24 h clock runs out Monday 14:00
    game = await banked(service, clock=int(DAY), bank=None)
    row = await wait_of(store, game)
    assert row.due_at == at(MADRID, 2027, 6, 7, 14)
    await store.close()
    clock.t = at(MADRID, 2027, 6, 7, 2)  # back on Monday at 02:00: the first reminder is overdue
    store = await Store.open(path)
    try:
        service, scheduler, rec = make(store, clock)
        done = await scheduler.tick()
        assert (done.reminders, done.postponed) == (0, 1) and rec.reminders == []
        assert (await wait_of(store, game)).next_at == at(MADRID, 2027, 6, 7, 8)
        fired = await run_until_quiet(scheduler, store, clock)
        assert fired == [("remind", at(MADRID, 2027, 6, 7, 8)), ("remind", at(MADRID, 2027, 6, 7, 12)),
                         ("timeout", row.due_at)]
        assert len(rec.results) == 1
    finally:
        await store.close()


async def test_a_wait_retimed_after_the_batch_read_it_is_not_timed_out(
    store: Store, clock: ManualClock
) -> None:
    """The clock's batch read a due wait's deadlines; the player then set quiet hours that
    move it later: the timeout reads the deadline again and does not fire."""
    service, _, _ = make(store, clock)
    clock.t = at(MADRID, 2027, 6, 2, 12)
    game = await banked(service)
    due = await wait_of(store, game)
    clock.t = due.due_at + 1  # due now, by the deadline as it stands
    version = service.cached(game).version  # type: ignore[union-attr]
    await service.preload_deadlines([due])
    # quiet all day but a minute, set just as the batch began: the wait now ends much later
    night_owl = PlayingHours(MADRID, (parse_window("00:00-23:59"),))
    assert await set_playing_hours(service, due.user_id, night_owl) == [game]
    assert (await wait_of(store, game)).due_at > clock.now()
    assert await service.timeout(due) is None
    assert service.cached(game).version == version  # type: ignore[union-attr]  (the bot did not move)
    assert (await wait_of(store, game)).seat == due.seat  # still the player's own wait
