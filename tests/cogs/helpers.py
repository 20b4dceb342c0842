"""Games built in memory (no store, no Discord) for tests of menus and messages."""

from __future__ import annotations

from typing import Any

from rules.core import GameState
from rules.rey_hierofante.engine import RhEngine
from services.session import Game
from storage import GameRow, SeatRow

ENGINE = RhEngine()
USERS = (101, 202)


def game(
    state: GameState | None = None,
    *,
    status: str = "active",
    ai: bool = False,
    seats: int = 2,
    locale: str = "es",
    options: dict[str, Any] | None = None,
) -> Game:
    """A Rey y Hierofante game around ``state`` (a fresh seeded one by default)."""
    opts = options or {}
    if state is None and status != "lobby":
        state = ENGINE.setup(2, opts, 7)
    row = GameRow(
        id=1, guild_id=5, channel_id=900, game_id="rey_hierofante",
        options=ENGINE.parse_options(opts).model_dump(mode="json"), status=status, seed=7,
        version=state.version if state else 0, state=None, host_id=USERS[0], locale=locale,
        board_channel_id=900, board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    rows = [
        SeatRow(game=1, seat=i, user_id=None if (ai and i == 1) else USERS[i], ai=ai and i == 1,
                name=("Bot" if ai and i == 1 else ("alice", "bob")[i]), locale=None, dm_closed=False)
        for i in range(seats)
    ]
    return Game(row=row, seats=rows, engine=ENGINE, state=state if status != "lobby" else None)


def to_act(g: Game) -> int:
    """The seat that must act now."""
    return next(iter(g.pending()))


def advance(g: Game, moves: int) -> Game:
    """Play the first legal action ``moves`` times."""
    assert g.state is not None
    state = g.state
    for _ in range(moves):
        seat = next(iter(ENGINE.pending(state)))
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    g.state = state
    return g
