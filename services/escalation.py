"""The clock's escalation: what a timeout does, given how many the player has had in the game.

A wait that runs out is answered in steps rather than at a cliff: two reminders (the second
one in the last hours says what comes at the deadline), then the bot plays the turn for the
player, and after the server's number of timeouts in one game (``/config timeouts``, 3 by
default, 0: never) the seat is the bot's for good. A tournament may instead have a
timeout lose the game on time: the seat is out of the game at once, last in its result
and rated as a loss. Each timeout is stored once per wait (storage/reliability.py), so a
timeout applied again after a crash does what was decided the first time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.core import Outcome, Seat
from rules.phrases import Phrases
from services.game import Game
from storage import Store
from storage.deadlines import DeadlineRow
from storage.reliability import ReliabilityStore, TimeoutRow

msg = Phrases("core")

# Timeout actions that end the player's part in the game at once.
FOR_GOOD = ("drop", "lose")


@dataclass(frozen=True)
class Escalation:
    """What one timeout does: "no" (a question out of turn answered no), "ai" (the bot plays
    the turn), "drop" (the seat is the bot's for good), "lose" (lost on time); the player's
    counted timeouts in this game, this one included; the server's limit (0: none)."""

    action: str
    count: int = 0
    limit: int = 0

    @property
    def for_good(self) -> bool:
        """Whether the player is out of the game."""
        return self.action in FOR_GOOD


def step_for(timeout_action: str, n: int, limit: int) -> str:
    """What the ``n``-th timeout of a player in a game does under the game's timeout action
    and the server's ``limit`` (0: the bot never takes the seat for good on its own)."""
    if timeout_action in FOR_GOOD:
        return timeout_action
    return "drop" if limit and n >= limit else "ai"


async def escalate(store: Store, g: Game, row: DeadlineRow, *, reaction: bool, now: float) -> Escalation:
    """Record the timeout of ``row``'s wait (once) and say what it does."""
    assert g.state is not None
    # The server's limit matters only when the bot plays for the player.
    limit = (await store.guild_settings(g.row.guild_id)).timeout_limit if g.row.timeout_action == "ai" else 0
    record = TimeoutRow(game=g.id, seat=row.seat, user_id=row.user_id, started_at=row.started_at,
                        at=now, action="no" if reaction else g.row.timeout_action, seq=g.state.version)
    action, count = await ReliabilityStore(store).record_timeout(
        record, lambda n: step_for(g.row.timeout_action, n, limit))
    return Escalation(action, count, limit)


async def undo_escalation(store: Store, row: DeadlineRow) -> None:
    """Forget the timeout of ``row``'s wait (the player's move was committed first)."""
    await ReliabilityStore(store).forget_timeout(row.game, row.seat, row.started_at)


async def timeouts_so_far(store: Store, g: Game, seat: Seat) -> tuple[int, int]:
    """The counted timeouts of ``seat``'s player in ``g``, and the server's limit (0: none)."""
    user = g.seat_row(seat).user_id
    if user is None:
        return 0, 0
    limit = (await store.guild_settings(g.row.guild_id)).timeout_limit
    return await ReliabilityStore(store).timeouts_in_game(g.id, seat, user), limit


def with_losers(outcome: Outcome, lost: Iterable[Seat], seats: int) -> Outcome:
    """``outcome`` with the ``lost`` seats (out on time) last together, the others in the
    order it gave them; a game nobody won stays so."""
    gone = set(lost)
    if not gone or not outcome.ranking:
        return outcome
    ranking = [[s for s in group if s not in gone] for group in outcome.ranking]
    placed = {s for group in outcome.ranking for s in group}
    stayed = [s for s in range(seats) if s not in placed and s not in gone]
    ranking = [g for g in ranking if g] + ([stayed] if stayed else []) + [sorted(gone)]
    return outcome.model_copy(update={"ranking": ranking})


def on_time_outcome(g: Game, lost: Iterable[Seat]) -> Outcome:
    """The result of a game closed because seats lost on time: everyone still in it shares
    first place, the ``lost`` seats are last together."""
    gone = sorted(set(lost))
    stayed = [s.seat for s in g.seats if s.seat not in gone]
    return Outcome(ranking=[stayed, gone] if stayed else [gone],
                   reason=msg("Lost on time."))
