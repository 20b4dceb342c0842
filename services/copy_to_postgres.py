"""Copy a Tablero SQLite database into an empty PostgreSQL database, then check the copy.

    python -m services.copy_to_postgres --from tablero.db --to postgresql://user@host/db

Every table is copied (games, seats, action logs, outbox, tournaments, ratings, decks,
settings...) in one transaction: a failure leaves the target as empty as it was. The
check then compares each table's row count and a digest of its rows on both sides, and
replays every started game's log from its seed (services/replay.py) to the state and
version stored for it. Stop the bot first: rows it writes during the copy are not copied.

The command refuses a target that already holds data. It exits 0 when the copy checks
out, 1 when a check failed, 2 when it could not start (bad source or target).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rules.registry import games
from services.replay import build_record, replay_record
from storage import Store
from storage.copy_tables import CopyRefused, CopyReport, copy_tables

__all__ = ["CopyRefused", "CopyReport", "copy_database", "main"]


async def copy_database(source: Path, target: str, *, out: Callable[[str], None] = print) -> CopyReport:
    """Copy ``source`` (SQLite file) into ``target`` (empty PostgreSQL URL) and check it."""
    report = await copy_tables(source, target, out=out)
    await _replay_all(target, report)
    return report


async def _replay_all(target: str, report: CopyReport) -> None:
    """Replay every started game's log from the copy and compare with its stored state."""
    engines = games()
    store = await Store.open(target, pool_size=2)
    try:
        ids = [r[0] for r in await store._fetchall("SELECT id FROM games ORDER BY id")]
        for gid in ids:
            row = await store.get_game(gid)
            assert row is not None
            if row.seed is None or row.state is None:
                report.not_started += 1
                continue
            engine = engines.get(row.game_id)
            if engine is None:
                report.replay_failures.append(f"game {gid}: no rules for {row.game_id!r}")
                continue
            try:
                stored = engine.load_state(row.state)
                record = build_record(
                    engine, game=gid, options=row.options,
                    players=[s.name for s in await store.seats(gid)], seed=row.seed,
                    rows=await store.actions(gid), finished=True, final=stored,
                )
                replayed = replay_record(record, engines)
            except Exception as e:  # any failure is a finding of the check, reported
                report.replay_failures.append(f"game {gid} ({row.game_id}): {e}")
                continue
            if replayed.version != row.version:
                report.replay_failures.append(
                    f"game {gid} ({row.game_id}): replay reaches version {replayed.version},"
                    f" stored {row.version}"
                )
                continue
            report.replayed += 1
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the copy from the command line and print the check."""
    ap = argparse.ArgumentParser(
        prog="python -m services.copy_to_postgres", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--from", dest="source", required=True, type=Path, help="the SQLite file")
    ap.add_argument("--to", dest="target", required=True, help="postgresql://user@host:port/db")
    args = ap.parse_args(argv)
    try:
        report = asyncio.run(copy_database(args.source, args.target))
    except CopyRefused as e:
        print(f"refused: {e}", file=sys.stderr)
        return 2
    width = max((len(t) for t in report.counts), default=5)
    for t, (a, b) in report.counts.items():
        mark = "ok" if a == b and t not in report.digests_differ else "DIFFERS"
        print(f"  {t:<{width}}  {a:>9,} -> {b:>9,}  {mark}")
    print(
        f"replayed {report.replayed:,} games to their stored state and version"
        f" ({report.not_started:,} never started)"
    )
    for f in report.replay_failures:
        print(f"  replay failed: {f}")
    print("the copy checks out" if report.ok else "THE COPY DOES NOT CHECK OUT")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
