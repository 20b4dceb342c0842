"""Lobby flow: creating games, one open game per channel, seats, starting."""

from __future__ import annotations

import pytest

from storage import ChannelBusy, NotInLobby, SeatTaken, StaleVersion, Store, UnknownGame


async def _lobby(store: Store, channel_id: int = 100, host_id: int = 10) -> int:
    game = await store.create_game(
        guild_id=1,
        channel_id=channel_id,
        game_id="ragami",
        options={"v": 1},
        host_id=host_id,
        locale="es",
    )
    return game.id


async def test_create_game_starts_in_lobby_and_reads_back(store: Store) -> None:
    game = await store.create_game(
        guild_id=None,
        channel_id=2**63 - 1,
        game_id="rattus_cartus",
        options={"variant": "básica", "n": [1, 2]},
        host_id=2**62,
        locale="en",
    )
    assert (game.status, game.version, game.state, game.seed) == ("lobby", 0, None, None)
    assert game.options == {"variant": "básica", "n": [1, 2]}
    assert game.channel_id == 2**63 - 1 and game.guild_id is None and game.host_id == 2**62
    assert game.created_at == game.updated_at > 0
    assert await store.get_game(game.id) == game
    assert await store.game_in_channel(2**63 - 1) == game
    assert await store.get_game(game.id + 1) is None
    assert await store.game_in_channel(5) is None


async def test_second_open_game_in_a_channel_is_refused(store: Store) -> None:
    first = await _lobby(store, channel_id=100)
    with pytest.raises(ChannelBusy):
        await _lobby(store, channel_id=100)
    other = await _lobby(store, channel_id=101)  # other channels are unaffected
    assert other != first
    await store.start_game(first, seed=1, state="{}")
    with pytest.raises(ChannelBusy):  # active counts as open too
        await _lobby(store, channel_id=100)


@pytest.mark.parametrize("closing", ["finished", "abandoned"])
async def test_channel_is_free_once_its_game_closes(store: Store, closing: str) -> None:
    first = await _lobby(store, channel_id=100)
    await store.set_status(first, closing)
    assert await store.game_in_channel(100) is None
    second = await _lobby(store, channel_id=100)
    assert (await store.game_in_channel(100)).id == second
    # Reopening the old game would put two open games in one channel.
    with pytest.raises(ChannelBusy):
        await store.set_status(first, "lobby")
    assert (await store.get_game(first)).status == closing


async def test_seats_are_numbered_in_join_order(store: Store) -> None:
    g = await _lobby(store)
    a = await store.add_seat(g, user_id=1, name="Ana", locale="es-ES")
    b = await store.add_seat(g, user_id=None, name="Bot 1", ai=True)
    c = await store.add_seat(g, user_id=None, name="Bot 2", ai=True)  # AI seats may repeat
    d = await store.add_seat(g, user_id=2, name="Bea")
    assert [s.seat for s in (a, b, c, d)] == [0, 1, 2, 3]
    assert (a.ai, a.locale, a.dm_closed, b.ai, b.user_id) == (False, "es-ES", False, True, None)
    assert await store.seats(g) == [a, b, c, d]


async def test_same_user_cannot_sit_twice(store: Store) -> None:
    g = await _lobby(store)
    await store.add_seat(g, user_id=1, name="Ana")
    with pytest.raises(SeatTaken):
        await store.add_seat(g, user_id=1, name="Ana again")
    assert len(await store.seats(g)) == 1
    # The same user may sit in a game in another channel.
    other = await _lobby(store, channel_id=200)
    assert (await store.add_seat(other, user_id=1, name="Ana")).seat == 0


async def test_remove_seat_renumbers_the_rest_in_order(store: Store) -> None:
    g = await _lobby(store)
    for uid, name in [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, "e")]:
        await store.add_seat(g, user_id=uid, name=name)
    assert await store.remove_seat(g, 2) is True
    assert [(s.seat, s.name) for s in await store.seats(g)] == [
        (0, "a"),
        (1, "c"),
        (2, "d"),
        (3, "e"),
    ]
    assert await store.remove_seat(g, 1) is True  # the first seat
    assert await store.remove_seat(g, 5) is True  # the last seat
    assert [(s.seat, s.name) for s in await store.seats(g)] == [(0, "c"), (1, "d")]
    assert await store.remove_seat(g, 99) is False  # not seated
    assert await store.remove_seat(g + 100, 3) is False  # no such game
    # The next joiner gets the next free number.
    assert (await store.add_seat(g, user_id=6, name="f")).seat == 2
    assert [s.seat for s in await store.seats(g)] == [0, 1, 2]


async def test_removed_user_may_rejoin(store: Store) -> None:
    g = await _lobby(store)
    await store.add_seat(g, user_id=1, name="a")
    await store.add_seat(g, user_id=2, name="b")
    assert await store.remove_seat(g, 1)
    assert (await store.add_seat(g, user_id=1, name="a")).seat == 1
    assert [s.user_id for s in await store.seats(g)] == [2, 1]


async def test_start_moves_lobby_to_active_once(store: Store) -> None:
    g = await _lobby(store)
    await store.add_seat(g, user_id=1, name="a")
    started = await store.start_game(g, seed=2**63 - 1, state='{"s":1}')
    assert (started.status, started.seed, started.state, started.version) == (
        "active",
        2**63 - 1,
        '{"s":1}',
        0,
    )
    assert started.updated_at >= started.created_at
    assert await store.get_game(g) == started
    with pytest.raises(StaleVersion):  # a double click on "start"
        await store.start_game(g, seed=3, state="{}")
    with pytest.raises(NotInLobby):
        await store.start_game(g + 100, seed=3, state="{}")
    assert await store.get_game(g) == started


async def test_start_may_set_an_initial_version(store: Store) -> None:
    g = await _lobby(store)
    started = await store.start_game(g, seed=1, state="{}", version=5)
    assert started.version == 5
    seq = await store.commit_move(
        g, expected_version=5, seat=0, action="{}", state="{}", finished=False
    )
    assert seq == 6


async def test_seats_are_frozen_once_started(store: Store) -> None:
    g = await _lobby(store)
    await store.add_seat(g, user_id=1, name="a")
    await store.add_seat(g, user_id=2, name="b")
    await store.start_game(g, seed=1, state="{}")
    with pytest.raises(NotInLobby):
        await store.add_seat(g, user_id=3, name="c")
    assert await store.remove_seat(g, 1) is False
    assert [s.user_id for s in await store.seats(g)] == [1, 2]


async def test_seed_out_of_range_is_refused(store: Store) -> None:
    g = await _lobby(store)
    with pytest.raises(ValueError):
        await store.start_game(g, seed=2**64, state="{}")
    assert (await store.get_game(g)).status == "lobby"


async def test_setters(store: Store) -> None:
    g = await _lobby(store)
    await store.add_seat(g, user_id=1, name="a")
    before = await store.get_game(g)

    await store.set_board_message(g, 555, 777)
    await store.set_locale(g, "en")
    await store.set_dm_closed(g, 0, True)
    after = await store.get_game(g)
    assert (after.board_channel_id, after.board_message_id, after.locale) == (555, 777, "en")
    assert after.updated_at >= before.updated_at
    assert (await store.seats(g))[0].dm_closed is True

    await store.set_board_message(g, 555, None)
    await store.set_dm_closed(g, 0, False)
    after = await store.get_game(g)
    assert (after.board_channel_id, after.board_message_id) == (555, None)
    assert (await store.seats(g))[0].dm_closed is False

    await store.set_status(g, "abandoned")
    assert (await store.get_game(g)).status == "abandoned"
    with pytest.raises(ValueError):
        await store.set_status(g, "paused")
    with pytest.raises(UnknownGame):
        await store.set_status(g + 100, "abandoned")
    with pytest.raises(UnknownGame):
        await store.set_dm_closed(g, 7, True)


async def test_start_moves_the_seats_to_the_places_drawn_in_its_transaction(store: Store) -> None:
    g = await _lobby(store)
    for uid, name in ((1, "a"), (2, "b"), (3, "c"), (4, "d")):
        await store.add_seat(g, user_id=uid, name=name, locale="es" if uid == 2 else None)
    await store.set_dm_closed(g, 3, True)  # what a seat row holds goes with its player
    # lobby seat -> seat at the table: a 4-cycle, so every seat moves
    await store.start_game(g, seed=5, state="{}", seating={0: 2, 1: 3, 2: 1, 3: 0})
    seats = await store.seats(g)
    assert [(s.seat, s.user_id) for s in seats] == [(0, 4), (1, 3), (2, 1), (3, 2)]
    assert {s.user_id: (s.locale, s.dm_closed) for s in seats} == {
        1: (None, False), 2: ("es", False), 3: (None, False), 4: (None, True)}
    # a start refused moves nothing
    g2 = await _lobby(store, channel_id=101)
    await store.add_seat(g2, user_id=1, name="a")
    await store.add_seat(g2, user_id=2, name="b")
    await store.start_game(g2, seed=1, state="{}")
    with pytest.raises(StaleVersion):
        await store.start_game(g2, seed=1, state="{}", seating={0: 1, 1: 0})
    assert [s.user_id for s in await store.seats(g2)] == [1, 2]
