"""Pictures drawn in worker processes, so that one bot process uses more than one core.

Drawing a board is Python code that holds the interpreter's lock: drawn in a thread of the
bot's process it still competes with the event loop, and a slow picture delays every
interaction's acknowledgement. ``PicturePool`` sends the drawing to a few processes
(``TABLERO_PICTURE_WORKERS``; 0 draws in the bot's own process, as before).

The bot installs its pool at start (``install``) and removes it at close; ``render`` is
what drawing code calls: in a worker process when a pool is installed, inline otherwise.
A worker that dies, or a job that cannot be sent to one, is drawn inline instead; a
picture that takes longer than ``timeout`` is given up (the message goes without it).
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import logging
import multiprocessing
import os
import pickle
import signal
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger("tablero.pictures")

T = TypeVar("T")

# The modules a worker imports before its first job: Pillow and the fonts, which every
# picture needs. A game's drawing code (and its rules) is imported by the first job that
# draws that game, so a worker holds only what it has drawn, not every game.
WARM_MODULES = ("cogs.pictures.fonts", "cogs.pictures.common")
# How much lower the workers' scheduling priority is than the bot's (nice(2) steps).
WORKER_NICENESS = 5
# A picture normally takes tens of milliseconds; one that takes this long is stuck.
TIMEOUT = 30.0


def default_workers(cpus: int | None = None) -> int:
    """How many workers suit this machine: a core is left to the event loop, at most four."""
    cpus = cpus if cpus is not None else (os.cpu_count() or 1)
    return max(1, min(4, cpus - 1))


# -- in the worker processes ---------------------------------------------------------------


def _watch_parent() -> None:
    """End this worker when the bot's process is gone (even killed with SIGKILL): its
    pipes stay open in the worker, so without this it would wait for work forever."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    from multiprocessing.connection import wait

    wait([parent.sentinel])
    os._exit(0)


def _init_worker() -> None:
    """A worker's start: ignore Ctrl-C (the terminal sends it to the whole process group;
    the bot stops its workers itself), yield the CPU to the bot, watch the parent, import
    what every picture needs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Drawing is background work: on a busy machine the bot's event loop, which answers
    # every interaction within Discord's 3 s, comes first.
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    threading.Thread(target=_watch_parent, name="tablero-parent-watch", daemon=True).start()
    import importlib

    for name in WARM_MODULES:
        importlib.import_module(name)


def _run(payload: bytes) -> Any:
    """Run one pickled job ``(fn, args, kwargs)``."""
    fn, args, kwargs = pickle.loads(payload)
    return fn(*args, **kwargs)


def _pid() -> int:
    """This worker's process id (the pool's tests and the warm-up ask for it)."""
    return os.getpid()


# -- in the bot's process ------------------------------------------------------------------


class PicturePool:
    """A pool of worker processes that draw pictures, started and stopped with the bot."""

    def __init__(self, workers: int, *, timeout: float = TIMEOUT) -> None:
        self.workers = max(0, workers)
        self.timeout = timeout
        self._executor: cf.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._warming: list[cf.Future[int]] = []
        self.inline_fallbacks = 0  # jobs drawn inline because the pool could not take them
        self.restarts = 0

    @property
    def running(self) -> bool:
        """Whether worker processes are there to draw."""
        return self._executor is not None

    def _new_executor(self) -> cf.ProcessPoolExecutor:
        # "spawn": the bot's process has threads (the database's, the event loop's helpers),
        # and forking a process with threads can copy a lock held by one of them.
        executor = cf.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_init_worker,
        )
        # Start every worker now (each takes about a second to import the drawing code),
        # not at the first picture: with nothing idle yet, each job spawns its own worker.
        self._warming = [executor.submit(_pid) for _ in range(self.workers)]
        return executor

    def start(self) -> None:
        """Start the workers (nothing to start with 0 workers: pictures are drawn inline)."""
        with self._lock:
            if self.workers > 0 and self._executor is None:
                self._executor = self._new_executor()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait (blocking) until every worker has started; whether they all did in time."""
        done, _ = cf.wait(list(self._warming), timeout=timeout)
        return len(done) == len(self._warming)

    def pids(self) -> list[int]:
        """The worker processes' ids (for the health status, and for tests)."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return sorted(p.pid for p in list(processes.values()) if p.pid is not None)

    def close(self) -> None:
        """Stop the workers: jobs running finish, queued ones are dropped (blocks until done)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def _replace(self, broken: cf.ProcessPoolExecutor, *, kill: bool) -> None:
        """Put a new executor in place of ``broken`` (once, however many jobs noticed)."""
        with self._lock:
            if self._executor is not broken:
                return
            self._executor = self._new_executor()
            self.restarts += 1
        if kill:
            # A stuck worker never finishes its job: end it, or shutdown would wait forever.
            # (ProcessPoolExecutor has no public way to end its workers before Python 3.14.)
            for process in list(getattr(broken, "_processes", {}).values()):
                process.kill()
        broken.shutdown(wait=False, cancel_futures=True)

    def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` in a worker, waiting for it (call it from a thread, never
        from the event loop). Drawn inline when there is no pool, when the job cannot be
        sent (not picklable) or when the worker died; raises what ``fn`` raises, and
        TimeoutError if the worker takes longer than ``timeout``."""
        return self.run_within(self.timeout, fn, *args, **kwargs)

    def run_within(self, timeout: float, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``run`` for a job known to be long (a replay's animation): stuck only after
        ``timeout`` seconds."""
        executor = self._executor
        if executor is None:
            return fn(*args, **kwargs)
        try:
            payload = pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - whatever pickling raises, drawing inline still works
            log.warning("picture job %s cannot go to a worker; drawing it inline",
                        getattr(fn, "__qualname__", fn), exc_info=True)
            self.inline_fallbacks += 1
            return fn(*args, **kwargs)
        try:
            future = executor.submit(_run, payload)
        except RuntimeError:  # the pool is shutting down (the bot is closing) or broken
            log.info("picture drawn inline: the workers are stopping")
            self.inline_fallbacks += 1
            return fn(*args, **kwargs)
        try:
            return future.result(timeout=timeout)
        except BrokenProcessPool:
            log.warning("a picture worker died; drawing inline and starting a new pool")
            self._replace(executor, kill=False)
            self.inline_fallbacks += 1
            return fn(*args, **kwargs)
        except cf.CancelledError:  # dropped by close(): the message still gets its picture
            self.inline_fallbacks += 1
            return fn(*args, **kwargs)
        except cf.TimeoutError:
            if future.done():
                raise  # the job's own TimeoutError, not a stuck worker
            log.error("a picture took over %.0f s; giving it up and starting a new pool", timeout)
            self._replace(executor, kill=True)
            raise TimeoutError(f"picture not drawn within {timeout} s") from None

    async def run_async(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, awaited on the event loop with no thread in between:
        for many small jobs (the built-in player's choices at the clock's timeouts), where a
        thread per job would cost more than the job. ``fn`` must be a module's function.
        Inline when there is no pool, or when it is stopping or a worker died."""
        executor = self._executor
        if executor is None:
            return fn(*args)
        try:
            future = executor.submit(fn, *args)
        except RuntimeError:  # shutting down, or broken
            self.inline_fallbacks += 1
            return fn(*args)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except BrokenProcessPool:
            log.warning("a worker died; running its job inline and starting a new pool")
            self._replace(executor, kill=False)
            self.inline_fallbacks += 1
            return fn(*args)


_active: PicturePool | None = None


def install(pool: PicturePool | None) -> None:
    """Make ``pool`` the one ``render`` uses (None: draw inline)."""
    global _active
    _active = pool


def uninstall(pool: PicturePool) -> None:
    """Stop using ``pool`` (if it is still the installed one)."""
    global _active
    if _active is pool:
        _active = None


def active() -> PicturePool | None:
    """The installed pool, if any."""
    return _active


def render(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``: in the installed pool's workers, or inline without one.
    Blocks: call it from a worker thread (``asyncio.to_thread``), not the event loop."""
    pool = _active
    if pool is None:
        return fn(*args, **kwargs)
    return pool.run(fn, *args, **kwargs)


def render_within(timeout: float, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``render`` for a long job, given up after ``timeout`` seconds (not ``TIMEOUT``)."""
    pool = _active
    if pool is None:
        return fn(*args, **kwargs)
    return pool.run_within(timeout, fn, *args, **kwargs)
