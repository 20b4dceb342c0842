"""Work that one process at a time must do, owned through leases in the store.

When several bot processes share one database (one per share of Discord's shards), some
work must still happen once: the turn clock's scheduler, the tournaments' next rounds,
delivering what a dead process left in the outbox. Each is a named lease (storage/leases.py):
the process that takes it runs the work, renews the lease every third of its length, and
stops the work as soon as it cannot be sure it still holds it; when the owner dies, its
lease expires and another process takes the work over. Discord-free.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

log = logging.getLogger("tablero.leases")

# How long a lease lasts unless renewed: how long the work may sit idle after its owner died.
DEFAULT_TTL = 15.0

Hook = Callable[[], Awaitable[None]]


async def _nothing() -> None:
    return None


@dataclass
class Job:
    """A piece of work behind one lease: what to do on taking it and on losing it."""

    name: str
    on_gain: Hook
    on_loss: Hook = _nothing
    held_until: float = 0.0  # time.monotonic() after which we no longer count on the lease
    held: bool = False
    gained: int = 0  # how many times this process took it (first start, take-overs)


def new_owner() -> str:
    """A name for this process that no other process (here or elsewhere) shares."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Leases:
    """Takes, renews and gives up this process's leases; runs each job while it is held.

    ``store`` provides take_lease and release_lease (storage/leases.py). The store compares
    expiry times in wall-clock seconds (``wall``) between processes, so the machines that share
    a database must keep their clocks in step (NTP); this process's own view of whether it
    still holds a lease runs on the monotonic clock and ends a sixth of the lease early.
    """

    def __init__(self, store: object, *, owner: str | None = None, ttl: float = DEFAULT_TTL,
                 wall: Callable[[], float] = time.time) -> None:
        if ttl <= 0:
            raise ValueError("a lease must last some time")
        self.store = store
        self.owner = owner or new_owner()
        self.ttl = ttl
        self.wall = wall
        self.jobs: dict[str, Job] = {}
        self._task: asyncio.Task[None] | None = None

    def job(self, name: str, on_gain: Hook, on_loss: Hook = _nothing) -> Job:
        """Declare the work behind lease ``name`` (before start). The hooks must return soon
        (start a task for long work): renewing waits for them."""
        job = self.jobs[name] = Job(name=name, on_gain=on_gain, on_loss=on_loss)
        return job

    def holds(self, name: str) -> bool:
        """Whether this process may do the work of ``name`` right now."""
        job = self.jobs.get(name)
        return job is not None and job.held and time.monotonic() < job.held_until

    async def renew(self) -> None:
        """One round: take or renew every lease; start work newly held, stop work lost."""
        for job in self.jobs.values():
            asked = time.monotonic()
            try:
                ok = await self.store.take_lease(  # type: ignore[attr-defined]
                    job.name, self.owner, self.wall(), self.ttl)
            except asyncio.CancelledError:
                raise
            except Exception:
                # The database did not answer: keep the work only while the lease surely lasts.
                log.exception("lease %s: could not renew", job.name)
                ok = job.held and time.monotonic() < job.held_until
            else:
                if ok:
                    job.held_until = asked + self.ttl * 5 / 6
            if ok and not job.held:
                job.held = True
                job.gained += 1
                log.info("lease %s taken by %s", job.name, self.owner)
                await self._run(job, job.on_gain)
            elif not ok and job.held:
                job.held = False
                log.warning("lease %s lost by %s", job.name, self.owner)
                await self._run(job, job.on_loss)

    async def _run(self, job: Job, hook: Hook) -> None:
        try:
            await hook()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("lease %s: its work failed to %s", job.name,
                          "start" if hook is job.on_gain else "stop")

    def start(self) -> None:
        """Keep the leases in the background until stop()."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="tablero-leases")

    async def _loop(self) -> None:
        while True:
            try:
                await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("leases: renewing failed")
            await asyncio.sleep(self.ttl / 3)

    async def stop(self) -> None:
        """Stop renewing, stop the work held, and give the leases up for others at once."""
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
        for job in self.jobs.values():
            if job.held:
                job.held = False
                await self._run(job, job.on_loss)
                try:
                    await self.store.release_lease(job.name, self.owner)  # type: ignore[attr-defined]
                except Exception:
                    log.exception("lease %s: could not give it up", job.name)
