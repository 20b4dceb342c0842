"""Every game Tablero hosts, keyed by game id."""

from __future__ import annotations

from functools import cache

from rules.core import Engine


@cache
def games() -> dict[str, Engine]:
    """The engines by game id; a new game plugs in here and nowhere else in the platform."""
    from rules.ankh_morpork.engine import AmEngine
    from rules.guerra_de_mitos.engine import GdmEngine
    from rules.ragami.engine import RgEngine
    from rules.rattus_cartus.engine import RcEngine
    from rules.rey_hierofante.engine import RhEngine

    engines: list[Engine] = [RhEngine(), RcEngine(), AmEngine(), RgEngine(), GdmEngine()]
    return {e.id: e for e in engines}


def engine(game_id: str) -> Engine:
    """The engine for ``game_id``; KeyError if unknown."""
    return games()[game_id]
