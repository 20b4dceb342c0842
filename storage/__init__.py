"""Persistent storage for Tablero: games, seats and the action log (SQLite via aiosqlite).

Storage never imports discord nor the rules engines: states and actions arrive and leave
as JSON text.
"""

from __future__ import annotations

from . import stamps
from .errors import ChannelBusy, NotInLobby, SeatTaken, StaleVersion, StoreError, UnknownGame
from .migrate import MigrationError
from .rows import ActionRow, GameRow, SeatRow
from .store import Store

__all__ = [
    "ActionRow",
    "ChannelBusy",
    "GameRow",
    "MigrationError",
    "NotInLobby",
    "SeatRow",
    "SeatTaken",
    "StaleVersion",
    "Store",
    "StoreError",
    "stamps",
    "UnknownGame",
]
