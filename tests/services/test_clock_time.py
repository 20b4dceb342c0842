"""Playing hours: the running time of a wait across time zones, quiet hours and daylight
saving changes, checked by hand on known dates and against a minute-by-minute count."""

from __future__ import annotations

import datetime as dt
import random
import zoneinfo

import pytest

from services.clock import new_wait, pause, reminder_times, resume
from services.clock_time import (
    BadHours,
    PlayingHours,
    Window,
    check_quiet,
    check_zone,
    end_after,
    hours_from_spec,
    parse_quiet,
    parse_window,
    quiet_now,
    quiet_spans,
    running_between,
    user_hours,
)

HOUR = 3600.0
DAY = 24 * HOUR
MADRID = "Europe/Madrid"
NEW_YORK = "America/New_York"
NIGHT = parse_window("23:00-08:00")


def at(zone: str, *when: int) -> float:
    """Unix seconds of a wall time in ``zone`` (its first occurrence)."""
    return dt.datetime(*when, tzinfo=zoneinfo.ZoneInfo(zone)).timestamp()


def local(zone: str, ts: float) -> tuple[int, ...]:
    """The wall time of ``ts`` in ``zone`` as (month, day, hour, minute)."""
    d = dt.datetime.fromtimestamp(ts, zoneinfo.ZoneInfo(zone))
    return d.month, d.day, d.hour, d.minute


def test_windows_are_read_and_written_back() -> None:
    assert parse_window("23:00-08:00") == Window(23 * 60, 8 * 60)
    assert parse_window("9-17", weekdays=True) == Window(9 * 60, 17 * 60, True)
    assert parse_window("22:30 - 24:00").end == 0
    quiet = parse_quiet("23:00-08:00, 09:00-17:00 weekdays")
    assert quiet == (NIGHT, Window(9 * 60, 17 * 60, True))
    hours = PlayingHours(MADRID, quiet)
    assert hours.quiet_text() == "23:00-08:00, 09:00-17:00 weekdays"
    assert hours_from_spec(hours.spec()) == hours
    assert PlayingHours(MADRID).spec() is None  # no quiet hours: the clock runs all day


@pytest.mark.parametrize("text", ["25:00-08:00", "23:00-08:61", "tarde", "23:00", "8-8", ""])
def test_a_bad_window_is_refused(text: str) -> None:
    with pytest.raises(BadHours):
        parse_window(text)


def test_quiet_hours_must_leave_the_clock_some_of_every_day() -> None:
    with pytest.raises(BadHours) as e:
        check_quiet((parse_window("20:00-08:00"), parse_window("09:00-18:00")))
    assert e.value.key == "hours.too_long"
    with pytest.raises(BadHours):
        check_quiet((NIGHT, NIGHT, NIGHT))
    assert check_quiet((NIGHT, parse_window("13:00-15:00"))) == (NIGHT, parse_window("13:00-15:00"))


def test_time_zones_are_iana_names() -> None:
    assert check_zone(" Europe/Madrid ") == MADRID
    with pytest.raises(BadHours):
        check_zone("Madrid")
    # A zone this machine does not know (any more) counts as UTC rather than failing.
    assert user_hours("Mars/Olympus", None).zone == "UTC"


def test_madrid_spring_forward_night_is_an_hour_shorter_and_not_counted() -> None:
    hours = PlayingHours(MADRID, (NIGHT,))
    # Saturday 27 March 2027, 20:00 CET; the clocks go forward that night at 02:00.
    start = at(MADRID, 2027, 3, 27, 20)
    night = quiet_spans(hours, start, start + DAY)[0]
    assert night[1] - night[0] == 8 * HOUR  # 23:00 CET to 08:00 CEST
    end = end_after(hours, start, DAY)
    # 3 h on Saturday, 15 h on Sunday, the 6 h left on Monday from 08:00 CEST.
    assert local(MADRID, end) == (3, 29, 14, 0)
    assert running_between(hours, start, end) == DAY


def test_madrid_fall_back_night_is_an_hour_longer_and_not_counted() -> None:
    hours = PlayingHours(MADRID, (NIGHT,))
    start = at(MADRID, 2027, 10, 30, 20)  # Saturday; the clocks go back on Sunday at 03:00
    night = quiet_spans(hours, start, start + DAY)[0]
    assert night[1] - night[0] == 10 * HOUR
    assert local(MADRID, end_after(hours, start, DAY)) == (11, 1, 14, 0)
    # Without quiet hours a day is 25 hours of wall clock that night, and all of it runs.
    assert end_after(PlayingHours(MADRID), start, DAY) == start + DAY


def test_new_york_changes_on_other_sundays() -> None:
    hours = PlayingHours(NEW_YORK, (NIGHT,))
    # 2027: New York springs forward on 14 March, when Madrid has not yet.
    start = at(NEW_YORK, 2027, 3, 13, 22)
    assert local(NEW_YORK, end_after(hours, start, 2 * HOUR)) == (3, 14, 9, 0)
    assert quiet_spans(hours, start, start + DAY)[0][1] - quiet_spans(hours, start, start + DAY)[0][0] == 8 * HOUR
    madrid = PlayingHours(MADRID, (NIGHT,))
    same = quiet_spans(madrid, start, start + DAY)[0]
    assert same[1] - same[0] == 9 * HOUR
    start = at(NEW_YORK, 2027, 11, 6, 22)  # falls back on 7 November
    span = quiet_spans(hours, start, start + DAY)[0]
    assert span[1] - span[0] == 10 * HOUR


def test_a_window_starting_in_the_skipped_hour_starts_at_the_jump() -> None:
    hours = PlayingHours(MADRID, (parse_window("02:30-06:00"),))
    start = at(MADRID, 2027, 3, 27, 20)
    ((s, e),) = quiet_spans(hours, start, start + DAY)
    assert local(MADRID, s) == (3, 28, 3, 0) and local(MADRID, e) == (3, 28, 6, 0)


def test_weekday_windows_leave_weekends_free() -> None:
    work = PlayingHours(MADRID, (parse_window("09:00-17:00", weekdays=True),))
    friday = at(MADRID, 2027, 5, 14, 8)
    # 1 h on Friday morning, then from 17:00 on: Saturday has no quiet hours.
    assert local(MADRID, end_after(work, friday, 10 * HOUR)) == (5, 15, 2, 0)
    monday = at(MADRID, 2027, 5, 17, 8)
    assert local(MADRID, end_after(work, monday, 2 * HOUR)) == (5, 17, 18, 0)
    # A night window on weekdays belongs to the day it starts: Friday night is quiet,
    # Saturday night is not.
    nights = PlayingHours(MADRID, (parse_window("23:00-08:00", weekdays=True),))
    assert quiet_now(nights, at(MADRID, 2027, 5, 15, 2))
    assert not quiet_now(nights, at(MADRID, 2027, 5, 16, 2))


def test_reminders_never_fall_in_quiet_hours() -> None:
    hours = PlayingHours(MADRID, (NIGHT,))
    start = at(MADRID, 2027, 3, 27, 20)
    row = new_wait(1, 0, 7, start, DAY, hours=hours.spec())
    assert local(MADRID, row.due_at) == (3, 29, 14, 0)
    first, second = reminder_times(row)
    # Half the running time (12 h) is reached on Sunday at 17:00; the last call 2 h before
    # the end, at 12:00 on Monday.
    assert local(MADRID, first) == (3, 28, 17, 0)
    assert local(MADRID, second) == (3, 29, 12, 0)
    assert row.next_at == first
    # A reminder that would fall at night waits for the morning.
    short = new_wait(1, 0, 7, at(MADRID, 2027, 3, 27, 22), 2 * HOUR, hours=hours.spec())
    f, s = reminder_times(short)
    assert local(MADRID, f) == (3, 28, 8, 0) and not quiet_now(hours, s)


def test_a_vacation_keeps_the_running_time_left() -> None:
    hours = PlayingHours(MADRID, (NIGHT,))
    start = at(MADRID, 2027, 6, 1, 10)
    row = new_wait(1, 0, 7, start, DAY, hours=hours.spec())
    paused = pause(row, start + 2 * HOUR, start + 3 * DAY)
    assert paused.paused_left == pytest.approx(22 * HOUR)
    back = resume(paused, start + 3 * DAY)
    assert running_between(hours, start + 3 * DAY, back.due_at) == pytest.approx(22 * HOUR)


def brute_end(hours: PlayingHours, start: float, minutes: int) -> float:
    """The end of a wait counted minute by minute on the wall clock (the test's oracle)."""
    tz = zoneinfo.ZoneInfo(hours.zone)

    def quiet(ts: float) -> bool:
        d = dt.datetime.fromtimestamp(ts, tz)
        now = d.hour * 60 + d.minute
        for w in hours.quiet:
            for day, inside in ((d.date(), now >= w.start and (w.end <= w.start or now < w.end)),
                                (d.date() - dt.timedelta(days=1), w.end <= w.start and now < w.end)):
                if inside and not (w.weekdays and day.weekday() >= 5):
                    return True
        return False

    t, left = start, minutes
    while left:
        if not quiet(t):
            left -= 1
        t += 60
    return t


def test_seeded_waits_agree_with_a_minute_by_minute_count() -> None:
    rng = random.Random(24)
    zones = [MADRID, NEW_YORK, "Australia/Sydney", "Asia/Kolkata", "America/Santiago", "UTC"]
    # Around the daylight saving changes of 2027 in both hemispheres.
    starts = [at("UTC", 2027, 3, 26), at("UTC", 2027, 3, 12), at("UTC", 2027, 10, 29),
              at("UTC", 2027, 11, 5), at("UTC", 2027, 4, 2), at("UTC", 2027, 9, 3)]
    for _ in range(40):
        zone = rng.choice(zones)
        # Window edges away from 01:00-03:59, where a repeated wall hour would make "quiet
        # at this wall time" ambiguous for the oracle.
        edges = [h * 60 + rng.choice((0, 15, 30)) for h in rng.sample([*range(4, 24), 0], 4)]
        windows = (Window(edges[0], edges[1], rng.random() < 0.3),)
        if rng.random() < 0.5:
            windows += (Window(edges[2], edges[3], rng.random() < 0.5),)
        if sum(w.minutes for w in windows) > 20 * 60:
            windows = windows[:1]
        hours = PlayingHours(zone, windows)
        start = rng.choice(starts) + rng.randrange(0, 48) * 1800
        minutes = rng.randrange(30, 3 * 24 * 60, 30)
        end = end_after(hours, start, minutes * 60)
        assert end == brute_end(hours, start, minutes), (zone, windows, start, minutes)
        assert running_between(hours, start, end) == minutes * 60
        assert not quiet_now(hours, end - 30)  # the wait's last seconds ran
