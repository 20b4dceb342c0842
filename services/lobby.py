"""Lobbies: opening one, seats taken and given up, AI seats, hosting, the start (the deal,
places drawn where the rulebook says so) and abandoning a game."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from rules.core import Engine, Seat, Text
from rules.phrases import Phrases
from services.fairness import new_salt
from services.faults import crash_point
from services.game import Game, NotSeated, Refusal
from services.move_result import MoveResult
from services.moves import MovesMixin
from storage import ChannelBusy, NotInLobby, SeatTaken, StaleVersion
from storage.outbox import ChangeNote

msg = Phrases("core")


def _started() -> Refusal:
    return Refusal(
        msg("The game has already started; the lobby is closed."),
    )


def drawn_places(engine: Engine[Any], seats: Sequence[int], seed: int) -> dict[int, int] | None:
    """Where each lobby seat sits when the game starts (old -> new), for a game whose
    rulebook draws the places (``Engine.random_seats``); None keeps join order. Drawn from the
    game's seed, so the same start gives the same table."""
    if not engine.random_seats or len(seats) < 3:
        return None  # with two players, every order is the same table
    order = list(seats)
    random.Random(f"places:{seed}").shuffle(order)
    return {old: new for new, old in enumerate(order)}


class LobbyMixin(MovesMixin):
    """A game from its lobby to its start, and its closing by its host."""

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
        bank: tuple[int, int] | None = None,
        host_locale: str | None = None,
        pending_thread: int | None = None,
    ) -> Game:
        """Open a lobby in ``channel_id`` with the host seated; options are validated first.
        ``locale`` is the game's public language; ``host_locale`` the host's own (if other).
        ``bank``: (increment, cap) when the clock is a time bank of ``clock_seconds``."""
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
                bank=bank,
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
            seed, salt = self._seed(), new_salt()
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
                    seating=seating, salt=salt,
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

    async def withdraw(self, game: int) -> None:
        """Close a lobby that never reached Discord (its message could not be posted): it owes
        nothing, and its channel is free for the next game."""
        async with self.lock(game):
            g = await self.require(game)
            if g.status != "lobby":
                return
            await self.store.set_status(game, "abandoned")
            await self._reload_row(g)

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
