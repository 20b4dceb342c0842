"""The city of Ragami as data: 30 street squares, 8 buildings and their three adjacencies.

The board picture was lost in the rulebook's extraction; ``city.json`` is the project's own
layout (see docs/rules/ragami.md). Nodes are strings: a street square is its number
("1".."30"), a building its letter ("A".."H").
"""

from __future__ import annotations

import json
from collections import deque
from functools import lru_cache
from pathlib import Path

from rules.core import Text
from rules.ragami.text import msg

_DATA = json.loads((Path(__file__).with_name("city.json")).read_text(encoding="utf-8"))

SQUARES: tuple[int, ...] = tuple(s["n"] for s in _DATA["squares"])
POSITION: dict[int, tuple[float, float]] = {s["n"]: (s["x"], s["y"]) for s in _DATA["squares"]}
BUILDINGS: tuple[str, ...] = tuple(b["id"] for b in _DATA["buildings"])
# the buildings' names are the project's own, like the layout (city.json holds no words)
BUILDING_NAME: dict[str, Text] = {
    "A": msg("Market"),
    "B": msg("Cathedral"),
    "C": msg("Library"),
    "D": msg("Hospital"),
    "E": msg("Town hall"),
    "F": msg("School"),
    "G": msg("Theatre"),
    "H": msg("Station"),
}
RECT: dict[str, tuple[float, float, float, float]] = {
    b["id"]: tuple(b["rect"]) for b in _DATA["buildings"]
}  # type: ignore[misc]
AROUND: dict[str, tuple[int, ...]] = {b["id"]: tuple(b["squares"]) for b in _DATA["buildings"]}


def _links(pairs: list[list], keys: tuple) -> dict:
    out: dict = {k: [] for k in keys}
    for a, b in pairs:
        out[a].append(b)
        out[b].append(a)
    return {k: tuple(sorted(v)) for k, v in out.items()}


STREET: dict[int, tuple[int, ...]] = _links(_DATA["streets"], SQUARES)
BUILDING_LINKS: dict[str, tuple[str, ...]] = _links(_DATA["building_links"], BUILDINGS)
BUILDINGS_AT: dict[int, tuple[str, ...]] = {
    s: tuple(b for b in BUILDINGS if s in AROUND[b]) for s in SQUARES
}

# every node's neighbours for a Ragami: streets, the squares around a building, the
# buildings next to a building
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    **{str(s): tuple([str(t) for t in STREET[s]] + list(BUILDINGS_AT[s])) for s in SQUARES},
    **{b: tuple([str(s) for s in AROUND[b]] + list(BUILDING_LINKS[b])) for b in BUILDINGS},
}

MAX_STEPS = 4


def is_square(node: str) -> bool:
    """Whether a node is a street square (not a building)."""
    return node.isdigit()


def node_name(node: str) -> Text:
    """How a node is named to players: "square 12" or the building's name and letter."""
    if is_square(node):
        return msg("square {number}", number=node)
    return msg("{building} ({letter})", building=BUILDING_NAME[node], letter=node)


@lru_cache(maxsize=64)
def street_reach(start: int) -> tuple[int, ...]:
    """Squares a Saint or Demon may end on: 1 to 4 spaces along the streets, not the start."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if seen[s] == MAX_STEPS:
            continue
        for t in STREET[s]:
            if t not in seen:
                seen[t] = seen[s] + 1
                todo.append(t)
    return tuple(sorted(s for s in seen if s != start))


@lru_cache(maxsize=4096)
def ragami_reach(start: str, forbidden: frozenset[str]) -> tuple[str, ...]:
    """Nodes a Ragami can reach in 1 to 4 spaces through streets and buildings, never
    passing through nor stopping on a forbidden square (the other limits are the caller's)."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        n = todo.popleft()
        if seen[n] == MAX_STEPS:
            continue
        for m in NEIGHBOURS[n]:
            if m not in seen and m not in forbidden:
                seen[m] = seen[n] + 1
                todo.append(m)
    return tuple(sorted((n for n in seen if n != start), key=_node_key))


def _node_key(node: str) -> tuple[int, int | str]:
    return (0, int(node)) if node.isdigit() else (1, node)


def distance(a: str, b: str, forbidden: frozenset[str] = frozenset()) -> int:
    """Spaces a Ragami needs from ``a`` to ``b`` (a large number if it cannot get there)."""
    if a == b:
        return 0
    seen = {a: 0}
    todo = deque([a])
    while todo:
        n = todo.popleft()
        for m in NEIGHBOURS[n]:
            if m not in seen and m not in forbidden:
                seen[m] = seen[n] + 1
                if m == b:
                    return seen[m]
                todo.append(m)
    return 99
