"""The session service: lobbies and moves of every game, serialised per game, Discord-free.

Interaction -> parse -> this service -> rules layer -> store; the caller tells Discord
only after this service returns, that is after the move is committed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import Action, Engine, Event, GameState, Prompt, RuleError, Seat, StaleAction, Text
from rules.phrases import Phrases
from services.clock import Clock, SystemClock, new_wait
from services.faults import crash_point
from services.history import replay_log, reveals, undo_json
from storage import ChannelBusy, GameRow, NotInLobby, SeatRow, SeatTaken, StaleVersion, Store
from storage.deadlines import DeadlinePlan, DeadlineRow
from storage.lookups import UndoRequest
from storage.outbox import ChangeNote
from storage.store import MoveWrite

msg = Phrases("core")

# Kinds of action that say "no" to a question asked out of turn; an interrupt window
# whose time runs out is answered with one of them. ("pass" is not one: in Rattus Cartus
# it plays a Safe-conduct, a move of its own.)
DECLINE_KINDS = ("skip", "decline", "no")
# An undo request lapses after this long when the game has no clock.
UNDO_TIMEOUT = 24 * 3600

log = logging.getLogger("tablero.session")

# An AI seat never needs this many moves in a row; hitting it means an engine bug, and
# stopping beats spinning forever inside a game's lock.
AI_MOVE_LIMIT = 500


class Refusal(RuleError):
    """A request the platform refuses (not seated, lobby full...), shown like a RuleError."""


class NotSeated(Refusal):
    """The user has no seat in the game."""

    def __init__(self) -> None:
        super().__init__(msg("You are not playing in this game."))


class NoGame(Refusal):
    """No open game where one was expected."""

    def __init__(self) -> None:
        super().__init__(
            msg("There is no open game in this channel. Start one with /game new."),
        )


def _started() -> Refusal:
    return Refusal(
        msg("The game has already started; the lobby is closed."),
    )


@dataclass
class Game:
    """One game as the service holds it: its row, its seats and its decoded state."""

    row: GameRow
    seats: list[SeatRow]
    engine: Engine
    state: GameState | None = None  # None while in the lobby

    @property
    def id(self) -> int:
        """The game's number in the store."""
        return self.row.id

    @property
    def status(self) -> str:
        """'lobby', 'active', 'finished' or 'abandoned'."""
        return self.row.status

    @property
    def version(self) -> int:
        """The version of the state (the number of moves made)."""
        return self.state.version if self.state is not None else self.row.version

    @property
    def locale(self) -> str:
        """The language of the game's public messages."""
        return self.row.locale

    @property
    def names(self) -> list[str]:
        """Display names in seat order."""
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat of ``user_id``, or None when they do not play."""
        for s in self.seats:
            if s.user_id == user_id and not s.ai:
                return s.seat
        return None

    def seat_row(self, seat: Seat) -> SeatRow:
        """The stored row of ``seat``."""
        for s in self.seats:
            if s.seat == seat:
                return s
        raise KeyError(seat)

    def pending(self) -> dict[Seat, Prompt]:
        """Who must decide now (empty in the lobby and once finished)."""
        if self.state is None or self.status != "active":
            return {}
        return self.engine.pending(self.state)

    def private_part(self, seat: Seat, state: GameState | None = None) -> dict[str, Any]:
        """The fields of ``seat``'s view that differ from the public one."""
        return private_part(self.engine, state if state is not None else self.state, seat)

    def secrets(self, seat: Seat, state: GameState | None = None) -> list[str]:
        """What ``seat`` knows that the public does not (empty: nothing hidden)."""
        return secrets_of(self.engine, state if state is not None else self.state, seat)

    def legal_actions(self, seat: Seat) -> list[Action]:
        """What ``seat`` may do now."""
        if self.state is None or self.status != "active":
            return []
        return self.engine.legal_actions(self.state, seat)


def private_part(engine: Engine, state: GameState | None, seat: Seat) -> dict[str, Any]:
    """The fields of ``seat``'s view that differ from the public view.

    Generic across games: whatever a seat sees beyond the public board is by definition
    its private information.
    """
    if state is None:
        return {}
    mine = engine.view(state, seat).model_dump(mode="json")
    public = engine.view(state, None).model_dump(mode="json")
    return {k: v for k, v in mine.items() if k != "seat" and public.get(k) != v}


def secrets_of(engine: Engine, state: GameState | None, seat: Seat) -> list[str]:
    """What ``seat`` knows that the public does not, as a sorted list of facts.

    Each fact is a leaf of the seat's view that the public view lacks or shows otherwise,
    named by its field and value but not by its position: a hidden tile that merely moves
    up a slot when another tile leaves the zone is the same secret. DMs go out when this
    list changes, so players hear about new secrets, not about every move.
    """
    if state is None:
        return []
    mine = engine.view(state, seat).model_dump(mode="json")
    public = engine.view(state, None).model_dump(mode="json")
    facts: list[str] = []
    for key, value in mine.items():
        if key != "seat":
            _diff(key, value, public.get(key), facts)
    return sorted(facts)


def _diff(name: str, mine: Any, public: Any, out: list[str]) -> None:
    if mine == public:
        return
    if isinstance(mine, dict) and isinstance(public, dict):
        for k, v in mine.items():
            _diff(k, v, public.get(k), out)
    elif isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        for a, b in zip(mine, public, strict=True):
            _diff(name, a, b, out)
    elif isinstance(mine, dict):
        for k, v in mine.items():
            _diff(k, v, None, out)
    elif isinstance(mine, list):
        for v in mine:
            _diff(name, v, None, out)
    elif mine is not None:
        out.append(f"{name}={json.dumps(mine, sort_keys=True)}")


@dataclass(frozen=True)
class GameOver:
    """A game that has just ended: finished by its rules, or abandoned (and by whom); or,
    with ``dropped``, a player the clock has just put out of a game that goes on."""

    game: Game
    abandoned: bool = False
    by: int | None = None
    dropped: int | None = None


@dataclass
class Step:
    """One committed move: who, what, what it caused, the version and state it produced."""

    seat: Seat
    action: Action | None  # None for an undo
    events: list[Event]
    version: int
    ai: bool = False
    state: GameState | None = None


@dataclass
class MoveResult:
    """What a move (and the AI replies it triggered) did; the caller tells Discord from it."""

    game: Game
    before: GameState | None
    steps: list[Step] = field(default_factory=list)
    timed_out: Seat | None = None  # the seat whose clock ran out, when that caused this
    dropped: bool = False  # ...and its player lost the seat to the bot for good
    undone: int | None = None  # the seq of a move taken back
    # The outbox row of this change: written by the change's first commit, rewritten by
    # each one after, so what it owes Discord survives a crash (see services/outbox.py).
    change: ChangeNote | None = None

    def note(self) -> ChangeNote:
        """The change's outbox note, brought up to date with what happened so far."""
        if self.change is None:
            self.change = ChangeNote()
        self.change.payload = change_payload(self)
        return self.change

    def newly_pending(self) -> list[Seat]:
        """Seats this result made pending: pending now, and not pending at some point of it
        (before the first step or between two steps). The steps of a player's own turn
        keep them pending throughout, so they are not in it."""
        g = self.game
        if g.state is None or g.status != "active":
            return []
        now = set(g.engine.pending(g.state))
        if not now:
            return []
        states = [self.before] + [s.state for s in self.steps[:-1]]
        fresh: set[Seat] = set()
        for st in states:
            if st is None:
                fresh |= now
                break
            fresh |= now - set(g.engine.pending(st)) if not st.finished else now
        return sorted(fresh)

    @property
    def state(self) -> GameState:
        """The state after every step."""
        assert self.game.state is not None
        return self.game.state

    @property
    def events(self) -> list[Event]:
        """Every event of every step, in order."""
        return [e for s in self.steps for e in s.events]

    @property
    def finished(self) -> bool:
        """Whether the game ended."""
        return self.game.state is not None and self.game.state.finished


def change_payload(result: MoveResult) -> dict[str, Any]:
    """What the outbox keeps of a change: enough to rebuild the MoveResult from the log."""
    first = result.before.version if result.before is not None else None
    if first is None and result.steps:
        first = result.steps[0].version - 1
    return {
        "start": result.before is None,
        "from": first,
        "to": result.steps[-1].version if result.steps else first,
        "ai": [s.ai for s in result.steps],
        "timed_out": result.timed_out,
        "dropped": result.dropped,
        "undone": result.undone,
    }


@dataclass
class LogLine:
    """One move of the log as a given viewer may read it."""

    seq: int
    seat: Seat
    events: list[Event]
    at: float = 0.0
    undoes: int | None = None  # this line took back move ``undoes``


def drawn_places(engine: Engine[Any], seats: Sequence[int], seed: int) -> dict[int, int] | None:
    """Where each lobby seat sits when the game starts (old -> new), for a game whose
    rulebook draws the places (``Engine.random_seats``); None keeps join order. Drawn from the
    game's seed, so the same start gives the same table."""
    if not engine.random_seats or len(seats) < 3:
        return None  # with two players, every order is the same table
    order = list(seats)
    random.Random(f"places:{seed}").shuffle(order)
    return {old: new for new, old in enumerate(order)}


class SessionService:
    """Loads games lazily, serialises their changes with one lock per game, commits each move."""

    def __init__(
        self,
        store: Store,
        engines: Mapping[str, Engine] | None = None,
        *,
        seed_source: Callable[[], int] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.store = store
        self.clock: Clock = clock or SystemClock()
        # Whether a pending seat is answering out of turn (an interrupt window): the
        # Discord side knows each game's prompts and sets this; a timeout there is a "no".
        self.is_reaction: Callable[[Game, Seat], bool] = lambda g, seat: False
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
        # Other processes write the same games (several shard processes on one database):
        # a cached game is then checked against the store each time it is asked for.
        self.shared = False
        self._games: dict[int, Game] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._seed = seed_source or (lambda: secrets.randbits(62))

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

    async def get(self, game: int) -> Game | None:
        """The game, loaded from the store the first time it is asked for."""
        cached = self._games.get(game)
        if cached is not None and not self.shared:
            return cached
        row = await self.store.get_game(game)
        if row is None:
            return None
        if cached is not None:
            return await self._refresh(cached, row)
        seats = await self.store.seats(game)
        engine = self.engine(row.game_id)
        state = engine.load_state(row.state) if row.state else None
        loaded = Game(row=row, seats=list(seats), engine=engine, state=state)
        # Another task may have loaded it while we awaited; keep the first so that
        # everyone shares one object.
        return self._games.setdefault(game, loaded)

    async def _refresh(self, g: Game, row: GameRow) -> Game:
        """Bring a cached game up to its stored row (another process may have moved): the
        state is decoded again only when its version or status changed."""
        if row.version != g.row.version or row.status != g.row.status or g.state is None:
            g.state = g.engine.load_state(row.state) if row.state else None
        g.row = row
        g.seats = list(await self.store.seats(g.id))
        return g

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

    async def _reload_seats(self, g: Game) -> None:
        g.seats = list(await self.store.seats(g.id))

    async def _reload_row(self, g: Game) -> None:
        row = await self.store.get_game(g.id)
        if row is not None:
            g.row = row

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

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_id: str,
        options: dict[str, Any] | None,
        host_id: int,
        host_name: str,
        locale: str,
        clock_seconds: int | None = None,
        timeout_action: str = "ai",
        host_locale: str | None = None,
        pending_thread: int | None = None,
    ) -> Game:
        """Open a lobby in ``channel_id`` with the host seated; options are validated first.
        ``locale`` is the game's public language; ``host_locale`` the host's own (if other)."""
        engine = self.engine(game_id)
        opts = engine.parse_options(options or {}).model_dump(mode="json")
        try:
            row = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=game_id,
                options=opts,
                host_id=host_id,
                locale=locale,
                clock_seconds=clock_seconds,
                timeout_action=timeout_action,
                host_seat=(host_name, host_locale or locale),
                pending_thread=pending_thread,
            )
        except ChannelBusy:
            busy = await self.store.game_in_channel(channel_id)
            if busy is None:  # it ended meanwhile
                raise Refusal(
                    msg("There is already an open game in this channel. Finish or abandon it "
                        "(/game abandon), or create the new one in a thread (thread: True)."),
                ) from None
            raise Refusal(
                msg("There is already an open game in this channel (#{game}). Finish or abandon it "
                    "(/game abandon), or create the new one in a thread (thread: True).", game=busy.id),
            ) from None
        self.forget(row.id)
        return await self.require(row.id)

    def _lobby(self, g: Game) -> None:
        if g.status != "lobby":
            raise _started()

    async def join(self, game: int, *, user_id: int, name: str, locale: str | None) -> Game:
        """Seat ``user_id`` in the lobby."""
        async with self.lock(game):
            g = await self.require(game)
            self._lobby(g)
            if g.seat_of(user_id) is not None:
                raise Refusal(msg("You are already in this game."))
            if len(g.seats) >= g.engine.max_players:
                raise Refusal(
                    msg("The game is full ({most} players).", most=g.engine.max_players),
                )
            try:
                await self.store.add_seat(game, user_id=user_id, name=name, locale=locale)
            except SeatTaken:
                raise Refusal(msg("You are already in this game.")) from None
            except NotInLobby:
                self.forget(game)
                raise _started() from None
            await self._reload_seats(g)
            return g

    async def leave(self, game: int, *, user_id: int) -> Game:
        """Give up ``user_id``'s seat in the lobby."""
        async with self.lock(game):
            g = await self.require(game)
            self._lobby(g)
            if not await self.store.remove_seat(game, user_id):
                raise NotSeated()
            await self._reload_seats(g)
            return g

    def _host_only(self, g: Game, user_id: int, refusal: Text) -> None:
        # the whole sentence ("Only the player who created the game can ..."), not a
        # fragment glued into one: each language words it its own way
        if user_id != g.row.host_id:
            raise Refusal(refusal)

    async def add_ai(self, game: int, *, by: int) -> Game:
        """Seat a computer player (host only)."""
        async with self.lock(game):
            g = await self.require(game)
            self._lobby(g)
            self._host_only(g, by, msg("Only the player who created the game can add AI players."))
            if len(g.seats) >= g.engine.max_players:
                raise Refusal(
                    msg("The game is full ({most} players).", most=g.engine.max_players),
                )
            bots = sum(1 for s in g.seats if s.ai)
            name = "Bot" if bots == 0 else f"Bot {bots + 1}"
            try:
                await self.store.add_seat(game, user_id=None, name=name, ai=True)
            except NotInLobby:
                self.forget(game)
                raise _started() from None
            await self._reload_seats(g)
            return g

    async def start(self, game: int, *, by: int) -> MoveResult:
        """Deal the game (host only, enough players) and let AI seats play their first moves."""
        async with self.lock(game):
            g = await self.require(game)
            self._lobby(g)
            self._host_only(g, by, msg("Only the player who created the game can start it."))
            n = len(g.seats)
            if n < g.engine.min_players:
                raise Refusal(
                    msg.n(n, "Not enough players: at least {least} are needed, there is {n}.",
                          "Not enough players: at least {least} are needed, there are {n}.",
                          least=g.engine.min_players),
                )
            options = g.row.options
            fix = self.start_options.get(g.row.game_id)
            if fix is not None:
                options = g.engine.parse_options(await fix(g)).model_dump(mode="json")
            seed = self._seed()
            seating = drawn_places(g.engine, [s.seat for s in g.seats], seed)
            lobby_seats = g.seats
            if seating is not None:
                # What the lobby set by seat goes with its player; the first waits see the
                # drawn places; the store moves the seats in the start's own transaction.
                options = g.engine.reseat_options(options, seating)
                g.seats = sorted((dataclasses.replace(s, seat=seating[s.seat]) for s in g.seats),
                                 key=lambda s: s.seat)
            try:
                state = g.engine.setup(n, options, seed)
                plan = await self._plan(g, None, state)
            except BaseException:
                g.seats = lobby_seats
                raise
            result = MoveResult(game=g, before=None)
            note = result.note()
            note.payload.update({"from": state.version, "to": state.version})
            try:
                row = await self.store.start_game(
                    game, seed=seed, state=g.engine.dump_state(state), version=state.version,
                    deadlines=plan, change=note,
                    options=options if options != g.row.options else None,
                    seating=seating,
                )
            except StaleVersion:
                self.forget(game)
                raise _started() from None
            except BaseException:
                self.forget(game)  # the cached seats were moved; read them again
                raise
            g.row, g.state = row, state
            await self._reload_seats(g)
            if plan is not None and plan.new:
                self.on_deadlines()
            crash_point("session.committed")
            await self._play_ai(g, result)
            return result

    async def abandon(self, game: int, *, by: int, can_manage: bool) -> Game:
        """Close the game for good (its host, or someone allowed to manage the channel)."""
        async with self.lock(game):
            g = await self.require(game)
            if g.status not in ("lobby", "active"):
                raise Refusal(msg("The game is already closed."))
            if by != g.row.host_id and not can_manage:
                raise Refusal(
                    msg("Only the player who created the game or someone with Manage Channels "
                        "can abandon it."),
                )
            # The board (menus gone) is owed with it: written in the same transaction.
            await self.store.set_status(game, "abandoned", change=ChangeNote({"board": True}))
            await self._reload_row(g)
            self._game_over(g, abandoned=True, by=by)
            return g

    # -- play -------------------------------------------------------------------------

    def _active(self, g: Game) -> GameState:
        if g.status == "lobby" or g.state is None:
            raise Refusal(
                msg("The game has not started yet.")
            )
        if g.status == "abandoned":
            raise Refusal(msg("The game was abandoned."))
        return g.state

    async def seat_for(self, game: int, user_id: int) -> tuple[Game, Seat]:
        """The game and ``user_id``'s seat in it; refusals if absent or not seated."""
        g = await self.require(game)
        seat = g.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return g, seat

    async def prepare(self, game: int, user_id: int, version: int | None = None) -> tuple[Game, Seat]:
        """Check that ``user_id`` may move now (seated, game on, pending, version fresh)."""
        g, seat = await self.seat_for(game, user_id)
        state = self._active(g)
        g.engine.check(state, seat, version)
        return g, seat

    async def move(
        self, game: int, user_id: int, action_data: Any, version: int | None = None
    ) -> MoveResult:
        """Apply and commit ``user_id``'s move, then every AI reply it makes pending."""
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            state = self._active(g)
            # The shared pre-checks come before parsing, so a player out of turn hears
            # "not your turn" rather than a complaint about the move's shape.
            g.engine.check(state, seat, version)
            action = g.engine.parse_action(action_data)
            new, events = g.engine.apply(state, seat, action, version)
            result = MoveResult(game=g, before=state)
            await self._commit(g, seat, action, new, events, result, ai=False)
            await self._play_ai(g, result)
            return result

    async def move_many(
        self, game: int, user_id: int, actions: Sequence[Any], version: int | None = None
    ) -> MoveResult:
        """Apply and commit several moves of ``user_id`` in a row, then the AI replies.

        For a multi-step choice made in one go (a building and the cards played there):
        every step is applied in memory first, so nothing is committed unless all are
        legal; each step is then logged as its own move, as if made one at a time.
        """
        if not actions:
            raise Refusal(msg("You have not chosen anything."))
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            state = self._active(g)
            g.engine.check(state, seat, version)
            planned: list[tuple[Action, GameState, list[Event]]] = []
            current = state
            for data in actions:
                action = g.engine.parse_action(data)
                current, events = g.engine.apply(current, seat, action)
                planned.append((action, current, events))
            result = MoveResult(game=g, before=state)
            await self._commit_all(g, seat, planned, result)
            await self._play_ai(g, result)
            return result

    async def _commit(
        self,
        g: Game,
        seat: Seat,
        action: Action,
        new: GameState,
        events: list[Event],
        result: MoveResult,
        *,
        ai: bool,
        action_json: str | None = None,
    ) -> None:
        await self._commit_all(g, seat, [(action, new, events)], result, ai=ai,
                               action_json=action_json)

    async def _commit_all(
        self,
        g: Game,
        seat: Seat,
        planned: Sequence[tuple[Action, GameState, list[Event]]],
        result: MoveResult,
        *,
        ai: bool = False,
        action_json: str | None = None,
    ) -> None:
        """Commit ``seat``'s steps (already applied in memory) in one transaction, with the
        deadlines they leave and the outbox note of ``result``: all of it, or nothing."""
        assert g.state is not None
        writes: list[MoveWrite] = []
        steps: list[Step] = []
        prev = g.state
        new_waits = False
        for action, new, events in planned:
            plan = await self._plan(g, prev, new)
            new_waits = new_waits or (plan is not None and bool(plan.new))
            writes.append(MoveWrite(
                seat=seat,
                action=action_json if action_json is not None else g.engine.dump_action(action),
                state=g.engine.dump_state(new), finished=new.finished, deadlines=plan, own=not ai,
            ))
            steps.append(Step(seat=seat, action=action, events=events, version=new.version, ai=ai,
                              state=new))
            prev = new
        result.steps.extend(steps)
        written = result.change.id if result.change is not None else None
        try:
            await self.store.commit_moves(g.id, expected_version=g.state.version, steps=writes,
                                          change=result.note())
        except StaleVersion:
            del result.steps[-len(steps):]
            if result.change is not None:
                result.change.id = written  # a row written by the rolled-back commit is gone
            # Someone else's write landed first (another process, or a bug in our
            # locking): our copy is stale, so reload it and let the player look again.
            self.forget(g.id)
            raise StaleAction(
                msg("The game changed while you were choosing; look at the board again."),
            ) from None
        except BaseException:
            del result.steps[-len(steps):]
            if result.change is not None:
                result.change.id = written
            raise
        g.state = prev
        g.row = dataclasses.replace(
            g.row,
            version=prev.version,
            state=writes[-1].state,
            status="finished" if prev.finished else g.row.status,
        )
        if not ai:
            g.seats = [dataclasses.replace(r, seen_seq=prev.version) if r.seat == seat else r
                       for r in g.seats]
        crash_point("session.committed")
        if new_waits:
            self.on_deadlines()
        if new.finished:
            self._game_over(g)

    async def _plan(self, g: Game, prev: GameState | None, new: GameState) -> DeadlinePlan | None:
        """The game's deadlines after a step from ``prev`` to ``new``: a seat that stays
        pending keeps its wait, a seat that has just become pending starts one, the rest
        have none. None when the game has no clock (nothing to write)."""
        length = g.row.clock_seconds
        if not length or new.finished:
            return None
        humans = {s.seat: s for s in g.seats if not s.ai and s.user_id is not None}
        now_pending = set(g.engine.pending(new)) & set(humans)
        before = set(g.engine.pending(prev)) if prev is not None and not prev.finished else set()
        keep = now_pending & before
        fresh = sorted(now_pending - before)
        rows: list[DeadlineRow] = []
        if fresh:
            users = [humans[s].user_id for s in fresh]
            settings = await self.store.users_settings([u for u in users if u is not None])
            now = self.clock.now()
            for seat in fresh:
                uid = humans[seat].user_id
                assert uid is not None
                rows.append(new_wait(g.id, seat, uid, now, length, settings[uid].vacation_until))
        return DeadlinePlan(keep=frozenset(keep), new=tuple(rows))

    async def _play_ai(self, g: Game, result: MoveResult) -> None:
        ai_seats = {s.seat for s in g.seats if s.ai}
        for _ in range(AI_MOVE_LIMIT):
            if not ai_seats or g.state is None or g.state.finished:
                return
            turn = [s for s in g.engine.pending(g.state) if s in ai_seats]
            if not turn:
                return
            seat = turn[0]
            try:
                action = g.engine.ai_action(g.state, seat)
                new, events = g.engine.apply(g.state, seat, action)
            except Exception:
                # The human's move is already committed and must still reach Discord;
                # the AI gets another chance at the next start (resume_ai).
                log.exception("game %s: AI seat %s failed to move", g.id, seat)
                return
            await self._commit(g, seat, action, new, events, result, ai=True)
        log.error("game %s: AI seats kept moving past %s moves; stopped", g.id, AI_MOVE_LIMIT)

    async def resume_ai(self, game: int) -> MoveResult | None:
        """Let AI seats make any moves they owe (after a restart); None if there were none."""
        async with self.lock(game):
            g = await self.get(game)
            if g is None or g.status != "active" or g.state is None:
                return None
            result = MoveResult(game=g, before=g.state)
            await self._play_ai(g, result)
            return result if result.steps else None

    # -- reading ----------------------------------------------------------------------

    async def replay(self, game: int, viewer: Seat | None) -> list[LogLine]:
        """The game's log from its seed, with only the events ``viewer`` may read."""
        g = await self.require(game)
        if g.row.seed is None:
            return []
        lines: list[LogLine] = []
        rows = await self.store.actions(game)
        for entry in replay_log(g.engine, len(g.seats), g.row.options, g.row.seed, rows):
            lines.append(LogLine(
                seq=entry.row.seq, seat=entry.row.seat,
                events=[e for e in entry.events if e.visible_to(viewer)],
                at=entry.row.at, undoes=entry.undoes,
            ))
        return lines

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

    # -- lobby management --------------------------------------------------------------

    async def remove_from_lobby(self, game: int, *, seat: Seat, by: int) -> Game:
        """Take a seat (an AI seat or another player) out of the lobby (host only)."""
        async with self.lock(game):
            g = await self.require(game)
            self._lobby(g)
            self._host_only(g, by, msg("Only the player who created the game can remove players."))
            try:
                row = g.seat_row(seat)
            except KeyError:
                raise Refusal(msg("Nobody sits there.")) from None
            if row.user_id == by:
                raise Refusal(
                    msg("You cannot remove yourself: hand hosting to another player, or Leave."),
                )
            if not await self.store.remove_seat_number(game, seat):
                self.forget(game)
                raise _started()
            await self._reload_seats(g)
            return g

    async def transfer_host(self, game: int, *, to: int, by: int) -> Game:
        """Hand hosting over to another seated player (host only)."""
        async with self.lock(game):
            g = await self.require(game)
            if g.status not in ("lobby", "active"):
                raise Refusal(msg("The game is already closed."))
            self._host_only(g, by, msg("Only the player who created the game can hand hosting over."))
            if g.seat_of(to) is None:
                raise Refusal(
                    msg("You can only hand hosting to someone who plays in this game."),
                )
            await self.store.set_host(game, to)
            await self._reload_row(g)
            return g

    # -- the clock ----------------------------------------------------------------------

    async def timeout(self, row: DeadlineRow) -> MoveResult | None:
        """Apply the timeout action for the due deadline ``row``: an interrupt window is
        answered "no"; otherwise the bot plays the seat's turn ('ai') or takes the seat for
        good ('drop'). None when the wait was already over (someone moved first)."""
        async with self.lock(row.game):
            g = await self.get(row.game)
            if g is None or g.status != "active" or g.state is None:
                return None
            current = {d.seat: d for d in await self.store.deadlines(g.id)}
            d = current.get(row.seat)
            if d is None or d.started_at != row.started_at or d.paused or d.due_at > self.clock.now():
                return None
            seat = row.seat
            srow = g.seat_row(seat)
            if seat not in g.pending() or srow.ai or srow.user_id != row.user_id:
                # A leftover wait (the seat changed hands, say): it has nothing to time.
                await self.store.claim_deadline(d)
                return None
            result = MoveResult(game=g, before=g.state, timed_out=seat)
            if self.is_reaction(g, seat):
                actions = g.legal_actions(seat)
                no = [a for a in actions if getattr(a, "kind", None) in DECLINE_KINDS]
                action = no[0] if no else g.engine.ai_action(g.state, seat)
                new, events = g.engine.apply(g.state, seat, action)
                await self._commit(g, seat, action, new, events, result, ai=True)
            elif g.row.timeout_action == "drop":
                result.dropped = True
                await self.store.drop_seat(g.id, seat, change=result.note())
                await self._reload_seats(g)
                # Rewrite the deadlines without the dropped seat (and nothing else changes).
                await self.store.put_deadlines([])
                self._game_over(g, dropped=row.user_id)
            else:
                for _ in range(AI_MOVE_LIMIT):
                    if g.state is None or g.state.finished or seat not in g.engine.pending(g.state):
                        break
                    action = g.engine.ai_action(g.state, seat)
                    new, events = g.engine.apply(g.state, seat, action)
                    await self._commit(g, seat, action, new, events, result, ai=True)
            await self._play_ai(g, result)
            return result

    # -- undo by consent -----------------------------------------------------------------

    async def _undoable(self, g: Game, seat: Seat) -> int:
        """The seq of ``seat``'s last move if the rules of undo allow taking it back."""
        rows = await self.store.actions(g.id, after=max(0, g.version - 1))
        last = rows[-1] if rows else None
        if g.state is None or g.status != "active" or last is None or last.seq != g.version:
            raise _no_undo()
        if last.seat != seat or not self._was_own(g, seat, last.seq):
            raise Refusal(
                msg("You can only take back your own last move, before anyone else has moved."),
            )
        assert g.row.seed is not None
        entries = list(replay_log(g.engine, len(g.seats), g.row.options, g.row.seed,
                                  await self.store.actions(g.id)))
        entry = entries[-1]
        if entry.undoes is not None:
            raise _no_undo()
        if reveals(g.engine, entry.before, entry.after, entry.events, seat):
            raise Refusal(
                msg("That move cannot be taken back: it drew something at random or showed "
                    "hidden information."),
            )
        return last.seq

    @staticmethod
    def _was_own(g: Game, seat: Seat, seq: int) -> bool:
        # The player's own move (not the bot's for them): their seen_seq points at it.
        row = g.seat_row(seat)
        return not row.ai and row.seen_seq == seq

    async def request_undo(
        self, game: int, user_id: int
    ) -> tuple[Game, UndoRequest, MoveResult | None]:
        """Ask to take back ``user_id``'s last move. Returns the game, the request, and the
        undo itself when it was carried out at once (no other human to ask)."""
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            self._active(g)
            seq = await self._undoable(g, seat)
            others = self._undo_voters(g, seat)
            req = UndoRequest(game=g.id, seat=seat, seq=seq, approvals=(), created_at=self.clock.now())
            if not others:
                return g, req, await self._do_undo(g, req)
            await self.store.put_undo_request(req)
            return g, req, None

    def _undo_voters(self, g: Game, seat: Seat) -> list[Seat]:
        return [r.seat for r in g.seats if not r.ai and r.user_id is not None and r.seat != seat]

    async def answer_undo(
        self, game: int, user_id: int, yes: bool
    ) -> tuple[Game, UndoRequest, str, MoveResult | None]:
        """Approve or refuse the open undo request: 'pending' (more votes needed), 'done'
        (taken back: the result comes with it), 'refused', or 'lapsed' (the game moved on or
        the time ran out)."""
        async with self.lock(game):
            g, seat = await self.seat_for(game, user_id)
            req = await self.store.undo_request(game)
            if req is None:
                raise Refusal(msg("There is no open request to take back a move."))
            if seat == req.seat:
                raise Refusal(msg("You cannot vote on your own request."))
            if seat not in self._undo_voters(g, req.seat):
                raise NotSeated()
            limit = g.row.clock_seconds or UNDO_TIMEOUT
            if g.version != req.seq or self.clock.now() - req.created_at > limit:
                await self.store.clear_undo_request(game)
                return g, req, "lapsed", None
            if not yes:
                await self.store.clear_undo_request(game)
                return g, req, "refused", None
            req = UndoRequest(req.game, req.seat, req.seq, tuple(sorted({*req.approvals, seat})),
                              req.created_at)
            if set(self._undo_voters(g, req.seat)) - set(req.approvals):
                await self.store.put_undo_request(req)
                return g, req, "pending", None
            return g, req, "done", await self._do_undo(g, req)

    async def _do_undo(self, g: Game, req: UndoRequest) -> MoveResult:
        assert g.state is not None and g.row.seed is not None
        entries = list(replay_log(g.engine, len(g.seats), g.row.options, g.row.seed,
                                  await self.store.actions(g.id)))
        entry = entries[-1]
        restored = entry.before.model_copy(update={"version": g.state.version + 1})
        result = MoveResult(game=g, before=g.state, undone=req.seq)
        await self._commit(g, req.seat, None, restored, [], result, ai=False,  # type: ignore[arg-type]
                           action_json=undo_json(req.seq))
        await self.store.clear_undo_request(g.id)
        return result

    async def pending_undo(self, game: int) -> UndoRequest | None:
        """The game's open undo request, if any and still current."""
        g = await self.get(game)
        req = await self.store.undo_request(game)
        if g is None or req is None or g.version != req.seq:
            return None
        return req


def _no_undo() -> Refusal:
    return Refusal(msg("There is no move to take back now."))
