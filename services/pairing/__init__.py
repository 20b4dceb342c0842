"""Pairing of tournament rounds: Swiss, round robin, single and double elimination.

Everything here is pure and deterministic: players are opaque ids (Discord user ids in
practice), a round is a list of tables (seat order) plus the players who sit out (byes).
"""

from __future__ import annotations

from .common import History, Round, Table, table_sizes
from .elimination import (
    Bracket,
    BracketMatch,
    bracket_from,
    double_elimination,
    single_elimination,
)
from .round_robin import circle_round, circle_schedule, round_robin_round, round_robin_rounds
from .swiss import pair_swiss

__all__ = [
    "Bracket",
    "BracketMatch",
    "History",
    "Round",
    "Table",
    "bracket_from",
    "circle_round",
    "circle_schedule",
    "double_elimination",
    "pair_swiss",
    "round_robin_round",
    "round_robin_rounds",
    "single_elimination",
    "table_sizes",
]
