"""Vacations: a user stops the clocks of all their games for some days, within a yearly allowance."""

from __future__ import annotations

from dataclasses import dataclass

from rules.phrases import Phrases
from services.clock import VACATION_DAYS_PER_YEAR, VACATION_MAX_AT_ONCE, pause, resume, year_of
from services.session import Refusal, SessionService

msg = Phrases("core")

DAY = 86400.0


@dataclass(frozen=True)
class VacationResult:
    """What a vacation command did."""

    until: float | None  # None: the vacation ended
    games: list[int]  # the games whose clocks changed
    days_left: int  # allowance left this year


def _left(used: float) -> int:
    return max(0, int(VACATION_DAYS_PER_YEAR - used))


async def set_vacation(session: SessionService, user_id: int, days: int) -> VacationResult:
    """Start a vacation of ``days`` days from now (0 ends the current one early; the days
    not taken are given back)."""
    store = session.store
    now = session.clock.now()
    mine = await store.user_settings(user_id)
    year = year_of(now)
    used = mine.vacation_used if mine.vacation_year == year else 0.0
    on_now = mine.vacation_until is not None and mine.vacation_until > now
    if on_now:
        # Give back what is left of the current vacation before counting the new one.
        used = max(0.0, used - (mine.vacation_until - now) / DAY)  # type: ignore[operator]
    if days <= 0:
        await store.update_user(user_id, vacation_until=None, vacation_used=used, vacation_year=year)
        rows = [resume(r, now) for r in await store.user_deadlines(user_id) if r.paused]
        await store.put_deadlines(rows)
        session.on_deadlines()
        return VacationResult(until=None, games=sorted({r.game for r in rows}), days_left=_left(used))
    if days > VACATION_MAX_AT_ONCE or used + days > VACATION_DAYS_PER_YEAR:
        raise Refusal(
            msg.n(_left(used), "You only have {n} day of vacation left this year (and {most} at most in a row).",
                  "You only have {n} days of vacation left this year (and {most} at most in a row).",
                  most=VACATION_MAX_AT_ONCE),
        )
    until = now + days * DAY
    await store.update_user(user_id, vacation_until=until, vacation_used=used + days, vacation_year=year)
    rows = [pause(r, now, until) for r in await store.user_deadlines(user_id)]
    await store.put_deadlines(rows)
    session.on_deadlines()
    games = sorted({g.id for g in await store.user_open_games(user_id)})
    return VacationResult(until=until, games=games, days_left=_left(used + days))
