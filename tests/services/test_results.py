"""Ended games feed results, ratings and tournaments by themselves (services/results.py),
through the session service's game-over listeners, and after a crash through catch_up."""

from __future__ import annotations

import random

from services.clock import ManualClock
from services.results import ResultFeed
from services.session import SessionService
from services.tournament import Progress, TournamentService
from storage import Store
from storage.tournaments import MatchRow, TournamentRow

GUILD = 1
OPTIONS = {"wins_needed": 1}


class SessionTables:
    """A TableHost that seats each table's game through the session service (no Discord)."""

    def __init__(self, session: SessionService) -> None:
        self.session = session
        self.feed: ResultFeed | None = None
        self.channel = 1000
        self.closed: list[int] = []

    async def open_table(self, tournament: TournamentRow, match: MatchRow) -> int:
        self.channel += 1
        first, *rest = match.user_ids
        g = await self.session.create(
            guild_id=tournament.guild_id,
            channel_id=self.channel,
            game_id=tournament.game_id,
            options=tournament.options,
            host_id=first,
            host_name=f"p{first}",
            locale="es",
            clock_seconds=(tournament.clock or {}).get("seconds"),
            timeout_action=(tournament.clock or {}).get("timeout", "ai"),
        )
        for u in rest:
            await self.session.join(g.id, user_id=u, name=f"p{u}", locale=None)
        await self.session.start(g.id, by=first)
        return g.id

    async def close_table(self, tournament: TournamentRow, match: MatchRow) -> None:
        assert match.game is not None and self.feed is not None
        self.feed.closing.add(match.game)
        await self.session.abandon(match.game, by=tournament.organiser_id, can_manage=True)
        self.closed.append(match.game)


async def setup(store: Store, time: ManualClock | None = None, **kw):
    session = SessionService(store, clock=time or ManualClock())
    host = SessionTables(session)
    svc = TournamentService(store, host)
    told: list[tuple[int, Progress]] = []

    async def on_progress(tid: int, progress: Progress) -> None:
        told.append((tid, progress))

    feed = ResultFeed(session, svc, on_progress)
    host.feed = feed
    session.game_over_listeners.append(feed)
    args = dict(
        guild_id=GUILD,
        channel_id=5,
        organiser_id=99,
        name="Copa",
        game_id="rey_hierofante",
        format="single_elim",
        table_size=2,
        seed=7,
        locale="es",
        options=OPTIONS,
    )
    args.update(kw)
    t = await svc.create(**args)
    for u in range(1, 5):
        await svc.enter(t.id, u, f"p{u}")
    return session, svc, feed, t, told


async def play(session: SessionService, game: int, rng: random.Random) -> None:
    """Random legal moves by the humans until the game ends."""
    while True:
        g = await session.require(game)
        if g.status != "active":
            return
        seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
        action = rng.choice(g.legal_actions(seat))
        await session.move(game, g.seat_row(seat).user_id, action.model_dump(mode="json"))


async def playing(svc: TournamentService, tid: int) -> list[MatchRow]:
    t = await svc.require(tid)
    return [m for m in await svc.store.matches(tid, t.current_round) if m.status == "playing"]


async def test_a_finished_game_is_rated_and_the_bracket_goes_on_by_itself(store: Store) -> None:
    session, svc, _, t, told = await setup(store)
    await svc.start(t.id)
    rng = random.Random(1)
    semis = await playing(svc, t.id)
    assert len(semis) == 2
    for m in semis:
        await play(session, m.game, rng)
    await session.settle()
    final = await playing(svc, t.id)
    assert len(final) == 1 and final[0].round == 2
    winners = {
        p.user_id
        for m in semis
        for p in (await svc.store.get_match(m.id)).players
        if p.place == 0
    }
    assert set(final[0].user_ids) == winners
    rated = await svc.ratings.ratings_of(GUILD, "rey_hierofante", [1, 2, 3, 4])
    assert {u: r.games for u, r in rated.items()} == {1: 1, 2: 1, 3: 1, 4: 1}
    assert any(p.round_opened == 2 for _, p in told)
    await play(session, final[0].game, rng)
    await session.settle()
    assert (await svc.require(t.id)).status == "finished"
    assert told[-1][1].finished


async def test_a_player_who_abandons_loses_and_a_moderator_singles_nobody_out(store: Store) -> None:
    session, svc, _, t, _ = await setup(store, format="swiss", rounds=1, rated=False)
    await svc.start(t.id)
    a, b = await playing(svc, t.id)
    leaver = a.user_ids[0]  # the table's host: seat 0
    await session.abandon(a.game, by=leaver, can_manage=False)
    await session.abandon(b.game, by=12345, can_manage=True)
    await session.settle()
    a = await svc.store.get_match(a.id)
    b = await svc.store.get_match(b.id)
    assert {p.user_id: p.place for p in a.players} == {a.user_ids[1]: 0, leaver: 1}
    assert [p.place for p in b.players] == [0, 0] and b.result == "abandoned"
    assert (await svc.require(t.id)).status == "finished"
    # unrated tournament, abandoned games: no rating at all
    assert not await svc.ratings.ratings_of(GUILD, "rey_hierofante", [1, 2, 3, 4])


async def test_a_player_the_clock_puts_out_loses_and_a_lone_player_left_wins_at_once(
    store: Store,
) -> None:
    time = ManualClock()
    session, svc, _, t, told = await setup(
        store, time, format="swiss", rounds=1, clock={"seconds": 3600, "timeout": "drop"}
    )
    await svc.start(t.id)
    m, other = await playing(svc, t.id)
    (row,) = await store.deadlines(m.game)
    late = row.user_id
    time.advance(3601)
    await session.timeout(row)
    await session.settle()
    g = await session.require(m.game)
    assert g.seat_row(row.seat).dropped
    # two players: the one left wins there and then; the table closes
    assert g.status == "abandoned" and m.game in session_host(svc).closed
    m = await svc.store.get_match(m.id)
    assert m.result == "abandoned"
    assert {p.user_id: p.place for p in m.players} == {u: int(u == late) for u in m.user_ids}
    assert any(m.id in [r.id for r in p.recorded] for _, p in told)
    assert await svc.ratings.ratings_of(GUILD, "rey_hierofante", list(m.user_ids)) == {}
    await play(session, other.game, random.Random(3))
    await session.settle()
    rated = await svc.ratings.ratings_of(GUILD, "rey_hierofante", list(other.user_ids))
    assert set(rated) == set(other.user_ids)
    assert (await svc.require(t.id)).status == "finished"


async def three_seats_one_timed_out(store: Store, timeout: str):
    """A 3-player Ankh-Morpork tournament table whose first waiting seat ran out of time
    (``timeout``: the tournament's timeout action), played to its end by the others:
    the session, the service, the table and the timed-out wait."""
    time = ManualClock()
    session, svc, _, t, _ = await setup(
        store, time, game_id="ankh_morpork", format="swiss", table_size=3, rounds=1,
        options={}, clock={"seconds": 3600, "timeout": timeout},
    )
    await svc.enter(t.id, 5, "p5")
    await svc.enter(t.id, 6, "p6")
    await svc.start(t.id)
    m = (await playing(svc, t.id))[0]
    (row,) = await store.deadlines(m.game)
    time.advance(3601)
    await session.timeout(row)
    await session.settle()
    assert (await session.require(m.game)).status == "active"  # two players still at it
    await play(session, m.game, random.Random(5))
    await session.settle()
    return session, svc, m, row


async def test_a_seat_dropped_at_a_bigger_table_plays_on_and_the_game_is_not_rated(
    store: Store,
) -> None:
    session, svc, m, row = await three_seats_one_timed_out(store, "drop")
    m = await svc.store.get_match(m.id)
    g = await session.require(m.game)
    assert g.status == "finished"
    outcome = g.engine.outcome(g.state)
    assert outcome is not None
    # the others keep the game's order (players tied by the game share their place)
    groups = [[g.seat_row(s).user_id for s in group if g.seat_row(s).user_id != row.user_id]
              for group in outcome.ranking]
    expected = {u: i for i, group in enumerate(x for x in groups if x) for u in group}
    places = {p.user_id: p.place for p in m.players}
    # last, whatever the bot did with the seat
    assert places[row.user_id] == 2 and {u: places[u] for u in expected} == expected
    assert await svc.ratings.ratings_of(GUILD, "ankh_morpork", list(m.user_ids)) == {}


def session_host(svc: TournamentService) -> SessionTables:
    host = svc.host
    assert isinstance(host, SessionTables)
    return host


async def test_games_the_tournament_closes_are_not_counted_as_abandoned(store: Store) -> None:
    session, svc, _, t, _ = await setup(store)
    await svc.start(t.id)
    a, _ = await playing(svc, t.id)
    await svc.repair_table(t.id, a.id)
    await session.settle()
    again = await svc.store.get_match(a.id)
    assert again.status == "playing" and again.game != a.game
    assert (await session.require(a.game)).status == "abandoned"


async def test_results_missed_in_a_crash_are_taken_at_the_next_start(store: Store) -> None:
    session, svc, feed, t, _ = await setup(store)
    await svc.start(t.id)
    semis = await playing(svc, t.id)
    # the process dies before the listeners hear of these two games
    session.game_over_listeners.clear()
    rng = random.Random(4)
    for m in semis:
        await play(session, m.game, rng)
    assert [(await svc.store.get_match(m.id)).status for m in semis] == ["playing"] * 2
    assert await svc.ratings.unrecorded_games() == sorted(m.game for m in semis)
    await feed.catch_up()
    assert await svc.ratings.unrecorded_games() == []
    final = await playing(svc, t.id)
    assert len(final) == 1 and final[0].round == 2
    await feed.catch_up()  # nothing twice
    assert len(await playing(svc, t.id)) == 1
