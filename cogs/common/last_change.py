"""What the last move changed on a game's public picture, so the picture can mark it.

Each game's picture module says what differs between two of its public views (the squares,
areas or cards a move changed); this keeps, per game and viewer, the view last pictured and
the marks drawn on it. A move that changes nothing the picture shows (a draw, a pass) keeps
the previous marks: the picture marks the last move that changed the board. After a restart
the first picture of a game has no marks (the view before it is not kept anywhere), and a
picture of an older version (a replay's frame) gets none and changes nothing here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

Marks = frozenset[Hashable]
NO_MARKS: Marks = frozenset()


@dataclass(frozen=True)
class _Seen:
    version: int
    view: Any
    marks: Marks


class LastChange:
    """The view last pictured per (game, viewer), bounded to the ``size`` most recent."""

    def __init__(self, size: int = 4096) -> None:
        self._seen: OrderedDict[tuple[int, int | None], _Seen] = OrderedDict()
        self._size = size
        # Pictures are drawn in worker threads (cogs.common.present.draw).
        self._lock = threading.Lock()

    def marks(self, game: int, viewer: int | None, version: int, view: Any,
              diff: Callable[[Any, Any], Marks]) -> Marks:
        """The marks for ``view`` (version ``version`` of ``game`` as ``viewer`` sees it)."""
        key = (game, viewer)
        with self._lock:
            seen = self._seen.get(key)
            if seen is not None and type(seen.view) is not type(view):
                seen = None  # a game id reused (a test's store, a restored backup): start over
            if seen is not None and version < seen.version:
                return NO_MARKS
            if seen is not None and version == seen.version:
                self._seen.move_to_end(key)
                return seen.marks
        changed = diff(seen.view, view) if seen is not None else NO_MARKS
        with self._lock:
            now = self._seen.get(key)
            if now is not None and type(now.view) is not type(view):
                now = None
            if now is not None and now.version >= version:  # another thread got here first
                return now.marks if now.version == version else NO_MARKS
            marks = changed or (seen.marks if seen is not None else NO_MARKS)
            self._seen[key] = _Seen(version, view, marks)
            self._seen.move_to_end(key)
            while len(self._seen) > self._size:
                self._seen.popitem(last=False)
            return marks

    def forget(self, game: int) -> None:
        """Drop what is kept of ``game`` (it ended, or was removed)."""
        with self._lock:
            for key in [k for k in self._seen if k[0] == game]:
                del self._seen[key]


_SHARED = LastChange()
_CURRENT: ContextVar[LastChange] = ContextVar("last_change", default=_SHARED)


def last_change() -> LastChange:
    """The memo pictures read here: the bot's shared one, or a replay's own."""
    return _CURRENT.get()


@contextmanager
def own_marks() -> Iterator[LastChange]:
    """Within the block, pictures keep their marks apart from the live games': a replay's
    frames mark each move against the frame before, the same in any process."""
    token = _CURRENT.set(LastChange(size=64))
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)
