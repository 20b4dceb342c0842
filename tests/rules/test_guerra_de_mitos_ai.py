"""The built-in player makes legal, purposeful moves (the 200-game figure is in bench/)."""

from __future__ import annotations

import random
from dataclasses import replace

from rules.guerra_de_mitos.model import Assign, Enter, Meditate, Move, Pass, Use
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


def test_ai_meditates_with_a_character_too_weak_in_power_to_fight() -> None:
    """A character left with 1P cannot pay to fight and keep power: the AI rests it, or it
    stays so for ever (a game of two built-in players ran to the turn bound so)."""
    st = H.blank(2)
    u = H.put(st, "0004", seat=0, power=1)  # Hachiman, strength 5
    assert E.ai_action(st, 0) == Meditate(uid=u)


def test_ai_feeds_its_oracles_below_a_safe_reserve_only_without_a_fighter() -> None:
    """With no character to fight, the AI spends its reserve on an oracle down to a few points."""
    st = H.blank(2, reserve=6)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 5
    H.oracle(st, ["0004"], 0, power=2)
    assert E.ai_action(st, 0) == Move(src=-1, dst=0)
    H.put(st, "0015", seat=0, power=3)  # a fighter: the reserve is kept
    assert E.ai_action(st, 0) == Pass()


def test_ai_completes_a_card_from_a_low_reserve_when_it_enters_this_transfer() -> None:
    """Below its safe reserve the AI still pays the last points a face-up card lacks, when it
    can put the card into play now and keep a few points (seed 698 of two built-in players
    kept 7P and never brought another card in)."""
    st = H.blank(2, reserve=7)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 5
    H.put(st, "0015", seat=0, power=3)  # a fighter
    H.oracle(st, ["0004"], 0, power=6)  # Hachiman costs 8: 2 lacking, 5P kept
    assert E.ai_action(st, 0) == Move(src=-1, dst=0)
    st.players[0].reserve = 4  # 2 lacking would leave 2P: kept
    assert E.ai_action(st, 0) == Pass()


def test_ai_uses_an_ability_before_the_pass_that_ends_the_influence_phase() -> None:
    """Tired characters count against the AI after the influence phase as they did in it, so
    the pass that ends the phase does not look like it readies them: the AI takes Rokstenen's
    1P first (six built-in players, seed 1402 of bench/bench_gdm_endings.py, left it unused
    for 190 turns and held a table of two to the turn bound)."""
    st = H.blank(2, reserve=5)
    H.put(st, "0034", seat=0, power=3)  # Fenrir, strength 3, ready
    for _ in range(3):
        H.put(st, "0034", seat=0, power=3, tired=True)  # three that have meditated
    rokstenen = H.put(st, "0166", seat=0)  # "Cansa Rokstenen; ganas 1P en tu reserva"
    H.put(st, "0034", seat=1, power=3)
    st.passes = 1  # the other player has passed: a pass now ends the phase
    assert Pass() in E.legal_actions(st, 0)
    assert E.ai_action(st, 0) == Use(uid=rokstenen)


def test_ai_sends_one_more_fighter_when_it_knocks_the_opponent_out() -> None:
    """Winning by 5 with the opponent at 7P, the AI sends Ares (strength 3): the loss of 8
    takes their reserve to 0 (Olvido). It stopped at a margin of 2 before, and it still does
    when one more fighter cannot knock them out."""
    st = H.blank(2)
    H.put(st, "0004", seat=0, zone="battle", power=4)  # Hachiman, strength 5, on the field
    ares = H.put(st, "0046", seat=0, power=4)  # Ares, strength 3, ready at home
    H.fight(st, stage="assign")
    assert st.fight is not None
    st.fight.passed = [1]  # the opponent sent nobody and passed
    st.players[1].reserve = 7
    assert E.ai_action(st, 0) == Assign(uid=ares)
    st.players[1].reserve = 9  # 5 + 3 is not enough: keep Ares home
    assert E.ai_action(st, 0) == Pass()
    st.players[1].reserve = 4  # 5 already knocks them out
    assert E.ai_action(st, 0) == Pass()
