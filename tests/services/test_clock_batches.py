"""The clock in batches: many deadlines falling due at once fire once each, reminders are
grouped per player, timeouts are moved by the built-in player in worker processes, and a
restart in the middle of a burst loses none and repeats none."""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import json
import multiprocessing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules.registry import games
from services.ai_choice import Chooser, choose, warm
from services.clock import ManualClock, Scheduler
from services.session import SessionService
from storage import Store
from storage.deadlines import DeadlineRow

ALICE = 101
HOUR = 3600.0
DAY = 24 * HOUR


@pytest.fixture(scope="module")
def workers() -> Iterator[cf.ProcessPoolExecutor]:
    """One worker process, started as the bot starts its picture workers."""
    with cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


class Recorder:
    """Stands in for the Discord side: records the reminders and applies the timeouts."""

    def __init__(self, service: SessionService) -> None:
        self.service = service
        self.reminded: list[DeadlineRow] = []
        self.timed_out: list[int] = []

    async def remind(self, row: DeadlineRow) -> None:
        self.reminded.append(row)

    async def expire(self, row: DeadlineRow) -> bool:
        result = await self.service.timeout(row)
        if result is None:
            return False
        self.timed_out.append(row.game)
        return True


def scheduler_for(service: SessionService, rec: Recorder) -> Scheduler:
    return Scheduler(service.store, service.clock, rec.remind, rec.expire,  # type: ignore[arg-type]
                     prepare=service.preload_deadlines)


async def game_of(service: SessionService, host: int, other: int, channel: int) -> int:
    """A started two-player Rey y Hierofante game with a 24 h clock."""
    g = await service.create(guild_id=1, channel_id=channel, game_id="rey_hierofante", options={},
                             host_id=host, host_name=f"p{host}", locale="es", clock_seconds=int(DAY))
    await service.join(g.id, user_id=other, name=f"p{other}", locale="en")
    await service.start(g.id, by=host)
    return g.id


async def waiting_on(service: SessionService, game: int) -> int:
    """The user the game waits on."""
    (row,) = await service.store.deadlines(game)
    return row.user_id


async def timed_out_changes(store: Store, game: int) -> int:
    """How many changes of ``game`` were a timeout (delivered or not)."""
    rows = await store._fetchall("SELECT payload FROM outbox WHERE game = ? AND kind = 'change'", (game,))
    return sum(json.loads(r[0]).get("timed_out") is not None for r in rows)


async def test_reminders_falling_due_together_are_one_per_player_listing_their_games(
        store: Store) -> None:
    clock = ManualClock()
    service = SessionService(store, seed_source=lambda: 3, clock=clock)
    games = [await game_of(service, 1000 + i, 2000 + i, 500 + i) for i in range(6)]
    waits = {g: await waiting_on(service, g) for g in games}
    rec = Recorder(service)
    scheduler = scheduler_for(service, rec)
    clock.advance(DAY / 2)
    done = await scheduler.tick()
    # Every wait is reminded (counted per game), each player once per burst.
    assert done.reminders == len(games) and done.timeouts == 0
    assert sorted(r.user_id for r in rec.reminded) == sorted(set(waits.values()))
    assert (await scheduler.tick()).reminders == 0  # never twice
    owed = [c.payload for g in games for c in await store.open_changes(g) if "remind" in c.payload]
    assert len(owed) == len(set(waits.values()))
    told = sorted((e["game"], e["user_id"]) for p in owed for e in [p["remind"], *p.get("also", [])])
    assert told == sorted(waits.items())


async def test_one_player_waited_on_in_several_games_gets_one_reminder_listing_them(
        store: Store) -> None:
    clock = ManualClock()
    service = SessionService(store, seed_source=iter(range(100)).__next__, clock=clock)
    # ALICE against others; the games where she is the one waited on are hers to hear.
    games = [await game_of(service, ALICE, 3000 + i, 700 + i) for i in range(8)]
    hers = [g for g in games if await waiting_on(service, g) == ALICE]
    assert len(hers) >= 2, "the draw left Alice waited on in fewer than two games"
    rec = Recorder(service)
    clock.advance(DAY / 2)
    await scheduler_for(service, rec).tick()
    assert [r.user_id for r in rec.reminded].count(ALICE) == 1
    (payload,) = [c.payload for g in hers for c in await store.open_changes(g) if "remind" in c.payload]
    listed = [payload["remind"]["game"]] + [e["game"] for e in payload["also"]]
    assert sorted(listed) == sorted(hers)
    assert all(e["n"] == 1 and e["user_id"] == ALICE for e in [payload["remind"], *payload["also"]])


async def test_timeouts_in_a_batch_are_moved_by_the_built_in_player_in_a_worker(
        store: Store, workers: cf.ProcessPoolExecutor) -> None:
    clock = ManualClock()
    service = SessionService(store, seed_source=lambda: 5, clock=clock)
    games = [await game_of(service, 1000 + i, 2000 + i, 500 + i) for i in range(10)]
    before = {}
    for g in games:
        loaded = await service.get(g)
        assert loaded is not None and loaded.state is not None
        (seat,) = loaded.pending()
        # What the built-in player chooses for the silent seat, worked out here.
        before[g] = (loaded.version, loaded.engine.dump_action(loaded.engine.ai_action(loaded.state, seat)))
    jobs: list[Any] = []

    async def offload(fn: Any, batch: list[tuple[str, str, int]]) -> list[tuple[str, float]]:
        jobs.extend(batch)
        return await asyncio.get_running_loop().run_in_executor(workers, fn, batch)

    service.chooser = Chooser(offload, parallel=1, inline_below=0.0)  # every choice goes
    rec = Recorder(service)
    clock.advance(DAY + 1)
    done = await scheduler_for(service, rec).tick()
    assert done.timeouts == len(games) and sorted(rec.timed_out) == sorted(games)
    # Every choice went to the worker.
    assert len(jobs) >= len(games) and {job[1] for job in jobs}
    for g in games:
        version, expected = before[g]
        (first, *_) = await store.actions(g, after=version)
        assert first.action == expected
        assert await timed_out_changes(store, g) == 1
    assert (await scheduler_for(service, rec).tick()).timeouts == 0


async def test_the_worker_job_is_the_engines_own_choice() -> None:
    from rules.registry import engine

    eng = engine("rey_hierofante")
    state = eng.setup(2, {}, 9)
    (seat,) = eng.pending(state)
    assert choose("rey_hierofante", eng.dump_state(state), seat) == eng.dump_action(eng.ai_action(state, seat))


async def test_a_restart_in_the_middle_of_a_burst_loses_none_and_repeats_none(tmp_path: Path) -> None:
    path = tmp_path / "burst.db"
    clock = ManualClock()
    store = await Store.open(path)
    service = SessionService(store, seed_source=lambda: 7, clock=clock)
    timeouts = [await game_of(service, 1000 + i, 2000 + i, 500 + i) for i in range(12)]
    clock.advance(DAY / 2)
    await scheduler_for(service, Recorder(service)).tick()  # their first reminders
    clock.advance(DAY / 2 - 2 * HOUR)
    await scheduler_for(service, Recorder(service)).tick()  # their second reminders
    reminders = [await game_of(service, 3000 + i, 4000 + i, 800 + i) for i in range(12)]
    clock.advance(DAY / 2 + 2 * HOUR)  # the first dozen time out, the second are reminded
    rec = Recorder(service)
    scheduler = scheduler_for(service, rec)
    burst = asyncio.create_task(scheduler.tick())
    expire = rec.expire

    async def crash_after_three(row: DeadlineRow) -> bool:
        fired = await expire(row)
        if len(rec.timed_out) >= 3:
            burst.cancel()  # the process dies with the burst half done
        return fired

    rec.expire = crash_after_three  # type: ignore[method-assign]
    scheduler.expire = crash_after_three
    with pytest.raises(asyncio.CancelledError):
        await burst
    first_run = set(rec.timed_out)
    assert 3 <= len(first_run) < len(timeouts)
    await store.close()

    store = await Store.open(path)  # the restart
    try:
        service = SessionService(store, seed_source=lambda: 7, clock=clock)
        rec = Recorder(service)
        await scheduler_for(service, rec).tick()
        assert await store.due_deadlines(clock.now()) == []
        for g in timeouts:
            assert await timed_out_changes(store, g) == 1, f"game {g} timed out other than once"
        for g in reminders:
            owed = [c for c in await store.open_changes(g) if "remind" in c.payload]
            assert [c.payload["remind"]["n"] for c in owed] == [1]
    finally:
        await store.close()


async def settle() -> None:
    """Let every task ready to run take its steps."""
    for _ in range(10):
        await asyncio.sleep(0)


async def test_choices_asked_while_the_workers_are_busy_travel_together() -> None:
    trips: list[tuple[list[tuple[str, str, int]], asyncio.Future[list[tuple[str, float]]]]] = []

    async def offload(fn: Any, batch: list[tuple[str, str, int]]) -> list[tuple[str, float]]:
        answer: asyncio.Future[list[tuple[str, float]]] = asyncio.get_running_loop().create_future()
        trips.append((batch, answer))
        return await answer

    chooser = Chooser(offload, parallel=1)
    asks = [asyncio.create_task(chooser.choose("g", f"state{i}", i)) for i in range(4)]
    await settle()
    assert [len(b) for b, _ in trips] == [1]  # the first goes at once, alone
    trips[0][1].set_result([("a0", 0.01)])
    await settle()
    assert [len(b) for b, _ in trips] == [1, 3]  # the rest waited, and go in one trip
    trips[1][1].set_result([("a1", 0.01), ("a2", 0.01), ("a3", 0.01)])
    assert await asyncio.gather(*asks) == ["a0", "a1", "a2", "a3"]
    assert chooser.sent == 2


async def test_a_failed_trip_lets_each_timeout_choose_on_its_own(store: Store) -> None:
    clock = ManualClock()
    service = SessionService(store, seed_source=lambda: 5, clock=clock)
    games = [await game_of(service, 1000 + i, 2000 + i, 500 + i) for i in range(3)]

    async def broken(fn: Any, batch: list[tuple[str, str, int]]) -> list[str]:
        raise RuntimeError("the worker died")

    service.chooser = Chooser(broken)
    clock.advance(DAY + 1)
    done = await scheduler_for(service, Recorder(service)).tick()
    assert done.timeouts == len(games)


async def test_a_cheap_game_goes_to_the_worker_only_while_its_next_trip_has_room() -> None:
    release = asyncio.Event()

    async def offload(fn: Any, batch: list[tuple[str, str, int]]) -> list[tuple[str, float]]:
        await release.wait()
        # What the worker reports each choice took: a cheap game and a costly one.
        return [(f"{game}-move", 0.0005 if game == "cheap" else 0.05) for game, _, _ in batch]

    chooser = Chooser(offload, chunk=4)
    assert chooser.worth_sending("cheap") and chooser.worth_sending("costly")  # not known yet
    release.set()
    assert await chooser.choose("cheap", "s", 0) == "cheap-move"
    assert await chooser.choose("costly", "s", 0) == "costly-move"
    release.clear()
    # The worker is idle: a cheap choice goes; then the next trip fills while it is away.
    assert chooser.worth_sending("cheap")
    asked = [asyncio.create_task(chooser.choose("cheap", "s", 0))]
    await asyncio.sleep(0)
    room = []
    for _ in range(6):
        room.append(chooser.worth_sending("cheap"))
        if room[-1]:
            asked.append(asyncio.create_task(chooser.choose("cheap", "s", 0)))
            await asyncio.sleep(0)  # it asks
    assert room == [True] * 4 + [False] * 2  # the rest is chosen here meanwhile
    assert all(chooser.worth_sending("costly") for _ in range(10))  # costly ones always go
    release.set()
    assert await asyncio.gather(*asked) == ["cheap-move"] * 5
    assert chooser.sent == 4 and chooser.sent_choices == 7  # two trips of one, then one and four


async def test_the_workers_ready_the_rules_before_the_first_choice() -> None:
    sent: list[Any] = []

    async def offload(fn: Any, *args: Any) -> Any:
        sent.append(fn)
        return fn(*args)

    await Chooser(offload, parallel=2).warm()
    # one warm-up a worker, each the rules' engines built there (every game's)
    assert sent == [warm, warm]
    assert warm() == len(games())

    async def broken(fn: Any, *args: Any) -> Any:
        raise RuntimeError("the pool is stopping")

    await Chooser(broken).warm()  # a failure leaves the work to the first choice, silently
