"""Player ratings: OpenSkill's Plackett-Luce model, one rating per game and per server.

A rating is a belief about skill: mu (the estimate) and sigma (how unsure it is). The
number players see is the conservative estimate mu - 3*sigma, rounded to a whole number:
it starts at 0 and climbs as a player both wins and plays enough for the system to be
sure. The model runs on OpenSkill's default scale multiplied by 60 (mu 1500, sigma 500)
so that the shown numbers are whole numbers with room to move.

What is rated:
- A finished game whose seats are all humans, at least two different players. A game
  with an AI seat is not rated at all (not even the humans at it), nor is a game outside
  a server.
- Places come from the outcome's ranking groups; players in one group tie and share
  their places. Seats missing from the ranking are placed last together.
- A game nobody wins (an empty ranking: in Rattus Cartus the plague can kill everyone)
  is not rated: it says nothing about who played better than whom. It still counts in
  each player's record as a game played without a win.

Ratings are a pure function of the stored results in order of finishing, so every
rating of a server can be recomputed from them (after a bug fix, or a result changed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

PlayerId = int

SCALE = 60.0
MU = 25.0 * SCALE
SIGMA = 25.0 / 3 * SCALE
# OpenSkill's defaults for beta and tau are fixed numbers on its own scale, not derived
# from mu and sigma: scale them too, or the model would barely move.
BETA = SIGMA / 2
TAU = MU / 300

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True)
class Rating:
    """One player's rating for one game on one server."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def conservative(self) -> int:
        """The number shown to players: mu - 3 sigma, as a whole number."""
        return round(self.mu - 3 * self.sigma)


@dataclass(frozen=True)
class RatedSeat:
    """Who sat at one seat: a user id (None for an AI seat) and whether it is an AI."""

    user_id: PlayerId | None
    ai: bool = False


def ranks_for(seats: Sequence[RatedSeat], ranking: Sequence[Sequence[int]]) -> list[int] | None:
    """Each seat's rank (1 = first, ties equal) if the game is rated, else None."""
    if not ranking:
        return None  # nobody won: see the module docstring
    if any(s.ai or s.user_id is None for s in seats):
        return None
    users = [s.user_id for s in seats]
    if len(set(users)) != len(users) or len(users) < 2:
        return None
    rank = {}
    for i, group in enumerate(ranking, start=1):
        for seat in group:
            rank[seat] = i
    last = len(ranking) + 1
    return [rank.get(i, last) for i in range(len(seats))]


def rate(
    current: Mapping[PlayerId, Rating],
    seats: Sequence[RatedSeat],
    ranking: Sequence[Sequence[int]],
) -> dict[PlayerId, Rating] | None:
    """The new ratings of a finished game's players, or None if the game is not rated."""
    ranks = ranks_for(seats, ranking)
    if ranks is None:
        return None
    users = [s.user_id for s in seats]
    before = [current.get(u) or Rating() for u in users]  # type: ignore[arg-type]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = MODEL.rate(teams, ranks=ranks)
    return {
        u: Rating(team[0].mu, team[0].sigma, r.games + 1)
        for u, team, r in zip(users, after, before, strict=True)  # type: ignore[misc]
    }


@dataclass(frozen=True)
class FinishedGame:
    """A stored finished game as ratings need it: which game, who sat where, the ranking."""

    game_id: str
    seats: tuple[RatedSeat, ...]
    ranking: tuple[tuple[int, ...], ...]


def recompute(games: Iterable[FinishedGame]) -> dict[tuple[str, PlayerId], Rating]:
    """Every rating of one server from its finished games, given in the order they ended."""
    ratings: dict[tuple[str, PlayerId], Rating] = {}
    by_game: dict[str, dict[PlayerId, Rating]] = {}
    for g in games:
        table = by_game.setdefault(g.game_id, {})
        new = rate(table, g.seats, g.ranking)
        if new:
            table.update(new)
    for game_id, table in by_game.items():
        for user, r in table.items():
            ratings[(game_id, user)] = r
    return ratings
