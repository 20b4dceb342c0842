"""The built-in player makes legal, purposeful moves (the 200-game figure is in bench/)."""

from __future__ import annotations

import random

from rules.guerra_de_mitos.engine import ready_decks
from rules.guerra_de_mitos.model import Enter, Options
from tests.rules import gdm_helpers as H

E = H.E


def test_ai_beats_a_random_player_in_seeded_games() -> None:
    """AI against random moves with the ready decks: the AI wins each of four whole games."""
    names = sorted(ready_decks())
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        pair = rng.sample(names, 2)
        st = E.setup(2, Options(decks=pair), seed)
        ai = seed % 2
        while not st.finished:
            seat = rng.choice(sorted(E.pending(st)))
            legal = E.legal_actions(st, seat)
            a = E.ai_action(st, seat) if seat == ai else rng.choice(legal)
            assert a in legal
            st, _ = E.apply(st, seat, a)
        wins += ai in st.winners
    assert wins == 4


def test_ai_puts_cards_into_play_when_it_can() -> None:
    """In its transfer the AI enters a card whose oracle holds enough power."""
    st = H.blank(2)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 5
    H.oracle(st, ["0004"], 0, power=8)
    assert E.ai_action(st, 0) == Enter(oracle=0)
