"""Cards held while their mover's part goes on: a step made in a player's private panel,
whose panel already shows the table as the step left it and their next step, edits the
public card only once their part ends (the next change shows it), or after CARD_HELD_FOR
seconds without another change. One edit for a turn of several steps instead of one each.

The step's outbox message stays owed while its card waits: a restart delivers it again,
which shows the card, so a crash never leaves a card behind its game for good."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from cogs.common.card import EMBED_TOTAL
from cogs.common.present import Rendered
from rules.core import Seat
from services.session import MoveResult

log = logging.getLogger("tablero.board")

# How long a held card waits for its mover's next step before it is shown anyway (a player
# who leaves their turn half made must not leave the table showing it as it was before).
CARD_HELD_FOR = 30.0


def holds_card(result: MoveResult, seat: Seat) -> bool:
    """Whether ``result``, a step of ``seat`` made away from the card, leaves the card to wait:
    every step was that seat's own (no bot answered), the game goes on and waits on that
    seat still, and nobody else was newly asked to act (that passes the turn, or asks a
    reaction, and the channel must hear of it). Only where the card carries no menu bound
    to the game's move number: the seat alone is asked, and its moves are private (the card
    shows the Play button, which a card left behind still opens right)."""
    g = result.game
    if g.status != "active" or g.state is None or result.before is None or result.finished:
        return False
    if not result.steps or any(step.ai or step.seat != seat for step in result.steps):
        return False
    return set(g.pending()) == {seat} and set(result.newly_pending()) <= {seat} and bool(g.secrets(seat))


def fits_beside(table: Rendered, hand: Rendered | None) -> bool:
    """Whether the table's preview fits in one message beside the hand's view: Discord takes
    6000 characters of embeds a message in all (the card is edited as usual otherwise)."""
    return len(table.embed) + (len(hand.embed) if hand is not None else 0) <= EMBED_TOTAL


class HeldCards:
    """The outbox messages of each game whose card waits, and the timer that shows it."""

    def __init__(self, show: Callable[[int], Awaitable[object]],
                 done: Callable[[int, int], Awaitable[None]]) -> None:
        self._show = show  # shows a game's card as it is now
        self._done = done  # marks an outbox message (row, change) delivered
        self._rows: dict[int, list[tuple[int, int]]] = {}  # game -> (row, change) held
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Future[object]] = set()
        # game -> the newest version a showing of its card read: a step delivered after a
        # later move's showing (its player went on from the panel at once) is shown already
        self._seen: dict[int, int] = {}

    def seen(self, game: int, version: int) -> None:
        """Note that a showing of ``game``'s card read it at ``version``."""
        if version > self._seen.get(game, -1):
            self._seen[game] = version

    def hold(self, game: int, row: int, change: int, version: int) -> bool:
        """Hold outbox message ``row`` (of ``change``, which left ``game`` at ``version``)
        until the card is next shown, and show it after CARD_HELD_FOR seconds if nothing else
        does first; False (nothing held) when a showing already read that version or a later one."""
        if self._seen.get(game, -1) >= version:
            return False
        self._rows.setdefault(game, []).append((row, change))
        timer = self._timers.pop(game, None)
        if timer is not None:
            timer.cancel()
        self._timers[game] = asyncio.get_running_loop().call_later(CARD_HELD_FOR, self._due, game)
        return True

    def waiting(self, game: int) -> bool:
        """Whether ``game``'s card waits for a held step."""
        return game in self._rows

    def take(self, game: int) -> list[tuple[int, int]]:
        """The messages a showing of ``game``'s card about to be made covers (its timer stops)."""
        timer = self._timers.pop(game, None)
        if timer is not None:
            timer.cancel()
        return self._rows.pop(game, [])

    async def release(self, covered: list[tuple[int, int]]) -> None:
        """Mark the messages a showing covered delivered."""
        for row, change in covered:
            try:
                await self._done(row, change)
            except Exception:
                # the store closing under a stop: the next start delivers it again (a showing)
                log.info("held card message %s of change %s left owed", row, change, exc_info=True)

    def _due(self, game: int) -> None:
        self._timers.pop(game, None)
        if game not in self._rows:
            return
        task = asyncio.ensure_future(self._show(game))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        """Stop the timers (a stop: the held messages stay owed, and the next start shows them)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in self._tasks:
            task.cancel()
