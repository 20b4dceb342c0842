"""The session service's base: games loaded lazily and cached, one lock per game, and the
news of a game's end handed to its listeners after the commit."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from rules.core import Engine, Seat
from rules.phrases import Phrases
from services.ai_choice import Chooser
from services.clock import Clock, SystemClock
from services.game import Game, NoGame, Refusal
from services.move_result import GameOver
from storage import GameRow, SeatRow, Store, stamps

msg = Phrases("core")

log = logging.getLogger("tablero.session")


# Games kept in memory at most, by default (TABLERO_GAME_CACHE): the least recently used
# beyond it are forgotten and read again from the store when next touched.
DEFAULT_CACHE_SIZE = 2000
# Games decoded between two yields to the event loop when many are loaded at once.
DECODE_SLICE = 16
# Users' settings the store keeps in memory at most (a few hundred bytes each).
USER_SETTINGS_KEPT = 20_000


class GameCache:
    """Loads games lazily, keeps one copy of each (the ``cache_size`` most recently used)
    and one lock per game; tells listeners of ends."""

    def __init__(
        self,
        store: Store,
        engines: Mapping[str, Engine] | None = None,
        *,
        seed_source: Callable[[], int] | None = None,
        clock: Clock | None = None,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        self.store = store
        # Memory stays flat however many games a long-running bot sees: only this many stay
        # decoded. A game being changed (its lock held or awaited) is never the one let go.
        self.cache_size = max(1, cache_size)
        self.clock: Clock = clock or SystemClock()
        # Whether a pending seat is answering out of turn (an interrupt window): the
        # Discord side knows each game's prompts and sets this; a timeout there is a "no".
        self.is_reaction: Callable[[Game, Seat], bool] = lambda g, seat: False
        # Where the built-in player chooses a timed-out seat's move (services/ai_choice.py):
        # worker processes the host provides; None chooses here, on the event loop.
        self.chooser: Chooser | None = None
        # Called after any commit that wrote deadlines, so the scheduler looks again.
        self.on_deadlines: Callable[[], None] = lambda: None
        # Told when a game ends or is abandoned (results, ratings, tournaments listen), each
        # in a task of its own started after the commit, so a listener never runs inside
        # the game's lock; a restart finds what a crash kept them from hearing in the store.
        self.game_over_listeners: list[Callable[[GameOver], Awaitable[None]]] = []
        self._over_tasks: set[asyncio.Task[None]] = set()
        # Per game id: what fixes the rest of a game's options when it starts (the decks the
        # players chose privately in a Guerra de Mitos lobby). It may refuse the start.
        self.start_options: dict[str, Callable[[Game], Awaitable[dict[str, Any]]]] = {}
        self._engines = engines
        self._shared = False
        # Users' settings are kept in memory by the store while this process is its one writer.
        store.keep_user_settings(USER_SETTINGS_KEPT)
        self._games: OrderedDict[int, Game] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}
        self._seed = seed_source or (lambda: secrets.randbits(62))

    @property
    def shared(self) -> bool:
        """Whether other processes write the same games (several shard processes on one
        database): a cached game is then checked against the store each time it is asked
        for (its stamp, storage/stamps.py), and users' settings are read from it each time."""
        return self._shared

    @shared.setter
    def shared(self, value: bool) -> None:
        self._shared = value
        self.store.keep_user_settings(0 if value else USER_SETTINGS_KEPT)

    # -- engines and cache ---------------------------------------------------------

    @property
    def engines(self) -> Mapping[str, Engine]:
        """Every game this service can host, by id."""
        if self._engines is None:
            from rules.registry import games

            self._engines = games()
        return self._engines

    def engine(self, game_id: str) -> Engine:
        """The engine of ``game_id``; a refusal if the game is unknown."""
        try:
            return self.engines[game_id]
        except KeyError:
            raise Refusal(
                msg("I do not know the game '{game_id}'.", game_id=game_id)
            ) from None

    def lock(self, game: int) -> asyncio.Lock:
        """The lock that serialises every change to ``game``."""
        lock = self._locks.get(game)
        if lock is None:
            lock = self._locks[game] = asyncio.Lock()
        return lock

    def cached(self, game: int) -> Game | None:
        """The game if it is already loaded (no I/O)."""
        return self._games.get(game)

    def forget(self, game: int) -> None:
        """Drop ``game`` from the cache (the next access reloads it from the store)."""
        self._games.pop(game, None)

    def _in_use(self, game: int) -> bool:
        """Whether a change to ``game`` holds its lock or waits for it."""
        lock = self._locks.get(game)
        # A lock just released still has its next holder among the waiters (not yet
        # marked locked): dropping it then would let a second lock in beside it.
        return lock is not None and (lock.locked() or bool(getattr(lock, "_waiters", None)))

    def _remember(self, loaded: Game) -> Game:
        """Keep ``loaded`` as the game's one copy (the first one if another task loaded it
        meanwhile) as the most recently used, letting the least recently used go."""
        kept = self._games.setdefault(loaded.id, loaded)
        self._games.move_to_end(loaded.id)
        excess = len(self._games) - self.cache_size
        if excess > 0:
            # From the least recently used on, stopping as soon as enough are found: a
            # full cache lets one go per game loaded, without walking all it holds.
            gone: list[int] = []
            for game in self._games:
                if len(gone) == excess:
                    break
                if not self._in_use(game):
                    gone.append(game)
            for game in gone:
                del self._games[game]
                self._locks.pop(game, None)
        return kept

    async def preload(self, games: Iterable[int]) -> None:
        """Load the games of ``games`` not in memory yet in two reads, not two each (a burst
        of the clock's timeouts); decoded a few at a time so commands still get their turn."""
        if self.shared:
            return  # every access reads the store again anyway
        missing = [g for g in dict.fromkeys(games) if g not in self._games][: self.cache_size // 2]
        if not missing:
            return
        for n, (row, seats) in enumerate(await self.store.games_with_seats(missing), 1):
            if row.id in self._games or row.game_id not in self.engines:
                continue
            engine = self.engines[row.game_id]
            state = engine.load_state(row.state) if row.state else None
            self._remember(Game(row=row, seats=seats, engine=engine, state=state))
            if n % DECODE_SLICE == 0:
                await asyncio.sleep(0)

    async def get(self, game: int) -> Game | None:
        """The game, loaded from the store the first time it is asked for; where other
        processes write too (``shared``), read again when its stamp says it changed."""
        cached = self._games.get(game)
        stamp: int | None = None
        if self.shared:
            # The stamp before the row and the seats: read after it, they are at least as
            # new as it says, so a copy of them is never trusted for more than it holds.
            stamp = await self.store.game_stamp(game)
            if stamp is None:
                return None
            if cached is not None and stamp == cached.stamp:
                self._games.move_to_end(game)
                return cached
        elif cached is not None:
            self._games.move_to_end(game)
            return cached
        row = await self.store.get_game(game)
        if row is None:
            return None
        seats = list(await self.store.seats(game))
        if cached is not None:
            return self._remember(self._refresh(cached, row, seats, stamp))
        engine = self.engine(row.game_id)
        state = engine.load_state(row.state) if row.state else None
        loaded = Game(row=row, seats=seats, engine=engine, state=state, stamp=stamp)
        # Another task may have loaded it while we awaited; keep the first so that
        # everyone shares one object.
        return self._remember(loaded)

    @staticmethod
    def _refresh(g: Game, row: GameRow, seats: list[SeatRow], stamp: int | None) -> Game:
        """Bring a cached game up to its stored row and seats (another process may have
        moved): the state is decoded again only when its version or status changed. All at
        once, with no wait in between, so that two refreshes of one game never leave one's
        row beside the other's stamp."""
        if row.version != g.row.version or row.status != g.row.status or g.state is None:
            g.state = g.engine.load_state(row.state) if row.state else None
        g.row, g.seats, g.stamp = row, seats, stamp
        return g

    @staticmethod
    def _written(g: Game) -> None:
        """Right after this task's write of ``g`` has committed (nothing awaited since), as
        the write is made to ``g`` too: if ``g`` was as current as the stamp the write went
        from, it is as current as the one the write left, and need not be read again.
        Otherwise another process wrote in between: the stamp stays, and the next ``get``
        reads the game again. (A refresh that lands while the write is made to ``g`` sets
        the stamp it read with what it read.)"""
        went = stamps.written(g.id)
        if went is not None and g.stamp is not None and g.stamp == went[0]:
            g.stamp = went[1]

    async def require(self, game: int) -> Game:
        """The game, or a refusal if it does not exist."""
        loaded = await self.get(game)
        if loaded is None:
            raise Refusal(msg("There is no game #{game}.", game=game))
        return loaded

    async def in_channel(self, channel_id: int) -> Game | None:
        """The open game that lives in ``channel_id``, if any."""
        row = await self.store.game_in_channel(channel_id)
        if row is None:
            return None
        return await self.get(row.id)

    async def latest_in_channel(self, channel_id: int) -> Game | None:
        """The open game of ``channel_id``, else the newest that ended there (after restarts too)."""
        loaded = await self.in_channel(channel_id)
        if loaded is not None:
            return loaded
        row = await self.store.latest_game_in_channel(channel_id)
        return await self.get(row.id) if row is not None else None

    async def require_in_channel(self, channel_id: int) -> Game:
        """The open game of ``channel_id``, or a refusal saying how to start one."""
        loaded = await self.in_channel(channel_id)
        if loaded is None:
            raise NoGame()
        return loaded

    async def open_games(self) -> list[int]:
        """Ids of every game still in the lobby or in play."""
        return list(await self.store.open_game_ids())

    async def games_to_resume(self) -> tuple[list[int], int]:
        """The open games a start must look at (no message stored, or a bot seat that may owe
        a move), and how many are open in all: the others wait until first touched."""
        return await self.store.games_to_resume()

    async def _reload_seats(self, g: Game) -> None:
        """Right after this task's write of ``g``'s seats: read them again (``g`` then has
        what the write did, so it takes the write's stamp, see ``_written``). The stamp is
        taken only once the seats are read: taken before, another task asking for the game
        meanwhile would trust the seats as they were before the write."""
        g.seats = list(await self.store.seats(g.id))
        self._written(g)

    async def _reload_row(self, g: Game) -> None:
        """Right after this task's write of ``g``'s row: read it again (as ``_reload_seats``)."""
        row = await self.store.get_game(g.id)
        if row is not None:
            g.row = row
        self._written(g)

    def _game_over(
        self, g: Game, *, abandoned: bool = False, by: int | None = None, dropped: int | None = None
    ) -> None:
        for listener in self.game_over_listeners:
            task = asyncio.create_task(self._tell(listener, GameOver(
                g, abandoned=abandoned, by=by, dropped=dropped)))
            self._over_tasks.add(task)
            task.add_done_callback(self._over_tasks.discard)

    @staticmethod
    async def _tell(listener: Callable[[GameOver], Awaitable[None]], over: GameOver) -> None:
        try:
            await listener(over)
        except Exception:
            log.exception("game %s: a game-over listener failed", over.game.id)

    async def settle(self) -> None:
        """Wait until every listener told of a game's end has finished."""
        while self._over_tasks:
            await asyncio.gather(*list(self._over_tasks), return_exceptions=True)

    # -- lobby ----------------------------------------------------------------------

    # -- seats and board message ---------------------------------------------------------

    async def set_dm_closed(self, game: int, seat: Seat, closed: bool) -> bool:
        """Record whether ``seat``'s DMs are closed; True when that changed."""
        g = await self.require(game)
        if g.seat_row(seat).dm_closed == closed:
            return False
        await self.store.set_dm_closed(game, seat, closed)
        await self._reload_seats(g)
        return True

    async def set_board_message(self, game: int, channel_id: int, message_id: int) -> None:
        """Remember where the game's board (or lobby) message is."""
        await self.store.set_board_message(game, channel_id, message_id)
        g = self._games.get(game)
        if g is not None:
            g.row = dataclasses.replace(
                g.row, board_channel_id=channel_id, board_message_id=message_id
            )
            self._written(g)
