"""A user's playing hours (/settings): their time zone and quiet hours, and the waits of
their games timed again when these change."""

from __future__ import annotations

from dataclasses import replace

from services.clock import next_at
from services.clock_time import (
    PlayingHours,
    end_after,
    hours_from_spec,
    running_between,
)
from services.session import SessionService
from storage.deadlines import DeadlineRow


def retime(row: DeadlineRow, now: float, spec: str | None) -> DeadlineRow:
    """``row`` timed with the playing hours ``spec`` from ``now`` on: the running time it had
    left is kept, the reminders already sent stay sent."""
    if row.paused_left is not None:
        # On vacation: the wait starts running again at the vacation's end (its next_at).
        due = end_after(hours_from_spec(spec), row.next_at, row.paused_left)
        return replace(row, hours=spec, started_at=due - (row.due_at - row.started_at), due_at=due)
    left = running_between(hours_from_spec(row.hours), now, row.due_at)
    due = end_after(hours_from_spec(spec), now, left)
    moved = replace(row, hours=spec, started_at=due - (row.due_at - row.started_at), due_at=due)
    return replace(moved, next_at=max(now, next_at(moved)))


async def set_playing_hours(session: SessionService, user_id: int, hours: PlayingHours,
                            locale: str | None = None) -> list[int]:
    """Store ``user_id``'s playing hours and time their pending waits with them; the games
    whose deadline moved."""
    store = session.store
    await store.update_user(user_id, time_zone=None if hours.zone == "UTC" else hours.zone,
                            quiet_hours=hours.quiet_text(), **({"locale": locale} if locale else {}))
    now = session.clock.now()
    spec = hours.spec()
    moved: list[int] = []
    for row in await store.user_deadlines(user_id):
        if row.hours == spec:
            continue
        # Compare-and-set: a wait that a move or the scheduler changed meanwhile is theirs.
        if await store.update_deadline(retime(row, now, spec), row):
            moved.append(row.game)
    if moved:
        session.forget_due_reads(moved)
        session.on_deadlines()
    return sorted(set(moved))
