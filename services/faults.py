"""Test-only fault injection: kill the process at a named point, as a crash would.

``TABLERO_CRASH_AT=name`` (or ``name:n`` for the n-th time the point is reached) makes
``crash_point(name)`` end the process with SIGKILL: no cleanup, no flush, exactly what a
power cut or an OOM kill does to the bot. Points count only once ``arm()`` was called (the
bot calls it when its start-up work, delivering what a previous crash left, is over), so
one process can recover from one crash and then die at the next. Unset (always, outside
the crash tests), a crash point costs one environment lookup.
"""

from __future__ import annotations

import os
import signal

_ENV = "TABLERO_CRASH_AT"
_hits: dict[str, int] = {}
_armed = False


def arm() -> None:
    """Start counting crash points (see the module's docstring)."""
    global _armed
    _armed = True


def _target() -> tuple[str, int] | None:
    spec = os.environ.get(_ENV, "").strip()
    if not spec:
        return None
    name, _, nth = spec.partition(":")
    return name, int(nth) if nth.isdigit() else 1


def crash_point(name: str) -> None:
    """Die here (SIGKILL) if the environment names this point and its turn has come."""
    target = _target()
    if target is None or target[0] != name or not _armed:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] == target[1]:
        os.kill(os.getpid(), signal.SIGKILL)
