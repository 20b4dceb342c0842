"""Games' stamps (storage/stamps.py): every write of a game's row or seats bumps it, the
writing task learns what it went from and to once committed, and nothing when it did not."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from storage import StaleVersion, Store, stamps
from storage.games import MoveWrite

from .test_store_moves import active_game, move


async def lobby(store: Store, channel_id: int = 100) -> int:
    """A lobby with its host seated."""
    row = await store.create_game(guild_id=1, channel_id=channel_id, game_id="ragami", options={},
                                  host_id=10, locale="es", host_seat=("a", "es"))
    return row.id


async def assert_bumps(store: Store, game: int, write: Callable[[], Awaitable[object]]) -> None:
    """``write`` moves ``game``'s stamp on, and this task hears from what to what."""
    before = await store.game_stamp(game)
    await write()
    after = await store.game_stamp(game)
    assert before is not None and after is not None and after > before
    assert stamps.written(game) == (before, after)


async def test_every_write_of_a_lobby_and_its_seats_bumps_the_stamp(store: Store) -> None:
    game = await lobby(store)
    assert await store.game_stamp(game) == 0
    await assert_bumps(store, game, lambda: store.add_seat(game, user_id=11, name="b"))
    await assert_bumps(store, game, lambda: store.add_seat(game, user_id=None, name="Bot", ai=True))
    await assert_bumps(store, game, lambda: store.remove_seat_number(game, 1))
    await assert_bumps(store, game, lambda: store.remove_seat(game, 10))
    await assert_bumps(store, game, lambda: store.set_dm_closed(game, 0, True))
    await assert_bumps(store, game, lambda: store.set_host(game, 11))
    await assert_bumps(store, game, lambda: store.set_locale(game, "en"))
    await assert_bumps(store, game, lambda: store.set_board_message(game, 100, 555))
    await assert_bumps(store, game, lambda: store.note_card_posting(game, 5.0))
    await assert_bumps(store, game, lambda: store.clear_card_posting(game, 5.0))
    await assert_bumps(store, game, lambda: store.add_seat(game, user_id=12, name="c"))
    await assert_bumps(store, game, lambda: store.start_game(game, seed=7, state='{"v":0}',
                                                             seating={0: 1, 1: 0}))
    await assert_bumps(store, game, lambda: store.set_status(game, "abandoned"))


async def test_every_write_of_a_game_in_play_bumps_the_stamp(store: Store) -> None:
    game = (await active_game(store)).id
    await assert_bumps(store, game, lambda: move(store, game, 0))
    steps = [MoveWrite(seat=1, action=f'{{"n":{n}}}', state=f'{{"v":{n}}}', finished=False, own=True)
             for n in (2, 3)]
    await assert_bumps(store, game, lambda: store.commit_moves(game, expected_version=1, steps=steps))
    await assert_bumps(store, game, lambda: store.drop_seat(game, 0))
    await assert_bumps(store, game, lambda: move(store, game, 3, finished=True))


async def test_a_write_that_changes_nothing_tells_nothing(store: Store) -> None:
    game = (await active_game(store)).id
    await move(store, game, 0)
    stamp = await store.game_stamp(game)
    with pytest.raises(StaleVersion):
        await move(store, game, 0)
    assert stamps.written(game) is None
    assert not await store.remove_seat_number(game, 0)  # no longer a lobby
    assert stamps.written(game) is None
    await store.clear_card_posting(game, 1.0)  # no such mark
    assert stamps.written(game) is None
    assert await store.game_stamp(game) == stamp
    assert await store.game_stamp(99_999) is None


async def test_moves_committed_together_each_tell_their_own_task(store: Store) -> None:
    games = [(await active_game(store, channel_id=200 + i)).id for i in range(4)]
    before = {g: await store.game_stamp(g) for g in games}

    async def one(game: int) -> tuple[int, int] | None:
        await move(store, game, 0)
        return stamps.written(game)

    # Started together, they share group commits (one batch, on PostgreSQL one statement).
    heard = await asyncio.gather(*(one(g) for g in games))
    for game, went in zip(games, heard, strict=True):
        assert went == (before[game], await store.game_stamp(game))
    # Each task heard of its own game only.
    assert stamps.written(games[0]) is None


async def test_a_write_by_another_connection_in_between_shows_in_the_stamps(store: Store,
                                                                            db_target: str) -> None:
    game = (await active_game(store)).id
    await move(store, game, 0)
    _, mine = stamps.written(game) or (None, None)
    other = await Store.open(db_target)
    try:
        await other.set_dm_closed(game, 1, True)
    finally:
        await other.close()
    await move(store, game, 1)
    went = stamps.written(game)
    # The second move went from the other's stamp, not from the one this task last left.
    assert went is not None and mine is not None and went[0] == mine + 1


async def test_stamps_asked_together_are_read_together(store: Store) -> None:
    games = [(await active_game(store, channel_id=300 + i)).id for i in range(5)]
    await move(store, games[2], 0)
    reads = store._stamp_reads.reads
    got = await asyncio.gather(*(store.game_stamp(g) for g in [*games, games[0], 99_999]))
    assert got == [*[await store.game_stamp(g) for g in games], got[0], None]
    assert got[2] == got[0] + 1
    assert store._stamp_reads.reads == reads + 1 + len(games)  # one together, then one each


async def test_a_stamp_asked_while_a_read_runs_waits_for_the_next_read() -> None:
    release = asyncio.Event()
    stored = {1: 5}
    batches: list[list[int]] = []

    async def fetch(ids: list[int]) -> list[tuple[int, int]]:
        batches.append(ids)
        seen = [(g, stored[g]) for g in ids if g in stored]
        await release.wait()
        return seen

    reads = stamps.StampReads(fetch)
    first = asyncio.create_task(reads.stamp(1))
    while not batches:
        await asyncio.sleep(0)
    stored[1] = 6  # committed after the first read looked, before the second request
    second = asyncio.create_task(reads.stamp(1))
    await asyncio.sleep(0)
    release.set()
    assert (await first, await second) == (5, 6)
    assert batches == [[1], [1]]


async def test_a_failed_stamp_read_fails_only_its_own_requests() -> None:
    calls = 0

    async def fetch(ids: list[int]) -> list[tuple[int, int]]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("connection lost")
        return [(g, 1) for g in ids]

    reads = stamps.StampReads(fetch)
    with pytest.raises(OSError):
        await reads.stamp(1)
    assert await reads.stamp(1) == 1
