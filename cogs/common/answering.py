"""Answering a move's interaction with its outcome, or acknowledging it in time.

A move made with a component is answered by what it did (the private panel's next step,
the card updated, the turn's message as the new card) when that is ready within a small
budget after Discord made the interaction; otherwise it is acknowledged when the budget
runs out (a deferred update of the message it was on), and the outcome follows through
the interaction's webhook or the bot's own requests. So no interaction is ever late, and
most moves cost one response instead of an acknowledgement and a second request.

Whoever gives the first response (the outcome, the budget's acknowledgement, a refusal)
does it through ``respond`` (or holding ``lock``), so two never race for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import discord

from cogs.common import loop_lag
from cogs.common.patience import since_received, token_alive

log = logging.getLogger("tablero.answering")

# Seconds after Discord made a move's interaction within which its outcome may be its answer;
# past them it is acknowledged (Discord allows 3 s; the acknowledgement must come well before).
ANSWER_WITHIN = float(os.environ.get("TABLERO_ANSWER_WITHIN", "0.08"))
# The same for a move, whose outcome needs its commit (and the card its picture): answered so,
# a move costs one response where an acknowledgement costs a second request; 0 acknowledges
# every move at once (see docs/performance.md).
MOVE_ANSWER_WITHIN = float(os.environ.get("TABLERO_MOVE_ANSWER_WITHIN", "0.15"))
# A loop that woke this late lately (seconds) is saturated: its outcomes are rarely ready in the
# budget, and the acknowledgement that ends the wait would fire late too; a move is then
# acknowledged at once.
MOVE_LAG_LIMIT = float(os.environ.get("TABLERO_MOVE_LAG_LIMIT", "0.1"))
# Moves being committed at once past which the bot is saturated the same way: each waits
# behind the others, so none is ready in time. (Not counted while their outcomes are
# delivered: a delivery waits for the bot's global pace, which an answer does not.)
MOVES_IN_FLIGHT_LIMIT = int(os.environ.get("TABLERO_MOVES_IN_FLIGHT_LIMIT", "8"))
_in_flight = 0
_LOCK = "tablero.answer_lock"
_TIMER = "tablero.answer_timer"


def move_budget() -> float:
    """The answer's budget of a move (MOVE_ANSWER_WITHIN, read when asked): none while many
    moves are being committed (``moving``), or the event loop wakes late (``loop_lag.GAUGE``)."""
    if _in_flight >= MOVES_IN_FLIGHT_LIMIT or loop_lag.GAUGE.worst() >= MOVE_LAG_LIMIT:
        return 0.0
    return MOVE_ANSWER_WITHIN


@contextlib.contextmanager
def moving() -> Iterator[None]:
    """Count a move as being committed while the block runs (see move_budget)."""
    global _in_flight
    _in_flight += 1
    try:
        yield
    finally:
        _in_flight -= 1


# The responses after which a component's interaction may still send a new public message
# through its webhook (a followup): its message acknowledged, or updated with the outcome.
_UPDATES = (discord.InteractionResponseType.deferred_message_update,
            discord.InteractionResponseType.message_update)


def followup_open(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` was answered as an update of its message (acknowledged, or
    updated with the outcome) and may still send a followup: the turn's message or a new
    card then goes through its webhook, outside the bot's global rate limit."""
    return interaction.response.type in _UPDATES and token_alive(interaction)


def lock(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock held by whoever gives ``interaction``'s first response."""
    found = interaction.extras.get(_LOCK)
    if found is None:
        found = interaction.extras[_LOCK] = asyncio.Lock()
    return found


async def respond(interaction: discord.Interaction, make: Callable[[], Awaitable[Any]]) -> bool:
    """Give ``interaction``'s first response by ``make()`` unless one was given (or is being
    given); False then, and ``make`` is not called."""
    if interaction.response.is_done():
        return False
    async with lock(interaction):
        if interaction.response.is_done():
            return False
        await make()
        return True


def answer_deadline(interaction: discord.Interaction, within: float) -> float:
    """How many seconds from now the outcome may still be ``interaction``'s answer: counted
    from when Discord made it (its id's time), and never later than ``within`` after the bot
    received it (should the bot's clock lag Discord's)."""
    made = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return max(0.0, within - max(made, since_received(interaction)))


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge ``interaction`` now unless it was answered: a component's as a deferred
    update of its message (edited through the interaction afterwards), a command's with a
    "thinking…" only the mover sees."""
    from cogs.common.errors import PUBLIC_PLACEHOLDER

    async def defer() -> None:
        if interaction.message is not None:
            await interaction.response.defer()
        else:
            interaction.extras[PUBLIC_PLACEHOLDER] = False
            await interaction.response.defer(ephemeral=True, thinking=True)

    try:
        await respond(interaction, defer)
    except discord.HTTPException:
        # Discord gave up on it (the bot was too busy to read it in time): the move goes on.
        log.info("interaction %s expired before it was acknowledged", interaction.id)


def timed(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` is acknowledged by ``answer_by``'s budget if not answered."""
    return _TIMER in interaction.extras


async def answer_by(interaction: discord.Interaction, within: float | None = None) -> None:
    """Let ``interaction`` be answered by its outcome for ``within`` seconds (default
    ANSWER_WITHIN) from when Discord made it; then acknowledge it, unless it was answered
    meanwhile."""
    if interaction.response.is_done() or _TIMER in interaction.extras:
        return
    wait = answer_deadline(interaction, ANSWER_WITHIN if within is None else within)
    if wait <= 0:  # no time left (or none given): acknowledged now
        await acknowledge(interaction)
        return

    async def later() -> None:
        await asyncio.sleep(wait)
        await acknowledge(interaction)

    interaction.extras[_TIMER] = asyncio.ensure_future(later())


# Where a step's answer showed the mover's hand (the private panel's next step): its seat.
_HAND_SHOWN = "tablero.hand_shown"


def mark_hand_shown(interaction: discord.Interaction, seat: int) -> None:
    """Note that ``interaction``'s answer showed ``seat``'s hand as the step left it."""
    interaction.extras[_HAND_SHOWN] = seat


def hand_shown(interaction: discord.Interaction | None) -> int | None:
    """The seat whose hand ``interaction``'s answer showed, if any (see mark_hand_shown)."""
    return interaction.extras.get(_HAND_SHOWN) if interaction is not None else None


# Where a step's answer showed its seat's next step with the table as the step left it: the
# seat whose card then waits for the end of their part (card_hold.py).
_CARD_HELD = "tablero.card_held"


def mark_card_held(interaction: discord.Interaction, seat: int) -> None:
    """Note that ``interaction``'s answer showed ``seat`` the table as the step left it."""
    interaction.extras[_CARD_HELD] = seat


def card_held(interaction: discord.Interaction | None) -> int | None:
    """The seat whose panel showed the table for ``interaction``'s step, if any."""
    return interaction.extras.get(_CARD_HELD) if interaction is not None else None
