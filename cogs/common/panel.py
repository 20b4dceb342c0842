"""A seat's private step panel, built from the engine's legal actions and what a game
declares: which kinds of action go in which menu (with its placeholder), which are
buttons (with their styles), and the small print under a menu's entries.

The panel answers the step the engine asks for now; a click makes the move and the same
message turns into the next step (cogs/common/components.py). When the choices would not
fit one Discord message (5 rows; 25 options a menu, 5 buttons a row) the panel is the
generic paged menu instead, which fits any number of choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import discord

from cogs.common.autocomplete import kind_of
from cogs.common.components import ActButton, ActSelect, chooser
from cogs.common.i18n import t
from cogs.common.menus import LABEL, MENU_SIZE
from cogs.common.present import clip, ui_for
from rules.core import Action, Seat
from services.session import Game

ROWS = 5  # rows of components in a message
PER_ROW = 5  # buttons in a row

# The small print of a panel: given the game, the seat and the language once, a function
# of one action (so a game works out its view once per panel, not once per entry).
SmallPrint = Callable[[Game, Seat, str], Callable[[Action], str]]


@dataclass(frozen=True)
class Menu:
    """One menu of a panel: the catalogue key of its placeholder and the kinds it gathers."""

    placeholder: str
    kinds: frozenset[str]


def _nothing(g: Game, seat: Seat, locale: str) -> Callable[[Action], str]:
    return lambda action: ""


@dataclass(frozen=True)
class Panel:
    """How a game's step panel is laid out (see the module's docstring).

    An action goes in the first menu gathering its kind; else it is a button when its kind
    is in ``buttons`` (None: every kind no menu gathers is a button); else it goes in the
    menu ``other`` (a catalogue key of its placeholder; None: a button too)."""

    menus: Sequence[Menu]
    buttons: frozenset[str] | None = None
    other: str | None = None
    styles: Mapping[str, discord.ButtonStyle] = field(default_factory=dict)
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    about: SmallPrint = _nothing

    def layout(self, actions: Sequence[Action]) -> tuple[list[tuple[str, list[int]]], list[int]]:
        """The panel's menus (placeholder key, action indices; none empty, at most 25
        each: a longer one is split) and its buttons (action indices), in the order shown."""
        keys = [m.placeholder for m in self.menus] + ([self.other] if self.other else [])
        placed: dict[str, list[int]] = {key: [] for key in keys}
        buttons: list[int] = []
        for i, a in enumerate(actions):
            kind = kind_of(a)
            menu = next((m.placeholder for m in self.menus if kind in m.kinds), None)
            if menu is None and not (self.buttons is None or kind in self.buttons) and self.other:
                menu = self.other
            if menu is None:
                buttons.append(i)
            else:
                placed[menu].append(i)
        menus = [(key, items[k:k + MENU_SIZE]) for key, items in placed.items()
                 for k in range(0, len(items), MENU_SIZE)]
        return menus, buttons

    def fits(self, menus: Sequence[object], buttons: Sequence[int]) -> bool:
        """Whether these menus and buttons fit one message."""
        return len(menus) + -(-len(buttons) // PER_ROW) <= ROWS

    def view(self, g: Game, seat: Seat, locale: str) -> discord.ui.View:
        """``seat``'s panel for what it must decide now (the generic menu if it would not fit)."""
        actions = g.legal_actions(seat)
        menus, buttons = self.layout(actions)
        if not self.fits(menus, buttons):
            return chooser(g, seat, locale)
        ui = ui_for(g.row.game_id)
        about = self.about(g, seat, locale)
        view = discord.ui.View(timeout=None)
        for part, (key, chunk) in enumerate(menus):
            options = [
                discord.SelectOption(
                    label=clip(ui.label(g, seat, actions[i], locale) or "-", LABEL), value=str(i),
                    description=clip(about(actions[i]), LABEL) or None,
                )
                for i in chunk
            ]
            view.add_item(ActSelect(g.id, g.version, seat, part, options=options, placeholder=t(key, locale)))
        for i in buttons:
            a = actions[i]
            style = self.styles.get(kind_of(a), self.style)
            view.add_item(ActButton(g.id, g.version, seat, i, label=ui.label(g, seat, a, locale), style=style))
        return view
