"""The real bot as two shard processes on one database, against the fake Discord server.

Each process identifies with its shard ([0, 2] and [1, 2]) and receives only the events of
its guilds (guild_id >> 22 % 2), DMs going to shard 0. Games are played in a guild of each
shard; a move sent at once from a DM (shard 0's process) and from the channel (shard 1's)
lands once, the other answered as stale; the work done once is held by one process each.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from .fake_discord import FakeDiscord
from .test_crash import BotProcess, query, said, undelivered

WAIT = 30.0
# The move that lost the race is refused: as stale when both were checked before either
# committed (the commit's version check), or, checked after the other landed, by the shared
# checks' order (game over, seat not pending, stale version): not pending any more.
REFUSED = re.compile(r"moved on since you chose|changed while you were choosing|nothing to decide")


class ShardProcess(BotProcess):
    """``python bot.py`` holding some of the shards, pointed at the fake."""

    def __init__(self, fake: FakeDiscord, db: str, log: Path, shards: int, ids: str,
                 crash_at: str | None = None) -> None:
        super().__init__(fake, db, log, crash_at, env={
            "TABLERO_SHARDS": str(shards),
            "TABLERO_SHARD_IDS": ids,
            "TABLERO_LEASE_SECONDS": "2",
        })
        self.shards, self.ids = shards, ids

    async def start(self) -> ShardProcess:
        """Start it; ready() waits for its gateway (the resume is the lease holder's)."""
        await self.launch()
        return self

    async def ready(self) -> None:
        """Wait until its shards are connected."""
        async with asyncio.timeout(60):
            while "ready as" not in self.text():
                if self.proc is not None and self.proc.returncode is not None:
                    raise AssertionError(f"the bot stopped while starting:\n{self.text()}")
                await asyncio.sleep(0.05)


def board_of(fake: FakeDiscord, db: str, gid: int) -> dict:
    return fake.messages[str(query(db, "SELECT board_message_id FROM games WHERE id = ?", gid)[0][0])]


def menu_of(fake: FakeDiscord, board: dict, gid: int) -> dict:
    return next(c for c in fake.components(board)
                if c.get("custom_id", "").startswith(f"tablero:pick:{gid}:"))


def version(db: str, gid: int) -> int:
    return query(db, "SELECT version FROM games WHERE id = ?", gid)[0][0]


def user_of(fake: FakeDiscord, db: str, gid: int, seat: int) -> dict:
    uid = query(db, "SELECT user_id FROM seats WHERE game = ? AND seat = ?", gid, seat)[0][0]
    return fake.users[str(uid)]


async def new_game(fake: FakeDiscord, channel: dict, alice: dict, bob: dict) -> int:
    """alice opens a Rey y Hierofante game, bob joins, alice starts it; its number."""
    inter = await fake.slash("game new", alice, channel, game="rey_hierofante", thread=False)
    await fake.wait_response(inter, timeout=WAIT)
    lobby = fake.response_message(inter)
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    inter = await fake.slash("game join", bob, channel)
    await fake.wait_response(inter, timeout=WAIT)
    inter = await fake.slash("game start", alice, channel)
    await fake.wait_response(inter, timeout=WAIT)
    return gid


async def move(fake: FakeDiscord, db: str, gid: int) -> None:
    """Whoever must act picks the first move of the board's menu (a second step if grouped)."""
    before = version(db, gid)
    board = board_of(fake, db, gid)
    menu = menu_of(fake, board, gid)
    user = user_of(fake, db, gid, int(menu["custom_id"].split(":")[4]))
    value = menu["options"][0]["value"]
    inter = await fake.select(board, menu["custom_id"], user, [value])
    if value.startswith("g"):
        await fake.wait_response(inter, timeout=WAIT)
        step = fake.response_message(inter)
        assert step is not None
        sub = next(c for c in fake.components(step) if c.get("custom_id", "").startswith("tablero:pick:"))
        await fake.select(step, sub["custom_id"], user, [sub["options"][0]["value"]])
    await fake.wait_until(lambda: version(db, gid) > before and undelivered(db) == 0
                          and menu_of(fake, board_of(fake, db, gid), gid)["custom_id"] != menu["custom_id"],
                          timeout=WAIT)


@pytest.mark.asyncio
async def test_two_shard_processes_play_games_in_guilds_of_both_shards(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    guilds = [fake.add_guild_on_shard(n, 2, f"Shard {n}", ["games"], [alice, bob]) for n in (0, 1)]
    assert [fake.shard_of(g["id"], 2) for g in guilds] == [0, 1]
    db = str(tmp_path / "tablero.db")
    # The first creates the database; the second starts once it is there.
    procs = [ShardProcess(fake, db, tmp_path / "shard0.log", 2, "0")]
    try:
        await (await procs[0].start()).ready()
        procs.append(await ShardProcess(fake, db, tmp_path / "shard1.log", 2, "1").start())
        await procs[1].ready()
        await fake.wait_shards_ready(WAIT)
        assert sorted(d["shard"] for d in fake.identifies) == [[0, 2], [1, 2]]
        for proc in procs:
            assert "in 1 servers" in proc.text(), proc.text()[-2000:]

        channels = [g["channels"][0] for g in guilds]
        games = [await new_game(fake, ch, alice, bob) for ch in channels]
        await fake.wait_until(lambda: undelivered(db) == 0, timeout=WAIT)
        # Moves in both guilds, in turn: each handled by the process of its guild's shard.
        for _ in range(3):
            for gid in games:
                await move(fake, db, gid)
        sent = [(fake.interactions[i].get("guild_id"), fake.shard_of(fake.interactions[i].get("guild_id")))
                for i in fake.interactions]
        assert {s for g, s in sent if g == guilds[0]["id"]} == {0}
        assert {s for g, s in sent if g == guilds[1]["id"]} == {1}

        # A move sent at once from a DM (shard 0's process) and from the channel (shard 1's).
        gid = games[1]
        at = version(db, gid)
        board = board_of(fake, db, gid)
        menu = menu_of(fake, board, gid)
        user = user_of(fake, db, gid, int(menu["custom_id"].split(":")[4]))
        if menu["options"][0]["value"].startswith("g"):
            # A grouped menu: its second step (an ephemeral menu of moves) is what both send.
            inter = await fake.select(board, menu["custom_id"], user, [menu["options"][0]["value"]])
            await fake.wait_response(inter, timeout=WAIT)
            board = fake.response_message(inter)
            assert board is not None
            menu = next(c for c in fake.components(board) if c.get("custom_id", "").startswith("tablero:pick:"))
        plain = [o["value"] for o in menu["options"]]
        dm_inter, channel_inter = await asyncio.gather(
            fake.select_from_dm(board, menu["custom_id"], user, [plain[0]]),
            fake.select(board, menu["custom_id"], user, [plain[-1]]),
        )
        for inter in (dm_inter, channel_inter):
            await fake.wait_response(inter, timeout=WAIT)

        def answered(inter: dict) -> str:
            return " ".join(m.get("content") or "" for m in
                            [fake.response_message(inter), *fake.followups(inter)] if m is not None)

        # Both choices are acknowledged at once: the move and the refusal come after.
        await fake.wait_until(lambda: version(db, gid) > at and undelivered(db) == 0
                              and any(REFUSED.search(answered(i)) for i in (dm_inter, channel_inter)), timeout=WAIT)
        assert version(db, gid) == at + 1
        assert [r[0] for r in query(db, "SELECT seq FROM actions WHERE game = ? AND seq > ?", gid, at)] == [at + 1]
        texts = [answered(i) for i in (dm_inter, channel_inter)]
        assert sum(bool(REFUSED.search(t)) for t in texts) == 1, texts
        # The games go on after the race, from both guilds.
        for gid in games:
            await move(fake, db, gid)

        # Each piece of work done once has one holder among the two processes.
        leases = dict(query(db, "SELECT name, owner FROM leases"))
        assert set(leases) == {"clock", "resume", "tournaments", "threads"}
        taken = [m.groups() for p in procs for m in re.finditer(r"lease (\w+) taken by (\S+)", p.text())]
        assert sorted(name for name, _ in taken) == sorted(leases), taken
        assert set(taken) == set(leases.items())
        holder = next(p for p in procs if "taken by" in p.text())
        assert holder is procs[0]  # the first to start took them all

        # Shard 1's process dies (SIGKILL) just after committing a move, before telling
        # anyone: the holder of "resume" delivers what it left, once.
        await procs[1].stop()
        procs.append(await ShardProcess(fake, db, tmp_path / "shard1b.log", 2, "1",
                                        crash_at="session.committed:1").start())
        await procs[-1].ready()
        await fake.wait_shards_ready(WAIT)
        gid = games[1]
        channel = channels[1]
        records = len(said(fake, channel))
        at = version(db, gid)
        board = board_of(fake, db, gid)
        menu = menu_of(fake, board, gid)
        user = user_of(fake, db, gid, int(menu["custom_id"].split(":")[4]))
        first = menu["options"][0]["value"]
        inter = await fake.select(board, menu["custom_id"], user, [first])
        if first.startswith("g"):
            await fake.wait_response(inter, timeout=WAIT)
            step = fake.response_message(inter)
            assert step is not None
            sub = next(c for c in fake.components(step) if c.get("custom_id", "").startswith("tablero:pick:"))
            await fake.select(step, sub["custom_id"], user, [sub["options"][0]["value"]])
        await procs[-1].killed()
        assert version(db, gid) == at + 1 and undelivered(db) == 1
        await fake.wait_until(lambda: undelivered(db) == 0, timeout=WAIT)
        after = menu_of(fake, board_of(fake, db, gid), gid)["custom_id"].split(":")
        assert after[3] == str(at + 1)
        # Told once: a message if the turn passed to the other player; a step of the same
        # player's turn (a tile's effect to decide) folds into the card.
        passed = after[4] != menu["custom_id"].split(":")[4]
        assert len(said(fake, channel)) == records + (1 if passed else 0)
        assert "outbox: 1 changes left undelivered" in holder.text()

        # The holder stops cleanly: it gives its leases up, and the other process (shard 1's,
        # started again) takes the work over at its next renewal.
        other = await ShardProcess(fake, db, tmp_path / "shard1c.log", 2, "1").start()
        procs.append(other)
        await other.ready()
        await holder.stop()
        await fake.wait_until(lambda: other.text().count("taken by") == 4
                              and "resumed 2 open games" in other.text(), timeout=WAIT)
        assert len(set(dict(query(db, "SELECT name, owner FROM leases")).values())) == 1
        await move(fake, db, games[1])  # shard 1 is served again
        await other.stop()
        for p in procs:
            assert not p.errors(), p.text()[-3000:]
        assert query(db, "SELECT COUNT(*) FROM leases") == [(0,)]
    finally:
        for p in procs:
            await p.stop()
