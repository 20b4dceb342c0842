"""Menus of legal moves of any length: every page and every second step opens (no "Something
went wrong"), every legal move is reachable, and every menu keeps Discord's limits."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import cogs.guerra_de_mitos  # noqa: F401 - registers the game's presentation
import cogs.ragami  # noqa: F401
import cogs.rey_hierofante  # noqa: F401
from cogs.common.choices import PickSelect, board_view, chooser
from rules.guerra_de_mitos.engine import GdmEngine
from rules.guerra_de_mitos.model import GdmState
from rules.ragami.engine import RgEngine
from services.session import Game
from storage import GameRow, SeatRow
from tests.cogs.helpers import advance
from tests.cogs.helpers import game as rh_game
from tests.rules import gdm_helpers as H

USERS = (101, 202, 303)
# Action cards a seat may play with nothing else on the table (two copies each make a hand).
PLAYABLE = ("0266", "0271", "0286", "0287", "0289", "0290", "0298", "0300", "0305", "0306",
            "0307", "0310", "0313", "0317", "0318", "0340", "0342", "0343", "0346", "0347", "0348")


def around(game_id: str, engine: Any, state: Any, seats: int) -> Game:
    """A game of ``game_id`` around ``state``, with no store and no Discord."""
    row = GameRow(
        id=1, guild_id=5, channel_id=900, game_id=game_id, options={}, status="active", seed=1,
        version=state.version, state=None, host_id=USERS[0], locale="en", board_channel_id=900,
        board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    rows = [SeatRow(game=1, seat=i, user_id=USERS[i], ai=False, name=("alice", "bob", "carol")[i],
                    locale=None, dm_closed=False) for i in range(seats)]
    return Game(row=row, seats=rows, engine=engine, state=state)


def ragami_destinations() -> Game:
    """Ragami's setup: the first Saint goes on any of 30 squares (a real position)."""
    e = RgEngine()
    s = e.setup(3, {}, 0)
    rng = random.Random(0)
    while len(e.legal_actions(s, min(e.pending(s)))) <= 25:
        seat = min(e.pending(s))
        s, _ = e.apply(s, seat, rng.choice(e.legal_actions(s, seat)))
    return around("ragami", e, s, 3)


def gdm_hand(cards: int) -> Game:
    """Guerra de Mitos in the influence phase, a hand of ``cards`` action cards all playable."""
    st: GdmState = H.blank()
    st.cards[st.players[0].pantheon].power = 40
    for k in range(cards):
        H.in_hand(st, PLAYABLE[k % len(PLAYABLE)])
    return around("guerra_de_mitos", GdmEngine(), st, 2)


class Response:
    """What the bot answers a click with."""

    def __init__(self) -> None:
        self.views: list[discord.ui.View] = []

    def is_done(self) -> bool:
        return bool(self.views)

    async def send_message(self, content: str | None = None, *, view: discord.ui.View, ephemeral: bool,
                           **_: Any) -> None:
        assert ephemeral, "a page or a second step of a menu is only for the one choosing"
        assert content and len(content) <= 2000
        self.views.append(view)

    async def edit_message(self, *, view: discord.ui.View, **_: Any) -> None:
        self.views.append(view)


def clicked(g: Game, seat: int, *, ephemeral: bool, guild: bool = True) -> Any:
    """A component interaction of ``seat``'s user on a message (ephemeral or not)."""

    async def prepare(game: int, user: int, version: int | None = None) -> tuple[Game, int]:
        assert user == USERS[seat] and version in (None, g.version)
        return g, seat

    return SimpleNamespace(
        client=SimpleNamespace(session=SimpleNamespace(prepare=prepare)), locale=discord.Locale.american_english,
        user=SimpleNamespace(id=USERS[seat]), message=SimpleNamespace(flags=SimpleNamespace(ephemeral=ephemeral)),
        guild_id=5 if guild else None, channel_id=900, response=Response(), extras={},
    )


def the_menu(view: discord.ui.View) -> PickSelect:
    """The one move menu of a view, checked against Discord's limits."""
    (menu,) = view.children
    assert isinstance(menu, PickSelect)
    options = menu.item.options
    assert 1 <= len(options) <= 25
    assert len({o.value for o in options}) == len(options)
    assert all(1 <= len(o.label) <= 100 and len(o.description or "") <= 100 for o in options)
    assert len(menu.item.placeholder or "") <= 150
    assert len(menu.custom_id) <= 100
    return menu


async def walk(g: Game, seat: int, start: discord.ui.View, *, ephemeral: bool) -> list[int]:
    """Every legal move reached by opening every page and second step of ``start``'s menu."""
    reached: set[int] = set()
    todo, seen = [start], set()
    while todo:
        menu = the_menu(todo.pop())
        for option in menu.item.options:
            if option.value.startswith("a"):
                reached.add(int(option.value[1:]))
                continue
            where = (menu.custom_id, option.value)
            if where in seen:
                continue
            seen.add(where)
            inter = clicked(g, seat, ephemeral=ephemeral)
            menu.item._values = [option.value]  # what Discord sends for the choice
            await menu._run(inter)  # raised here: "Something went wrong on our side"
            (opened,) = inter.response.views
            todo.append(opened)
    return sorted(reached)


@pytest.mark.parametrize("ephemeral", [True, False])
async def test_every_move_of_ragamis_30_destinations_is_reachable(ephemeral: bool) -> None:
    g = ragami_destinations()
    seat = min(g.pending())
    actions = g.legal_actions(seat)
    assert len(actions) == 30
    reached = await walk(g, seat, chooser(g, seat, "en"), ephemeral=ephemeral)
    assert reached == list(range(30))


@pytest.mark.parametrize("cards", [30, 120])
async def test_a_hand_of_many_cards_is_reachable_page_by_page(cards: int) -> None:
    g = gdm_hand(cards)
    actions = g.legal_actions(0)
    assert len(actions) == cards + 1  # a card each, and pass
    reached = await walk(g, 0, chooser(g, 0, "es"), ephemeral=True)
    assert reached == list(range(len(actions)))


async def test_pages_say_where_they_lead_and_turn_in_place_in_private() -> None:
    g = gdm_hand(60)
    first = the_menu(chooser(g, 0, "en"))
    values = [o.value for o in first.item.options]
    assert values[-1] == "p1" and not any(v.startswith("p") for v in values[:-1])
    assert "page 2 of 3" in first.item.options[-1].label and " … " in (first.item.options[-1].description or "")
    assert "(page 1 of 3)" in (first.item.placeholder or "")
    inter = clicked(g, 0, ephemeral=False, guild=False)  # a DM: only its reader sees it
    first.item._values = ["p1"]
    await first._run(inter)
    second = the_menu(inter.response.views[0])
    assert [o.value for o in second.item.options][0] == "p0"
    assert [o.value for o in second.item.options][-1] == "p2"


async def test_a_page_or_group_of_an_earlier_menu_is_refused_as_stale() -> None:
    from rules.core import StaleAction

    g = gdm_hand(30)
    menu = the_menu(chooser(g, 0, "en"))
    for value in ("p9", "g99", "a999", "x"):
        menu.item._values = [value]
        with pytest.raises(StaleAction):
            await menu._run(clicked(g, 0, ephemeral=True))


async def test_a_game_with_its_own_groups_still_goes_tile_then_square() -> None:
    g = advance(rh_game(options={"variant": "aleatorio"}), 1)
    seat = min(g.pending())
    actions = g.legal_actions(seat)
    assert len(actions) > 25
    view = board_view(g, "en")
    assert view is not None
    menu = next(c for c in view.children if isinstance(c, PickSelect))
    reached = await walk(g, seat, chooser(g, seat, "en"), ephemeral=False)
    assert reached == list(range(len(actions)))
    assert any(o.value.startswith("g") for o in menu.item.options)


async def test_a_panel_splits_long_menus_and_gives_way_to_the_pages_when_too_long() -> None:
    from cogs.common.choices import ActButton, ActSelect
    from cogs.guerra_de_mitos import PANEL

    g = gdm_hand(30)
    view = PANEL.view(g, 0, "en")
    menus = [c for c in view.children if isinstance(c, ActSelect)]
    assert [len(m.item.options) for m in menus] == [25, 5]  # the hand in two menus
    assert sum(isinstance(c, ActButton) for c in view.children) == 1  # pass
    g = gdm_hand(130)  # six menus of cards and a button: more rows than a message has
    view = PANEL.view(g, 0, "en")
    assert not any(isinstance(c, ActSelect | ActButton) for c in view.children)
    reached = await walk(g, 0, view, ephemeral=True)
    assert reached == list(range(131))
