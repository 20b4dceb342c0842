"""Pictures of the games' public boards, drawn with Pillow."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

log = logging.getLogger("tablero.pictures")


def draw_or_none(render: Callable[[Any, Sequence[str], str], bytes], view: Any,
                 names: Sequence[str], locale: str, game: int) -> bytes | None:
    """``render(view, names, locale)``, or None if it fails: a broken picture must not stop
    a game, whose embed still says everything; the failure is logged with the game.
    Drawn in the bot's picture workers when it has them (cogs/pictures/pool.py)."""
    from cogs.pictures.pool import render as in_pool

    try:
        return in_pool(render, view, list(names), locale)
    except Exception:
        log.exception("game %s: drawing the board failed", game, extra={"game": game})
        return None
