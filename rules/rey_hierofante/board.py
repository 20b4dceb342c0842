"""Geometry of the 3x3 board and the passive effects that depend on it."""

from __future__ import annotations

from functools import cache

from rules.rey_hierofante.model import Cell, RhState
from rules.rey_hierofante.tiles import PRINTED_SHIELD

# Direction name -> (row step, column step); row 0 is the top of the picture (seat 1's side).
DIRS: dict[str, tuple[int, int]] = {
    "n": (-1, 0), "ne": (-1, 1), "e": (0, 1), "se": (1, 1),
    "s": (1, 0), "sw": (1, -1), "w": (0, -1), "nw": (-1, -1),
}
ORTH = ("n", "e", "s", "w")
DIAG = ("ne", "se", "sw", "nw")


def _step(sq: int, d: str) -> int | None:
    dr, dc = DIRS[d]
    r, c = divmod(sq, 3)
    r, c = r + dr, c + dc
    return r * 3 + c if 0 <= r < 3 and 0 <= c < 3 else None


# The board's geometry never changes: each answer is worked out once (the built-in player
# asks it hundreds of thousands of times in a burst of timeouts) and shared, as a tuple.
@cache
def neighbours(sq: int, reach: str) -> tuple[int, ...]:
    """Squares next to ``sq``: "orth", "diag" or "adj8"."""
    dirs = ORTH if reach == "orth" else DIAG if reach == "diag" else ORTH + DIAG
    return tuple(n for d in dirs if (n := _step(sq, d)) is not None)


@cache
def line(sq: int, d: str) -> tuple[int, ...]:
    """Every square from ``sq`` (exclusive) to the edge in direction ``d``."""
    out: list[int] = []
    cur = _step(sq, d)
    while cur is not None:
        out.append(cur)
        cur = _step(cur, d)
    return tuple(out)


@cache
def front3(sq: int, owner: int) -> tuple[int, ...]:
    """The three squares beyond the top edge of a tile facing ``owner``.

    A tile faces its owner, so its top points at the opponent: up the picture for seat 0
    (who sits at the bottom), down for seat 1.
    """
    dirs = ("nw", "n", "ne") if owner == 0 else ("sw", "s", "se")
    return tuple(n for d in dirs if (n := _step(sq, d)) is not None)


@cache
def left_right(sq: int) -> tuple[int, ...]:
    """The squares to the left and right of ``sq`` (the same pair whichever way it faces)."""
    return tuple(n for d in ("w", "e") if (n := _step(sq, d)) is not None)


def powered(cell: Cell | None, tile: str) -> bool:
    """Whether ``cell`` shows ``tile`` face up with its power (a covered tile has none)."""
    return cell is not None and cell.face_up and cell.tile == tile


def shielded(state: RhState, sq: int) -> bool:
    """A face-up tile with a shield: printed, under a Torre, or beside a Sabio."""
    cell = state.board[sq]
    if cell is None or not cell.face_up:
        return False
    if cell.tile in PRINTED_SHIELD or cell.covered is not None:
        return True
    return any(powered(state.board[n], "sabio") for n in left_right(sq))


def targetable(state: RhState, sq: int) -> bool:
    """A tile an effect may touch: on the board, face up, without a shield."""
    cell = state.board[sq]
    return cell is not None and cell.face_up and not shielded(state, sq)


def cancelled_at(state: RhState, sq: int) -> bool:
    """A tile placed on ``sq`` loses its active effect (Chamán orthogonal, Hechicera diagonal)."""
    return any(powered(state.board[n], "chaman") for n in neighbours(sq, "orth")) or any(
        powered(state.board[n], "hechicera") for n in neighbours(sq, "diag")
    )


def allies(state: RhState) -> list[int]:
    """Face-up squares each seat owns (a Torre and what it covers are one square)."""
    out = [0, 0]
    for cell in state.board:
        if cell is not None and cell.face_up:
            out[cell.owner] += 1
    return out
