"""The standings as players read them: every number says what it is."""

from __future__ import annotations

from fractions import Fraction

from cogs.common.tournament_views import standing_line
from services.standings import Standing


def test_each_tiebreak_in_a_standings_line_carries_its_name() -> None:
    s = Standing(player=7, rank=1, points=Fraction(5, 2), games=3, wins=2,
                 tiebreaks={"buchholz": Fraction(9, 2), "sonneborn_berger": Fraction(3)})
    en = standing_line(s, ("buchholz", "sonneborn_berger"), False, "en-US")
    assert "Buchholz 4.50" in en and "Sonneborn-Berger 3" in en
    es = standing_line(s, ("buchholz",), False, "es-ES")
    assert "Buchholz 4.50" in es
