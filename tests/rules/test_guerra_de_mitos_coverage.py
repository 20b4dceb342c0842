"""Every one of the 364 cards of the first era has a test that plays it."""

from __future__ import annotations

from rules.guerra_de_mitos.cards import cards
from tests.rules.gdm_coverage import CARD_TEST_MODULES, COVERED, covered_by, load, owned

ALL_IDS = set(cards())


def test_the_card_test_files_share_the_card_list_without_gaps() -> None:
    """The files' ranges cover ids 0001-0364 once each."""
    ids = [c for m in CARD_TEST_MODULES for c in owned(m)]
    assert sorted(ids) == sorted(ALL_IDS) and len(ids) == len(set(ids)) == 364


def test_first_half_every_card_has_a_test() -> None:
    """Rows 1-182 of the card list: each card is played by a test in its file."""
    module = "tests.rules.test_guerra_de_mitos_cards_a"
    missing = sorted(set(owned(module)) - covered_by(module))
    assert not missing, f"cards without a test: {missing}"


def test_no_card_is_left_without_an_encoding() -> None:
    """Every card has its ability as data (or code of its own) or is a card without text."""
    from rules.guerra_de_mitos.abilities import ABILITIES, UNENCODED, VANILLA

    assert not UNENCODED
    assert set(ABILITIES) | VANILLA == ALL_IDS


def test_every_card_of_the_first_era_has_a_test() -> None:
    """The union of all card-test files is the whole card list."""
    for m in CARD_TEST_MODULES:
        load(m)
    missing = sorted(ALL_IDS - set(COVERED))
    assert not missing, f"{len(missing)} cards without a test: {missing}"
    assert set(COVERED) <= ALL_IDS
