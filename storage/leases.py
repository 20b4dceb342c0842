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

        One statement, so two processes asking at once cannot both win: the insert of a
        free name, or the update of a row that is ours or expired, happens for one of them."""
        async with self._write(locks=(("lease", name),)) as db:  # type: ignore[attr-defined]
            changed = await self._changes(  # type: ignore[attr-defined]
                db,
                f"INSERT INTO leases ({LEASE_COLUMNS}) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                " taken_at = CASE WHEN leases.owner = excluded.owner THEN leases.taken_at"
                " ELSE excluded.taken_at END,"
                " expires_at = excluded.expires_at"
                " WHERE leases.owner = excluded.owner OR leases.expires_at < ?",
                (name, owner, now, now + ttl, now),
            )
            return changed > 0

    async def release_lease(self, name: str, owner: str) -> bool:
        """Give the lease up at once (a clean stop), if ``owner`` still holds it."""
        async with self._write(locks=(("lease", name),)) as db:  # type: ignore[attr-defined]
            return await self._changes(  # type: ignore[attr-defined]
                db, "DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner)
            ) > 0

    async def lease(self, name: str) -> LeaseRow | None:
        """The lease ``name`` as stored (expired or not), or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {LEASE_COLUMNS} FROM leases WHERE name = ?", (name,)
        )
        return lease_from_sql(rows[0]) if rows else None
