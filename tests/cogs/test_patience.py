"""Calls to Discord made again: after a 429, and after a dropped connection only when the
call may be made twice (an edit, a send with a nonce)."""

from __future__ import annotations

import aiohttp
import pytest

from cogs.common import patience
from cogs.common.patience import patiently


class Flaky:
    """A call that fails ``fails`` times with ``exc`` and then answers "ok"."""

    def __init__(self, fails: int, exc: BaseException) -> None:
        self.fails, self.exc, self.calls = fails, exc, 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.fails:
            raise self.exc
        return "ok"


@pytest.fixture(autouse=True)
def no_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patience, "RETRY_PAUSES", (0.0, 0.0, 0.0))


async def test_a_dropped_connection_is_tried_again_when_the_call_may_be_repeated() -> None:
    call = Flaky(2, aiohttp.ServerDisconnectedError())
    assert await patiently(call, again_if_dropped=True) == "ok"
    assert call.calls == 3


async def test_a_dropped_connection_passes_when_the_call_may_not_be_repeated() -> None:
    call = Flaky(1, aiohttp.ServerDisconnectedError())
    with pytest.raises(aiohttp.ServerDisconnectedError):
        await patiently(call)
    assert call.calls == 1


async def test_a_connection_that_stays_down_fails_after_the_last_try() -> None:
    call = Flaky(10, aiohttp.ClientConnectionError("down"))
    with pytest.raises(aiohttp.ClientConnectionError):
        await patiently(call, again_if_dropped=True)
    assert call.calls == len(patience.RETRY_PAUSES) + 1


async def test_other_errors_pass_at_once() -> None:
    call = Flaky(1, ValueError("a bug"))
    with pytest.raises(ValueError):
        await patiently(call, again_if_dropped=True)
    assert call.calls == 1
