"""Moves: commit_move, the action log, version guards, concurrency, resume after reopen."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from storage import GameRow, StaleVersion, Store
from storage.dialect import IntegrityError


async def active_game(store: Store, channel_id: int = 100) -> GameRow:
    """A two-player game in channel_id, started at version 0."""
    game = await store.create_game(
        guild_id=1, channel_id=channel_id, game_id="ragami", options={}, host_id=10, locale="es"
    )
    await store.add_seat(game.id, user_id=10, name="a")
    await store.add_seat(game.id, user_id=11, name="b")
    return await store.start_game(game.id, seed=7, state='{"v":0}')


async def move(store: Store, game: int, version: int, *, finished: bool = False) -> int:
    """Commit move number version+1 with recognisable JSON."""
    return await store.commit_move(
        game,
        expected_version=version,
        seat=version % 2,
        action=f'{{"n":{version + 1}}}',
        state=f'{{"v":{version + 1}}}',
        finished=finished,
    )


async def test_commit_move_updates_state_and_appends_to_the_log(store: Store) -> None:
    g = await active_game(store)
    assert await move(store, g.id, 0) == 1
    assert await move(store, g.id, 1) == 2
    row = await store.get_game(g.id)
    assert (row.status, row.version, row.state) == ("active", 2, '{"v":2}')
    assert row.updated_at >= g.updated_at
    log = await store.actions(g.id)
    assert [(a.game, a.seq, a.seat, a.action) for a in log] == [
        (g.id, 1, 0, '{"n":1}'),
        (g.id, 2, 1, '{"n":2}'),
    ]
    assert log[0].at <= log[1].at
    assert [a.seq for a in await store.actions(g.id, after=1)] == [2]


async def test_finishing_move_closes_the_game_and_frees_the_channel(store: Store) -> None:
    g = await active_game(store)
    await move(store, g.id, 0)
    assert await move(store, g.id, 1, finished=True) == 2
    row = await store.get_game(g.id)
    assert (row.status, row.version) == ("finished", 2)
    assert await store.game_in_channel(100) is None
    with pytest.raises(StaleVersion):  # no move after the end
        await move(store, g.id, 2)
    assert len(await store.actions(g.id)) == 2


async def test_stale_version_raises_and_changes_nothing(store: Store) -> None:
    g = await active_game(store)
    await move(store, g.id, 0)
    before = (await store.get_game(g.id), await store.actions(g.id))
    for wrong in (0, 2, 5, -1):
        with pytest.raises(StaleVersion):
            await store.commit_move(
                g.id, expected_version=wrong, seat=1, action='"x"', state='"bad"', finished=True
            )
    assert (await store.get_game(g.id), await store.actions(g.id)) == before


@pytest.mark.parametrize("status", ["lobby", "abandoned"])
async def test_moves_need_an_active_game(store: Store, status: str) -> None:
    game = await store.create_game(
        guild_id=1, channel_id=5, game_id="ragami", options={}, host_id=1, locale="es"
    )
    if status == "abandoned":
        await store.start_game(game.id, seed=1, state="{}")
        await store.set_status(game.id, "abandoned")
    with pytest.raises(StaleVersion):
        await move(store, game.id, 0)
    with pytest.raises(StaleVersion):
        await move(store, game.id + 1000, 0)  # unknown game
    assert await store.actions(game.id) == []


async def test_concurrent_moves_on_one_connection_exactly_one_lands(store: Store) -> None:
    g = await active_game(store)
    results = await asyncio.gather(
        store.commit_move(
            g.id, expected_version=0, seat=0, action='"a"', state='"A"', finished=False
        ),
        store.commit_move(
            g.id, expected_version=0, seat=1, action='"b"', state='"B"', finished=False
        ),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
    winner = next(r for r in results if isinstance(r, int))
    assert winner == 1
    row = await store.get_game(g.id)
    log = await store.actions(g.id)
    assert row.version == 1 and len(log) == 1
    # State and log come from the same (winning) call.
    assert (row.state, log[0].action) in {('"A"', '"a"'), ('"B"', '"b"')}


async def test_many_racers_one_winner_and_other_games_unaffected(store: Store) -> None:
    games = [await active_game(store, channel_id=100 + i) for i in range(5)]
    calls = [
        store.commit_move(
            g.id, expected_version=0, seat=0, action=f'"{k}"', state=f'"{k}"', finished=False
        )
        for g in games
        for k in range(8)
    ]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert sum(isinstance(r, int) for r in results) == len(games)
    assert all(isinstance(r, int | StaleVersion) for r in results)
    for g in games:
        row = await store.get_game(g.id)
        log = await store.actions(g.id)
        assert row.version == 1 and [a.seq for a in log] == [1] and log[0].action == row.state


async def test_failure_in_one_transaction_does_not_undo_anothers(store: Store) -> None:
    a = await active_game(store, channel_id=1)
    b = await active_game(store, channel_id=2)
    results = await asyncio.gather(
        move(store, a.id, 0),
        move(store, b.id, 3),  # stale: rolls back while a's move is in flight
        store.set_locale(a.id, "en"),
        move(store, b.id, 0),
        return_exceptions=True,
    )
    assert results[0] == 1 and isinstance(results[1], StaleVersion) and results[3] == 1
    assert (await store.get_game(a.id)).version == 1
    assert (await store.get_game(a.id)).locale == "en"
    assert (await store.get_game(b.id)).version == 1


@pytest.mark.parametrize("at", ["BEGIN", "UPDATE games", "INSERT INTO actions", "COMMIT"])
async def test_cancelled_move_is_all_or_nothing(sqlite_store: Store, at: str) -> None:
    # Cancel the caller while aiosqlite's thread runs a given statement of commit_move:
    # the game must end up either fully moved (state, version and log row) or untouched,
    # and the next move must go through (no transaction left open, lock released).
    store = sqlite_store
    g = await active_game(store)
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(move(store, g.id, 0))

    def on_statement(sql: str) -> None:  # runs on aiosqlite's thread
        if sql.startswith(at):
            loop.call_soon_threadsafe(task.cancel)

    await store._db.set_trace_callback(on_statement)
    with pytest.raises(asyncio.CancelledError):
        await task
    await store._db.set_trace_callback(None)

    row = await store.get_game(g.id)
    log = await store.actions(g.id)
    assert row.version in (0, 1)
    assert [a.seq for a in log] == list(range(1, row.version + 1))
    assert row.state == f'{{"v":{row.version}}}'
    if at != "COMMIT":
        assert row.version == 0  # cancelled before COMMIT ran: rolled back
    assert await move(store, g.id, row.version) == row.version + 1


@pytest.mark.parametrize("ticks", [0, 1, 2, 3, 4, 6, 9])
async def test_move_cancelled_after_some_steps_is_all_or_nothing(store: Store, ticks: int) -> None:
    # On either backend: cancel the caller after a few turns of the event loop, wherever
    # the move has got to; the game is fully moved or untouched, and play goes on.
    g = await active_game(store)
    task = asyncio.create_task(move(store, g.id, 0))
    for _ in range(ticks):
        await asyncio.sleep(0)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    row = await store.get_game(g.id)
    log = await store.actions(g.id)
    assert row.version in (0, 1)
    assert [a.seq for a in log] == list(range(1, row.version + 1))
    assert row.state == f'{{"v":{row.version}}}'
    assert await move(store, g.id, row.version) == row.version + 1


async def test_two_stores_on_one_database_exactly_one_lands(db_target: str | Path) -> None:
    path = db_target
    s1 = await Store.open(path)
    s2 = await Store.open(path)
    try:
        g = await active_game(s1)
        for version in range(5):  # several rounds: either store may win each
            results = await asyncio.gather(
                s1.commit_move(
                    g.id,
                    expected_version=version,
                    seat=0,
                    action='"one"',
                    state=f'"one{version}"',
                    finished=False,
                ),
                s2.commit_move(
                    g.id,
                    expected_version=version,
                    seat=1,
                    action='"two"',
                    state=f'"two{version}"',
                    finished=False,
                ),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
        for s in (s1, s2):  # both connections see the same committed history
            row = await s.get_game(g.id)
            log = await s.actions(g.id)
            assert row.version == 5 and [a.seq for a in log] == [1, 2, 3, 4, 5]
            winner = "one" if log[-1].seat == 0 else "two"
            assert row.state == f'"{winner}4"'  # the state came with the winning log row
    finally:
        await s1.close()
        await s2.close()


async def test_two_stores_cannot_both_open_a_game_in_one_channel(db_target: str | Path) -> None:
    path = db_target
    s1 = await Store.open(path)
    s2 = await Store.open(path)
    try:
        results = await asyncio.gather(
            *[
                s.create_game(
                    guild_id=1, channel_id=9, game_id="ragami", options={}, host_id=1, locale="es"
                )
                for s in (s1, s2, s1, s2)
            ],
            return_exceptions=True,
        )
        assert sum(isinstance(r, GameRow) for r in results) == 1
        assert sorted(type(r).__name__ for r in results).count("ChannelBusy") == 3
    finally:
        await s1.close()
        await s2.close()


async def test_close_and_reopen_mid_game_keeps_everything(db_target: str | Path) -> None:
    path = db_target
    s = await Store.open(path)
    g = await active_game(s)
    for v in range(7):
        await move(s, g.id, v)
    await s.set_board_message(g.id, 100, 4242)
    await s.set_dm_closed(g.id, 1, True)
    before = (await s.get_game(g.id), await s.seats(g.id), await s.actions(g.id))
    await s.close()

    s = await Store.open(path)
    try:
        after = (await s.get_game(g.id), await s.seats(g.id), await s.actions(g.id))
        assert after == before
        assert after[0].version == 7 and after[0].state == '{"v":7}'
        assert await s.open_game_ids() == [g.id]
        assert await move(s, g.id, 7) == 8  # play goes on where it was
    finally:
        await s.close()


async def test_open_game_ids_lists_lobby_and_active_only(store: Store) -> None:
    lobby = await store.create_game(
        guild_id=1, channel_id=1, game_id="ragami", options={}, host_id=1, locale="es"
    )
    active = await active_game(store, channel_id=2)
    finished = await active_game(store, channel_id=3)
    await move(store, finished.id, 0, finished=True)
    abandoned = await active_game(store, channel_id=4)
    await store.set_status(abandoned.id, "abandoned")
    abandoned_lobby = await store.create_game(
        guild_id=1, channel_id=5, game_id="ragami", options={}, host_id=1, locale="es"
    )
    await store.set_status(abandoned_lobby.id, "abandoned")
    assert await store.open_game_ids() == [lobby.id, active.id]


async def test_a_start_looks_only_at_games_without_a_message_or_with_a_bot_seat(store: Store) -> None:
    shown = await active_game(store, channel_id=1)
    await store.set_board_message(shown.id, 1, 501)
    lost = await active_game(store, channel_id=2)  # its card was posted, never stored
    lobby_lost = await store.create_game(
        guild_id=1, channel_id=3, game_id="ragami", options={}, host_id=1, locale="es"
    )
    lobby_shown = await store.create_game(
        guild_id=1, channel_id=4, game_id="ragami", options={}, host_id=1, locale="es"
    )
    await store.set_board_message(lobby_shown.id, 4, 502)
    game = await store.create_game(
        guild_id=1, channel_id=5, game_id="ragami", options={}, host_id=10, locale="es"
    )
    await store.add_seat(game.id, user_id=10, name="a")
    await store.add_seat(game.id, user_id=None, name="bot", ai=True)
    with_bot = await store.start_game(game.id, seed=7, state='{"v":0}')
    await store.set_board_message(with_bot.id, 5, 503)
    over = await active_game(store, channel_id=6)
    await move(store, over.id, 0, finished=True)  # finished, no message: nothing to look at
    ids, total = await store.games_to_resume()
    assert ids == [lost.id, lobby_lost.id, with_bot.id]
    assert total == 5
    # The stored cards of the open games, read from their columns alone.
    assert await store.open_cards() == [(1, 501), (4, 502), (5, 503)]


async def test_open_game_ids_uses_an_index(sqlite_store: Store) -> None:
    # 10,000+ stored games must not mean a table scan at start-up.
    plan = await sqlite_store._db.execute_fetchall(
        "EXPLAIN QUERY PLAN SELECT id FROM games WHERE status IN ('lobby', 'active') ORDER BY id"
    )
    detail = " ".join(r[3] for r in plan)
    assert "INDEX" in detail and "SCAN games" not in detail


async def test_log_rows_cannot_be_duplicated_or_orphaned(store: Store) -> None:
    g = await active_game(store)
    await move(store, g.id, 0)
    with pytest.raises(IntegrityError):  # (game, seq) is the primary key
        async with store._write() as db:
            await db.execute("INSERT INTO actions VALUES (?, 1, 0, '{}', 0)", (g.id,))
    with pytest.raises(IntegrityError):  # foreign keys are enforced
        async with store._write() as db:
            await db.execute("INSERT INTO actions VALUES (999, 1, 0, '{}', 0)")
