"""Helpers for end-to-end tests: run a discord.py bot against FakeDiscord and fail on logged errors.

Bots are built by the tests (or by the project's own factory) and handed in; nothing here
constructs one, so the harness works for any ``discord.Client`` subclass.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

import discord

from .fake_discord import FakeDiscord

# discord.py warns once per process that voice is unavailable; the project has no voice.
# It also warns on every 429 it retries: under the fake's rate limits that is Discord
# behaving as it does, not a fault (tests count them in ``fake.rate_limited``).
IGNORED_LOG_MESSAGES = ("voice will NOT be supported", "We are being rate limited", "Global rate limit has been hit")


class DiscordLogCollector(logging.Handler):
    """Collects WARNING+ records of the given loggers; a test using it fails if any were logged."""

    def __init__(self, loggers: Iterable[str] = ("discord",), level: int = logging.WARNING) -> None:
        super().__init__(level)
        self.logger_names = tuple(loggers)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep a record unless it is a known harmless warning."""
        if not any(text in record.getMessage() for text in IGNORED_LOG_MESSAGES):
            self.records.append(record)

    def __enter__(self) -> DiscordLogCollector:
        for name in self.logger_names:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        for name in self.logger_names:
            logging.getLogger(name).removeHandler(self)

    def __len__(self) -> int:
        return len(self.records)

    def messages(self) -> list[str]:
        """Each record as text, with the exception that came with it (if any)."""
        out = []
        for record in self.records:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                exc = record.exc_info[1]
                cause = exc.__cause__ or exc
                text += f" [{type(cause).__name__}: {cause}]"
            out.append(text)
        return out

    def clear(self) -> None:
        """Forget what was collected (after a test has checked an expected error)."""
        self.records.clear()

    async def wait_for(self, text: str, timeout: float = 5.0) -> logging.LogRecord:
        """Wait until a record whose message or exception mentions text is logged; returns it."""
        async with asyncio.timeout(timeout):
            while True:
                for record, message in zip(self.records, self.messages(), strict=True):
                    if text in message:
                        return record
                await asyncio.sleep(0.005)

    def assert_clean(self) -> None:
        """Fail with every collected message if anything was logged."""
        assert not self.records, "discord.py logged warnings/errors:\n" + "\n".join(self.messages())


# The tasks discord.py runs component callbacks and slash commands in.
CALLBACK_TASKS = ("discord-ui-", "CommandTree-invoker")


async def handled(fake: FakeDiscord, timeout: float = 20.0) -> None:
    """Wait until the bot running in this process has finished with every interaction it
    received. A move made with a component is acknowledged before its work, which goes on
    after the answer: a test reading the game next waits for this."""
    me = asyncio.current_task()

    def idle() -> bool:
        return not any(task is not me and not task.done() and task.get_name().startswith(CALLBACK_TASKS)
                       for task in asyncio.all_tasks())

    await fake.wait_until(idle, timeout=timeout)


async def start_bot(fake: FakeDiscord, bot: discord.Client, *, token: str = "fake-token",
                    timeout: float = 10.0, guild_ready_timeout: float | None = 0.05) -> asyncio.Task[None]:
    """Start bot against the fake and wait for it to be ready; returns the task running bot.start.

    guild_ready_timeout: discord.py waits this long after the last GUILD_CREATE before READY
    (2 s by default); tests shorten it unless None is passed.  The fake stops the bot in its
    own ``stop`` if the test did not.
    """
    if not fake.port:
        raise RuntimeError("start the fake first")
    fake.point_discord_py_here()
    if guild_ready_timeout is not None:
        bot._connection.guild_ready_timeout = guild_ready_timeout
    task = asyncio.create_task(bot.start(token), name=f"bot {type(bot).__name__}")

    async def cleanup() -> None:
        if not task.done():
            await stop_bot(bot, task)

    fake.add_cleanup(cleanup)
    try:
        async with asyncio.timeout(timeout):
            while not bot.is_ready():
                if task.done():  # login, setup_hook or command sync failed: show why
                    task.result()
                    raise RuntimeError("bot.start() returned before the bot was ready")
                await asyncio.sleep(0.002)
        await asyncio.sleep(0)  # let on_ready listeners, dispatched just now, start running
    except BaseException:
        if task.done():
            await bot.close()  # login succeeded before the failure: release its HTTP session
        else:
            await stop_bot(bot, task)
        raise
    return task


async def stop_bot(bot: discord.Client, task: asyncio.Task[None], timeout: float = 5.0) -> None:
    """Close the bot and wait for its start task; re-raises what the task failed with."""
    # Let callbacks the test just triggered reach their first await before closing.
    await asyncio.sleep(0)
    await bot.close()
    await asyncio.wait_for(task, timeout)


class FakeWorld:
    """Async context manager: a running fake with users, one guild and its channels.

    ``async with FakeWorld(users=["alice", "bob"]) as world:`` then ``world.fake``,
    ``world["alice"]`` (a user), ``world.guild``, ``world.channel`` (the first channel),
    ``world.channels["games"]``, ``await world.start(bot)`` and ``await world.restart(new_bot)``.
    Pass ``fake=`` to build on an already running fake (the ``fake`` fixture); otherwise the
    world starts its own and, on exit, stops it and checks that no unimplemented route was hit.
    """

    def __init__(self, users: Iterable[str] = ("alice", "bob"), channels: Iterable[str] = ("games", "general"),
                 *, fake: FakeDiscord | None = None, user_options: dict[str, dict[str, Any]] | None = None,
                 guild_name: str = "Tablero Test", owner: str | None = None, guild_locale: str = "en-US") -> None:
        self._own_fake = fake is None
        self.fake = fake or FakeDiscord()
        self._user_names = list(users)
        self._channel_names = list(channels)
        self._user_options = user_options or {}
        self._guild_name, self._owner, self._guild_locale = guild_name, owner, guild_locale
        self.users: dict[str, dict] = {}
        self.channels: dict[str, dict] = {}
        self.guild: dict = {}
        self.bot: discord.Client | None = None
        self.task: asyncio.Task[None] | None = None

    def __getitem__(self, name: str) -> dict:
        return self.users[name]

    @property
    def channel(self) -> dict:
        """The first channel of the guild."""
        return self.channels[self._channel_names[0]]

    async def __aenter__(self) -> FakeWorld:
        if self._own_fake:
            await self.fake.start()
        self.fake.point_discord_py_here()
        for name in self._user_names:
            self.users[name] = self.fake.add_user(name, **self._user_options.get(name, {}))
        owner = self.users[self._owner] if self._owner else None
        self.guild = self.fake.add_guild(self._guild_name, self._channel_names, list(self.users.values()),
                                         owner=owner, locale=self._guild_locale)
        self.channels = {c["name"]: c for c in self.guild["channels"]}
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
        if self._own_fake:
            await self.fake.stop()
            if exc[0] is None:
                assert not self.fake.unhandled, f"bot hit routes the fake does not implement: {self.fake.unhandled}"

    async def start(self, bot: discord.Client, **kwargs: Any) -> asyncio.Task[None]:
        """Start a bot in this world (see start_bot); returns its task."""
        self.bot, self.task = bot, await start_bot(self.fake, bot, **kwargs)
        return self.task

    async def stop(self) -> None:
        """Stop the bot started with start(), if it is still running."""
        if self.bot is not None and self.task is not None and not self.task.done():
            await stop_bot(self.bot, self.task)
        self.bot, self.task = None, None

    async def restart(self, new_bot: discord.Client, **kwargs: Any) -> asyncio.Task[None]:
        """Stop the current bot and start new_bot against the same fake (messages are kept)."""
        await self.stop()
        return await self.start(new_bot, **kwargs)
