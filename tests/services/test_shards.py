"""Several processes on one database: moves racing on one game, a deadline owned through a
lease (fired once, taken over when its owner is killed), a tournament round opened once."""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from services.session import SessionService
from services.tournament import TournamentService
from storage import Store

from .shard_worker import finish_table, race
from .test_tournament_service import FakeHost, new_tournament

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB = 101, 202


async def _started(db: str, *, clock: int | None = None) -> int:
    store = await Store.open(db)
    try:
        svc = SessionService(store, seed_source=lambda: 77)
        g = await svc.create(guild_id=1, channel_id=900, game_id="rey_hierofante", options={},
                             host_id=ALICE, host_name="alice", locale="es", clock_seconds=clock)
        await svc.join(g.id, user_id=BOB, name="bob", locale="en")
        await svc.start(g.id, by=ALICE)
        return g.id
    finally:
        await store.close()


def _processes(target: Any, args_of: Any, n: int = 2) -> list:
    """Run ``target`` in ``n`` spawned processes; their results, in the order they came.

    The targets live in ``shard_worker``, which imports only what a process needs (not the
    tournament service's tests, nor this module's imports): each process pays its imports."""
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


def test_moves_from_two_processes_on_one_game_one_lands_the_other_is_stale(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    game = asyncio.run(_started(db))
    results = dict(_processes(race, lambda i: (db, game, i)))
    assert len(results[0]) == len(results[1]) > 0
    landed = 0
    for (v0, r0), (v1, r1) in zip(results[0], results[1], strict=True):
        assert v0 == v1
        assert sorted([r0, r1]) == ["landed", "stale"], (v0, r0, r1)
        landed += 1

    async def check() -> None:
        store = await Store.open(db)
        try:
            log = await store.actions(game)
            row = await store.get_game(game)
        finally:
            await store.close()
        # Nothing lost, nothing doubled: one move per round, in order, and the stored game
        # is the replay of exactly those moves.
        assert [a.seq for a in log] == list(range(1, landed + 1))
        assert row is not None and row.version == landed
        svc = SessionService(await Store.open(db))
        try:
            lines = await svc.replay(game, None)
            assert len(lines) == landed
        finally:
            await svc.store.close()

    asyncio.run(check())


async def test_a_cached_game_follows_moves_made_by_another_process(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    game = await _started(db)
    a_store, b_store = await Store.open(db), await Store.open(db)
    try:
        a, b = SessionService(a_store), SessionService(b_store)
        a.shared = b.shared = True
        for turn in range(6):
            mover = a if turn % 2 == 0 else b
            g = await mover.require(game)
            seat = sorted(g.pending())[0]
            user = g.seats[seat].user_id
            # The version the player saw on the board: the stored one, whoever moved last.
            await mover.move(game, user, g.legal_actions(seat)[0].model_dump(mode="json"), g.version)
        ga, gb = await a.require(game), await b.require(game)
        assert ga.version == gb.version == 6
        assert ga.engine.dump_state(ga.state) == gb.engine.dump_state(gb.state)
    finally:
        await a_store.close()
        await b_store.close()


# ---------------------------------------------------------------------------------- the clock

TTL = 2.0
CLOCK = 4  # seconds: reminders at 2 s and about 3.7 s, the timeout at 4 s


class Worker:
    """``python -m tests.services.shard_worker clock``: one process of the clock's owners."""

    def __init__(self, db: str) -> None:
        self.db = db
        self.lines: list[tuple[float, list[str]]] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> Worker:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.services.shard_worker", "clock", self.db, str(TTL),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append((time.monotonic(), raw.decode().split()))

    def said(self, word: str) -> list[tuple[float, list[str]]]:
        return [(t, ln) for t, ln in self.lines if ln and ln[0] == word]

    async def kill(self) -> float:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        return time.monotonic()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._reader is not None:
            await asyncio.wait_for(self._reader, 5)


async def _until(predicate: Any, timeout: float) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)


async def test_a_deadline_fires_once_and_is_taken_over_when_its_owner_is_killed(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "t.db")
    await (await Store.open(db)).close()  # migrated before the workers start
    workers = [await Worker(db).start(), await Worker(db).start()]
    try:
        await _until(lambda: sum(len(w.said("taken")) for w in workers) == 1
                     and all(w.said("owner") for w in workers), 30)
        game = await _started(db, clock=CLOCK)
        # alice's wait: two reminders and the timeout, each once, by the lease's holder.
        await _until(lambda: any(w.said("timeout") for w in workers), 60)
        owner = next(w for w in workers if w.said("taken"))
        other = next(w for w in workers if w is not owner)
        [(_, first)] = owner.said("timeout")
        assert first[1:3] == [str(game), "0"], first
        assert [ln[3] for _, ln in owner.said("remind")] == ["1", "2"]
        assert not other.said("timeout") and not other.said("remind") and not other.said("taken")
        # The AI played alice's turn; bob is pending now, with a wait of his own. Its owner
        # dies: within the lease's time the other process takes the clock over and times bob out.
        killed = await owner.kill()
        await _until(lambda: other.said("taken"), TTL * 4 + 5)
        [(taken_at, _)] = other.said("taken")
        # How soon is a figure (bench/bench_shards.py), not a test: a loaded machine delays
        # the survivor's renewals. What matters is that the takeover came, once.
        assert taken_at >= killed, (taken_at, killed)
        await _until(lambda: other.said("timeout"), CLOCK + 10)
        [(_, second)] = other.said("timeout")
        assert second[1:3] == [str(game), "1"], second
        store = await Store.open(db)
        try:
            log = await store.actions(game)
            lease = await store.lease("clock")
        finally:
            await store.close()
        # Once each: alice's moves up to the first timeout, then bob's up to the second.
        cut = int(first[3])
        assert [a.seq for a in log] == list(range(1, int(second[3]) + 1))
        assert {a.seat for a in log if a.seq <= cut} == {0}
        assert {a.seat for a in log if a.seq > cut} == {1}
        assert lease is not None and lease.owner == other.said("owner")[0][1][1]
    finally:
        for w in workers:
            await w.stop()


# ----------------------------------------------------------------------------- tournaments

def test_the_last_two_tables_ending_at_once_in_two_processes_open_the_next_round_once(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "t.db")

    async def setup() -> tuple[int, list[int]]:
        store = await Store.open(db)
        try:
            svc = TournamentService(store, FakeHost(store))
            t = await new_tournament(svc, 4, format="swiss", rounds=2, seeding="random")
            await svc.start(t.id)
            return t.id, [m.game for m in await svc.store.matches(t.id, 1)]
        finally:
            await store.close()

    for _ in range(2):  # twice: who wins the race varies
        t, games = asyncio.run(setup())
        assert len(games) == 2
        results = dict(_processes(finish_table, lambda i, g=games: (db, g[i])))
        opened = [r for r in results.values() if r[0] is not None]
        assert [r[0] for r in opened] == [2] and opened[0][1] == 2, results

        async def check(tid: int = t) -> None:
            store = await Store.open(db)
            try:
                svc = TournamentService(store, FakeHost(store))
                row = await svc.store.get_tournament(tid)
                assert row is not None and row.current_round == 2
                assert len(await svc.store.matches(tid, 2)) == 2
                assert all(m.game is not None for m in await svc.store.matches(tid, 2))
            finally:
                await store.close()

        asyncio.run(check())
