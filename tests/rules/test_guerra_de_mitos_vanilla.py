"""The cards without ability text play with their printed numbers only."""

from __future__ import annotations

import pytest

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos.abilities import VANILLA
from rules.guerra_de_mitos.facts import all_facts
from rules.guerra_de_mitos.model import Enter, Equip
from tests.rules import gdm_helpers as H

E = H.E
PANTHEON_OF = {
    "japonesa": "0001",
    "nordica": "0022",
    "griega": "0042",
    "azteca": "0061",
    "egipcia": "0080",
    "primigenia": "0100",
}


@pytest.mark.parametrize("cid", sorted(c for c in VANILLA if all_facts()[c].type == "character"))
def test_vanilla_character_enters_with_its_numbers(cid: str) -> None:
    """Put into play from an oracle under its own mythology's pantheon: its F and PM, no ability."""
    f = all_facts()[cid]
    st = H.blank(2, pantheons=(PANTHEON_OF[f.myth or "japonesa"], "0022"))
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 0
    i = H.oracle(st, [cid], 0, power=f.cost + 5)
    st, _ = E.apply(st, 0, Enter(oracle=i))
    u = next(u for u, c in st.cards.items() if c.card == cid)
    assert st.cards[u].zone == "pantheon" and st.cards[u].power == f.power  # excess over PM lost
    assert B.strength(st, u) == f.strength and B.max_power(st, u) == f.power
    st.phase = "influence"
    assert not [
        a for a in E.legal_actions(st, 0) if getattr(a, "uid", None) == u and a.kind == "use"
    ]
    F.reorganise(st)


@pytest.mark.parametrize("cid", sorted(c for c in VANILLA if all_facts()[c].type == "equipment"))
def test_vanilla_equipment_adds_its_numbers(cid: str) -> None:
    """Hacha and Daga de sacrificio: their F and PM go on the bearer, and nothing else."""
    f = all_facts()[cid]
    st = H.blank(2)
    hero = H.put(st, "0004", 0, power=5)  # Hachiman F5 PM9
    g = H.in_hand(st, cid, 0)
    st, _ = E.apply(st, 0, Equip(uid=g, target=hero))
    assert st.cards[hero].power == 5 - f.cost
    assert B.strength(st, hero) == 5 + f.strength and B.max_power(st, hero) == 9 + f.power
