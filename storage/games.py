"""Games in the store: a game's row, its seats, its action log, and the moves committed with
their deadlines and outbox note. Mixed into Store (storage/store.py), whose connection, lock
and group commit it writes through."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite

from .deadlines import DeadlinePlan, apply_plan
from .dialect import IntegrityError, game_locks
from .errors import ChannelBusy, NotInLobby, SeatTaken, StaleVersion, UnknownGame
from .outbox import ChangeNote, write_change
from .rows import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    SEAT_COLUMNS,
    STATUSES,
    ActionRow,
    GameRow,
    SeatRow,
    action_from_sql,
    game_from_sql,
    seat_from_sql,
)
from .stamps import Stamps, bumped, forget, publish, touch

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


@dataclass(frozen=True)
class MoveWrite:
    """One move to store: who, the action and state JSON, and what it does to the clock."""

    seat: int
    action: str
    state: str
    finished: bool
    deadlines: DeadlinePlan | None = None
    own: bool = False


@dataclass(frozen=True)
class MoveCommit:
    """One commit_moves call as data, for a batch of them written at once (on PostgreSQL,
    storage/pg_moves.py): the game, the version it was read at, its steps, its outbox note."""

    game: int
    expected_version: int
    steps: tuple[MoveWrite, ...]
    change: ChangeNote | None
    now: float


class GameQueries:
    """Games, seats, moves and the action log, mixed into Store (uses its _write, _fetchall,
    _changes and group commit)."""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        options: dict,
        host_id: int,
        locale: str,
        clock_seconds: int | None = None,
        timeout_action: str = "ai",
        bank: tuple[int, int] | None = None,
        host_seat: tuple[str, str | None] | None = None,
        pending_thread: int | None = None,
    ) -> GameRow:
        """Create a game in 'lobby' status; raises ChannelBusy if the channel has an open game.
        ``host_seat`` (name, locale) seats the host in the same transaction: a lobby never
        exists without its host. ``pending_thread``: the thread noted before it was opened
        for this game now holds it (forgotten in the same transaction). ``bank``: (increment,
        cap) of a time bank whose reserve is ``clock_seconds``; None: a per-turn clock."""
        now = time.time()
        options_json = json.dumps(options, ensure_ascii=False, separators=(",", ":"))
        # The channel's lock: two lobbies asked in one channel at once are told apart here
        # (the partial unique index on channel_id stays the last word).
        async with self._write(locks=(("channel", channel_id),)) as db:  # type: ignore[attr-defined]
            busy = await db.execute_fetchall(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                (channel_id,),
            )
            if busy:
                raise ChannelBusy(f"channel {channel_id} already has open game {busy[0][0]}")
            try:
                rows = await db.execute_fetchall(
                    "INSERT INTO games (guild_id, channel_id, game_id, options, status, version,"
                    " host_id, locale, created_at, updated_at, clock_seconds, timeout_action,"
                    " bank_increment, bank_cap)"
                    " VALUES (?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?, ?, ?, ?)"
                    f" RETURNING {GAME_COLUMNS}",
                    (guild_id, channel_id, game_id, options_json, host_id, locale, now, now,
                     clock_seconds, timeout_action, *(bank or (None, None))),
                )
            except IntegrityError as e:
                # The partial unique index is the real guard (another process may have won
                # between our SELECT and INSERT if it did not use IMMEDIATE).
                if "channel_id" in str(e):
                    raise ChannelBusy(f"channel {channel_id} already has an open game") from e
                raise
            created = game_from_sql(list(rows)[0])
            if pending_thread is not None:
                await db.execute("DELETE FROM pending_threads WHERE id = ?", (pending_thread,))
            if host_seat is not None:
                await db.execute(
                    "INSERT INTO seats (game, seat, user_id, ai, name, locale, dm_closed)"
                    " VALUES (?, 0, ?, FALSE, ?, ?, FALSE)",
                    (created.id, host_id, host_seat[0], host_seat[1]),
                )
            return created

    async def get_game(self, game: int) -> GameRow | None:
        """The game with that id, or None."""
        rows = await self._fetchall(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game,))  # type: ignore[attr-defined]
        return game_from_sql(rows[0]) if rows else None

    async def game_stamp(self, game: int) -> int | None:
        """The game's stamp (storage/stamps.py), or None if there is no such game: a number
        read by the primary key, where a process checks a game it holds in memory; the
        reads asked together share one statement (StampReads)."""
        return await self._stamp_reads.stamp(game)  # type: ignore[attr-defined]

    async def _read_stamps(self, games: list[int]) -> list[tuple[int, int]]:
        """(id, stamp) of those of ``games`` that exist."""
        marks = ", ".join("?" for _ in games)
        return await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT id, stamp FROM games WHERE id IN ({marks})", tuple(games))

    async def games_with_seats(self, games: Sequence[int]) -> list[tuple[GameRow, list[SeatRow]]]:
        """Several games and their seats in two reads (a burst of the clock's timeouts loads
        hundreds at once), by id; games that do not exist are left out."""
        ids = sorted(set(games))
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {GAME_COLUMNS} FROM games WHERE id IN ({marks}) ORDER BY id", tuple(ids))
        seat_rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game IN ({marks}) ORDER BY game, seat", tuple(ids))
        seats: dict[int, list[SeatRow]] = {}
        for r in seat_rows:
            seat = seat_from_sql(r)
            seats.setdefault(seat.game, []).append(seat)
        return [(row, seats.get(row.id, [])) for row in map(game_from_sql, rows)]

    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The open (lobby or active) game in that channel, or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {GAME_COLUMNS} FROM games"
            " WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return game_from_sql(rows[0]) if rows else None

    async def open_game_ids(self) -> list[int]:
        """Ids of every lobby or active game, ascending (an index search on status, no table scan)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
        )
        return [r[0] for r in rows]

    async def games_to_resume(self) -> tuple[list[int], int]:
        """What a start must look at among the open games, without loading any: the ids
        (ascending) of those with no message stored (a crash came between posting their
        lobby or card and storing it) and of the active ones with a bot seat (it may owe a
        move); and how many games are open in all. Two index searches on status, whatever
        the number of games stored; every other open game is loaded when first touched."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT g.id FROM games g WHERE g.status IN ('lobby', 'active')"
            " AND (g.board_message_id IS NULL OR (g.status = 'active'"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.game = g.id AND s.ai)))"
            " ORDER BY g.id"
        )
        count = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT COUNT(*) FROM games WHERE status IN ('lobby', 'active')"
        )
        return [r[0] for r in rows], int(count[0][0])

    async def open_cards(self) -> list[tuple[int, int]]:
        """(channel, message) of every open game's stored lobby or card, from the games'
        own columns (no game read whole): what a start needs to count messages burying
        them."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT COALESCE(board_channel_id, channel_id), board_message_id FROM games"
            " WHERE status IN ('lobby', 'active') AND board_message_id IS NOT NULL ORDER BY id"
        )
        return [(int(r[0]), int(r[1])) for r in rows]

    # ------------------------------------------------------------------ seats

    async def seats(self, game: int) -> list[SeatRow]:
        """The game's seats in turn order."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {SEAT_COLUMNS} FROM seats WHERE game = ? ORDER BY seat", (game,)
        )
        return [seat_from_sql(r) for r in rows]

    async def add_seat(
        self,
        game: int,
        *,
        user_id: int | None,
        name: str,
        ai: bool = False,
        locale: str | None = None,
    ) -> SeatRow:
        """Seat someone at the next seat number; SeatTaken if that user is seated, NotInLobby if started."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            await self._require_lobby(db, game)
            if user_id is not None:
                taken = await db.execute_fetchall(
                    "SELECT seat FROM seats WHERE game = ? AND user_id = ?", (game, user_id)
                )
                if taken:
                    raise SeatTaken(f"user {user_id} already has seat {taken[0][0]} in game {game}")
            rows = await db.execute_fetchall(
                "INSERT INTO seats (game, seat, user_id, ai, name, locale, dm_closed)"
                " SELECT ?, COALESCE(MAX(seat) + 1, 0), ?, ?, ?, ?, FALSE"
                " FROM seats WHERE game = ?"
                f" RETURNING {SEAT_COLUMNS}",
                (game, user_id, bool(ai), name, locale, game),
            )
            await touch(db, game)
            return seat_from_sql(list(rows)[0])

    async def remove_seat(self, game: int, user_id: int) -> bool:
        """Unseat a user while in the lobby and renumber the rest 0..n-1; False if nothing removed."""
        return await self._remove_seat(game, "user_id = ?", user_id)

    async def remove_seat_number(self, game: int, seat: int) -> bool:
        """Unseat whoever sits at ``seat`` (an AI seat, say) while in the lobby; False if none."""
        return await self._remove_seat(game, "seat = ?", seat)

    async def _remove_seat(self, game: int, where: str, value: int) -> bool:
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            status = await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (game,))
            if not status or status[0][0] != "lobby":
                return False
            removed = await self._changes(  # type: ignore[attr-defined]
                db, f"DELETE FROM seats WHERE game = ? AND {where}", (game, value)
            )
            if not removed:
                return False
            rows = await db.execute_fetchall(
                "SELECT seat FROM seats WHERE game = ? ORDER BY seat", (game,)
            )
            moves = [(i, old) for i, old in enumerate(r[0] for r in rows) if i != old]
            if moves:
                # Two steps through negative numbers: a one-step "seat = seat - 1" can hit
                # the (game, seat) key mid-statement, and PostgreSQL checks it per row.
                await db.executemany(
                    "UPDATE seats SET seat = ? WHERE game = ? AND seat = ?",
                    [(-1 - new, game, old) for new, old in moves],
                )
                await db.execute(
                    "UPDATE seats SET seat = -1 - seat WHERE game = ? AND seat < 0", (game,)
                )
            await touch(db, game, "updated_at = ?", (time.time(),))
            return True

    async def drop_seat(self, game: int, seat: int, change: ChangeNote | None = None) -> None:
        """The seat's player is out for good: the bot plays the seat from now on (and
        ``change``, what that owes Discord, is written with it)."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            if change is not None:
                await write_change(db, game, change)
            n = await self._changes(  # type: ignore[attr-defined]
                db, "UPDATE seats SET ai = TRUE, dropped = TRUE WHERE game = ? AND seat = ?",
                (game, seat),
            )
            if not n:
                raise UnknownGame(f"game {game} has no seat {seat}")
            await touch(db, game)
            await db.execute("DELETE FROM deadlines WHERE game = ? AND seat = ?", (game, seat))

    async def set_host(self, game: int, user_id: int) -> None:
        """Hand the game's hosting over to ``user_id``."""
        await self._update_game(game, "host_id = ?", (user_id,))

    async def set_dm_closed(self, game: int, seat: int, closed: bool) -> None:
        """Record whether DMs to that seat's player are refused; UnknownGame if no such seat."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE seats SET dm_closed = ? WHERE game = ? AND seat = ?",
                (bool(closed), game, seat),
            )
            if not n:
                raise UnknownGame(f"game {game} has no seat {seat}")
            await touch(db, game)

    # ------------------------------------------------------------------ play

    async def start_game(
        self,
        game: int,
        *,
        seed: int,
        state: str,
        version: int = 0,
        deadlines: DeadlinePlan | None = None,
        change: ChangeNote | None = None,
        options: dict | None = None,
        seating: dict[int, int] | None = None,
        salt: str | None = None,
    ) -> GameRow:
        """Move a game from lobby to active with its first state (and its first deadlines);
        NotInLobby (a StaleVersion) otherwise. ``options``: the options the game was set up
        with, when the start fixed more of them than the lobby had (the replay needs them).
        ``seating``: the places drawn for the start (lobby seat -> seat), moved with it.
        ``salt``: the secret committed to with the seed (services/fairness.py)."""
        if not _INT64_MIN <= seed <= _INT64_MAX:
            raise ValueError("seed must fit in a signed 64-bit integer")
        fixed = (
            None
            if options is None
            else json.dumps(options, ensure_ascii=False, separators=(",", ":"))
        )
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(
                "UPDATE games SET status = 'active', seed = ?, state = ?, version = ?,"
                " updated_at = ?, options = COALESCE(?, options), seed_salt = ?, stamp = stamp + 1"
                " WHERE id = ? AND status = 'lobby'"
                f" RETURNING {GAME_COLUMNS}, stamp",
                (seed, state, version, time.time(), fixed, salt, game),
            )
            rows = list(rows)
            if not rows:
                raise NotInLobby(f"game {game} is not in the lobby (started, closed or unknown)")
            bumped(game, rows[0][-1])
            if seating:
                # Through negative numbers, so that no two seats ever share one on the way.
                await db.execute("UPDATE seats SET seat = -1 - seat WHERE game = ?", (game,))
                for old, new in seating.items():
                    await db.execute(
                        "UPDATE seats SET seat = ? WHERE game = ? AND seat = ?", (new, game, -1 - old)
                    )
            if deadlines is not None:
                await apply_plan(db, game, deadlines)
            if change is not None:
                await write_change(db, game, change)
            return game_from_sql(rows[0])

    async def commit_move(
        self,
        game: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        state: str,
        finished: bool,
        deadlines: DeadlinePlan | None = None,
        own: bool = False,
        change: ChangeNote | None = None,
    ) -> int:
        """Store a move's new state and log row, and the game's deadlines, in one transaction;
        StaleVersion if someone moved first. ``own``: the seat's player made it (not the bot
        for them), so their catch-up starts after it. ``change``: what the move owes
        Discord, written in the same transaction."""
        step = MoveWrite(seat=seat, action=action, state=state, finished=finished,
                         deadlines=deadlines, own=own)
        return await self.commit_moves(game, expected_version=expected_version, steps=[step],
                                       change=change)

    async def commit_moves(
        self,
        game: int,
        *,
        expected_version: int,
        steps: Sequence[MoveWrite],
        change: ChangeNote | None = None,
    ) -> int:
        """Store several moves in a row (one player's choice made of several steps) in one
        transaction: all of them or none. Returns the last seq.

        The game's stamp is bumped with each step's UPDATE; the stamps travel back with the
        write's result (a group's batch runs outside the caller's task) and are told to the
        caller's task once committed (storage/stamps.py)."""
        now = time.time()

        async def write(db: aiosqlite.Connection) -> tuple[int, Stamps]:
            seq, stamps = expected_version, {}
            for step in steps:
                seq += 1
                # Same guard either way; status is only written when it changes so the
                # status indexes are not rewritten on every ordinary move.
                if step.finished:
                    sql = (
                        "UPDATE games SET state = ?, version = ?, status = 'finished',"
                        " updated_at = ?, finished_at = ?, stamp = stamp + 1"
                        " WHERE id = ? AND version = ? AND status = 'active'"
                    )
                    params: tuple[object, ...] = (step.state, seq, now, now, game, seq - 1)
                else:
                    sql = (
                        "UPDATE games SET state = ?, version = ?, updated_at = ?, stamp = stamp + 1"
                        " WHERE id = ? AND version = ? AND status = 'active'"
                    )
                    params = (step.state, seq, now, game, seq - 1)
                # RETURNING: the answer comes with the statement, one trip to aiosqlite's
                # thread rather than two (a cursor to read, then to close).
                changed = list(await db.execute_fetchall(sql + " RETURNING stamp", params))
                if not changed:
                    # Raising rolls back (the transaction, or the move's savepoint in a
                    # group): nothing of this attempt remains.
                    raise StaleVersion(f"game {game} is no longer active at version {seq - 1}")
                bumped(game, int(changed[0][0]), into=stamps)
                await db.execute(
                    "INSERT INTO actions (game, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                    (game, seq, step.seat, step.action, now),
                )
                if step.own:
                    await db.execute(
                        "UPDATE seats SET seen_seq = ? WHERE game = ? AND seat = ?",
                        (seq, game, step.seat),
                    )
                if step.finished:
                    await db.execute("DELETE FROM deadlines WHERE game = ?", (game,))
                elif step.deadlines is not None:
                    await apply_plan(db, game, step.deadlines)
            if change is not None:
                await write_change(db, game, change)
            return seq, stamps

        forget()
        if self._group is not None:  # type: ignore[attr-defined]
            # Guarded by its own version and undone alone if stale; answered after COMMIT.
            if self._pg is not None:  # type: ignore[attr-defined]
                # There the batch is one statement over every move's data.
                item = MoveCommit(game, expected_version, tuple(steps), change, now)
                seq, stamps = await self._group.run(item)  # type: ignore[attr-defined]
            else:
                seq, stamps = await self._group.run(write)  # type: ignore[attr-defined]
        else:
            # The game's lock keeps every other write of the game out meanwhile; the UPDATE
            # ... WHERE version = ? decides between two movers of it (the second finds it stale).
            async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
                seq, stamps = await write(db)
        publish(stamps)
        return seq

    async def actions(self, game: int, *, after: int = 0) -> list[ActionRow]:
        """The game's action log in seq order; `after` skips entries with seq <= after."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game = ? AND seq > ? ORDER BY seq",
            (game, after),
        )
        return [action_from_sql(r) for r in rows]

    # ------------------------------------------------------------------ bookkeeping

    async def set_board_message(self, game: int, channel_id: int, message_id: int | None) -> None:
        """Remember where the public board message is (message_id None: none posted now);
        a card being posted anew (note_card_posting) is stored now."""
        await self._update_game(
            game, "board_channel_id = ?, board_message_id = ?, card_posting_at = NULL",
            (channel_id, message_id),
        )

    async def set_status(self, game: int, status: str, change: ChangeNote | None = None) -> None:
        """Force a status (e.g. 'abandoned'); ChannelBusy if reopening would clash in its
        channel. Closing the game also drops its deadlines, and ``change`` (what it owes
        Discord) is written, all in one transaction."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}; expected one of {STATUSES}")
        closing = status in ("finished", "abandoned")
        try:
            async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
                if closing:
                    sql, params = "status = ?, finished_at = ?", (status, time.time())
                else:
                    sql, params = "status = ?", (status,)
                if not await touch(db, game, f"{sql}, updated_at = ?", (*params, time.time())):
                    raise UnknownGame(f"no game {game}")
                if closing:
                    await db.execute("DELETE FROM deadlines WHERE game = ?", (game,))
                if change is not None:
                    await write_change(db, game, change)
        except IntegrityError as e:
            if "channel_id" in str(e):
                raise ChannelBusy(
                    f"another open game already lives in game {game}'s channel"
                ) from e
            raise

    async def set_locale(self, game: int, locale: str) -> None:
        """Change the game's channel-facing locale."""
        await self._update_game(game, "locale = ?", (locale,))

    async def _update_game(self, game: int, assignments: str, params: tuple[object, ...]) -> None:
        """UPDATE one game's columns and touch updated_at; UnknownGame if the id is absent."""
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            if not await touch(db, game, f"{assignments}, updated_at = ?", (*params, time.time())):
                raise UnknownGame(f"no game {game}")

    @staticmethod
    async def _require_lobby(db: aiosqlite.Connection, game: int) -> None:
        """Raise NotInLobby unless the game exists and is still in the lobby."""
        rows = await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (game,))
        if not rows:
            raise NotInLobby(f"no game {game}")
        status = list(rows)[0][0]
        if status != "lobby":
            raise NotInLobby(f"game {game} is {status}, no longer in the lobby")
