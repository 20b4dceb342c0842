"""Guerra de Mitos deck building in Discord: /gdm deck ... and /gdm search.

The commands live under the game's /gdm group: this cog adds its ``deck`` subgroup and
``search`` to the /gdm the game's cog owns, and makes a bare /gdm itself only when no cog
has one (so it must load after the game's cog). Every answer is private: no one sees
another player's decks before a game. The checks are the deck service's
(services/gdm_decks.py); this module only reads commands and draws answers.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n
from cogs.common.contexts import ANY_INSTALL, EVERYWHERE
from cogs.common.errors import reply, report
from cogs.common.gdm_deck_choices import (
    MYTHOLOGY_CHOICES,
    TYPE_CHOICES,
    addable_choices,
    deck_book,
    deck_name_choices,
    key_choices,
    pantheon_choices,
    removable_choices,
)
from cogs.common.gdm_deck_views import (
    WORDS,
    card_label,
    change_text,
    deck_embed,
    deck_file,
    parse_range,
    search_cards,
    search_embed,
    shown_card,
)
from cogs.common.i18n import locale_of
from cogs.common.limits import heavy
from cogs.common.present import COLOUR, clip
from rules.guerra_de_mitos.cards import Card
from rules.guerra_de_mitos.decks import is_legal
from services.gdm_decks import MAX_IMPORT_CHARS, find_card, row_deck

log = logging.getLogger("tablero.gdm_decks")

GDM_DESCRIPTION = "Guerra de Mitos (War of Myths) moves"


def word(key: str, locale: str, **fmt: object) -> str:
    """One of deck building's texts in the reader's language (the catalogue scan reads
    this module's own wrapper, so each module that words texts keeps one)."""
    return i18n.t("decks." + key, locale, **fmt)


# ----------------------------------------------------------------------------- Spanish names

# (their names in each language are catalogue entries with the contexts "command",
# "parameter" and "description": cogs/locale)


# ----------------------------------------------------------------------------- import modal


class ImportModal(discord.ui.Modal):
    """A long list (or a code) pasted into a box of many lines."""

    def __init__(self, name: str, locale: str) -> None:
        """A modal that imports into a new deck called ``name``."""
        super().__init__(title=clip(word("import_title", locale, name=name), 45), timeout=900)
        self.name = name
        self.text: discord.ui.TextInput[ImportModal] = discord.ui.TextInput(
            label=word("import_label", locale),
            style=discord.TextStyle.paragraph,
            placeholder=word("import_hint", locale),
            max_length=MAX_IMPORT_CHARS,
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Import what was pasted."""
        await _do_import(interaction, self.name, self.text.value)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        """Refusals and bugs go through the one funnel."""
        await report(interaction, error)


async def _do_import(interaction: discord.Interaction, name: str, text: str) -> None:
    locale = locale_of(interaction)
    async with heavy(interaction, "import"):
        change = await deck_book(interaction).import_deck(interaction.user.id, name, text)
    await reply(
        interaction,
        change_text(word("imported", locale, name=change.row.name), change, locale),
        ephemeral=True,
    )


# ----------------------------------------------------------------------------- /gdm deck


class DeckCommands(app_commands.Group):
    """The /gdm deck subcommands: every answer is private."""

    def __init__(self) -> None:
        """The ``deck`` subgroup, not yet attached to /gdm."""
        super().__init__(
            name="deck", description="Your Guerra de Mitos decks: build, check and share them"
        )

    @app_commands.command(name="create", description="Create an empty deck")
    @app_commands.describe(name="The deck's name")
    async def create(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 60]
    ) -> None:
        """A new, empty deck."""
        locale = locale_of(interaction)
        change = await deck_book(interaction).create(interaction.user.id, name)
        await reply(
            interaction,
            change_text(word("created", locale, name=change.row.name), change, locale),
            ephemeral=True,
        )

    @app_commands.command(name="rename", description="Give a deck a new name")
    @app_commands.describe(deck="Your deck", new_name="The new name")
    async def rename(
        self, interaction: discord.Interaction, deck: str, new_name: app_commands.Range[str, 1, 60]
    ) -> None:
        """Rename a deck."""
        locale = locale_of(interaction)
        old = (await deck_book(interaction).get(interaction.user.id, deck)).name
        change = await deck_book(interaction).rename(interaction.user.id, deck, new_name)
        await reply(
            interaction, word("renamed", locale, old=old, name=change.row.name), ephemeral=True
        )

    @app_commands.command(name="copy", description="Copy a deck under a new name")
    @app_commands.describe(deck="Your deck", new_name="The new name")
    async def copy(
        self, interaction: discord.Interaction, deck: str, new_name: app_commands.Range[str, 1, 60]
    ) -> None:
        """Copy a deck (to try a variant without losing the original)."""
        locale = locale_of(interaction)
        old = (await deck_book(interaction).get(interaction.user.id, deck)).name
        change = await deck_book(interaction).copy(interaction.user.id, deck, new_name)
        await reply(
            interaction,
            change_text(word("copied", locale, old=old, name=change.row.name), change, locale),
            ephemeral=True,
        )

    @app_commands.command(
        name="delete", description="Delete a deck (its code is shown, to get it back)"
    )
    @app_commands.describe(deck="Your deck")
    async def delete(self, interaction: discord.Interaction, deck: str) -> None:
        """Delete a deck; the answer carries its code, so it can be imported back."""
        locale = locale_of(interaction)
        book = deck_book(interaction)
        row, code, _ = await book.export(interaction.user.id, deck, locale)
        await book.delete(interaction.user.id, row.name)
        key = "deleted" if code and (row.cards or row.pantheon) else "deleted_plain"
        await reply(interaction, word(key, locale, name=row.name, code=code), ephemeral=True)

    @app_commands.command(
        name="add", description="Add cards to a deck (only cards that may go in it are offered)"
    )
    @app_commands.describe(
        deck="Your deck",
        card="The card, in Spanish or English",
        count="How many copies (1 by default)",
    )
    async def add(
        self,
        interaction: discord.Interaction,
        deck: str,
        card: str,
        count: app_commands.Range[int, 1, 99] = 1,
    ) -> None:
        """Add copies of a card; refused with the rule and the fix when it may not go in."""
        locale = locale_of(interaction)
        change = await deck_book(interaction).add(interaction.user.id, deck, card, count)
        c = _resolved(card)
        head = (
            word("pantheon_set", locale, name=change.row.name, card=c.display_name(locale))
            if c.type == "pantheon"
            else word("added", locale, name=change.row.name, n=count, card=c.display_name(locale))
        )
        await reply(interaction, change_text(head, change, locale), ephemeral=True)

    @app_commands.command(name="remove", description="Take cards out of a deck")
    @app_commands.describe(
        deck="Your deck",
        card="The card, in Spanish or English",
        count="How many copies (1 by default)",
    )
    async def remove(
        self,
        interaction: discord.Interaction,
        deck: str,
        card: str,
        count: app_commands.Range[int, 1, 99] = 1,
    ) -> None:
        """Take copies of a card out of a deck."""
        locale = locale_of(interaction)
        change = await deck_book(interaction).remove(interaction.user.id, deck, card, count)
        c = _resolved(card)
        head = (
            word("pantheon_cleared", locale, name=change.row.name)
            if c.type == "pantheon"
            else word("removed", locale, name=change.row.name, n=count, card=c.display_name(locale))
        )
        await reply(interaction, change_text(head, change, locale), ephemeral=True)

    @app_commands.command(name="pantheon", description="Set a deck's pantheon")
    @app_commands.describe(deck="Your deck", pantheon="The pantheon card")
    async def pantheon(self, interaction: discord.Interaction, deck: str, pantheon: str) -> None:
        """Set the pantheon (cards of another mythology are then listed to be taken out)."""
        locale = locale_of(interaction)
        change = await deck_book(interaction).set_pantheon(interaction.user.id, deck, pantheon)
        head = word(
            "pantheon_set",
            locale,
            name=change.row.name,
            card=shown_card(change.row.pantheon, locale),
        )
        await reply(interaction, change_text(head, change, locale), ephemeral=True)

    @app_commands.command(
        name="show", description="Show a deck: its cards, counts, cost curves and what it lacks"
    )
    @app_commands.describe(
        deck="Your deck", public="Show it in the channel too (otherwise only you see it)"
    )
    async def show(self, interaction: discord.Interaction, deck: str, public: bool = False) -> None:
        """A deck as an embed and a picture."""
        locale = locale_of(interaction)
        row = await deck_book(interaction).get(interaction.user.id, deck)
        await reply(
            interaction,
            embed=deck_embed(row, locale),
            files=[await deck_file(row, locale)],
            ephemeral=not public,
        )

    @app_commands.command(name="list", description="Your decks and whether each can be played")
    async def list_(self, interaction: discord.Interaction) -> None:
        """Every deck of the caller, marked playable or under construction."""
        locale = locale_of(interaction)
        rows = await deck_book(interaction).decks(interaction.user.id)
        if not rows:
            await reply(interaction, word("list_none", locale), ephemeral=True)
            return
        lines = []
        for r in rows:
            d = row_deck(r)
            god, design = d.size()
            lines.append(
                word(
                    "list_line",
                    locale,
                    mark="✅" if is_legal(d) else "🛠️",
                    name=r.name,
                    pantheon=shown_card(r.pantheon, locale),
                    god=god,
                    design=design,
                )
            )
        embed = discord.Embed(
            title=word("list_title", locale),
            description=clip("\n".join(lines), 4096),
            colour=COLOUR,
        )
        embed.set_footer(text=word("list_foot", locale))
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(
        name="export", description="Share a deck as a short code and as a plain list"
    )
    @app_commands.describe(deck="Your deck")
    async def export(self, interaction: discord.Interaction, deck: str) -> None:
        """The deck's share code and its plain list, in the caller's language."""
        locale = locale_of(interaction)
        row, code, listing = await deck_book(interaction).export(interaction.user.id, deck, locale)
        embed = discord.Embed(
            title=clip(word("export_title", locale, name=row.name), 256), colour=COLOUR
        )
        embed.add_field(
            name=word("export_code", locale),
            value=f"```\n{code}\n```" if code else word("export_no_code", locale),
            inline=False,
        )
        embed.description = clip(f"**{word('export_list', locale)}**\n```\n{listing}```", 4096)
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="import", description="Import a deck from a code or a list of cards")
    @app_commands.describe(
        name="The deck's name",
        text="A code, or a list like: 2 Axe; 1 Thor (leave empty to paste a long list)",
    )
    async def import_(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        text: str | None = None,
    ) -> None:
        """A new deck from a share code or a list; without text, a box to paste a long list."""
        if text is None or not text.strip():
            await interaction.response.send_modal(ImportModal(name, locale_of(interaction)))
            return
        await _do_import(interaction, name, text)

    _rename_ac = rename.autocomplete("deck")(deck_name_choices)
    _copy_ac = copy.autocomplete("deck")(deck_name_choices)
    _delete_ac = delete.autocomplete("deck")(deck_name_choices)
    _add_deck_ac = add.autocomplete("deck")(deck_name_choices)
    _add_card_ac = add.autocomplete("card")(addable_choices)
    _remove_deck_ac = remove.autocomplete("deck")(deck_name_choices)
    _remove_card_ac = remove.autocomplete("card")(removable_choices)
    _pantheon_deck_ac = pantheon.autocomplete("deck")(deck_name_choices)
    _pantheon_ac = pantheon.autocomplete("pantheon")(pantheon_choices)
    _show_ac = show.autocomplete("deck")(deck_name_choices)
    _export_ac = export.autocomplete("deck")(deck_name_choices)


def _resolved(card: str) -> Card:
    return find_card(card)


# ----------------------------------------------------------------------------- /gdm search


@app_commands.command(name="search", description="Search the 364 cards")
@app_commands.describe(
    name="Part of the card's name, in Spanish or English",
    mythology="Mythology",
    type="Card type",
    key="A key, like Batalla or Dios",
    cost="Cost: 3, 2-4, <=3 or >=5",
    strength="Strength: 3, 2-4, <=3 or >=5",
    text="Words of the card's text",
)
@app_commands.choices(mythology=MYTHOLOGY_CHOICES, type=TYPE_CHOICES)
async def search_command(
    interaction: discord.Interaction,
    name: str | None = None,
    mythology: str | None = None,
    type: str | None = None,
    key: str | None = None,
    cost: str | None = None,
    strength: str | None = None,
    text: str | None = None,
) -> None:
    """The cards matching every filter given, privately, in the caller's language."""
    locale = locale_of(interaction)
    found = search_cards(
        locale,
        name=name,
        mythology=mythology,
        type=type,
        key=key,
        cost=cost,
        strength=strength,
        text=text,
    )
    await reply(interaction, embed=search_embed(found, locale), ephemeral=True)


search_command.autocomplete("key")(key_choices)


# ----------------------------------------------------------------------------- the cog


class GdmDecks(commands.Cog):
    """Deck building under /gdm: the ``deck`` subgroup and ``search``."""

    def __init__(self, bot: commands.Bot) -> None:
        """The cog for ``bot``; its commands are attached to /gdm when it loads."""
        self.bot = bot
        self.deck_group = DeckCommands()
        self._parent: app_commands.Group | None = None
        self._own_parent = False

    async def cog_load(self) -> None:
        """Attach ``deck`` and ``search`` to /gdm (made here only if no cog owns one)."""
        parent = self.bot.tree.get_command("gdm")
        if parent is None:
            parent = app_commands.Group(name="gdm", description=GDM_DESCRIPTION,
                                        allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL)
            self.bot.tree.add_command(parent)
            self._own_parent = True
        if not isinstance(parent, app_commands.Group):
            raise RuntimeError("/gdm is a command, not a group: deck building cannot attach to it")
        parent.add_command(self.deck_group)
        parent.add_command(search_command)
        self._parent = parent

    async def cog_unload(self) -> None:
        """Take ``deck`` and ``search`` off /gdm again."""
        if self._parent is not None:
            self._parent.remove_command("deck")
            self._parent.remove_command("search")
            if self._own_parent:
                self.bot.tree.remove_command("gdm")
        self._parent = None


async def setup(bot: commands.Bot) -> None:
    """Load the deck-building cog and, on top of it, choosing decks for games and tournaments
    (discord.py extension entry point)."""
    from cogs.gdm_lobby import GdmLobbyCog

    await bot.add_cog(GdmDecks(bot))
    if getattr(bot, "session", None) is not None:  # a bot that hosts games
        await bot.add_cog(GdmLobbyCog(bot))


__all__ = [
    "WORDS", "DeckCommands", "GdmDecks", "card_label", "deck_embed", "parse_range", "search_cards",
    "search_command", "setup",
]
