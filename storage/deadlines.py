"""Turn-clock deadlines in the store: one row per pending human seat of a clocked game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .dialect import game_locks
from .outbox import ChangeNote, write_change

if TYPE_CHECKING:
    import aiosqlite

DEADLINE_COLUMNS = "game, seat, user_id, started_at, due_at, reminders, paused_left, next_at, hours"


@dataclass(frozen=True)
class DeadlineRow:
    """One seat's wait: when it began, when it runs out, reminders sent, when to look next."""

    game: int
    seat: int
    user_id: int
    started_at: float
    due_at: float
    reminders: int = 0
    paused_left: float | None = None  # seconds left while the player is on vacation
    next_at: float = 0.0
    # The player's playing hours the wait is timed with (services/clock_time.py's
    # PlayingHours.spec); None: the clock runs all day.
    hours: str | None = None

    @property
    def paused(self) -> bool:
        """Whether the clock of this wait is stopped (vacation)."""
        return self.paused_left is not None


@dataclass(frozen=True)
class DeadlinePlan:
    """What a commit does to a game's deadlines: keep these seats' rows, add these, drop the rest."""

    keep: frozenset[int]
    new: tuple[DeadlineRow, ...] = ()
    # Time banks: (seat, running seconds left) of the seats whose wait the commit ends.
    banks: tuple[tuple[int, float], ...] = ()


def deadline_from_sql(r: Sequence[Any]) -> DeadlineRow:
    """Build a DeadlineRow from a tuple selected with DEADLINE_COLUMNS."""
    return DeadlineRow(
        game=r[0], seat=r[1], user_id=r[2], started_at=r[3], due_at=r[4], reminders=r[5],
        paused_left=r[6], next_at=r[7], hours=r[8],
    )


async def apply_plan(db: aiosqlite.Connection, game: int, plan: DeadlinePlan) -> None:
    """Inside a write transaction: make the game's deadlines what ``plan`` says."""
    keep = sorted(plan.keep)
    if keep:
        marks = ", ".join("?" for _ in keep)
        await db.execute(
            f"DELETE FROM deadlines WHERE game = ? AND seat NOT IN ({marks})", (game, *keep)
        )
    else:
        await db.execute("DELETE FROM deadlines WHERE game = ?", (game,))
    await insert_rows(db, plan.new)
    await put_banks(db, game, plan.banks)


async def put_banks(db: aiosqlite.Connection, game: int, banks: Iterable[tuple[int, float]]) -> None:
    """Inside a write transaction: set the time banks of some of ``game``'s seats."""
    data = [(game, seat, seconds) for seat, seconds in banks]
    if not data:
        return
    await db.executemany("DELETE FROM clock_banks WHERE game = ? AND seat = ?", [d[:2] for d in data])
    await db.executemany("INSERT INTO clock_banks (game, seat, seconds) VALUES (?, ?, ?)", data)


async def insert_rows(db: aiosqlite.Connection, rows: Iterable[DeadlineRow]) -> None:
    """Insert deadline rows (replacing a seat's old row) inside a write transaction."""
    data = [
        (r.game, r.seat, r.user_id, r.started_at, r.due_at, r.reminders, r.paused_left, r.next_at, r.hours)
        for r in rows
    ]
    if not data:
        return
    await db.executemany("DELETE FROM deadlines WHERE game = ? AND seat = ?", [(d[0], d[1]) for d in data])
    await db.executemany(
        f"INSERT INTO deadlines ({DEADLINE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", data
    )


# The one row a claim takes: the seat's deadline, if it is still the one read.
_CLAIM = "SELECT game, seat FROM deadlines WHERE game = ? AND seat = ? AND next_at = ? AND started_at = ?"


def _claimed(row: DeadlineRow) -> tuple[object, ...]:
    """The parameters of _CLAIM for ``row``."""
    return (row.game, row.seat, row.next_at, row.started_at)


async def _replace_if_unchanged(db: aiosqlite.Connection, row: DeadlineRow, expected: DeadlineRow,
                                skip_locked: str) -> bool:
    """Inside a write transaction: put ``row`` in place of ``expected`` if that is still the
    seat's deadline (same next_at and start) and, on PostgreSQL, no other transaction is
    changing it (``skip_locked``: the store's clause); whether it was."""
    async with db.execute(
        "UPDATE deadlines SET started_at = ?, due_at = ?, reminders = ?, paused_left = ?,"
        f" next_at = ?, hours = ? WHERE (game, seat) IN ({_CLAIM}{skip_locked})",
        (row.started_at, row.due_at, row.reminders, row.paused_left, row.next_at, row.hours,
         *_claimed(expected)),
    ) as cur:
        return bool(cur.rowcount > 0)


class DeadlineQueries:
    """The store's deadline methods (mixed into Store, which provides _write and _fetchall)."""

    async def deadlines(self, game: int) -> list[DeadlineRow]:
        """Every deadline of ``game``, by seat."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE game = ? ORDER BY seat", (game,)
        )
        return [deadline_from_sql(r) for r in rows]

    async def clock_banks(self, game: int) -> dict[int, float]:
        """The time banks of ``game``'s seats not pending, by seat (a seat without one has the
        reserve the game started with)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT seat, seconds FROM clock_banks WHERE game = ?", (game,)
        )
        return {int(r[0]): float(r[1]) for r in rows}

    async def due_deadlines(self, now: float, limit: int = 500) -> list[DeadlineRow]:
        """Deadlines whose next_at has come, oldest first (an index range, not a scan)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE next_at <= ?"
            " ORDER BY next_at, game, seat LIMIT ?",
            (now, limit),
        )
        return [deadline_from_sql(r) for r in rows]

    async def next_deadline_at(self) -> float | None:
        """When the scheduler must wake next, or None when nothing waits."""
        rows = await self._fetchall("SELECT MIN(next_at) FROM deadlines")  # type: ignore[attr-defined]
        return rows[0][0] if rows and rows[0][0] is not None else None

    async def user_deadlines(self, user_id: int) -> list[DeadlineRow]:
        """Every deadline of ``user_id``'s seats, in any game."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {DEADLINE_COLUMNS} FROM deadlines WHERE user_id = ? ORDER BY game, seat",
            (user_id,),
        )
        return [deadline_from_sql(r) for r in rows]

    async def update_deadline(
        self, row: DeadlineRow, expected: DeadlineRow, change: ChangeNote | None = None
    ) -> bool:
        """Replace the seat's deadline ``expected`` by ``row`` if it is still the one read
        (same next_at and start); False when something else changed or removed it first, or
        (PostgreSQL) is changing it right now: that is what makes each reminder fire once,
        even with two schedulers. ``change`` (a reminder owed) is written to the outbox in
        the same transaction, if claimed."""
        # No game lock: the row itself is claimed (skipped when another transaction holds
        # it), so a scheduler never waits for a move or another scheduler.
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            claimed = await _replace_if_unchanged(db, row, expected, self._skip_locked)  # type: ignore[attr-defined]
            if claimed and change is not None:
                await write_change(db, row.game, change)
            return claimed

    async def claim_deadlines(
        self,
        claims: Sequence[tuple[DeadlineRow, DeadlineRow]],
        owed: Callable[[list[DeadlineRow]], Sequence[tuple[int, ChangeNote]]],
    ) -> list[DeadlineRow]:
        """``update_deadline`` for many rows in one transaction: each ``(row, expected)``
        replaced if still unchanged; then the changes ``owed(claimed rows)`` says (game,
        note) are written to the outbox in the same transaction. The rows claimed."""
        skip = self._skip_locked  # type: ignore[attr-defined]

        async def write(db: aiosqlite.Connection) -> list[DeadlineRow]:
            claimed = [row for row, expected in claims if await _replace_if_unchanged(db, row, expected, skip)]
            for game, note in owed(claimed):
                await write_change(db, game, note)
            return claimed

        group = getattr(self, "_group", None)
        if group is not None and getattr(self, "_pg", None) is None:
            # On SQLite: the whole claim in one trip to the connection's thread, not one
            # per row (a burst claims hundreds).
            return list(await group.run(write))
        # No game lock (PostgreSQL): each row is claimed itself, as in update_deadline.
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            return await write(db)

    async def claim_deadline(self, row: DeadlineRow) -> bool:
        """Delete a due deadline if it is still exactly ``row``; True for the one caller that
        did (another claiming it at the same moment is passed over, not waited for)."""
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            async with db.execute(
                f"DELETE FROM deadlines WHERE (game, seat) IN ({_CLAIM}{self._skip_locked})",  # type: ignore[attr-defined]
                _claimed(row),
            ) as cur:
                return cur.rowcount > 0

    async def put_deadlines(self, rows: Sequence[DeadlineRow]) -> None:
        """Insert or replace deadline rows (vacations pausing or resuming several at once)."""
        async with self._write(locks=game_locks(*{r.game for r in rows})) as db:  # type: ignore[attr-defined]
            await insert_rows(db, rows)

    async def deadlines_of_games(self, games: Sequence[int]) -> dict[int, tuple[int, list[DeadlineRow]]]:
        """The deadlines of each of ``games`` with the version the game had when they were
        read, in one read (a burst of the clock's timeouts, rather than one read each):
        game -> (version, its rows by seat). A game not stored is absent."""
        if not games:
            return {}
        marks = ", ".join("?" for _ in games)
        columns = ", ".join(f"d.{c.strip()}" for c in DEADLINE_COLUMNS.split(","))
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT g.id, g.version, {columns} FROM games g LEFT JOIN deadlines d ON d.game = g.id"
            f" WHERE g.id IN ({marks}) ORDER BY g.id, d.seat",
            tuple(games),
        )
        out: dict[int, tuple[int, list[DeadlineRow]]] = {}
        for r in rows:
            _, found = out.setdefault(r[0], (r[1], []))
            if r[2] is not None:
                found.append(deadline_from_sql(r[2:]))
        return out
