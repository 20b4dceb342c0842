"""One of several processes sharing a database, run by the tests as ``python -m``.

``python -m tests.services.shard_worker clock DB TTL``: holds the "clock" lease when it can
and runs the turn clock's scheduler while it holds it, applying timeouts through the session
service (the AI plays the seat). Prints one line per event, flushed: ``owner NAME``,
``taken clock``, ``lost clock``, ``timeout GAME SEAT VERSION``, ``remind GAME SEAT N``.

It also holds the functions that ``test_shards.py`` runs in processes of its own (spawned:
each imports this module, which imports only what the race on one game needs).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from rules.core import NotYourTurn, StaleAction
from services.clock import Scheduler, SystemClock
from services.leases import Leases
from services.session import SessionService
from storage import Store
from storage.deadlines import DeadlineRow


def say(*parts: object) -> None:
    """One event line on stdout, at once (the test reads it while we run)."""
    print(*parts, flush=True)


async def clock(db: str, ttl: float) -> None:
    """Run the clock while this process holds its lease, until killed."""
    store = await Store.open(db)
    service = SessionService(store, clock=SystemClock())
    service.shared = True

    async def remind(row: DeadlineRow) -> None:
        say("remind", row.game, row.seat, row.reminders)

    async def expire(row: DeadlineRow) -> bool:
        result = await service.timeout(row)
        if result is None:
            return False
        say("timeout", row.game, row.seat, result.state.version)
        return True

    scheduler = Scheduler(store, service.clock, remind, expire)
    service.on_deadlines = scheduler.poke
    scheduler.max_sleep = ttl  # deadlines are written by other processes
    leases = Leases(store, ttl=ttl)
    say("owner", leases.owner)

    async def taken() -> None:
        say("taken", "clock")
        scheduler.start()

    async def lost() -> None:
        say("lost", "clock")
        await scheduler.stop()

    leases.job("clock", taken, lost)
    leases.start()
    try:
        await asyncio.Event().wait()
    finally:
        await leases.stop()
        await store.close()


# --------------------------------------------------- targets of tests/services/test_shards.py


ROUNDS = 10  # moves each process of ``race`` tries


def race(db: str, game: int, who: int, barrier: Any, out: Any) -> None:
    """Each round, both processes move for whoever is pending, at the same version."""

    async def run() -> list[tuple[int, str]]:
        store = await Store.open(db)
        svc = SessionService(store)
        svc.shared = True
        got: list[tuple[int, str]] = []
        try:
            for _ in range(ROUNDS):
                g = await svc.require(game)
                if g.status != "active":
                    break
                seat = sorted(g.pending())[0]
                user = g.seats[seat].user_id
                legal = g.legal_actions(seat)
                # Different choices, so a doubled move would show in the log.
                action = legal[0] if who == 0 else legal[-1]
                version = g.version
                barrier.wait()
                try:
                    await svc.move(game, user, action.model_dump(mode="json"), version)
                    got.append((version, "landed"))
                except (StaleAction, NotYourTurn):
                    # Refused either way: as stale when this process still read the old
                    # version, as not its turn when it read the winner's move first.
                    got.append((version, "stale"))
                barrier.wait()
            return got
        finally:
            await store.close()

    try:
        out.put((who, asyncio.run(run())))
    except BaseException as exc:
        # Said at once, so the test fails now rather than waiting for the queue's timeout.
        out.put((who, repr(exc)))
        raise


def finish_table(db: str, game: int, barrier: Any, out: Any) -> None:
    """Report the result of one table of the round at the same moment as the other process."""
    import itertools

    from rules.core import Outcome, tr
    from services.tournament import TournamentService
    from tests.services import test_tournament_service as tts

    async def run() -> tuple[int | None, int]:
        # The tables of the next round open in channels no game of this database uses.
        tts.CHANNELS = itertools.count(1_000_000 + 1000 * game)
        store = await Store.open(db)
        try:
            svc = TournamentService(store, tts.FakeHost(store))
            barrier.wait()
            progress = await svc.game_finished(
                game, Outcome(ranking=[[0], [1]], reason=tr("fin", "end")))
            assert progress is not None
            return progress.round_opened, len(progress.opened)
        finally:
            await store.close()

    out.put((game, asyncio.run(run())))


if __name__ == "__main__":
    mode, path, ttl_text = sys.argv[1:4]
    if mode != "clock":
        raise SystemExit(f"unknown mode {mode!r}")
    try:
        asyncio.run(clock(path, float(ttl_text)))
    except KeyboardInterrupt:
        pass
