"""Menus of legal moves of any length: entries grouped by the game's first step, in pages
that fit Discord's select menus (25 options), with "previous" and "next" to move between
them.

A menu's option values say what choosing them does, and hold positions in the whole list
(never in one page), so a value means the same whichever page it was shown on:
``a<i>`` makes legal action i, ``g<n>`` opens the second step of group n, ``p<k>`` shows
page k of the same menu.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

import discord

from cogs.common.i18n import t
from cogs.common.present import GameUI, clip
from rules.core import Action, Seat
from services.session import Game

MENU_SIZE = 25  # Discord's limit of options in a select menu and choices in autocomplete
PAGE = MENU_SIZE - 2  # entries on one page of a longer menu: room for "previous" and "next"
LABEL = 100  # Discord's limit of an option's label and description
PLACEHOLDER = 150  # Discord's limit of a select menu's placeholder


@dataclass
class Group:
    """One entry of a first-step menu: a single action or several sharing their first step."""

    key: Hashable
    indices: list[int]


def groups(ui: GameUI, g: Game, seat: Seat, actions: Sequence[Action]) -> list[Group]:
    """Legal actions as first-step entries: one each when they fit one menu, else grouped
    by the game's first step (the tile before the square). However many entries that
    makes, the menu shows them in pages."""
    if len(actions) <= MENU_SIZE:
        return [Group(key=("#", i), indices=[i]) for i in range(len(actions))]
    by: dict[Hashable, list[int]] = {}
    for i, a in enumerate(actions):
        key = ui.group_of(g, seat, a)
        by.setdefault(("#", i) if key is None else key, []).append(i)
    return [Group(key=k, indices=v) for k, v in by.items()]


def pages(count: int) -> int:
    """How many pages a menu of ``count`` entries takes."""
    return 1 if count <= MENU_SIZE else -(-count // PAGE)


def page_of(count: int, page: int) -> range:
    """The positions of the entries on ``page`` of a menu of ``count`` (empty past its end)."""
    if count <= MENU_SIZE:
        return range(count) if page == 0 else range(0)
    return range(page * PAGE, min(count, (page + 1) * PAGE)) if page >= 0 else range(0)


@dataclass
class Entry:
    """One option of a menu, its words worked out only when its page is shown (a long menu
    has hundreds of entries; one page shows 23)."""

    value: str
    make: Callable[[], tuple[str, str]]  # its label and small print
    _words: tuple[str, str] | None = field(default=None, repr=False)

    def words(self) -> tuple[str, str]:
        """The entry's label and small print."""
        if self._words is None:
            self._words = self.make()
        return self._words

    def option(self) -> discord.SelectOption:
        """The Discord option, within Discord's limits."""
        label, description = self.words()
        return discord.SelectOption(
            label=clip(label or "-", LABEL), value=self.value, description=clip(description, LABEL) or None
        )


def entries(ui: GameUI, g: Game, seat: Seat, locale: str, group: int | None) -> list[Entry] | None:
    """Every entry of the first-step menu (group None) or of one group's second step; None
    for a group that no longer exists."""
    actions = g.legal_actions(seat)
    gs = groups(ui, g, seat, actions)

    def one(i: int) -> Entry:
        return Entry(f"a{i}", lambda: (ui.label(g, seat, actions[i], locale), ""))

    def several(n: int, grp: Group) -> Entry:
        members = [actions[i] for i in grp.indices]
        return Entry(f"g{n}", lambda: (ui.group_label(g, seat, grp.key, members, locale),
                                       ui.group_description(g, seat, grp.key, members, locale)))

    if group is not None:
        return [one(i) for i in gs[group].indices] if 0 <= group < len(gs) else None
    return [one(grp.indices[0]) if len(grp.indices) == 1 else several(n, grp) for n, grp in enumerate(gs)]


def paged(items: Sequence[Entry], page: int, locale: str) -> list[discord.SelectOption]:
    """Page ``page`` of ``items`` as Discord options: at most 25, with "previous" first and
    "next" last when there are pages before or after it (empty for a page past the end)."""
    shown = page_of(len(items), page)
    if not shown:
        return []
    total = pages(len(items))
    out = [items[i].option() for i in shown]
    if page > 0:
        out.insert(0, _turn(items, page - 1, total, "board.page_prev", locale))
    if page + 1 < total:
        out.append(_turn(items, page + 1, total, "board.page_next", locale))
    return out


def _turn(items: Sequence[Entry], page: int, total: int, key: str, locale: str) -> discord.SelectOption:
    """The option that shows another page, saying what is on it."""
    there = page_of(len(items), page)
    first, last = items[there.start].words()[0], items[there.stop - 1].words()[0]
    return discord.SelectOption(
        label=clip(t(key, locale, page=page + 1, pages=total), LABEL), value=f"p{page}",
        description=clip(f"{first} … {last}", LABEL),
    )


def menu_options(
    ui: GameUI, g: Game, seat: Seat, locale: str, group: int | None, page: int = 0
) -> list[discord.SelectOption]:
    """The options of page ``page`` of the first-step menu (group None) or of one group's
    second step (empty when that group or page no longer exists)."""
    items = entries(ui, g, seat, locale, group)
    return paged(items, page, locale) if items is not None else []


def menu_pages(ui: GameUI, g: Game, seat: Seat, locale: str, group: int | None) -> int:
    """How many pages the menu (first step, or ``group``'s second step) takes."""
    items = entries(ui, g, seat, locale, group)
    return pages(len(items)) if items else 1


def group_title(ui: GameUI, g: Game, seat: Seat, group: int, locale: str) -> str | None:
    """What a group of the first step is called in its second step (None: no such group)."""
    actions = g.legal_actions(seat)
    gs = groups(ui, g, seat, actions)
    if not 0 <= group < len(gs):
        return None
    return ui.group_label(g, seat, gs[group].key, [actions[i] for i in gs[group].indices], locale)


def placeholder(g: Game, seat: Seat, locale: str, page: int, total: int) -> str:
    """The words in an empty menu: who chooses, and the page when there are several."""
    name = g.seat_row(seat).name
    if total <= 1:
        return clip(t("board.pick", locale, name=name), PLACEHOLDER)
    return clip(t("board.pick_page", locale, name=name, page=page + 1, pages=total), PLACEHOLDER)
