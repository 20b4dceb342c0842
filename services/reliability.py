"""A player's reliability record, computed from stored seats, timeouts and action logs, and
the minimum a tournament may ask of the players who sign up.

- games finished: games that ended by their rules with the player still in their seat;
- games lost on time: games whose seat the clock took from them for good (the bot's after
  the server's number of timeouts, or lost on time in a tournament);
- timeouts: every time the clock ran out on them (a question asked out of turn that ran
  out is not counted: letting it pass is a way of answering it);
- turns: the turns they had (the ones they played, and the ones that ran out), what the
  share of timeouts is counted against;
- median time to move: from the previous move by someone else (the moment the turn passed
  to them) to their first move of the turn, over their latest ``RECENT_GAMES`` games; the
  moves the bot made in their seat (at a timeout, or once the seat was the bot's) do not
  count.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.phrases import Phrases
from services.tournament_base import TournamentRefusal
from storage import Store
from storage.reliability import COUNTED, LogEntry, ReliabilityStore, SeatHistory, TimeoutRow
from storage.tournaments import TournamentRow

msg = Phrases("core")

# The games whose logs the median time to move is read from (newest first): enough to say
# how a player plays now, few enough that /rating me reads a bounded log.
RECENT_GAMES = 100


@dataclass(frozen=True)
class Reliability:
    """What a player's record says about them turning up."""

    finished: int = 0
    lost_on_time: int = 0
    timeouts: int = 0
    turns: int = 0  # in the games whose logs were read
    late: int = 0  # of those turns, the ones that ran out
    median_move: float | None = None  # seconds; None: no move measured yet

    @property
    def timeout_pct(self) -> float:
        """Timeouts as a share of the turns they had, in percent (0 with no turns)."""
        return 100.0 * self.late / self.turns if self.turns else 0.0


@dataclass(frozen=True)
class Requirements:
    """What a tournament asks of a player signing up (None: nothing of that kind)."""

    min_finished: int | None = None
    max_timeout_pct: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, object] | None) -> Requirements:
        """Read back what the tournament stored (absent keys ask nothing)."""
        data = data or {}
        return cls(_int(data.get("min_finished")), _int(data.get("max_timeout_pct")))

    def to_json(self) -> dict[str, int] | None:
        """What the tournament stores; None when it asks nothing."""
        out = {k: v for k, v in (("min_finished", self.min_finished),
                                  ("max_timeout_pct", self.max_timeout_pct)) if v is not None}
        return out or None

    def unmet(self, record: Reliability) -> list[str]:
        """Which requirements ``record`` falls short of: "min_finished", "max_timeout_pct"."""
        out = []
        if self.min_finished is not None and record.finished < self.min_finished:
            out.append("min_finished")
        if self.max_timeout_pct is not None and record.timeout_pct > self.max_timeout_pct:
            out.append("max_timeout_pct")
        return out


def _int(value: object) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def compute(seats: Sequence[SeatHistory], timeouts: Iterable[TimeoutRow],
            logs: Iterable[LogEntry], read: Iterable[int] | None = None) -> Reliability:
    """The record from a player's seats, their timeouts and the logs of ``read`` (some of
    their games; by default those ``logs`` hold)."""
    timeouts = list(timeouts)
    mine = {s.game: s for s in seats}
    counted = [t for t in timeouts if t.action in COUNTED and t.game in mine]
    by_game: dict[int, list[LogEntry]] = {}
    for entry in logs:
        if entry.game in mine:
            by_game.setdefault(entry.game, []).append(entry)
    bot_from: dict[int, list[TimeoutRow]] = {}
    for t in timeouts:
        if t.game in mine:
            bot_from.setdefault(t.game, []).append(t)
    samples: list[float] = []
    played = 0
    for game, entries in by_game.items():
        got, turns = _moves(mine[game].seat, sorted(entries, key=lambda e: e.seq),
                            sorted(bot_from.get(game, []), key=lambda t: t.seq))
        samples.extend(got)
        played += turns
    # The share of timeouts is counted over the games whose logs were read, on both sides.
    seen = set(by_game) if read is None else set(read)
    late = sum(1 for t in counted if t.game in seen)
    return Reliability(
        finished=sum(1 for s in seats if s.status == "finished" and not s.dropped),
        lost_on_time=sum(1 for s in seats if s.dropped),
        timeouts=len(counted),
        turns=played + late,
        late=late,
        median_move=statistics.median(samples) if samples else None,
    )


def _moves(seat: int, log: Sequence[LogEntry], timeouts: Sequence[TimeoutRow]) -> tuple[list[float], int]:
    """The player's times to move in one game, and the turns they played themselves."""
    samples: list[float] = []
    turns = 0
    last_other: float | None = None
    in_turn = False
    pending = list(timeouts)
    gone = False  # the seat is the bot's for good
    for entry in log:
        if entry.seat != seat:
            last_other, in_turn = entry.at, False
            continue
        if in_turn:
            continue  # a later step of the same turn
        in_turn = True
        # A timeout fired just before this move: the turn is the bot's.
        bot_turn = False
        while pending and pending[0].seq < entry.seq:
            fired = pending.pop(0)
            bot_turn = True
            gone = gone or fired.action in ("drop", "lose")
        if bot_turn or gone:
            continue
        turns += 1
        if last_other is not None:
            samples.append(max(0.0, entry.at - last_other))
    return samples, turns


async def reliability_of(store: Store, user_id: int, guild_id: int | None) -> Reliability:
    """``user_id``'s record on ``guild_id`` (or on every server when None)."""
    rs = ReliabilityStore(store)
    seats = await rs.seats_of(user_id, guild_id)
    timeouts = await rs.timeouts_of(user_id, guild_id)
    read = [s.game for s in seats[:RECENT_GAMES]]
    return compute(seats, timeouts, await rs.logs(read), read)


async def check_requirements(store: Store, t: TournamentRow, user_id: int) -> None:
    """Refuse ``user_id``'s sign-up, saying what is missing in their language, when their
    record on the tournament's server falls short of what it asks."""
    asks = Requirements.from_json(t.requirements)
    record = await reliability_of(store, user_id, t.guild_id)
    reasons = []
    for unmet in asks.unmet(record):
        if unmet == "min_finished":
            reasons.append(msg.n(asks.min_finished or 0,
                                 "This tournament asks for at least {n} finished game on this server;"
                                 " you have {have}.",
                                 "This tournament asks for at least {n} finished games on this server;"
                                 " you have {have}.", have=record.finished))
        else:
            reasons.append(msg("This tournament asks that at most {most}% of your turns ran out of"
                               " time; yours: {have}% ({timeouts} of {turns}).",
                               most=asks.max_timeout_pct, have=f"{record.timeout_pct:.0f}",
                               timeouts=record.late, turns=record.turns))
    if len(reasons) == 2:
        raise TournamentRefusal(msg("{first} {second}", first=reasons[0], second=reasons[1]))
    if reasons:
        raise TournamentRefusal(reasons[0])
