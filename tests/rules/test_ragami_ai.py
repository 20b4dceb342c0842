"""The built-in Ragami player: always legal, never peeks at hidden things, beats random players
(checked play-outs on the shared harness, tests/playout.py)."""

from __future__ import annotations

from dataclasses import replace

from tests.playout import ai_wins, play
from tests.rules.test_ragami_playouts import RULES

AI_GAMES = 30  # the full 200-game measurement lives in bench/bench_ragami.py
AI_WINS = 27


def test_ai_beats_random_players_in_three_player_games() -> None:
    wins = ai_wins(replace(RULES, options=lambda n, seed: {}), 3, range(AI_GAMES))
    assert wins >= AI_WINS, wins


def test_ai_plays_whole_games_against_itself_without_looking_at_hidden_things() -> None:
    """The AI in every seat, every player count; on one step in five its move is the same
    with what its seat must not see redrawn; it resolves conflicts."""
    for n, opts in ((2, {}), (3, {"power_die": False}), (4, {})):
        rules = replace(RULES, options=lambda k, seed, o=opts: o)
        out = play(rules, n, 100 + n, players="ai", every=5)
        assert max(out.state.resolved) > 0
