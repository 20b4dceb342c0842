"""The outbox: a change's debt to Discord is written with the change or not at all, expanded
once, marked done message by message; platform changes that are one thing are one
transaction (a lobby and its host, a choice of several steps, a claimed reminder)."""

from __future__ import annotations

import pytest

from storage import ChannelBusy, GameRow, StaleVersion, Store, UnknownGame
from storage.deadlines import DeadlineRow
from storage.outbox import ChangeNote, Owed
from storage.store import MoveWrite


async def active_game(store: Store, channel_id: int = 100) -> GameRow:
    game = await store.create_game(
        guild_id=1,
        channel_id=channel_id,
        game_id="ragami",
        options={},
        host_id=10,
        locale="es",
        host_seat=("a", "es"),
    )
    await store.add_seat(game.id, user_id=11, name="b")
    return await store.start_game(
        game.id, seed=7, state='{"v":0}', change=ChangeNote({"start": True})
    )


def step(n: int, *, finished: bool = False) -> MoveWrite:
    return MoveWrite(
        seat=n % 2, action=f'{{"n":{n}}}', state=f'{{"v":{n}}}', finished=finished, own=True
    )


async def test_a_change_is_written_with_its_move_or_not_at_all(store: Store) -> None:
    g = await active_game(store)
    [start] = await store.open_changes(g.id)
    assert start.payload == {"start": True} and not start.expanded
    note = ChangeNote({"to": 1})
    await store.commit_move(
        g.id, expected_version=0, seat=0, action="{}", state="{}", finished=False, change=note
    )
    assert note.id is not None
    # A second commit of the same change rewrites its row, in its own transaction.
    note.payload = {"to": 2}
    await store.commit_move(
        g.id, expected_version=1, seat=1, action="{}", state="{}", finished=False, change=note
    )
    rows = await store.open_changes(g.id)
    assert [r.id for r in rows] == [start.id, note.id] and rows[1].payload == {"to": 2}
    # A stale commit writes no outbox row either.
    with pytest.raises(StaleVersion):
        await store.commit_move(
            g.id,
            expected_version=0,
            seat=0,
            action="{}",
            state="{}",
            finished=False,
            change=ChangeNote({"stale": True}),
        )
    assert len(await store.open_changes(g.id)) == 2


async def test_a_change_expands_once_and_is_done_when_its_messages_are(store: Store) -> None:
    g = await active_game(store)
    [change] = await store.open_changes(g.id)
    owed = [
        Owed("record", "record", {"text": "hola"}),
        Owed("board", "board"),
        Owed("hand", "hand:1", {"seat": 1}),
    ]
    first = await store.expand_change(change.id, owed)
    assert [(m.kind, m.key) for m in first] == [
        ("record", "record"),
        ("board", "board"),
        ("hand", "hand:1"),
    ]
    assert first[0].payload == {"text": "hola"}
    # Expanded again (a restart after a crash, another plan): the first messages stand.
    again = await store.expand_change(change.id, [Owed("other", "other")])
    assert [m.id for m in again] == [m.id for m in first]
    for m in first[:2]:
        await store.outbox_done(m.id, change=change.id)
    assert [c.id for c in await store.open_changes()] == [change.id]
    assert [m.done for m in await store.outbox_messages(change.id)] == [True, True, False]
    await store.outbox_done(first[2].id, change=change.id)
    assert await store.open_changes() == []
    # A change that owes nothing is done at once.
    empty = await store.add_change(g.id, {"n": 1})
    assert await store.expand_change(empty, []) == []
    await store.outbox_done(empty)
    assert await store.open_changes() == []


async def test_a_lobby_never_exists_without_its_host(store: Store) -> None:
    g = await store.create_game(
        guild_id=1,
        channel_id=5,
        game_id="ragami",
        options={},
        host_id=10,
        locale="es",
        host_seat=("Ana", "en"),
    )
    [host] = await store.seats(g.id)
    assert (host.seat, host.user_id, host.name, host.locale, host.ai) == (0, 10, "Ana", "en", False)
    with pytest.raises(ChannelBusy):
        await store.create_game(
            guild_id=1,
            channel_id=5,
            game_id="ragami",
            options={},
            host_id=11,
            locale="es",
            host_seat=("Bea", None),
        )
    assert await store.open_game_ids() == [g.id]


async def test_a_choice_of_several_steps_is_one_transaction(store: Store) -> None:
    g = await active_game(store)
    assert (
        await store.commit_moves(
            g.id, expected_version=0, steps=[step(1), step(2)], change=ChangeNote({"to": 2})
        )
        == 2
    )
    assert [a.seq for a in await store.actions(g.id)] == [1, 2]
    # The second step cannot follow the first (the game ended with it): neither is stored.
    with pytest.raises(StaleVersion):
        await store.commit_moves(
            g.id,
            expected_version=2,
            steps=[step(3, finished=True), step(4)],
            change=ChangeNote({"to": 4}),
        )
    row = await store.get_game(g.id)
    assert row is not None and (row.version, row.status) == (2, "active")
    assert [a.seq for a in await store.actions(g.id)] == [1, 2]
    assert len(await store.open_changes(g.id)) == 2  # the start and the first choice


async def test_a_reminder_is_owed_only_by_the_one_who_claims_it(store: Store) -> None:
    g = await active_game(store)
    row = DeadlineRow(game=g.id, seat=1, user_id=11, started_at=0.0, due_at=100.0, next_at=50.0)
    await store.put_deadlines([row])
    claimed = DeadlineRow(
        game=g.id, seat=1, user_id=11, started_at=0.0, due_at=100.0, reminders=1, next_at=90.0
    )
    before = len(await store.open_changes(g.id))
    assert await store.update_deadline(claimed, row, change=ChangeNote({"remind": {"seat": 1}}))
    assert not await store.update_deadline(claimed, row, change=ChangeNote({"remind": {"seat": 1}}))
    reminders = [c for c in await store.open_changes(g.id) if "remind" in c.payload]
    assert len(await store.open_changes(g.id)) == before + 1 and len(reminders) == 1


async def test_a_dropped_seat_and_its_change_are_one_transaction(store: Store) -> None:
    g = await active_game(store)
    with pytest.raises(UnknownGame):  # no such seat: nothing at all is written
        await store.drop_seat(g.id, 7, change=ChangeNote({"dropped": True}))
    assert not [c for c in await store.open_changes(g.id) if c.payload.get("dropped")]
    await store.drop_seat(g.id, 1, change=ChangeNote({"dropped": True}))
    assert [c for c in await store.open_changes(g.id) if c.payload.get("dropped")]


async def test_many_reminders_are_claimed_in_one_go_each_by_one_claimer(store: Store) -> None:
    games = [await active_game(store, channel_id=300 + i) for i in range(3)]
    rows = [DeadlineRow(game=g.id, seat=1, user_id=11, started_at=0.0, due_at=100.0, next_at=50.0) for g in games]
    await store.put_deadlines(rows)
    claims = [(DeadlineRow(game=r.game, seat=1, user_id=11, started_at=0.0, due_at=100.0, reminders=1,
                           next_at=90.0), r) for r in rows]
    # Someone else claimed the second one first.
    assert await store.update_deadline(claims[1][0], rows[1])

    def owed(claimed: list[DeadlineRow]) -> list[tuple[int, ChangeNote]]:
        if not claimed:
            return []
        return [(claimed[0].game, ChangeNote({"remind": {"seat": 1}, "also": [r.game for r in claimed[1:]]}))]

    claimed = await store.claim_deadlines(claims, owed)
    assert [r.game for r in claimed] == [games[0].id, games[2].id]
    (change,) = [c for c in await store.open_changes(games[0].id) if "remind" in c.payload]
    assert change.payload["also"] == [games[2].id]
    assert await store.claim_deadlines(claims, owed) == []  # never twice
    assert len([c for g in games for c in await store.open_changes(g.id) if "remind" in c.payload]) == 1


async def test_several_games_and_their_seats_are_read_at_once(store: Store) -> None:
    games = [await active_game(store, channel_id=400 + i) for i in range(3)]
    read = await store.games_with_seats([games[2].id, games[0].id, 9999])
    assert [(row.id, [s.seat for s in seats]) for row, seats in read] == [
        (games[0].id, [s.seat for s in await store.seats(games[0].id)]),
        (games[2].id, [s.seat for s in await store.seats(games[2].id)]),
    ]
    assert read[0][0] == await store.get_game(games[0].id)
    assert await store.games_with_seats([]) == []


async def test_a_change_is_claimed_by_one_process_until_its_claim_runs_out(store: Store) -> None:
    g = await active_game(store)
    change = await store.add_change(g.id, {"n": 1})
    claimed = await store.claim_change(change, "A", 160.0, 100.0)
    assert claimed is not None and claimed.id == change and claimed.payload == {"n": 1}
    assert await store.claim_change(change, "B", 170.0, 110.0) is None  # A's, for now
    assert await store.claim_change(change, "A", 220.0, 150.0) is not None  # A renews it
    assert await store.claim_change(change, "B", 230.0, 210.0) is None
    # A stopped renewing it (its process died): B takes it over, and A no longer has it.
    assert await store.claim_change(change, "B", 290.0, 230.0) is not None
    assert await store.claim_change(change, "A", 300.0, 240.0) is None
    await store.outbox_done(change)
    assert await store.claim_change(change, "B", 400.0, 300.0) is None  # delivered: nothing to claim
    (message,) = await store.expand_change(await store.add_change(g.id, {}), [Owed("record", "record")])
    assert await store.claim_change(message.id, "A", 500.0, 400.0) is None  # changes only
