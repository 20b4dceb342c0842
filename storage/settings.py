"""Per-user and per-server settings in the store: notifications, vacations, /config."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from typing import Any

from .game_threads import DEFAULT_ARCHIVE_HOURS

NOTIFY = ("channel", "dm", "both", "none")
DEFAULT_COOLDOWN = 60  # a member runs each heavy command 3 times in this many seconds at most
TIMEOUT_ACTIONS = ("ai", "drop", "lose")  # "lose": tournaments only (on time)


@dataclass(frozen=True)
class UserSettings:
    """A user's own settings, the same in every server."""

    user_id: int
    notify: str = "channel"  # how they hear it is their turn: channel, dm, both, none
    locale: str | None = None
    vacation_until: float | None = None
    vacation_year: int | None = None
    vacation_used: float = 0.0  # days of vacation used in vacation_year
    time_zone: str | None = None  # IANA name; None: UTC
    quiet_hours: str | None = None  # when their clock does not run (services/clock_time.py)


@dataclass(frozen=True)
class GuildSettings:
    """A server's settings, from /config."""

    guild_id: int
    locale: str | None = None
    clock_seconds: int | None = None
    timeout_action: str = "ai"
    creator_role_id: int | None = None
    games_channel_id: int | None = None
    organiser_role_id: int | None = None  # may run tournaments (besides Manage Server)
    game_threads: bool = True  # /game new opens a thread unless the host says otherwise
    archive_hours: int = DEFAULT_ARCHIVE_HOURS  # a game's thread is archived this long after it ends; 0: never
    # What keeps one member from tiring the bot (0013_limits.sql says what each one counts).
    cooldown_seconds: int = DEFAULT_COOLDOWN
    lobbies_per_member: int = 3
    lobbies_per_server: int = 30
    threads_per_member: int = 5
    threads_per_server: int = 100
    # The default clock's time bank (increment, cap; None: per-turn), as games.bank_*.
    bank_increment: int | None = None
    bank_cap: int | None = None
    # Timeouts of one player in one game after which the bot takes the seat for good; 0: never.
    timeout_limit: int = 3


@dataclass(frozen=True)
class OpenCounts:
    """What a server holds open now, in all and of one member's making."""

    lobbies: int = 0
    member_lobbies: int = 0
    threads: int = 0  # threads of games not over, opened by the bot
    member_threads: int = 0  # of those, the threads of games the member hosts


_USER_COLUMNS = ", ".join(f.name for f in fields(UserSettings))
_GUILD_COLUMNS = ", ".join(f.name for f in fields(GuildSettings))


def _guild(row: Any) -> GuildSettings:
    """A guild_settings row as settings (SQLite reads a BOOLEAN back as 0 or 1)."""
    gs = GuildSettings(*row)
    return replace(gs, game_threads=bool(gs.game_threads))


class SettingsQueries:
    """The store's settings methods (mixed into Store, which provides _write and _fetchall)."""

    # Users' settings as this store last read or wrote them, the most recently used last
    # (None: none kept, every read goes to the database). They are read on every move that
    # starts a wait, every card and every turn's message; they change only through
    # update_user. Kept only where this process is the database's one writer (the session
    # service says so: keep_user_settings), else another process's change would go unseen.
    _users_kept: OrderedDict[int, UserSettings] | None = None
    _users_limit = 0
    # Bumped by every write of a user's settings: a read begun before a write does not keep
    # what it read (it may be older than the write).
    _users_written = 0

    def keep_user_settings(self, limit: int) -> None:
        """Keep up to ``limit`` users' settings in memory (0: none, every read goes to the
        database); only for a database no other process writes."""
        self._users_limit = max(0, limit)
        self._users_kept = OrderedDict() if self._users_limit else None

    def _keep_users(self, found: dict[int, UserSettings], since: int) -> None:
        """Remember ``found`` (read when ``_users_written`` was ``since``), within the limit."""
        kept = self._users_kept
        if kept is None or since != self._users_written:
            return
        for uid, settings in found.items():
            kept[uid] = settings
            kept.move_to_end(uid)
        while len(kept) > self._users_limit:
            kept.popitem(last=False)

    async def user_settings(self, user_id: int) -> UserSettings:
        """``user_id``'s settings (the defaults when never set)."""
        return (await self.users_settings([user_id]))[user_id]

    async def users_settings(self, user_ids: list[int]) -> dict[int, UserSettings]:
        """Settings of several users at once (defaults for the unknown ones): from memory
        where kept, the others in one read."""
        kept = self._users_kept
        out: dict[int, UserSettings] = {}
        missing = list(dict.fromkeys(user_ids))
        if kept is not None:
            missing = [u for u in missing if u not in kept]
            for u in user_ids:
                if u in kept:
                    out[u] = kept[u]
                    kept.move_to_end(u)
        if not missing:
            return out
        since = self._users_written
        found = {u: UserSettings(user_id=u) for u in missing}
        marks = ", ".join("?" for _ in missing)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {_USER_COLUMNS} FROM users WHERE user_id IN ({marks})", tuple(missing)
        )
        for r in rows:
            found[r[0]] = UserSettings(*r)
        self._keep_users(found, since)
        out.update(found)
        return out

    async def update_user(self, user_id: int, **changes: Any) -> UserSettings:
        """Change some of ``user_id``'s settings and return them all."""
        self._users_written += 1
        if self._users_kept is not None:
            self._users_kept.pop(user_id, None)  # until the write says what they are
        new: UserSettings = await self._upsert("users", "user_id", UserSettings(user_id=user_id), changes)
        self._users_written += 1
        self._keep_users({user_id: new}, self._users_written)
        return new

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        """The server's settings (the defaults when never configured, or outside a server)."""
        if guild_id is None:
            return GuildSettings(guild_id=0)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {_GUILD_COLUMNS} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return _guild(rows[0]) if rows else GuildSettings(guild_id=guild_id)

    async def open_counts(self, guild_id: int, user_id: int) -> OpenCounts:
        """The server's open lobbies and game threads, in all and those ``user_id`` hosts."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT"
            " SUM(CASE WHEN g.status = 'lobby' THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN g.status = 'lobby' AND g.host_id = ? THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN t.thread_id IS NOT NULL THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN t.thread_id IS NOT NULL AND g.host_id = ? THEN 1 ELSE 0 END)"
            " FROM games g LEFT JOIN game_threads t ON t.game = g.id AND t.archived_at IS NULL"
            " WHERE g.guild_id = ? AND g.status IN ('lobby', 'active')",
            (user_id, user_id, guild_id),
        )
        return OpenCounts(*(int(n or 0) for n in rows[0])) if rows else OpenCounts()

    async def update_guild(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of the server's settings and return them all."""
        return await self._upsert("guild_settings", "guild_id", GuildSettings(guild_id=guild_id), changes)

    async def _upsert(self, table: str, key: str, default: Any, changes: dict[str, Any]) -> Any:
        """Read a settings row (``default`` when absent), apply ``changes``, write it back,
        in one transaction (a plain delete-and-insert: portable to every SQL the store runs on)."""
        cls = type(default)
        names = [f.name for f in fields(cls)]
        columns = ", ".join(names)
        ident = getattr(default, key)
        async with self._write(locks=((table, ident),)) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(f"SELECT {columns} FROM {table} WHERE {key} = ?", (ident,))
            current = (_guild(list(rows)[0]) if cls is GuildSettings else cls(*list(rows)[0])) if rows else default
            new = replace(current, **changes)
            values = tuple(getattr(new, n) for n in names)
            await db.execute(f"DELETE FROM {table} WHERE {key} = ?", (ident,))
            marks = ", ".join("?" for _ in values)
            await db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)
            return new
