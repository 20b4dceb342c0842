"""Rey y Hierofante's cog in any language: a language is catalogue files alone, so its
refusals, its factions and the tiles a player types read in that language too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from cogs.common import catalogue as cogs_catalogue
from cogs.common.i18n import t
from cogs.rey_hierofante import RhUI, _resolve_square, _resolve_tile
from rules import catalogue as rules_catalogue
from services.session import Game, Refusal
from tests.cogs.helpers import game, to_act

FR_TILE = "« {value} » n'est pas une tuile que vous pouvez poser. Vous pouvez : {options}"
FR_SQUARE = "« {value} » n'est pas une case (A1 à C3)."


@pytest.fixture
def with_french(tmp_path: Path) -> Iterator[None]:
    """The shipped catalogues plus French ones (the cogs' and Rey y Hierofante's), as a
    server would drop them in."""
    cogs_root, rules_root = tmp_path / "cogs", tmp_path / "rules"
    shutil.copytree(cogs_catalogue.LOCALE_DIR, cogs_root)
    shutil.copytree(rules_catalogue.LOCALE_DIR, rules_root)
    fr = Catalog(locale="fr", domain=cogs_catalogue.DOMAIN)
    fr.add("err.unknown_tile", FR_TILE)
    fr.add("err.unknown_square", FR_SQUARE)
    fr.add("board.players", "Joueurs")
    cogs_catalogue.save(cogs_root, "fr", fr)
    rh = Catalog(locale="fr", domain="rey_hierofante")
    rh.add("Citizen", "Citoyen")
    rh.add("Royalty", "Royauté")
    rh.add("Religion", "Clergé")
    rules_catalogue.save(rules_root, "fr", "rey_hierofante", rh)
    cogs_before, rules_before = cogs_catalogue.use(cogs_root), rules_catalogue.use(rules_root)
    yield
    cogs_catalogue.restore(cogs_before)
    rules_catalogue.restore(rules_before)


def placing() -> Game:
    """A game at its first placement (the Citizen, the only tile placeable then)."""
    g = game()
    assert g.state is not None
    while g.state.phase in ("choose_starter", "draft"):
        seat = to_act(g)
        g.state, _ = g.engine.apply(g.state, seat, g.legal_actions(seat)[0])
    return g


def test_a_tile_is_typed_in_any_language_the_rules_have(with_french: None) -> None:
    g = placing()
    seat = to_act(g)
    for typed in ("Citoyen", "citoy", "Ciudadano", "CITIZEN", "ciudadano"):
        assert _resolve_tile(g, seat, typed) == "ciudadano", typed


def test_a_wrong_tile_is_refused_in_the_readers_language(with_french: None) -> None:
    g = placing()
    with pytest.raises(Refusal) as err:
        _resolve_tile(g, to_act(g), "un castillo volador")
    value = "un castillo volador"
    assert err.value.message("fr") == FR_TILE.format(value=value, options="Citoyen")
    assert err.value.message("fr-CA") == err.value.message("fr")
    # Spanish and English read as they always did
    assert err.value.message("es") == t("err.unknown_tile", "es", value=value, options="Ciudadano")
    assert err.value.message("en") == t("err.unknown_tile", "en", value=value, options="Citizen")
    assert err.value.message("es") == "«un castillo volador» no es una loseta que puedas colocar. Puedes: Ciudadano"


def test_a_wrong_square_is_refused_in_the_readers_language(with_french: None) -> None:
    with pytest.raises(Refusal) as err:
        _resolve_square("D9")
    assert err.value.message("fr") == "« D9 » n'est pas une case (A1 à C3)."
    assert err.value.message("en") == "'D9' is not a square (A1 to C3)."
    assert err.value.message("es") == t("err.unknown_square", "es", value="D9")


def test_the_factions_are_named_in_any_language(with_french: None) -> None:
    g = placing()
    ui = RhUI()

    def players(locale: str) -> str:
        fields = ui.board_fields(g, locale)
        return next(value for name, value, _ in fields if name == t("board.players", locale))

    assert "Royauté" in players("fr") and "Clergé" in players("fr")
    assert "Realeza" in players("es") and "Religión" in players("es")
    assert "Royalty" in players("en") and "Religion" in players("en")


def test_a_language_without_the_rules_translated_reads_their_english() -> None:
    # no French catalogue at all: the board still shows (English), it never fails
    g = placing()
    fields = RhUI().board_fields(g, "fr")
    assert any("Royalty" in value for _, value, _ in fields)
