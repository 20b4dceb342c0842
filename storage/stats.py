"""What a server's statistics read: its games with their length and each seat's place."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class StatsGame:
    """One game of a server as its statistics see it."""

    game: int
    game_id: str
    status: str  # 'active', 'finished' or 'abandoned' (lobbies are not games played)
    moves: int
    created_at: float
    finished_at: float | None
    seats: int
    # (seat, user id or None for a bot, name, place: 0 first and ties share, None: no result)
    places: tuple[tuple[int, int | None, str, int | None], ...]
    # seat -> what it played as (a catalogue text's JSON), for finished games that store one
    sides: dict[int, str] = field(default_factory=dict)


class StatsQueries:
    """The store's statistics reads (mixed into Store, which provides _fetchall)."""

    async def server_games(self, guild_id: int, limit: int = 20_000) -> list[StatsGame]:
        """The server's started games, newest first (at most ``limit``), each with its seats
        and, for a finished game with a stored result, each seat's place."""
        games = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id, game_id, status, version, created_at, finished_at FROM games"
            " WHERE guild_id = ? AND status IN ('active', 'finished', 'abandoned')"
            " ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        if not games:
            return []
        oldest = min(r[0] for r in games)
        seats = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT s.game, s.seat, s.user_id, s.name, p.place, p.side FROM seats s"
            " JOIN games g ON g.id = s.game"
            " LEFT JOIN result_places p ON p.game = s.game AND p.seat = s.seat"
            " WHERE g.guild_id = ? AND g.id >= ? AND g.status IN ('active', 'finished', 'abandoned')"
            " ORDER BY s.game, s.seat",
            (guild_id, oldest),
        )
        by_game: dict[int, list[tuple[int, int | None, str, int | None]]] = {}
        sides: dict[int, dict[int, str]] = {}
        for game, seat, user, name, place, side in seats:
            by_game.setdefault(game, []).append((seat, user, name, place))
            if side is not None:
                sides.setdefault(game, {})[seat] = side
        return [
            StatsGame(game=r[0], game_id=r[1], status=r[2], moves=r[3], created_at=r[4],
                      finished_at=r[5], seats=len(by_game.get(r[0], ())),
                      places=tuple(by_game.get(r[0], ())), sides=sides.get(r[0], {}))
            for r in games
        ]
