"""Tournament storage: sign-up, seeding, rounds, tables, results, drops; survives reopening."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import StaleVersion, Store
from storage.tournaments import (
    AlreadyEntered,
    NewTable,
    NotInSignup,
    TournamentFull,
    UnknownTournament,
)
from tests.storage.conftest import raw_fetch


async def _tournament(ts: Store, **kw):
    args = dict(
        guild_id=1,
        channel_id=50,
        organiser_id=9,
        name="Liga de la peste",
        game_id="rattus_cartus",
        format="swiss",
        table_size=4,
        seed=1234,
        locale="es",
        rounds=3,
        options={"variant": "base"},
        clock={"turn_hours": 24},
    )
    args.update(kw)
    return await ts.create_tournament(**args)


async def test_create_and_read_back(store: Store) -> None:
    ts = store
    t = await _tournament(ts, cap=8, check_in=True, seeding="random", rated=False)
    assert t.status == "signup" and t.current_round == 0
    assert (await ts.get_tournament(t.id)) == t
    assert t.options == {"variant": "base"} and t.clock == {"turn_hours": 24}
    assert (t.cap, t.check_in, t.seeding, t.rated) == (8, True, "random", False)
    assert [x.id for x in await ts.tournaments_in_guild(1)] == [t.id]
    assert await ts.tournaments_in_guild(2) == []
    assert await ts.get_tournament(999) is None
    with pytest.raises(ValueError):
        await _tournament(ts, format="ladder")


async def test_sign_up_cap_duplicates_and_leaving(store: Store) -> None:
    ts = store
    t = await _tournament(ts, cap=2)
    await ts.enter_tournament(t.id, 100, "Ana")
    with pytest.raises(AlreadyEntered):
        await ts.enter_tournament(t.id, 100, "Ana")
    await ts.enter_tournament(t.id, 200, "Bea")
    with pytest.raises(TournamentFull):
        await ts.enter_tournament(t.id, 300, "Ciro")
    assert await ts.leave_tournament(t.id, 100)
    assert not await ts.leave_tournament(t.id, 100)
    await ts.enter_tournament(t.id, 300, "Ciro")
    assert [e.user_id for e in await ts.entrants(t.id)] == [200, 300]
    with pytest.raises(UnknownTournament):
        await ts.enter_tournament(999, 1, "x")


async def test_start_seeds_and_closes_sign_up(store: Store) -> None:
    ts = store
    t = await _tournament(ts)
    for u, name in [(100, "Ana"), (200, "Bea"), (300, "Ciro")]:
        await ts.enter_tournament(t.id, u, name)
    assert await ts.check_in_entrant(t.id, 200)
    assert not await ts.check_in_entrant(t.id, 999)
    started = await ts.start_tournament(t.id, [300, 200])  # 100 did not check in: removed
    assert started.status == "running"
    entrants = await ts.entrants(t.id)
    assert [(e.user_id, e.seed) for e in entrants] == [(300, 1), (200, 2)]
    assert [e.checked_in for e in entrants] == [False, True]
    with pytest.raises(NotInSignup):
        await ts.start_tournament(t.id, [300, 200])
    with pytest.raises(NotInSignup):
        await ts.enter_tournament(t.id, 400, "Dani")
    assert not await ts.leave_tournament(t.id, 300)  # too late to leave: drop instead


async def test_rounds_tables_byes_results(store: Store) -> None:
    ts = store
    t = await _tournament(ts, table_size=2)
    for u in (1, 2, 3):
        await ts.enter_tournament(t.id, u, f"p{u}")
    await ts.start_tournament(t.id, [1, 2, 3])
    with pytest.raises(StaleVersion):
        await ts.open_round(t.id, 2, [NewTable((1, 2))])  # round 1 comes first
    matches = await ts.open_round(t.id, 1, [NewTable((1, 2))], byes=[3])
    assert [(m.number, m.user_ids, m.status, m.result) for m in matches] == [
        (1, (1, 2), "pending", None),
        (2, (3,), "finished", "bye"),
    ]
    with pytest.raises(StaleVersion):
        await ts.open_round(t.id, 1, [NewTable((1, 2))])  # opened twice
    assert (await ts.get_tournament(t.id)).current_round == 1
    assert not await ts.finish_round(t.id, 1)  # table 1 still playing

    game = await store.create_game(
        guild_id=1, channel_id=77, game_id="rey_hierofante", options={}, host_id=9, locale="es"
    )
    table = matches[0]
    await ts.set_match_game(table.id, game.id)
    with pytest.raises(StaleVersion):
        await ts.set_match_game(table.id, game.id)
    found = await ts.match_for_game(game.id)
    assert found is not None and found.id == table.id and found.status == "playing"
    assert await ts.record_match_result(table.id, {1: 0, 2: 1}, kind="game", scores={1: 3.0})
    assert not await ts.record_match_result(table.id, {1: 1, 2: 0}, kind="game")  # only once
    done = await ts.get_match(table.id)
    assert [(p.user_id, p.place, p.score) for p in done.players] == [(1, 0, 3.0), (2, 1, None)]
    assert await ts.finish_round(t.id, 1)
    assert not await ts.finish_round(t.id, 1)
    with pytest.raises(ValueError):
        await ts.record_match_result(table.id, {}, kind="coin")
    with pytest.raises(UnknownTournament):
        await ts.record_match_result(12345, {}, kind="game")


async def test_drop_and_bracket_keys(store: Store) -> None:
    ts = store
    t = await _tournament(ts, format="double_elim", table_size=2)
    for u in (1, 2, 3, 4):
        await ts.enter_tournament(t.id, u, f"p{u}")
    await ts.start_tournament(t.id, [1, 2, 3, 4])
    ms = await ts.open_round(t.id, 1, [NewTable((1, 4), "W1.0"), NewTable((2, 3), "W1.1")])
    assert [m.bracket for m in ms] == ["W1.0", "W1.1"]
    assert await ts.drop_entrant(t.id, 4, 1)
    assert not await ts.drop_entrant(t.id, 4, 1)
    e4 = [e for e in await ts.entrants(t.id) if e.user_id == 4][0]
    assert e4.dropped and e4.dropped_round == 1


async def test_everything_survives_close_and_reopen(db_target: str | Path) -> None:
    path = db_target
    store = await Store.open(path)
    ts = store
    t = await _tournament(ts)
    for u in (1, 2, 3, 4, 5):
        await ts.enter_tournament(t.id, u, f"p{u}")
    await ts.start_tournament(t.id, [5, 4, 3, 2, 1])
    ms = await ts.open_round(t.id, 1, [NewTable((5, 4, 3, 2))], byes=[1])
    await ts.record_match_result(ms[0].id, {5: 0, 4: 1, 3: 1, 2: 3}, kind="game")
    before = (await ts.get_tournament(t.id), await ts.entrants(t.id), await ts.matches(t.id))
    await store.close()

    store = await Store.open(path)
    ts = store
    try:
        after = (await ts.get_tournament(t.id), await ts.entrants(t.id), await ts.matches(t.id))
        assert after == before
        assert await ts.running_tournaments() == [t.id]
        await ts.set_tournament_status(t.id, "finished")
        assert await ts.running_tournaments() == []
    finally:
        await store.close()


async def test_deleting_a_game_keeps_its_table(store: Store) -> None:
    ts = store
    t = await _tournament(ts, table_size=2)
    await ts.enter_tournament(t.id, 1, "a")
    await ts.enter_tournament(t.id, 2, "b")
    await ts.start_tournament(t.id, [1, 2])
    [m] = await ts.open_round(t.id, 1, [NewTable((1, 2))])
    g = await store.create_game(
        guild_id=1, channel_id=5, game_id="rey_hierofante", options={}, host_id=1, locale="es"
    )
    await ts.set_match_game(m.id, g.id)
    await raw_fetch(store, "DELETE FROM games WHERE id = ?", (g.id,))
    assert (await ts.get_match(m.id)).game is None


async def test_each_change_notes_the_post_it_owes_in_its_own_transaction(
    db_target: str | Path,
) -> None:
    store = await Store.open(db_target)
    ts = store
    t = await _tournament(ts, table_size=2)
    for u in (1, 2, 3):
        await ts.enter_tournament(t.id, u, f"p{u}")
    await ts.start_tournament(t.id, [1, 2, 3])
    assert await ts.owed_posts(t.id) == [] and await ts.tournaments_owing() == []
    table, _bye = await ts.open_round(t.id, 1, [NewTable((1, 2))], byes=[3])
    assert [(o.kind, o.payload) for o in await ts.owed_posts(t.id)] == [("round", {"round": 1})]
    game = await store.create_game(
        guild_id=1, channel_id=77, game_id="rey_hierofante", options={}, host_id=9, locale="es"
    )
    await ts.set_match_game(table.id, game.id)
    assert await ts.record_match_result(table.id, {1: 0, 2: 1}, kind="game")
    assert not await ts.record_match_result(table.id, {1: 1, 2: 0}, kind="game")  # nothing owed twice
    await ts.reopen_match(table.id)  # played again: told once its new game is open
    assert await ts.drop_entrant(t.id, 3, 1)
    assert not await ts.drop_entrant(t.id, 3, 1)
    await ts.set_tournament_status(t.id, "finished", owe=("podium", {}))
    owed = await ts.owed_posts(t.id)
    assert [(o.kind, o.payload) for o in owed] == [
        ("round", {"round": 1}),
        ("result", {"match": table.id}),
        ("replayed", {"match": table.id}),
        ("dropped", {"user": 3}),
        ("podium", {}),
    ]
    assert [o.id for o in owed] == sorted(o.id for o in owed)
    assert await ts.tournaments_owing() == [t.id]
    await ts.owed_posts_done([owed[0].id, owed[1].id])
    assert [o.kind for o in await ts.owed_posts(t.id)] == ["replayed", "dropped", "podium"]
    # a change that fails writes no post: an unknown tournament's status
    with pytest.raises(UnknownTournament):
        await ts.set_tournament_status(9999, "finished", owe=("podium", {}))
    # kept across a restart
    await store.close()
    again = await Store.open(db_target)
    try:
        ts2 = again
        assert [o.kind for o in await ts2.owed_posts(t.id)] == ["replayed", "dropped", "podium"]
        await ts2.owed_posts_done([o.id for o in await ts2.owed_posts(t.id)])
        assert await ts2.tournaments_owing() == []
    finally:
        await again.close()
