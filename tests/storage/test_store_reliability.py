"""Timeouts stored once per wait, and a player's reliability record read from a scripted
history of seats, moves and timeouts (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from services.reliability import Reliability, reliability_of
from storage import Store
from storage.reliability import ReliabilityStore, TimeoutRow

ME, YOU = 7, 8

# (game, guild, status, my seat, my seat dropped): the other seat is YOU's.
GAMES = [
    (1, 1, "finished", 0, False),
    (2, 1, "active", 1, False),
    (3, 1, "active", 0, True),
    (4, 1, "abandoned", 0, False),
    (5, 2, "finished", 0, False),
]
# (game, seq, seat, at): who moved when.
MOVES = [
    # game 1: my first move has nothing before it (a turn, no time); 60 s; a later step of the
    # same turn; a question out of turn answered "no" by the bot (not mine); 600 s.
    (1, 1, 0, 100), (1, 2, 1, 160), (1, 3, 0, 220), (1, 4, 0, 230), (1, 5, 1, 300),
    (1, 6, 0, 305), (1, 7, 1, 400), (1, 8, 0, 1000),
    # game 2: an hour; then my time ran out (the bot's move, not mine); then 100 s.
    (2, 1, 0, 0), (2, 2, 1, 3600), (2, 3, 0, 3700), (2, 4, 1, 90000), (2, 5, 0, 90100),
    (2, 6, 1, 90200),
    # game 3: 50 s; a timeout; a second one, the seat the bot's for good from then on.
    (3, 1, 1, 0), (3, 2, 0, 50), (3, 3, 1, 100), (3, 4, 0, 9000), (3, 5, 1, 9100),
    (3, 6, 0, 20000), (3, 7, 1, 20100), (3, 8, 0, 20101),
    # game 5, on another server: 30 s.
    (5, 1, 1, 0), (5, 2, 0, 30),
]
# (game, seat, started_at, action, seq): the timeouts of my seats.
TIMEOUTS = [
    (1, 0, 300, "no", 5),
    (2, 1, 3700, "ai", 3),
    (3, 0, 100, "ai", 3),
    (3, 0, 9100, "drop", 5),
]


async def script_history(store: Store, me: int = ME, you: int = YOU, guild: int = 1,
                         channel: int = 500) -> None:
    """Write GAMES, MOVES and TIMEOUTS as the bot would have stored them: ``me`` and ``you``
    play, server 1 is ``guild``; the games are in channels from ``channel`` on."""
    async with store._write() as db:
        for game, server, status, mine, dropped in GAMES:
            await db.execute(
                "INSERT INTO games (id, guild_id, channel_id, game_id, status, host_id, locale,"
                " created_at, updated_at) VALUES (?, ?, ?, 'rey_hierofante', ?, ?, 'es', 0, 0)",
                (game, guild if server == 1 else server, channel + game, status, me),
            )
            for seat in (0, 1):
                mine_ = seat == mine
                await db.execute(
                    "INSERT INTO seats (game, seat, user_id, ai, name, dropped) VALUES (?, ?, ?, ?, ?, ?)",
                    (game, seat, me if mine_ else you, mine_ and dropped, "me" if mine_ else "you",
                     mine_ and dropped),
                )
        await db.executemany("INSERT INTO actions (game, seq, seat, action, at) VALUES (?, ?, ?, '{}', ?)",
                             MOVES)
        await db.executemany(
            "INSERT INTO timeouts (game, seat, user_id, started_at, at, action, seq)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(g, s, me, started, started + 1, action, seq) for g, s, started, action, seq in TIMEOUTS],
        )


async def test_the_record_of_a_scripted_history_on_one_server_and_on_all(store: Store) -> None:
    await script_history(store)
    here = await reliability_of(store, ME, 1)
    # times to move on server 1: 60, 600 (game 1), 3600, 100 (game 2), 50 (game 3)
    assert here == Reliability(finished=1, lost_on_time=1, timeouts=3, turns=9, late=3, median_move=100)
    assert round(here.timeout_pct, 1) == 33.3
    everywhere = await reliability_of(store, ME, None)
    assert everywhere == Reliability(finished=2, lost_on_time=1, timeouts=3, turns=10, late=3,
                                     median_move=80)
    assert everywhere.timeout_pct == 30.0
    assert await reliability_of(store, 12345, 1) == Reliability()


async def test_a_timeout_is_stored_once_per_wait_and_counted_per_game(store: Store) -> None:
    await script_history(store)
    rs = ReliabilityStore(store)
    asked: list[int] = []

    def decide(n: int) -> str:
        asked.append(n)
        return "drop" if n >= 2 else "ai"

    wait = TimeoutRow(game=2, seat=1, user_id=ME, started_at=90300, at=99999, action="ai", seq=6)
    assert await rs.record_timeout(wait, decide) == ("drop", 2)
    # applied again (a crash between the record and the bot's move): what was decided then
    assert await rs.record_timeout(wait, decide) == ("drop", 2)
    assert asked == [2]
    # a question out of turn that ran out is stored, not counted
    no = TimeoutRow(game=2, seat=1, user_id=ME, started_at=90400, at=99999, action="no", seq=7)
    assert await rs.record_timeout(no, decide) == ("no", 2)
    assert await rs.timeouts_in_game(2, 1, ME) == 2
    await rs.forget_timeout(2, 1, 90300)
    assert await rs.timeouts_in_game(2, 1, ME) == 1


@pytest.mark.parametrize("guild", [1, None])
async def test_the_logs_read_are_the_newest_games(store: Store, guild: int | None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import services.reliability as reliability

    await script_history(store)
    monkeypatch.setattr(reliability, "RECENT_GAMES", 2)
    newest = await reliability_of(store, ME, guild)
    # only the newest games' logs are read (4 and 3 on server 1, 5 and 4 anywhere; game 4
    # has none): their turns and the timeouts in them make the share; every timeout and
    # game still counts
    assert newest.timeouts == 3 and newest.finished == (1 if guild else 2)
    if guild:
        assert (newest.turns, newest.late, newest.median_move) == (3, 2, 50)
    else:
        assert (newest.turns, newest.late, newest.median_move) == (1, 0, 30)
