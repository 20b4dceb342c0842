"""The built-in Ragami player: always legal, never peeks at hidden things, beats random players."""

from __future__ import annotations

import random

from rules.registry import engine
from tests.rules.test_ragami_playouts import perturbed

E = engine("ragami")  # with its built-in player


def test_ai_beats_random_players_in_three_player_games() -> None:
    # the full 200-game measurement lives in bench/bench_ragami.py
    wins = 0
    for seed in range(30):
        s = E.setup(3, {}, 1000 + seed)
        ai = seed % 3
        r = random.Random(seed)
        while not s.finished:
            seat = min(E.pending(s))
            legal = E.legal_actions(s, seat)
            if seat == ai:
                a = E.ai_action(s, seat)
                assert a in legal, a
            else:
                a = r.choice(legal)
            s, _ = E.apply(s, seat, a)
        wins += E.outcome(s).winners == [ai]
    assert wins >= 27, wins


def test_ai_plays_whole_games_against_itself_without_looking_at_hidden_things() -> None:
    r = random.Random(5)
    for n, opts in ((2, {}), (3, {"power_die": False}), (4, {})):
        s = E.setup(n, opts, 100 + n)
        steps = 0
        while not s.finished:
            pend = sorted(E.pending(s))
            seat = pend[steps % len(pend)]
            a = E.ai_action(s, seat)
            assert a in E.legal_actions(s, seat)
            if steps % 5 == 0:
                assert E.ai_action(perturbed(s, seat, r), seat) == a
            s, _ = E.apply(s, seat, a)
            steps += 1
            assert steps < 5000
        assert E.outcome(s) is not None and max(s.resolved) > 0
