"""How a game ends when the rulebook's two ways of ending it cannot happen any more."""

from __future__ import annotations

from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos.model import GdmState, Pass
from tests.rules import gdm_helpers as H

E = H.E


def bare_table(reserves: tuple[int, int] = (12, 7)) -> GdmState:
    """Two players with only their pantheons: no oracles, no design deck, empty hands.

    Olimpo's ability belongs to the confrontation and Inframundo's is static: with nobody on
    the battlefield neither gives a choice.
    """
    st = H.blank(2, pantheons=("0042", "0177"))
    for p, r in zip(st.players, reserves, strict=True):
        p.reserve = r
    F.start_round(st)
    return st


def pass_turn(st: GdmState) -> GdmState:
    """Every pending seat passes (the only move it has) until the turn changes or the game ends."""
    start = st.round
    while not st.finished and st.round == start:
        seat = min(E.pending(st))
        assert E.legal_actions(st, seat) == [Pass()]
        st, _ = E.apply(st, seat, Pass())
    return st


def test_a_blocked_table_ends_the_game_with_the_larger_reserve_winning() -> None:
    """Nothing to reveal, draw or do but pass for a whole turn: the next turns would repeat it."""
    st = pass_turn(bare_table((7, 12)))
    assert st.finished and st.end_reason == "bloqueo"
    assert st.winners == [1]
    out = E.outcome(st)
    assert out is not None and out.ranking == [[1], [0]]
    assert "bloqueada" in out.reason.es and "Blocked" in out.reason.en


def test_a_card_left_to_draw_keeps_the_game_going() -> None:
    """A design card still in a deck may change the next turn: no end."""
    st = bare_table()
    H.on_deck(st, ["0015"], seat=0)
    st = pass_turn(st)
    assert not st.finished and st.round == 2


def test_a_turn_that_offered_a_choice_is_not_blocked() -> None:
    """A ready character could meditate; both passed anyway: the game goes on."""
    st = bare_table()
    H.put(st, "0015", seat=1, power=1)
    start = st.round
    while st.round == start:
        seat = min(E.pending(st))
        st, _ = E.apply(st, seat, Pass())
    assert not st.finished and st.round == 2
