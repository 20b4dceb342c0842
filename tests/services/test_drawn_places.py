"""Places drawn at the start: a game whose rulebook draws the places around the table
(Guerra de Mitos with three or more) seats its players in an order drawn from the seed, in
the start's own transaction, and whatever a player chose in the lobby goes with the player."""

from __future__ import annotations

from collections import Counter

from rules.guerra_de_mitos.model import PANTHEON, GdmState
from rules.registry import engine
from services.gdm_lobby import GAME_ID, GdmLobby
from services.session import SessionService, drawn_places
from storage import Store

ALICE, BOB, CAROL, DAVE = 1, 2, 3, 4
E = engine(GAME_ID)


async def started(store: Store, seed: int, game_id: str, *users: int) -> tuple[SessionService, int]:
    """A game of ``game_id`` with ``users`` joined in that order, started with ``seed``."""
    session = SessionService(store, seed_source=lambda: seed)
    lobby = GdmLobby(session)
    session.start_options[GAME_ID] = lobby.start_options
    g = await session.create(guild_id=1, channel_id=1000 + seed, game_id=game_id, options=None,
                             host_id=users[0], host_name=f"u{users[0]}", locale="es")
    for u in users[1:]:
        await session.join(g.id, user_id=u, name=f"u{u}", locale="en")
    if game_id == GAME_ID:
        # Each player's own choice, which must follow them to whatever place they draw.
        for u, deck in zip(users, ("griega", "nordica", "egipcia", "japonesa"), strict=False):
            await lobby.choose(g.id, u, f"ready:{deck}")
    await session.start(g.id, by=users[0])
    return session, g.id


def pantheon_of(state: GdmState, seat: int) -> str:
    (card,) = [c.card for c in state.cards.values() if c.owner == seat and c.zone == PANTHEON]
    return card


async def test_three_players_sit_where_the_seed_draws_them_with_their_own_decks(store: Store) -> None:
    orders: Counter[tuple[int, ...]] = Counter()
    pantheons: dict[int, set[str]] = {}
    for seed in range(12):
        session, gid = await started(store, seed, GAME_ID, ALICE, BOB, CAROL)
        g = await session.get(gid)
        assert g is not None and isinstance(g.state, GdmState)
        seats = await store.seats(gid)
        by_seat = tuple(s.user_id for s in seats)
        assert [s.seat for s in seats] == [0, 1, 2]
        assert sorted(by_seat) == [ALICE, BOB, CAROL]
        # the stored places are the drawn ones, and what the session holds
        drawn = drawn_places(E, [0, 1, 2], seed)
        assert drawn is not None
        assert tuple((ALICE, BOB, CAROL)[old] for old, _ in sorted(drawn.items(), key=lambda kv: kv[1])) == by_seat
        assert tuple(s.user_id for s in g.seats) == by_seat
        orders[by_seat] += 1
        for s in seats:
            pantheons.setdefault(s.user_id, set()).add(pantheon_of(g.state, s.seat))
    # the draw is a draw: several orders, not always the lobby's
    assert len(orders) >= 3, orders
    assert orders[(ALICE, BOB, CAROL)] < 12
    # every player is dealt their own choice wherever they sit
    assert all(len(p) == 1 for p in pantheons.values()), pantheons
    assert len({next(iter(p)) for p in pantheons.values()}) == 3


async def test_the_same_seed_draws_the_same_places(store: Store) -> None:
    one = drawn_places(E, [0, 1, 2, 3], 77)
    assert one == drawn_places(E, [0, 1, 2, 3], 77)
    assert one is not None and sorted(one) == sorted(one.values()) == [0, 1, 2, 3]


async def test_two_players_and_games_that_do_not_draw_keep_the_lobby_order(store: Store) -> None:
    assert drawn_places(E, [0, 1], 5) is None
    assert drawn_places(engine("rattus_cartus"), [0, 1, 2, 3], 5) is None
    for seed in range(4):
        _, gid = await started(store, seed, GAME_ID, ALICE, BOB)
        assert [s.user_id for s in await store.seats(gid)] == [ALICE, BOB]
        _, gid = await started(store, 100 + seed, "rattus_cartus", ALICE, BOB, CAROL, DAVE)
        assert [s.user_id for s in await store.seats(gid)] == [ALICE, BOB, CAROL, DAVE]
