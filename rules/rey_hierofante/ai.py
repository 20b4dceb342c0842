"""The built-in opponent: a greedy player that looks one whole turn ahead."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.core import Action
from rules.rey_hierofante import board as B
from rules.rey_hierofante.model import ChooseStarter, DraftPick, Place, RhState
from rules.rey_hierofante.tiles import TILES

if TYPE_CHECKING:
    from rules.rey_hierofante.engine import RhEngine

# How much a neutral is worth keeping in a draft: effects that change the count of
# allies first.
_DRAFT_TASTE = {"dragon": 9, "adivina": 7, "samurai": 6, "ninja": 6, "bardo": 5, "artista": 5,
                "hada": 5, "pirata": 4, "sabio": 4, "torre": 4, "chaman": 3, "hechicera": 3,
                "asesino": 3, "bruja": 2, "ermitano": 2, "muerte": 1, "ciudadano": 0}


def evaluate(state: RhState, seat: int) -> float:
    """How good ``state`` looks for ``seat``: allies, shields, Death, and match results."""
    if state.history and (state.finished or state.phase == "choose_starter"):
        last = state.history[-1]
        return 1000.0 if last.winner == seat else -1000.0
    score = 0.0
    for i, c in enumerate(state.board):
        if c is None:
            continue
        sign = 1 if c.owner == seat else -1
        if not c.face_up:
            # a tile destroyed by us will leave before the opponent can use it again
            continue
        v = 1.0 + (0.4 if B.shielded(state, i) else 0.0)
        if B.powered(c, "muerte"):
            v = -2.5
        score += sign * v
    # tiles in hand are options for later turns
    score += 0.05 * (len(state.zones[seat]) - len(state.zones[1 - seat]))
    return score


# The state after a legal action: the engine's light apply (no checks, no texts) by default.
Step = Callable[["RhEngine", RhState, int, Action], RhState]


def _light(engine: RhEngine, state: RhState, seat: int, action: Action) -> RhState:
    return engine.after_legal(state, seat, action)


def choose(engine: RhEngine, state: RhState, seat: int, step: Step = _light) -> Action:
    """Pick the action whose whole turn leaves the best-looking board (``step``: how a
    weighed action is applied; the same states whichever way)."""
    legal = engine.legal_actions(state, seat)
    if state.phase == "choose_starter":
        return ChooseStarter(starter=seat)  # placing last is worth more than the Citizen
    if state.phase == "draft":
        return max(legal, key=lambda a: _DRAFT_TASTE.get(a.tile, 0) if isinstance(a, DraftPick) else 0)
    best, best_v = legal[0], float("-inf")
    for a in legal:
        v = _after(engine, state, seat, a, step)
        if isinstance(a, Place) and TILES[a.tile].faction == "neutral" and a.tile in state.neutral_zone:
            v += 0.1  # a neutral taken from the shared area is one the opponent cannot use
        if v > best_v:
            best, best_v = a, v
    return best


def _after(engine: RhEngine, state: RhState, seat: int, action: Action, step: Step, depth: int = 0) -> float:
    nxt = step(engine, state, seat, action)
    if nxt.phase == "effect" and nxt.effect is not None and nxt.effect.seat == seat and depth < 3:
        return max(_after(engine, nxt, seat, a, step, depth + 1) for a in engine.legal_actions(nxt, seat))
    return evaluate(nxt, seat)
