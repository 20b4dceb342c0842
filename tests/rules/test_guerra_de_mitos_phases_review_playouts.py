"""Guerra de Mitos: the turn's order checked along seeded random games.

Where ``test_guerra_de_mitos_phases_review.py`` sets up one position per passage, these
games check the same passages wherever they happen: the transfer's steps in order, the
first turn's counter moves, the start player passing to the left, Olvido at any moment and
Dios de dioses only with 30P after a reorganisation.
"""

from __future__ import annotations

import random

import pytest

from rules.core import Action
from rules.guerra_de_mitos.engine import ready_decks
from rules.guerra_de_mitos.model import DropOracle, Options
from tests.rules import gdm_helpers as H

E = H.E
STEPS = 1500  # enough for several turns of every game; the checks hold on each step


def pick(rng: random.Random, legal: list[Action]) -> Action:
    """A random player: a kind of action at random, then one of that kind (assigning three
    times in four when it can, so that the games have fights and end)."""
    kinds = sorted({a.kind for a in legal})
    kind = "assign" if "assign" in kinds and rng.random() < 0.75 else rng.choice(kinds)
    return rng.choice([a for a in legal if a.kind == kind])


@pytest.mark.parametrize(("n", "seed"), [(2, 1), (2, 2), (2, 3), (3, 4), (4, 5)])
def test_turn_order_along_a_random_game(n: int, seed: int) -> None:
    """Every step of a random game keeps the order of the phases as the rulebook gives it."""
    rng = random.Random(seed)
    names = sorted(ready_decks())
    rng.shuffle(names)
    st = E.setup(n, Options(decks=names[:n]), seed)
    transfer_of: tuple[int, int, int] | None = None  # (round, seat, order) of the transfer
    started: dict[tuple[int, int], int] = {}
    for _ in range(STEPS):
        if st.finished:
            break
        seat = next(iter(E.pending(st)))
        legal = E.legal_actions(st, seat)
        key = (st.round, st.actor)
        if st.phase == "transfer" and not st.stack and key not in started:
            started[key] = st.players[st.actor].moves
            if st.round == 1:  # 1, 2, 3... up to 5 (nothing in play changes it yet)
                assert st.players[st.actor].moves == min(st.order_pos + 1, 5)
        if st.phase == "transfer" and transfer_of == (st.round, st.actor, st.order_pos):
            assert not any(isinstance(a, DropOracle) for a in legal)  # B is over after C
        a = pick(rng, legal)
        was = (st.phase, st.round, st.actor, st.order_pos)
        first = st.first  # a card may have made someone else the start player this turn
        st, _ = E.apply(st, seat, a)
        if was[0] == "transfer" and a.kind in ("move", "enter"):
            transfer_of = (was[1], was[2], was[3])
        alive = [s for s in range(n) if st.players[s].alive]
        assert st.finished or all(st.players[s].reserve > 0 for s in alive)  # Olvido at once
        if st.round == was[1] + 1 and not st.finished:  # G: the start player passes left
            nxt = (first + 1) % n
            while not st.players[nxt].alive:
                nxt = (nxt + 1) % n
            assert st.first == nxt
    if st.finished and st.end_reason == "dios_de_dioses":
        assert n == 2 and st.players[st.winners[0]].reserve >= 30
