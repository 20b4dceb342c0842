"""The outbox worker: what a committed change owes is rebuilt from the log after a restart,
planned once, sent in order, each message marked done once sent; never sent twice by two
tasks of one process; a message that fails for a bug is given up, the rest still goes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from services.outbox import Delivery, Outbox
from services.session import MoveResult, SessionService
from storage import Store
from storage.outbox import OutboxRow, Owed

ALICE, BOB = 101, 202


class Recorder:
    """Stands in for the Discord side: plans a record and a board, records what is sent."""

    def __init__(self, fail: str | None = None) -> None:
        self.planned: list[tuple[int, MoveResult | None]] = []
        self.sent: list[tuple[int, str, bool]] = []
        self.fail = fail

    async def plan(self, change: OutboxRow, result: MoveResult | None, context: Any) -> list[Owed]:
        self.planned.append((change.id, result))
        return [Owed("record", "record"), Owed("board", "board")]

    async def send(self, d: Delivery) -> None:
        await asyncio.sleep(0)  # a real send awaits Discord
        if d.row.kind == self.fail:
            raise RuntimeError("a bug")
        self.sent.append((d.change.id, d.row.kind, d.again))


def outbox_for(session: SessionService, rec: Recorder) -> Outbox:
    box = Outbox(session)
    box.plan, box.send = rec.plan, rec.send
    return box


async def played(store: Store, moves: int) -> tuple[SessionService, int, list[MoveResult]]:
    """A Rey y Hierofante game between two humans, started, with ``moves`` moves made."""
    session = SessionService(store, seed_source=lambda: 5)
    g = await session.create(
        guild_id=1,
        channel_id=9,
        game_id="rey_hierofante",
        options={},
        host_id=ALICE,
        host_name="Ana",
        locale="es",
    )
    await session.join(g.id, user_id=BOB, name="Bea", locale="en")
    results = [await session.start(g.id, by=ALICE)]
    for _ in range(moves):
        seat = sorted(g.pending())[0]
        user = g.seat_row(seat).user_id
        results.append(await session.move(g.id, user, g.legal_actions(seat)[0], g.version))
    return session, g.id, results


async def test_after_a_restart_every_change_is_rebuilt_from_the_log_and_delivered_once(
    store: Store,
) -> None:
    _, gid, results = await played(store, 3)
    # A new process: nothing of the changes was delivered.
    fresh = SessionService(store)
    rec = Recorder()
    box = outbox_for(fresh, rec)
    assert await box.drain() == 4
    assert [kind for _, kind, _ in rec.sent] == ["record", "board"] * 4
    assert all(again for _, _, again in rec.sent) and box.again == box.delivered == 8
    # Rebuilt as they were made: the start (no state before it), then each move's step.
    rebuilt = [r for _, r in rec.planned]
    assert rebuilt[0] is not None and rebuilt[0].before is None and rebuilt[0].steps == []
    for made, again in zip(results[1:], rebuilt[1:], strict=True):
        assert again is not None and again.before is not None and made.before is not None
        assert again.before.version == made.before.version
        assert [(s.seat, s.version, s.action) for s in again.steps] == [
            (s.seat, s.version, s.action) for s in made.steps
        ]
        assert [e.model_dump() for e in again.events] == [e.model_dump() for e in made.events]
    assert await box.drain() == 0 and len(rec.sent) == 8


async def test_a_change_half_delivered_goes_on_where_it_stopped(store: Store) -> None:
    session, _, results = await played(store, 1)
    change = results[-1].change
    assert change is not None and change.id is not None
    messages = await store.expand_change(
        change.id, [Owed("record", "record"), Owed("board", "board")]
    )
    await store.outbox_done(messages[0].id, change=change.id)  # the record went out, then a crash
    rec = Recorder()
    box = outbox_for(session, rec)
    await box.drain()
    # The start's two messages, then only the move's board: its record is not sent again,
    # and the change is not planned again.
    assert [(c, kind) for c, kind, _ in rec.sent][-1] == (change.id, "board")
    assert (change.id, "record") not in [(c, kind) for c, kind, _ in rec.sent]
    assert change.id not in [c for c, _ in rec.planned]


async def test_two_tasks_delivering_one_change_send_it_once(store: Store) -> None:
    session, _, results = await played(store, 1)
    change = results[-1].change
    assert change is not None and change.id is not None
    rec = Recorder()
    box = outbox_for(session, rec)
    await asyncio.gather(
        box.deliver(change.id, results[-1]), box.deliver(change.id, results[-1]), box.drain()
    )
    assert sorted(kind for c, kind, _ in rec.sent if c == change.id) == ["board", "record"]


async def test_two_processes_delivering_what_is_left_send_each_message_once(
    store: Store, tmp_path: Path
) -> None:
    await played(store, 3)  # four changes, none delivered
    other = await Store.open(tmp_path / "tablero.db")  # a second process on the database
    try:
        boxes, recs = [], []
        for s in (store, other):
            session = SessionService(s)
            session.shared = True
            recs.append(Recorder())
            boxes.append(outbox_for(session, recs[-1]))
        await asyncio.gather(*(box.drain() for box in boxes), *(box.drain() for box in boxes))
        sent = sorted((c, kind) for rec in recs for c, kind, _ in rec.sent)
        assert len(sent) == 8 and len(set(sent)) == 8  # every message of the four, once
        assert await store.open_changes() == []
    finally:
        await other.close()


async def test_a_message_that_fails_for_a_bug_is_given_up_and_the_rest_goes(store: Store) -> None:
    session, _, _ = await played(store, 0)
    rec = Recorder(fail="record")
    box = outbox_for(session, rec)
    await box.drain()
    assert [kind for _, kind, _ in rec.sent] == ["board"]
    assert await store.open_changes() == []


async def test_a_finished_games_last_change_is_delivered_after_a_restart(store: Store) -> None:
    session, gid, _ = await played(store, 0)
    g = await session.require(gid)
    while g.status == "active":
        seat = sorted(g.pending())[0]
        await session.move(gid, g.seat_row(seat).user_id, g.legal_actions(seat)[0], g.version)
    assert g.status == "finished" and gid not in await store.open_game_ids()
    # Restart: the game is no longer open, yet what its last move owes goes out.
    rec = Recorder()
    box = outbox_for(SessionService(store), rec)
    await box.drain()
    last = rec.planned[-1][1]
    assert last is not None and last.finished and last.steps[-1].version == g.version
    assert await store.open_changes() == []


async def test_a_message_failing_while_the_bot_stops_is_left_for_the_next_start(store: Store) -> None:
    """Discord's connection closes under a stopping bot: what failed is not given up but
    delivered, with the rest of its change, by the next start."""
    session, _, _ = await played(store, 0)
    rec = Recorder(fail="record")
    box = outbox_for(session, rec)
    box.stopping = True
    await box.drain()
    assert rec.sent == [] and len(await store.open_changes()) == 1
    after = Recorder()
    await outbox_for(session, after).drain()
    assert [kind for _, kind, _ in after.sent] == ["record", "board"]
    assert await store.open_changes() == []


async def test_a_message_its_sending_leaves_open_keeps_its_change_owed_until_marked(store: Store) -> None:
    session, gid, results = await played(store, 2)
    rec = Recorder()

    async def send(d: Delivery) -> None:
        await rec.send(d)
        d.left_open = d.row.kind == "board" and not d.again  # a card held for its mover's part

    box = outbox_for(session, rec)
    box.send = send
    change = results[1].change
    assert change is not None and change.id is not None
    await box.deliver(change.id, results[1])
    # The record went and is done; the board stays owed, and its change open.
    (open_change,) = [c for c in await store.open_changes(gid) if c.id == change.id]
    board = next(m for m in await store.outbox_messages(change.id) if m.kind == "board")
    record = next(m for m in await store.outbox_messages(change.id) if m.kind == "record")
    assert record.done and not board.done and not open_change.done
    # Whoever shows the card marks it; the change is delivered then.
    await store.outbox_done(board.id, change=change.id)
    assert change.id not in [c.id for c in await store.open_changes(gid)]
    # Or, after a restart, delivered again (then done as any message).
    change2 = results[2].change
    assert change2 is not None and change2.id is not None
    await box.deliver(change2.id, results[2])
    assert change2.id in [c.id for c in await store.open_changes(gid)]
    rec.sent.clear()
    await outbox_for(SessionService(store), rec).drain(gid)
    assert change2.id not in [c.id for c in await store.open_changes(gid)]
    assert (change2.id, "board", True) in rec.sent and (change2.id, "record", True) not in rec.sent
