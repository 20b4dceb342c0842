"""Time banks and playing hours in the store, on both backends: a move's commit writes its
deadlines with the hours they were timed with and the banks of the waits it ends, and a
game's clock reads back as it was created."""

from __future__ import annotations

from storage import Store
from storage.deadlines import DeadlinePlan, DeadlineRow
from storage.games import MoveWrite

HOURS = "Europe/Madrid 23:00-08:00, 09:00-17:00 weekdays"


async def test_a_bank_game_keeps_its_clock(store: Store) -> None:
    g = await store.create_game(guild_id=1, channel_id=5, game_id="ragami", options={}, host_id=10,
                                locale="es", clock_seconds=3 * 86400, bank=(86400, 7 * 86400))
    assert (g.clock_seconds, g.bank_increment, g.bank_cap) == (3 * 86400, 86400, 7 * 86400)
    plain = await store.create_game(guild_id=1, channel_id=6, game_id="ragami", options={}, host_id=10,
                                    locale="es", clock_seconds=86400)
    assert (plain.bank_increment, plain.bank_cap) == (None, None)


async def test_a_commit_writes_hours_and_banks_with_the_move(store: Store) -> None:
    g = await store.create_game(guild_id=1, channel_id=5, game_id="ragami", options={}, host_id=10,
                                locale="es", clock_seconds=3 * 86400, bank=(86400, 7 * 86400))
    await store.add_seat(g.id, user_id=10, name="a")
    await store.add_seat(g.id, user_id=11, name="b")
    first = DeadlineRow(game=g.id, seat=0, user_id=10, started_at=100.0, due_at=500.0, next_at=300.0,
                        hours=HOURS)
    await store.start_game(g.id, seed=7, state='{"v":0}', deadlines=DeadlinePlan(frozenset(), (first,)))
    assert await store.deadlines(g.id) == [first]
    assert await store.clock_banks(g.id) == {}
    second = DeadlineRow(game=g.id, seat=1, user_id=11, started_at=200.0, due_at=900.0, next_at=600.0)
    # Two steps in one commit: the first ends seat 0's wait, the second sets its bank again.
    steps = [
        MoveWrite(seat=0, action='{"n":1}', state='{"v":1}', finished=False,
                  deadlines=DeadlinePlan(frozenset(), (second,), banks=((0, 1000.0),))),
        MoveWrite(seat=0, action='{"n":2}', state='{"v":2}', finished=False,
                  deadlines=DeadlinePlan(frozenset({1}), (), banks=((0, 1500.5),))),
    ]
    await store.commit_moves(g.id, expected_version=0, steps=steps)
    assert await store.deadlines(g.id) == [second]
    assert await store.clock_banks(g.id) == {0: 1500.5}
    # A claim keeps (and may change) the hours a wait is timed with.
    moved = DeadlineRow(**{**second.__dict__, "next_at": 700.0, "hours": HOURS})
    assert await store.update_deadline(moved, second)
    assert await store.user_deadlines(11) == [moved]


async def test_user_hours_and_server_banks_are_settings(store: Store) -> None:
    mine = await store.update_user(10, time_zone="America/New_York", quiet_hours="23:00-08:00")
    assert (await store.user_settings(10)) == mine
    assert (await store.users_settings([10, 11]))[11].time_zone is None
    gs = await store.update_guild(1, clock_seconds=86400, bank_increment=43200, bank_cap=3 * 86400)
    assert (await store.guild_settings(1)) == gs and gs.bank_cap == 3 * 86400
