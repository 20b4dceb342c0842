"""A game keeps the rules' views of its current state and of the one a move just replaced, so
what a move owes (each seat's secrets before and after it) is not asked of the rules again;
the views and secrets it keeps are the rules' own."""

from __future__ import annotations

from services.game import secrets_of
from services.session import SessionService
from storage import Store

from .test_game_cache import play_one, started


async def test_the_views_of_the_state_a_move_replaced_are_kept(store: Store) -> None:
    service = SessionService(store)
    gid = await started(service, 1)
    g = await service.require(gid)
    before = g.state
    assert before is not None
    seats = [s.seat for s in g.seats]
    views = {seat: g.view(seat) for seat in [*seats, None]}
    secrets = {seat: g.secrets(seat) for seat in seats}
    await play_one(service, gid)
    g = await service.require(gid)
    assert g.state is not before
    asked: list[object] = []
    engine_view = g.engine.view
    g.engine.view = lambda state, seat: asked.append(seat) or engine_view(state, seat)  # type: ignore[method-assign]
    try:
        # the replaced state's views and secrets come from what was kept: the rules are not asked
        assert all(g.view_of(before, seat) is views[seat] for seat in [*seats, None])
        assert all(g.secrets(seat, before) == secrets[seat] for seat in seats)
        assert asked == []
        # the new state's are asked once each, then kept
        now = {seat: g.secrets(seat) for seat in seats}
        assert sorted(asked, key=str) == sorted([*seats, None], key=str)
        assert {seat: g.secrets(seat) for seat in seats} == now
        assert len(asked) == len(seats) + 1
    finally:
        g.engine.view = engine_view  # type: ignore[method-assign]
    # what was kept is what the rules say
    assert all(now[seat] == secrets_of(g.engine, g.state, seat) for seat in seats)
    assert all(secrets[seat] == secrets_of(g.engine, before, seat) for seat in seats)
    # an older state than the one replaced is asked of the rules each time
    await play_one(service, gid)
    g = await service.require(gid)
    g.secrets(seats[0])  # the state of the second move becomes "the one just replaced"
    assert g.view_of(before, None) is not views[None]
