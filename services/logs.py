"""Structured logs: one JSON object per line, with the game and server a line is about.

Chosen by ``TABLERO_LOG_FORMAT=json`` (the default ``text`` is discord.py's readable lines).
Code passes what it knows as ``extra={"game": ..., "guild": ...}``; a line of the older
form "game %s: ..." gets its game from that first argument, so every line about a game
carries the id a log search filters on.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from typing import Any

FORMATS = ("text", "json")
# Attributes every LogRecord has: anything else on a record came from ``extra``.
_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime", "taskName"}


def game_of(record: logging.LogRecord) -> Any:
    """The game a record is about: its ``game`` extra, or the first argument of a
    "game %s: ..." message."""
    game = record.__dict__.get("game")
    if game is not None:
        return game
    if isinstance(record.msg, str) and record.msg.startswith("game %s") and isinstance(record.args, tuple) \
            and record.args:
        first = record.args[0]
        if isinstance(first, int) or (isinstance(first, str) and first.isdigit()):
            return int(first)
    return None


def fields(record: logging.LogRecord) -> dict[str, Any]:
    """The extras of ``record`` (game, guild, channel, user, seat, ...) as JSON-ready values."""
    out: dict[str, Any] = {}
    for key, value in record.__dict__.items():
        if key in _STANDARD or key.startswith("_"):
            continue
        out[key] = value if isinstance(value, str | int | float | bool | type(None)) else str(value)
    game = game_of(record)
    if game is not None:
        out["game"] = game
    return out


class JsonFormatter(logging.Formatter):
    """One line per record: time (UTC, ISO 8601), level, logger, message, extras, traceback."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        line: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        line.update(fields(record))
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def setup_json(level: int | str, stream: Any = None) -> logging.Handler:
    """Send every logger's records (the bot's and discord.py's) to ``stream`` (stderr) as JSON lines."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
