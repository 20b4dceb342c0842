"""Every message of the Discord side in the user's language, read from the gettext
catalogues in cogs/locale (see cogs/common/catalogue.py and docs/translating.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from pydantic import ConfigDict

from cogs.common.catalogue import SOURCE, Entries, Names, catalogues
from cogs.common.catalogue import names as catalogue_names
from rules.catalogue import resolve
from rules.core import Text

DEFAULT_LOCALE = "es"

# The catalogues seen as the tables this module used to hold, for code that reads them:
# MESSAGES[key] is {language: text}; the *_ES tables map English names to Spanish ones.
MESSAGES = Entries()
COMMAND_NAMES_ES = Names("command", "es")
PARAMETER_NAMES_ES = Names("parameter", "es")
DESCRIPTIONS_ES = Names("description", "es")
CHOICES_ES = Names("choice", "es")


def _resolve(value: str) -> str | None:
    # "es-ES", "es_419", "pt-BR": the language's own catalogue if there is one ("pt_BR"),
    # else its base language's ("es", "pt"), else None.
    return resolve(value, catalogues().languages)


def set_default_locale(locale: str) -> None:
    """Choose the language used where no user locale is known (TABLERO_LOCALE)."""
    global DEFAULT_LOCALE
    DEFAULT_LOCALE = _resolve(locale) or SOURCE


def lang(locale: str | discord.Locale | None) -> str:
    """The catalogue language for a Discord locale ("es" for any Spanish, "en" for a
    language without a catalogue); the configured default when none is known."""
    if locale is None:
        return DEFAULT_LOCALE
    value = locale.value if isinstance(locale, discord.Locale) else str(locale)
    return _resolve(value) or SOURCE


def t(key: str, locale: str | discord.Locale | None, /, **fmt: Any) -> str:
    """The message ``key`` in ``locale``, with ``fmt`` filled in."""
    text = catalogues().gettext(lang(locale), key)
    return text.format(**fmt) if fmt else text


def tn(key: str, n: int, locale: str | discord.Locale | None, /, **fmt: Any) -> str:
    """The message ``key`` in the form ``locale`` uses for ``n`` things (its catalogue's
    Plural-Forms), with ``n`` and ``fmt`` filled in."""
    text = catalogues().ngettext(lang(locale), key, n)
    return text.format(n=n, **fmt)


def count(noun: str, n: int, locale: str | discord.Locale | None, /) -> str:
    """``n`` things in ``locale``'s plural form: count("cards", 1, "es") is "1 carta"."""
    return tn("count." + noun, n, locale)


class Said(Text):
    """One of the Discord side's own messages as a rules Text, for the refusals the cogs
    raise as RuleErrors: its words are chosen when it is shown, in the reader's language.
    Never stored (it holds a function), only raised and shown."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    words: Callable[[str], str]

    def get(self, locale: str | None) -> str:
        """The message in ``locale``'s language."""
        return self.words(lang(locale))


def said(key: str, /, **fmt: Any) -> Said:
    """The message ``key`` as a Text (to raise in a RuleError); a value in ``fmt`` may be a
    Text, or a function giving the value in a language ("es", "en", ...)."""

    def words(language: str) -> str:
        values = {k: v.get(language) if isinstance(v, Text) else v(language) if callable(v) else v
                  for k, v in fmt.items()}
        return t(key, language, **values)

    return Said(words=words, m=key)


def text_choice(title: Text, value: str) -> app_commands.Choice[str]:
    """A slash command's choice named by a rules Text (a game's title), in every catalogue
    language (the Translator gives each its own)."""
    extras = {language: title.get(language) for language in catalogues().languages if language != SOURCE}
    return app_commands.Choice(name=app_commands.locale_str(title.get(SOURCE), **extras), value=value)


def names(items: list[str], locale: str | discord.Locale | None, /) -> str:
    """Names joined as ``locale`` joins a list: "Ana, Bea y Carl", "Ana, Bea and Carl"."""
    return catalogue_names(items, lang(locale))


def locale_of(interaction: discord.Interaction) -> str:
    """The catalogue language of the user behind ``interaction`` ("es", "en", ...)."""
    return lang(interaction.locale)


def public_locale(interaction: discord.Interaction, server: str | None, chosen: str | None = None) -> str:
    """The language of a new game's (or tournament's) public messages: the host's choice,
    else the server's (set with /config, else its Discord language), and only where
    neither is known (a DM) the host's own."""
    if chosen:
        return chosen
    if server:
        return server
    if interaction.guild_locale is not None:
        return lang(interaction.guild_locale)
    return locale_of(interaction)


_CONTEXT = {
    app_commands.TranslationContextLocation.command_name: "command",
    app_commands.TranslationContextLocation.group_name: "command",
    app_commands.TranslationContextLocation.parameter_name: "parameter",
    app_commands.TranslationContextLocation.choice_name: "choice",
    app_commands.TranslationContextLocation.command_description: "description",
    app_commands.TranslationContextLocation.group_description: "description",
    app_commands.TranslationContextLocation.parameter_description: "description",
}


class Translator(app_commands.Translator):
    """Gives commands, options, descriptions and choices their names in each catalogue
    language (English, the names in the code, stays the default)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        """The name of ``string`` in ``locale``'s catalogue; None (keep English) otherwise."""
        language = _resolve(locale.value)
        where = _CONTEXT.get(context.location)
        if language is None or language == SOURCE or where is None:
            return None
        if where == "choice" and string.extras.get(language):
            # choices built from the games' own titles carry their translations along
            return str(string.extras[language])
        return catalogues().text(language, string.message, where)
