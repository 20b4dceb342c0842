"""The kit every game's Discord side stands on, by one name: menus of legal moves of any
length, the persistent components and what a click does, step panels, autocomplete by
name, refusals and the flow from a command to the next step.

Each part lives in its own module (menus, components, panel, autocomplete, flow, moves);
this one gathers the names other modules import, so they keep working.
"""

from __future__ import annotations

from cogs.common.autocomplete import (
    action_choices,
    chosen_version,
    encode,
    fold,
    kind_of,
    legal_choices,
    matches,
    offered,
    pick_one,
    resolve_action,
)
from cogs.common.components import (
    COMPONENTS,
    ActButton,
    ActSelect,
    HandButton,
    PickSelect,
    PlayButton,
    SeatButton,
    SeatItem,
    act,
    act_buttons,
    board_view,
    chooser,
    private_menu,
    show_hand,
    show_next,
)
from cogs.common.flow import GameCog, nothing, play_named, play_value, refusal, require, then_panel
from cogs.common.game_ui import PanelUI, Typed
from cogs.common.menus import MENU_SIZE, Group, groups, menu_options
from cogs.common.moves import announcement, check_seat, play_action, play_steps, publish, within
from cogs.common.panel import Menu, Panel
from cogs.common.present import mention, turn_lines

__all__ = [
    "COMPONENTS",
    "MENU_SIZE",
    "ActButton",
    "ActSelect",
    "GameCog",
    "Group",
    "HandButton",
    "Menu",
    "Panel",
    "PanelUI",
    "PickSelect",
    "PlayButton",
    "SeatButton",
    "SeatItem",
    "Typed",
    "act",
    "act_buttons",
    "action_choices",
    "announcement",
    "board_view",
    "check_seat",
    "chooser",
    "chosen_version",
    "encode",
    "fold",
    "groups",
    "kind_of",
    "legal_choices",
    "matches",
    "mention",
    "menu_options",
    "nothing",
    "offered",
    "pick_one",
    "play_action",
    "play_named",
    "play_steps",
    "play_value",
    "private_menu",
    "publish",
    "refusal",
    "require",
    "resolve_action",
    "show_hand",
    "show_next",
    "then_panel",
    "turn_lines",
    "within",
]
