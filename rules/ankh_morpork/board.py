"""The city: 12 areas with their numbers, building costs, adjacency and river."""

from __future__ import annotations

from dataclasses import dataclass

from rules.catalogue import catalogues
from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


@dataclass(frozen=True)
class AreaInfo:
    """One area of the city; ``index`` is ``number - 1``."""

    index: int
    number: int
    id: str
    name: Text
    cost: int
    power: Text  # what its city area card lets its holder do


# Index = number - 1: the 12-sided die's result minus one names the area directly.
AREAS: tuple[AreaInfo, ...] = (
    AreaInfo(0, 1, "dolly_sisters", msg("Dolly Sisters"), 6,
             msg("Once a turn: pay $3 to put one of your minions here or in a neighbouring area.")),
    AreaInfo(1, 2, "unreal_estate", msg("Unreal Estate"), 18,
             msg("Once a turn: draw a card, then discard one.")),
    AreaInfo(2, 3, "dragons_landing", msg("Dragon's Landing"), 12,
             msg("Once a turn: collect $2 from the bank.")),
    AreaInfo(3, 4, "small_gods", msg("Small Gods"), 18,
             msg("When a random event reaches one of your pieces, pay $3 a piece to spare it (also outside your turn).")),
    AreaInfo(4, 5, "the_scours", msg("The Scours"), 6,
             msg("Once a turn: discard a card and collect $2.")),
    AreaInfo(5, 6, "the_hippo", msg("The Hippo"), 12,
             msg("Once a turn: collect $2 from the bank.")),
    AreaInfo(6, 7, "the_shades", msg("The Shades"), 6,
             msg("Once a turn: put a trouble marker here or in a neighbouring area that holds a minion.")),
    AreaInfo(7, 8, "dimwell", msg("Dimwell"), 6,
             msg("Once a turn: pay $3 to put one of your minions here or in a neighbouring area.")),
    AreaInfo(8, 9, "longwall", msg("Longwall"), 12,
             msg("Once a turn: collect $1 from the bank.")),
    AreaInfo(9, 10, "isle_of_gods", msg("Isle of Gods"), 12,
             msg("Once a turn: pay $2 to take a trouble marker off the board.")),
    AreaInfo(10, 11, "seven_sleepers", msg("Seven Sleepers"), 18,
             msg("Once a turn: collect $3 from the bank.")),
    AreaInfo(11, 12, "nap_hill", msg("Nap Hill"), 12,
             msg("Once a turn: collect $1 from the bank.")),
)
AREA_IDS: dict[str, int] = {a.id: a.index for a in AREAS}
N_AREAS = 12

DOLLY, UNREAL, DRAGONS, SMALL_GODS, SCOURS, HIPPO, SHADES, DIMWELL, LONGWALL, ISLE, SLEEPERS, NAP = range(12)

_EDGES = [
    (DOLLY, NAP), (DOLLY, DRAGONS), (DOLLY, UNREAL),
    (UNREAL, NAP), (UNREAL, DRAGONS), (UNREAL, SLEEPERS), (UNREAL, SMALL_GODS), (UNREAL, ISLE),
    (DRAGONS, SMALL_GODS),
    (SMALL_GODS, SCOURS), (SMALL_GODS, HIPPO), (SMALL_GODS, ISLE),
    (SCOURS, ISLE), (SCOURS, HIPPO), (SCOURS, DIMWELL), (SCOURS, SHADES),
    (HIPPO, SHADES), (SHADES, DIMWELL), (DIMWELL, LONGWALL),
    (LONGWALL, SLEEPERS), (LONGWALL, ISLE), (ISLE, SLEEPERS), (SLEEPERS, NAP),
]
ADJ: tuple[frozenset[int], ...] = tuple(
    frozenset({b for a, b in _EDGES if a == i} | {a for a, b in _EDGES if b == i}) for i in range(12)
)
# Areas a flood can reach: every area bordering the Ankh (all but Dragon's Landing and the Hippo).
RIVER: frozenset[int] = frozenset(range(12)) - {DRAGONS, HIPPO}
START_AREAS: tuple[int, ...] = (SHADES, SCOURS, DOLLY)


def area_by_name(name: str) -> int:
    """An area index from its id, number, or name in any language (case-insensitive)."""
    n = name.strip().lower()
    languages = catalogues().languages
    for a in AREAS:
        if n in (a.id, str(a.number), *(a.name.get(lang).lower() for lang in languages)):
            return a.index
    raise KeyError(name)
