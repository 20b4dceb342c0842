"""The lease keeper: work runs in one process at a time, stops when the lease is not sure."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from services.leases import Leases
from storage import Store


class Work:
    """Records when the work behind a lease starts and stops."""

    def __init__(self) -> None:
        self.log: list[str] = []

    async def gain(self) -> None:
        self.log.append("start")

    async def loss(self) -> None:
        self.log.append("stop")


async def test_one_keeper_runs_the_work_the_other_takes_it_when_it_is_given_up(tmp_path: Path) -> None:
    a_store, b_store = await Store.open(tmp_path / "t.db"), await Store.open(tmp_path / "t.db")
    try:
        a, b = Leases(a_store, owner="A", ttl=30), Leases(b_store, owner="B", ttl=30)
        wa, wb = Work(), Work()
        a.job("clock", wa.gain, wa.loss)
        b.job("clock", wb.gain, wb.loss)
        await a.renew()
        await b.renew()
        await a.renew()  # renewing what it holds starts nothing again
        assert (wa.log, wb.log) == (["start"], [])
        assert a.holds("clock") and not b.holds("clock")
        await a.stop()  # a clean stop: the work stops and the lease is free at once
        assert wa.log == ["start", "stop"] and not a.holds("clock")
        await b.renew()
        assert wb.log == ["start"] and b.holds("clock")
        lease = await a_store.lease("clock")
        assert lease is not None and lease.owner == "B"
    finally:
        await a_store.close()
        await b_store.close()


async def test_a_keeper_that_cannot_renew_stops_before_another_can_take_over(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.db")
    now = [1000.0]
    try:
        keeper = Leases(store, owner="A", ttl=0.3, wall=lambda: now[0])
        work = Work()
        keeper.job("clock", work.gain, work.loss)
        await keeper.renew()
        assert keeper.holds("clock")

        async def broken(*args: object) -> bool:
            raise OSError("the database is unreachable")

        store.take_lease = broken  # type: ignore[method-assign]
        await keeper.renew()  # a failed renewal keeps the work while the lease surely lasts
        assert keeper.holds("clock") and work.log == ["start"]
        # Past five sixths of the lease (monotonic time, whatever the wall clock says), the
        # keeper no longer counts on it: the work stops before anyone else may take it.
        await asyncio.sleep(0.3 * 5 / 6 + 0.02)
        assert not keeper.holds("clock")
        await keeper.renew()
        assert work.log == ["start", "stop"]
    finally:
        del store.take_lease
        await store.close()


def test_a_lease_must_last() -> None:
    with pytest.raises(ValueError):
        Leases(object(), ttl=0)
