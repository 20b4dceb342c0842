"""A move waits for its outcome to be its answer only while the bot keeps time: with many
moves under way, or an event loop that wakes late, it is acknowledged at once."""

from __future__ import annotations

import asyncio
import time

import pytest

from cogs.common import answering, loop_lag
from cogs.common.loop_lag import LoopLag


def test_the_gauge_keeps_the_worst_lateness_of_its_window() -> None:
    gauge = LoopLag(every=0.02, remembered=1.0)
    assert gauge.worst() == 0.0  # not started: on time
    gauge.note(10.0, 0.003)
    gauge.note(10.2, 0.250)
    gauge.note(10.9, 0.010)
    assert gauge.worst() == 0.250
    gauge.note(11.3, 0.004)  # the late wake-up at 10.2 is past the window now
    assert gauge.worst() == 0.010


@pytest.mark.asyncio
async def test_the_gauge_sees_a_loop_held_busy() -> None:
    gauge = LoopLag(every=0.01, remembered=5.0)
    gauge.start()
    try:
        await asyncio.sleep(0.05)
        assert gauge.worst() < 0.1
        time.sleep(0.2)  # the loop held: the gauge's next wake-up comes that late
        await asyncio.sleep(0.03)
        assert gauge.worst() >= 0.15
    finally:
        await gauge.stop()
    assert gauge.worst() == 0.0


def test_a_move_has_its_budget_only_while_the_bot_keeps_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answering, "MOVE_ANSWER_WITHIN", 0.15)
    monkeypatch.setattr(answering, "MOVES_IN_FLIGHT_LIMIT", 3)
    gauge = LoopLag()
    monkeypatch.setattr(loop_lag, "GAUGE", gauge)
    assert answering.move_budget() == 0.15
    with answering.moving(), answering.moving():
        assert answering.move_budget() == 0.15
        with answering.moving():
            assert answering.move_budget() == 0.0  # three under way: saturated
        assert answering.move_budget() == 0.15
    gauge.note(time.monotonic(), answering.MOVE_LAG_LIMIT * 2)
    assert answering.move_budget() == 0.0  # the loop woke late lately
    with pytest.raises(RuntimeError), answering.moving():
        raise RuntimeError("a move that fails still ends")
    gauge.note(time.monotonic() + gauge.remembered + 1, 0.0)
    assert answering.move_budget() == 0.15
