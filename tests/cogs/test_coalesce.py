"""Hand DMs queued behind one another for the same seat are sent once (cogs/common/coalesce.py)."""

from __future__ import annotations

import asyncio

import pytest

from cogs.common.coalesce import Coalescer


async def test_deliveries_queued_while_one_waits_join_it() -> None:
    hands: Coalescer[str] = Coalescer()
    release = asyncio.Event()
    sent: list[list[str]] = []

    async def send(news: list[str]) -> str:
        sent.append(list(news))
        if len(sent) == 1:
            await release.wait()  # the first DM is held (a busy DM channel)
        return "dm " + "".join(news)

    first = asyncio.create_task(hands.run((1, 0), ["a"], send))
    await asyncio.sleep(0)
    later = [asyncio.create_task(hands.run((1, 0), [n], send)) for n in ("b", "c", "d")]
    other_game = asyncio.create_task(hands.run((2, 0), ["x"], send))
    await asyncio.sleep(0)
    release.set()
    results = await asyncio.gather(first, *later, other_game)
    # the first went as it was; the three queued behind it went as one, with all their news
    assert sent[0] == ["a"] and ["b", "c", "d"] in sent and ["x"] in sent and len(sent) == 3
    assert results == ["dm a", "dm bcd", "dm bcd", "dm bcd", "dm x"]
    assert hands.joined == 2


async def test_a_failed_delivery_fails_for_those_who_joined_it() -> None:
    hands: Coalescer[bool] = Coalescer()
    gate = asyncio.Event()

    async def held(news: list[str]) -> bool:
        await gate.wait()
        return True

    async def broken(news: list[str]) -> bool:
        raise RuntimeError("no")

    first = asyncio.create_task(hands.run("k", [], held))
    await asyncio.sleep(0)
    waiting = asyncio.create_task(hands.run("k", [], broken))
    await asyncio.sleep(0)
    joined = asyncio.create_task(hands.run("k", [], held))
    await asyncio.sleep(0)
    gate.set()
    assert await first is True
    for task in (waiting, joined):
        with pytest.raises(RuntimeError):
            await task
    # and the next one starts afresh
    assert await hands.run("k", [], held) is True
