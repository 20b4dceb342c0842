"""Group commit: moves of different games that arrive together share one transaction, each
guarded by its own version and undone alone when it fails, every caller answered only after
the COMMIT; a process killed at that COMMIT has answered nobody and written nothing."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from storage import GameRow, StaleVersion, Store
from storage.group_commit import GroupCommit
from storage.outbox import ChangeNote

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "t.db")
    yield s
    await s.close()


@pytest.fixture(params=["on_thread", "statements"])
async def grouped(request: pytest.FixtureRequest, store: Store) -> Store:
    """The store with group commit running a batch in one trip to SQLite's thread (the
    default), or statement by statement as on a connection without a thread of its own."""
    if request.param == "statements":
        store._group = GroupCommit(store._write)
    return store


async def active_games(store: Store, n: int) -> list[GameRow]:
    """``n`` two-player games, each started at version 0 in a channel of its own."""
    games = []
    for i in range(n):
        g = await store.create_game(guild_id=1, channel_id=100 + i, game_id="ragami",
                                    options={}, host_id=10, locale="es")
        await store.add_seat(g.id, user_id=10, name="a")
        await store.add_seat(g.id, user_id=11, name="b")
        games.append(await store.start_game(g.id, seed=7, state='{"v":0}'))
    return games


async def move(store: Store, game: int, version: int, change: ChangeNote | None = None,
               *, own: bool = False) -> int:
    """Commit move number version+1 of ``game`` with JSON that names both (``own``: made by
    the seat's player)."""
    return await store.commit_move(
        game, expected_version=version, seat=version % 2, action=f'{{"g":{game},"n":{version + 1}}}',
        state=f'{{"g":{game},"v":{version + 1}}}', finished=False, change=change, own=own,
    )


async def assert_moved(store: Store, game: int, version: int) -> None:
    """The game stands at ``version`` with a state and a log that agree, no gap, no half move."""
    row = await store.get_game(game)
    assert row is not None and row.version == version
    assert row.state == (f'{{"g":{game},"v":{version}}}' if version else '{"v":0}')
    log = await store.actions(game)
    assert [a.seq for a in log] == list(range(1, version + 1))
    assert [a.action for a in log] == [f'{{"g":{game},"n":{i}}}' for i in range(1, version + 1)]


def batches(store: Store) -> int:
    """How many group transactions the store has committed (or tried to)."""
    assert store._group is not None
    return store._group.batches


async def test_many_games_moving_at_once_all_land_with_their_versions_in_few_commits(
    grouped: Store,
) -> None:
    store = grouped
    games = await active_games(store, 30)
    before = batches(store)

    async def play(game: int, moves: int) -> list[int]:
        return [await move(store, game, v) for v in range(moves)]

    results = await asyncio.gather(*(play(g.id, 4) for g in games))
    assert results == [[1, 2, 3, 4]] * len(games)
    for g in games:
        await assert_moved(store, g.id, 4)
    # 120 moves: each round of 30 arrives together and shares a transaction (the first
    # may commit alone, the rest queue behind it), far fewer than one per move.
    assert batches(store) - before <= 12


async def test_a_stale_move_in_a_batch_is_refused_alone_and_the_rest_land(grouped: Store) -> None:
    store = grouped
    a, b, c = await active_games(store, 3)
    assert await move(store, b.id, 0) == 1
    before = batches(store)
    results = await asyncio.gather(
        move(store, a.id, 0), move(store, b.id, 0), move(store, c.id, 0),  # b is at 1 already
        return_exceptions=True,
    )
    assert batches(store) - before == 1  # all three in one transaction
    assert results[0] == 1 and results[2] == 1
    assert isinstance(results[1], StaleVersion)
    await assert_moved(store, a.id, 1)
    await assert_moved(store, b.id, 1)  # its first move only
    await assert_moved(store, c.id, 1)


async def test_a_move_that_fails_half_way_is_undone_alone_and_loses_no_other(grouped: Store) -> None:
    store = grouped
    a, b, c = await active_games(store, 3)
    # A log row already where b's move will write its own: its UPDATE of the game goes
    # through, then its INSERT fails; the savepoint must take the UPDATE back too.
    async with store._write() as db:
        await db.execute("INSERT INTO actions (game, seq, seat, action, at) VALUES (?, 1, 0, '{}', 0)",
                         (b.id,))
    notes = [ChangeNote({"n": i}) for i in range(3)]
    before = batches(store)
    results = await asyncio.gather(
        *(move(store, g.id, 0, note) for g, note in zip((a, b, c), notes, strict=True)),
        return_exceptions=True,
    )
    assert batches(store) - before == 1
    assert results[0] == 1 and results[2] == 1
    assert "UNIQUE" in str(results[1])
    await assert_moved(store, a.id, 1)
    await assert_moved(store, c.id, 1)
    row = await store.get_game(b.id)
    assert (row.version, row.state) == (0, '{"v":0}')
    assert [(x.seq, x.action) for x in await store.actions(b.id)] == [(1, "{}")]
    # The moves that landed brought their outbox rows; the failed one brought none.
    changes = await store.open_changes()
    assert sorted((ch.game, ch.payload["n"]) for ch in changes) == [(a.id, 0), (c.id, 2)]
    assert {notes[0].id, notes[2].id} == {ch.id for ch in changes}
    # And b goes on once the stray row is gone.
    async with store._write() as db:
        await db.execute("DELETE FROM actions WHERE game = ?", (b.id,))
    assert await move(store, b.id, 0) == 1


async def test_each_moves_outbox_row_commits_with_it(grouped: Store) -> None:
    store = grouped
    games = await active_games(store, 8)
    notes = [ChangeNote({"g": g.id}) for g in games]
    await asyncio.gather(*(move(store, g.id, 0, n) for g, n in zip(games, notes, strict=True)))
    for g, note in zip(games, notes, strict=True):
        assert note.id is not None
        row = await store.outbox_row(note.id)
        assert row is not None and row.game == g.id and row.payload == {"g": g.id}
    # A second commit of the same change rewrites its row (still in the move's transaction).
    for n in notes:
        n.payload = {**n.payload, "again": True}
    await asyncio.gather(*(move(store, g.id, 1, n) for g, n in zip(games, notes, strict=True)))
    assert sorted((ch.game, ch.payload.get("again")) for ch in await store.open_changes()) == [
        (g.id, True) for g in games
    ]


def gated(store: Store, gate: asyncio.Event, reached: asyncio.Event,
          fail: BaseException | None = None) -> Any:
    """The store's transaction, held open after the writes until ``gate`` is set (and then
    failing with ``fail`` instead of committing, when given)."""

    @asynccontextmanager
    async def transaction() -> AsyncIterator[Any]:
        async with store._write() as db:
            yield db
            reached.set()
            await gate.wait()
            if fail is not None:
                raise fail

    return transaction


async def test_nobody_is_answered_before_the_commit(store: Store, tmp_path: Path) -> None:
    games = await active_games(store, 5)
    gate, reached = asyncio.Event(), asyncio.Event()
    store._group = GroupCommit(gated(store, gate, reached))
    tasks = [asyncio.create_task(move(store, g.id, 0)) for g in games]
    try:
        await reached.wait()  # every write ran, the COMMIT has not
        await asyncio.sleep(0.01)
        assert not any(t.done() for t in tasks)
        # Another connection sees none of it yet.
        other = await Store.open(tmp_path / "t.db")
        try:
            assert [(await other.get_game(g.id)).version for g in games] == [0] * 5
        finally:
            await other.close()
    finally:
        gate.set()  # even when failing, so the store can close
    assert await asyncio.gather(*tasks) == [1] * 5
    for g in games:
        await assert_moved(store, g.id, 1)


async def test_a_failed_commit_answers_every_caller_with_the_error_and_writes_nothing(
    store: Store,
) -> None:
    games = await active_games(store, 4)
    gate, reached = asyncio.Event(), asyncio.Event()
    gate.set()
    store._group = GroupCommit(gated(store, gate, reached, fail=OSError("disk full")))
    notes = [ChangeNote({"g": g.id}) for g in games]
    results = await asyncio.gather(
        *(move(store, g.id, 0, n) for g, n in zip(games, notes, strict=True)),
        return_exceptions=True,
    )
    assert [str(r) for r in results] == ["disk full"] * 4
    for g in games:
        await assert_moved(store, g.id, 0)
    assert await store.open_changes() == []


async def test_a_commit_that_fails_in_one_go_answers_every_caller_and_writes_nothing(
    store: Store,
) -> None:
    # A write whose foreign key is only checked at COMMIT (deferred): the COMMIT of the
    # whole batch fails, so the moves that went through their savepoints must not land.
    a, b = await active_games(store, 2)
    assert store._group is not None and store._group._on_thread is not None

    async def orphan(db: Any) -> None:
        await db.execute("PRAGMA defer_foreign_keys = ON")
        await db.execute("INSERT INTO actions (game, seq, seat, action, at) VALUES (999, 1, 0, '{}', 0)")

    before = batches(store)
    results = await asyncio.gather(move(store, a.id, 0, ChangeNote({"g": a.id})),
                                   store._group.run(orphan), move(store, b.id, 0),
                                   return_exceptions=True)
    assert batches(store) - before == 1
    assert all("FOREIGN KEY" in str(r) for r in results), results
    await assert_moved(store, a.id, 0)
    await assert_moved(store, b.id, 0)
    assert await store.open_changes() == []
    assert await move(store, a.id, 0) == 1  # no transaction was left open


async def test_a_grouped_write_that_awaits_anything_else_is_refused_alone(store: Store) -> None:
    a, b = await active_games(store, 2)
    assert store._group is not None

    async def suspends(db: Any) -> None:
        await db.execute("UPDATE games SET locale = 'en' WHERE id = ?", (a.id,))
        await asyncio.sleep(0)  # a write must only await its connection

    results = await asyncio.gather(move(store, a.id, 0), store._group.run(suspends),
                                   move(store, b.id, 0), return_exceptions=True)
    assert results[0] == 1 and results[2] == 1
    assert isinstance(results[1], RuntimeError)
    assert (await store.get_game(a.id)).locale == "es"
    await assert_moved(store, a.id, 1)
    await assert_moved(store, b.id, 1)


# The child commits one group of eight moves (queued together, they share one
# transaction) and reports each caller answered; at the COMMIT of the second group it dies
# (os._exit, from aiosqlite's thread).
CHILD = """
import asyncio, os, sys
from storage import Store
from storage.outbox import ChangeNote

async def main(path):
    store = await Store.open(path)
    games = []
    for i in range(16):
        g = await store.create_game(guild_id=1, channel_id=100 + i, game_id="ragami",
                                    options={}, host_id=1, locale="es")
        await store.add_seat(g.id, user_id=1, name="a")
        await store.add_seat(g.id, user_id=2, name="b")
        await store.start_game(g.id, seed=3, state='{"v":0}')
        games.append(g.id)

    async def move(game):
        await store.commit_move(game, expected_version=0, seat=0, action=f'{{"g":{game}}}',
                                state=f'{{"g":{game},"v":1}}', finished=False,
                                change=ChangeNote({"g": game}))
        print(f"answered {game}", flush=True)

    await asyncio.gather(*(move(g) for g in games[:8]))
    print("first group done", flush=True)

    def on_statement(sql):
        if sql.startswith("COMMIT"):
            os._exit(3)

    await store._db.set_trace_callback(on_statement)
    await asyncio.gather(*(move(g) for g in games[8:]))
    print("second group done", flush=True)

asyncio.run(main(sys.argv[1]))
"""


async def test_killed_at_the_commit_nobody_was_answered_and_nothing_is_half_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "crash.db"
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 3, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "first group done"  # nobody of the second group was answered
    first = sorted(int(line.split()[1]) for line in lines[:-1])
    assert len(first) == 8
    store = await Store.open(path)
    try:
        ids = await store.open_game_ids()
        assert len(ids) == 16
        written = []
        for g in ids:  # each game whole: moved with its log row and outbox row, or untouched
            row = await store.get_game(g)
            changes = await store.open_changes(g)
            if row.version:
                assert (row.version, row.state) == (1, f'{{"g":{g},"v":1}}')
                assert [a.action for a in await store.actions(g)] == [f'{{"g":{g}}}']
                assert [c.payload for c in changes] == [{"g": g}]
                written.append(g)
            else:
                assert row.state == '{"v":0}'
                assert await store.actions(g) == [] and changes == []
        # Every answered move is there; none of those killed at their COMMIT is.
        assert sorted(written) == first
    finally:
        await store.close()


async def test_without_group_commit_each_move_commits_alone(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.db", group_commit=False)
    try:
        assert store._group is None
        a, b = await active_games(store, 2)
        results = await asyncio.gather(move(store, a.id, 0), move(store, b.id, 5),
                                       return_exceptions=True)
        assert results[0] == 1 and isinstance(results[1], StaleVersion)
        await assert_moved(store, a.id, 1)
        await assert_moved(store, b.id, 0)
    finally:
        await store.close()


# Sixteen games moving at once, each reporting every move it was answered for; killed
# mid-stream, the store must hold every reported move, whole, and nothing half-written.
STREAM = """
import asyncio, sys
from storage import Store
from storage.outbox import ChangeNote

async def main(path):
    store = await Store.open(path)
    games = []
    for i in range(16):
        g = await store.create_game(guild_id=1, channel_id=100 + i, game_id="ragami",
                                    options={}, host_id=1, locale="es")
        await store.add_seat(g.id, user_id=1, name="a")
        await store.add_seat(g.id, user_id=2, name="b")
        await store.start_game(g.id, seed=3, state='{"v":0}')
        games.append(g.id)

    async def play(game):
        for v in range(10_000):
            await store.commit_move(game, expected_version=v, seat=v % 2,
                                    action=f'{{"g":{game},"n":{v + 1}}}',
                                    state=f'{{"g":{game},"v":{v + 1}}}', finished=False,
                                    change=ChangeNote({"g": game, "v": v + 1}))
            print(f"{game} {v + 1}", flush=True)

    await asyncio.gather(*(play(g) for g in games))

asyncio.run(main(sys.argv[1]))
"""


async def test_sigkill_while_many_games_move_loses_no_answered_move(tmp_path: Path) -> None:
    path = tmp_path / "stream.db"
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", STREAM, str(path)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    answered: dict[int, int] = {}
    for _ in range(300):
        game, version = map(int, proc.stdout.readline().split())
        answered[game] = max(answered.get(game, 0), version)
    proc.kill()
    proc.wait(timeout=10)
    proc.stdout.close()
    proc.stderr.close()
    assert len(answered) > 1
    store = await Store.open(path)
    try:
        for game in await store.open_game_ids():
            row = await store.get_game(game)
            assert row is not None and row.version >= answered.get(game, 0)
            if row.version:
                await assert_moved(store, game, row.version)
            changes = await store.open_changes(game)
            assert [c.payload["v"] for c in changes] == list(range(1, row.version + 1))
    finally:
        await store.close()
