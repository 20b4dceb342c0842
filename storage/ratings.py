"""Finished games' results and players' ratings in the store.

Every finished game leaves one results row and a place per seat, whether or not it was
rated; ratings (one per server, game and player) and their history are written in the
same transaction, so a crash never leaves a result without its rating change.
Storage knows no rating model: it keeps the numbers the ratings service computed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .errors import StoreError
from .store import Store


class DuplicateResult(StoreError):
    """That game's result is already stored."""


@dataclass(frozen=True)
class PlaceRow:
    """One seat of a finished game: who (None for an AI), the place (None: nobody won), score,
    and what the seat played as (a catalogue text's JSON; None where seats are only an order)."""

    seat: int
    user_id: int | None
    place: int | None
    score: float | None = None
    side: str | None = None


@dataclass(frozen=True)
class ResultRow:
    """A finished game's result."""

    game: int
    guild_id: int | None
    game_id: str
    finished_at: float
    nobody_won: bool
    rated: bool
    places: tuple[PlaceRow, ...]


@dataclass(frozen=True)
class RatingRow:
    """A player's rating for one game on one server."""

    guild_id: int
    game_id: str
    user_id: int
    mu: float
    sigma: float
    conservative: int
    games: int
    updated_at: float


@dataclass(frozen=True)
class RatingChange:
    """One player's rating before and after a game (what the ratings service computed)."""

    user_id: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    conservative: int
    games: int


@dataclass(frozen=True)
class Record:
    """A player's record for one game on one server: games, wins, recent places."""

    games: int
    wins: int
    recent: tuple[tuple[int, int | None, int], ...]  # (game, place, players at the table)


RATING_COLUMNS = "guild_id, game_id, user_id, mu, sigma, conservative, games, updated_at"


class RatingStore:
    """Results and ratings tables of the store, sharing the game store's connection and lock."""

    def __init__(self, store: Store) -> None:
        """Work through an open Store."""
        self._store = store

    async def record_result(
        self,
        *,
        game: int,
        guild_id: int | None,
        game_id: str,
        places: Sequence[PlaceRow],
        changes: Sequence[RatingChange] = (),
        rated: bool = True,
        finished_at: float | None = None,
    ) -> ResultRow:
        """Store a finished game's result and its rating changes in one transaction.

        `rated` False keeps the game out of ratings for good (an unrated tournament's game),
        even when they are recomputed. DuplicateResult if the game's result is already
        stored (each game counts once).
        """
        at = time.time() if finished_at is None else finished_at
        nobody = bool(places) and all(p.place is None for p in places)
        rated = rated and guild_id is not None
        if changes and not rated:
            raise ValueError("rating changes for a game that is not rated")
        async with self._store._write() as db:
            seen = await db.execute_fetchall("SELECT 1 FROM results WHERE game = ?", (game,))
            if list(seen):
                raise DuplicateResult(f"game {game} already has a result")
            await db.execute(
                "INSERT INTO results (game, guild_id, game_id, finished_at, nobody_won, rated)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game, guild_id, game_id, at, nobody, rated),
            )
            await db.executemany(
                "INSERT INTO result_places (game, seat, user_id, place, score, side)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game, p.seat, p.user_id, p.place, p.score, p.side) for p in places],
            )
            await self._apply(db, game, guild_id, game_id, changes, at)
        return ResultRow(game, guild_id, game_id, at, nobody, rated, tuple(places))

    @staticmethod
    async def _apply(
        db, game, guild_id, game_id, changes: Sequence[RatingChange], at: float
    ) -> None:
        if not changes:
            return
        await db.executemany(
            "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, conservative, games,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, game_id, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, conservative = excluded.conservative,"
            " games = excluded.games, updated_at = excluded.updated_at",
            [
                (guild_id, game_id, c.user_id, c.mu, c.sigma, c.conservative, c.games, at)
                for c in changes
            ],
        )
        await db.executemany(
            "INSERT INTO rating_history (game, user_id, mu_before, sigma_before, mu, sigma)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(game, c.user_id, c.mu_before, c.sigma_before, c.mu, c.sigma) for c in changes],
        )

    async def ratings_of(
        self, guild_id: int, game_id: str, users: Sequence[int]
    ) -> dict[int, RatingRow]:
        """The stored ratings of those players (absent: never rated)."""
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        rows = await self._store._fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings"
            f" WHERE guild_id = ? AND game_id = ? AND user_id IN ({marks})",
            (guild_id, game_id, *users),
        )
        return {r[2]: RatingRow(*r[:5], r[5], r[6], r[7]) for r in rows}

    async def player_ratings(self, guild_id: int, user_id: int) -> list[RatingRow]:
        """A player's ratings on a server, one per game, best first."""
        rows = await self._store._fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND user_id = ?"
            " ORDER BY conservative DESC, game_id",
            (guild_id, user_id),
        )
        return [RatingRow(*r) for r in rows]

    async def player_servers(self, user_id: int, limit: int = 10) -> list[int]:
        """The servers where a player has a finished game, most recent first."""
        rows = await self._store._fetchall(
            "SELECT r.guild_id, max(r.finished_at) AS last FROM results r"
            " JOIN result_places p ON p.game = r.game"
            " WHERE p.user_id = ? AND r.guild_id IS NOT NULL"
            " GROUP BY r.guild_id ORDER BY last DESC, r.guild_id LIMIT ?",
            (user_id, limit),
        )
        return [r[0] for r in rows]

    async def leaderboard(
        self, guild_id: int, game_id: str, *, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        """The server's best conservative estimates for a game (ties: more games, then id)."""
        rows = await self._store._fetchall(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND game_id = ?"
            " ORDER BY conservative DESC, games DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game_id, limit, offset),
        )
        return [RatingRow(*r) for r in rows]

    async def record(self, guild_id: int, game_id: str, user_id: int, *, recent: int = 5) -> Record:
        """A player's record: games finished, wins (alone in first place), latest results."""
        rows = await self._store._fetchall(
            "SELECT r.game, p.place,"
            " (SELECT count(*) FROM result_places q WHERE q.game = r.game),"
            " (SELECT count(*) FROM result_places q WHERE q.game = r.game AND q.place = 0)"
            " FROM results r JOIN result_places p ON p.game = r.game"
            " WHERE r.guild_id = ? AND r.game_id = ? AND p.user_id = ?"
            " ORDER BY r.finished_at DESC, r.game DESC",
            (guild_id, game_id, user_id),
        )
        wins = sum(1 for r in rows if r[1] == 0 and r[3] == 1)
        return Record(len(rows), wins, tuple((r[0], r[1], r[2]) for r in rows[:recent]))

    async def unrecorded_games(self) -> list[int]:
        """Finished games whose result was never stored (a crash came first), oldest first."""
        rows = await self._store._fetchall(
            "SELECT g.id FROM games g WHERE g.status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game = g.id)"
            " ORDER BY g.finished_at, g.id"
        )
        return [r[0] for r in rows]

    async def results(self, guild_id: int) -> list[ResultRow]:
        """A server's results in the order they finished (for recomputing its ratings)."""
        rows = await self._store._fetchall(
            "SELECT r.game, r.guild_id, r.game_id, r.finished_at, r.nobody_won, r.rated,"
            " p.seat, p.user_id, p.place, p.score"
            " FROM results r JOIN result_places p ON p.game = r.game"
            " WHERE r.guild_id = ? ORDER BY r.finished_at, r.game, p.seat",
            (guild_id,),
        )
        return list(_group_results(rows))

    async def replace_ratings(
        self,
        guild_id: int,
        changes: Sequence[tuple[int, str, float, Sequence[RatingChange]]],
    ) -> None:
        """Rewrite every rating of a server from recomputed changes, in one transaction.

        `changes` holds (game, game id, finished at, that game's rating changes) in order.
        """
        async with self._store._write() as db:
            await db.execute(
                "DELETE FROM rating_history WHERE game IN (SELECT game FROM results WHERE guild_id = ?)",
                (guild_id,),
            )
            await db.execute("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
            final: dict[tuple[str, int], tuple[RatingChange, float]] = {}
            history = []
            for game, game_id, at, cs in changes:
                for c in cs:
                    final[(game_id, c.user_id)] = (c, at)
                    history.append((game, c.user_id, c.mu_before, c.sigma_before, c.mu, c.sigma))
            await db.executemany(
                "INSERT INTO rating_history (game, user_id, mu_before, sigma_before, mu, sigma)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                history,
            )
            await db.executemany(
                "INSERT INTO ratings (guild_id, game_id, user_id, mu, sigma, conservative, games,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (guild_id, gid, user, c.mu, c.sigma, c.conservative, c.games, at)
                    for (gid, user), (c, at) in final.items()
                ],
            )


def _group_results(rows: Sequence[Sequence]) -> Iterator[ResultRow]:
    """Fold joined result/place rows (ordered by game) into ResultRows."""
    cur: list = []
    places: list[PlaceRow] = []
    for r in rows:
        if cur and cur[0] != r[0]:
            yield ResultRow(*cur, places=tuple(places))
            places = []
        cur = [r[0], r[1], r[2], r[3], bool(r[4]), bool(r[5])]
        places.append(PlaceRow(r[6], r[7], r[8], r[9]))
    if cur:
        yield ResultRow(*cur, places=tuple(places))
