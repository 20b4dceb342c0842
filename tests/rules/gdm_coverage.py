"""Which Guerra de Mitos cards have a test that plays them (or checks their static text).

Each card-test file registers the cards its tests play, either with the decorator::

    @covers("0005", "0021")
    def test_amaterasu_...(): ...

or, for a table of scenarios, by calling ``cover(ids, "where")`` once at import time::

    cover([case.card for case in CASES], __name__)

``test_guerra_de_mitos_coverage.py`` imports every module in ``CARD_TEST_MODULES`` and
requires the ids registered there to be all 364 cards of the first era.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T", bound=Callable[..., object])

# The files that hold the per-card tests; each one owns a part of the card list.
CARD_TEST_MODULES: dict[str, tuple[int, int]] = {
    "tests.rules.test_guerra_de_mitos_cards_a": (1, 182),
    "tests.rules.test_guerra_de_mitos_cards_b": (183, 364),
}

# card id -> the tests (module.name) that play it
COVERED: dict[str, set[str]] = {}


def cover(cards: Iterable[str], where: str) -> None:
    """Record that the test(s) named ``where`` play each card of ``cards``."""
    for c in cards:
        if len(c) != 4 or not c.isdigit():
            raise ValueError(f"not a card id: {c!r}")
        COVERED.setdefault(c, set()).add(where)


def covers(*cards: str) -> Callable[[T], T]:
    """Decorator: the test plays the ability (or checks the static text) of these cards."""

    def deco(fn: T) -> T:
        cover(cards, f"{fn.__module__}.{getattr(fn, '__name__', 'test')}")
        return fn

    return deco


def owned(module: str) -> list[str]:
    """The card ids a card-test module is responsible for."""
    lo, hi = CARD_TEST_MODULES[module]
    return [f"{i:04d}" for i in range(lo, hi + 1)]


def load(module: str) -> bool:
    """Import one card-test module (filling COVERED); False when it does not exist yet."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return False
    return True


def covered_by(module: str) -> set[str]:
    """The card ids some test of ``module`` registered."""
    load(module)
    return {c for c, where in COVERED.items() if any(w.startswith(module) for w in where)}
