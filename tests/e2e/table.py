"""Driving Tablero like players do: slash commands, buttons and menus against the fake server."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

from bot import Settings, TableroBot, create_bot
from services.clock import ManualClock

from .fake_discord import EPHEMERAL, FakeDiscord
from .harness import FakeWorld, handled


def make_bot(db_path: str, clock: ManualClock | None = None) -> TableroBot:
    """A real Tablero bot on ``db_path``; with ``clock``, its turn clock runs on that time
    source and moves only when a test calls ``bot.scheduler.tick()``."""
    if clock is None:
        return create_bot(Settings(token="fake-token", db_path=db_path))
    return create_bot(Settings(token="fake-token", db_path=db_path), clock=clock, run_clock=False)


@dataclass
class Table:
    """One world, one channel, the players, and helpers to act as them."""

    world: FakeWorld
    db_path: str
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    clock: ManualClock | None = None

    @property
    def fake(self) -> FakeDiscord:
        """The fake Discord server."""
        return self.world.fake

    @property
    def bot(self) -> TableroBot:
        """The running bot."""
        assert isinstance(self.world.bot, TableroBot)
        return self.world.bot

    async def start(self) -> None:
        """Start a new bot on the table's database."""
        await self.world.start(make_bot(self.db_path, self.clock))

    async def restart(self) -> None:
        """Stop the bot and start a brand new one on the same database."""
        await self.world.restart(make_bot(self.db_path, self.clock))

    async def slash(self, command: str, user: dict, channel: dict | None = None, *, wait: float = 5.0,
                    **options: Any) -> tuple[dict, dict, dict | None]:
        """Run a slash command; returns (interaction, response record, the message it answered
        with). ``wait``: how long a deferred answer may take to come."""
        if command == "game new":
            # The games' own tests play in the channel; the thread default has tests of its own.
            options.setdefault("thread", False)
        inter = await self.fake.slash(command, user, channel or self.world.channel, **options)
        resp = await self.fake.wait_response(inter)
        if resp["type"] == 5:  # deferred: the answer comes as the first followup
            await self.fake.wait_until(lambda: self.fake.response_message(inter) is not None
                                       and (self.fake.response_message(inter)["content"]
                                            or self.fake.response_message(inter)["embeds"]),
                                       timeout=wait)
        return inter, resp, self.fake.response_message(inter)

    async def click(self, message: dict, custom_id: str, user: dict) -> tuple[dict, dict]:
        """Click a button; returns (interaction, response record)."""
        inter = await self.fake.click(message, custom_id, user)
        resp = await self.fake.wait_response(inter)
        await handled(self.fake)
        return inter, resp

    def lobby_buttons(self, message: dict) -> dict[str, str]:
        """The lobby's buttons by action (join, leave, ai, start)."""
        out = {}
        for c in self.fake.components(message):
            cid = c.get("custom_id", "")
            if cid.startswith("tablero:lobby:"):
                out[cid.split(":")[2]] = cid
        return out

    def board(self, game: int) -> dict | None:
        """The game's current board message (the one the bot stored)."""
        g = self.bot.session.cached(game)
        if g is None or g.row.board_message_id is None:
            return None
        return self.fake.messages.get(str(g.row.board_message_id))

    async def game(self, game: int):
        """The session's view of a game (loads it if needed)."""
        g = self.bot.session.cached(game) or await self.bot.session.get(game)
        assert g is not None
        return g

    async def user_to_act(self, game: int) -> tuple[int, dict] | None:
        """(seat, user) of the human who must act now, or None."""
        g = await self.game(game)
        for seat in sorted(g.pending()):
            row = g.seat_row(seat)
            if not row.ai:
                return seat, self.world.users[self._name_of(row.user_id)]
        return None

    def _name_of(self, user_id: int | None) -> str:
        for name, u in self.world.users.items():
            if int(u["id"]) == user_id:
                return name
        raise KeyError(user_id)

    async def move_by_menu(self, game: int) -> None:
        """The player to act picks a random option from the board's menu (see Driver.move_by_menu)."""
        from .driver import Driver  # the driver is built on the table
        await Driver(self, game, rng=self.rng).move_by_menu()

    def _current_board(self, game: int, version: int) -> dict | None:
        board = self.board(game)
        if board is None:
            return None
        for c in self.fake.components(board):
            cid = c.get("custom_id", "")
            if cid.startswith(f"tablero:pick:{game}:{version}:"):
                return board
            footer = json.dumps(board["embeds"], ensure_ascii=False)
            if cid.startswith("tablero:play:") and (re.search(rf"(move|jugada) {version}\b", footer)
                                                    or self.held_shows(game, version)):
                return board
        return None

    def held_shows(self, game: int, version: int) -> bool:
        """Whether the game's card waits for its mover's part to end (a step made in their
        private panel) and that panel shows the table at ``version`` instead."""
        if not self.bot.boards.held.waiting(game):
            return False
        said = re.compile(rf"(move|jugada) {version}\b")
        return any(m["flags"] & EPHEMERAL and said.search(json.dumps(m["embeds"], ensure_ascii=False))
                   for m in list(self.fake.messages.values())[-200:])

    async def new_game(self, host: dict, **options: Any) -> tuple[int, dict]:
        """``/game new``; returns (game id, lobby message)."""
        _, resp, lobby = await self.slash("game new", host, game="rey_hierofante", **options)
        assert lobby is not None and lobby["embeds"], lobby
        gid = int(lobby["embeds"][0]["title"].split("#")[-1])
        return gid, lobby
