"""Undo by consent, the log that stays append-only, and replay records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.registry import games
from services.clock import ManualClock
from services.history import final_state, reveals
from services.replay import build_record, main, replay_record, transcript
from services.session import Refusal, SessionService
from storage import Store

ALICE, BOB, CAROL = 101, 202, 303


async def started(service: SessionService, game_id: str = "rey_hierofante", players: int = 2,
                  ai: int = 0) -> int:
    g = await service.create(guild_id=1, channel_id=900, game_id=game_id, options={}, host_id=ALICE,
                             host_name="alice", locale="es")
    for uid, name in ((BOB, "bob"), (CAROL, "carol"))[: players - 1]:
        await service.join(g.id, user_id=uid, name=name, locale="en")
    for _ in range(ai):
        await service.add_ai(g.id, by=ALICE)
    await service.start(g.id, by=ALICE)
    return g.id


async def play_first(service: SessionService, game: int) -> tuple[int, int]:
    """Make the pending human's first legal move; (seat, user id)."""
    g = service.cached(game)
    assert g is not None
    seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
    uid = g.seat_row(seat).user_id
    assert uid is not None
    await service.move(game, uid, g.legal_actions(seat)[0])
    return seat, uid


async def test_undo_accepted_restores_the_state_and_keeps_the_log(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 5, clock=ManualClock())
    game = await started(service)
    g = service.cached(game)
    assert g is not None
    before = g.engine.dump_state(g.state)
    seat, uid = await play_first(service, game)
    _, req, now = await service.request_undo(game, uid)
    assert now is None and req.seq == 1
    other = BOB if uid == ALICE else ALICE
    _, _, outcome, result = await service.answer_undo(game, other, True)
    assert outcome == "done" and result is not None and result.undone == 1
    after = g.engine.load_state(g.engine.dump_state(g.state))
    assert after.version == 2  # versions only grow
    assert g.engine.dump_state(after.model_copy(update={"version": 0})) == before
    rows = await store.actions(game)
    assert [r.seq for r in rows] == [1, 2] and "tablero.undo" in rows[1].action
    # the log replays to the stored state, undo included
    stored = await store.get_game(game)
    assert stored is not None
    replayed = final_state(g.engine, 2, stored.options, stored.seed, rows)
    assert g.engine.dump_state(replayed) == stored.state
    assert seat in g.pending()
    # and the game goes on from there
    await service.move(game, uid, g.legal_actions(seat)[0])


async def test_undo_refused_or_lapsed_changes_nothing(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 5, clock=ManualClock())
    game = await started(service)
    g = service.cached(game)
    assert g is not None
    seat, uid = await play_first(service, game)
    other = BOB if uid == ALICE else ALICE
    await service.request_undo(game, uid)
    state = g.engine.dump_state(g.state)
    with pytest.raises(Refusal):
        await service.answer_undo(game, uid, True)  # nobody votes on their own request
    _, _, outcome, result = await service.answer_undo(game, other, False)
    assert outcome == "refused" and result is None
    assert g.engine.dump_state(g.state) == state and len(await store.actions(game)) == 1
    with pytest.raises(Refusal):
        await service.answer_undo(game, other, True)  # the request is gone
    # a request lapses once the game moves on
    await service.request_undo(game, uid)
    nxt = next(iter(g.pending()))
    await service.move(game, g.seat_row(nxt).user_id, g.legal_actions(nxt)[0])
    _, _, outcome, _ = await service.answer_undo(game, other, True)
    assert outcome == "lapsed"


async def test_only_your_own_last_move_and_only_before_anyone_else(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 5, clock=ManualClock())
    game = await started(service)
    with pytest.raises(Refusal):
        await service.request_undo(game, ALICE)  # nothing played yet
    seat, uid = await play_first(service, game)
    other = BOB if uid == ALICE else ALICE
    with pytest.raises(Refusal):
        await service.request_undo(game, other)  # not their move
    g = service.cached(game)
    assert g is not None
    nxt = next(iter(g.pending()))
    if nxt != seat:
        await service.move(game, g.seat_row(nxt).user_id, g.legal_actions(nxt)[0])
        with pytest.raises(Refusal):
            await service.request_undo(game, uid)  # someone else has moved since


async def test_against_the_bot_undo_needs_no_vote(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 8, clock=ManualClock())
    game = await started(service, players=1, ai=1)
    g = service.cached(game)
    assert g is not None
    # After the human's move the bot replied: the human's move is no longer the last.
    await play_first(service, game)
    with pytest.raises(Refusal):
        await service.request_undo(game, ALICE)


def test_a_move_that_draws_or_reveals_cannot_be_undone() -> None:
    engine = games()["ankh_morpork"]
    state = engine.setup(3, {}, 3)
    (seat,) = engine.pending(state)
    play = next(a for a in engine.legal_actions(state, seat) if a.kind == "play")
    new, events = engine.apply(state, seat, play)
    # Playing a card shows it to everyone: it was hidden in the hand.
    assert reveals(engine, state, new, events, seat)
    rh = games()["rey_hierofante"]
    s0 = rh.setup(2, {}, 3)
    (p,) = rh.pending(s0)
    s1, ev = rh.apply(s0, p, rh.legal_actions(s0, p)[0])
    assert not reveals(rh, s0, s1, ev, p)  # nothing hidden in the open variant


def _playout(engine_id: str, seats: int, seed: int):
    engine = games()[engine_id]
    state = engine.setup(seats, {}, seed)
    rows = []
    from storage.rows import ActionRow

    while not state.finished:
        seat = sorted(engine.pending(state))[0]
        action = engine.ai_action(state, seat)
        new, _ = engine.apply(state, seat, action)
        rows.append(ActionRow(game=1, seq=new.version, seat=seat, action=engine.dump_action(action), at=0.0))
        state = new
    return engine, state, rows


def test_a_finished_game_record_replays_to_its_final_state(tmp_path: Path, capsys) -> None:
    engine, state, rows = _playout("rattus_cartus", 3, 11)
    record = build_record(engine, game=1, options={}, players=["a", "b", "c"], seed=11, rows=rows,
                          finished=True, final=state)
    again = replay_record(json.loads(json.dumps(record)))
    assert engine.dump_state(again) == engine.dump_state(state)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main([str(path)]) == 0
    assert "the state matches the record" in capsys.readouterr().out
    record["actions"].pop()
    path.write_text(json.dumps(record))
    assert main([str(path)]) == 1


def test_an_unfinished_record_holds_only_public_information() -> None:
    engine, state, rows = _playout("rattus_cartus", 3, 12)
    cut = rows[: len(rows) // 2]
    record = build_record(engine, game=1, options={}, players=["a", "b", "c"], seed=12, rows=cut,
                          finished=False, final=None)
    assert "seed" not in record and "actions" not in record
    text = json.dumps(record, ensure_ascii=False)
    mid = final_state(engine, 3, {}, 12, cut)
    for seat in range(3):
        for card in mid.hands[seat]:
            assert f'"{card}"' not in text
    with pytest.raises(ValueError):
        replay_record(record)
    lines = transcript(engine, players=["a", "b", "c"], options={}, seed=12, rows=cut, viewer_all=False,
                       locale="en", when=lambda ts: "-").splitlines()
    assert len(lines) == len(cut)


async def test_the_host_frees_seats_and_hands_hosting_over(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 5, clock=ManualClock())
    g = await service.create(guild_id=1, channel_id=900, game_id="rattus_cartus", options={}, host_id=ALICE,
                             host_name="alice", locale="es")
    await service.join(g.id, user_id=BOB, name="bob", locale="en")
    await service.add_ai(g.id, by=ALICE)
    await service.add_ai(g.id, by=ALICE)
    assert [s.name for s in g.seats] == ["alice", "bob", "Bot", "Bot 2"]
    with pytest.raises(Refusal):
        await service.remove_from_lobby(g.id, seat=2, by=BOB)  # only the host
    with pytest.raises(Refusal):
        await service.remove_from_lobby(g.id, seat=0, by=ALICE)  # not oneself
    await service.remove_from_lobby(g.id, seat=2, by=ALICE)
    assert [s.name for s in g.seats] == ["alice", "bob", "Bot 2"] and [s.seat for s in g.seats] == [0, 1, 2]
    await service.remove_from_lobby(g.id, seat=1, by=ALICE)
    assert [s.name for s in g.seats] == ["alice", "Bot 2"]
    with pytest.raises(Refusal):
        await service.transfer_host(g.id, to=BOB, by=ALICE)  # bob no longer plays
    await service.join(g.id, user_id=BOB, name="bob", locale="en")
    await service.transfer_host(g.id, to=BOB, by=ALICE)
    assert g.row.host_id == BOB
    with pytest.raises(Refusal):
        await service.start(g.id, by=ALICE)  # alice is no longer the host
    await service.start(g.id, by=BOB)


# -- undo never shows hidden information for free -----------------------------------------


async def test_ragami_draw_cannot_be_taken_back_against_the_bot(store: Store) -> None:
    # Undo with only bots opposite is granted at once: taking back "draw cards" and drawing
    # again would show the same three cards, the deck's future.
    service = SessionService(store, seed_source=lambda: 4, clock=ManualClock())
    game = await started(service, "ragami", players=1, ai=1)
    g = service.cached(game)
    assert g is not None and g.state is not None
    draw = g.engine.parse_action({"kind": "use_die", "slot": 1})
    for _ in range(300):
        seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
        if draw in g.legal_actions(seat):
            break
        await service.move(game, ALICE, g.engine.ai_action(g.state, seat))
    else:
        pytest.fail("the human never had the Draw cards die")
    await service.move(game, ALICE, draw)
    assert g.state.drawn[seat]  # three cards to keep one of, seen by their drawer
    with pytest.raises(Refusal):
        await service.request_undo(game, ALICE)
    assert len(await store.actions(game)) == g.state.version  # nothing was taken back


def _first_move(engine_id: str, seats: int, options: dict[str, Any], wanted: Any) -> tuple[Any, ...]:
    """Play the bot on every seat until a move ``wanted(before, seat, action, after)`` holds;
    (engine, before, seat, after, events)."""
    engine = games()[engine_id]
    for seed in range(1, 20):
        state = engine.setup(seats, options, seed)
        while not state.finished:
            seat = sorted(engine.pending(state))[0]
            action = engine.ai_action(state, seat)
            after, events = engine.apply(state, seat, action)
            if wanted(state, seat, action, after):
                return engine, state, seat, after, events
            state = after
    raise AssertionError("no such move in the games played")


def test_ankh_morpork_end_of_turn_draw_cannot_be_taken_back() -> None:
    # A move that ends the turn without playing a card: the mover draws back up, unseen.
    def draws(before: Any, seat: int, action: Any, after: Any) -> bool:
        return action.kind != "play" and after.turn != seat and bool(set(after.hands[seat]) - set(before.hands[seat]))

    engine, before, seat, after, events = _first_move("ankh_morpork", 3, {}, draws)
    assert all(e.audience in (None, [seat]) for e in events)  # told to the mover alone
    assert reveals(engine, before, after, events, seat)


def test_rattus_cartus_nun_peek_cannot_be_taken_back() -> None:
    def peeks(before: Any, seat: int, action: Any, after: Any) -> bool:
        return action.kind == "peek"

    engine, before, seat, after, events = _first_move("rattus_cartus", 3, {}, peeks)
    assert any(e.kind == "peek" and e.audience == [seat] for e in events)  # the mover alone sees it
    assert reveals(engine, before, after, events, seat)


def test_rey_hierofante_hidden_draft_cannot_be_taken_back() -> None:
    # In the hidden draft the second picker keeps a tile, then draws four to pick from.
    def second_offer(before: Any, seat: int, action: Any, after: Any) -> bool:
        return action.kind == "draft_pick" and before.draft.step == 1 and after.draft is not None

    engine, before, seat, after, events = _first_move("rey_hierofante", 2, {"variant": "draft_oculto"},
                                                      second_offer)
    assert after.draft.picker == seat and set(after.draft.offer) - set(before.draft_seen[seat])
    assert reveals(engine, before, after, events, seat)
    # the first pick shows the rest of the offer to the other player: refused too
    first = engine.setup(2, {"variant": "draft_oculto"}, 1)
    (p,) = engine.pending(first)
    nxt, ev = engine.apply(first, p, engine.legal_actions(first, p)[0])
    assert reveals(engine, first, nxt, ev, p)
