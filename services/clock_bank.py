"""Time banks: each seat's reserve of time, spent while it is pending and topped up by an
increment each time one of its waits ends, up to a cap (as correspondence chess and Board
Game Arena's turn-based clocks do). A per-turn clock gives every wait the same length.

A seat's bank while it is not pending lives in the store (clock_banks, written with the move
that ends the wait); while it is pending, what is left is counted from its deadline row,
which already leaves the player's quiet hours out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from services.clock_time import hours_from_spec, running_between
from storage.deadlines import DeadlineRow

HOUR = 3600
DAY = 24 * HOUR


@dataclass(frozen=True)
class Bank:
    """A time bank: the reserve each seat starts with, what each finished wait adds, and
    the most it can hold (seconds)."""

    start: int
    increment: int
    cap: int


# The banks /game new and /config offer next to the per-turn clocks (services/clock.py's
# CLOCKS), by the name the menus use.
BANKS: dict[str, Bank] = {
    "1d+12h": Bank(start=DAY, increment=12 * HOUR, cap=3 * DAY),
    "3d+1d": Bank(start=3 * DAY, increment=DAY, cap=7 * DAY),
    "7d+2d": Bank(start=7 * DAY, increment=2 * DAY, cap=14 * DAY),
}


def bank_of(clock_seconds: int | None, increment: int | None, cap: int | None) -> Bank | None:
    """The time bank of a game's (or server's) clock columns; None for a per-turn clock."""
    if not clock_seconds or increment is None or cap is None:
        return None
    return Bank(start=clock_seconds, increment=increment, cap=cap)


def bank_name(bank: Bank) -> str:
    """The menu name of a bank ("3d+1d"), or its figures when it is none of them."""
    for name, value in BANKS.items():
        if value == bank:
            return name
    return f"{span(bank.start)}+{span(bank.increment)}".replace(" ", "")


def span(seconds: float) -> str:
    """A length the short way, as Spanish and English both write it: "3d", "1d 12h", "45m"
    (minutes only below a day)."""
    minutes = int(max(0.0, seconds) // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    parts = [f"{days}d" if days else "", f"{hours}h" if hours else "", f"{mins}m" if mins and not days else ""]
    return " ".join(p for p in parts if p) or "0m"


def time_left(row: DeadlineRow, now: float) -> float:
    """Running seconds a pending seat has left (its quiet hours not counted)."""
    if row.paused_left is not None:
        return row.paused_left
    return running_between(hours_from_spec(row.hours), now, row.due_at)


def bank_after(row: DeadlineRow, now: float, bank: Bank) -> float:
    """The seat's bank once the wait ``row`` ends at ``now``: what was left, plus the
    increment, up to the cap (a wait that timed out leaves just the increment)."""
    return min(float(bank.cap), time_left(row, now) + bank.increment)


def balances(bank: Bank, seats: list[int], stored: Mapping[int, float],
             pending: Mapping[int, DeadlineRow], now: float) -> dict[int, float]:
    """Every seat's bank now: a pending seat's time left, another's stored bank (the reserve
    when it has none yet)."""
    return {
        seat: time_left(pending[seat], now) if seat in pending else stored.get(seat, float(bank.start))
        for seat in seats
    }
