"""Tablero's entry point: settings from .env, logging, the bot, and running it.

Run ``python bot.py``. Tests build the bot in-process with ``create_bot(settings, ...)``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import re
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from cogs.common import errors, i18n, loop_lag, pacing
from cogs.common.announce import Announcer
from cogs.common.board import BoardKeeper
from cogs.common.contexts import SERVER, SERVER_INSTALL
from cogs.common.delivery import Delivery
from cogs.common.gateway import tolerate_bad_events
from cogs.common.patience import received
from cogs.common.present import MENTIONS, ui_for
from cogs.pictures import pool as picture_pool
from services import collector, faults
from services.ai_choice import Chooser
from services.clock import Clock, Scheduler, SystemClock
from services.game_cache import DEFAULT_CACHE_SIZE
from services.health import Health
from services.leases import DEFAULT_TTL, Leases
from services.limits import Limits
from services.outbox import Outbox
from services.session import SessionService
from storage import Store

log = logging.getLogger("tablero")

EXTENSIONS = (
    "cogs.lobby", "cogs.settings", "cogs.rey_hierofante", "cogs.rattus_cartus", "cogs.ankh_morpork",
    "cogs.ragami", "cogs.tournament", "cogs.guerra_de_mitos", "cogs.stats",
    "cogs.gdm_decks",  # after cogs.guerra_de_mitos: it attaches /gdm deck and /gdm search to its /gdm
)
# Pause between games while checking boards after a start, to stay far below Discord's
# rate limits when many games are open.
RESUME_PAUSE = 0.05
# A step of the start (picture workers, resuming games) is tried this many times, with a
# growing pause, before the bot stops rather than run half started.
STARTUP_TRIES = 3
STARTUP_PAUSE = 2.0
# discord.py's names for the tasks that run slash commands and component callbacks.
DRAIN_TASKS = ("CommandTree-invoker", "discord-ui-")
DRAIN_TIMEOUT = 5.0
# How long delivered outbox rows are kept.
OUTBOX_KEEP = 7 * 24 * 3600.0
# With several processes, a change still undelivered after this many lease lengths is
# taken to belong to a process that died, and the holder of the "resume" lease delivers it.
SWEEP_AGE = 4


def _catalogue_language(value: str) -> str:
    """The catalogue language TABLERO_LOCALE names ("es-ES" is "es"): any language with a
    catalogue of the bot's messages (cogs/locale), so a new language is its files alone."""
    from cogs.common.catalogue import catalogues
    from rules.catalogue import resolve

    languages = catalogues().languages
    found = resolve(value, languages)
    if found is not None:
        return found
    raise SettingsError(
        f"TABLERO_LOCALE must be a language with a catalogue ({', '.join(languages)}), not {value!r}."
    )


class SettingsError(Exception):
    """A setting is missing or malformed; its message says what to set."""


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from the environment (.env)."""

    token: str
    db_path: str = "tablero.db"  # an SQLite file, or a postgresql:// URL (storage/dialect.py)
    guild_id: int | None = None
    log_level: str = "INFO"
    locale: str = "es"
    # Where Discord is: None for Discord itself; a test server (tests/e2e's fake) otherwise.
    discord_api: str | None = None
    discord_gateway: str | None = None
    ready_wait: float = 2.0  # seconds to wait for the servers' data at start-up
    # Several processes: Discord's shards in all (None: one process, no sharding) and
    # this process's share of them; work done once is owned through leases lasting this long.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    lease_seconds: float = DEFAULT_TTL
    # Processes that draw pictures (0: drawn in this process, in a thread). Settings read
    # from the environment default to cogs.pictures.pool.default_workers().
    picture_workers: int = 0
    # Games kept in memory (the least recently used beyond it are read again when touched).
    game_cache: int = DEFAULT_CACHE_SIZE
    log_format: str = "text"  # or "json": one JSON object per line (services/logs.py)
    health_file: str | None = None  # rewritten with the bot's status every health_interval s
    health_port: int | None = None  # GET http://127.0.0.1:<port>/health
    health_interval: float = 30.0
    # Requests a second the bot allows itself under Discord's global limit (all processes
    # together; each takes its share by its shards): see cogs/common/pacing.py.
    global_rate: float = pacing.DEFAULT_RATE

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from ``env`` (default: the process environment)."""
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set. Put your bot's token in a .env file next to bot.py\n"
                "(copy .env.example to .env and fill it in), or export DISCORD_TOKEN.\n"
                "The README explains how to create the Discord application and get the token."
            )
        guild = env.get("TABLERO_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"TABLERO_GUILD_ID must be a server id (digits), not {guild!r}.")
        level = env.get("TABLERO_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if not isinstance(logging.getLevelName(level), int):
            raise SettingsError(f"TABLERO_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
        locale = _catalogue_language(env.get("TABLERO_LOCALE", "es").strip() or "es")
        api = env.get("TABLERO_DISCORD_API", "").strip() or None
        gateway = env.get("TABLERO_DISCORD_GATEWAY", "").strip() or None
        for name, url, schemes in (("TABLERO_DISCORD_API", api, ("http://", "https://")),
                                   ("TABLERO_DISCORD_GATEWAY", gateway, ("ws://", "wss://"))):
            if url is not None and not url.startswith(schemes):
                raise SettingsError(f"{name} must be a URL starting with {' or '.join(schemes)}, not {url!r}.")
        wait = env.get("TABLERO_READY_WAIT", "").strip() or "2"
        try:
            ready_wait = float(wait)
        except ValueError:
            raise SettingsError(f"TABLERO_READY_WAIT must be a number of seconds, not {wait!r}.") from None
        shard_count, shard_ids = _shards(env)
        lease = env.get("TABLERO_LEASE_SECONDS", "").strip() or str(DEFAULT_TTL)
        try:
            lease_seconds = float(lease)
        except ValueError:
            lease_seconds = -1.0
        if not lease_seconds > 0:
            raise SettingsError(f"TABLERO_LEASE_SECONDS must be a positive number of seconds, not {lease!r}.")
        workers = env.get("TABLERO_PICTURE_WORKERS", "").strip()
        if workers and not workers.isdigit():
            raise SettingsError(f"TABLERO_PICTURE_WORKERS must be a number of processes (0: none), not {workers!r}.")
        cache = env.get("TABLERO_GAME_CACHE", "").strip() or str(DEFAULT_CACHE_SIZE)
        if not cache.isdigit() or int(cache) < 1:
            raise SettingsError(f"TABLERO_GAME_CACHE must be a number of games (1 or more), not {cache!r}.")
        log_format = env.get("TABLERO_LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in ("text", "json"):
            raise SettingsError(f"TABLERO_LOG_FORMAT must be text or json, not {log_format!r}.")
        port = env.get("TABLERO_HEALTH_PORT", "").strip()
        if port and not (port.isdigit() and int(port) < 65536):
            raise SettingsError(f"TABLERO_HEALTH_PORT must be a port number, not {port!r}.")
        every = env.get("TABLERO_HEALTH_INTERVAL", "").strip() or "30"
        try:
            health_interval = float(every)
        except ValueError:
            raise SettingsError(f"TABLERO_HEALTH_INTERVAL must be a number of seconds, not {every!r}.") from None
        rate = env.get("TABLERO_GLOBAL_RATE", "").strip() or str(pacing.DEFAULT_RATE)
        try:
            global_rate = float(rate)
        except ValueError:
            global_rate = -1.0
        if not 0 < global_rate <= 50:
            raise SettingsError(f"TABLERO_GLOBAL_RATE must be requests a second, above 0 and at most "
                                f"Discord's 50, not {rate!r}.")
        return cls(
            token=token,
            db_path=env.get("TABLERO_DB", "").strip() or "tablero.db",
            guild_id=int(guild) if guild else None,
            log_level=level,
            locale=locale[:2],
            discord_api=api,
            discord_gateway=gateway,
            ready_wait=max(0.0, ready_wait),
            shard_count=shard_count,
            shard_ids=shard_ids,
            lease_seconds=lease_seconds,
            picture_workers=int(workers) if workers else picture_pool.default_workers(),
            game_cache=int(cache),
            log_format=log_format,
            health_file=env.get("TABLERO_HEALTH_FILE", "").strip() or None,
            health_port=int(port) if port else None,
            health_interval=max(0.1, health_interval),
            global_rate=global_rate,
        )

    def client_options(self) -> dict[str, Any]:
        """The discord.py options of this process's shards (none when not sharded)."""
        if self.shard_count is None:
            return {}
        return {"shard_count": self.shard_count, "shard_ids": list(self.shard_ids or range(self.shard_count))}

    def point_discord_py(self) -> None:
        """Send discord.py's REST calls and gateway connection where the settings say."""
        if self.discord_api is not None:
            import discord.http

            discord.http.Route.BASE = self.discord_api.rstrip("/")
        if self.discord_gateway is not None:
            import discord.gateway
            import yarl

            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.discord_gateway)


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """TABLERO_SHARDS (how many in all) and TABLERO_SHARD_IDS (this process's, "0,1")."""
    total = env.get("TABLERO_SHARDS", "").strip()
    ids = env.get("TABLERO_SHARD_IDS", "").strip()
    if not total:
        if ids:
            raise SettingsError("TABLERO_SHARD_IDS needs TABLERO_SHARDS, the number of shards in all.")
        return None, None
    if not total.isdigit() or int(total) < 1:
        raise SettingsError(f"TABLERO_SHARDS must be the number of shards in all (1 or more), not {total!r}.")
    count = int(total)
    if not ids:
        return count, tuple(range(count))
    parts = [p.strip() for p in ids.split(",")]
    if not all(p.isdigit() for p in parts):
        raise SettingsError(f"TABLERO_SHARD_IDS must be shard numbers separated by commas (\"0,1\"), not {ids!r}.")
    share = tuple(int(p) for p in parts)
    wrong = [n for n in share if n >= count]
    if wrong:
        raise SettingsError(
            f"TABLERO_SHARD_IDS names shard {wrong[0]}, but shards are numbered 0 to {count - 1}"
            f" (TABLERO_SHARDS={count})."
        )
    if len(set(share)) != len(share):
        raise SettingsError(f"TABLERO_SHARD_IDS names a shard twice: {ids!r}.")
    return count, share


async def _cancel(*tasks: asyncio.Task[Any] | None) -> None:
    """Cancel the background ``tasks`` still running and wait until each has stopped (whatever
    it ends with: a stopping bot has nobody to tell)."""
    for task in tasks:
        if task is not None and not task.done():
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass


class TableroBot(commands.Bot):
    """The bot: the store, the session service, boards and DMs, the cogs."""

    def __init__(self, settings: Settings, *, clock: Clock | None = None, run_clock: bool = True,
                 **client_kwargs: Any) -> None:
        # No privileged intents: slash commands and components arrive as interactions,
        # which need none; members and message content are never read.
        intents = discord.Intents.default()
        client_kwargs.setdefault("allowed_mentions", MENTIONS)
        # The bot's own requests wait for room under Discord's global limit rather than
        # meet its 429s (interaction endpoints are not bound by it).
        self.pace = pacing.Pace(pacing.share_of(settings.global_rate, settings.shard_count, settings.shard_ids))
        client_kwargs.setdefault("http_trace", self.pace.trace())
        # No message cache: the bot reads what it needs from each event's own payload, and
        # discord.py looks for every updated, deleted or interacted-with message by walking
        # its cache (a thousand messages) from the newest: 3% of a busy bot's processor.
        client_kwargs.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None,
            # Every command is for servers with the bot unless it says otherwise
            # (cogs/common/contexts.py): the user-installable ones declare it themselves.
            allowed_contexts=SERVER, allowed_installs=SERVER_INSTALL, **client_kwargs
        )
        self.settings = settings
        self.store: Store | None = None
        self._session: SessionService | None = None
        self.boards = BoardKeeper(self)
        self.delivery = Delivery(self)
        self.announcer = Announcer(self)
        # The time source of every clock: tests inject a manual one and call
        # ``scheduler.tick()`` (run_clock=False) instead of waiting.
        self.clock: Clock = clock or SystemClock()
        self.run_clock = run_clock
        self.scheduler: Scheduler | None = None
        self._outbox: Outbox | None = None
        self._resume_task: asyncio.Task[None] | None = None
        self._warm_task: asyncio.Task[None] | None = None
        # The garbage collector is off from the start to ready (see pause_collector).
        self._collector_paused = False
        # Several processes on one database: the work done once is owned through leases.
        self.leases: Leases | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self.pictures = picture_pool.PicturePool(settings.picture_workers)
        # Per-user cooldowns of the heavy commands and the bound on replays drawn at once.
        self.limits = Limits(self.clock.now)
        # The step of the start that kept failing, when the bot stopped for it (see startup_step).
        self.startup_failed: str | None = None
        tolerate_bad_events(self._connection)
        self.health = Health(self.health_status, path=settings.health_file, port=settings.health_port,
                             interval=settings.health_interval)
        i18n.set_default_locale(settings.locale)

    @property
    def session(self) -> SessionService:
        """The session service (available once setup_hook has opened the store)."""
        if self._session is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._session

    @property
    def outbox(self) -> Outbox:
        """What committed changes owe Discord, delivered once each (after a crash too)."""
        if self._outbox is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._outbox

    async def setup_hook(self) -> None:
        """Open the store, load the cogs, register persistent components, sync commands."""
        log.info("starting: store %s, %d picture workers, logs as %s", _safe_db(self.settings.db_path),
                 self.settings.picture_workers, self.settings.log_format, extra={"event": "start"})
        self.store = await Store.open(self.settings.db_path)
        self._session = SessionService(self.store, clock=self.clock, cache_size=self.settings.game_cache)
        # How late the loop wakes decides whether a move may wait for its outcome to answer it.
        loop_lag.GAUGE.start()
        self._outbox = Outbox(self._session)
        self._outbox.plan = self.announcer.plan
        self._outbox.send = self.announcer.send
        # An interrupt window (the game's presentation knows which prompts are one) that
        # times out is answered "no".
        self._session.is_reaction = lambda g, seat: ui_for(g.row.game_id).reaction(g, seat)
        self.scheduler = Scheduler(self.store, self.clock, self.announcer.remind, self.announcer.expire,
                                   prepare=self._session.preload_deadlines)
        self._session.on_deadlines = self.scheduler.poke
        # The built-in player's choices at the clock's timeouts go to the picture workers
        # (chosen here, on the event loop, until they have started or when there are none).
        if self.settings.picture_workers:
            self._session.chooser = Chooser(self.pictures.run_async, parallel=self.settings.picture_workers)
        if self.settings.shard_count is not None:
            self._session.shared = True
            self.leases = Leases(self.store, ttl=self.settings.lease_seconds)
            # Other processes write deadlines too: look at the table once per lease length.
            self.scheduler.max_sleep = self.settings.lease_seconds
            self.leases.job("clock", self._clock_taken, self._clock_lost)
            self.leases.job("resume", self._resume_taken, self._resume_lost)
        errors.install(self.tree)
        await self.tree.set_translator(i18n.Translator())
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.sync_commands()
        await self.health.start()

    async def sync_commands(self) -> None:
        """Publish the slash commands: to one server (instant) or globally."""
        if self.settings.guild_id is not None:
            guild = discord.Object(id=self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), self.settings.guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Note when each interaction arrived, on the bot's clock: its token dies 15 minutes later."""
        received(interaction)

    def pause_collector(self) -> None:
        """Keep Python's garbage collector off until ready: the start allocates hundreds of
        thousands of objects that live for good (modules, models, catalogues, commands), and
        collecting among them, again and again, costs a tenth of the start's time."""
        gc.disable()
        self._collector_paused = True

    async def on_ready(self) -> None:
        """Once connected, look at the open games a start owes a look (in the background)."""
        if self._collector_paused:
            gc.enable()
            self._collector_paused = False
        # In every process, whether or not it is the one that resumes the games: the full
        # passes' survivors frozen, so that none walks every game in play again.
        collector.PASSES.install()
        log.info("ready as %s in %d servers", self.user, len(self.guilds), extra={"event": "ready"})
        self.health.poke()
        if self.pictures.workers and not self.pictures.running:
            # Started once connected, not before: each worker's start (about a second of
            # imports) would compete for the cores with the bot's own start.
            if not await self.startup_step("picture workers", self._start_pictures):
                return
        if self.leases is not None:
            # The resume and the clock run where their leases are held (see _resume_taken).
            faults.arm()
            self.leases.start()
            return
        if self._resume_task is None:
            self._resume_task = asyncio.create_task(self.resume_games(), name="tablero-resume")
        # Deadlines that passed while the bot was down are handled now, once; the scheduler
        # does not wait for every board to be checked (that is paced, and can take minutes).
        if self.scheduler is not None and self.run_clock:
            self.scheduler.start()

    async def _start_pictures(self) -> None:
        self.pictures.start()  # raises before it keeps anything: a retry starts it whole
        picture_pool.install(self.pictures)
        chooser = self._session.chooser if self._session is not None else None
        if chooser is not None and self._warm_task is None:
            # The workers ready the rules now, in the background, rather than at the first
            # timeout of a burst, which every other timeout would wait for.
            self._warm_task = asyncio.create_task(chooser.warm(), name="tablero-warm-choices")

    async def startup_step(self, name: str, step: Callable[[], Awaitable[Any]]) -> bool:
        """Run one step of the start, tried again a few times; when it keeps failing the bot
        stops with a clear error rather than answering commands half started. False then."""
        for attempt in range(1, STARTUP_TRIES + 1):
            try:
                await step()
                return True
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("start-up step %r failed (try %d of %d)", name, attempt, STARTUP_TRIES,
                              extra={"event": "startup_failed", "step": name})
                if attempt < STARTUP_TRIES:
                    await asyncio.sleep(STARTUP_PAUSE * attempt)
        self.startup_failed = name
        log.critical("stopping: the start-up step %r failed %d times", name, STARTUP_TRIES,
                     extra={"event": "stop", "step": name})
        # Closed from a task of its own: close() waits for the resume task, which may be us.
        asyncio.get_running_loop().create_task(self.close(), name="tablero-stop")
        return False

    async def _resume_start(self) -> tuple[list[int], int]:
        # First what a crash kept from Discord (finished games' last boards too): a change
        # cut by a crash is delivered here, the card it posted found and kept, other copies
        # deleted (cogs/common/board.py, _adopt_posted).
        await self.outbox.drain()
        # A card posted anew outside any change (a buried card shown again) and not stored.
        await self.boards.find_posted_cards()
        await self.announcer.remove_orphan_threads()
        # Delivered changes are kept a week (to look into a complaint), then forgotten.
        await self.store.prune_outbox(time.time() - OUTBOX_KEEP)
        # The cards left as they are still count the messages that bury them.
        self.boards.track_stored(await self.store.open_cards())
        return await self.session.games_to_resume()

    async def resume_games(self) -> None:
        """Let AI seats make moves they owe and find the message of a game that has none
        stored. Every other open game is left as it is until first touched: what its last
        commit owed Discord was delivered by the outbox above, and loading and showing each
        of thousands of games again would make the start grow with them."""
        try:
            found: list[tuple[list[int], int]] = []

            async def start() -> None:
                found.append(await self._resume_start())

            if not await self.startup_step("resuming games", start):
                return
            ids, total = found[-1]
            log.info("resuming %d open games: %d to look at (a bot seat, or no message stored)",
                     total, len(ids))
            for game in ids:
                try:
                    result = await self.session.resume_ai(game)
                    if result is not None:
                        await self.announcer.publish(result)
                    else:
                        await self.boards.check(game)
                except Exception:
                    log.exception("could not resume game %s", game)
                await asyncio.sleep(RESUME_PAUSE)
            # What the start loaded (modules, cached games, cards) stays for the process's
            # life: kept out of the collector's full passes, which otherwise walk all of it
            # and stall the event loop for moves in flight (what each later full pass leaves
            # alive is frozen too: services/collector.py, installed once ready).
            gc.freeze()
            log.info("resumed %d open games (%d looked at)", total, len(ids))
            faults.arm()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("resuming games failed")

    # -- several processes: the work behind each lease ----------------------------------

    async def _clock_taken(self) -> None:
        if self.scheduler is not None and self.run_clock:
            self.scheduler.start()

    async def _clock_lost(self) -> None:
        if self.scheduler is not None:
            await self.scheduler.stop()

    async def _resume_taken(self) -> None:
        # At the first start, or taking over from a process that died: deliver what is left,
        # let AI seats move, check the boards; then keep delivering what dead processes leave.
        self._resume_task = asyncio.create_task(self.resume_games(), name="tablero-resume")
        self._sweep_task = asyncio.create_task(self._sweep(), name="tablero-sweep")

    async def _resume_lost(self) -> None:
        await _cancel(self._resume_task, self._sweep_task)

    async def _sweep(self) -> None:
        """Deliver changes that stayed undelivered for a while: their process died."""
        assert self.leases is not None
        pause = self.leases.ttl
        while True:
            await asyncio.sleep(pause)
            try:
                await self.outbox.drain(before=time.time() - SWEEP_AGE * pause)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("delivering what other processes left failed")

    async def close(self) -> None:
        """Let interactions in flight finish, stop talking to Discord, then close the store."""
        if self.leases is not None:
            # Given up at once, so another process takes the work over without waiting.
            await self.leases.stop()
        await _cancel(self._resume_task, self._warm_task)
        await loop_lag.GAUGE.stop()
        collector.PASSES.remove()
        self.boards.held.close()  # held cards' messages stay owed: the next start shows them
        if self.scheduler is not None:
            await self.scheduler.stop()
        await self._drain()
        if self._session is not None:
            # Results of games that just ended still reach their tournament (a round may open).
            try:
                await asyncio.wait_for(self._session.settle(), DRAIN_TIMEOUT)
            except TimeoutError:
                log.warning("results of ended games still in flight at shutdown")
        await self.health.stop()
        if self._outbox is not None:
            self._outbox.stopping = True  # what still fails to go out is left for the next start
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        # Last: boards drawn while draining above still had their workers.
        picture_pool.uninstall(self.pictures)
        await asyncio.to_thread(self.pictures.close)

    async def health_status(self) -> dict[str, Any]:
        """Healthy while the gateway is connected and the store answers (services/health.py)."""
        shards = getattr(self, "shards", None)  # a sharded bot: every one of its shards connected
        if isinstance(shards, dict) and shards:
            connected = all(not shard.is_closed() for shard in shards.values())
        else:
            connected = self.ws is not None and self.ws.open
        gateway = connected and self.is_ready() and not self.is_closed()
        store = False
        if self.store is not None:
            await self.store.get_game(0)  # raises (or hangs, cut by the caller) when it cannot answer
            store = True
        latency = self.latency
        return {
            "ok": gateway and store,
            "gateway": gateway,
            "store": store,
            "latency_ms": round(latency * 1000) if latency == latency and latency != float("inf") else None,
            "guilds": len(self.guilds),
            "picture_workers": len(self.pictures.pids()),
        }


    async def _drain(self) -> None:
        # A move committed just before shutdown should still reach Discord: wait (briefly)
        # for the tasks discord.py runs commands and components in.
        me = asyncio.current_task()
        busy = [
            task
            for task in asyncio.all_tasks()
            if task is not me and not task.done() and task.get_name().startswith(DRAIN_TASKS)
        ]
        if not busy:
            return
        _, late = await asyncio.wait(busy, timeout=DRAIN_TIMEOUT)
        if late:
            # Cancelled before the store closes under them: a move's commit is whole or
            # absent, and what it still owed Discord stays in the outbox for the next start,
            # where running on would fail on a closed store and tell the player of an error.
            log.warning("stopping: interaction tasks still at work after %.0f s, cancelled: %d",
                        DRAIN_TIMEOUT, len(late))
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)


class ShardedTableroBot(TableroBot, commands.AutoShardedBot):
    """The bot holding a share of Discord's shards (TABLERO_SHARDS, TABLERO_SHARD_IDS)."""


def create_bot(settings: Settings, **client_kwargs: Any) -> TableroBot:
    """A bot ready to ``start``; ``clock``/``run_clock`` set the turn clock's time source,
    the rest go to commands.Bot (e.g. guild_ready_timeout)."""
    if settings.shard_count is None:
        return TableroBot(settings, **client_kwargs)
    return ShardedTableroBot(settings, **{**settings.client_options(), **client_kwargs})


# A password in any form a PostgreSQL connection string takes: user:password@ in a URL,
# password=... as a URL query parameter or as a key=value word (quoted or not).
_SECRETS = (
    re.compile(r"(?<=://)[^/@\s]*@"),
    re.compile(r"(?i)([?&;]password=)[^&#\s]*"),
    re.compile(r"(?i)(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)"),
)


def _redact(text: str) -> str:
    """``text`` with every password a connection string in it may carry replaced by "…"."""
    text = _SECRETS[0].sub("…@", text)
    text = _SECRETS[1].sub(lambda m: m[1] + "…", text)
    return _SECRETS[2].sub(lambda m: m[1] + "…", text)


def _safe_db(db: str) -> str:
    """The store's setting without the password a PostgreSQL address may carry."""
    return _redact(db)


def setup_logging(level: str, fmt: str = "text") -> None:
    """Log to stderr: discord.py's formatter (colours on a terminal), or JSON lines."""
    if fmt == "json":
        from services.logs import setup_json

        setup_json(logging.getLevelName(level))
        return
    discord.utils.setup_logging(level=logging.getLevelName(level), root=True)


def _stop_on_sigterm(signum: int, frame: object) -> None:
    """SIGTERM (docker stop, systemd) stops the bot as Ctrl-C does: asyncio's own Ctrl-C
    handler cancels the bot's task once, and the bot closes once (moves in flight delivered,
    the store closed, the picture workers ended) before the process exits with status 0.
    (A second close started beside the one discord.py makes on the way out could be cut
    short while closing the store, and the store's thread then kept the process alive.)"""
    log.info("stopping: SIGTERM received", extra={"event": "stop"})
    signal.raise_signal(signal.SIGINT)


def main() -> int:
    """Run the bot until interrupted; 2 when settings are missing, 1 when Discord refuses."""
    try:
        from dotenv import load_dotenv

        load_dotenv()
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"Tablero cannot start: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, settings.log_format)
    settings.point_discord_py()
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    # SIGTERM is turned into SIGINT (see _stop_on_sigterm), whose Python handler stops the bot.
    # A process started in the background by a shell without job control inherits SIGINT
    # ignored, and Python then installs no handler: SIGTERM would do nothing. Install it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    bot = create_bot(settings, guild_ready_timeout=settings.ready_wait)
    bot.pause_collector()
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: check the token in .env (Bot > Reset Token).", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Discord asked for privileged intents, which Tablero does not use.", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - said plainly; the log has the traceback
        log.exception("could not start", extra={"event": "stop"})
        print(f"Tablero could not start: {type(exc).__name__}: {_redact(str(exc))}", file=sys.stderr)
        return 1
    if bot.startup_failed is not None:
        print(f"Tablero stopped: its start-up step {bot.startup_failed!r} kept failing (see the log).",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
