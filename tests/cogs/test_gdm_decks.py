"""The deck-building cog: its place under the game's /gdm, its texts, its embeds and picture."""

from __future__ import annotations

import io
import re
import shutil
import string
from pathlib import Path

import discord
import pytest
from babel.messages.catalog import Catalog
from discord import app_commands
from discord.ext import commands
from PIL import Image

import bot as bot_module
from cogs import gdm_decks
from cogs.common import catalogue, i18n
from cogs.gdm_decks import WORDS, deck_embed, parse_range, search_cards
from cogs.pictures.gdm_deck import WIDTH, render_deck
from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.decks import Deck, ready_decks
from services.gdm_decks import DeckRefusal
from storage.decks import DeckRow
from tests.cogs.legibility import recorded_text

C = cards()


def _row(deck: Deck, name: str = "Mazo") -> DeckRow:
    return DeckRow(
        id=1,
        user_id=1,
        name=name,
        pantheon=deck.pantheon,
        cards=deck.counts(),
        version=0,
        created_at=0.0,
        updated_at=0.0,
    )


class GameCog(commands.Cog):
    """Stands for the game's cog: it owns /gdm with commands of its own."""

    gdm = app_commands.Group(
        name="gdm", description="Guerra de Mitos (War of Myths) moves", guild_only=True
    )

    @gdm.command(name="card", description="What any card of Guerra de Mitos does")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """A card."""


def _bot() -> commands.Bot:
    return commands.Bot(command_prefix="!", intents=discord.Intents.none())


async def test_deck_and_search_join_the_games_gdm_and_leave_it_on_unload() -> None:
    b = _bot()
    await b.add_cog(GameCog())
    await b.load_extension("cogs.gdm_decks")
    gdm = b.tree.get_command("gdm")
    assert isinstance(gdm, app_commands.Group)
    assert sorted(c.name for c in gdm.commands) == ["card", "deck", "search"]
    deck = gdm.get_command("deck")
    assert isinstance(deck, app_commands.Group) and len(deck.commands) == 11
    await b.unload_extension("cogs.gdm_decks")
    assert [c.name for c in b.tree.get_command("gdm").commands] == ["card"]


async def test_without_the_games_cog_deck_building_makes_its_own_gdm() -> None:
    b = _bot()
    await b.load_extension("cogs.gdm_decks")
    assert sorted(c.name for c in b.tree.get_command("gdm").commands) == ["deck", "search"]
    await b.unload_extension("cogs.gdm_decks")
    assert b.tree.get_command("gdm") is None


def test_deck_building_loads_after_the_games_cog() -> None:
    ext = list(bot_module.EXTENSIONS)
    assert "cogs.gdm_decks" in ext
    if "cogs.guerra_de_mitos" in ext:
        assert ext.index("cogs.guerra_de_mitos") < ext.index("cogs.gdm_decks")


def test_spanish_names_are_unique_and_complete() -> None:
    group = gdm_decks.DeckCommands()
    names = [c.name for c in group.commands]
    spanish = [i18n.COMMAND_NAMES_ES[n] for n in names]
    assert len(set(spanish)) == len(spanish) == 11
    for command in [*group.commands, gdm_decks.search_command]:
        assert command.description in i18n.DESCRIPTIONS_ES
        for p in command.parameters:
            assert p.name in i18n.PARAMETER_NAMES_ES and p.description in i18n.DESCRIPTIONS_ES


def test_every_text_has_both_languages_with_the_same_placeholders() -> None:
    fields = string.Formatter()
    for key, (es, en) in WORDS.items():
        assert es and en, key
        assert {f for _, f, _, _ in fields.parse(es) if f} == {
            f for _, f, _, _ in fields.parse(en) if f
        }, key


@pytest.mark.parametrize("locale", ["es", "en"])
def test_the_picture_is_700_wide_with_no_text_under_13_px(locale: str) -> None:
    decks = [rd.deck for rd in ready_decks().values()]
    decks.append(Deck())
    every_cost = {
        c.id: 1 for c in C.values() if c.type in ("character", "action") and c.keyed_to is None
    }
    decks.append(Deck.from_counts("0177", every_cost))
    for deck in decks:
        with recorded_text() as drawn:
            png = render_deck(deck, "Un nombre de mazo larguísimo que no cabe ñ" * 2, locale)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert Image.open(io.BytesIO(png)).size[0] == WIDTH == 700
        size, text = min((s, t) for s, t in drawn if t.strip())
        assert size >= 13, (size, text)


def test_the_embed_keeps_within_discords_limits_for_a_deck_of_many_cards() -> None:
    for n in (60, 150, len(C)):
        counts = {cid: 2 for cid in list(C)[:n] if C[cid].type != "pantheon"}
        embed = deck_embed(_row(Deck.from_counts("0001", counts), "x" * 60), "es")
        assert len(embed) <= 6000 and len(embed.fields) <= 25
        assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)
        assert embed.image.url == "attachment://deck.png"
        lines = [
            ln for ln in "\n".join(f.value for f in embed.fields).splitlines() if ln != "(vacío)"
        ]
        listed = [line for line in lines if re.fullmatch(r"\d+ × .+", line)]
        if len(listed) == len(counts):  # every card listed whole, with its copies
            assert len(lines) == len(listed)
        else:  # the rest is counted, and the export has it all
            assert (
                lines[-1]
                == f"… y {len(counts) - len(listed)} líneas más (la lista entera: /gdm mazo exportar)"
            )
    assert n == len(C) and len(listed) < len(counts)


def test_ranges_and_search_filters() -> None:
    assert (
        parse_range("3") == 3 and parse_range(" 2 - 4 ") == (2, 4) and parse_range("4-2") == (2, 4)
    )
    assert parse_range("<=3") == (0, 3) and parse_range(">5") == (6, 99) and parse_range("") is None
    for bad in ("mucho", "<=2-4", "3,5", "-1"):
        with pytest.raises(ValueError):
            parse_range(bad)
    with pytest.raises(DeckRefusal, match="not a number or a range"):
        search_cards("en", cost="mucho")
    with pytest.raises(DeckRefusal, match="is no key"):
        search_cards("en", key="Pirata")
    with pytest.raises(DeckRefusal) as refused:
        search_cards("es", cost="mucho")
    assert refused.value.message("es-ES") == "«mucho» no es un número ni un intervalo: escribe 3, 2-4, <=3 o >=5."
    assert refused.value.message("en") == '"mucho" is not a number or a range: write 3, 2-4, <=3 or >=5.'
    with pytest.raises(DeckRefusal) as refused:
        search_cards("es", key="Pirata")
    assert refused.value.message("es") == "«Pirata» no es ninguna clave. Elige una de la lista al escribir."
    found = search_cards("en", type="equipment", key="Weapon", cost="<=2")
    assert found and all(c.is_weapon and c.cost <= 2 for c in found)


def test_refusals_read_in_a_third_language(tmp_path: Path) -> None:
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    fr = Catalog(locale="fr", domain=catalogue.DOMAIN)
    fr.add("decks.bad_range", "« {value} » n'est ni un nombre ni un intervalle.")
    catalogue.save(root, "fr", fr)
    previous = catalogue.use(root)
    try:
        with pytest.raises(DeckRefusal) as refused:
            search_cards("fr", strength="beaucoup")
        assert refused.value.message("fr-FR") == "« beaucoup » n'est ni un nombre ni un intervalle."
        assert refused.value.message("es").startswith("«beaucoup» no es un número")
        with pytest.raises(DeckRefusal) as refused:
            search_cards("fr", key="Pirate")
        # what French lacks reads in English
        assert refused.value.message("fr") == '"Pirate" is no key. Pick one from the list as you type.'
    finally:
        catalogue.restore(previous)


def test_card_choice_labels_fit_discord() -> None:
    for c in C.values():
        for locale in ("es", "en"):
            label = gdm_decks.card_label(c, locale)
            assert 1 <= len(label) <= 100 and c.display_name(locale) in label
