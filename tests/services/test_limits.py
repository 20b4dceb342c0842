"""The heavy commands' cooldowns and the replay gate, on a clock the test moves."""

from __future__ import annotations

import asyncio

import pytest

from services.clock import ManualClock
from services.limits import BURST, Busy, Cooldowns, CoolingDown, Gate

GUILD, OTHER_GUILD, ALICE, BOB = 1, 2, 10, 11


async def run(cd: Cooldowns, kind: str = "new", guild: int = GUILD, user: int = ALICE, seconds: float = 60) -> None:
    async with cd.use(kind, guild, user, seconds):
        pass


async def test_a_member_runs_a_heavy_command_burst_times_per_window_then_waits() -> None:
    clock = ManualClock()
    cd = Cooldowns(clock.now)
    for _ in range(BURST):
        await run(cd)
        clock.advance(5)
    with pytest.raises(CoolingDown) as info:
        await run(cd)
    # the oldest use leaves the window 60 s after it was made
    assert info.value.left == pytest.approx(60 - 5 * BURST)
    # others, other commands and other servers are not held back
    await run(cd, user=BOB)
    await run(cd, kind="replay")
    await run(cd, guild=OTHER_GUILD)
    clock.advance(60 - 5 * BURST)
    await run(cd)
    with pytest.raises(CoolingDown):
        await run(cd)


async def test_no_cooldown_when_the_server_sets_none() -> None:
    cd = Cooldowns(ManualClock().now)
    for _ in range(BURST * 5):
        await run(cd, seconds=0)


async def test_a_refused_command_is_not_counted_and_a_crash_is() -> None:
    clock = ManualClock()
    cd = Cooldowns(clock.now)
    for _ in range(BURST * 3):
        with pytest.raises(ValueError):
            async with cd.use("import", GUILD, ALICE, 60, refund=(ValueError,)):
                raise ValueError("a typo in the list")
    await run(cd, kind="import")
    for _ in range(BURST - 1):
        with pytest.raises(KeyError):
            async with cd.use("import", GUILD, ALICE, 60, refund=(ValueError,)):
                raise KeyError("a bug")
    with pytest.raises(CoolingDown):
        await run(cd, kind="import")


async def test_commands_sent_together_cannot_all_pass() -> None:
    cd = Cooldowns(ManualClock().now)
    passed: list[int] = []

    async def one(i: int) -> None:
        try:
            async with cd.use("new", GUILD, ALICE, 60):
                await asyncio.sleep(0.01)
                passed.append(i)
        except CoolingDown:
            pass

    await asyncio.gather(*(one(i) for i in range(40)))
    assert len(passed) == BURST


async def test_the_gate_runs_a_few_at_once_queues_some_and_turns_the_rest_away() -> None:
    gate = Gate(running=2, waiting=3)
    release = asyncio.Event()
    running = 0
    most = 0
    done: list[int] = []

    async def job(i: int) -> None:
        nonlocal running, most
        async with gate.enter():
            running += 1
            most = max(most, running)
            await release.wait()
            running -= 1
            done.append(i)

    tasks = [asyncio.create_task(job(i)) for i in range(5)]
    await asyncio.sleep(0.01)
    assert gate.inside == 5 and running == 2
    with pytest.raises(Busy):
        async with gate.enter():
            pass
    release.set()
    await asyncio.gather(*tasks)
    assert most == 2 and sorted(done) == list(range(5)) and gate.inside == 0
    async with gate.enter():  # room again
        pass
