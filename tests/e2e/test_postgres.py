"""The real bot on PostgreSQL: some of the end-to-end games, run again with TABLERO_DB a
postgresql:// URL (a game to the end across a restart, the clock, undo, settings, a
tournament with ratings)."""

from __future__ import annotations

import pytest

from tests.pg_server import PgServer, empty_shared

from . import test_async_play, test_rey_hierofante, test_tournament

CASES = [
    test_rey_hierofante.test_two_players_play_a_whole_match_across_a_restart,
    test_async_play.test_a_silent_player_is_reminded_twice_then_the_bot_plays_across_a_restart,
    test_async_play.test_undo_accepted_and_undo_refused,
    test_async_play.test_server_config_settings_and_the_paged_log,
    test_tournament.test_single_elimination_of_eight_to_the_podium,
]


@pytest.mark.parametrize("case", CASES, ids=[c.__name__.removeprefix("test_") for c in CASES])
async def test_on_postgresql(case, fake, pg_server_instance: PgServer) -> None:
    await case(fake, await empty_shared(pg_server_instance))
