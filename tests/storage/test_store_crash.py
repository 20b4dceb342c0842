"""A process that dies without closing the store loses nothing it committed (on an
SQLite file, and on PostgreSQL, where the server keeps what the dead client committed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from storage import Store

ROOT = Path(__file__).resolve().parents[2]

# The child opens the store, creates and starts a game, commits moves and dies without
# closing anything: no COMMIT is pending, no checkpoint runs, the WAL is left as it is.
CHILD = """
import asyncio, os, sys
from storage import Store

async def main(path, n, exit_after):
    store = await Store.open(path)
    game = await store.create_game(guild_id=1, channel_id=1, game_id="ragami",
                                   options={}, host_id=1, locale="es")
    await store.add_seat(game.id, user_id=1, name="a")
    await store.add_seat(game.id, user_id=2, name="b")
    await store.start_game(game.id, seed=3, state='{"v":0}')
    print(f"game {game.id}", flush=True)
    for v in range(n):
        seq = await store.commit_move(game.id, expected_version=v, seat=v % 2,
                                      action=f'{{"n":{v + 1}}}', state=f'{{"v":{v + 1}}}',
                                      finished=False)
        print(f"committed {seq}", flush=True)  # only after commit_move returned
    if exit_after:
        os._exit(0)
    await asyncio.sleep(3600)  # wait to be killed

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3] == "exit"))
"""


def _child(path: str | Path, n: int, mode: str) -> subprocess.Popen[str]:
    """Start the child with the project importable however it was installed."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(n), mode],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def _check(path: str | Path, game: int, committed: int) -> None:
    """The reopened store holds at least every confirmed move, consistently."""
    store = await Store.open(path)
    try:
        row = await store.get_game(game)
        log = await store.actions(game)
        assert row.status == "active"
        assert row.version >= committed
        # No gap, no half move: version, state and log agree.
        assert [a.seq for a in log] == list(range(1, row.version + 1))
        assert [a.action for a in log] == [f'{{"n":{i}}}' for i in range(1, row.version + 1)]
        assert row.state == f'{{"v":{row.version}}}'
        assert [s.user_id for s in await store.seats(game)] == [1, 2]
        assert await store.open_game_ids() == [game]
        # And play resumes.
        assert (
            await store.commit_move(
                game, expected_version=row.version, seat=0, action="{}", state="{}", finished=False
            )
            == row.version + 1
        )
    finally:
        await store.close()


async def test_os_exit_without_close_loses_nothing(db_target: str | Path) -> None:
    path = db_target
    n = 25
    proc = _child(path, n, "exit")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    lines = out.splitlines()
    assert lines[-1] == f"committed {n}"
    if isinstance(path, Path):
        assert Path(f"{path}-wal").exists()  # the moves are in the WAL, never checkpointed
    await _check(path, int(lines[0].split()[1]), n)


async def test_sigkill_mid_stream_loses_no_confirmed_move(db_target: str | Path) -> None:
    # Killed while it is still committing: every move it reported must be there; the one
    # in flight may or may not be, but never half of it.
    path = db_target
    proc = _child(path, 10_000, "sleep")
    assert proc.stdout is not None
    game = int(proc.stdout.readline().split()[1])
    confirmed = 0
    while confirmed < 40:
        confirmed = int(proc.stdout.readline().split()[1])
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()
    proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    await _check(path, game, confirmed)
