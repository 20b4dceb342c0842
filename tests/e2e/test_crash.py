"""The real bot, in its own process against the fake Discord, killed with SIGKILL at chosen
points of a change's delivery and started again: nothing owed is lost, nothing lands twice.

Each scenario plays in a channel of its own. The bot process that delivers what one crash
left behind (its start-up drain) is the one that dies at the next scenario's point: the
crash points only count once the start-up work is over (services/faults.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from .fake_discord import NONCE_WINDOW, FakeDiscord
from .harness import FakeWorld

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60.0
# How long the bot may take to answer: generous, as a separate process on a busy machine.
WAIT = 20.0


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class BotProcess:
    """``python bot.py`` pointed at the fake through TABLERO_DISCORD_API/GATEWAY."""

    def __init__(self, fake: FakeDiscord, db: str, log: Path, crash_at: str | None = None,
                 env: dict[str, str] | None = None, sigint_ignored: bool = False) -> None:
        self.fake, self.db, self.log, self.crash_at = fake, db, log, crash_at
        self.env = env or {}  # settings of the test's own (shards, say)
        # Started as a shell without job control starts a background command: SIGINT ignored.
        self.sigint_ignored = sigint_ignored
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> BotProcess:
        """Start it and wait until it has delivered what was left and resumed every game."""
        await self.launch()
        assert self.proc is not None
        async with asyncio.timeout(START_TIMEOUT):
            while "resumed" not in self.text():
                if self.proc.returncode is not None:
                    raise AssertionError(f"the bot stopped while starting:\n{self.text()}")
                await asyncio.sleep(0.05)
        return self

    async def launch(self) -> None:
        """Start the process, without waiting for anything."""
        env = {
            **os.environ,
            "DISCORD_TOKEN": "fake-token",
            "TABLERO_DB": self.db,
            "TABLERO_DISCORD_API": self.fake.http_base,
            "TABLERO_DISCORD_GATEWAY": self.fake.gateway_url,
            "TABLERO_LOG_LEVEL": "INFO",
            "TABLERO_CRASH_AT": self.crash_at or "",
            "TABLERO_READY_WAIT": "0.05",
            # Pictures inline, as before workers existed: these tests are about the store and
            # the outbox (tests/e2e/test_hosting.py runs the bot with its picture workers).
            "TABLERO_PICTURE_WORKERS": os.environ.get("TABLERO_PICTURE_WORKERS", "0"),
            **self.env,
        }
        env.pop("TABLERO_GUILD_ID", None)
        with open(self.log, "wb") as err:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "bot.py",
                cwd=ROOT,
                env=env,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=err,
                preexec_fn=_ignore_sigint if self.sigint_ignored else None,
            )

    def text(self) -> str:
        """What the process logged so far."""
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def errors(self) -> list[str]:
        """Logged errors and tracebacks."""
        return [ln for ln in self.text().splitlines() if "ERROR" in ln or "Traceback" in ln]

    async def killed(self, timeout: float = 40.0) -> None:
        """Wait until the process killed itself at its crash point."""
        assert self.proc is not None
        await asyncio.wait_for(self.proc.wait(), timeout)
        assert self.proc.returncode == -signal.SIGKILL, (self.proc.returncode, self.text()[-3000:])

    async def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL if it lingers)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        self.proc.terminate()
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


def query(db: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Read the bot's database from outside (WAL lets us while it runs)."""
    con = sqlite3.connect(db)
    try:
        return list(con.execute(sql, params))
    finally:
        con.close()


def undelivered(db: str) -> int:
    """Outbox rows not yet delivered."""
    return query(db, "SELECT COUNT(*) FROM outbox WHERE done_at IS NULL")[0][0]


def boards(fake: FakeDiscord, channel: dict, game: int) -> list[dict]:
    """Live board messages of ``game`` (they carry its "My hand" button)."""
    return [
        m
        for m in fake.channel_messages(channel)
        if any(c.get("custom_id") == f"tablero:hand:{game}" for c in fake.components(m))
    ]


def records(fake: FakeDiscord, channel: dict, game: int) -> list[dict]:
    """Announcements of the game's start in the channel."""
    return [
        m for m in fake.channel_messages(channel) if f"#{game} " in m["content"] and not m["embeds"]
    ]


def hands(fake: FakeDiscord, user: dict, game: int) -> list[dict]:
    """Hand DMs of ``game`` sent to ``user``."""
    return [m for m in fake.dms_to(user) if f"#{game} " in m["content"] and m["embeds"]]


async def open_lobby(fake: FakeDiscord, world: FakeWorld, channel: dict, game: str) -> int:
    """alice opens a lobby of ``game`` and bob joins it; the game's number."""
    inter = await fake.slash("game new", world["alice"], channel, game=game, thread=False)
    await fake.wait_response(inter, timeout=WAIT)
    lobby = fake.response_message(inter)
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    inter = await fake.slash("game join", world["bob"], channel)
    await fake.wait_response(inter, timeout=WAIT)
    return gid


async def crash_at_start(
    fake: FakeDiscord, world: FakeWorld, db: str, channel: dict, bot: BotProcess
) -> int:
    """Open a Rattus Cartus lobby and start it; the bot dies somewhere in the start."""
    gid = await open_lobby(fake, world, channel, "rattus_cartus")
    await fake.slash("game start", world["alice"], channel)
    await bot.killed()
    return gid


def said(fake: FakeDiscord, channel: dict) -> list[dict]:
    """The channel's plain announcements (records of moves), without boards and lobbies."""
    return [m for m in fake.channel_messages(channel) if m["content"] and not m["embeds"]]


async def move_by_menu(fake: FakeDiscord, world: FakeWorld, db: str, gid: int) -> None:
    """Whoever must act picks the first option of the board's menu (two steps if grouped)."""
    board = fake.messages[
        str(query(db, "SELECT board_message_id FROM games WHERE id = ?", gid)[0][0])
    ]
    menu = next(
        c
        for c in fake.components(board)
        if c.get("custom_id", "").startswith(f"tablero:pick:{gid}:")
    )
    seat = int(menu["custom_id"].split(":")[4])
    uid = query(db, "SELECT user_id FROM seats WHERE game = ? AND seat = ?", gid, seat)[0][0]
    user = next(u for u in world.users.values() if int(u["id"]) == uid)
    value = menu["options"][0]["value"]
    inter = await fake.select(board, menu["custom_id"], user, [value])
    if value.startswith("g"):
        await fake.wait_response(inter, timeout=WAIT)
        step = fake.response_message(inter)
        assert step is not None
        menu = next(
            c for c in fake.components(step) if c.get("custom_id", "").startswith("tablero:pick:")
        )
        await fake.select(step, menu["custom_id"], user, [menu["options"][0]["value"]])


def assert_start_delivered(
    fake: FakeDiscord, world: FakeWorld, db: str, channel: dict, gid: int
) -> None:
    """Everything a game's start owes, exactly once: one record, one live board (the stored
    one), one hand DM to each player, nothing left in the outbox."""
    assert undelivered(db) == 0
    live = boards(fake, channel, gid)
    assert len(live) == 1, [m["id"] for m in live]
    stored = query(db, "SELECT board_message_id FROM games WHERE id = ?", gid)[0][0]
    assert str(stored) == live[0]["id"]
    assert len(records(fake, channel, gid)) == 1
    for name in ("alice", "bob"):
        assert len(hands(fake, world[name], gid)) == 1, name


@pytest.mark.asyncio
async def test_killed_at_each_point_of_a_start_nothing_is_lost_nothing_doubled(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    channels = ["commit", "fanout", "sent", "late", "board", "move", "lobby", "thread"]
    async with FakeWorld(fake=fake, users=["alice", "bob", "carol"], channels=channels) as world:
        db = str(tmp_path / "tablero.db")
        logs = iter(tmp_path / f"bot{i}.log" for i in range(20))
        ch = world.channels
        procs: list[BotProcess] = []

        async def bot(crash_at: str | None) -> BotProcess:
            proc = BotProcess(fake, db, next(logs), crash_at)
            procs.append(proc)
            return await proc.start()

        try:
            # 1. Killed after the start is committed, before anything is told: the hidden
            #    hands dealt at the start still reach both players, once.
            p = await bot("session.committed:1")
            g1 = await crash_at_start(fake, world, db, ch["commit"], p)
            assert undelivered(db) == 1 and not hands(fake, world["alice"], g1)
            # 2. ...mid-fan-out: the record and the board are out and marked, no hand yet.
            p = await bot("outbox.marked:2")
            assert_start_delivered(fake, world, db, ch["commit"], g1)
            g2 = await crash_at_start(fake, world, db, ch["fanout"], p)
            assert len(records(fake, ch["fanout"], g2)) == 1 and not hands(fake, world["alice"], g2)
            # 3. ...after alice's hand DM went out, before it was marked: sent again at
            #    once, Discord's nonce answers with the first message.
            p = await bot("outbox.sent:3")
            assert_start_delivered(fake, world, db, ch["fanout"], g2)
            g3 = await crash_at_start(fake, world, db, ch["sent"], p)
            assert len(hands(fake, world["alice"], g3)) == 1 and undelivered(db) > 0
            # 4. ...after a spectator's DM went out, restarted once Discord forgot the nonce:
            #    the DM channel's history shows it went out.
            p = await bot("outbox.sent:5")
            assert_start_delivered(fake, world, db, ch["sent"], g3)
            g4 = await open_lobby(fake, world, ch["late"], "rattus_cartus")
            inter = await fake.slash("game watch", world["carol"], ch["late"])
            await fake.wait_response(inter, timeout=WAIT)
            await fake.slash("game start", world["alice"], ch["late"])
            await p.killed()
            assert len(fake.dms_to(world["carol"])) == 1
            fake.clock.advance(NONCE_WINDOW + 1)
            # 5. ...after the board was posted, before it was stored: one live board still.
            p = await bot("board.posted:1")
            assert_start_delivered(fake, world, db, ch["late"], g4)
            g5 = await crash_at_start(fake, world, db, ch["board"], p)
            assert len(boards(fake, ch["board"], g5)) == 1
            fake.clock.advance(NONCE_WINDOW + 1)  # the board is found in the channel, not by nonce
            # 6. ...after a move made on the card (the card's edit answered it) posted its turn
            #    message, before that was marked.
            p = await bot("outbox.sent:4")
            assert_start_delivered(fake, world, db, ch["board"], g5)
            g6 = await open_lobby(fake, world, ch["move"], "rey_hierofante")
            inter = await fake.slash("game start", world["alice"], ch["move"])
            await fake.wait_response(inter, timeout=WAIT)
            await fake.wait_until(
                lambda: undelivered(db) == 0 and len(said(fake, ch["move"])) == 1, timeout=WAIT
            )
            await move_by_menu(fake, world, db, g6)
            await p.killed()
            assert len(said(fake, ch["move"])) == 2
            p = await bot("lobby.posted:1")
            assert undelivered(db) == 0
            assert len(said(fake, ch["move"])) == 2
            live = boards(fake, ch["move"], g6)
            assert len(live) == 1 and live[0]["embeds"][0]["footer"]["text"].splitlines()[0].endswith(" 1")
            assert len(fake.dms_to(world["carol"])) == 1
            # 7. ...after a lobby was posted, before it was stored: it is found, not doubled.
            inter = await fake.slash("game new", world["alice"], ch["lobby"], game="ragami", thread=False)
            await p.killed()
            lobby = fake.response_message(inter)
            assert lobby is not None
            g7 = int(lobby["embeds"][0]["title"].split("#")[-1])
            assert query(db, "SELECT board_message_id FROM games WHERE id = ?", g7) == [(None,)]
            p = await bot("thread.created:1")
            lobbies = [
                m
                for m in fake.channel_messages(ch["lobby"])
                if any(c.get("custom_id", "").endswith(f":{g7}") for c in fake.components(m))
            ]
            assert [m["id"] for m in lobbies] == [lobby["id"]]
            stored = query(db, "SELECT board_message_id FROM games WHERE id = ?", g7)[0][0]
            assert str(stored) == lobby["id"]
            # 8. ...after a thread was opened for a new game, before the game was created in
            #    it: the empty thread is removed at the next start.
            await fake.slash("game new", world["alice"], ch["thread"], game="ragami", thread=True)
            await p.killed()
            threads = [
                c for c in fake.channels.values() if c.get("parent_id") == ch["thread"]["id"]
            ]
            assert len(threads) == 1 and query(db, "SELECT COUNT(*) FROM pending_threads") == [(1,)]
            p = await bot(None)
            assert not [
                c for c in fake.channels.values() if c.get("parent_id") == ch["thread"]["id"]
            ]
            assert query(db, "SELECT COUNT(*) FROM pending_threads") == [(0,)]
            await p.stop()
            for proc in procs:
                assert not proc.errors(), proc.text()[-3000:]
            figures = [
                re.search(r"outbox: (\d+) changes left undelivered, (\d+) messages", proc.text())
                for proc in procs
            ]
            changes = sum(int(m[1]) for m in figures if m)
            messages = sum(int(m[2]) for m in figures if m)
            histories = sum(
                1 for r in fake.requests if r.method == "GET" and r.path.endswith("/messages")
            )
            print(
                f"\ncrash tests: {len(procs)} bot processes, {len(procs) - 1} killed with SIGKILL; "
                f"after the restarts {changes} changes and {messages} messages delivered; "
                f"{fake.nonce_repeats} sends answered by their nonce, {histories} history reads; "
                f"{len(fake.messages)} messages live in the end"
            )
        finally:
            for proc in procs:
                await proc.stop()
