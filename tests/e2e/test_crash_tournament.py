"""The real bot killed (SIGKILL) while a tournament tells its channel what happened: a round
whose table thread was opened but not yet given its game, a podium posted but not yet noted.
After the restart the channel reads each announcement once, the table plays in one thread
holding its game, and no empty thread is left behind."""

from __future__ import annotations

from pathlib import Path

from .fake_discord import EPHEMERAL, NONCE_WINDOW, FakeDiscord
from .harness import FakeWorld
from .test_crash import WAIT, BotProcess, query


def owed_left(db: str) -> int:
    """Tournament posts noted but not yet made."""
    return query(db, "SELECT COUNT(*) FROM tournament_owed WHERE done_at IS NULL")[0][0]


def posts(fake: FakeDiscord, channel: dict, start: str) -> list[dict]:
    """The channel's public messages that begin with ``start``."""
    return [
        m for m in fake.channel_messages(channel)
        if not m.get("flags", 0) & EPHEMERAL and (m.get("content") or "").startswith(start)
    ]


def threads_of(fake: FakeDiscord, channel: dict) -> list[dict]:
    """Threads opened under ``channel`` and still there."""
    return [c for c in fake.channels.values() if c.get("parent_id") == channel["id"]]


async def test_a_round_and_a_podium_cut_by_crashes_are_each_told_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with FakeWorld(fake=fake, users=["alice", "bob"], channels=["league"],
                         owner="alice") as world:
        db = str(tmp_path / "tablero.db")
        logs = iter(tmp_path / f"bot{i}.log" for i in range(10))
        procs: list[BotProcess] = []
        channel = world.channels["league"]

        async def bot(crash_at: str | None) -> BotProcess:
            proc = BotProcess(fake, db, next(logs), crash_at)
            procs.append(proc)
            return await proc.start()

        try:
            # Sign-up first (start-up work and commands before the crash point are not armed)
            p = await bot("tournament.thread")
            inter = await fake.slash("tournament create", world["alice"], channel,
                                     name="Copa", game="rey_hierofante", format="swiss", rounds=1)
            await fake.wait_response(inter, timeout=WAIT)
            signup = fake.response_message(inter)
            assert signup is not None
            tid = int(signup["embeds"][0]["title"].split("#")[-1])
            join = next(c["custom_id"] for c in fake.components(signup)
                        if ":join:" in c.get("custom_id", ""))
            for who in ("alice", "bob"):
                await fake.wait_response(await fake.click(signup, join, world[who]), timeout=WAIT)

            # 1. The round is stored, its table's thread opened, and the bot dies before the
            #    table's game exists: nothing was said yet.
            await fake.slash("tournament start", world["alice"], channel)
            await p.killed()
            assert len(threads_of(fake, channel)) == 1
            assert query(db, "SELECT status, game FROM matches WHERE tournament = ?", tid) == [
                ("pending", None)]
            assert owed_left(db) == 1 and not posts(fake, channel, "🏆")
            # The next start removes the empty thread, opens the table in a new one with
            # its game, and then (only then) tells the round, once.
            p = await bot(None)
            await fake.wait_until(lambda: owed_left(db) == 0, timeout=WAIT)
            (status, game), = query(db, "SELECT status, game FROM matches WHERE tournament = ?", tid)
            assert status == "playing" and game is not None
            (thread_id,), = query(db, "SELECT channel_id FROM games WHERE id = ?", game)
            live = threads_of(fake, channel)
            assert [c["id"] for c in live] == [str(thread_id)]
            assert fake.channel_messages(live[0]), "the table's thread holds its game"
            rounds = posts(fake, channel, "🏆 **Copa**: round 1")
            assert len(rounds) == 1 and f"<#{thread_id}>" in rounds[0]["content"]
            assert query(db, "SELECT COUNT(*) FROM pending_threads") == [(0,)]
            await p.stop()

            # 2. The organiser awards the table: the result and the podium go out, and the
            #    bot dies before noting the podium. Restarted after Discord forgot the
            #    nonce, it finds the podium in the channel and does not post it again.
            p = await bot("tournament.sent.podium")
            before = len(fake.channel_messages(channel))
            alice, bob = world["alice"]["id"], world["bob"]["id"]
            await fake.slash("tournament award", world["alice"], channel, table=1,
                             ranking=f"<@{bob}> <@{alice}>")
            await p.killed()
            podiums = [m for m in fake.channel_messages(channel)[before:]
                       if f"<@{bob}>" in (m.get("content") or "") and "🥇" in m["content"]]
            assert len(podiums) == 1 and owed_left(db) == 1
            fake.clock.advance(NONCE_WINDOW + 1)
            p = await bot(None)
            await fake.wait_until(lambda: owed_left(db) == 0, timeout=WAIT)
            after = [m for m in fake.channel_messages(channel)[before:]
                     if "🥇" in (m.get("content") or "")]
            assert [m["id"] for m in after] == [podiums[0]["id"]]
            results = [m for m in fake.channel_messages(channel)[before:]
                       if "1." in (m.get("content") or "") and "2." in m["content"]
                       and "🥇" not in m["content"]]
            assert len(results) == 1
            await p.stop()
            assert query(db, "SELECT status FROM tournaments WHERE id = ?", tid) == [("finished",)]
            for proc in procs:
                assert not proc.errors(), proc.text()[-3000:]
        finally:
            for proc in procs:
                await proc.stop()
