"""Every game Tablero hosts, keyed by game id: each engine paired with its built-in player."""

from __future__ import annotations

from functools import cache

from rules.core import Engine


@cache
def games() -> dict[str, Engine]:
    """The engines by game id, each with its AI; a new game plugs in here and nowhere else in
    the platform. A game's AI imports its engine, never the reverse: they meet here."""
    # imported when first asked for, so that importing the registry loads no game
    from rules.ankh_morpork import ai as am_ai
    from rules.ankh_morpork.engine import AmEngine
    from rules.guerra_de_mitos import ai as gdm_ai
    from rules.guerra_de_mitos.engine import GdmEngine
    from rules.ragami import ai as rg_ai
    from rules.ragami.engine import RgEngine
    from rules.rattus_cartus import ai as rc_ai
    from rules.rattus_cartus.engine import RcEngine
    from rules.rey_hierofante import ai as rh_ai
    from rules.rey_hierofante.engine import RhEngine

    engines: list[Engine] = [
        RhEngine(ai=rh_ai.choose),
        RcEngine(ai=rc_ai.choose),
        AmEngine(ai=am_ai.choose),
        RgEngine(ai=rg_ai.choose),
        GdmEngine(ai=gdm_ai.choose),
    ]
    return {e.id: e for e in engines}


def engine(game_id: str) -> Engine:
    """The engine for ``game_id``, with its AI; KeyError if unknown."""
    return games()[game_id]
