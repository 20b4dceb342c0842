"""Immutable rows handed out by the store, and how they are read from SQL tuples."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Column lists kept next to the converters so a SELECT and its converter cannot drift apart.
GAME_COLUMNS = (
    "id, guild_id, channel_id, game_id, options, status, seed, version, state, host_id, "
    "locale, board_channel_id, board_message_id, created_at, updated_at, clock_seconds, "
    "timeout_action, finished_at, seed_salt, bank_increment, bank_cap"
)
SEAT_COLUMNS = "game, seat, user_id, ai, name, locale, dm_closed, dropped, seen_seq"
ACTION_COLUMNS = "game, seq, seat, action, at"

STATUSES = ("lobby", "active", "finished", "abandoned")
OPEN_STATUSES = ("lobby", "active")


@dataclass(frozen=True)
class GameRow:
    """One game: where it lives, its options, its lifecycle status and its current state."""

    id: int
    guild_id: int | None
    channel_id: int
    game_id: str
    options: dict
    status: str  # 'lobby' | 'active' | 'finished' | 'abandoned'
    seed: int | None
    version: int
    state: str | None  # JSON text from the rules engine; None while in the lobby
    host_id: int
    locale: str
    board_channel_id: int | None
    board_message_id: int | None
    created_at: float
    updated_at: float
    clock_seconds: int | None = None  # the turn clock; None: no clock
    timeout_action: str = "ai"  # 'ai' (the bot plays for the seat), 'drop', or 'lose' (on time)
    finished_at: float | None = None
    # The secret drawn with the seed at the start (hex); with the seed it makes the public
    # commitment (services/fairness.py). None in the lobby and for games started before.
    seed_salt: str | None = None
    # A time bank (0015_clock_bank_hours.sql): clock_seconds is each seat's reserve at the
    # start, each finished wait adds bank_increment, up to bank_cap. None: a per-turn clock.
    bank_increment: int | None = None
    bank_cap: int | None = None

    @property
    def is_open(self) -> bool:
        """True while the game still occupies its channel (lobby or active)."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True)
class SeatRow:
    """One seat of a game, in turn order; an AI seat has no user id."""

    game: int
    seat: int
    user_id: int | None
    ai: bool
    name: str
    locale: str | None
    dm_closed: bool
    dropped: bool = False  # the player timed out for good; the bot plays the seat
    seen_seq: int = 0  # the log seq of this seat's last own move


@dataclass(frozen=True)
class ActionRow:
    """One entry of the append-only action log; seq equals the game version it produced."""

    game: int
    seq: int
    seat: int
    action: str
    at: float


def game_from_sql(r: Sequence[Any]) -> GameRow:
    """Build a GameRow from a tuple selected with GAME_COLUMNS."""
    return GameRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        game_id=r[3],
        options=json.loads(r[4]),
        status=r[5],
        seed=r[6],
        version=r[7],
        state=r[8],
        host_id=r[9],
        locale=r[10],
        board_channel_id=r[11],
        board_message_id=r[12],
        created_at=r[13],
        updated_at=r[14],
        clock_seconds=r[15],
        timeout_action=r[16],
        finished_at=r[17],
        seed_salt=r[18],
        bank_increment=r[19],
        bank_cap=r[20],
    )


def seat_from_sql(r: Sequence[Any]) -> SeatRow:
    """Build a SeatRow from a tuple selected with SEAT_COLUMNS."""
    # Booleans come back from SQLite as 0/1; normalise so callers can compare with `is`.
    return SeatRow(
        game=r[0],
        seat=r[1],
        user_id=r[2],
        ai=bool(r[3]),
        name=r[4],
        locale=r[5],
        dm_closed=bool(r[6]),
        dropped=bool(r[7]),
        seen_seq=r[8],
    )


def action_from_sql(r: Sequence[Any]) -> ActionRow:
    """Build an ActionRow from a tuple selected with ACTION_COLUMNS."""
    return ActionRow(game=r[0], seq=r[1], seat=r[2], action=r[3], at=r[4])
