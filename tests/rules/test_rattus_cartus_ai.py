"""The built-in player: always legal, never peeks at hidden things, and beats random players
(checked play-outs on the shared harness, tests/playout.py)."""

from __future__ import annotations

from tests.playout import ai_wins, play
from tests.rules.test_rattus_cartus_playouts import RULES

AI_GAMES = 100  # the AI wins 190 of the first 192 seeds (~99%)
AI_WINS = 80  # 80%: passes at the measured rate with certainty to six places; a fall to 70%
# would pass 1.7% of the time (200 games at 160 said 0.1%)


def test_ai_beats_random_players_in_three_player_games() -> None:
    wins = ai_wins(RULES, 3, range(AI_GAMES))
    assert wins >= AI_WINS, wins


def test_ai_plays_whole_games_against_itself_without_looking_at_hidden_things() -> None:
    """The AI in every seat, every player count; on one step in five its move is the same
    with what its seat must not see redrawn."""
    for n in (2, 3, 4, 5):
        play(RULES, n, 100 + n, players="ai", every=5)
