"""Gateway events discord.py cannot parse: logged and skipped, never the end of the process."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("tablero.gateway")

Parser = Callable[[dict[str, Any]], Any]


def _tolerant(event: str, parse: Parser) -> Parser:
    @functools.wraps(parse)
    def run(data: dict[str, Any]) -> Any:
        try:
            return parse(data)
        except Exception as exc:  # noqa: BLE001 - one bad event must not end the connection
            # discord.py runs the parser inside its connection loop: an exception there ends
            # the loop and, with it, the process. The payload itself is not logged (it may
            # hold what users wrote); its event name, guild and the error are enough.
            guild = data.get("guild_id") if isinstance(data, dict) else None
            log.error("skipped a %s event that could not be read (guild %s): %s: %s",
                      event, guild, type(exc).__name__, exc,
                      extra={"event": "bad_gateway_event", "gateway_event": event, "guild": guild})
            return None

    run.__tablero_tolerant__ = True  # type: ignore[attr-defined]
    return run


def tolerate_bad_events(state: Any) -> None:
    """Wrap each of ``state``'s gateway event parsers (a discord.py ConnectionState) so that an
    event it cannot parse is logged and skipped instead of raising into the connection loop."""
    parsers: dict[str, Parser] = state.parsers
    for event, parse in list(parsers.items()):
        if not getattr(parse, "__tablero_tolerant__", False):
            parsers[event] = _tolerant(event, parse)
