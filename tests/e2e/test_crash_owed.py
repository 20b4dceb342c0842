"""The real bot killed (SIGKILL) while it delivers a turn-clock reminder or an Ankh-Morpork
reaction question, then started again: the player gets the message once, never twice,
never not at all.

Each scenario prepares its game with a bot that stops normally, then changes the stored game
the way days passing would (a deadline come due, the seed of a game whose first move is
still to come), so the crashing bot meets the moment chosen by the test.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from cogs.ankh_morpork import REACTIONS
from rules.registry import engine

from .fake_discord import NONCE_WINDOW, FakeDiscord
from .harness import FakeWorld
from .test_crash import WAIT, BotProcess, query, undelivered

AM = engine("ankh_morpork")
# With this seed and the built-in player's choices, Carol answers Alice's assassin with
# Gaspode, and later saves a minion with the Fresh Start Club (see test_ankh_morpork.py).
AM_SEED = 13


def write(db: str, sql: str, *params: object) -> None:
    """Change the bot's database from outside, while no bot runs."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()


async def open_lobby(
    fake: FakeDiscord, world: FakeWorld, channel: dict, game: str, **options: str
) -> int:
    """alice opens a lobby of ``game`` (with ``options`` of /game new) and bob joins it."""
    inter = await fake.slash("game new", world["alice"], channel, game=game, **options, thread=False)
    await fake.wait_response(inter, timeout=WAIT)
    lobby = fake.response_message(inter)
    assert lobby is not None
    gid = int(lobby["embeds"][0]["title"].split("#")[-1])
    inter = await fake.slash("game join", world["bob"], channel)
    await fake.wait_response(inter, timeout=WAIT)
    return gid


def reminders(fake: FakeDiscord, user: dict, game: int) -> list[dict]:
    """Turn-clock reminders of ``game`` sent to ``user`` by DM."""
    return [m for m in fake.dms_to(user) if m["content"].startswith("⏳") and f"#{game} " in m["content"]]


def questions(fake: FakeDiscord, user: dict, game: int, version: int, seat: int) -> list[dict]:
    """DMs to ``user`` asking ``seat`` to answer at ``version`` of ``game``."""
    heads = (f"tablero:act:{game}:{version}:{seat}:", f"tablero:acts:{game}:{version}:{seat}:")
    return [
        m
        for m in fake.dms_to(user)
        if any(c.get("custom_id", "").startswith(heads) for c in fake.components(m))
    ]


async def started(fake: FakeDiscord, world: FakeWorld, db: str, channel: dict, gid: int) -> None:
    """Start the lobby ``gid`` in ``channel`` and wait until everything it owes went out."""
    inter = await fake.slash("game start", world["alice"], channel)
    await fake.wait_response(inter, timeout=WAIT)
    await fake.wait_until(
        lambda: undelivered(db) == 0
        and query(db, "SELECT status FROM games WHERE id = ?", gid) == [("active",)],
        timeout=WAIT,
    )


@pytest.mark.asyncio
async def test_a_reminder_cut_by_a_crash_reaches_the_player_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with FakeWorld(fake=fake, users=["alice", "bob"], channels=["late", "busy"]) as world:
        db = str(tmp_path / "tablero.db")
        logs = iter(tmp_path / f"bot{i}.log" for i in range(10))
        procs: list[BotProcess] = []

        async def bot(crash_at: str | None) -> BotProcess:
            proc = BotProcess(fake, db, next(logs), crash_at)
            procs.append(proc)
            return await proc.start()

        async def nudge(p: BotProcess, gid: int) -> None:
            """Move in game ``gid`` until the clock is woken (a move that starts a new wait
            pokes it) and the bot dies at its crash point."""
            channel = world.channels["busy"]

            def dead() -> bool:
                return p.proc is not None and p.proc.returncode is not None

            for _ in range(20):
                if dead():
                    return
                (version,) = query(db, "SELECT version FROM games WHERE id = ?", gid)[0]
                (user,) = query(db, "SELECT user_id FROM deadlines WHERE game = ?", gid)[0]
                moving = next(u for u in world.users.values() if int(u["id"]) == user)
                try:
                    await fake.slash("game move", moving, channel, choice=f"#0@{version}")
                except RuntimeError:
                    # the bot died at its crash point just after the previous move showed
                    await fake.wait_until(dead, timeout=WAIT)
                    return
                await fake.wait_until(
                    lambda v=version: dead()
                    or query(db, "SELECT version FROM games WHERE id = ?", gid)[0][0] > v,
                    timeout=WAIT,
                )

        try:
            p = await bot(None)
            games = {}
            for name in ("late", "busy"):
                channel = world.channels[name]
                gid = await open_lobby(fake, world, channel, "rey_hierofante", clock="12h")
                await started(fake, world, db, channel, gid)
                games[name] = gid
            late = games["late"]
            (seat, user), = query(db, "SELECT seat, user_id FROM deadlines WHERE game = ?", late)
            waiting = next(u for u in world.users.values() if int(u["id"]) == user)
            await p.stop()
            assert not reminders(fake, waiting, late)

            # Half the clock has gone by: the first reminder is due. The bot that will die
            # starts first, so that its crash point counts (start-up work is not armed).
            p = await bot("outbox.sent.remind:1")
            now = time.time()
            write(
                db,
                "UPDATE deadlines SET started_at = ?, due_at = ?, next_at = ?, reminders = 0"
                " WHERE game = ? AND seat = ?",
                now - 6 * 3600, now + 6 * 3600, now - 1, late, seat,
            )
            # Moves in the other game wake the clock, which finds the reminder due.
            await nudge(p, games["busy"])
            await p.killed()
            # It went out, and the bot died before noting it.
            assert len(reminders(fake, waiting, late)) == 1
            assert undelivered(db) > 0

            # Started again within Discord's nonce window: the second send is the first one.
            p = await bot(None)
            assert undelivered(db) == 0
            assert len(reminders(fake, waiting, late)) == 1
            assert query(db, "SELECT reminders FROM deadlines WHERE game = ?", late) == [(1,)]
            await p.stop()

            # The second reminder, cut the same way, delivered after Discord forgot the nonce:
            # the DM channel's history shows it went out.
            p = await bot("outbox.sent.remind:1")
            now = time.time()
            write(
                db,
                "UPDATE deadlines SET started_at = ?, due_at = ?, next_at = ?, reminders = 1"
                " WHERE game = ? AND seat = ?",
                now - 11 * 3600, now + 3600, now - 1, late, seat,
            )
            await nudge(p, games["busy"])
            await p.killed()
            assert len(reminders(fake, waiting, late)) == 2
            fake.clock.advance(NONCE_WINDOW + 1)
            p = await bot(None)
            assert undelivered(db) == 0
            assert len(reminders(fake, waiting, late)) == 2
            await p.stop()
            for proc in procs:
                assert not proc.errors(), proc.text()[-3000:]
        finally:
            for proc in procs:
                await proc.stop()


@pytest.mark.asyncio
async def test_a_reaction_question_cut_by_a_crash_is_asked_once(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    names = ("alice", "bob", "carol")
    async with FakeWorld(fake=fake, users=list(names), channels=["city"]) as world:
        db = str(tmp_path / "tablero.db")
        logs = iter(tmp_path / f"bot{i}.log" for i in range(10))
        procs: list[BotProcess] = []

        async def bot(crash_at: str | None) -> BotProcess:
            proc = BotProcess(fake, db, next(logs), crash_at)
            procs.append(proc)
            return await proc.start()

        channel = world.channels["city"]
        try:
            p = await bot(None)
            gid = await open_lobby(fake, world, channel, "ankh_morpork")
            inter = await fake.slash("game join", world["carol"], channel)
            await fake.wait_response(inter, timeout=WAIT)
            await started(fake, world, db, channel, gid)
            await p.stop()
            # The game whose first move is still to come becomes the seeded one the test knows.
            (options,) = query(db, "SELECT options FROM games WHERE id = ?", gid)[0]
            state = AM.setup(3, json.loads(options), AM_SEED)
            write(db, "UPDATE games SET seed = ?, state = ? WHERE id = ?", AM_SEED,
                  AM.dump_state(state), gid)
            users = {
                seat: next(u for u in world.users.values() if int(u["id"]) == uid)
                for seat, uid in query(db, "SELECT seat, user_id FROM seats WHERE game = ?", gid)
            }

            def current():
                (data,) = query(db, "SELECT state FROM games WHERE id = ?", gid)[0]
                return AM.load_state(data)

            async def move(seat: int, action) -> None:
                state = current()
                index = AM.legal_actions(state, seat).index(action)
                await fake.slash("game move", users[seat], channel, choice=f"#{index}@{state.version}")
                await fake.wait_until(lambda: current().version > state.version, timeout=WAIT)

            def opens_question(state) -> tuple[int, object] | None:
                """The move of the one seat to act now, if it asks another seat a question."""
                (seat,) = AM.pending(state)
                action = AM.ai_action(state, seat)
                after, _ = AM.apply(state, seat, action)
                asked = [s for s, prompt in AM.pending(after).items()
                         if s != seat and prompt.kind in REACTIONS]
                return (seat, action) if asked else None

            p = await bot(None)
            crashes = iter(["outbox.sent.react:1", "session.committed:1"])
            asked = 0
            for _ in range(300):
                state = current()
                if state.finished or asked == 2:
                    break
                (seat,) = AM.pending(state)
                if AM.pending(state)[seat].kind in REACTIONS:
                    # The question is open: it was asked once, and is answered from its DM.
                    assert len(questions(fake, users[seat], gid, state.version, seat)) == 1
                    await move(seat, AM.ai_action(state, seat))
                    asked += 1
                    continue
                found = opens_question(state)
                if found is None:
                    await move(seat, AM.ai_action(state, seat))
                    continue
                # This move asks another seat a question: the bot dies delivering it.
                await p.stop()
                crash = next(crashes)
                p = await bot(crash)
                before = current().version
                mover, action = found
                index = AM.legal_actions(state, mover).index(action)
                await fake.slash("game move", users[mover], channel, choice=f"#{index}@{before}")
                await p.killed()
                after = current()
                assert after.version == before + 1  # the move itself was committed
                (target,) = [s for s, pr in AM.pending(after).items() if pr.kind in REACTIONS]
                sent = questions(fake, users[target], gid, after.version, target)
                assert len(sent) == (1 if crash.startswith("outbox.sent") else 0)
                p = await bot(None)
                assert undelivered(db) == 0
            assert asked == 2, asked
            await p.stop()
            for proc in procs:
                assert not proc.errors(), proc.text()[-3000:]
        finally:
            for proc in procs:
                await proc.stop()
