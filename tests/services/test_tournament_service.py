"""The tournament service end to end without Discord: sign-up to podium, drops, restarts."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from rules.core import Outcome, tr
from services.ratings import RatedSeat, record_finished_game
from services.tournament import TournamentRefusal, TournamentService
from storage import Store
from storage.tournaments import MatchRow, TournamentRow

WHY = tr("fin", "end")
CHANNELS = itertools.count(10_000)  # every table's game in a channel of its own


class FakeHost:
    """Creates each table's game as a stored game and remembers what it was asked."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.opened: list[tuple[int, tuple[int, ...]]] = []
        self.closed: list[int] = []

    async def open_table(self, tournament: TournamentRow, match: MatchRow) -> int:
        g = await self.store.create_game(
            guild_id=tournament.guild_id,
            channel_id=next(CHANNELS),
            game_id=tournament.game_id,
            options=tournament.options,
            host_id=match.user_ids[0],
            locale=tournament.locale,
        )
        self.opened.append((g.id, match.user_ids))
        return g.id

    async def close_table(self, tournament: TournamentRow, match: MatchRow) -> None:
        assert match.game is not None
        self.closed.append(match.game)


async def new_tournament(svc: TournamentService, players: int, **kw) -> TournamentRow:
    args = dict(
        guild_id=1,
        channel_id=5,
        organiser_id=99,
        name="Copa",
        game_id="rey_hierofante",
        format="single_elim",
        table_size=2,
        seed=42,
        locale="es",
    )
    args.update(kw)
    t = await svc.create(**args)
    for u in range(1, players + 1):
        await svc.enter(t.id, u, f"p{u}")
    return t


def random_outcome(rng: random.Random, n: int, ties: bool = False) -> Outcome:
    seats = list(range(n))
    rng.shuffle(seats)
    if ties and n > 2 and rng.random() < 0.3:
        return Outcome(ranking=[seats[:2], seats[2:]], reason=WHY)
    return Outcome(
        ranking=[[s] for s in seats],
        scores={s: float(rng.randint(0, 20)) for s in seats},
        reason=WHY,
    )


async def open_tables(svc: TournamentService, t: int) -> list[MatchRow]:
    tr_ = await svc.store.get_tournament(t)
    assert tr_ is not None
    return [m for m in await svc.store.matches(t, tr_.current_round) if m.status == "playing"]


async def test_single_elimination_of_eight_to_the_podium(store: Store) -> None:
    host = FakeHost(store)
    svc = TournamentService(store, host)
    t = await new_tournament(svc, 8, seeding="random")
    progress = await svc.start(t.id)
    assert progress.round_opened == 1 and len(progress.opened) == 4
    seen_rounds = 0
    while True:
        tables = await open_tables(svc, t.id)
        if not tables:
            break
        seen_rounds += 1
        seated = [u for m in tables for u in m.user_ids]
        assert len(seated) == len(set(seated))
        for m in tables:
            # The better seed (lower entrant seed number) always wins.
            await svc.game_finished(m.game, Outcome(ranking=[[0], [1]], reason=WHY))
    assert seen_rounds == 3
    final = await svc.store.get_tournament(t.id)
    assert final.status == "finished"
    st = await svc.standings(t.id)
    assert [s.rank for s in st] == [1, 2, 3, 3, 5, 5, 5, 5]
    entrants = await svc.store.entrants(t.id)
    # Seat 0 of every table is the one listed first in the bracket: seed order decides.
    assert st[0].player == entrants[0].user_id


async def test_elimination_tie_is_replayed_and_drop_is_a_walkover(store: Store) -> None:
    host = FakeHost(store)
    svc = TournamentService(store, host)
    t = await new_tournament(svc, 4, seeding="random")
    await svc.start(t.id)
    first, second = await open_tables(svc, t.id)
    p = await svc.game_finished(first.game, Outcome(ranking=[[0, 1]], reason=WHY))
    assert p is not None and len(p.replayed) == 1 and p.recorded == []
    again = await svc.store.get_match(first.id)
    assert again.status == "playing" and again.game != first.game
    # The other table: one player drops mid-game: a loss for them, the game is closed.
    leaver = second.user_ids[1]
    p = await svc.drop(t.id, leaver)
    assert host.closed == [second.game]
    done = await svc.store.get_match(second.id)
    assert {u: pl.place for u, pl in zip(done.user_ids, done.players, strict=True)} == {
        second.user_ids[0]: 0,
        leaver: 1,
    }
    await svc.game_finished(again.game, Outcome(ranking=[[1], [0]], reason=WHY))
    [final] = await open_tables(svc, t.id)
    assert set(final.user_ids) == {first.user_ids[1], second.user_ids[0]}
    await svc.game_finished(final.game, Outcome(ranking=[[0], [1]], reason=WHY))
    st = await svc.standings(t.id)
    assert st[0].player == final.user_ids[0] and st[0].rank == 1
    dropped = [s for s in st if s.player == leaver][0]
    assert dropped.dropped and dropped.rank == 3


async def test_double_elimination_with_odd_count_finishes(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(svc, 5, format="double_elim")
    await svc.start(t.id)
    rng = random.Random(1)
    for _ in range(20):
        tables = await open_tables(svc, t.id)
        if not tables:
            break
        for m in tables:
            await svc.game_finished(m.game, random_outcome(rng, 2))
    assert (await svc.store.get_tournament(t.id)).status == "finished"
    st = await svc.standings(t.id)
    assert sorted(s.rank for s in st) == [1, 2, 3, 4, 5]


async def test_swiss_of_nine_at_multiplayer_tables_with_a_drop_and_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    store = await Store.open(path)
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(
        svc, 9, game_id="rattus_cartus", format="swiss", table_size=4, rounds=4
    )
    await svc.start(t.id)
    rng = random.Random(9)
    active = set(range(1, 10))
    rounds_seen = 0
    for r in range(1, 5):
        tables = await open_tables(svc, t.id)
        tr_ = await svc.store.get_tournament(t.id)
        assert tr_.current_round == r
        everyone = await svc.store.matches(t.id, r)
        seated = [u for m in everyone for u in m.user_ids]
        assert sorted(seated) == sorted(active)  # each active player once (tables + byes)
        assert all(3 <= len(m.user_ids) <= 4 for m in tables)
        rounds_seen += 1
        if r == 2:
            victim = tables[0].user_ids[-1]
            await svc.drop(t.id, victim)
            active.discard(victim)
        if r == 3:
            # The bot restarts mid-round: a new store and service pick up where it was.
            half = tables[: len(tables) // 2]
            for m in half:
                await svc.game_finished(m.game, random_outcome(rng, len(m.user_ids), ties=True))
            await store.close()
            store = await Store.open(path)
            svc = TournamentService(store, FakeHost(store))
            await svc.resume(t.id)
            tables = await open_tables(svc, t.id)
        for m in tables:
            current = await svc.store.get_match(m.id)
            if current.status == "playing":
                await svc.game_finished(m.game, random_outcome(rng, len(m.user_ids), ties=True))
    try:
        assert rounds_seen == 4
        final = await svc.store.get_tournament(t.id)
        assert final.status == "finished" and final.current_round == 4
        st = await svc.standings(t.id)
        assert len(st) == 9 and [s.rank for s in st] == sorted(s.rank for s in st)
        assert sum(1 for s in st if s.dropped) == 1
        text = await svc.standings_csv(t.id)
        assert text.count("\n") == 10 and "median_buchholz" in text.splitlines()[0]
    finally:
        await store.close()


async def test_round_robin_everyone_meets_everyone(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(svc, 5, format="round_robin", game_id="rey_hierofante")
    await svc.start(t.id)
    rng = random.Random(2)
    while tables := await open_tables(svc, t.id):
        for m in tables:
            await svc.game_finished(m.game, random_outcome(rng, 2))
    matches = await svc.store.matches(t.id)
    pairs = {frozenset(m.user_ids) for m in matches if len(m.user_ids) == 2}
    assert len(pairs) == 10
    assert sum(1 for m in matches if m.result == "bye") == 5
    assert (await svc.store.get_tournament(t.id)).status == "finished"


async def test_abandoned_game_and_award(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(svc, 4, format="swiss", rounds=1)
    await svc.start(t.id)
    a, b = await open_tables(svc, t.id)
    await svc.game_abandoned(a.game, [a.user_ids[0]])
    done = await svc.store.get_match(a.id)
    assert [p.place for p in done.players] == [1, 0] and done.result == "abandoned"
    with pytest.raises(TournamentRefusal):
        await svc.award(t.id, b.id, [[12345]])
    await svc.award(t.id, b.id, [[b.user_ids[1]], [b.user_ids[0]]])
    assert (await svc.store.get_match(b.id)).result == "awarded"
    assert (await svc.store.get_tournament(t.id)).status == "finished"
    assert await svc.game_finished(999_999, Outcome(ranking=[[0]], reason=WHY)) is None


async def test_seeding_by_rating(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    # Player 3 has won a rated game on this server; 4 lost it.
    g = await store.create_game(
        guild_id=1, channel_id=1, game_id="rey_hierofante", options={}, host_id=3, locale="es"
    )
    await record_finished_game(
        svc.ratings,
        game=g.id,
        guild_id=1,
        game_id="rey_hierofante",
        seats=[RatedSeat(3), RatedSeat(4)],
        outcome=Outcome(ranking=[[0], [1]], reason=WHY),
    )
    t = await new_tournament(svc, 4, seeding="rating")
    await svc.start(t.id)
    entrants = await svc.store.entrants(t.id)
    assert entrants[0].user_id == 3 and entrants[-1].user_id == 4


async def test_settings_and_sign_up_refusals(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    with pytest.raises(TournamentRefusal):
        await new_tournament(svc, 0, game_id="rey_hierofante", format="swiss", table_size=3)
    with pytest.raises(TournamentRefusal):
        await new_tournament(svc, 0, game_id="rattus_cartus", format="swiss", table_size=6)
    with pytest.raises(TournamentRefusal):
        await new_tournament(svc, 0, game_id="chess", format="swiss")
    with pytest.raises(TournamentRefusal):
        await new_tournament(svc, 0, format="ladder")
    t = await new_tournament(svc, 1, cap=2, format="swiss")
    with pytest.raises(TournamentRefusal):
        await svc.enter(t.id, 1, "again")
    with pytest.raises(TournamentRefusal):
        await svc.start(t.id)  # one player
    await svc.enter(t.id, 2, "p2")
    with pytest.raises(TournamentRefusal):
        await svc.enter(t.id, 3, "p3")  # full
    await svc.start(t.id)
    with pytest.raises(TournamentRefusal):
        await svc.leave(t.id, 1)
    with pytest.raises(TournamentRefusal):
        await svc.enter(t.id, 4, "late")


async def test_check_in_keeps_only_those_present_and_unrated_tournaments(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(svc, 3, check_in=True, format="swiss", rated=False)
    await svc.check_in(t.id, 1)
    await svc.check_in(t.id, 3)
    await svc.start(t.id)
    assert [e.user_id for e in await svc.store.entrants(t.id)] in ([1, 3], [3, 1])
    [m] = await open_tables(svc, t.id)
    assert not await svc.counts_for_ratings(m.game)
    assert await svc.counts_for_ratings(123456)


async def test_end_early_and_cancel(store: Store) -> None:
    host = FakeHost(store)
    svc = TournamentService(store, host)
    t = await new_tournament(svc, 4, format="swiss", rounds=3)
    await svc.start(t.id)
    tables = await open_tables(svc, t.id)
    p = await svc.end(t.id)
    assert p.finished and sorted(host.closed) == sorted(m.game for m in tables)
    assert (await svc.store.get_tournament(t.id)).status == "finished"
    t2 = await new_tournament(svc, 2, format="swiss")
    await svc.end(t2.id)
    assert (await svc.store.get_tournament(t2.id)).status == "cancelled"


async def test_game_ended_feeds_results_ratings_and_the_tournament(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    rated = await new_tournament(svc, 2, format="swiss", rounds=1)
    unrated = await new_tournament(svc, 2, format="swiss", rounds=1, rated=False, channel_id=6)
    await svc.start(rated.id)
    await svc.start(unrated.id)
    [m1] = await open_tables(svc, rated.id)
    [m2] = await open_tables(svc, unrated.id)
    win = Outcome(ranking=[[0], [1]], reason=WHY)
    for m in (m1, m2):
        seats = [RatedSeat(u) for u in m.user_ids]
        p = await svc.game_ended(
            m.game, guild_id=1, game_id="rey_hierofante", seats=seats, outcome=win
        )
        assert p is not None and p.finished
        # Told twice (after a restart, say): nothing counts twice.
        await svc.game_ended(m.game, guild_id=1, game_id="rey_hierofante", seats=seats, outcome=win)
    results = await svc.ratings.results(1)
    assert [(r.game, r.rated) for r in results] == [(m1.game, True), (m2.game, False)]
    board = await svc.ratings.leaderboard(1, "rey_hierofante")
    assert [(r.user_id, r.games) for r in board] == [(m1.user_ids[0], 1), (m1.user_ids[1], 1)]
    # A game outside any tournament is rated too.
    g = await store.create_game(
        guild_id=1, channel_id=3, game_id="rey_hierofante", options={}, host_id=1, locale="es"
    )
    assert (
        await svc.game_ended(
            g.id,
            guild_id=1,
            game_id="rey_hierofante",
            seats=[RatedSeat(1), RatedSeat(2)],
            outcome=win,
        )
        is None
    )
    assert len(await svc.ratings.results(1)) == 3


async def test_organiser_starts_a_table_again(store: Store) -> None:
    host = FakeHost(store)
    svc = TournamentService(store, host)
    t = await new_tournament(svc, 2, format="swiss", rounds=1)
    await svc.start(t.id)
    [m] = await open_tables(svc, t.id)
    p = await svc.repair_table(t.id, m.id)
    [again] = p.replayed
    assert host.closed == [m.game] and again.game != m.game and again.user_ids == m.user_ids
    # The old game's end no longer counts; the new one's does.
    assert await svc.game_finished(m.game, Outcome(ranking=[[0], [1]], reason=WHY)) is None
    await svc.game_finished(again.game, Outcome(ranking=[[1], [0]], reason=WHY))
    st = await svc.standings(t.id)
    assert st[0].player == m.user_ids[1]
    with pytest.raises(TournamentRefusal):
        await svc.repair_table(t.id, m.id)


async def test_sign_up_deadline_starts_or_cancels(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    ready = await new_tournament(svc, 4, format="swiss", signup_deadline=100.0)
    lonely = await new_tournament(svc, 1, format="swiss", signup_deadline=100.0, channel_id=6)
    later = await new_tournament(svc, 4, format="swiss", signup_deadline=500.0, channel_id=7)
    assert await svc.start_due(50.0) == {}
    out = await svc.start_due(100.0)
    assert set(out) == {ready.id, lonely.id}
    assert isinstance(out[lonely.id], TournamentRefusal)
    assert (await svc.store.get_tournament(ready.id)).status == "running"
    assert (await svc.store.get_tournament(lonely.id)).status == "cancelled"
    assert (await svc.store.get_tournament(later.id)).status == "signup"


async def test_a_hundred_and_twenty_players_at_thirty_tables(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(
        svc, 120, game_id="rattus_cartus", format="swiss", table_size=4, rounds=2
    )
    p = await svc.start(t.id)
    assert len(p.opened) == 30
    rng = random.Random(4)
    for _ in range(2):
        tables = await open_tables(svc, t.id)
        assert len(tables) == 30
        for m in tables:
            await svc.game_finished(m.game, random_outcome(rng, 4, ties=True))
    assert (await svc.store.get_tournament(t.id)).status == "finished"
    podium = await svc.podium(t.id)
    assert podium and podium[0][0].rank == 1
    assert sum(len(g) for g in podium) >= 3
    assert all(s.points == 2 for s in podium[0])  # the leaders won both their tables


async def test_multiplayer_round_robin_seats_every_pair_together(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(svc, 8, game_id="rattus_cartus", format="round_robin", table_size=4)
    await svc.start(t.id)
    assert (await svc.store.get_tournament(t.id)).rounds == 3
    rng = random.Random(5)
    while tables := await open_tables(svc, t.id):
        for m in tables:
            await svc.game_finished(m.game, random_outcome(rng, len(m.user_ids)))
    met = {
        frozenset((a, b))
        for m in await svc.store.matches(t.id)
        for i, a in enumerate(m.user_ids)
        for b in m.user_ids[i + 1 :]
    }
    assert len(met) == 28
    assert (await svc.store.get_tournament(t.id)).current_round == 3


async def test_clock_dropped_player_loses_the_elimination_match(store: Store) -> None:
    svc = TournamentService(store, FakeHost(store))
    t = await new_tournament(svc, 2)
    await svc.start(t.id)
    [m] = await open_tables(svc, t.id)
    leaver = m.user_ids[0]
    # The bot took the leaver's seat and won with it: the match still goes to the other.
    seats = [RatedSeat(None, ai=True), RatedSeat(m.user_ids[1])]
    await svc.game_ended(
        m.game,
        guild_id=1,
        game_id="rey_hierofante",
        seats=seats,
        outcome=Outcome(ranking=[[0], [1]], reason=WHY),
        left=[leaver],
    )
    st = await svc.standings(t.id)
    assert st[0].player == m.user_ids[1] and st[0].rank == 1
    assert (await svc.ratings.results(1))[0].places[0].user_id is None
    assert await svc.ratings.leaderboard(1, "rey_hierofante") == []  # an AI seat: unrated
