"""Build Rey y Hierofante positions by hand for scenario tests."""

from __future__ import annotations

from typing import Any

from rules.core import Rng
from rules.rey_hierofante.engine import RhEngine
from rules.rey_hierofante.model import Cell, Options, RhState, ZoneTile, parse_square

E = RhEngine()


def sq(name: str) -> int:
    """Square index from "B2"."""
    i = parse_square(name)
    assert i is not None
    return i


def position(
    board: dict[str, tuple[Any, ...]] | None = None,
    *,
    zones: tuple[list[str], list[str]] = (["castillo"], ["templo"]),
    neutral: list[str] | None = None,
    turn: int = 0,
    discard: list[str] | None = None,
    hidden: tuple[list[str], list[str]] = ([], []),
    **options: Any,
) -> RhState:
    """A mid-game position: board {"B2": (tile, owner[, covered][, face_up, destroyed_by])}."""
    cells: list[Cell | None] = [None] * 9
    for name, spec in (board or {}).items():
        tile, owner, *rest = spec
        covered = rest[0] if rest else None
        face_up = rest[1] if len(rest) > 1 else True
        destroyed_by = rest[2] if len(rest) > 2 else None
        cells[sq(name)] = Cell(tile=tile, owner=owner, covered=covered, face_up=face_up,
                               destroyed_by=destroyed_by)
    zs = [[ZoneTile(tile=t) for t in zones[s]] + [ZoneTile(tile=t, hidden=True) for t in hidden[s]]
          for s in (0, 1)]
    return RhState(
        num_seats=2, rng=Rng(seed=1), options=Options(**options), phase="place",
        turn=turn, first_move=False, board=cells, neutral_zone=neutral or [], zones=zs,
        discard=discard or [], stock=[],
    )


def owners(state: RhState) -> dict[str, tuple[str | None, int, bool]]:
    """Board as {"B2": (tile, owner, face_up)} for compact assertions."""
    from rules.rey_hierofante.model import square_name

    return {square_name(i): (c.tile, c.owner, c.face_up) for i, c in enumerate(state.board)
            if c is not None}


def play(state: RhState, seat: int, *actions: dict[str, Any]) -> RhState:
    """Apply a sequence of actions (as dicts) by ``seat``."""
    for a in actions:
        state, _ = E.apply(state, seat, a)
    return state
