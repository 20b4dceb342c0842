"""Tournament rows as the store reads them: the event, its entrants, tables and their
players, the posts a change owes; the store's refusals about them; the SQL column lists."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import StaleVersion, StoreError

FORMATS = ("swiss", "round_robin", "single_elim", "double_elim")
TOURNAMENT_STATUSES = ("signup", "running", "finished", "cancelled")
RESULT_KINDS = ("game", "abandoned", "awarded", "bye", "nobody")

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, game_id, options, format, rounds, "
    "table_size, clock, signup_deadline, cap, check_in, seeding, rated, status, "
    "current_round, seed, locale, standings_message_id, created_at, updated_at, requirements"
)
ENTRANT_COLUMNS = "tournament, user_id, name, seed, checked_in, dropped, dropped_round, joined_at"
MATCH_COLUMNS = "id, tournament, round, number, bracket, game, status, result, finished_at"


class UnknownTournament(StoreError, LookupError):
    """No tournament (or no such match) has that id."""


class NotInSignup(StaleVersion):
    """The tournament has left sign-up (started, finished or cancelled)."""


class AlreadyEntered(StoreError):
    """That user has already signed up."""


class TournamentFull(StoreError):
    """The tournament has reached its cap."""


@dataclass(frozen=True)
class TournamentRow:
    """One tournament: its settings, lifecycle status and current round."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game_id: str
    options: dict
    format: str
    rounds: int | None
    table_size: int
    clock: dict | None
    signup_deadline: float | None
    cap: int | None
    check_in: bool
    seeding: str
    rated: bool
    status: str
    current_round: int
    seed: int
    locale: str
    standings_message_id: int | None
    created_at: float
    updated_at: float
    # What a player must show to sign up (services/reliability.py Requirements); None: nothing.
    requirements: dict | None = None


@dataclass(frozen=True)
class EntrantRow:
    """One entrant: seed (1 = top, None before the start), check-in and drop."""

    tournament: int
    user_id: int
    name: str
    seed: int | None
    checked_in: bool
    dropped: bool
    dropped_round: int | None
    joined_at: float


@dataclass(frozen=True)
class MatchPlayer:
    """A player at a table: seat order, and place and score once finished."""

    seat: int
    user_id: int
    place: int | None
    score: float | None


@dataclass(frozen=True)
class MatchRow:
    """One table of a round (a bye is a finished table of one), with its players."""

    id: int
    tournament: int
    round: int
    number: int
    bracket: str | None
    game: int | None
    status: str  # 'pending' | 'playing' | 'finished'
    result: str | None
    finished_at: float | None
    players: tuple[MatchPlayer, ...]

    @property
    def user_ids(self) -> tuple[int, ...]:
        """The players' user ids in seat order."""
        return tuple(p.user_id for p in self.players)


def tournament_from_sql(r: Sequence) -> TournamentRow:
    """A tournaments row as read (JSON columns decoded)."""
    return TournamentRow(
        id=r[0],
        guild_id=r[1],
        channel_id=r[2],
        organiser_id=r[3],
        name=r[4],
        game_id=r[5],
        options=json.loads(r[6]),
        format=r[7],
        rounds=r[8],
        table_size=r[9],
        clock=json.loads(r[10]) if r[10] is not None else None,
        signup_deadline=r[11],
        cap=r[12],
        check_in=bool(r[13]),
        seeding=r[14],
        rated=bool(r[15]),
        status=r[16],
        current_round=r[17],
        seed=r[18],
        locale=r[19],
        standings_message_id=r[20],
        created_at=r[21],
        updated_at=r[22],
        requirements=json.loads(r[23]) if r[23] is not None else None,
    )


def entrant_from_sql(r: Sequence) -> EntrantRow:
    """An entrants row as read."""
    return EntrantRow(
        tournament=r[0],
        user_id=r[1],
        name=r[2],
        seed=r[3],
        checked_in=bool(r[4]),
        dropped=bool(r[5]),
        dropped_round=r[6],
        joined_at=r[7],
    )


def to_json(x: object) -> str:
    """JSON as the tournament tables keep it: compact, non-ASCII kept as is."""
    return json.dumps(x, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class OwedPost:
    """A post a tournament's committed change owes its channel (table tournament_owed)."""

    id: int
    tournament: int
    kind: str  # 'result', 'round', 'replayed', 'podium', 'cancelled'
    payload: dict
    created_at: float


@dataclass(frozen=True)
class NewTable:
    """A table to open: players in seat order and, for eliminations, the bracket key."""

    players: tuple[int, ...]
    bracket: str | None = None


def match_fields(m: MatchRow) -> tuple:
    """A match's own columns in order (its players apart), to rebuild it with more players."""
    return (
        m.id,
        m.tournament,
        m.round,
        m.number,
        m.bracket,
        m.game,
        m.status,
        m.result,
        m.finished_at,
    )
