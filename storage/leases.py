"""Leases in the store: one process at a time owns a piece of work, until it stops renewing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LEASE_COLUMNS = "name, owner, taken_at, expires_at"


@dataclass(frozen=True)
class LeaseRow:
    """Who holds the lease ``name``, since when, and until when unless renewed."""

    name: str
    owner: str
    taken_at: float
    expires_at: float


def lease_from_sql(r: Sequence[Any]) -> LeaseRow:
    """Build a LeaseRow from a tuple selected with LEASE_COLUMNS."""
    return LeaseRow(name=r[0], owner=r[1], taken_at=r[2], expires_at=r[3])


class LeaseQueries:
    """The store's lease methods (mixed into Store, which provides _write, _fetchall, _changes)."""

    async def take_lease(self, name: str, owner: str, now: float, ttl: float) -> bool:
        """Take or renew the lease ``name`` for ``owner`` until ``now + ttl``; True when
        ``owner`` holds it now. Another owner's lease is taken only once it has expired.

        Two processes asking at once cannot both win: the row is claimed (on PostgreSQL a
        row another process is taking or renewing right now is passed over: that one wins,
        and this one does not wait for it), or, for a free name, inserted by one of them."""
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            if await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE leases SET owner = ?,"
                " taken_at = CASE WHEN owner = ? THEN taken_at ELSE ? END, expires_at = ?"
                " WHERE name IN (SELECT name FROM leases WHERE name = ?"
                f" AND (owner = ? OR expires_at < ?){self._skip_locked})",  # type: ignore[attr-defined]
                (owner, owner, now, now + ttl, name, owner, now),
            ):
                return True
            return await self._changes(  # type: ignore[attr-defined]
                db,
                f"INSERT INTO leases ({LEASE_COLUMNS}) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                (name, owner, now, now + ttl),
            ) > 0

    async def release_lease(self, name: str, owner: str) -> bool:
        """Give the lease up at once (a clean stop), if ``owner`` still holds it."""
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            return await self._changes(  # type: ignore[attr-defined]
                db, "DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner)
            ) > 0

    async def lease(self, name: str) -> LeaseRow | None:
        """The lease ``name`` as stored (expired or not), or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {LEASE_COLUMNS} FROM leases WHERE name = ?", (name,)
        )
        return lease_from_sql(rows[0]) if rows else None
