"""The built-in player makes legal, purposeful moves (the 200-game figure is in bench/)."""

from __future__ import annotations

import random
from dataclasses import replace

from rules.guerra_de_mitos.model import Enter
from tests.playout import ai_wins
from tests.rules import gdm_helpers as H
from tests.rules.test_guerra_de_mitos_playouts import RULES, options

E = H.E


def test_ai_beats_a_random_player_in_seeded_games() -> None:
    """AI against random moves with ready decks, checked play-outs (tests/playout.py): the AI
    wins each of four whole games."""
    rules = replace(RULES, options=lambda n, seed: options(random.Random(seed), n))
    assert ai_wins(rules, 2, range(4)) == 4


def test_ai_puts_cards_into_play_when_it_can() -> None:
    """In its transfer the AI enters a card whose oracle holds enough power."""
    st = H.blank(2)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 5
    H.oracle(st, ["0004"], 0, power=8)
    assert E.ai_action(st, 0) == Enter(oracle=0)
