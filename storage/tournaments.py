"""Tournaments in the store: the event, its entrants, rounds, tables and their results.

TournamentQueries is mixed into Store, like the outbox's and the leases' queries: its
transactions serialise with every other write of the process exactly as the games' do.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence

from .errors import StaleVersion
from .tournament_rows import (
    ENTRANT_COLUMNS,
    FORMATS,
    MATCH_COLUMNS,
    RESULT_KINDS,
    TOURNAMENT_COLUMNS,
    TOURNAMENT_STATUSES,
    AlreadyEntered,
    EntrantRow,
    MatchPlayer,
    MatchRow,
    NewTable,
    NotInSignup,
    OwedPost,
    TournamentFull,
    TournamentRow,
    UnknownTournament,
    entrant_from_sql,
    match_fields,
    to_json,
    tournament_from_sql,
)


async def _owe(db, tournament: int, kind: str, payload: Mapping[str, object]) -> None:
    """Inside a write transaction: note a post the change owes."""
    await db.execute(
        "INSERT INTO tournament_owed (tournament, kind, payload, created_at) VALUES (?, ?, ?, ?)",
        (tournament, kind, to_json(dict(payload)), time.time()),
    )


class TournamentQueries:
    """Tournament reads and writes, mixed into Store (uses its _write, _fetchall, _changes)."""

    # ------------------------------------------------------------------ tournaments

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game_id: str,
        format: str,
        table_size: int,
        seed: int,
        locale: str,
        options: Mapping | None = None,
        rounds: int | None = None,
        clock: Mapping | None = None,
        signup_deadline: float | None = None,
        cap: int | None = None,
        check_in: bool = False,
        seeding: str = "rating",
        rated: bool = True,
        requirements: Mapping | None = None,
    ) -> TournamentRow:
        """Create a tournament in sign-up."""
        if format not in FORMATS:
            raise ValueError(f"unknown format {format!r}; expected one of {FORMATS}")
        now = time.time()
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(
                "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game_id,"
                " options, format, rounds, table_size, clock, signup_deadline, cap, check_in,"
                " seeding, rated, status, current_round, seed, locale, created_at, updated_at,"
                " requirements)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', 0, ?, ?, ?, ?, ?)"
                f" RETURNING {TOURNAMENT_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    organiser_id,
                    name,
                    game_id,
                    to_json(dict(options or {})),
                    format,
                    rounds,
                    table_size,
                    to_json(dict(clock)) if clock is not None else None,
                    signup_deadline,
                    cap,
                    bool(check_in),
                    seeding,
                    bool(rated),
                    seed,
                    locale,
                    now,
                    now,
                    to_json(dict(requirements)) if requirements else None,
                ),
            )
            return tournament_from_sql(list(rows)[0])

    async def get_tournament(self, tournament: int) -> TournamentRow | None:
        """The tournament with that id, or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?", (tournament,)
        )
        return tournament_from_sql(rows[0]) if rows else None

    async def tournaments_in_guild(
        self, guild_id: int, statuses: Sequence[str] = ("signup", "running")
    ) -> list[TournamentRow]:
        """The server's tournaments with one of those statuses, oldest first."""
        marks = ", ".join("?" for _ in statuses)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments"
            f" WHERE guild_id = ? AND status IN ({marks}) ORDER BY id",
            (guild_id, *statuses),
        )
        return [tournament_from_sql(r) for r in rows]

    async def tournaments_signup_due(self, now: float) -> list[int]:
        """Tournaments still in sign-up whose deadline has passed, oldest first."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id FROM tournaments WHERE status = 'signup'"
            " AND signup_deadline IS NOT NULL AND signup_deadline <= ? ORDER BY id",
            (now,),
        )
        return [r[0] for r in rows]

    async def running_tournaments(self) -> list[int]:
        """Ids of every tournament in sign-up or running (what a restart resumes)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id FROM tournaments WHERE status IN ('signup', 'running') ORDER BY id"
        )
        return [r[0] for r in rows]

    async def start_tournament(
        self, tournament: int, seeds: Sequence[int], *, rounds: int | None = None
    ) -> TournamentRow:
        """Leave sign-up: store the seeding (user ids, best first); NotInSignup otherwise.

        Entrants left out of `seeds` (not checked in) are removed. `rounds`, if given,
        fixes the number of rounds the format settled on at the start.
        """
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            rows = list(
                await db.execute_fetchall(
                    "UPDATE tournaments SET status = 'running', rounds = COALESCE(?, rounds),"
                    " updated_at = ? WHERE id = ? AND status = 'signup'"
                    f" RETURNING {TOURNAMENT_COLUMNS}",
                    (rounds, time.time(), tournament),
                )
            )
            if not rows:
                raise NotInSignup(f"tournament {tournament} is not in sign-up")
            marks = ", ".join("?" for _ in seeds)
            await db.execute(
                f"DELETE FROM entrants WHERE tournament = ? AND user_id NOT IN ({marks})",
                (tournament, *seeds),
            )
            await db.executemany(
                "UPDATE entrants SET seed = ? WHERE tournament = ? AND user_id = ?",
                [(i, tournament, u) for i, u in enumerate(seeds, start=1)],
            )
            return tournament_from_sql(rows[0])

    async def set_tournament_status(
        self, tournament: int, status: str, *, owe: tuple[str, Mapping[str, object]] | None = None
    ) -> None:
        """Force the lifecycle status ('finished', 'cancelled'...); ``owe``: the post (kind,
        payload) the change owes the channel, noted in the same transaction."""
        if status not in TOURNAMENT_STATUSES:
            raise ValueError(f"unknown status {status!r}")
        await self._update_tournament(tournament, "status = ?", (status,), owe=owe)

    async def set_standings_message(self, tournament: int, message_id: int | None) -> None:
        """Remember the standings message to edit."""
        await self._update_tournament(tournament, "standings_message_id = ?", (message_id,))

    async def _update_tournament(
        self, tournament: int, assignments: str, params: tuple,
        owe: tuple[str, Mapping[str, object]] | None = None,
    ) -> None:
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                f"UPDATE tournaments SET {assignments}, updated_at = ? WHERE id = ?",
                (*params, time.time(), tournament),
            )
            if not n:
                raise UnknownTournament(f"no tournament {tournament}")
            if owe is not None:
                await _owe(db, tournament, *owe)

    # ------------------------------------------------------------------ entrants

    async def enter_tournament(self, tournament: int, user_id: int, name: str) -> EntrantRow:
        """Sign a user up; NotInSignup, AlreadyEntered or TournamentFull otherwise."""
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            t = list(
                await db.execute_fetchall(
                    "SELECT status, cap FROM tournaments WHERE id = ?", (tournament,)
                )
            )
            if not t:
                raise UnknownTournament(f"no tournament {tournament}")
            if t[0][0] != "signup":
                raise NotInSignup(f"tournament {tournament} is {t[0][0]}")
            here = list(
                await db.execute_fetchall(
                    "SELECT user_id FROM entrants WHERE tournament = ?", (tournament,)
                )
            )
            if any(r[0] == user_id for r in here):
                raise AlreadyEntered(f"user {user_id} already entered tournament {tournament}")
            if t[0][1] is not None and len(here) >= t[0][1]:
                raise TournamentFull(f"tournament {tournament} is full ({t[0][1]})")
            rows = await db.execute_fetchall(
                "INSERT INTO entrants (tournament, user_id, name, joined_at) VALUES (?, ?, ?, ?)"
                f" RETURNING {ENTRANT_COLUMNS}",
                (tournament, user_id, name, time.time()),
            )
            return entrant_from_sql(list(rows)[0])

    async def leave_tournament(self, tournament: int, user_id: int) -> bool:
        """Withdraw a sign-up before the start; False if not signed up or already started."""
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "DELETE FROM entrants WHERE tournament = ? AND user_id = ? AND EXISTS"
                " (SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup')",
                (tournament, user_id, tournament),
            )
            return n > 0

    async def check_in_entrant(self, tournament: int, user_id: int) -> bool:
        """Mark an entrant present; False if not signed up."""
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE entrants SET checked_in = TRUE WHERE tournament = ? AND user_id = ?",
                (tournament, user_id),
            )
            return n > 0

    async def drop_entrant(self, tournament: int, user_id: int, round_no: int) -> bool:
        """Drop an entrant from the rest of the event; False if absent or already dropped."""
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE entrants SET dropped = TRUE, dropped_round = ?"
                " WHERE tournament = ? AND user_id = ? AND dropped = FALSE",
                (round_no, tournament, user_id),
            )
            if n:
                await _owe(db, tournament, "dropped", {"user": user_id})
            return n > 0

    async def entrants(self, tournament: int) -> list[EntrantRow]:
        """Entrants by seed (once seeded), then by sign-up order."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {ENTRANT_COLUMNS} FROM entrants WHERE tournament = ?"
            " ORDER BY seed IS NULL, seed, joined_at, user_id",
            (tournament,),
        )
        return [entrant_from_sql(r) for r in rows]

    # ------------------------------------------------------------------ rounds and tables

    async def open_round(
        self,
        tournament: int,
        number: int,
        tables: Sequence[NewTable],
        byes: Sequence[int] = (),
    ) -> list[MatchRow]:
        """Open round `number` (the one after the current) with its tables and byes, atomically.

        StaleVersion if the tournament is not running at round number-1 (someone opened it
        first). Byes are stored as finished tables of one player.
        """
        now = time.time()
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE tournaments SET current_round = ?, updated_at = ?"
                " WHERE id = ? AND status = 'running' AND current_round = ?",
                (number, now, tournament, number - 1),
            )
            if not n:
                raise StaleVersion(f"tournament {tournament} is not waiting for round {number}")
            await db.execute(
                "INSERT INTO rounds (tournament, number, status, opened_at) VALUES (?, ?, 'open', ?)",
                (tournament, number, now),
            )
            k = 0
            for k, t in enumerate(tables, start=1):
                await self._insert_match(db, tournament, number, k, t.bracket, t.players, None, now)
            for j, user in enumerate(byes, start=k + 1):
                await self._insert_match(db, tournament, number, j, None, (user,), "bye", now)
            # told once every table of the round has its thread
            await _owe(db, tournament, "round", {"round": number})
        return await self.matches(tournament, number)

    @staticmethod
    async def _insert_match(db, tournament, number, table, bracket, players, result, now) -> None:
        rows = await db.execute_fetchall(
            "INSERT INTO matches (tournament, round, number, bracket, status, result, finished_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                tournament,
                number,
                table,
                bracket,
                "finished" if result else "pending",
                result,
                now if result else None,
            ),
        )
        match_id = list(rows)[0][0]
        await db.executemany(
            "INSERT INTO match_players (match, seat, user_id, place) VALUES (?, ?, ?, ?)",
            [(match_id, s, u, 0 if result == "bye" else None) for s, u in enumerate(players)],
        )

    async def record_walkovers(
        self, tournament: int, round_no: int, walkovers: Sequence[tuple[str, int]]
    ) -> None:
        """Store bracket matches decided without play, as (bracket key, winner) byes."""
        if not walkovers:
            return
        now = time.time()
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            rows = await db.execute_fetchall(
                "SELECT COALESCE(MAX(number), 0) FROM matches WHERE tournament = ? AND round = ?",
                (tournament, round_no),
            )
            number = list(rows)[0][0]
            for i, (key, winner) in enumerate(walkovers, start=number + 1):
                await self._insert_match(db, tournament, round_no, i, key, (winner,), "bye", now)

    async def reopen_match(self, match: int) -> None:
        """Send a finished or playing table back to pending, without game or places (a
        replay), noting that the channel is owed word of it once its new game is open."""
        async with self._write() as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE matches SET status = 'pending', game = NULL, result = NULL,"
                " finished_at = NULL WHERE id = ?",
                (match,),
            )
            if not n:
                raise UnknownTournament(f"no match {match}")
            await db.execute(
                "UPDATE match_players SET place = NULL, score = NULL WHERE match = ?", (match,)
            )
            rows = await db.execute_fetchall("SELECT tournament FROM matches WHERE id = ?", (match,))
            await _owe(db, list(rows)[0][0], "replayed", {"match": match})

    async def set_match_game(self, match: int, game: int) -> None:
        """Link a pending table to the game created for it; it is now being played."""
        async with self._write() as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE matches SET game = ?, status = 'playing' WHERE id = ? AND status = 'pending'",
                (game, match),
            )
            if not n:
                raise StaleVersion(f"match {match} is not pending")

    async def record_match_result(
        self,
        match: int,
        places: Mapping[int, int | None],
        *,
        kind: str,
        scores: Mapping[int, float] | None = None,
    ) -> bool:
        """Store a table's result (places by user id) once; False if it already had one."""
        if kind not in RESULT_KINDS:
            raise ValueError(f"unknown result kind {kind!r}")
        scores = scores or {}
        async with self._write() as db:  # type: ignore[attr-defined]
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE matches SET status = 'finished', result = ?, finished_at = ?"
                " WHERE id = ? AND status != 'finished'",
                (kind, time.time(), match),
            )
            if not n:
                exists = await db.execute_fetchall("SELECT 1 FROM matches WHERE id = ?", (match,))
                if not exists:
                    raise UnknownTournament(f"no match {match}")
                return False
            await db.executemany(
                "UPDATE match_players SET place = ?, score = ? WHERE match = ? AND user_id = ?",
                [(places.get(u), scores.get(u), match, u) for u in places],
            )
            rows = await db.execute_fetchall("SELECT tournament FROM matches WHERE id = ?", (match,))
            await _owe(db, list(rows)[0][0], "result", {"match": match})
            return True

    async def finish_round(self, tournament: int, number: int) -> bool:
        """Close a round whose tables are all finished; False if some are not (or it is closed)."""
        async with self._write(locks=(("tournament", tournament),)) as db:  # type: ignore[attr-defined]
            left = await db.execute_fetchall(
                "SELECT 1 FROM matches WHERE tournament = ? AND round = ? AND status != 'finished'",
                (tournament, number),
            )
            if list(left):
                return False
            n = await self._changes(  # type: ignore[attr-defined]
                db,
                "UPDATE rounds SET status = 'finished', finished_at = ?"
                " WHERE tournament = ? AND number = ? AND status = 'open'",
                (time.time(), tournament, number),
            )
            return n > 0

    # ------------------------------------------------------------------ owed posts

    async def owed_posts(self, tournament: int) -> list[OwedPost]:
        """The posts a tournament's changes still owe its channel, oldest first."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id, tournament, kind, payload, created_at FROM tournament_owed"
            " WHERE tournament = ? AND done_at IS NULL ORDER BY id",
            (tournament,),
        )
        return [OwedPost(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def tournaments_owing(self) -> list[int]:
        """Tournaments with a post still owed (a finished one's podium too)."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT DISTINCT tournament FROM tournament_owed WHERE done_at IS NULL ORDER BY tournament",
            (),
        )
        return [r[0] for r in rows]

    async def owed_posts_done(self, ids: Sequence[int]) -> None:
        """Mark posts as made (or given up for good), in one transaction."""
        if not ids:
            return
        marks = ", ".join("?" for _ in ids)
        async with self._write(locks=()) as db:  # type: ignore[attr-defined]
            await db.execute(
                f"UPDATE tournament_owed SET done_at = ? WHERE id IN ({marks})",
                (time.time(), *ids),
            )

    async def matches(self, tournament: int, round_no: int | None = None) -> list[MatchRow]:
        """The tournament's tables (of one round, or all) by round and table number."""
        where, params = "m.tournament = ?", [tournament]
        if round_no is not None:
            where += " AND m.round = ?"
            params.append(round_no)
        return await self._matches(where, tuple(params))

    async def match_for_game(self, game: int) -> MatchRow | None:
        """The tournament table a game was created for, or None."""
        found = await self._matches("m.game = ?", (game,))
        return found[0] if found else None

    async def get_match(self, match: int) -> MatchRow:
        """One table by id; UnknownTournament if absent."""
        found = await self._matches("m.id = ?", (match,))
        if not found:
            raise UnknownTournament(f"no match {match}")
        return found[0]

    async def _matches(self, where: str, params: tuple) -> list[MatchRow]:
        cols = ", ".join(f"m.{c.strip()}" for c in MATCH_COLUMNS.split(","))
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {cols}, p.seat, p.user_id, p.place, p.score"
            " FROM matches m JOIN match_players p ON p.match = m.id"
            f" WHERE {where} ORDER BY m.round, m.number, p.seat",
            params,
        )
        out: list[MatchRow] = []
        for r in rows:
            player = MatchPlayer(r[9], r[10], r[11], r[12])
            if out and out[-1].id == r[0]:
                last = out[-1]
                out[-1] = MatchRow(*match_fields(last), players=(*last.players, player))
            else:
                out.append(MatchRow(*r[:9], players=(player,)))
        return out


__all__ = [
    "AlreadyEntered",
    "EntrantRow",
    "MatchPlayer",
    "MatchRow",
    "NewTable",
    "NotInSignup",
    "OwedPost",
    "TournamentFull",
    "TournamentRow",
    "TournamentQueries",
    "UnknownTournament",
]
