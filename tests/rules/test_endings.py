"""No seeded game of any of the five games ends by a safety bound instead of an ending its
rulebook defines, at any player count, with the random player, the built-in player or both.

The safety bounds: Guerra de Mitos ends a game still running after ``max_rounds`` turns
(``end_reason`` "limite", docs/rules/guerra_de_mitos.md); the other four engines have no
bound of their own (their games end by their rules or not at all), so theirs is the play-out
harness's ``Rules.max_steps`` (tests/playout.py), past which a game "did not end". Each game
is played unchecked (its play-out tests check the contract) and then given to its play-out
tests' ``end`` check, which asserts the ending its rulebook defines (Guerra de Mitos: not the
turn bound).

A sample of seeds keeps this cheap; ``bench/bench_gdm_endings.py`` plays thousands of Guerra
de Mitos games per player count and prints how each ended, and the games it once found
reaching the turn bound are replayed here (``ONCE_AT_THE_BOUND``). ``ENDINGS_SEEDS`` (for
example 20) changes the number of seeds per game, player count and players.
"""

from __future__ import annotations

import importlib
import os
import random
from dataclasses import replace

import pytest

from rules.core import Action
from rules.guerra_de_mitos.model import GdmState
from rules.registry import engine
from tests.playout import Mover, Rules, play

SEEDS = int(os.environ.get("ENDINGS_SEEDS", "") or 2)
PLAYERS = ("random", "ai", "mixed")
GAMES = ("ankh_morpork", "guerra_de_mitos", "ragami", "rattus_cartus", "rey_hierofante")


def rules_of(game_id: str) -> Rules:
    """The game's play-out rules (its options, random player and ``end`` check)."""
    return importlib.import_module(f"tests.rules.test_{game_id}_playouts").RULES


def gdm_mover(seed: int, n: int) -> Mover:
    """Guerra de Mitos's random player of the play-out tests: eager seats and plain ones."""
    from tests.rules.test_guerra_de_mitos_playouts import PLAIN, move

    eager = [random.Random(seed * 7 + s).random() >= PLAIN for s in range(n)]

    def mover(rng: random.Random, st: GdmState, seat: int, legal: list[Action]) -> Action:
        return move(rng, st, seat, legal, eager[seat])

    return mover


CASES = [
    (game_id, n, players)
    for game_id in GAMES
    for n in range(engine(game_id).min_players, engine(game_id).max_players + 1)
    for players in PLAYERS
]


@pytest.mark.parametrize(("game_id", "n", "players"), CASES)
def test_no_game_ends_by_a_safety_bound(game_id: str, n: int, players: str) -> None:
    """Every sampled game ends by its rulebook within the harness's bound on moves."""
    rules = rules_of(game_id)
    if game_id == "guerra_de_mitos":  # distinct ready decks, as the play-out tests deal them
        from tests.rules.test_guerra_de_mitos_playouts import options

        rules = replace(rules, options=lambda k, seed: options(random.Random(seed), k))
    for seed in range(SEEDS):
        mover = gdm_mover(seed, n) if game_id == "guerra_de_mitos" else None
        out = play(rules, n, seed, players=players, every=None, checked=False, mover=mover)
        assert rules.end is not None
        rules.end(out.state)  # the ending the rulebook defines (not a safety bound)


# Guerra de Mitos games, numbered as bench/bench_gdm_endings.py numbers them, that once ran to
# the turn bound: (players, seed, each seat's player)
ONCE_AT_THE_BOUND = [
    # six built-in players: two left at the table, Rokstenen's 1P never taken (the pass
    # that ended the influence phase looked like it readied the tired characters), 201 turns
    (6, 1402, "ai"),
]


@pytest.mark.parametrize(("n", "seed", "player"), ONCE_AT_THE_BOUND)
def test_guerra_de_mitos_games_that_once_reached_the_bound(n: int, seed: int, player: str) -> None:
    """Each ends by the rulebook now."""
    from tests.rules.test_guerra_de_mitos_playouts import by_the_rules, seated

    st = seated(n, seed, [player] * n)
    assert st.finished
    by_the_rules(st)
