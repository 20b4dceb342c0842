"""The move flow's small pieces: answering within Discord's 3 seconds, checking the seat
a panel was made for, making a move and publishing it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from cogs.common import answering, services
from cogs.common.errors import PUBLIC_PLACEHOLDER
from cogs.common.i18n import said, t
from cogs.common.present import clip_before, event_lines, said_by, turn_lines
from rules.core import Action, Seat, StaleAction
from services.session import Game, MoveResult, Refusal

log = logging.getLogger("tablero.moves")

SLOW = 2.0  # seconds of work after which an interaction is deferred (Discord allows 3)

T = TypeVar("T")


async def acknowledge_move(interaction: discord.Interaction) -> None:
    """Acknowledge a move's interaction before any of its work, so it is never late however
    busy the bot is (a commit waits for its group, the card for its picture): a component's
    as an update of the message it sits on (edited through the interaction afterwards), a
    command's with a "thinking…" only the mover sees, which the move's answer to them fills
    (the turn's message goes to the channel as a message of its own: only a new message
    pings, never an edit)."""
    await answering.acknowledge(interaction)


async def within(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False,
                 move: bool = False) -> T:
    """Await ``work`` within Discord's 3 s: a ``move`` is acknowledged before it (see
    acknowledge_move), anything else (a private answer, a lobby's start) when it runs long."""
    if move and not ephemeral:
        if interaction.message is not None:
            # A component's move: answered by its outcome when that is ready within a small
            # budget (the panel's next step, the card, the turn's message as the new card),
            # else acknowledged when the budget runs out (see cogs/common/answering.py).
            await answering.answer_by(interaction, answering.move_budget())
        else:
            await acknowledge_move(interaction)
        with answering.moving():
            return await work
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=SLOW)
    if not done and not interaction.response.is_done():
        thinking = interaction.message is None
        # A public "thinking…" placeholder must never be filled with a refusal: reply()
        # reads this to answer privately instead.
        interaction.extras[PUBLIC_PLACEHOLDER] = thinking and not ephemeral
        try:
            await answering.respond(interaction, lambda: interaction.response.defer(ephemeral=ephemeral,
                                                                                    thinking=thinking))
        except discord.HTTPException:
            # Discord gave up on the interaction (answered too late): the work goes on all
            # the same (a move it commits is still published), and its outcome, even a
            # refusal, comes out of the await below instead of being orphaned in the task.
            log.info("interaction %s expired before it was deferred", interaction.id)
    return await task


def stale_menu() -> StaleAction:
    """The refusal for a menu or value of an earlier move."""
    return StaleAction(said("err.stale_menu"))


def check_seat(g: Game, expected: Seat, actual: Seat) -> None:
    """Refuse unless the clicker's seat ``actual`` is the seat ``expected`` a panel was made for."""
    if expected != actual:
        name = g.seat_row(expected).name
        raise Refusal(said("err.not_this_seat", name=name))


def announcement(g: Game, result: MoveResult, locale: str) -> str:
    """The public record of a move: who did what, then who must act (pinged) or the result."""
    lines: list[str] = []
    if result.before is None:
        lines.append(t("board.started", locale, id=g.id))
    # Consecutive steps of one player (the parts of one choice) are told as one line.
    runs: list[tuple[Seat, list[str]]] = []
    for step in result.steps:
        if step.action is None:
            continue  # an undo: its own line says so
        texts = event_lines(step.events, locale, g=g)
        if runs and runs[-1][0] == step.seat:
            runs[-1][1].extend(texts)
        else:
            runs.append((step.seat, texts))
    for seat, texts in runs:
        lines.append(said_by(g, seat, texts, locale))
    # A long record loses lines of what happened, never the lines that ping who acts now.
    return clip_before("\n".join(lines), "\n".join(turn_lines(g, locale)), 2000)


async def publish(interaction: discord.Interaction, result: MoveResult) -> None:
    """Tell Discord about a committed move: the public record, the board, the DMs."""
    await services(interaction).announcer.publish(result, interaction=interaction)


async def play_action(interaction: discord.Interaction, game: int, action: Action | dict[str, Any],
                      version: int | None = None) -> None:
    """Run ``action`` for the caller at ``version`` (the session re-checks everything under
    the game's lock), then publish it."""
    bot = services(interaction)
    result = await within(interaction, bot.session.move(game, interaction.user.id, action, version), move=True)
    await publish(interaction, result)


async def play_steps(interaction: discord.Interaction, game: int, steps: list[Action], version: int) -> None:
    """Run the engine's ``steps`` of one choice for the caller at ``version`` as one move
    (all or none), then publish them."""
    bot = services(interaction)
    result = await within(interaction, bot.session.move_many(game, interaction.user.id, steps, version),
                          move=True)
    await publish(interaction, result)
