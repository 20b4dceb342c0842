"""Ankh-Morpork: each personality wins exactly at its threshold, for 2, 3 and 4 players;
the end of the deck, and points with their tie-break."""

from __future__ import annotations

import pytest

from rules.ankh_morpork.personalities import AREAS_NEEDED, SPIES_NEEDED
from tests.rules.am_helpers import E, acts, card, position

OTHERS = {2: ["vimes"], 3: ["vimes", "rust"], 4: ["vimes", "rust", "de_worde"]}
NAMES = [str(a + 1) for a in range(12)]


def _start(n: int, who: str, **kw):  # noqa: ANN003, ANN202
    """Seat 0 is ``who``; its turn starts (when the win is checked)."""
    return position(n, personalities=[who] + OTHERS[n], turn=0, **kw)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_vetinari_needs_spies_in_demon_free_areas(n: int) -> None:
    k = SPIES_NEEDED[n]
    st = _start(n, "vetinari", minions={a: {0: 1} for a in NAMES[:k]})
    assert st.finished and st.winners == [0] and st.end_reason == "personality"
    assert not _start(n, "vetinari", minions={a: {0: 1} for a in NAMES[: k - 1]}).finished
    st = _start(n, "vetinari", minions={a: {0: 1} for a in NAMES[:k]}, demons={NAMES[0]: 1})
    assert not st.finished


@pytest.mark.parametrize("lord", ["selachii", "rust", "de_worde"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_lords_need_control(n: int, lord: str) -> None:
    k = AREAS_NEEDED[n]
    others = [p for p in ["vimes", "rust", "de_worde", "selachii"] if p != lord][: n - 1]
    st = position(n, personalities=[lord, *others], minions={a: {0: 1} for a in NAMES[:k]})
    assert st.finished and st.winners == [0]
    st = position(n, personalities=[lord, *others], minions={a: {0: 1, 1: 1} if a == NAMES[0] else {0: 1} for a in NAMES[:k]})
    assert not st.finished  # a tie in one area: one short


@pytest.mark.parametrize("n", [2, 3, 4])
def test_dragon_king_needs_eight_trouble_markers(n: int) -> None:
    assert _start(n, "dragon_king", trouble=NAMES[:8]).finished
    assert not _start(n, "dragon_king", trouble=NAMES[:7]).finished


@pytest.mark.parametrize("n", [3, 4])
def test_chrysoprase_needs_fifty_less_loans(n: int) -> None:
    st = _start(n, "chrysoprase", money=[38] + [10] * (n - 1), buildings={"Nap Hill": 0})
    assert st.finished and st.winners == [0]
    assert not _start(n, "chrysoprase", money=[37] + [10] * (n - 1), buildings={"Nap Hill": 0}).finished
    st = _start(n, "chrysoprase", money=[50] + [10] * (n - 1), loans=[["mr_bent"]] + [[] for _ in range(n - 1)])
    assert not st.finished
    # a building where a demon stands is worth nothing
    assert not _start(n, "chrysoprase", money=[38] + [10] * (n - 1), buildings={"Nap Hill": 0}, demons={"Nap Hill": 1}).finished


def test_win_is_checked_only_at_the_start_of_the_owners_turn() -> None:
    st = position(3, personalities=["vimes", "dragon_king", "rust"], trouble=NAMES[:7], hands={0: ["doctor_hix", "groat"]},
                  events=["fog"])
    st, _ = acts(st, (0, card("doctor_hix")), (0, {"kind": "area", "area": 11}))
    assert sum(st.trouble) == 8 and not st.finished  # still Red's turn
    st, _ = acts(st, (0, {"kind": "skip"}))
    assert st.finished and st.winners == [1]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_vimes_wins_when_the_last_card_is_drawn(n: int) -> None:
    st = position(n, personalities=["rust", "vimes", "selachii", "de_worde"][:n], deck=["hex"],
                  hands={0: ["groat"]}, money=[50] + [0] * (n - 1))
    st, ev = acts(st, (0, card("groat")), (0, {"kind": "area", "area": 0}))
    assert st.finished and st.end_reason == "deck" and st.winners == [1]
    assert E.outcome(st).winners == [1]


def test_deck_end_without_vimes_goes_to_points_and_card_tie_break() -> None:
    st = position(3, personalities=["rust", "selachii", "de_worde"], deck=["hex"], hands={0: ["groat"]},
                  money=[10, 16, 4], buildings={"Dolly Sisters": 1, "Seven Sleepers": 2},
                  minions={"Longwall": {0: 2}})
    st, _ = acts(st, (0, card("groat")), (0, {"kind": "area", "area": 8}))
    # Red: 3 minions 15 + $10 = 25 ... Yellow: 6 + 16 = 22; Green: 18 + 4 = 22
    assert st.scores == [25, 22, 22] and st.winners == [0]
    assert E.outcome(st).ranking == [[0], [2], [1]]  # Green's Seven Sleepers card ($18) beats Dolly ($6)


def test_loans_are_repaid_or_cost_fifteen_points() -> None:
    st = position(2, personalities=["rust", "selachii"], deck=["hex"], hands={0: ["groat"]}, money=[13, 5],
                  loans=[["mr_bent", "bank_of_am"], []])
    st, _ = acts(st, (0, card("groat")), (0, {"kind": "skip"}))
    assert st.scores == [1 - 15, 5]  # repays one ($12), cannot repay the other


def test_demons_cancel_points_in_their_area() -> None:
    st = position(2, personalities=["rust", "selachii"], deck=["hex"], hands={0: ["groat"]}, money=[0, 0],
                  minions={"Dimwell": {0: 2}, "Longwall": {0: 1}}, buildings={"Dimwell": 0}, demons={"Dimwell": 1})
    st, _ = acts(st, (0, card("groat")), (0, {"kind": "skip"}))
    assert st.scores[0] == 5


def test_the_end_says_which_condition_won_and_what_the_points_were_for() -> None:
    from rules.ankh_morpork.scoring import outcome

    st = _start(2, "vetinari", minions={a: {0: 1} for a in NAMES[:11]}, money=[3, 40])
    reason = outcome(st).reason
    assert reason.en.startswith("Player 1 wins as Lord Vetinari")
    assert "minions in 11 areas without a demon (11 needed)" in reason.en
    assert f"The points (Player 1 {st.scores[0]}, Player 2 {st.scores[1]}) only place the others." in reason.en
    assert reason.es.startswith("gana Jugador 1 como Lord Vetinari") and "secuaces en 11 zonas sin demonio" in reason.es
    st = _start(3, "dragon_king", trouble=NAMES[:8])
    assert "8 trouble markers on the board (8 needed)" in outcome(st).reason.en
