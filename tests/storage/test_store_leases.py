"""Leases and version checks shared by several processes on one database (an SQLite file
in WAL mode, or PostgreSQL)."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
from pathlib import Path
from typing import Any

from storage import StaleVersion, Store

TTL = 10.0
NAMES = [f"work{i}" for i in range(12)]


async def test_a_lease_has_one_owner_until_it_expires(db_target: str | Path) -> None:
    db = db_target
    a, b = await Store.open(db), await Store.open(db)
    try:
        assert await a.take_lease("clock", "A", 1000.0, TTL)
        assert not await b.take_lease("clock", "B", 1001.0, TTL)
        # A renews: its term runs from the renewal, and it keeps the time it first took it.
        assert await a.take_lease("clock", "A", 1008.0, TTL)
        assert not await b.take_lease("clock", "B", 1012.0, TTL)
        held = await b.lease("clock")
        assert held is not None and (held.owner, held.taken_at, held.expires_at) == ("A", 1000.0, 1018.0)
        # A stops renewing: once expired, B takes it over, and A learns it is no longer its.
        assert await b.take_lease("clock", "B", 1018.5, TTL)
        assert not await a.take_lease("clock", "A", 1019.0, TTL)
        held = await a.lease("clock")
        assert held is not None and (held.owner, held.taken_at) == ("B", 1018.5)
        # A clean stop gives it up at once; only its holder can.
        assert not await a.release_lease("clock", "A")
        assert await b.release_lease("clock", "B")
        assert await a.take_lease("clock", "A", 1020.0, TTL)
    finally:
        await a.close()
        await b.close()


def _take_all(db: str, owner: str, barrier: Any, out: mp.Queue) -> None:
    async def run() -> list[str]:
        store = await Store.open(db)
        try:
            barrier.wait()
            return [n for n in NAMES if await store.take_lease(n, owner, 5000.0, TTL)]
        finally:
            await store.close()

    out.put((owner, asyncio.run(run())))


def _commit_same_version(db: str, game: int, who: int, barrier: Any,
                         out: mp.Queue) -> None:
    async def run() -> list[str]:
        store = await Store.open(db)
        got: list[str] = []
        try:
            for version in range(12):
                barrier.wait()
                try:
                    await store.commit_move(game, expected_version=version, seat=who,
                                            action=f'{{"by": {who}}}', state=f'{{"v": {version + 1}}}',
                                            finished=False)
                    got.append("landed")
                except StaleVersion:
                    got.append("stale")
            return got
        finally:
            await store.close()

    out.put((who, asyncio.run(run())))


def _run(target, args_of, n: int = 2) -> list:
    ctx = mp.get_context("spawn")
    barrier, out = ctx.Barrier(n), ctx.Queue()
    procs = [ctx.Process(target=target, args=(*args_of(i), barrier, out)) for i in range(n)]
    for p in procs:
        p.start()
    results = [out.get(timeout=300) for _ in procs]  # generous: a loaded machine
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    return results


def test_two_processes_asking_at_once_each_lease_has_one_owner(db_target: str | Path) -> None:
    db = str(db_target)
    asyncio.run(_fresh(db))
    results = dict(_run(_take_all, lambda i: (db, f"P{i}")))
    won = results["P0"] + results["P1"]
    assert sorted(won) == sorted(NAMES), results


async def _fresh(db: str) -> int:
    store = await Store.open(db)
    try:
        g = await store.create_game(guild_id=1, channel_id=2, game_id="rey_hierofante", options={},
                                    host_id=1, locale="es", host_seat=("alice", "es"))
        await store.add_seat(g.id, user_id=2, name="bob")
        await store.start_game(g.id, seed=1, state='{"v": 0}')
        return g.id
    finally:
        await store.close()


def test_two_processes_committing_on_one_version_exactly_one_lands(db_target: str | Path) -> None:
    """The commit checks the version itself (UPDATE ... WHERE version = ?): with two
    processes committing at version v at once, one lands and the other is told it is
    stale, at every version, and the log holds one move per version."""
    db = str(db_target)
    game = asyncio.run(_fresh(db))
    results = dict(_run(_commit_same_version, lambda i: (db, game, i)))
    for version in range(12):
        assert sorted([results[0][version], results[1][version]]) == ["landed", "stale"], version

    async def check() -> None:
        store = await Store.open(db)
        try:
            log = await store.actions(game)
            row = await store.get_game(game)
        finally:
            await store.close()
        assert [a.seq for a in log] == list(range(1, 13))
        assert row is not None and row.version == 12 and row.state == '{"v": 12}'
        # Each move in the log is the one whose process was told it landed.
        for a in log:
            assert results[a.seat][a.seq - 1] == "landed"

    asyncio.run(check())
