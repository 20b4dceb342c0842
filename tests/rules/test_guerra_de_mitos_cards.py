"""Guerra de Mitos card catalogue: every record loads, the counts match the card list."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from pydantic import ValidationError

from rules import catalogue
from rules.catalogue_scan import ROOT
from rules.guerra_de_mitos import cards as cards_module
from rules.guerra_de_mitos.card_search import by_name, search_names, suggest
from rules.guerra_de_mitos.cards import (
    KEYS,
    MYTHOLOGY_KEYS,
    Card,
    card,
    card_name,
    card_text,
    cards,
    fold,
    joined,
    key_id,
    verbatim,
)
from rules.guerra_de_mitos.decks import catalogue_entries, ready_decks
from tests.rules.test_rules_catalogue import _pairs_in


def _record(**changes: object) -> dict[str, object]:
    """A sound character record (Susanoo) with some fields changed."""
    rec = card("0018").model_dump()
    rec.update(changes)
    return rec


def test_every_id_from_0001_to_0364_once() -> None:
    assert list(cards()) == [f"{i:04d}" for i in range(1, 365)]
    assert all(c.id == cid for cid, c in cards().items())


def test_counts_by_type_match_the_card_list() -> None:
    by_type = Counter(c.type for c in cards().values())
    assert by_type == {
        "character": 110,
        "action": 107,
        "equipment": 46,
        "resource": 35,
        "invocation": 28,
        "event": 23,
        "pantheon": 15,
    }


def test_gods_uniques_and_battle_cards() -> None:
    all_cards = cards().values()
    assert sum(c.is_god for c in all_cards) == 52
    assert sum(c.is_unique for c in all_cards) == 73
    battle = sorted(c.name for c in all_cards if c.is_battle)
    assert battle == [
        "El caballo de Troya",
        "El juicio de Osiris",
        "Mariposa y guerrero",
        "Nyar llama a su puerta",
    ]
    assert all(c.is_unique for c in all_cards if c.type == "invocation")
    assert all(c.type == "character" for c in all_cards if c.is_god)


def test_mythology_counts_after_the_two_fixes() -> None:
    # The list has 22 Japonesa and 23 Egipcia; Katana de Hachiman joins the Japanese
    # cards (it carries the key) and Ojo de Ra leaves the Egyptian ones (it carries none).
    by_myth = Counter(c.mythology for c in cards().values())
    assert by_myth == {
        None: 226,
        "Nórdica": 23,
        "Egipcia": 22,
        "Japonesa": 23,
        "Griega": 21,
        "Azteca": 21,
        "Primigenia": 21,
        "Neutral": 7,
    }
    assert card("0231").mythology == "Japonesa" and card("0231").keyed_to == "Japonesa"
    assert card("0252").mythology is None and card("0252").keyed_to is None


def test_keyed_cards_belong_to_their_mythology() -> None:
    keyed = {c.name: c.keyed_to for c in cards().values() if c.keyed_to}
    assert len(keyed) == 13
    assert keyed["Mjolnir"] == "Nórdica" and keyed["Necronomicón"] == "Primigenia"
    assert keyed["Guiza"] == "Egipcia" and keyed["Templo Jinja"] == "Japonesa"
    for c in cards().values():
        if c.keyed_to:
            assert c.mythology == c.keyed_to
            assert any(k in MYTHOLOGY_KEYS for k in c.keys)


def test_seventy_one_keys_one_spelling_each() -> None:
    used = {k for c in cards().values() for k in c.keys}
    assert len(used) == 71
    assert used == set(KEYS)
    assert key_id("Diosa") == key_id("dios") == "Dios"
    assert key_id("Única") == key_id("unico") == key_id("Unique") == "Unico"
    assert key_id("invocadora") == "Invocador"
    assert key_id("Punto de Poder") == "Punto de poder"
    assert key_id("nada") is None
    # Printed spellings stay for display.
    assert card("0005").keys_shown == ("Diosa", "Sol", "Fuego")
    assert card("0005").keys == ("Dios", "Sol", "Fuego")


def test_typos_fixed_in_names_and_phases() -> None:
    assert card("0001").name == "Yomi"
    assert card("0195").name == "Laguz"
    assert card("0185").name == "Melpómene"
    assert card("0196").name == "Los 100.000 de Huitzilopochtli"
    for c in cards().values():
        assert c.name == c.name.strip() and c.name_en == c.name_en.strip()
        for text in (c.text_es, c.text_en):
            assert "EFRENTAMIENTO" not in text and "IFLUENCIA" not in text
    assert card("0142").phases == ("confrontation",)
    assert card("0240").phases == ("influence",)
    assert card("0025").phases == ("influence", "confrontation")


def test_stats_by_type() -> None:
    for c in cards().values():
        if c.type == "pantheon":
            assert c.cost is None and c.starting_power is not None and c.starting_power >= 16
        if c.type == "character":
            assert c.max_power is not None and c.strength is not None and c.cost is not None
        if c.type == "event":
            assert (c.cost, c.strength, c.power) == (None, None, None)
    assert card("0224").pm_modifier == -1 and card("0224").strength == 2  # Hacha
    assert card("0224").is_weapon and card("0235").is_armour
    assert card("0208").pm_modifier == -3  # Droga plutónica
    assert card("0178").starting_power == 29  # La Orden
    assert card("0097").is_mortal and not card("0082").is_mortal


def test_token_stats_in_one_format() -> None:
    tokens = {c.id: c.tokens for c in cards().values() if c.tokens}
    assert set(tokens) == {"0014", "0045", "0057", "0083", "0100", "0154", "0290"}
    kitsune = tokens["0014"][0]
    assert (kitsune.strength, kitsune.max_power, kitsune.power) == (1, 2, 1)
    cultist = tokens["0100"][0]
    assert (cultist.strength, cultist.max_power, cultist.power, cultist.keys) == (
        0,
        1,
        0,
        ("Loco",),
    )
    assert tokens["0290"] == tokens["0100"]
    weapon = tokens["0154"][0]
    assert weapon.type == "equipment" and weapon.power is None and weapon.keys == ("Arma",)


def test_lookup_by_name_in_either_language() -> None:
    assert by_name("Odín") is by_name("odin") is by_name("ODIN") is card("0024")
    assert by_name("Axe") is by_name("hacha") is card("0224")
    assert by_name("aji suki taka hi kone") is card("0013")
    assert by_name("Melpomene") is card("0185")
    assert by_name("nadie") is None
    assert [c.name for c in suggest("Hachaa")][0] == "Hacha"


def test_search_names_for_autocomplete() -> None:
    es = [c.name for c in search_names("talis", "es")]
    assert es[:4] == [
        "Talismán de agua",
        "Talismán de aire",
        "Talismán de fuego",
        "Talismán de tierra",
    ]
    en = [c.name_en for c in search_names("talis", "en")]
    assert set(en[:4]) == {"Air Talisman", "Earth Talisman", "Fire Talisman", "Water Talisman"}
    # A Spanish name still finds the card for an English reader.
    assert card("0224") in search_names("hacha", "en")
    assert len(search_names("", "es", limit=25)) == 25
    assert fold("  Ópera de  Sídney ") == "opera de sidney"


def test_every_name_is_one_card() -> None:
    seen: dict[str, str] = {}
    for c in cards().values():
        for n in {fold(c.name).replace(" ", ""), fold(c.name_en).replace(" ", "")}:
            assert seen.setdefault(n, c.id) == c.id


@pytest.mark.parametrize(
    "changes",
    [
        {"type": "event"},  # an event has no cost, strength or power
        {"cost": None},
        {"power": -1},
        {"keys": ["Dios", "Guerrero", "Volador"], "keys_shown": ["Dios", "Guerrero", "Volador"]},
        {"is_god": False},
        {"is_unique": True},
        {"keys_shown": ["Diosa"]},
        {"keyed_to": "Nórdica"},
        {"mythology": "Celta"},
        {"id": "18"},
        {"name": "Susanoo "},
        {"text_es": "ENFRENTAMIENTO: gana 1P.", "text_en": ""},
        {
            "text_es": "INFLUENCIA: gana 1P.",
            "text_en": "INFLUENCE: gain 1P.",
            "phases": ["confrontation"],
        },
        {"color": "rojo"},
    ],
)
def test_a_bad_record_is_refused(changes: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Card.model_validate(_record(**changes))


def test_cards_are_frozen() -> None:
    with pytest.raises(ValidationError):
        card("0018").cost = 3  # type: ignore[misc]


VANILLA = {
    "0015",
    "0019",
    "0038",
    "0039",
    "0058",
    "0059",
    "0076",
    "0097",
    "0098",
    "0113",
    "0114",
    "0117",
    "0224",
    "0230",
}


def test_fourteen_cards_without_ability_and_every_other_card_worded_twice() -> None:
    blank = {c.id for c in cards().values() if not c.text_es}
    assert blank == VANILLA
    for c in cards().values():
        assert bool(c.text_es) == bool(c.text_en)
        assert c.text("es") == c.text_es and c.text("en-GB") == c.text_en


def test_phase_labels_in_both_languages() -> None:
    thor = card("0025")
    assert thor.text_es.startswith("INFLUENCIA: ") and "ENFRENTAMIENTO: " in thor.text_es
    assert thor.text_en.startswith("INFLUENCE: ") and "CONFRONTATION: " in thor.text_en
    for c in cards().values():
        if c.type == "event":
            assert not c.phases and "INFLUENCIA:" not in c.text_es


def test_costs_stay_before_the_semicolon() -> None:
    # "se deben pagar los costes (poder o zona del texto antes del ';')"
    assert card("0005").text_es == "INFLUENCIA: Quita 1P a Amaterasu; ganas 2P en tu reserva."
    assert card("0146").text_es.split(";")[0].endswith("descarta una carta de tu mano")
    assert card("0362").text_es.split(";")[0].endswith("con la clave Dios")
    # A cost that names the card itself keeps the card's name.
    for cid in ("0006", "0018", "0040", "0074", "0142", "0163"):
        c = card(cid)
        assert c.name in c.text_es.split(";")[0], c.name


def test_cross_references_use_the_fixed_names() -> None:
    assert "Amaterasu" in card("0213").text_es  # the list wrote "Amateratsu"
    assert "Takami-musubi" in card("0233").text_es  # "Takami-misubi"
    assert "Tridente" in card("0047").text_es and "El Tridente" not in card("0047").text_es
    assert "Chalchiuhtlicue" in card("0068").text_es  # "Chalchiuhtkicue"
    assert "Dvrger" in card("0029").text_es  # "Dvrguer"


def test_english_names_and_texts_for_english_readers() -> None:
    assert card("0185").display_name("en") == "Melpomene"
    assert card("0185").display_name("es-ES") == "Melpómene"
    assert card("0005").key_names("en") == ["God", "Sun", "Fire"]
    assert card("0005").key_names("es") == ["Diosa", "Sol", "Fuego"]
    for c in cards().values():
        assert " tu " not in f" {c.text_en} " and "personaje" not in c.text_en


def test_english_texts_name_cards_in_english() -> None:
    everyone = list(cards().values())
    renamed = [o for o in everyone if fold(o.name) != fold(o.name_en)]
    for c in everyone:
        for o in renamed:
            if o.name in c.text_en:
                # Only where the Spanish name is part of an English one (Mictlan/Mictlantecuhtli).
                assert any(o.name in x.name_en for x in everyone), (c.id, o.name)


def test_search_the_pool_by_every_field() -> None:
    from rules.guerra_de_mitos.card_search import mythology_id, search, type_id

    assert type_id("Acción") == type_id("action") == "action"
    assert mythology_id("Norse") == mythology_id("nordico") == "Nórdica"
    norse_gods = search(mythology="Norse", key="Diosa")
    assert {c.name for c in norse_gods} == {
        "Odín",
        "Thor",
        "Loki",
        "Tyr",
        "Hela",
        "Eir",
        "Baldr",
        "Frigg",
        "Heimdall",
    }
    weapons = search(type="Equipo", key="weapon", strength=(3, 3))
    assert {c.name for c in weapons} == {"Mjolnir", "Macuahuitl", "Tridente", "Katana de Hachiman"}
    assert [c.name for c in search(name="talis", type="equipment", key="Agua")] == [
        "Talismán de agua"
    ]
    assert all(c.cost == 0 for c in search(type="action", cost=0))
    assert len(search(type="pantheon")) == 15
    assert len(search(mythology="ninguna")) == 226
    tire = search(text="cansa a dos")
    assert card("0132") in tire and all("cansa a dos" in fold(c.text_es) for c in tire)
    assert card("0013") in search(text="tire two")
    assert search(type="dragon") == [] and search(key="dragon") == []
    assert search(mythology="Celta") == []
    assert len(search()) == 364


def test_describe_a_card_in_the_readers_language() -> None:
    from rules.guerra_de_mitos.card_search import describe, stats_line

    thor_es = describe(card("0025"), "es")
    assert thor_es.splitlines()[0] == "Thor — Personaje · Nórdica · Coste 7 · 4F · 9PM"
    assert thor_es.splitlines()[1] == "Claves: Dios, Guerrero, Trueno"
    assert thor_es.splitlines()[2].startswith("INFLUENCIA: Cansa a Thor")
    thor_en = describe(card("0025"), "en-US")
    assert thor_en.splitlines()[0] == "Thor — Character · Norse · Cost 7 · 4F · 9PM"
    assert thor_en.splitlines()[1] == "Keys: God, Warrior, Thunder"
    assert stats_line(card("0224"), "en") == "Equipment · Cost 2 · +2F · -1PM"
    assert stats_line(card("0001"), "es") == "Panteón · Japonesa · Poder inicial 20P"
    assert stats_line(card("0208"), "es") == "Invocación · Coste 0 · -3PM"
    assert stats_line(card("0119"), "en") == "Event"
    assert describe(card("0224"), "es").endswith("Sin habilidad.")


def test_the_spanish_catalogue_holds_the_spanish_of_every_card() -> None:
    # cards.json stays the data of record; the catalogue must say exactly what it says
    records = json.loads((Path(cards_module.__file__).with_name("data") / "cards.json").read_text("utf-8"))
    cat = catalogue.load(catalogue.LOCALE_DIR, "es", "guerra_de_mitos")
    wanted = {("card name", r["name_en"]): r["name"] for r in records}
    wanted |= {("card text", r["text_en"]): r["text_es"] for r in records if r["text_en"]}
    wanted |= {("card name", t["name_en"]): t["name"] for r in records for t in r["tokens"]}
    ready = json.loads((Path(cards_module.__file__).with_name("data") / "ready_decks.json").read_text("utf-8"))
    wanted |= {("ready deck", r["name_en"]): r["name"] for r in ready}
    assert {key: cat.get(key[1], key[0]).string for key in wanted if cat.get(key[1], key[0])} == wanted
    assert sorted(set(catalogue_entries())) == sorted(wanted)
    for r in records:
        assert card_name(r["id"]).es == r["name"] and card_name(r["id"]).en == r["name_en"]
        assert card_text(r["id"]).get("es-ES") == r["text_es"] and card_text(r["id"]).en == r["text_en"]
    for r in ready:
        assert ready_decks()[r["id"]].display_name("es") == r["name"]
        assert ready_decks()[r["id"]].title.get("en-US") == r["name_en"]
    # the keys as the cards print them ("Diosa", "Única"), and their English
    for c in cards().values():
        assert c.key_names("es-ES") == list(c.keys_shown)
        assert c.key_names("en") == [KEYS[k].get("en") for k in c.keys]


def test_card_names_and_texts_read_in_a_new_language(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    fr = Catalog(locale="fr", domain="guerra_de_mitos", fuzzy=False)
    fr.add("Melpomene", "Melpomène", context="card name")
    fr.add(card("0005").text("en"), "INFLUENCE : Retirez 1P à Amaterasu ; gagnez 2P.", context="card text")
    catalogue.save(root, "fr", "guerra_de_mitos", fr)
    previous = catalogue.use(root)
    try:
        assert card("0185").display_name("fr") == "Melpomène"
        assert card_name("0185").get("fr-FR") == "Melpomène"
        assert card("0005").text("fr") == "INFLUENCE : Retirez 1P à Amaterasu ; gagnez 2P."
        # what French lacks reads in English; Spanish is untouched
        assert card_name("0005").get("fr") == card("0005").name_en
        assert card_name("0185").get("es") == "Melpómene"
    finally:
        catalogue.restore(previous)


def test_an_id_no_card_has_reads_as_itself() -> None:
    assert card_name("tk-kitsune").get("es") == "tk-kitsune" == card_name("tk-kitsune").get("en")
    assert card_text("0015").get("es") == "" == card("0015").text("en")


def test_the_card_deck_and_lobby_modules_write_no_spanish_english_pair() -> None:
    # (the catalogue test still leaves services/ and cogs/ aside as a whole)
    modules = [
        "rules/guerra_de_mitos/cards.py", "rules/guerra_de_mitos/decks.py", "services/gdm_decks.py",
        "services/gdm_lobby.py", "cogs/gdm_decks.py", "cogs/common/gdm_deck_views.py",
        "cogs/common/gdm_deck_choices.py", "cogs/gdm_lobby.py", "cogs/pictures/gdm_deck.py",
    ]
    assert [p for m in modules for p in _pairs_in(ROOT / m)] == []


def test_texts_joined_with_a_separator_render_in_each_language() -> None:
    both = joined([card_name("0185"), verbatim("{x}"), card_name("0005")], " · ")
    assert both.get("es") == "Melpómene · {x} · Amaterasu" and both.get("en") == "Melpomene · {x} · Amaterasu"
    assert joined([], ", ").get("es") == "" and joined([card_name("0185")], "{}").get("es") == "Melpómene"
