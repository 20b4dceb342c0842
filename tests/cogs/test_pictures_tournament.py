"""Tournament pictures: the standings table and the bracket decode and grow as they should."""

from __future__ import annotations

import io

from PIL import Image

from cogs.pictures.tournament import MAX_ROWS, bracket_png, standings_png
from rules.core import Outcome, tr
from services.pairing import double_elimination, single_elimination
from services.standings import SWISS_TIEBREAKS, compute_standings, result_from_outcome


def image(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


def standings(n: int):
    players = list(range(1, n + 1))
    results = [
        result_from_outcome(
            1, (players[i], players[i + 1]), Outcome(ranking=[[0], [1]], reason=tr("a", "b"))
        )
        for i in range(0, n - 1, 2)
    ]
    return compute_standings(players, results, SWISS_TIEBREAKS, dropped=[n])


def test_standings_picture_has_a_row_per_player_up_to_the_cap() -> None:
    names = {p: f"Jugadora {p} con un nombre larguísimo que no cabe" for p in range(1, 200)}
    small = image(standings_png(standings(4), names, SWISS_TIEBREAKS, "es", "Liga"))
    bigger = image(standings_png(standings(8), names, SWISS_TIEBREAKS, "en", "League"))
    huge = image(standings_png(standings(150), names, SWISS_TIEBREAKS, "es", "Liga"))
    assert small.format == "PNG" and small.width == bigger.width
    assert bigger.height - small.height == 4 * 30
    assert huge.height == small.height + (MAX_ROWS - 4) * 30
    # Fewer tie-breaks, narrower table.
    narrow = image(standings_png(standings(4), names, (), "es", "Liga"))
    assert narrow.width < small.width


def test_bracket_picture_has_a_column_per_round() -> None:
    names = {p: f"P{p}" for p in range(1, 9)}
    single = image(bracket_png(single_elimination(list(range(1, 9))), names, "es", "Copa"))
    double = image(bracket_png(double_elimination(list(range(1, 9))), names, "en", "Cup"))
    # Single: 3 rounds; double: 3 winners' rounds, 4 losers' rounds, 2 finals.
    assert (single.width - 24) // (190 + 28) == 3
    assert (double.width - 24) // (190 + 28) == 9
