"""The built-in player's choices as jobs for worker processes: the clock's timeouts come in
bursts (every deadline of a busy evening falls due after a restart), and each choice is
pure rules work that would otherwise hold the event loop.

A job travels as text (the game's id, its stored state, the seat) and comes back as the
action's JSON, so a worker needs nothing but the rules: the engine and its AI meet in
``rules.registry``. ``Chooser`` sends the choices asked for while the workers are busy
together, a few per trip, as group commit does with writes: a trip to a process costs
more than a Rey y Hierofante choice.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("tablero.clock")

# Runs ``fn(*args)`` elsewhere (a worker process) and gives its result.
Offload = Callable[..., Awaitable[Any]]
Job = tuple[str, str, int]
# Choices carried by one trip to a worker at most.
CHUNK = 16
# A game whose choices take less than this in a worker (a Rey y Hierofante move, about
# 1 ms) is sent there only while the next trip has room: a trip costs the event loop a
# fraction of such a choice, so the worker takes what it can carry and the loop chooses the
# rest meanwhile, rather than waiting for it. The costly ones (Guerra de Mitos,
# Ankh-Morpork) always go to the workers.
INLINE_BELOW = 0.002


def choose(game_id: str, state: str, seat: int) -> str:
    """The built-in player's move for ``seat`` in the stored ``state``, as action JSON."""
    from rules.registry import engine

    eng = engine(game_id)
    return eng.dump_action(eng.ai_action(eng.load_state(state), seat))


def choose_many(jobs: list[Job]) -> list[str]:
    """``choose`` for several seats in one trip to a worker."""
    return [choose(*job) for job in jobs]


def choose_many_timed(jobs: list[Job]) -> list[tuple[str, float]]:
    """``choose_many``, each choice with the processor seconds it took in the worker."""
    out = []
    for job in jobs:
        started = time.process_time()
        out.append((choose(*job), time.process_time() - started))
    return out


def warm() -> int:
    """Import the rules and build their engines in a worker, before its first choice: done in
    the middle of a burst of timeouts, a worker's first choice (a lower-priority process on
    a busy machine) held every timeout waiting for it for half a second."""
    from rules.registry import games

    return len(games())


class Chooser:
    """Sends choices to the workers through ``offload``: at most ``parallel`` trips at once,
    each carrying every choice asked for meanwhile (up to ``CHUNK``). Learns what each
    game's choices cost there (``worth_sending``): the cheap ones are better made here."""

    def __init__(self, offload: Offload, parallel: int = 1, chunk: int = CHUNK,
                 inline_below: float = INLINE_BELOW) -> None:
        self.offload = offload
        self.parallel = max(1, parallel)
        self.chunk = max(1, chunk)
        self.inline_below = inline_below
        # Per game id: what one choice took in a worker, lately (seconds of processor).
        self.cost: dict[str, float] = {}
        self._waiting: list[tuple[Job, asyncio.Future[str]]] = []
        self._trips: set[asyncio.Task[None]] = set()
        self.sent = 0  # trips made (for the tests and the benchmark)
        self.sent_choices = 0  # choices they carried

    async def warm(self) -> None:
        """Have the workers ready the rules (``warm``) before any choice is asked: one warm-up
        per worker at most (the pool places them); a failure only leaves the work to the
        first choice."""
        try:
            await asyncio.gather(*(self.offload(warm) for _ in range(self.parallel)))
        except Exception:  # noqa: BLE001 - the first choice imports them instead
            log.info("the workers could not ready the rules ahead of the first choice", exc_info=True)

    def worth_sending(self, game_id: str) -> bool:
        """Whether a choice in ``game_id`` should go to a worker: yes until its cost is known,
        and while it costs more than the trip; a cheap one only while the next trip has room
        (the worker kept busy, the rest chosen here meanwhile). The cheap ones sent keep
        telling what they cost, so a game whose choices grow costly is noticed."""
        cost = self.cost.get(game_id)
        if cost is None or cost >= self.inline_below:
            return True
        return len(self._waiting) < self.chunk

    async def choose(self, game_id: str, state: str, seat: int) -> str:
        """The built-in player's move for ``seat`` in ``state`` (JSON in, action JSON out)."""
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._waiting.append(((game_id, state, seat), future))
        self._pump()
        return await future

    def _pump(self) -> None:
        while self._waiting and len(self._trips) < self.parallel:
            part, self._waiting = self._waiting[: self.chunk], self._waiting[self.chunk :]
            part = [(job, f) for job, f in part if not f.done()]  # a caller that gave up
            if not part:
                continue
            trip = asyncio.create_task(self._trip(part), name="tablero-ai-choice")
            self._trips.add(trip)

    async def _trip(self, part: list[tuple[Job, asyncio.Future[str]]]) -> None:
        try:
            self.sent += 1
            self.sent_choices += len(part)
            timed = await self.offload(choose_many_timed, [job for job, _ in part])
        except BaseException as exc:  # noqa: BLE001 - each caller hears it and chooses itself
            for _, future in part:
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else RuntimeError("stopped"))
            if not isinstance(exc, Exception):
                raise
        else:
            for (job, future), (result, took) in zip(part, timed, strict=True):
                known = self.cost.get(job[0])
                self.cost[job[0]] = took if known is None else (known + took) / 2
                if not future.done():
                    future.set_result(result)
        finally:
            self._trips.discard(asyncio.current_task())  # type: ignore[arg-type]
            self._pump()
