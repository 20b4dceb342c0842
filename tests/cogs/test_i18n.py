"""The message catalogue and the Spanish names of the slash commands."""

from __future__ import annotations

import re
import string
from collections.abc import AsyncIterator, Iterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import Settings, create_bot
from cogs.common import i18n
from cogs.common.i18n import MESSAGES, Translator, lang, locale_of, t

NAME = re.compile(r"^[-_\w]{1,32}$")


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_message_has_spanish_and_english_with_the_same_placeholders() -> None:
    for key, entry in MESSAGES.items():
        assert {"es", "en"} <= set(entry), key
        assert entry["es"].strip() and entry["en"].strip(), key
        assert fields(entry["es"]) == fields(entry["en"]), key


def test_t_picks_the_language_and_fills_placeholders() -> None:
    assert t("lobby.joined", "es-ES", id=7) == "Te has unido a la partida #7."
    assert t("lobby.joined", discord.Locale.latin_american_spanish, id=7).startswith("Te has")
    assert t("lobby.joined", "en-GB", id=7) == "You joined game #7."
    assert t("lobby.joined", discord.Locale.french, id=7) == "You joined game #7."


def test_unknown_locale_uses_the_configured_default() -> None:
    saved = i18n.DEFAULT_LOCALE
    try:
        i18n.set_default_locale("en")
        assert lang(None) == "en"
        i18n.set_default_locale("es")
        assert lang(None) == "es"
    finally:
        i18n.DEFAULT_LOCALE = saved


def test_locale_of_reads_the_users_discord_locale() -> None:
    spanish: Any = SimpleNamespace(locale=discord.Locale.spain_spanish)
    english: Any = SimpleNamespace(locale=discord.Locale.american_english)
    assert locale_of(spanish) == "es"
    assert locale_of(english) == "en"


@pytest.fixture
async def tree(tmp_path: Any) -> AsyncIterator[discord.app_commands.CommandTree[Any]]:
    bot = create_bot(Settings(token="unused", db_path=str(tmp_path / "t.db")))
    for ext in ("cogs.lobby", "cogs.rey_hierofante"):
        await bot.load_extension(ext)
    yield bot.tree
    await bot.close()


def walk(node: dict[str, Any], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    here = f"{path}/{node['name']}"
    yield here, node
    for option in node.get("options") or []:
        yield from walk(option, here)


async def payloads(tree: discord.app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    translator = Translator()
    return [await cmd.get_translated_payload(tree, translator) for cmd in tree.get_commands()]


async def test_every_command_and_option_has_a_spanish_name_and_description(tree: Any) -> None:
    for top in await payloads(tree):
        for path, node in walk(top):
            names = node.get("name_localizations") or {}
            assert NAME.match(node["name"]), path
            for locale in ("es-ES", "es-419"):
                assert NAME.match(names.get(locale, "")), (path, locale)
                if "description" in node:
                    desc = (node.get("description_localizations") or {}).get(locale, "")
                    assert 1 <= len(desc) <= 100, (path, locale, desc)
            # English speakers keep the default names
            assert "en-US" not in names and "en-GB" not in names, path
            for choice in node.get("choices") or []:
                assert choice.get("name_localizations", {}).get("es-ES"), (path, choice)


async def test_spanish_command_names(tree: Any) -> None:
    es = {path: node.get("name_localizations", {}).get("es-ES") for top in await payloads(tree) for path, node in walk(top)}
    assert es["/game"] == "partida"
    assert es["/game/new"] == "nueva"
    assert es["/game/status"] == "estado"
    assert es["/game/hand"] == "mano"
    assert es["/game/log"] == "registro"
    assert es["/game/abandon"] == "abandonar"
    assert es["/game/new/thread"] == "hilo"
    assert es["/rh/place"] == "colocar"
    assert es["/rh/place/tile"] == "loseta"
    assert es["/rh/place/square"] == "casilla"
    assert es["/rh/effect"] == "efecto"


async def test_game_choice_names_are_the_games_titles(tree: Any) -> None:
    top = next(p for p in await payloads(tree) if p["name"] == "game")
    new = next(o for o in top["options"] if o["name"] == "new")
    game = next(o for o in new["options"] if o["name"] == "game")
    rh = next(c for c in game["choices"] if c["value"] == "rey_hierofante")
    assert rh["name"] == "King & Hierophant"
    assert rh["name_localizations"]["es-ES"] == "Rey y Hierofante"


async def test_option_names_are_unique_in_spanish_too(tree: Any) -> None:
    for top in await payloads(tree):
        for path, node in walk(top):
            options = node.get("options") or []
            spanish = [o.get("name_localizations", {}).get("es-ES") for o in options]
            assert len(set(spanish)) == len(spanish), path


# The texts given a relative Discord timestamp (<t:…:R>), which Discord itself words in the
# reader's language: "in 12 hours", "dentro de 12 horas".
RELATIVE = ("card.due", "clock.reminder", "clock.reminders_line", "clock.reminder_channel", "mine.left",
            "turn.time_left")
DISCORD_SAYS = {"en": "in 12 hours", "es": "dentro de 12 horas"}
READS = {"en": re.compile(r"\btime runs out in 12 hours\b", re.I),
         "es": re.compile(r"\bse acaba (?:el|tu|su) tiempo dentro de 12 horas\b", re.I)}


@pytest.mark.parametrize("key", RELATIVE)
def test_a_deadline_reads_as_when_time_runs_out_in_both_languages(key: str) -> None:
    for locale, when in DISCORD_SAYS.items():
        said = t(key, locale, when=when, title="Ragami", id=1, channel="#x", who="ana", n=1)
        assert READS[locale].search(said), said  # never "time until in 12 hours"


def test_every_relative_timestamp_goes_to_a_text_that_reads_right() -> None:
    # the call sites giving a relative timestamp name only the texts checked above
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[2] / "cogs"
    keys: set[str] = set()
    for path in root.rglob("*.py"):
        for call in re.finditer(r'\bt\(\s*["\']([\w.]+)["\'](?:[^()]|\([^()]*\))*?(?::R>|timestamp\()',
                                path.read_text()):
            keys.add(call[1])
    assert keys == set(RELATIVE), keys ^ set(RELATIVE)
