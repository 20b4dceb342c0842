"""A start that holds: a gateway event discord.py cannot read is skipped, a failing step of the
start is tried again, and a step that keeps failing stops the bot instead of leaving it half
started."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

import bot as bot_module

from .harness import FakeWorld
from .table import Table, make_bot


async def test_events_discord_py_cannot_read_are_skipped_and_the_bot_goes_on(
    fake, db, caplog: pytest.LogCaptureFixture
) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(1))
        await t.start()
        guild = world.guild["id"]
        with caplog.at_level(logging.ERROR, logger="tablero.gateway"):
            # Malformed payloads of events the bot does read: each would raise inside
            # discord.py's parser, which runs in the connection loop.
            await fake.dispatch("MESSAGE_CREATE", {"id": "x", "channel_id": None, "content": "secret words"})
            await fake.dispatch("GUILD_ROLE_UPDATE", {"guild_id": guild, "role": "not a role"})
            await fake.dispatch("CHANNEL_UPDATE", {"guild_id": guild})
            gid, lobby = await t.new_game(world["alice"])
        assert lobby is not None and gid > 0  # the connection lived on: a command is answered
        assert not t.world.task.done()
        skipped = [r for r in caplog.records if getattr(r, "event", None) == "bad_gateway_event"]
        assert {r.gateway_event for r in skipped} >= {"MESSAGE_CREATE", "GUILD_ROLE_UPDATE"}  # type: ignore[attr-defined]
        # what users wrote is never logged
        assert not any("secret words" in r.getMessage() for r in caplog.records)


async def test_a_start_step_that_fails_once_is_tried_again(
    fake, db, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(bot_module, "STARTUP_PAUSE", 0.01)
    async with FakeWorld(users=["alice", "bob"], fake=fake) as world:
        t = Table(world, db, random.Random(2))
        await t.start()
        gid, _ = await t.new_game(world["alice"])
        await world.stop()
        b = make_bot(db)
        fails = [1]
        real_drain = None

        async def drain(*args, **kwargs):  # type: ignore[no-untyped-def]
            if fails:
                fails.pop()
                raise OSError("the database was not there yet")
            assert real_drain is not None
            return await real_drain(*args, **kwargs)

        async def setup_then_break() -> None:
            nonlocal real_drain
            await type(b).setup_hook(b)
            real_drain = b.outbox.drain
            monkeypatch.setattr(b.outbox, "drain", drain)

        monkeypatch.setattr(b, "setup_hook", setup_then_break)
        with caplog.at_level(logging.INFO):
            await world.start(b)
            await fake.wait_until(lambda: any("resumed" in r.getMessage() for r in caplog.records)
                                  or None, timeout=10)
        assert not fails  # it failed once...
        assert b.startup_failed is None and not world.task.done()  # ...and the bot went on
        failures = [r for r in caplog.records if getattr(r, "event", None) == "startup_failed"]
        assert len(failures) == 1
        _, _, answer = await t.slash("game status", world["alice"])
        assert answer is not None and str(gid) in str(answer)


async def test_a_start_step_that_keeps_failing_stops_the_bot_with_a_clear_error(
    fake, db, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(bot_module, "STARTUP_PAUSE", 0.01)
    async with FakeWorld(users=["alice"], fake=fake) as world:
        b = make_bot(db)

        async def setup_then_break() -> None:
            await type(b).setup_hook(b)

            async def drain(*args, **kwargs):  # type: ignore[no-untyped-def]
                raise OSError("the database is gone")

            monkeypatch.setattr(b.outbox, "drain", drain)

        monkeypatch.setattr(b, "setup_hook", setup_then_break)
        with caplog.at_level(logging.INFO):
            task = await world.start(b)
            await asyncio.wait_for(task, 15)  # the bot ends by itself
        assert b.startup_failed == "resuming games"
        assert b.is_closed()
        assert any(r.levelno == logging.CRITICAL and "resuming games" in r.getMessage() for r in caplog.records)
        world.bot, world.task = None, None
