"""When a wait really runs out: a player's playing hours (time zone and quiet hours) and the
running time between two moments.

A player's quiet hours (night, work) do not run their clock: a wait of N seconds ends when N
seconds *outside* those hours have passed, and no reminder falls inside them. Windows are
wall-clock times in the player's IANA time zone, so they follow daylight saving changes
(zoneinfo); a window belongs to the day it starts on ("weekdays": Monday to Friday).
Everything here is pure: Unix seconds in, Unix seconds out.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from dataclasses import dataclass
from functools import cached_property, lru_cache

from storage.settings import UserSettings

DAY = 86400.0
# At most this many quiet hours a day: the clock must run some of every day.
MAX_QUIET_MINUTES = 20 * 60
MAX_WINDOWS = 2
# How far ahead quiet windows are listed at a time while looking for a wait's end.
_HORIZON = 3 * DAY

_TIME = re.compile(r"^\s*(\d{1,2})(?::(\d{2}))?\s*[-–]\s*(\d{1,2})(?::(\d{2}))?\s*$")


class BadHours(ValueError):
    """Playing hours that cannot be read; ``key`` names the refusal's message."""

    def __init__(self, key: str, value: str = "") -> None:
        super().__init__(f"{key}: {value}")
        self.key = key
        self.value = value


@dataclass(frozen=True)
class Window:
    """Quiet hours on a day: from ``start`` to ``end`` (minutes after local midnight; an end
    at or before the start is on the next day), every day or only on weekdays."""

    start: int
    end: int
    weekdays: bool = False

    @property
    def minutes(self) -> int:
        """How long the window lasts, in minutes (before any daylight saving change)."""
        return (self.end - self.start) % (24 * 60) or 24 * 60

    def text(self) -> str:
        """The window as stored and shown: "23:00-08:00", with " weekdays" when it is so."""
        span = f"{self.start // 60:02d}:{self.start % 60:02d}-{self.end // 60:02d}:{self.end % 60:02d}"
        return span + (" weekdays" if self.weekdays else "")


@dataclass(frozen=True)
class PlayingHours:
    """A player's time zone and quiet hours."""

    zone: str = "UTC"
    quiet: tuple[Window, ...] = ()

    @property
    def runs_always(self) -> bool:
        """Whether the clock runs at every hour (no quiet hours)."""
        return not self.quiet

    def quiet_text(self) -> str | None:
        """The quiet hours as stored in the users table (None: none)."""
        return ", ".join(w.text() for w in self.quiet) or None

    def spec(self) -> str | None:
        """The whole of it in one text, as a deadline row keeps it (None: the clock runs
        all day, whatever the zone)."""
        quiet = self.quiet_text()
        return None if quiet is None else f"{self.zone} {quiet}"

    @cached_property
    def key(self) -> str:
        """``spec`` worked out once: the key of the quiet hours' cache."""
        return self.spec() or ""


def parse_window(text: str, weekdays: bool = False) -> Window:
    """A window from "23:00-08:00" (or "23-8"); BadHours when it is not one."""
    m = _TIME.match(text)
    if m is None:
        raise BadHours("hours.bad_window", text)
    h1, m1, h2, m2 = (int(x) if x else 0 for x in m.groups())
    # 24:00 is the end of the day, a time people write.
    if h1 > 23 or h2 > 24 or m1 > 59 or m2 > 59 or (h2 == 24 and m2):
        raise BadHours("hours.bad_window", text)
    start, end = h1 * 60 + m1, (h2 * 60 + m2) % (24 * 60)
    if start == end:
        raise BadHours("hours.empty_window", text)
    return Window(start, end, weekdays)


def parse_quiet(text: str | None) -> tuple[Window, ...]:
    """Quiet hours as stored ("23:00-08:00, 09:00-17:00 weekdays"); () for none."""
    if not text:
        return ()
    out = []
    for part in text.split(","):
        words = part.split()
        weekdays = bool(words) and words[-1] == "weekdays"
        out.append(parse_window(" ".join(words[:-1] if weekdays else words), weekdays))
    return tuple(out)


def check_quiet(windows: tuple[Window, ...]) -> tuple[Window, ...]:
    """``windows`` if a player may have them (at most two, leaving the clock some hours of
    every day); BadHours otherwise."""
    if len(windows) > MAX_WINDOWS:
        raise BadHours("hours.too_many")
    if sum(w.minutes for w in windows) > MAX_QUIET_MINUTES:
        raise BadHours("hours.too_long")
    return windows


def check_zone(name: str) -> str:
    """``name`` if it is an IANA time zone this machine knows; BadHours otherwise."""
    name = name.strip()
    if name not in zone_names():
        raise BadHours("hours.bad_zone", name)
    return name


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every IANA time zone name known here (for checks and autocomplete)."""
    return frozenset(zoneinfo.available_timezones()) | {"UTC"}


@lru_cache(maxsize=4096)
def hours_from_spec(spec: str | None) -> PlayingHours:
    """The playing hours a deadline row keeps (``PlayingHours.spec``)."""
    if not spec:
        return PlayingHours()
    zone, _, quiet = spec.partition(" ")
    return PlayingHours(zone, parse_quiet(quiet))


def user_hours(zone: str | None, quiet: str | None) -> PlayingHours:
    """A user's playing hours from their settings (UTC when no zone is set; a zone this
    machine no longer knows counts as UTC rather than failing their games)."""
    name = zone if zone and zone in zone_names() else "UTC"
    return PlayingHours(name, parse_quiet(quiet))


def hours_of(settings: UserSettings) -> PlayingHours:
    """A user's playing hours from their stored settings."""
    return user_hours(settings.time_zone, settings.quiet_hours)


@lru_cache(maxsize=256)
def _tz(name: str) -> dt.tzinfo:
    """The time zone ``name`` (UTC needs no time zone database)."""
    return dt.UTC if name == "UTC" else zoneinfo.ZoneInfo(name)


def _moment(day: dt.date, minutes: int, tz: dt.tzinfo) -> float:
    """When the wall clock of ``tz`` first reads ``minutes`` after midnight on ``day``: a
    time a daylight saving change repeats is its first occurrence, one the change skips is
    the moment of the jump."""
    naive = dt.datetime.combine(day, dt.time(minutes // 60, minutes % 60))
    ts = naive.replace(tzinfo=tz).timestamp()
    if dt.datetime.fromtimestamp(ts, tz).replace(tzinfo=None) == naive:
        return ts
    # Skipped (zoneinfo put it past the jump): step back to the jump itself.
    while dt.datetime.fromtimestamp(ts - 60, tz).replace(tzinfo=None) > naive:
        ts -= 60
    return ts


def quiet_spans(hours: PlayingHours, a: float, b: float) -> list[tuple[float, float]]:
    """The quiet intervals (Unix seconds, merged, in order) that overlap [a, b)."""
    if hours.runs_always or b <= a:
        return []
    tz = _tz(hours.zone)
    key = hours.key
    # From the day before: a window that starts the evening before may still be on.
    first = dt.datetime.fromtimestamp(a, tz).toordinal() - 1
    last = dt.datetime.fromtimestamp(b, tz).toordinal()
    spans: list[tuple[float, float]] = []
    for day in range(first, last + 1):
        spans.extend(_day_spans(key, day))
    spans.sort()
    merged: list[tuple[float, float]] = []
    for s, e in spans:
        if e <= a or s >= b:
            continue
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


@lru_cache(maxsize=65536)
def _day_spans(key: str, ordinal: int) -> tuple[tuple[float, float], ...]:
    """The quiet intervals of the windows of the playing hours ``key`` (their spec) that
    start on the day ``ordinal`` (kept: the scheduler and the card ask about the same few
    days of the same players again and again)."""
    hours = hours_from_spec(key)
    tz = _tz(hours.zone)
    day = dt.date.fromordinal(ordinal)
    out = []
    for w in hours.quiet:
        if w.weekdays and day.weekday() >= 5:
            continue
        end_day = day if w.end > w.start else day + dt.timedelta(days=1)
        s, e = _moment(day, w.start, tz), _moment(end_day, w.end, tz)
        if e > s:
            out.append((s, e))
    return tuple(out)


def running_between(hours: PlayingHours, a: float, b: float) -> float:
    """Seconds of running clock (outside quiet hours) from ``a`` to ``b`` (0 if b <= a)."""
    if b <= a:
        return 0.0
    quiet = sum(min(e, b) - max(s, a) for s, e in quiet_spans(hours, a, b))
    return (b - a) - quiet


def end_after(hours: PlayingHours, a: float, seconds: float) -> float:
    """The first moment at which ``seconds`` of running clock have passed since ``a``: when a
    wait of that length begun at ``a`` runs out."""
    t, left = a, max(0.0, seconds)
    while True:
        horizon = t + left + _HORIZON
        for s, e in quiet_spans(hours, t, horizon):
            if s > t:
                if s - t >= left:
                    return t + left
                left -= s - t
            t = max(t, e)
        if t + left <= horizon:
            return t + left
        # The quiet hours ate the whole horizon's running time: look further on.
        left -= max(0.0, horizon - t)
        t = max(t, horizon)


def outside_quiet(hours: PlayingHours, t: float) -> float:
    """``t``, or the end of the quiet hours it falls in (a reminder is sent then)."""
    for s, e in quiet_spans(hours, t, t + 1):
        if s <= t < e:
            return e
    return t


def quiet_end(spec: str | None, t: float) -> float | None:
    """When the quiet hours that ``t`` falls in end, for the playing hours ``spec`` (a
    deadline row's); None when ``t`` is not in quiet hours."""
    if not spec:
        return None
    end = outside_quiet(hours_from_spec(spec), t)
    return end if end != t else None


def quiet_now(hours: PlayingHours, t: float) -> bool:
    """Whether ``t`` falls in quiet hours."""
    return outside_quiet(hours, t) != t


def quiet_reminders(hours: PlayingHours, started: float, due: float, last_call: float) -> tuple[float, float]:
    """When a wait's two reminders fall in running time: when half of it has run, and when
    ``last_call`` (or a twelfth of it, if shorter) is left; one due in quiet hours is sent
    at their end."""
    length = running_between(hours, started, due)
    first = outside_quiet(hours, end_after(hours, started, length / 2))
    second = outside_quiet(hours, end_after(hours, started, length - min(length / 12, last_call)))
    return first, max(first, second)
