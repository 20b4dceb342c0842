"""Start to ready with 100,000 stored games, and the memory the bot then uses: the real bot
(``python bot.py``, its own process) against the fake Discord, as a host runs it.

    python bench/bench_start_100k.py [--games 100000] [--open-share 0.02] [--repeats 3]
                                     [--workers 0 1] [--source]

The SQLite file is filled quickly in bulk: Rey y Hierofante games with real states, two
seats and eight logged moves each, mostly finished (with their results, as the bot stores
them) and some open (``--open-share``). For
each start it prints the time from launching the process to discord.py's ready (store
opened and migrated, cogs loaded, persistent components registered, commands synced,
gateway connected), the resident memory (RSS) of the bot at ready and five seconds later,
what it did in those five seconds (processor seconds, requests to Discord: the work a start
owes in the background, a look at the open games with a bot seat or no message stored, none
here), and the memory of its picture workers with ``--workers``.

The project's modules are compiled to bytecode first, as the container image does
(``python -m compileall`` in the Dockerfile) and as Python does itself on a host's first
start: a host does not compile every module at every start. ``--source`` leaves that out
(where PYTHONDONTWRITEBYTECODE is set and nothing was compiled, every start then compiles
about 200 modules from source, some 0.3 s on this machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rules.registry import engine  # noqa: E402
from storage import Store  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402

MOVES_PER_GAME = 8


async def fill(path: Path, games: int, open_share: float) -> None:
    """The schema through the store, then games, seats and logged moves in bulk."""
    store = await Store.open(path)
    await store.close()
    eng = engine("rey_hierofante")
    rng = random.Random(1)
    states = []
    for s in range(20):
        st = eng.setup(2, {}, s)
        for _ in range(rng.randint(0, 8)):
            if st.finished:
                break
            seat = next(iter(eng.pending(st)))
            st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
        states.append(eng.dump_state(st))
    action = json.dumps({"kind": "place", "tile": "rey", "square": 4})
    now = time.time()
    n_open = round(games * open_share)
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA synchronous = OFF")
        # Open games spread through the table as a live bot's are, not all first.
        opened = set(random.Random(2).sample(range(games), n_open))
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game_id, options, status, seed, version,"
            " state, host_id, locale, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            ((i + 1, 1 + i % 300, 10**17 + i, eng.id, "{}", "active" if i in opened else "finished", i,
              MOVES_PER_GAME, states[i % 20], 42, "es", now - i, now - i) for i in range(games)),
        )
        db.executemany(
            "INSERT INTO seats (game, seat, user_id, ai, name) VALUES (?, ?, ?, FALSE, ?)",
            ((g, s, 10**16 + 2 * g + s, f"p{s}") for g in range(1, games + 1) for s in (0, 1)),
        )
        # A finished game's result is stored when it ends; a finished game without one is
        # taken as a result a crash kept from being stored, and is recorded at start-up.
        finished = [i for i in range(games) if i not in opened]
        db.executemany(
            "INSERT INTO results (game, guild_id, game_id, finished_at, nobody_won, rated) VALUES (?,?,?,?,?,?)",
            ((i + 1, 1 + i % 300, eng.id, now - i, False, True) for i in finished),
        )
        db.executemany(
            "INSERT INTO result_places (game, seat, user_id, place, score) VALUES (?,?,?,?,?)",
            ((i + 1, s, 10**16 + 2 * (i + 1) + s, s, None) for i in finished for s in (0, 1)),
        )
        db.execute("UPDATE games SET finished_at = updated_at WHERE status = 'finished'")
        # Every game's card was posted and stored, as a live bot's are.
        db.execute("UPDATE games SET board_channel_id = channel_id, board_message_id = ? + id", (10**18,))
        db.executemany(
            "INSERT INTO actions (game, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            ((g, q, q % 2, action, now) for g in range(1, games + 1) for q in range(1, MOVES_PER_GAME + 1)),
        )
        db.commit()


def cpu_seconds(pid: int) -> float:
    """Processor seconds (user and system) ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of ``pid`` in kB."""
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found["VmRSS"], found["VmHWM"]


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (the picture workers, multiprocessing's tracker)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
            except (OSError, IndexError):
                pass
    return out


async def one_start(db: Path, workers: int, log: Path) -> dict[str, float]:
    """Launch the bot, wait for ready, read its memory, stop it."""
    fake = FakeDiscord()
    await fake.start()
    fake.add_guild("Bench", ["games"], [fake.add_user("alice")])
    env = {**os.environ, "DISCORD_TOKEN": "fake-token", "TABLERO_DB": str(db),
           "TABLERO_DISCORD_API": fake.http_base, "TABLERO_DISCORD_GATEWAY": fake.gateway_url,
           "TABLERO_READY_WAIT": "0.05", "TABLERO_LOG_FORMAT": "json", "TABLERO_LOG_LEVEL": "INFO",
           "TABLERO_PICTURE_WORKERS": str(workers)}
    t0 = time.perf_counter()
    with open(log, "wb") as err:
        proc = await asyncio.create_subprocess_exec(sys.executable, "bot.py", cwd=ROOT, env=env,
                                                    stdout=asyncio.subprocess.DEVNULL, stderr=err)
    marks: dict[str, float] = {}
    try:
        async with asyncio.timeout(300):
            while "ready" not in marks:
                for line in log.read_text(errors="replace").splitlines():
                    try:
                        event = json.loads(line).get("event")
                    except ValueError:
                        continue
                    if event in ("start", "ready") and event not in marks:
                        marks[event] = time.perf_counter() - t0
                if proc.returncode is not None:
                    raise RuntimeError(log.read_text()[-2000:])
                await asyncio.sleep(0.01)
        rss, _ = rss_kb(proc.pid)
        cpu, asked = cpu_seconds(proc.pid), len(fake.requests)
        await asyncio.sleep(5)
        rss5, hwm = rss_kb(proc.pid)
        cpu5, asked5 = cpu_seconds(proc.pid) - cpu, len(fake.requests) - asked
        workers_rss = sum(rss_kb(c)[0] for c in children(proc.pid))
        proc.terminate()
        await asyncio.wait_for(proc.wait(), 60)
        return {"start": marks["start"], "ready": marks["ready"], "rss": rss / 1024, "rss5": rss5 / 1024,
                "hwm": hwm / 1024, "children": workers_rss / 1024, "cpu5": cpu5, "asked5": asked5}
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await fake.stop()


def compile_project() -> None:
    """Compile the bot's modules to bytecode, as the container image does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "bot.py", "cogs", "rules", "services", "storage"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


async def run(games: int, open_share: float, repeats: int, workers: list[int], source: bool) -> None:
    """Fill a store, then time starts on it."""
    if not source:
        compile_project()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        t0 = time.perf_counter()
        await fill(db, games, open_share)
        size = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20
        print(f"stored {games} games ({round(games * open_share)} open), {games * MOVES_PER_GAME} moves, "
              f"{size:.0f} MB, in {time.perf_counter() - t0:.1f} s")
        for w in workers:
            results = [await one_start(db, w, Path(tmp) / f"bot-{w}-{i}.log") for i in range(repeats)]
            results.sort(key=lambda r: r["ready"])
            mid = results[len(results) // 2]
            print(f"picture workers {w}: launch to ready median {mid['ready']:.2f} s "
                  f"(worst {results[-1]['ready']:.2f} s; of which Python and imports until the store opens "
                  f"{mid['start']:.2f} s) over {repeats} starts")
            print(f"    bot RSS at ready {mid['rss']:.0f} MB, 5 s later {mid['rss5']:.0f} MB "
                  f"(peak {mid['hwm']:.0f} MB); its child processes {mid['children']:.0f} MB")
            print(f"    in the 5 s after ready: {mid['cpu5']:.2f} s of processor, "
                  f"{mid['asked5']} requests to Discord")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--open-share", type=float, default=0.02)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--workers", type=int, nargs="+", default=[0, 1])
    p.add_argument("--source", action="store_true", help="do not compile the modules to bytecode first")
    a = p.parse_args()
    asyncio.run(run(a.games, a.open_share, a.repeats, a.workers, a.source))


if __name__ == "__main__":
    main()
