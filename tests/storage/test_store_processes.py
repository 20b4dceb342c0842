"""Two processes moving on one game at once (a DM button in one, the channel's command in
another): every round exactly one move lands and the other is told it is stale."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from storage import Store

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 25

# Each child tries every round once, with the version that round starts from, then waits
# until the round is over (someone moved) before the next: both try each round, so each
# round is a real race, and exactly one of the two tries may land.
CHILD = """
import asyncio, sys
from storage import StaleVersion, Store

async def main(target, game, seat, rounds):
    store = await Store.open(target, pool_size=2)
    print("ready", flush=True)
    sys.stdin.readline()  # go
    for r in range(rounds):
        try:
            await store.commit_move(game, expected_version=r, seat=seat,
                                    action=f'{{"by":{seat},"r":{r}}}',
                                    state=f'{{"by":{seat},"v":{r + 1}}}', finished=False)
            print(f"{r} landed", flush=True)
        except StaleVersion:
            print(f"{r} stale", flush=True)
        while (await store.get_game(game)).version <= r:
            await asyncio.sleep(0.001)
    await store.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])))
"""


def _child(target: str | Path, game: int, seat: int) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(target), str(game), str(seat), str(ROUNDS)],
        cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


async def test_two_processes_racing_on_one_game_land_exactly_one_move_per_round(
    db_target: str | Path,
) -> None:
    store = await Store.open(db_target)
    try:
        g = await store.create_game(
            guild_id=1, channel_id=1, game_id="ragami", options={}, host_id=1, locale="es"
        )
        await store.add_seat(g.id, user_id=1, name="a")
        await store.add_seat(g.id, user_id=2, name="b")
        await store.start_game(g.id, seed=1, state='{"v":0}')
    finally:
        await store.close()

    procs = [_child(db_target, g.id, seat) for seat in (0, 1)]
    try:
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        for p in procs:  # both start together
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = await asyncio.gather(*(asyncio.to_thread(p.communicate, timeout=120) for p in procs))
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    said = [dict(line.split() for line in out.splitlines()) for out, _ in outs]

    store = await Store.open(db_target)
    try:
        row = await store.get_game(g.id)
        log = await store.actions(g.id)
    finally:
        await store.close()
    assert row.version == ROUNDS and [a.seq for a in log] == list(range(1, ROUNDS + 1))
    for r in range(ROUNDS):
        answers = sorted(said[seat][str(r)] for seat in (0, 1))
        assert answers == ["landed", "stale"], (r, answers)
        winner = 0 if said[0][str(r)] == "landed" else 1
        # The log row of the round is the winner's own, never the loser's nor a mix.
        assert (log[r].seat, log[r].action) == (winner, f'{{"by":{winner},"r":{r}}}')
    assert row.state == f'{{"by":{log[-1].seat},"v":{ROUNDS}}}'


async def test_two_stores_reading_and_writing_at_once_keep_every_write(db_target: str | Path) -> None:
    # Writes that read before they write (settings, seats, watchers) from two stores with
    # pools of their own: serialised as one writer would be, none fails, none is lost.
    s1 = await Store.open(db_target, pool_size=4)
    s2 = await Store.open(db_target, pool_size=4)
    try:
        lobby = await s1.create_game(
            guild_id=1, channel_id=1, game_id="ragami", options={}, host_id=1, locale="es"
        )
        calls = []
        for i in range(12):
            s = (s1, s2)[i % 2]
            calls.append(s.update_user(7, vacation_used=float(i)))
            calls.append(s.add_seat(lobby.id, user_id=100 + i, name=f"p{i}"))
            calls.append(s.add_watcher(lobby.id, 500 + i % 3))
            calls.append(s.update_guild(1, clock_seconds=60 * (i + 1)))
        results = await asyncio.gather(*calls, return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)]
        seats = await s2.seats(lobby.id)
        assert [s.seat for s in seats] == list(range(12))
        assert sorted(s.user_id for s in seats) == [100 + i for i in range(12)]
        assert await s1.watchers(lobby.id) == [500, 501, 502]
        assert sum(r is True for r in results[2::4]) == 3  # each watcher added once
        assert (await s1.user_settings(7)).vacation_used in {float(i) for i in range(12)}
    finally:
        await s1.close()
        await s2.close()
