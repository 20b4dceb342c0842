"""Exceptions raised by the store; callers catch these, never sqlite3 errors."""

from __future__ import annotations


class StoreError(Exception):
    """Base class for every error the store raises on purpose."""


class StaleVersion(StoreError):
    """A write guarded by version or status found the game already changed: someone moved first."""


class NotInLobby(StaleVersion):
    """The game has left the lobby (or never existed), so seats and start no longer apply."""


class ChannelBusy(StoreError):
    """An open (lobby or active) game already lives in that channel."""


class SeatTaken(StoreError):
    """That user already has a seat in that game."""


class UnknownGame(StoreError, LookupError):
    """No game (or no such seat of it) has that id."""
