"""Which steps leave the card waiting for the end of their mover's part, and whether the
table's preview fits beside the hand in the mover's panel (cogs/common/card_hold.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs.common.card_hold import fits_beside, holds_card
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
