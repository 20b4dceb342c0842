"""The garbage collector's full passes are kept short: what one leaves alive is frozen (out of
later passes), and now and then everything is thawed, so a cycle that became garbage among
frozen objects is still freed by the next full pass."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from services.collector import FullPasses


class Cycle:
    """An object that points at itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def passes() -> Iterator[tuple[FullPasses, list[float]]]:
    now = [1000.0]
    policy = FullPasses(thaw_every=600.0, clock=lambda: now[0])
    policy.install()
    try:
        yield policy, now
    finally:
        policy.remove()
        gc.unfreeze()


def test_a_full_pass_freezes_what_it_left_alive(passes: tuple[FullPasses, list[float]]) -> None:
    policy, _ = passes
    kept = [Cycle() for _ in range(100)]
    gc.collect()
    assert policy.frozen == 1 and gc.get_freeze_count() >= len(kept)
    gc.collect(1)  # a younger generation's pass freezes nothing
    assert policy.frozen == 1


def test_a_thaw_lets_the_next_full_pass_free_cycles_among_the_frozen(
        passes: tuple[FullPasses, list[float]]) -> None:
    policy, now = passes
    cycle = Cycle()
    alive = weakref.ref(cycle)
    gc.collect()  # frozen with what else lives
    del cycle  # garbage now, but frozen: no pass sees it
    gc.collect()
    assert policy.thaws == 0 and alive() is not None
    now[0] += 600.0
    gc.collect()  # this pass finds the time to thaw, after its own walk
    assert policy.thaws == 1 and gc.get_freeze_count() == 0
    gc.collect()  # the next one walks everything: the cycle is freed
    assert alive() is None
