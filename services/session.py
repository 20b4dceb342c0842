"""The session service: lobbies and moves of every game, serialised per game, Discord-free.

Interaction -> parse -> this service -> rules layer -> store; the caller tells Discord
only after this service returns, that is after the move is committed.

The service is composed of one part per subject: the cache and locks (game_cache), moves
and AI replies (moves), lobbies (lobby), the clock's timeouts (timeouts), undo by consent
(undo) and the log as a viewer reads it (game_log). The names callers use are re-exported
here, so ``from services.session import Game, MoveResult, Refusal, SessionService`` holds.
"""

from __future__ import annotations

from services.game import Game, NoGame, NotSeated, Refusal, private_part, secrets_of
from services.game_log import GameLogMixin, LogLine
from services.lobby import LobbyMixin, drawn_places
from services.move_result import GameOver, MoveResult, Step, change_payload
from services.moves import AI_MOVE_LIMIT
from services.timeouts import DECLINE_KINDS, TimeoutsMixin
from services.undo import UNDO_TIMEOUT, UndoMixin
from storage.lookups import UndoRequest

__all__ = [
    "AI_MOVE_LIMIT", "DECLINE_KINDS", "UNDO_TIMEOUT", "Game", "GameOver", "LogLine", "MoveResult",
    "NoGame", "NotSeated", "Refusal", "SessionService", "Step", "UndoRequest", "change_payload",
    "drawn_places", "private_part", "secrets_of",
]


class SessionService(LobbyMixin, TimeoutsMixin, UndoMixin, GameLogMixin):
    """Loads games lazily, serialises their changes with one lock per game, commits each move."""
