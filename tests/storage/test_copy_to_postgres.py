"""Moving to PostgreSQL: a real SQLite store (games of every kind, tournaments, ratings,
decks, settings, the outbox) copied into an empty PostgreSQL database and checked."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import asyncpg
import pytest

from rules.registry import games
from services.copy_to_postgres import CopyRefused, _replay_all, copy_database, main
from services.copy_to_postgres import CopyReport as Report
from services.history import undo_json
from storage import Store
from storage.deadlines import DeadlineRow
from storage.lookups import UndoRequest
from storage.outbox import Owed
from storage.ratings import PlaceRow, RatingChange, RatingStore
from storage.tournaments import NewTable
from tests.pg_server import PgServer, drop_database, new_database

# (game, seats, moves to play: None plays to the end)
PLAYED = [
    ("rey_hierofante", 2, None),
    ("rattus_cartus", 3, 60),
    ("ankh_morpork", 2, 40),
    ("ragami", 3, 40),
    ("guerra_de_mitos", 2, 8),
]


async def _play(store: Store, channel: int, game_id: str, seats: int, moves: int | None,
                seed: int) -> int:
    """A game created, seated, started and played with random legal moves, move by move."""
    engine = games()[game_id]
    g = await store.create_game(guild_id=1, channel_id=channel, game_id=game_id, options={},
                                host_id=100, locale="es", host_seat=("host", "es"))
    for s in range(1, seats):
        await store.add_seat(g.id, user_id=100 + s, name=f"p{s}")
    state = engine.setup(seats, {}, seed)
    await store.start_game(g.id, seed=seed, state=engine.dump_state(state), version=state.version)
    rng = random.Random(seed)
    n = 0
    while not state.finished and (moves is None or n < moves):
        seat = sorted(engine.pending(state))[0]
        action = engine.dump_action(rng.choice(engine.legal_actions(state, seat)))
        new, _ = engine.apply(state, seat, action)
        await store.commit_move(g.id, expected_version=state.version, seat=seat, action=action,
                                state=engine.dump_state(new), finished=new.finished, own=True)
        state, n = new, n + 1
    return g.id


async def _fill(path: Path) -> dict[str, int]:
    """An SQLite store holding some of everything; the started games' count and more."""
    store = await Store.open(path)
    try:
        ids = [await _play(store, 10 + i, gid, n, m, seed=7 + i)
               for i, (gid, n, m) in enumerate(PLAYED)]
        # A move taken back: the log's undo row restores the state before it.
        engine = games()["ragami"]
        undo_game = await store.get_game(ids[3])
        log = await store.actions(undo_game.id)
        before = engine.setup(3, {}, undo_game.seed)
        for row in log[:-1]:
            before, _ = engine.apply(before, row.seat, row.action)
        restored = before.model_copy(update={"version": undo_game.version + 1})
        await store.commit_move(undo_game.id, expected_version=undo_game.version, seat=0,
                                action=undo_json(log[-1].seq), state=engine.dump_state(restored),
                                finished=False)
        # A lobby never started (with a deck chosen in it), and a started game abandoned.
        lobby = await store.create_game(guild_id=1, channel_id=50, game_id="guerra_de_mitos",
                                        options={"x": 1}, host_id=100, locale="en",
                                        host_seat=("host", None))
        await store.choose_lobby_deck(lobby.id, 100, "ready:nordica")
        await store.take_lease("clock", "host:1:abc", time.time(), 30.0)
        await store.set_status(ids[2], "abandoned")
        # Around the games: spectators, DMs, undo requests, deadlines, outbox, threads.
        await store.add_watcher(ids[1], 555)
        await store.set_dm_message(ids[1], 0, 9, 99)
        await store.put_undo_request(UndoRequest(ids[1], 1, 3, (0,), time.time()))
        now = time.time()
        await store.put_deadlines([DeadlineRow(ids[1], 0, 100, now, now + 60, 1, None, now + 30)])
        change = await store.add_change(ids[1], {"v": 3, "é": "ñ"})
        await store.expand_change(change, [Owed("board", "board", {"a": 1}), Owed("hand", "hand:0")])
        await store.add_pending_thread(1, 77, "hilo")
        await store.update_user(100, notify="dm", locale="es", vacation_used=2.5)
        await store.update_guild(1, locale="es", clock_seconds=3600, organiser_role_id=2**62)
        # Tournaments, results and ratings, decks.
        ts = store
        t = await ts.create_tournament(guild_id=1, channel_id=60, organiser_id=100, name="Copa",
                            game_id="rey_hierofante", format="swiss", table_size=2, seed=3,
                            locale="es", clock={"seconds": 600}, check_in=True)
        for u in (100, 101, 102):
            await ts.enter_tournament(t.id, u, f"u{u}")
        await ts.start_tournament(t.id, [100, 101, 102])
        [m, _bye] = await ts.open_round(t.id, 1, [NewTable((100, 101))], byes=[102])
        await ts.set_match_game(m.id, ids[0])
        await ts.record_match_result(m.id, {100: 0, 101: 1}, kind="game", scores={100: 3.5})
        rs = RatingStore(store)
        await rs.record_result(
            game=ids[0], guild_id=1, game_id="rey_hierofante",
            places=[PlaceRow(0, 100, 0, 3.5), PlaceRow(1, 101, 1)],
            changes=[RatingChange(100, 25.0, 8.3, 27.1, 7.9, 3, 1),
                     RatingChange(101, 25.0, 8.3, 22.9, 7.9, -1, 1)],
        )
        deck = await store.create_deck(100, "Griegos", pantheon="0001", cards={"0002": 3, "0005": 1})
        await store.lock_deck(t.id, 100, source=f"deck:{deck.id}", name=deck.name,
                              pantheon=deck.pantheon, cards=deck.cards)
    finally:
        await store.close()
    return {"started": len(PLAYED)}


async def _snapshot(target: str | Path) -> tuple:
    """What the store answers about everything, to compare both sides."""
    store = await Store.open(target)
    try:
        out = []
        for (gid,) in await store._fetchall("SELECT id FROM games ORDER BY id"):
            out.append((await store.get_game(gid), await store.seats(gid),
                        await store.actions(gid), await store.deadlines(gid),
                        await store.watchers(gid), await store.open_changes(gid)))
        ts, rs = store, RatingStore(store)
        out.append((await ts.get_tournament(1), await ts.entrants(1), await ts.matches(1)))
        out.append((await rs.leaderboard(1, "rey_hierofante"), await rs.results(1)))
        out.append((await store.user_decks(100), await store.deck_locks(1)))
        out.append((await store.user_settings(100), await store.guild_settings(1)))
        out.append((await store.pending_threads(), await store.undo_request(2)))
        out.append((await store.open_lobby_decks(), await store.lease("clock")))
        return tuple(out)
    finally:
        await store.close()


async def test_copy_moves_everything_and_checks_it(
    pg_server_instance: PgServer, tmp_path: Path
) -> None:
    source = tmp_path / "tablero.db"
    await _fill(source)
    target = await new_database(pg_server_instance)
    try:
        report = await copy_database(source, target, out=lambda _: None)
        assert report.ok, report
        assert report.replayed == len(PLAYED) and report.not_started == 1
        assert not report.digests_differ and not report.replay_failures
        for table in ("games", "seats", "actions", "outbox", "tournaments", "entrants",
                      "matches", "match_players", "results", "ratings", "rating_history",
                      "gdm_decks", "gdm_deck_cards", "gdm_deck_locks", "users",
                      "guild_settings", "deadlines", "watchers", "dm_messages",
                      "undo_requests", "pending_threads", "rounds", "result_places",
                      "gdm_lobby_decks", "leases"):
            src, dst = report.counts[table]
            assert src == dst > 0, table
        assert await _snapshot(source) == await _snapshot(target)

        # The copy is a working store: ids go on after the copied ones, play goes on.
        store = await Store.open(target)
        try:
            g = await store.create_game(guild_id=1, channel_id=99, game_id="ragami",
                                        options={}, host_id=1, locale="es")
            assert g.id == len(PLAYED) + 2
            (deck,) = await store.user_decks(100)
            assert (await store.create_deck(100, "Otro")).id == deck.id + 1
        finally:
            await store.close()

        # A second copy into it is refused, and says why.
        with pytest.raises(CopyRefused, match="not empty"):
            await copy_database(source, target, out=lambda _: None)
        assert await asyncio.to_thread(main, ["--from", str(source), "--to", target]) == 2

        # The replay check catches a version or a state that does not follow from the log.
        conn = await asyncpg.connect(target)
        try:
            await conn.execute("UPDATE games SET version = version + 1 WHERE id = 1")
            await conn.execute("DELETE FROM actions WHERE game = 2 AND seq = 60")
        finally:
            await conn.close()
        tampered = Report()
        await _replay_all(target, tampered)
        assert [f.split(":")[0] for f in tampered.replay_failures] == [
            "game 1 (rey_hierofante)", "game 2 (rattus_cartus)"
        ]
    finally:
        await drop_database(pg_server_instance, target)


async def test_copy_refuses_a_missing_source_or_a_path_target(
    pg_server_instance: PgServer, tmp_path: Path
) -> None:
    with pytest.raises(CopyRefused, match="no SQLite database"):
        await copy_database(tmp_path / "nope.db", pg_server_instance.url("x"))
    await (await Store.open(tmp_path / "a.db")).close()
    with pytest.raises(CopyRefused, match="postgresql://"):
        await copy_database(tmp_path / "a.db", str(tmp_path / "b.db"))
