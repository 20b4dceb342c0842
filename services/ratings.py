"""Player ratings: OpenSkill's Plackett-Luce model, one rating per game and per server.

A rating is a belief about skill: mu (the estimate) and sigma (how unsure it is). The
number players see is the conservative estimate mu - 3*sigma on a display scale that
starts every newcomer at 1000 (``shown``): it climbs as a player both wins and plays
enough for the system to be sure, and dips below 1000 after losses, never below 1. The model runs on OpenSkill's default scale multiplied by 60 (mu 1500, sigma 500)
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

from rules.core import Outcome
from storage.ratings import PlaceRow, RatingChange, RatingStore, ResultRow

PlayerId = int

SCALE = 60.0
MU = 25.0 * SCALE
SIGMA = 25.0 / 3 * SCALE
# OpenSkill's defaults for beta and tau are fixed numbers on its own scale, not derived
# from mu and sigma: scale them too, or the model would barely move.
BETA = SIGMA / 2
TAU = MU / 300

MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# Where every newcomer's shown rating starts (their conservative estimate is 0).
DISPLAY_START = 1000


def shown_rating(conservative: int) -> int:
    """The rating players read for a conservative estimate (see Rating.shown)."""
    return max(1, DISPLAY_START + conservative)


@dataclass(frozen=True)
class Rating:
    """One player's rating for one game on one server."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def conservative(self) -> int:
        """mu - 3 sigma, as a whole number: 0 for a newcomer (pairings and order use it)."""
        return round(self.mu - 3 * self.sigma)

    @property
    def shown(self) -> int:
        """The number players read: the conservative estimate from a start of 1000 for every
        newcomer, and never below 1 (a raw "-316" reads as a fault, not as a rating)."""
        return shown_rating(self.conservative)


@dataclass(frozen=True)
class RatedSeat:
    """Who sat at one seat: a user id (None for an AI seat), whether it is an AI, and what it
    played as (``Engine.sides``' text as JSON, for statistics)."""

    user_id: PlayerId | None
    ai: bool = False
    side: str | None = None


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


def changes(
    current: Mapping[PlayerId, Rating],
    seats: Sequence[RatedSeat],
    ranking: Sequence[Sequence[int]],
) -> list[RatingChange]:
    """The rating changes a finished game brings, as the store keeps them (empty: unrated)."""
    new = rate(current, seats, ranking)
    if not new:
        return []
    out = []
    for user, r in new.items():
        old = current.get(user) or Rating()
        out.append(RatingChange(user, old.mu, old.sigma, r.mu, r.sigma, r.conservative, r.games))
    return out


def replay(results: Iterable[ResultRow]) -> list[tuple[int, str, float, list[RatingChange]]]:
    """Every rated game's rating changes, replaying a server's results in finishing order."""
    tables: dict[str, dict[PlayerId, Rating]] = {}
    out: list[tuple[int, str, float, list[RatingChange]]] = []
    for res in results:
        if res.guild_id is None or not res.rated:
            continue
        seats, ranking = seats_and_ranking(res.places)
        table = tables.setdefault(res.game_id, {})
        cs = changes(table, seats, ranking)
        if cs:
            for c in cs:
                table[c.user_id] = Rating(c.mu, c.sigma, c.games)
            out.append((res.game, res.game_id, res.finished_at, cs))
    return out


def seats_and_ranking(
    places: Sequence[PlaceRow],
) -> tuple[list[RatedSeat], list[list[int]]]:
    """Seats and ranking groups back from stored places (an AI seat has no user id)."""
    ordered = sorted(places, key=lambda p: p.seat)
    seats = [RatedSeat(p.user_id, p.user_id is None) for p in ordered]
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(ordered):
        if p.place is not None:
            groups.setdefault(p.place, []).append(i)
    return seats, [groups[k] for k in sorted(groups)]


def places_of(num_seats: int, outcome: Outcome) -> list[int | None]:
    """Each seat's place (0 = first, ties share) from an outcome; None for all if nobody won."""
    if not outcome.ranking:
        return [None] * num_seats
    place: dict[int, int] = {}
    at = 0
    for group in outcome.ranking:
        for s in group:
            place[s] = at
        at += len(group)
    return [place.get(s, at) for s in range(num_seats)]


async def record_finished_game(
    store: RatingStore,
    *,
    game: int,
    guild_id: int | None,
    game_id: str,
    seats: Sequence[RatedSeat],
    outcome: Outcome,
    rated: bool = True,
) -> list[RatingChange]:
    """Store a finished game's result and, when it is rated, its players' new ratings.

    `rated` False (a tournament played unrated, say) stores the result alone.
    """
    places = places_of(len(seats), outcome)
    rows = [
        PlaceRow(i, s.user_id if not s.ai else None, places[i], outcome.scores.get(i), s.side)
        for i, s in enumerate(seats)
    ]
    cs: list[RatingChange] = []
    if rated and guild_id is not None:
        users = [s.user_id for s in seats if s.user_id is not None and not s.ai]
        stored = await store.ratings_of(guild_id, game_id, users)
        current = {u: Rating(r.mu, r.sigma, r.games) for u, r in stored.items()}
        cs = changes(current, seats, outcome.ranking)
    await store.record_result(
        game=game, guild_id=guild_id, game_id=game_id, places=rows, changes=cs, rated=rated
    )
    return cs


async def recompute_server(store: RatingStore, guild_id: int) -> int:
    """Recompute every rating of a server from its stored results; returns the games rated."""
    results = await store.results(guild_id)
    replayed = replay(results)
    await store.replace_ratings(guild_id, replayed)
    return len(replayed)
