"""The clock's escalation with a real store and engines, driven by a manual clock: the two
reminders, the bot's move at the deadline, the seat the bot's for good after the server's
number of timeouts, each firing once across a restart; a tournament's loss on time."""

from __future__ import annotations

import random

import pytest

from services.clock import ManualClock
from services.escalation import Escalation, escalate, step_for
from services.session import SessionService
from storage import Store
from storage.reliability import ReliabilityStore
from tests.services.test_clock import DAY, HOUR, make, pending_seat, started
from tests.services.test_results import (
    GUILD,
    play,
    playing,
    session_host,
    setup,
    three_seats_one_timed_out,
)


async def pass_turn(service: SessionService, game: int, seat: int) -> None:
    """``seat``'s player moves until it is someone else's turn."""
    g = await service.require(game)
    while seat in g.pending():
        await service.move(game, g.seat_row(seat).user_id, g.legal_actions(seat)[-1])


@pytest.mark.parametrize(("action", "n", "limit", "step"), [
    ("ai", 1, 3, "ai"), ("ai", 2, 3, "ai"), ("ai", 3, 3, "drop"), ("ai", 9, 0, "ai"),
    ("ai", 1, 1, "drop"), ("drop", 1, 3, "drop"), ("lose", 1, 0, "lose"),
])
def test_what_the_nth_timeout_does(action: str, n: int, limit: int, step: str) -> None:
    assert step_for(action, n, limit) == step


async def test_reminder_last_call_timeouts_and_the_seat_the_bots_at_the_third_across_a_restart(
    store: Store,
) -> None:
    clock = ManualClock()
    service, scheduler, rec = make(store, clock)
    game = await started(service)
    late = pending_seat(service, game)
    user = (await service.require(game)).seat_row(late).user_id
    # the reminder at half the time, the last call two hours before the end: once each
    clock.advance(DAY / 2)
    assert (await scheduler.tick()).reminders == 1
    clock.advance(DAY / 2 - 2 * HOUR)
    assert (await scheduler.tick()).reminders == 1
    assert (await scheduler.tick()).reminders == 0
    assert [r.reminders for r in rec.reminders] == [1, 2]
    clock.advance(2 * HOUR)
    done = await scheduler.tick()
    assert (done.timeouts, done.reminders) == (1, 0)
    assert rec.results[-1].escalation == Escalation("ai", 1, 3) and not rec.results[-1].dropped
    assert (await scheduler.tick()).timeouts == 0  # never twice
    other = pending_seat(service, game)
    assert other != late
    await pass_turn(service, game, other)
    clock.advance(DAY)
    assert (await scheduler.tick()).timeouts == 1
    assert rec.results[-1].escalation == Escalation("ai", 2, 3)
    # a restart: a new service and scheduler read everything from the store
    service, scheduler, rec = make(store, clock)
    await pass_turn(service, game, other)
    clock.advance(DAY)
    assert (await scheduler.tick()).timeouts == 1
    third = rec.results[-1]
    assert third.escalation == Escalation("drop", 3, 3) and third.dropped
    g = await service.require(game)
    assert g.seat_row(late).ai and g.seat_row(late).dropped and g.seat_row(late).user_id == user
    assert [d.seat for d in await store.deadlines(game)] == [other]
    # from now on the bot answers for the seat at once: no wait, no timeout
    await pass_turn(service, game, other)
    clock.advance(2 * DAY)
    await scheduler.tick()
    assert all(d.seat != late for d in await store.deadlines(game))
    stored = await ReliabilityStore(store).timeouts_of(user, GUILD)
    assert [t.action for t in stored] == ["ai", "ai", "drop"]


async def test_a_timeout_applied_again_after_a_crash_counts_once(store: Store) -> None:
    clock = ManualClock()
    service, scheduler, rec = make(store, clock)
    game = await started(service)
    late = pending_seat(service, game)
    (row,) = await store.deadlines(game)
    clock.advance(DAY)
    # stored, then the process dies before the bot's move: the wait is still there
    g = await service.require(game)
    assert await escalate(store, g, row, reaction=False, now=clock.now()) == Escalation("ai", 1, 3)
    service, scheduler, rec = make(store, clock)
    assert (await scheduler.tick()).timeouts == 1
    assert rec.results[-1].escalation == Escalation("ai", 1, 3)
    user = (await service.require(game)).seat_row(late).user_id
    assert user is not None
    assert await ReliabilityStore(store).timeouts_in_game(game, late, user) == 1


async def test_never_leaves_the_seat_the_players_however_many_timeouts(store: Store) -> None:
    clock = ManualClock()
    await store.update_guild(1, timeout_limit=0)
    service, scheduler, rec = make(store, clock)
    game = await started(service)
    late = pending_seat(service, game)
    for n in range(1, 5):
        clock.advance(DAY)
        assert (await scheduler.tick()).timeouts == 1
        assert rec.results[-1].escalation == Escalation("ai", n, 0)
        g = await service.require(game)
        assert not g.seat_row(late).ai
        await pass_turn(service, game, next(s for s in g.pending() if s != late))


async def test_a_tournament_game_lost_on_time_is_a_rated_loss_in_the_standings(store: Store) -> None:
    time = ManualClock()
    session, svc, _, t, _ = await setup(
        store, time, format="swiss", rounds=1, clock={"seconds": 3600, "timeout": "lose"}
    )
    await svc.start(t.id)
    m, other = await playing(svc, t.id)
    (row,) = await store.deadlines(m.game)
    late = row.user_id
    version = (await session.require(m.game)).state.version
    time.advance(3601)
    result = await session.timeout(row)
    assert result is not None and result.escalation == Escalation("lose", 1, 0) and result.dropped
    # the table closes: the bot makes no move for the seat lost on time
    assert not result.steps and (await session.require(m.game)).state.version == version
    await session.settle()
    g = await session.require(m.game)
    # two players: the game ends for both at once, the table closes
    assert g.status == "abandoned" and m.game in session_host(svc).closed
    m = await svc.store.get_match(m.id)
    assert {p.user_id: p.place for p in m.players} == {u: int(u == late) for u in m.user_ids}
    # rated as a loss for the late player, a win for the other
    rated = await svc.ratings.ratings_of(GUILD, "rey_hierofante", list(m.user_ids))
    winner = next(u for u in m.user_ids if u != late)
    assert set(rated) == set(m.user_ids) and rated[winner].mu > rated[late].mu
    record = await svc.ratings.record(GUILD, "rey_hierofante", late)
    assert (record.games, record.wins) == (1, 0)
    await play(session, other.game, random.Random(3))
    await session.settle()
    standings = {s.player: s for s in await svc.standings(t.id)}
    assert standings[late].points == 0 and standings[winner].points == 1
    assert standings[late].games == 1


async def test_a_seat_lost_on_time_at_a_bigger_table_is_last_and_the_game_rated(store: Store) -> None:
    _, svc, m, row = await three_seats_one_timed_out(store, "lose")
    m = await svc.store.get_match(m.id)
    places = {p.user_id: p.place for p in m.players}
    assert places[row.user_id] == 2
    rated = await svc.ratings.ratings_of(GUILD, "ankh_morpork", list(m.user_ids))
    assert set(rated) == set(m.user_ids)  # the seat lost on time does not make it unrated
    results = await svc.ratings.results(GUILD)
    mine = next(r for r in results if r.game == m.game)
    assert {p.user_id: p.place for p in mine.places}[row.user_id] == 2
