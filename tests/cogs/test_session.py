"""The session service with a real store and the real Rey y Hierofante engine."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rules.core import GameOver, NotYourTurn, RuleError, StaleAction
from rules.rey_hierofante.engine import RhEngine
from services.session import NotSeated, Refusal, SessionService, secrets_of
from storage import Store

ALICE, BOB, CAROL = 101, 202, 303
CHANNEL = 900


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(tmp_path / "tablero.db")
    yield s
    await s.close()


@pytest.fixture
def service(store: Store) -> SessionService:
    return SessionService(store, seed_source=lambda: 1234)


async def lobby(service: SessionService, channel: int = CHANNEL, **options: Any) -> int:
    g = await service.create(
        guild_id=1, channel_id=channel, game_id="rey_hierofante", options=options,
        host_id=ALICE, host_name="alice", locale="es",
    )
    return g.id


async def started(service: SessionService, *, ai: bool = False, **options: Any) -> int:
    game = await lobby(service, **options)
    if ai:
        await service.add_ai(game, by=ALICE)
    else:
        await service.join(game, user_id=BOB, name="bob", locale="en")
    await service.start(game, by=ALICE)
    return game


def user_of(service: SessionService, game: int, seat: int) -> int:
    g = service.cached(game)
    assert g is not None
    uid = g.seat_row(seat).user_id
    assert uid is not None
    return uid


def to_act(service: SessionService, game: int) -> tuple[int, int]:
    """(seat, user id) of the one human who must act now."""
    g = service.cached(game)
    assert g is not None
    seat = next(iter(g.pending()))
    return seat, user_of(service, game, seat)


# ----------------------------------------------------------------------------- lobby


async def test_create_seats_the_host_and_validates_options(service: SessionService) -> None:
    game = await lobby(service, variant="draft")
    g = await service.require(game)
    assert g.status == "lobby"
    assert [(s.user_id, s.name) for s in g.seats] == [(ALICE, "alice")]
    assert g.row.options["variant"] == "draft"
    with pytest.raises(RuleError) as bad:
        await lobby(service, channel=CHANNEL + 1, variant="nonsense")
    assert "variant" in bad.value.message("en")


async def test_one_open_game_per_channel(service: SessionService) -> None:
    game = await lobby(service)
    with pytest.raises(Refusal) as busy:
        await lobby(service)
    assert f"#{game}" in busy.value.message("es")
    assert "thread" in busy.value.message("en")
    other = await lobby(service, channel=CHANNEL + 1)
    assert other != game


async def test_join_leave_and_limits(service: SessionService) -> None:
    game = await lobby(service)
    with pytest.raises(Refusal):
        await service.join(game, user_id=ALICE, name="alice", locale="es")
    g = await service.join(game, user_id=BOB, name="bob", locale="en")
    assert [s.name for s in g.seats] == ["alice", "bob"]
    with pytest.raises(Refusal) as full:
        await service.join(game, user_id=CAROL, name="carol", locale="es")
    assert "2" in full.value.message("en")
    g = await service.leave(game, user_id=BOB)
    assert [s.name for s in g.seats] == ["alice"]
    with pytest.raises(NotSeated):
        await service.leave(game, user_id=BOB)


async def test_only_the_host_adds_ai_and_starts(service: SessionService) -> None:
    game = await lobby(service)
    await service.join(game, user_id=BOB, name="bob", locale="en")
    with pytest.raises(Refusal):
        await service.start(game, by=BOB)
    await service.leave(game, user_id=BOB)
    with pytest.raises(Refusal) as few:
        await service.start(game, by=ALICE)
    assert "2" in few.value.message("es")
    with pytest.raises(Refusal):
        await service.add_ai(game, by=BOB)
    g = await service.add_ai(game, by=ALICE)
    assert g.seats[1].ai and g.seats[1].user_id is None


async def test_start_deals_and_closes_the_lobby(service: SessionService, store: Store) -> None:
    game = await started(service)
    g = await service.require(game)
    assert g.status == "active" and g.state is not None and g.version == 0
    assert (await store.get_game(game)).seed == 1234  # type: ignore[union-attr]
    with pytest.raises(Refusal):
        await service.join(game, user_id=CAROL, name="carol", locale="es")
    with pytest.raises(Refusal):
        await service.start(game, by=ALICE)


# ----------------------------------------------------------------------------- moves


async def test_a_move_is_committed_before_it_returns(service: SessionService, store: Store) -> None:
    game = await started(service)
    seat, user = to_act(service, game)
    g = service.cached(game)
    assert g is not None
    action = g.legal_actions(seat)[0]
    result = await service.move(game, user, action.model_dump(), version=0)
    assert [s.seat for s in result.steps] == [seat]
    assert result.state.version == 1 and not result.finished
    assert result.events
    log = await store.actions(game)
    assert [(a.seq, a.seat) for a in log] == [(1, seat)]
    assert (await store.get_game(game)).version == 1  # type: ignore[union-attr]

    # A new service on the same store (a restart) sees the same state.
    again = SessionService(store)
    reloaded = await again.require(game)
    assert reloaded.engine.dump_state(reloaded.state) == g.engine.dump_state(result.state)  # type: ignore[arg-type]


async def test_refusals_in_both_languages(service: SessionService) -> None:
    game = await started(service)
    seat, user = to_act(service, game)
    other = user_of(service, game, 1 - seat)
    g = service.cached(game)
    assert g is not None
    action = g.legal_actions(seat)[0].model_dump()

    with pytest.raises(NotSeated) as stranger:
        await service.move(game, CAROL, action)
    assert stranger.value.message("es") != stranger.value.message("en")
    with pytest.raises(NotYourTurn):
        await service.move(game, other, action)
    with pytest.raises(StaleAction):
        await service.move(game, user, action, version=7)
    with pytest.raises(RuleError) as malformed:
        await service.move(game, user, {"kind": "fly"})
    assert malformed.value.message("en")
    # nothing of the above was stored
    assert (await service.store.actions(game)) == []
    assert service.cached(game).version == 0  # type: ignore[union-attr]


async def test_the_move_menu_index_must_match_the_version(service: SessionService) -> None:
    game = await started(service)
    seat, user = to_act(service, game)
    g = service.cached(game)
    assert g is not None
    first = g.legal_actions(seat)[0]
    await service.move(game, user, first, version=0)
    seat2, user2 = to_act(service, game)
    second = service.cached(game).legal_actions(seat2)[0]  # type: ignore[union-attr]
    with pytest.raises(StaleAction):
        await service.move(game, user2, second, version=0)
    await service.move(game, user2, second, version=1)


async def test_two_concurrent_moves_exactly_one_lands(service: SessionService) -> None:
    game = await started(service)
    seat, user = to_act(service, game)
    g = service.cached(game)
    assert g is not None
    a, b = g.legal_actions(seat)[:2]
    results = await asyncio.gather(
        service.move(game, user, a, version=0),
        service.move(game, user, b, version=0),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(landed) == 1 and len(refused) == 1
    assert isinstance(refused[0], RuleError)
    assert len(await service.store.actions(game)) == 1


async def test_a_stale_store_write_becomes_a_stale_action(service: SessionService, store: Store) -> None:
    game = await started(service)
    seat, user = to_act(service, game)
    g = service.cached(game)
    assert g is not None
    action = g.legal_actions(seat)[0]
    # Another process moves first, behind this service's back.
    new, _ = g.engine.apply(g.state, seat, action)  # type: ignore[arg-type]
    await store.commit_move(
        game, expected_version=0, seat=seat, action=g.engine.dump_action(action),
        state=g.engine.dump_state(new), finished=False,
    )
    with pytest.raises(StaleAction) as stale:
        await service.move(game, user, action)
    assert stale.value.message("es")
    # After the refusal the service reloads and is in step with the store again.
    assert (await service.require(game)).version == 1


async def test_ai_seats_answer_within_the_same_call(service: SessionService) -> None:
    game = await started(service, ai=True)
    g = service.cached(game)
    assert g is not None
    # Whoever starts, after start() the AI has made its moves: only alice is pending.
    assert set(g.pending()) == {0}
    plays = 0
    while not g.state.finished:  # type: ignore[union-attr]
        result = await service.move(game, ALICE, g.legal_actions(0)[0])
        assert result.steps[0].seat == 0 and not result.steps[0].ai
        assert all(step.ai and step.seat == 1 for step in result.steps[1:])
        assert result.finished or set(g.pending()) == {0}
        plays += 1
        assert plays < 200
    assert g.status == "finished"
    with pytest.raises(GameOver):
        await service.move(game, ALICE, {"kind": "decline"})
    log = await service.store.actions(game)
    assert {a.seat for a in log} == {0, 1}
    assert log[-1].seq == g.version


async def test_a_failing_ai_does_not_lose_the_human_move(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # A seed that deals the first move to alice (seat 0), so she moves before the AI.
    seed = next(s for s in range(100) if RhEngine().setup(2, {}, s).turn == 0)
    service = SessionService(store, seed_source=lambda: seed)
    game = await lobby(service)
    await service.add_ai(game, by=ALICE)

    def broken(self: RhEngine, state: Any, seat: int) -> Any:
        raise RuntimeError("AI bug")

    monkeypatch.setattr(RhEngine, "ai_action", broken)
    await service.start(game, by=ALICE)
    g = service.cached(game)
    assert g is not None and set(g.pending()) == {0}
    result = await service.move(game, ALICE, g.legal_actions(0)[0])
    assert [s.seat for s in result.steps] == [0]
    assert len(await service.store.actions(game)) == 1
    monkeypatch.undo()
    resumed = await service.resume_ai(game)
    assert resumed is not None and all(s.ai for s in resumed.steps)


async def test_abandon_needs_the_host_or_manage_channels(service: SessionService) -> None:
    game = await started(service)
    with pytest.raises(Refusal):
        await service.abandon(game, by=CAROL, can_manage=False)
    g = await service.abandon(game, by=CAROL, can_manage=True)
    assert g.status == "abandoned"
    with pytest.raises(Refusal):
        await service.abandon(game, by=ALICE, can_manage=False)
    assert await service.in_channel(CHANNEL) is None
    # the channel is free again, and the finished game can still be looked at
    assert (await service.latest_in_channel(CHANNEL)).id == game  # type: ignore[union-attr]
    await lobby(service)


# ----------------------------------------------------------------------------- reading


async def test_replay_filters_events_by_viewer(service: SessionService) -> None:
    game = await started(service, variant="draft_oculto")
    g = service.cached(game)
    assert g is not None
    for _ in range(4):
        seat, user = to_act(service, game)
        await service.move(game, user, g.legal_actions(seat)[0])
    public = await service.replay(game, None)
    assert [line.seq for line in public] == [1, 2, 3, 4]
    for line in public:
        assert all(e.audience is None for e in line.events)
    mine = await service.replay(game, 0)
    assert sum(len(x.events) for x in mine) >= sum(len(x.events) for x in public)
    for line in mine:
        assert all(e.visible_to(0) for e in line.events)


async def test_secrets_only_in_hidden_variants(service: SessionService) -> None:
    engine = RhEngine()
    open_state = engine.setup(2, {"variant": "aleatorio"}, 5)
    assert secrets_of(engine, open_state, 0) == [] and secrets_of(engine, open_state, 1) == []
    hidden = engine.setup(2, {"variant": "aleatorio_oculto"}, 5)
    mine, theirs = secrets_of(engine, hidden, 0), secrets_of(engine, hidden, 1)
    assert mine and theirs and mine != theirs
    # each seat's secret tiles are its own hidden neutrals
    zone = [z.tile for z in hidden.zones[0] if z.hidden]
    assert all(any(tile in fact for fact in mine) for tile in zone)
