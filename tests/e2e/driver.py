"""One driver for the games' end-to-end tests: players at the controls of one game through
the fake server (its versions, the control making a legal action, the private panel, the
menus of legal moves with their pages and groups, refusals), shared by every game's test."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from .checks import text_of
from .fake_discord import EPHEMERAL
from .harness import FakeWorld, handled
from .table import Table

PNG = b"\x89PNG\r\n\x1a\n"


async def seeded_table(world: FakeWorld, db: str, seed: int) -> Table:
    """A table with its bot started, whose games are dealt from ``seed``: the seed is the
    platform's choice, and fixing it keeps a test the same game every run."""
    t = Table(world, db)
    await t.start()
    t.bot.session._seed = lambda: seed
    return t


def board_picture(t: Table, board: dict) -> bytes:
    """The board's picture, checked to be the embed's PNG attachment; returns its bytes."""
    assert board["embeds"][0]["image"]["url"] == "attachment://board.png"
    data = t.fake.files(board)[0]["data"]
    assert data[:8] == PNG
    return data


async def start_game(t: Table, host: dict, game: str, *, click: tuple[dict, ...] = (),
                     command: tuple[dict, ...] = (), ai: bool = False, **options: Any) -> tuple[int, dict]:
    """``host`` opens a lobby of ``game``; ``click`` join by its button, ``command`` by
    ``/game join`` (answered privately); a bot seat with ``ai``; the host starts.
    Returns (game id, lobby message)."""
    _, _, lobby = await t.slash("game new", host, game=game, **options)
    assert lobby is not None and lobby["embeds"], lobby
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    buttons = t.lobby_buttons(lobby)
    for user in click:
        await t.click(t.fake.messages[lobby["id"]], buttons["join"], user)
    for user in command:
        _, _, msg = await t.slash("game join", user)
        assert msg is not None and msg["flags"] & EPHEMERAL
    if ai:
        await t.click(t.fake.messages[lobby["id"]], buttons["ai"], host)
    await t.click(t.fake.messages[lobby["id"]], buttons["start"], host)
    return gid, lobby


async def hand_notice(t: Table, name: str, commands: tuple[str, ...] = ("/game hand",)) -> dict:
    """The channel's notice that a player with closed DMs reads their hand with one of
    ``commands`` (it names the player); returns it."""
    notice = await t.fake.wait_until(lambda: [m for m in t.fake.channel_messages(t.world.channel)
                                              if any(c in m["content"] for c in commands)])
    assert name in notice[0]["content"], notice[0]["content"]
    return notice[0]


class Driver:
    """The seated players of game ``gid`` at the controls; ``names`` (seat -> user name)
    when known in advance, else each seat's user is looked up from the game."""

    def __init__(self, t: Table, gid: int, *, rng: random.Random | None = None,
                 names: dict[int, str] | None = None) -> None:
        self.t, self.gid = t, gid
        self.fake = t.fake
        self.channel = t.world.channel
        self.rng = rng or random.Random(1)
        self.names = names
        self.panels: dict[int, str] = {}  # seat -> id of its open private panel
        self.ways: dict[str, int] = {}  # each way of moving used, and how often

    # -- the game ------------------------------------------------------------------------

    async def state(self) -> Any:
        """The game's state now."""
        return (await self.t.game(self.gid)).state

    def version(self) -> int:
        """The version the bot holds now."""
        g = self.t.bot.session.cached(self.gid)
        assert g is not None
        return g.version

    def user(self, seat: int) -> dict:
        """The user seated at ``seat``."""
        if self.names is not None:
            return self.t.world.users[self.names[seat]]
        g = self.t.bot.session.cached(self.gid)
        assert g is not None
        uid = g.seat_row(seat).user_id
        return next(u for u in self.t.world.users.values() if int(u["id"]) == uid)

    def used(self, way: str) -> None:
        """Count one use of ``way``."""
        self.ways[way] = self.ways.get(way, 0) + 1

    async def moved_past(self, version: int) -> None:
        """Wait until the game is past ``version``."""
        await self.fake.wait_until(lambda: self.version() > version)

    async def settled(self, version: int) -> dict:
        """Wait until the board shows ``version`` in its footer, or, while its card waits
        for its mover's part to end (a step made in their private panel), until that panel
        shows the table at ``version``; returns the board."""
        def says(message: dict) -> bool:
            return re.search(rf"(move|jugada) {version}\b", json.dumps(message["embeds"], ensure_ascii=False)) is not None

        def shown() -> dict | None:
            board = self.t.board(self.gid)
            if board is None:
                return None
            return board if says(board) or self.t.held_shows(self.gid, version) else None
        return await self.fake.wait_until(shown)

    async def refused(self, command: str, user: dict, **options: Any) -> str:
        """Run a command that must be refused privately and change nothing; returns what it said."""
        version = self.version()
        _, _, msg = await self.t.slash(command, user, **options)
        assert msg is not None and msg["flags"] & EPHEMERAL, msg
        assert self.version() == version
        return msg["content"]

    # -- controls for a legal action -------------------------------------------------------

    def component(self, message: dict, prefix: str) -> dict | None:
        """The first component of ``message`` whose custom_id starts with ``prefix``."""
        return next((c for c in self.fake.components(message) if c.get("custom_id", "").startswith(prefix)), None)

    def control(self, message: dict, version: int, seat: int, index: int) -> tuple[str, dict] | None:
        """("click", button) or ("select", menu) making legal action ``index`` on ``message``."""
        for c in self.fake.components(message):
            cid = c.get("custom_id", "")
            if cid == f"tablero:act:{self.gid}:{version}:{seat}:{index}":
                return "click", c
            if cid.startswith(f"tablero:acts:{self.gid}:{version}:{seat}:") and any(
                    o["value"] == str(index) for o in c["options"]):
                return "select", c
        return None

    async def use(self, message: dict, version: int, seat: int, index: int) -> dict:
        """Use the control for action ``index`` on ``message``; returns the interaction."""
        found = self.control(message, version, seat, index)
        assert found is not None, text_of(message)
        how, c = found
        if how == "click":
            inter = await self.fake.click(message, c["custom_id"], self.user(seat))
        else:
            inter = await self.fake.select(message, c["custom_id"], self.user(seat), [str(index)])
        await self.fake.wait_response(inter)
        await handled(self.fake)
        return inter

    async def open_panel(self, seat: int, *, hand: bool = False) -> dict:
        """Press the board's Play button (with ``hand``, its My hand button when it has no
        Play button); returns the private panel, shown to that seat only."""
        board = self.t.board(self.gid)
        assert board is not None
        button = self.component(board, "tablero:play:")
        if button is None and hand:
            button = self.component(board, "tablero:hand:")
            self.used("panel:my hand")
        assert button is not None, text_of(board)
        user = self.user(seat)
        inter, resp = await self.t.click(board, button["custom_id"], user)
        if resp["type"] == 6:  # Play: the card acknowledged as it is, the panel a private followup
            await self.fake.wait_until(lambda: self.fake.followups(inter), timeout=5)
            panel = self.fake.followups(inter)[0]
        else:
            panel = self.fake.response_message(inter)
        assert panel is not None and panel["flags"] & EPHEMERAL and panel["_visible_to"] == user["id"]
        return panel

    async def panel_for(self, seat: int, version: int, index: int, *, hand: bool = False) -> dict:
        """The seat's open panel if it shows action ``index`` at ``version`` (its next step),
        else a new one from the board showing ``version``."""
        panel = self.fake.messages.get(self.panels.get(seat, ""))
        if panel is not None and self.control(panel, version, seat, index) is not None:
            self.used("panel:next step")
            return panel
        await self.settled(version)
        self.used("panel:open")
        return await self.open_panel(seat, hand=hand)

    async def by_panel(self, seat: int, version: int, index: int) -> dict:
        """Make legal action ``index`` from the private panel; returns that panel (edited in
        place: the next step shows there)."""
        panel = await self.panel_for(seat, version, index)
        await self.use(panel, version, seat, index)
        self.panels[seat] = panel["id"]
        return panel

    # -- the menu of legal moves (pages p<k>, groups g<n>) ----------------------------------

    def menu(self, message: dict | None) -> dict | None:
        """The menu of legal moves (``tablero:pick:``) on ``message``."""
        return None if message is None else self.component(message, "tablero:pick:")

    async def pick(self, message: dict, user: dict) -> None:
        """Choose at random in ``message``'s menu of legal moves, through its pages and its
        groups' second steps, until a move is made."""
        for _ in range(50):
            menu = self.menu(message)
            assert menu is not None, text_of(message)
            value = self.rng.choice(menu["options"])["value"]
            inter = await self.fake.select(message, menu["custom_id"], user, [value])
            resp = await self.fake.wait_response(inter)
            if value[:1] not in ("g", "p"):
                await handled(self.fake)
                return
            # another page or the group's second step: in place, or a new private message
            nxt = self.fake.messages[message["id"]] if resp["type"] == 7 else self.fake.response_message(inter)
            assert nxt is not None
            message = nxt
        raise AssertionError("the menu never came to a move")

    async def move_by_menu(self) -> None:
        """The human to act picks a random move from the board's menu (or, when the board's
        menu would reveal something, from the panel its Play button opens)."""
        g = await self.t.game(self.gid)
        version = g.version
        who = await self.t.user_to_act(self.gid)
        assert who is not None
        seat, user = who
        # the board is edited after the commit: wait until it shows this version's choices
        board = await self.fake.wait_until(lambda: self.t._current_board(self.gid, version))
        menu = self.menu(board)
        if menu is None:
            board = await self.open_panel(seat)
            menu = self.menu(board)
        assert menu is not None, "no move menu for the player to act"
        assert menu["custom_id"].split(":")[4] == str(seat)
        await self.pick(board, user)
        await self.moved_past(version)
