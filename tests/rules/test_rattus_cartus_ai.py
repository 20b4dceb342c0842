"""The built-in player: always legal, never peeks at hidden things, and beats random players."""

from __future__ import annotations

import random

from rules.registry import engine
from tests.rules.test_rattus_cartus_playouts import perturbed

E = engine("rattus_cartus")  # with its built-in player
BUILDINGS = ["first_game", "random_cards", "random_buildings"]


def test_ai_beats_random_players_in_three_player_games() -> None:
    wins = 0
    for seed in range(200):
        s = E.setup(3, {"buildings": BUILDINGS[seed % 3]}, seed)
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
    assert wins >= 160, wins


def test_ai_plays_whole_games_against_itself_without_looking_at_hidden_things() -> None:
    r = random.Random(5)
    for n in (2, 3, 4, 5):
        s = E.setup(n, {"buildings": BUILDINGS[n % 3]}, 100 + n)
        steps = 0
        while not s.finished:
            pend = sorted(E.pending(s))
            seat = pend[steps % len(pend)]
            a = E.ai_action(s, seat)
            if steps % 7 == 0:
                assert E.ai_action(perturbed(s, seat, r), seat) == a
            s, _ = E.apply(s, seat, a)
            steps += 1
        assert E.outcome(s) is not None
