"""Python's garbage collector kept from stalling the event loop: its full passes walk every
object the process holds (the games' states, their kept views, the caches), half a second
each with a thousand games in play, every few seconds under load, and every move in flight
waits meanwhile (see docs/performance.md, "Full passes of the garbage collector").

What a full pass leaves alive is frozen (``gc.freeze``: out of later passes, still freed by
its reference count), so the next pass walks only what was made since. A cycle among frozen
objects that becomes garbage waits for a thaw: every ``THAW_EVERY`` seconds everything is
unfrozen and the next full pass walks it all once.
"""

from __future__ import annotations

import gc
import time
from typing import Any

THAW_EVERY = 600.0


class FullPasses:
    """Freezes what each full pass of the collector left alive; thaws it all now and then."""

    def __init__(self, thaw_every: float = THAW_EVERY, clock: Any = time.monotonic) -> None:
        self.thaw_every = thaw_every
        self.clock = clock
        self.thawed_at = clock()
        self.frozen = 0  # full passes whose survivors were frozen
        self.thaws = 0

    def install(self) -> None:
        """Follow the collector's passes (once)."""
        if self.after_pass not in gc.callbacks:
            gc.callbacks.append(self.after_pass)

    def remove(self) -> None:
        """Stop following them; what is frozen stays so."""
        if self.after_pass in gc.callbacks:
            gc.callbacks.remove(self.after_pass)

    def after_pass(self, phase: str, info: dict[str, Any]) -> None:
        """The collector's callback: after a full pass, freeze its survivors, or thaw them all
        when the last thaw is ``thaw_every`` seconds old."""
        if phase != "stop" or info.get("generation") != 2:
            return
        now = self.clock()
        if now - self.thawed_at >= self.thaw_every:
            gc.unfreeze()  # the next full pass walks everything once, cycles among it freed
            self.thawed_at = now
            self.thaws += 1
        else:
            gc.freeze()
            self.frozen += 1


PASSES = FullPasses()
