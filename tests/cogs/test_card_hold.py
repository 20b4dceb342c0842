"""Which steps leave the card waiting for the end of their mover's part, and whether the
table's preview fits beside the hand in the mover's panel (cogs/common/card_hold.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from cogs.common import card_hold
from cogs.common.card_hold import HeldCards, fits_beside, holds_card
from cogs.common.present import Rendered


def result(*, pending: set[int], steps: list[tuple[int, bool]], newly: set[int] | None = None,
           secrets: bool = True, status: str = "active", finished: bool = False,
           before: Any = "state") -> Any:
    """A change as holds_card reads it: the game after it, its steps (seat, made by a bot)."""
    game = SimpleNamespace(status=status, state="state", pending=lambda: dict.fromkeys(pending),
                           secrets=lambda seat: ["a card"] if secrets else [])
    return SimpleNamespace(game=game, before=before, finished=finished,
                           steps=[SimpleNamespace(seat=s, ai=ai) for s, ai in steps],
                           newly_pending=lambda: sorted(newly or set()))


def test_a_step_of_a_part_that_goes_on_in_private_holds_the_card() -> None:
    assert holds_card(result(pending={0}, steps=[(0, False)]), 0)
    # the same seat asked again (its next step) is no one new
    assert holds_card(result(pending={0}, steps=[(0, False)], newly={0}), 0)


def test_a_step_that_asks_someone_else_or_ends_the_part_shows_the_card() -> None:
    assert not holds_card(result(pending={1}, steps=[(0, False)], newly={1}), 0)  # the turn passes
    assert not holds_card(result(pending={0, 1}, steps=[(0, False)], newly={1}), 0)  # a reaction asked
    assert not holds_card(result(pending={0, 1}, steps=[(0, False)]), 0)  # another still to choose
    assert not holds_card(result(pending={0}, steps=[(0, False)], status="finished", finished=True), 0)


def test_a_bots_answer_or_public_moves_show_the_card() -> None:
    assert not holds_card(result(pending={0}, steps=[(0, False), (1, True)]), 0)  # a bot answered
    assert not holds_card(result(pending={0}, steps=[(0, False)], secrets=False), 0)  # its menu is public
    assert not holds_card(result(pending={0}, steps=[(1, False)]), 0)  # another seat's step
    assert not holds_card(result(pending={0}, steps=[]), 0)
    assert not holds_card(result(pending={0}, steps=[(0, False)], before=None), 0)  # a start


def rendered(characters: int) -> Rendered:
    """A view whose embed holds ``characters`` characters."""
    return Rendered(content=None, embed=discord.Embed(title="t", description="x" * (characters - 1)))


def test_the_preview_goes_beside_the_hand_only_within_discords_6000_characters() -> None:
    assert fits_beside(rendered(4000), rendered(2000))
    assert not fits_beside(rendered(4000), rendered(2001))
    assert fits_beside(rendered(4096), None)


async def test_a_held_step_waits_for_the_next_showing_or_its_timer(monkeypatch: Any) -> None:
    shown: list[int] = []
    done: list[tuple[int, int]] = []

    async def show(game: int) -> None:
        shown.append(game)

    async def mark(row: int, change: int) -> None:
        done.append((row, change))

    monkeypatch.setattr(card_hold, "CARD_HELD_FOR", 0.05)
    held = HeldCards(show, mark)
    assert held.hold(7, row=70, change=69, version=3)
    assert held.hold(7, row=72, change=71, version=4) and held.waiting(7)
    # the next showing covers both, and stops the timer
    covered = held.take(7)
    assert covered == [(70, 69), (72, 71)] and not held.waiting(7)
    await held.release(covered)
    assert done == [(70, 69), (72, 71)]
    await asyncio.sleep(0.1)
    assert shown == []
    # nobody shows it: the timer does
    assert held.hold(8, row=80, change=79, version=2)
    await asyncio.sleep(0.1)
    assert shown == [8]
    held.close()


async def test_a_step_a_later_showing_already_read_is_not_held() -> None:
    async def nothing(*_: Any) -> None:
        return None

    held = HeldCards(nothing, nothing)
    held.seen(7, 5)  # a later move's showing read the game at version 5 first
    assert not held.hold(7, row=70, change=69, version=4) and not held.waiting(7)
    assert not held.hold(7, row=72, change=71, version=5)
    assert held.hold(7, row=74, change=73, version=6) and held.waiting(7)
    held.close()
