"""What the outbox costs a move in the store: the commit alone, against the commit with its
change row, the expansion into the messages it owes and one "done" mark per message.

    PYTHONPATH=. python bench/bench_outbox.py [--moves 500] [--messages 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from storage import Store
from storage.outbox import ChangeNote, Owed


async def run(moves: int, messages: int, outbox: bool) -> list[float]:
    """Per-move seconds of ``moves`` moves on one game (with or without the outbox)."""
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.db")
        g = await store.create_game(
            guild_id=1,
            channel_id=1,
            game_id="rey_hierofante",
            options={},
            host_id=1,
            locale="es",
            host_seat=("a", None),
        )
        await store.add_seat(g.id, user_id=2, name="b")
        await store.start_game(g.id, seed=1, state="{}")
        owed = [Owed("record", "record", {"text": "x" * 200})] + [
            Owed("dm", f"dm:{i}", {"seat": i}) for i in range(messages - 1)
        ]
        times: list[float] = []
        for v in range(moves):
            t0 = time.perf_counter()
            note = ChangeNote({"from": v, "to": v + 1}) if outbox else None
            await store.commit_move(
                g.id,
                expected_version=v,
                seat=v % 2,
                action='{"k":1}',
                state='{"s":' + str(v) + "}",
                finished=False,
                change=note,
            )
            if note is not None and note.id is not None:
                rows = await store.expand_change(note.id, owed)
                for row in rows:
                    await store.outbox_done(row.id, change=note.id)
            times.append(time.perf_counter() - t0)
        await store.close()
        return times


def main() -> None:
    """Print p50/p99 per move, without and with the outbox."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--moves", type=int, default=500)
    p.add_argument("--messages", type=int, default=5)
    args = p.parse_args()
    for outbox in (False, True):
        times = sorted(asyncio.run(run(args.moves, args.messages, outbox)))
        p50 = statistics.median(times) * 1000
        p99 = times[int(len(times) * 0.99) - 1] * 1000
        label = f"commit + outbox ({args.messages} messages)" if outbox else "commit alone"
        print(f"{label:34s} p50 {p50:6.2f} ms  p99 {p99:6.2f} ms  ({args.moves} moves)")


if __name__ == "__main__":
    main()
