"""A server's statistics: counts, lengths, seat wins and the most active players."""

from __future__ import annotations

from cogs.pictures.stats import ChartRow, render_chart
from services.clock import ManualClock
from services.session import SessionService
from services.stats import DAY, compute
from storage import Store
from storage.ratings import PlaceRow, RatingStore
from storage.stats import StatsGame

ALICE, BOB, CAROL = 101, 202, 303


def _game(n: int, status: str, places, *, game_id: str = "rey_hierofante", moves: int = 30,
          days: float = 2.0) -> StatsGame:
    return StatsGame(game=n, game_id=game_id, status=status, moves=moves, created_at=1000.0,
                     finished_at=1000.0 + days * DAY if status == "finished" else None,
                     seats=len(places), places=tuple(places))


def test_counts_lengths_seat_wins_and_players() -> None:
    games = [
        _game(6, "active", [(0, ALICE, "alice", None), (1, BOB, "bob", None)]),
        _game(5, "abandoned", [(0, ALICE, "alice", None), (1, None, "Bot", None)]),
        _game(4, "finished", [(0, ALICE, "alice", 0), (1, BOB, "bob", 1)], moves=20, days=1.0),
        _game(3, "finished", [(0, BOB, "bob", 1), (1, ALICE, "alice", 0)], moves=40, days=3.0),
        _game(2, "finished", [(0, CAROL, "carol", 0), (1, None, "Bot", 1)], moves=60, days=5.0),
        _game(1, "finished", [(0, CAROL, "carol", 0), (1, BOB, "bob", 0), (2, ALICE, "old name", 2)],
              game_id="rattus_cartus", moves=90, days=0.5),
    ]
    stats = compute(games)
    assert stats.played == 6
    rh, rc = stats.titles  # the title with more games first
    assert (rh.game_id, rh.played, rh.finished, rh.abandoned) == ("rey_hierofante", 5, 3, 1)
    assert rh.median_moves == 40 and rh.median_days == 3.0
    assert [(s.games, s.wins) for s in rh.seats] == [(3, 2), (3, 1)]
    assert rh.seats[0].rate == 2 / 3
    # a tie for first counts as a win for each, and an absent seat has no record
    assert [(s.games, s.wins) for s in rc.seats] == [(1, 1), (1, 1), (1, 0)]
    # bots are not players; names are the newest game's; most games first
    assert [(p.name, p.games, p.wins) for p in stats.players] == [
        ("alice", 5, 2), ("bob", 4, 1), ("carol", 2, 2)]


def test_no_games_no_titles() -> None:
    stats = compute([])
    assert stats.titles == [] and stats.players == [] and stats.played == 0


def test_the_chart_draws_every_row() -> None:
    rows = [ChartRow("Rey y Hierofante", 3, 1, 1, (2 / 3, None), ("Realeza", "Religión"), "40 jugadas"),
            ChartRow("Ragami", 0, 0, 2, (), (), "aún ninguna")]
    png = render_chart(rows, "Partidas en Mesa", "es")
    assert png.startswith(b"\x89PNG")
    assert int.from_bytes(png[20:24], "big") > 56 + 2 * 60


async def test_the_store_gives_a_servers_games_with_their_places(store: Store) -> None:
    service = SessionService(store, seed_source=lambda: 11, clock=ManualClock())
    finished = await service.create(guild_id=1, channel_id=900, game_id="rey_hierofante", options={},
                                    host_id=ALICE, host_name="alice", locale="es")
    await service.add_ai(finished.id, by=ALICE)
    await service.start(finished.id, by=ALICE)
    g = service.cached(finished.id)
    assert g is not None
    while not g.state.finished:
        seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
        await service.move(g.id, ALICE, g.engine.ai_action(g.state, seat))
    winner = g.engine.outcome(g.state).winners[0]
    await RatingStore(store).record_result(
        game=g.id, guild_id=1, game_id="rey_hierofante",
        places=[PlaceRow(s.seat, s.user_id, 0 if s.seat == winner else 1) for s in g.seats])
    lobby = await service.create(guild_id=1, channel_id=901, game_id="ragami", options={},
                                 host_id=BOB, host_name="bob", locale="es")
    elsewhere = await service.create(guild_id=2, channel_id=902, game_id="ragami", options={},
                                     host_id=BOB, host_name="bob", locale="es")
    await service.add_ai(elsewhere.id, by=BOB)
    await service.start(elsewhere.id, by=BOB)
    games = await store.server_games(1)
    assert [x.game for x in games] == [g.id]  # a lobby is no game played; another server's are not here
    (only,) = games
    assert only.status == "finished" and only.moves == g.version and only.seats == 2
    assert {(seat, user, place) for seat, user, _, place in only.places} == {
        (s.seat, s.user_id, 0 if s.seat == winner else 1) for s in g.seats}
    assert lobby.id not in [x.game for x in games]
    stats = compute(games)
    assert stats.titles[0].finished == 1 and stats.players[0].user_id == ALICE


def test_sides_played_are_counted_most_played_first() -> None:
    zeus, odin, ra = '{"m":"Zeus"}', '{"m":"Odin"}', '{"m":"Ra"}'

    def gdm(n: int, places, sides) -> StatsGame:
        g = _game(n, "finished", places, game_id="guerra_de_mitos")
        return StatsGame(**{**g.__dict__, "sides": sides})

    games = [
        gdm(3, [(0, ALICE, "alice", 0), (1, BOB, "bob", 1)], {0: odin, 1: zeus}),
        gdm(2, [(0, ALICE, "alice", 1), (1, BOB, "bob", 0)], {0: ra, 1: zeus}),
        gdm(1, [(0, ALICE, "alice", 0), (1, CAROL, "carol", 1)], {0: zeus, 1: odin}),
        # stored before sides were: counted by seat only
        _game(0, "finished", [(0, ALICE, "alice", 0), (1, BOB, "bob", 1)], game_id="guerra_de_mitos"),
    ]
    (ts,) = compute(games).titles
    assert [(k, v.games, v.wins) for k, v in ts.sides.items()] == [
        (zeus, 3, 2), (odin, 2, 1), (ra, 1, 0)]
    assert [(s.games, s.wins) for s in ts.seats] == [(4, 3), (4, 1)]


async def test_a_finished_games_sides_reach_the_servers_figures(store: Store) -> None:
    import random

    import cogs.guerra_de_mitos  # noqa: F401  (its presentation names the pantheons)
    from cogs.stats import side_wins, stats_embed
    from services.results import ResultFeed
    from services.tournament import TournamentService
    from tests.services.test_results import SessionTables, play

    session = SessionService(store, seed_source=lambda: 5, clock=ManualClock())
    feed = ResultFeed(session, TournamentService(store, SessionTables(session)))
    session.game_over_listeners.append(feed)
    g = await session.create(guild_id=1, channel_id=900, game_id="guerra_de_mitos", options={},
                             host_id=ALICE, host_name="alice", locale="es")
    await session.add_ai(g.id, by=ALICE)
    await session.start(g.id, by=ALICE)
    await play(session, g.id, random.Random(2))
    await session.settle()
    done = await session.require(g.id)
    sides = done.engine.sides(done.state)
    (only,) = await store.server_games(1)
    assert only.status == "finished" and set(only.sides) == {0, 1}
    (ts,) = compute([only]).titles
    names = {k: v.games for k, v in ts.sides.items()}
    assert sum(names.values()) == 2
    for locale in ("es", "en"):
        line = side_wins(ts, locale)
        assert line is not None
        assert line.startswith("Victorias por panteón: " if locale == "es" else "Wins by pantheon: ")
        for text in sides.values():
            assert text.get(locale) in line
        field = stats_embed(compute([only]), "Mesa", locale).fields[0].value
        assert line in field


def test_a_title_whose_seats_are_its_sides_shows_them_once() -> None:
    import cogs.rey_hierofante  # noqa: F401  (its presentation names the seats' factions)
    from cogs.stats import side_wins

    g = _game(1, "finished", [(0, ALICE, "alice", 0), (1, BOB, "bob", 1)])
    g = StatsGame(**{**g.__dict__, "sides": {0: '{"m":"Royalty"}', 1: '{"m":"Religion"}'}})
    (ts,) = compute([g]).titles
    assert ts.sides and side_wins(ts, "en") is None  # the seat line already reads "Royalty 100%"
