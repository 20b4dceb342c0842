"""PostgreSQL shared by several processes: moves of different games committed as one batch
(a failing move refused alone), writes locked per game (different games side by side, one
game's writes one after the other), and rows claimed with SKIP LOCKED (two claimers never
take the same one). Two stores stand for two processes: each has a pool of its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from storage import StaleVersion, Store
from storage.deadlines import DeadlinePlan, DeadlineRow
from storage.dialect import IntegrityError, game_locks, lock_key
from storage.games import MoveWrite
from storage.outbox import ChangeNote
from storage.pg_moves import PgMoveBatches
from tests import pg_server
from tests.pg_server import empty_shared
from tests.storage.test_store_group_commit import active_games, assert_moved, move

# A hang is a failure, not a wait for ever (never a measure of speed).
PATIENCE = 60


@pytest.fixture
async def url(pg_server_instance: pg_server.PgServer) -> str:
    """The emptied shared PostgreSQL database."""
    return await empty_shared(pg_server_instance)


@pytest.fixture
async def two(url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on the one database, as two processes have."""
    a, b = await Store.open(url), await Store.open(url)
    yield a, b
    await a.close()
    await b.close()


def batcher(store: Store) -> PgMoveBatches:
    """The store's PostgreSQL batch writer."""
    assert store._group is not None and isinstance(store._group._batch, PgMoveBatches)
    return store._group._batch


async def waiting_for_lock(url: str, key: int) -> bool:
    """Whether some session waits for the advisory lock ``key`` (not granted yet)."""
    conn = await asyncpg.connect(url)
    try:
        hi, lo = (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF
        rows = await conn.fetch(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            " AND classid::bigint = $1 AND objid::bigint = $2",
            hi, lo,
        )
        return bool(rows)
    finally:
        await conn.close()


async def until_waiting(url: str, key: int) -> None:
    """Return once a session waits for the lock ``key``."""
    while not await waiting_for_lock(url, key):
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------- group commit


async def test_sixteen_games_moving_at_once_share_few_transactions(two: tuple[Store, Store]) -> None:
    store, _ = two
    games = await active_games(store, 16)
    before = store._group.batches  # type: ignore[union-attr]
    notes = {g.id: ChangeNote({"g": g.id}) for g in games}

    async def play(game: int) -> list[int]:
        return [await move(store, game, v, notes[game], own=True) for v in range(3)]

    assert await asyncio.gather(*(play(g.id) for g in games)) == [[1, 2, 3]] * 16
    # 48 moves: each round of 16 arrives together (the first may go alone).
    assert store._group.batches - before <= 8  # type: ignore[union-attr]
    for g in games:
        await assert_moved(store, g.id, 3)
        seats = await store.seats(g.id)
        assert [s.seen_seq for s in seats] == [3, 2]  # each seat's last own move
        row = await store.outbox_row(notes[g.id].id)  # type: ignore[arg-type]
        assert row is not None and row.game == g.id and row.payload == {"g": g.id}


async def test_a_stale_move_in_a_batch_is_refused_alone(two: tuple[Store, Store]) -> None:
    store, _ = two
    a, b, c = await active_games(store, 3)
    assert await move(store, b.id, 0) == 1
    before = store._group.batches  # type: ignore[union-attr]
    results = await asyncio.gather(move(store, a.id, 0), move(store, b.id, 0), move(store, c.id, 0),
                                   return_exceptions=True)
    assert store._group.batches - before == 1  # type: ignore[union-attr]
    assert results[0] == 1 and results[2] == 1 and isinstance(results[1], StaleVersion)
    for g in (a, b, c):
        await assert_moved(store, g.id, 1)


async def test_a_move_that_fails_inside_a_batch_loses_no_other(two: tuple[Store, Store]) -> None:
    store, _ = two
    a, b, c = await active_games(store, 3)
    # A log row already where b's move writes its own: its UPDATE goes through, its INSERT
    # fails, and the batch's one statement with it; written again move by move, only b fails.
    async with store._write() as db:
        await db.execute("INSERT INTO actions (game, seq, seat, action, at) VALUES (?, 1, 0, '{}', 0)",
                         (b.id,))
    notes = [ChangeNote({"n": i}) for i in range(3)]
    retried = batcher(store).retried
    results = await asyncio.gather(
        *(move(store, g.id, 0, n) for g, n in zip((a, b, c), notes, strict=True)),
        return_exceptions=True,
    )
    assert batcher(store).retried == retried + 1
    assert results[0] == 1 and results[2] == 1
    assert isinstance(results[1], IntegrityError) and "actions_pkey" in str(results[1])
    await assert_moved(store, a.id, 1)
    await assert_moved(store, c.id, 1)
    row = await store.get_game(b.id)
    assert row is not None and (row.version, row.state) == (0, '{"v":0}')
    assert notes[1].id is None  # its outbox row was never written
    changes = await store.open_changes()
    assert sorted((ch.game, ch.payload["n"]) for ch in changes) == [(a.id, 0), (c.id, 2)]
    assert {ch.id for ch in changes} == {notes[0].id, notes[2].id}


async def test_a_lone_failing_move_hears_its_error(two: tuple[Store, Store]) -> None:
    store, _ = two
    (a,) = await active_games(store, 1)
    async with store._write() as db:
        await db.execute("INSERT INTO actions (game, seq, seat, action, at) VALUES (?, 1, 0, '{}', 0)",
                         (a.id,))
    with pytest.raises(IntegrityError):
        await move(store, a.id, 0)
    assert (await store.get_game(a.id)).version == 0  # type: ignore[union-attr]


async def test_two_moves_of_one_game_in_a_batch_land_in_order(two: tuple[Store, Store]) -> None:
    store, _ = two
    (a,) = await active_games(store, 1)
    results = await asyncio.gather(move(store, a.id, 0), move(store, a.id, 1), move(store, a.id, 1),
                                   return_exceptions=True)
    assert results[:2] == [1, 2] and isinstance(results[2], StaleVersion)
    await assert_moved(store, a.id, 2)


def deadline(game: int, seat: int, at: float) -> DeadlineRow:
    """A wait of ``seat`` begun at ``at``."""
    return DeadlineRow(game=game, seat=seat, user_id=10 + seat, started_at=at, due_at=at + 100,
                       next_at=at + 50)


async def test_several_steps_leave_the_deadlines_their_plans_leave_in_turn(store: Store) -> None:
    (g,) = await active_games(store, 1)
    await store.put_deadlines([deadline(g.id, 0, 1.0), deadline(g.id, 1, 1.0)])
    steps = [
        # keeps seat 0, writes seat 1 anew
        MoveWrite(seat=0, action="{}", state='{"v":1}', finished=False,
                  deadlines=DeadlinePlan(frozenset({0}), (deadline(g.id, 1, 2.0),))),
        MoveWrite(seat=1, action="{}", state='{"v":2}', finished=False),  # leaves them be
        # keeps seat 1 (as the first step wrote it), writes seat 0 anew
        MoveWrite(seat=1, action="{}", state='{"v":3}', finished=False,
                  deadlines=DeadlinePlan(frozenset({1}), (deadline(g.id, 0, 3.0),))),
    ]
    assert await store.commit_moves(g.id, expected_version=0, steps=steps) == 3
    assert await store.deadlines(g.id) == [deadline(g.id, 0, 3.0), deadline(g.id, 1, 2.0)]
    end = MoveWrite(seat=0, action="{}", state='{"v":4}', finished=True)
    await store.commit_moves(g.id, expected_version=3, steps=[end])
    assert await store.deadlines(g.id) == []


# ---------------------------------------------------------------- per-game locks


async def test_writes_of_different_games_do_not_wait_for_each_other(
    two: tuple[Store, Store], url: str
) -> None:
    a_store, b_store = two
    a, b = await active_games(a_store, 2)
    held, release = asyncio.Event(), asyncio.Event()

    async def hold_a() -> None:
        async with a_store._write(locks=game_locks(a.id)) as db:
            await db.execute("UPDATE games SET locale = 'en' WHERE id = ?", (a.id,))
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold_a())
    try:
        await held.wait()
        # The other process: b's own writes and a move of b go through while a is held.
        await asyncio.wait_for(b_store.set_locale(b.id, "en"), PATIENCE)
        assert await asyncio.wait_for(move(b_store, b.id, 0), PATIENCE) == 1
        await asyncio.wait_for(b_store.add_watcher(b.id, 99), PATIENCE)
        # And a's wait only for a.
        blocked = asyncio.create_task(b_store.set_locale(a.id, "fr"))
        moving = asyncio.create_task(move(b_store, a.id, 0))
        await asyncio.wait_for(until_waiting(url, lock_key(("game", a.id))), PATIENCE)
        assert not blocked.done() and not moving.done()
    finally:
        release.set()
        await holder
    await asyncio.wait_for(asyncio.gather(blocked, moving), PATIENCE)
    assert (await a_store.get_game(a.id)).locale == "fr"  # type: ignore[union-attr]
    await assert_moved(a_store, a.id, 1)


async def test_two_processes_moving_one_game_land_one_move_each_version(
    two: tuple[Store, Store],
) -> None:
    a_store, b_store = two
    (g,) = await active_games(a_store, 1)
    for v in range(10):
        results = await asyncio.gather(move(a_store, g.id, v), move(b_store, g.id, v),
                                       return_exceptions=True)
        assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
    await assert_moved(a_store, g.id, 10)


async def test_a_write_naming_no_lock_waits_for_every_game(two: tuple[Store, Store], url: str) -> None:
    a_store, b_store = two
    (a,) = await active_games(a_store, 1)
    held, release = asyncio.Event(), asyncio.Event()

    async def hold_a() -> None:
        async with a_store._write(locks=game_locks(a.id)):
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold_a())
    try:
        await held.wait()
        # A write naming no lock (one that reads and decides across games) runs alone.
        across = asyncio.create_task(raw_write(b_store))
        await asyncio.wait_for(until_waiting(url, pg_writers_lock()), PATIENCE)
        assert not across.done()
    finally:
        release.set()
        await holder
    await asyncio.wait_for(across, PATIENCE)
    assert (await a_store.get_game(a.id)).locale == "fr"  # type: ignore[union-attr]


async def raw_write(store: Store) -> None:
    """A write across every game, naming no lock."""
    async with store._write() as db:
        await db.execute("UPDATE games SET locale = 'fr'")


def pg_writers_lock() -> int:
    """The key of the writers' lock."""
    from storage.dialect_postgres import WRITE_LOCK

    return WRITE_LOCK


# ---------------------------------------------------------------- SKIP LOCKED claims


async def held_row(url: str, sql: str, *args: Any) -> tuple[asyncpg.Connection, Any]:
    """A connection holding rows locked in an open transaction (another process mid-claim)."""
    conn = await asyncpg.connect(url)
    tx = conn.transaction()
    await tx.start()
    await conn.execute(sql, *args)
    return conn, tx


async def test_a_deadline_being_claimed_elsewhere_is_passed_over_not_waited_for(
    two: tuple[Store, Store], url: str
) -> None:
    store, _ = two
    (g,) = await active_games(store, 1)
    row = deadline(g.id, 0, 1.0)
    await store.put_deadlines([row])
    conn, tx = await held_row(url, "SELECT 1 FROM deadlines WHERE game = $1 FOR UPDATE", g.id)
    try:
        assert not await asyncio.wait_for(store.claim_deadline(row), PATIENCE)
        later = DeadlineRow(**{**row.__dict__, "next_at": 99.0})
        assert not await asyncio.wait_for(store.update_deadline(later, row), PATIENCE)
    finally:
        await tx.rollback()
        await conn.close()
    assert await store.claim_deadline(row)
    assert await store.deadlines(g.id) == []


async def test_two_claimers_never_take_the_same_deadline(two: tuple[Store, Store]) -> None:
    a_store, b_store = two
    games = await active_games(a_store, 10)
    rows = [deadline(g.id, s, 1.0) for g in games for s in (0, 1)]
    await a_store.put_deadlines(rows)

    async def claim_all(store: Store) -> list[bool]:
        return list(await asyncio.gather(*(store.claim_deadline(r) for r in rows)))

    mine, theirs = await asyncio.gather(claim_all(a_store), claim_all(b_store))
    # Each row by exactly one of them (a row passed over while held was then gone).
    assert [x + y for x, y in zip(mine, theirs, strict=True)] == [1] * len(rows)
    assert all([await a_store.deadlines(g.id) == [] for g in games])


async def test_a_lease_being_taken_elsewhere_is_passed_over_and_has_one_owner(
    two: tuple[Store, Store], url: str
) -> None:
    a_store, b_store = two
    assert await a_store.take_lease("clock", "A", 1000.0, 10.0)
    conn, tx = await held_row(url, "SELECT 1 FROM leases WHERE name = 'clock' FOR UPDATE")
    try:
        # Expired, but another process is on the row right now: that one has it.
        assert not await asyncio.wait_for(b_store.take_lease("clock", "B", 2000.0, 10.0), PATIENCE)
    finally:
        await tx.rollback()
        await conn.close()
    assert await b_store.take_lease("clock", "B", 2000.0, 10.0)
    # Many asking at once for many names: each name has one owner.
    names = [f"job{i}" for i in range(12)]
    won = await asyncio.gather(*(s.take_lease(n, who, 3000.0, 10.0) for n in names
                                 for s, who in ((a_store, "A"), (b_store, "B"))))
    assert [won[2 * i] + won[2 * i + 1] for i in range(len(names))] == [1] * len(names)
    for i, n in enumerate(names):
        held = await a_store.lease(n)
        assert held is not None and held.owner == ("A" if won[2 * i] else "B")


async def test_pruning_passes_over_changes_held_elsewhere_and_shares_the_work(
    two: tuple[Store, Store], url: str
) -> None:
    a_store, b_store = two
    (g,) = await active_games(a_store, 1)
    ids = [await a_store.add_change(g.id, {"n": i}) for i in range(25)]
    for i in ids:
        await a_store.outbox_done(i)
    conn, tx = await held_row(url, "SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE", ids[0])
    try:
        # The held change is passed over (not waited for); the rest go, a few at a time.
        assert await asyncio.wait_for(a_store.prune_outbox(1e12, chunk=4), PATIENCE) == 24
    finally:
        await tx.rollback()
        await conn.close()
    assert [c.id for c in await a_store.open_changes()] == []
    assert await a_store.outbox_row(ids[0]) is not None
    # Two processes pruning at once never both delete one change.
    more = [await a_store.add_change(g.id, {"m": i}) for i in range(40)]
    for i in more:
        await a_store.outbox_done(i)
    counts = await asyncio.gather(a_store.prune_outbox(1e12, chunk=3),
                                  b_store.prune_outbox(1e12, chunk=3))
    assert sum(counts) == 41
    assert await a_store.outbox_row(ids[0]) is None


async def test_a_change_being_claimed_elsewhere_is_passed_over_not_waited_for(
    two: tuple[Store, Store], url: str
) -> None:
    store, _ = two
    (g,) = await active_games(store, 1)
    change = await store.add_change(g.id, {"n": 1})
    conn, tx = await held_row(url, "SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE", change)
    try:
        assert await asyncio.wait_for(store.claim_change(change, "B", 200.0, 100.0), PATIENCE) is None
    finally:
        await tx.rollback()
        await conn.close()
    assert await store.claim_change(change, "B", 200.0, 100.0) is not None


async def test_two_processes_claiming_every_change_at_once_never_take_one_twice(
    two: tuple[Store, Store]
) -> None:
    a_store, b_store = two
    games = await active_games(a_store, 4)
    changes = [await a_store.add_change(g.id, {"n": i}) for i in range(15) for g in games]

    async def claim_all(store: Store, owner: str) -> list[bool]:
        got = await asyncio.gather(*(store.claim_change(c, owner, 200.0, 100.0) for c in changes))
        return [row is not None for row in got]

    mine, theirs = await asyncio.gather(claim_all(a_store, "A"), claim_all(b_store, "B"))
    assert [x + y for x, y in zip(mine, theirs, strict=True)] == [1] * len(changes)
    # and each stays with the one that took it
    again = await asyncio.gather(*(b_store.claim_change(c, "B", 200.0, 150.0) for c in changes))
    assert [row is not None for row in again] == theirs
