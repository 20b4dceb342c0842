"""The state's card table: copies share card records and copy one before it is written."""

from __future__ import annotations

import copy
import pickle

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.model import CardTable, GdmState
from tests.rules import gdm_helpers as H

E = H.E


def table() -> tuple[GdmState, int]:
    """A small table with one character in seat 0's pantheon."""
    st = H.blank(2)
    u = H.put(st, "0015", seat=0, power=2)
    return st, u


def test_a_copy_shares_records_until_one_is_written() -> None:
    """Writing through ``cards[uid]`` in a copy leaves the original and other copies alone."""
    st, u = table()
    a, b = E.copy_state(st), E.copy_state(st)
    assert B.peek(a, u) is B.peek(st, u)  # shared until written
    a.cards[u].power = 7
    a.cards[u].marks.append("x")
    assert st.cards[u].power == 2 and st.cards[u].marks == []
    assert b.cards[u].power == 2 and b.cards[u].marks == []
    assert a.cards[u].power == 7 and a.cards[u].marks == ["x"]


def test_the_original_written_after_a_copy_leaves_the_copy_alone() -> None:
    """Neither side owns the shared records any more."""
    st, u = table()
    a = E.copy_state(st)
    st.cards[u].tired = True
    for c in st.cards.values():
        c.power += 1
    assert not a.cards[u].tired and a.cards[u].power == 2


def test_iterating_a_copy_hands_out_its_own_records() -> None:
    """``values``, ``items`` and ``get`` give records the copy may write."""
    st, u = table()
    a = E.copy_state(st)
    for _, c in a.cards.items():
        c.power = 9
    assert st.cards[u].power == 2
    rec = a.cards.get(u)
    assert rec is not None and rec is a.cards[u]
    assert a.cards.get(-1) is None


def test_the_table_survives_json_deep_copies_and_pickles() -> None:
    """Every way of copying a state gives an equal state with its own copy-on-write table."""
    st, u = table()
    a = E.copy_state(st)
    for other in (
        E.load_state(E.dump_state(a)),
        copy.deepcopy(a),
        a.model_copy(deep=True),
        pickle.loads(pickle.dumps(a)),
    ):
        assert isinstance(other.cards, CardTable) and other == a
        other.cards[u].power = 5
        assert a.cards[u].power == 2


def test_a_table_assigned_by_hand_is_adopted_on_copy() -> None:
    """A plain dict put in the state still gives independent copies."""
    st, u = table()
    st.cards = dict(st.cards.items())
    a = E.copy_state(st)
    a.cards[u].power = 4
    assert st.cards[u].power == 2
