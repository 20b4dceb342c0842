"""Time from start to ready with many stored games: the real bot against the fake Discord.

    python bench/bench_ready.py [--games 10000] [--open-share 1.0]

The store is filled with Rey y Hierofante games (real states, two seats each), then a
fresh bot process-in-process opens it, loads its cogs, registers its persistent
components, syncs commands and connects. "Ready" is discord.py's on_ready: from then on
every command and button works; an open game is read when first touched (in the background
only those with a bot seat or no card stored, none here).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Settings, create_bot  # noqa: E402
from rules.registry import engine  # noqa: E402
from storage import Store  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.harness import start_bot, stop_bot  # noqa: E402


async def fill(path: Path, games: int, open_share: float) -> None:
    """Create the schema through the store, then insert games in bulk."""
    store = await Store.open(path)
    await store.close()
    eng = engine("rey_hierofante")
    rng = random.Random(1)
    # A handful of real mid-game states, reused: the content does not change load time.
    states = []
    for s in range(20):
        st = eng.setup(2, {}, s)
        for _ in range(rng.randint(0, 8)):
            if st.finished:
                break
            seat = next(iter(eng.pending(st)))
            st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
        states.append(st)
    now = time.time()
    n_open = round(games * open_share)
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game_id, options, status, seed, version,"
            " state, host_id, locale, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [(i + 1, 1, 10**17 + i, eng.id, "{}", "active" if i < n_open else "finished", i,
              states[i % 20].version, eng.dump_state(states[i % 20]), 42, "es", now, now)
             for i in range(games)],
        )
        db.executemany(
            "INSERT INTO seats (game, seat, user_id, ai, name) VALUES (?, ?, ?, FALSE, ?)",
            [(g, s, 10**16 + 2 * g + s, f"p{s}") for g in range(1, games + 1) for s in (0, 1)],
        )
        # Every game's card was posted and stored, as a live bot's are.
        db.execute("UPDATE games SET board_channel_id = channel_id, board_message_id = ? + id", (10**18,))
        db.commit()


async def run(games: int, open_share: float, repeats: int) -> None:
    """Fill a store and time bot starts on it."""
    # The stored games' channels do not exist in the fake: the background checks fail
    # and log each failure; that is not what is measured here.
    logging.getLogger("tablero").setLevel(logging.CRITICAL)
    logging.getLogger("discord").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ready.db"
        t0 = time.perf_counter()
        await fill(path, games, open_share)
        print(f"stored {games} games ({round(games * open_share)} open) in "
              f"{time.perf_counter() - t0:.1f} s")
        times = []
        for _ in range(repeats):
            fake = FakeDiscord()
            await fake.start()
            fake.point_discord_py_here()
            bot = create_bot(Settings(token="fake-token", db_path=str(path)))
            t0 = time.perf_counter()
            task = await start_bot(fake, bot)
            times.append(time.perf_counter() - t0)
            n = len(await bot.session.open_games())
            await asyncio.sleep(1.0)
            checked = sum(1 for r in fake.requests if r.path.startswith("/channels/"))
            await stop_bot(bot, task)
            await fake.stop()
        times.sort()
        print(f"start to ready (store, cogs, persistent components, command sync, gateway): "
              f"median {times[len(times) // 2] * 1000:.0f} ms, worst {times[-1] * 1000:.0f} ms "
              f"over {repeats} starts; {n} open games known at ready")
        print(f"board look-ups in the first second after ready (background): {checked}")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--open-share", type=float, default=1.0)
    p.add_argument("--repeats", type=int, default=5)
    a = p.parse_args()
    asyncio.run(run(a.games, a.open_share, a.repeats))


if __name__ == "__main__":
    main()
