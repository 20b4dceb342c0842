"""Ankh-Morpork: the built-in player works toward its own personality and beats random play."""

from __future__ import annotations

import random

from rules.ankh_morpork.ai import card_value, evaluate
from rules.registry import engine
from tests.rules.am_helpers import position

E = engine("ankh_morpork")  # with its built-in player


def play_game(seed: int, n: int = 3) -> tuple[bool, int]:
    """One game: the AI in seat ``seed % n``, uniformly random players elsewhere."""
    st = E.setup(n, {}, seed)
    ai = seed % n
    r = random.Random(seed)
    while not st.finished:
        (seat,) = E.pending(st)
        legal = E.legal_actions(st, seat)
        a = E.ai_action(st, seat) if seat == ai else r.choice(legal)
        assert a in legal
        st, _ = E.apply(st, seat, a)
    return ai in st.winners, ai


def test_ai_beats_random_players_in_three_player_games() -> None:
    wins = sum(play_game(seed)[0] for seed in range(200))
    assert wins >= 140, f"the AI won {wins} of 200"


def test_ai_plays_every_seat_count() -> None:
    for n in (2, 4):
        for seed in range(5):
            play_game(seed, n)


def test_ai_values_follow_the_personality() -> None:
    spy = position(3, personalities=["vetinari", "rust", "vimes"], hands={0: ["groat", "sacharissa"]})
    king = position(3, personalities=["dragon_king", "rust", "vimes"], hands={0: ["groat", "doctor_hix"]})
    assert card_value(spy, 0, "groat") > card_value(spy, 0, "buggy_swires")
    assert card_value(king, 0, "doctor_hix") > card_value(king, 0, "buggy_swires")
    calm = position(3, personalities=["dragon_king", "rust", "vimes"])
    rowdy = position(3, personalities=["dragon_king", "rust", "vimes"], trouble=["1", "2", "3", "4", "5"])
    assert evaluate(rowdy, 0) > evaluate(calm, 0)
    assert evaluate(rowdy, 2) < evaluate(calm, 2)  # Vimes wants the city calm
