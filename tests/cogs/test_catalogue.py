"""The gettext catalogues: every message the code asks for is translated in every language,
nothing is left in them that the code no longer asks for, placeholders and plural forms
agree, and a new language is one catalogue file."""

from __future__ import annotations

import shutil
import string
from pathlib import Path
from typing import Any

import discord
import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from cogs.common import catalogue, i18n
from cogs.common.catalogue import SOURCE, Catalogues, catalogues, po_path, save
from cogs.common.catalogue_scan import ROOT, Uses, scan, scan_source
from cogs.common.i18n import Translator, lang, t, tn


def fields(text: str) -> set[str]:
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def key(message: Message) -> tuple[str, str | None]:
    return (message.id[0] if isinstance(message.id, tuple) else message.id), message.context


def forms(message: Message) -> list[str]:
    s = message.string
    return list(s) if isinstance(s, tuple | list) else [s]


@pytest.fixture(scope="module")
def uses() -> Uses:
    return scan()


def test_the_project_ships_spanish_and_english() -> None:
    assert {"es", "en"} <= set(catalogues().languages)


def test_every_id_the_code_uses_is_translated_in_every_catalogue(uses: Uses) -> None:
    cats = catalogues()
    assert len(uses.singular) > 400  # the scanner sees the code's calls
    missing = []
    for language in cats.languages:
        po = cats.po(language)
        for msgid, where in uses.singular.items():
            m = po.get(msgid)
            if m is None or not m.string or isinstance(m.id, tuple):
                missing.append((language, msgid, where[0], "singular"))
        for msgid, where in uses.plural.items():
            m = po.get(msgid)
            if m is None or not isinstance(m.id, tuple) or not all(forms(m)):
                missing.append((language, msgid, where[0], "plural"))
    assert not missing, missing


def test_no_catalogue_keeps_a_message_the_code_no_longer_uses(uses: Uses) -> None:
    unused = [msgid for msgid in catalogues().ids() if not uses.used(msgid)]
    assert not unused, f"remove from every catalogue (or use): {unused}"


def test_every_language_has_every_message_of_the_others() -> None:
    cats = catalogues()
    ids = {lang: {key(m) for m in cats.po(lang) if m.id} for lang in cats.languages}
    for language, have in ids.items():
        assert have == ids[SOURCE], (language, sorted(have ^ ids[SOURCE])[:20])


def test_placeholders_are_the_same_in_every_language() -> None:
    cats = catalogues()
    english = {key(m): m for m in cats.po(SOURCE) if m.id}
    for language in cats.languages:
        for m in cats.po(language):
            if not m.id or key(m) not in english:
                continue
            want = set().union(*(fields(s) for s in forms(english[key(m)])))
            got = [fields(s) for s in forms(m) if s]
            # every form may only use the entry's placeholders; together they use them all
            # (a form for exactly one thing may leave out {n})
            assert all(g <= want for g in got), (language, key(m), got, want)
            assert set().union(*got) | {"n"} >= want, (language, key(m), got, want)
            if not isinstance(m.id, tuple):
                assert set().union(*got) == want, (language, key(m), got, want)


def test_plural_entries_have_every_form_their_language_needs() -> None:
    cats = catalogues()
    plurals = 0
    for language in cats.languages:
        po = cats.po(language)
        for m in po:
            if isinstance(m.id, tuple):
                plurals += 1
                assert len(forms(m)) == po.num_plurals, (language, m.id)
                assert all(s.strip() for s in forms(m)), (language, m.id)
    assert plurals >= 20


def test_tn_picks_the_form_for_the_number() -> None:
    assert tn("rc.cards_face_down", 1, "es") == "1 carta boca abajo"
    assert tn("rc.cards_face_down", 3, "es") == "3 cartas boca abajo"
    assert tn("rc.cards_face_down", 1, "en-GB") == "1 card face down"
    assert tn("rc.cards_face_down", 0, "en-GB") == "0 cards face down"


def test_pybabel_extraction_keeps_every_live_entry() -> None:
    """`pybabel extract -F babel.cfg` then `pybabel update` never drops a message in use:
    the template holds exactly the English catalogue's entries."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    pot = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        pot.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    english = {key(m) for m in catalogues().po(SOURCE) if m.id}
    template = {key(m) for m in pot if m.id}
    assert template == english, (sorted(english - template)[:20], sorted(template - english)[:20])
    plural = {key(m) for m in pot if isinstance(m.id, tuple)}
    assert plural == {key(m) for m in catalogues().po(SOURCE) if isinstance(m.id, tuple)}
    assert pot.get("err.bug").auto_comments  # translators see the English text


def test_the_scanner_reads_wrappers_built_ids_and_plurals() -> None:
    src = '''
def word(key, locale, **fmt):
    return i18n.t("rg." + key, locale, **fmt)
def refusal(key, **fmt):
    return word(key, "es", **fmt), word(key, "en", **fmt)
def count(key, n, locale):
    return tn("x." + key, n, locale)
t("err.bug", "es", id=1)
word("players", "es")
refusal("not_rg")
count("cards", 3, "es")
t(f"opt.{field}", "es")
k = "gdmverb." + verb
t(k, "es")
'''
    u = scan_source(src)
    assert set(u.singular) == {"err.bug", "rg.players", "rg.not_rg"}
    assert set(u.plural) == {"x.cards"}
    assert u.prefixes == {"opt.", "gdmverb."}
    assert u.used("opt.variant") and u.used("gdmverb.draw") and not u.used("rg.other")


@pytest.fixture
def with_french(tmp_path: Path) -> Any:
    """The shipped catalogues plus a French one, as a server would drop it in."""
    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    fr = Catalog(locale="fr", domain=catalogue.DOMAIN)
    fr.add("lobby.joined", "Vous avez rejoint la partie n° {id}.")
    fr.add(("rc.cards_face_down", "rc.cards_face_down"), ("{n} carte face cachée", "{n} cartes face cachées"))
    fr.add("game", "jeu", context="command")
    save(root, "fr", fr)
    assert po_path(root, "fr").is_file()
    previous = catalogue.use(root)
    yield root
    catalogue.restore(previous)


def test_a_third_language_is_one_catalogue_file(with_french: Path) -> None:
    assert catalogues().languages == ("en", "es", "fr")
    assert lang(discord.Locale.french) == "fr" and lang("fr-CA") == "fr"
    assert t("lobby.joined", discord.Locale.french, id=7) == "Vous avez rejoint la partie n° 7."
    # French counts zero as one thing: its catalogue's Plural-Forms, not English's rule
    assert tn("rc.cards_face_down", 0, "fr") == "0 carte face cachée"
    assert tn("rc.cards_face_down", 2, "fr") == "2 cartes face cachées"
    # what French does not translate yet reads in English
    assert t("lobby.left", "fr", id=7) == t("lobby.left", "en", id=7)
    assert i18n.MESSAGES["lobby.joined"]["fr"].startswith("Vous")


async def test_a_third_language_names_the_commands(with_french: Path) -> None:
    from discord import app_commands

    loc = app_commands.TranslationContextLocation.command_name
    context: Any = app_commands.TranslationContext(location=loc, data=None)
    tr = Translator()
    assert await tr.translate(app_commands.locale_str("game"), discord.Locale.french, context) == "jeu"
    assert await tr.translate(app_commands.locale_str("new"), discord.Locale.french, context) is None
    assert await tr.translate(app_commands.locale_str("game"), discord.Locale.spain_spanish, context) == "partida"


def test_without_its_catalogue_a_language_reads_english() -> None:
    assert "fr" not in catalogues().languages
    assert lang(discord.Locale.french) == "en"
    assert Catalogues(catalogue.LOCALE_DIR).languages == catalogues().languages


def _rattus_game(locale: str) -> Any:
    import cogs.rattus_cartus  # noqa: F401 - registers the game's presentation
    from rules.registry import engine
    from services.session import Game
    from storage import GameRow, SeatRow

    eng = engine("rattus_cartus")
    state = eng.setup(3, None, 3)
    row = GameRow(
        id=1, guild_id=5, channel_id=900, game_id="rattus_cartus",
        options=eng.parse_options(None).model_dump(mode="json"), status="active", seed=3,
        version=state.version, state=None, host_id=101, locale=locale,
        board_channel_id=900, board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    seats = [SeatRow(game=1, seat=i, user_id=101 + i, ai=False, name=("ana", "bea", "carl")[i],
                     locale=None, dm_closed=False) for i in range(3)]
    return Game(row=row, seats=seats, engine=eng, state=state)


def test_several_players_pinged_at_once_are_named_and_not_told_te_toca() -> None:
    from cogs.common.present import ping_line

    g = _rattus_game("es")
    assert len(g.pending()) == 3  # the secret supply choice: everyone at once
    assert ping_line(g, "es") == "Les toca a <@101>, <@102> y <@103>."
    assert ping_line(g, "en") == "<@101>, <@102>, and <@103> to move."
    assert tn("board.your_turn", 1, "es", who="<@101>") == "<@101>, te toca."


def test_names_join_as_each_language_joins_a_list() -> None:
    assert i18n.names(["Ana"], "es") == "Ana"
    assert i18n.names(["Ana", "Bea"], "es") == "Ana y Bea"
    assert i18n.names(["Ana", "Bea", "Carl"], "en") == "Ana, Bea, and Carl"
    assert i18n.count("rat_tokens", 1, "es") == "1 ficha de rata"
    assert i18n.count("rat_tokens", 2, "en") == "2 rat tokens"


def test_a_table_added_on_another_branch_moves_into_the_catalogues(tmp_path: Path) -> None:
    """What `python -m cogs.common.catalogue absorb-diff` does when a branch that still
    wrote Python tables is merged: only the entries it added or changed move."""
    from cogs.common.catalogue import absorb, changed_entries, load, table_in_source

    before = 'TITLE = "Moves"\nWORDS: dict = {"a": ("uno", "one"), TITLE: ("Jugadas", "Moves")}\n'
    after = before.replace('"a": ("uno", "one")', '"a": ("uno", "one"), "b": ("{n} dos", "{n} two")')
    new = changed_entries(table_in_source(before, "WORDS"), table_in_source(after, "WORDS"))
    assert new == {"b": ("{n} dos", "{n} two")}
    assert absorb(new, prefix="x.", root=tmp_path) == ["x.b"]
    assert load(tmp_path, "es").get("x.b").string == "{n} dos"
    assert load(tmp_path, "en").get("x.b").string == "{n} two"
    assert table_in_source(before, "WORDS")["Moves"] == ("Jugadas", "Moves")
