"""What a game's presentation (its GameUI, cogs/common/present.py) may take from the kit as
mixins: its engine's state and views with their own types, and its step panel as the
private menu. ``class XxUI(PanelUI, Typed[XxState, XxView], GameUI)``."""

from __future__ import annotations

from typing import Generic, TypeVar

import discord

from cogs.common.panel import Panel
from cogs.common.present import engine_view
from rules.core import GameState, Seat, View
from services.session import Game

S = TypeVar("S", bound=GameState)
V = TypeVar("V", bound=View)


class Typed(Generic[S, V]):
    """A game's state and views with their own types (``state_type``, ``view_type``)."""

    state_type: type[S]
    view_type: type[V]

    def state(self, g: Game) -> S:
        """The game's state (the game has started)."""
        assert isinstance(g.state, self.state_type)
        return g.state

    def view(self, g: Game, seat: Seat | None, state: GameState | None = None) -> V:
        """The engine's view of ``state`` (default: the game's) for ``seat`` (None: public)."""
        return engine_view(g, seat, self.view_type, state)


class PanelUI:
    """A game's private menu is its step panel ``panel`` (see cogs/common/panel.py)."""

    panel: Panel

    def menu(self, g: Game, seat: Seat, locale: str) -> discord.ui.View | None:
        """The step panel of ``seat`` while it has something to decide (else None)."""
        if g.state is None or g.status != "active" or seat not in g.pending():
            return None
        return self.panel.view(g, seat, locale)
