"""Guerra de Mitos deck building in Discord: /gdm deck ... and /gdm search.

The commands live under the game's /gdm group: this cog adds its ``deck`` subgroup and
``search`` to the /gdm the game's cog owns, and makes a bare /gdm itself only when no cog
has one (so it must load after the game's cog). Every answer is private: no one sees
another player's decks before a game. The checks are the deck service's
(services/gdm_decks.py); this module only reads commands and draws answers.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n
from cogs.common.catalogue import Pairs
from cogs.common.errors import reply, report
from cogs.common.i18n import locale_of, said
from cogs.common.present import COLOUR, clip
from cogs.pictures.gdm_deck import render_deck
from cogs.pictures.pool import render
from rules.catalogue import SOURCE, catalogues
from rules.guerra_de_mitos.card_search import search, search_names, stats_line
from rules.guerra_de_mitos.cards import (
    KEYS,
    MYTHOLOGY_NAME,
    TYPE_NAME,
    Card,
    card_name,
    cards,
    fold,
    key_id,
    spellings,
)
from rules.guerra_de_mitos.decks import (
    DESIGN_DECK_MIN,
    GOD_DECK_MIN,
    Deck,
    DeckProblem,
    is_legal,
    validate,
)
from services.gdm_decks import Change, DeckBook, DeckRefusal, can_add_count, find_card, row_deck
from storage.decks import DeckRow

log = logging.getLogger("tablero.gdm_decks")

MENU_SIZE = 25  # answers of an autocomplete
SEARCH_SHOWN = 25  # cards listed by a search
PROBLEMS_SHOWN = 6  # problems listed after a change
EMBED_TOTAL = 6000  # characters Discord accepts in one embed
GDM_DESCRIPTION = "Guerra de Mitos (War of Myths) moves"

# Texts of this cog: catalogue ids "decks.<key>" (cogs/locale); WORDS reads them as pairs.
WORDS = Pairs("decks.")

def word(key: str, locale: str, **fmt: object) -> str:
    """One of this cog's texts in the reader's language."""
    return i18n.t("decks." + key, locale, **fmt)


# ----------------------------------------------------------------------------- Spanish names

# (their names in each language are catalogue entries with the contexts "command",
# "parameter" and "description": cogs/locale)


# ----------------------------------------------------------------------------- drawing answers


def card_label(c: Card, locale: str) -> str:
    """A card as an autocomplete entry: its name, the other name a player may know it by,
    and its numbers."""
    name = c.display_name(locale)
    # the other name: the printed cards' Spanish one, or English where that is the reader's
    other = c.name if name != c.name else c.name_en
    shown = name if fold(other) == fold(name) else f"{name} · {other}"
    return clip(f"{shown} ({stats_line(c, locale)})", 100)


def _card_name(cid: str | None, locale: str) -> str:
    c = cards().get(cid or "")
    return c.display_name(locale) if c is not None else (cid or word("none", locale))


def sizes_line(deck: Deck, locale: str) -> str:
    """The pantheon and how full each of the two decks is."""
    god, design = deck.size()
    return word(
        "sizes",
        locale,
        pantheon=_card_name(deck.pantheon, locale),
        god=god,
        god_min=GOD_DECK_MIN,
        design=design,
        design_min=DESIGN_DECK_MIN,
    )


def problems_text(problems: list[DeckProblem], locale: str, limit: int = PROBLEMS_SHOWN) -> str:
    """What the deck still breaks, with the fixes; or that it is legal."""
    if not problems:
        return word("legal", locale)
    lines = [word("todo", locale)]
    lines += [f"• {p.text.get(locale)}" for p in problems[:limit]]
    if len(problems) > limit:
        lines.append(word("more_problems", locale, n=len(problems) - limit))
    return "\n".join(lines)


def change_text(head: str, change: Change, locale: str) -> str:
    """The answer to a change: what was done, the sizes, and what the deck still lacks."""
    return clip(
        "\n".join([head, sizes_line(change.deck, locale), problems_text(change.problems, locale)]),
        2000,
    )


def _chunks(lines: list[str], limit: int = 1024) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line[:limit])
    return out


def deck_embed(row: DeckRow, locale: str) -> discord.Embed:
    """A deck as an embed: pantheon and sizes, what it lacks, and its cards by deck (a
    deck too long for one embed ends with how many lines are left out)."""
    deck = row_deck(row)
    embed = discord.Embed(
        title=clip(row.name, 256),
        description=clip(
            sizes_line(deck, locale) + "\n" + problems_text(validate(deck), locale, 10), 2000
        ),
        colour=COLOUR,
    )
    # Discord refuses an embed over 6000 characters in all: keep room for the field names.
    budget = EMBED_TOTAL - len(embed.title or "") - len(embed.description or "") - 200
    god, design = deck.size()
    parts = [("god_deck", deck.god, god), ("design_deck", deck.design, design)]
    lines_by_part = [
        [f"{k} × {_card_name(cid, locale)}" for cid, k in part.items()] or [word("empty", locale)]
        for _, part, _ in parts
    ]
    total = sum(len(line) + 1 for lines in lines_by_part for line in lines)
    if total > budget:
        kept: list[list[str]] = []
        left = budget - 60
        for lines in lines_by_part:
            take = []
            for line in lines:
                if left - len(line) - 1 < 0:
                    break
                take.append(line)
                left -= len(line) + 1
            kept.append(take)
        dropped = sum(len(a) - len(b) for a, b in zip(lines_by_part, kept, strict=True))
        kept[-1].append(i18n.tn("decks.more_lines", dropped, locale))
        lines_by_part = kept
    for (key, _, n), lines in zip(parts, lines_by_part, strict=True):
        for i, chunk in enumerate(_chunks(lines)):
            name = (
                word(key, locale, n=n)
                if i == 0
                else f"{word(key, locale, n=n)} {word('cont', locale)}"
            )
            embed.add_field(name=name, value=chunk, inline=True)
    embed.set_image(url="attachment://deck.png")
    return embed


async def deck_file(row: DeckRow, locale: str) -> discord.File:
    """The deck's picture as an attachment (drawn off the event loop, in the picture workers
    when the bot has them)."""
    png = await asyncio.to_thread(render, render_deck, row_deck(row), row.name, locale)
    return discord.File(io.BytesIO(png), filename="deck.png")


_RANGE = re.compile(r"^\s*(<=|>=|<|>)?\s*(\d{1,2})\s*(?:-\s*(\d{1,2}))?\s*$")


def parse_range(value: str | None) -> int | tuple[int, int] | None:
    """A typed cost or strength: "3", "2-4", "<=3", ">=5" (ValueError when it is none of them)."""
    if value is None or not value.strip():
        return None
    m = _RANGE.match(value)
    if m is None or (m.group(1) and m.group(3)):
        raise ValueError(value)
    op, lo, hi = m.group(1), int(m.group(2)), m.group(3)
    if hi is not None:
        return (min(lo, int(hi)), max(lo, int(hi)))
    return {None: lo, "<=": (0, lo), "<": (0, lo - 1), ">=": (lo, 99), ">": (lo + 1, 99)}[op]


def search_cards(
    locale: str,
    *,
    name: str | None = None,
    mythology: str | None = None,
    type: str | None = None,
    key: str | None = None,
    cost: str | None = None,
    strength: str | None = None,
    text: str | None = None,
) -> list[Card]:
    """The cards matching every filter given; DeckRefusal for a malformed range or key."""
    bounds = {}
    for label, value in (("cost", cost), ("strength", strength)):
        try:
            bounds[label] = parse_range(value)
        except ValueError:
            raise DeckRefusal(said("decks.bad_range", value=clip(value or "", 40))) from None
    if key is not None and key.strip():
        if key_id(key) is None:
            raise DeckRefusal(said("decks.bad_key", value=clip(key, 40)))
    return search(
        name=name or None,
        mythology=mythology or None,
        type=type or None,
        key=(key or "").strip() or None,
        cost=bounds["cost"],
        strength=bounds["strength"],
        text=text or None,
    )


def search_embed(found: list[Card], locale: str) -> discord.Embed:
    """Search results, one line each: name and numbers."""
    if not found:
        return discord.Embed(description=word("search_none", locale), colour=COLOUR)
    lines = [
        f"**{c.display_name(locale)}** — {stats_line(c, locale)}" for c in found[:SEARCH_SHOWN]
    ]
    if len(found) > SEARCH_SHOWN:
        lines.append(word("search_more", locale, n=len(found) - SEARCH_SHOWN))
    return discord.Embed(
        title=i18n.tn("decks.search_title", len(found), locale),
        description=clip("\n".join(lines), 4096),
        colour=COLOUR,
    )


def _book(interaction: discord.Interaction) -> DeckBook:
    store = getattr(interaction.client, "store", None)
    if store is None:
        raise RuntimeError("the bot has no store")
    return DeckBook(store)


async def deck_name_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the caller's decks whose name contains what is typed."""
    try:
        q = fold(current)
        rows = await _book(interaction).decks(interaction.user.id)
        return [
            app_commands.Choice(name=clip(r.name, 100), value=r.name[:100])
            for r in rows
            if q in fold(r.name)
        ][:MENU_SIZE]
    except Exception:
        log.exception("deck autocomplete failed")
        return []


async def _typed_deck(interaction: discord.Interaction) -> DeckRow | None:
    name = str(getattr(interaction.namespace, "deck", "") or "")
    return await _book(interaction).store.find_deck(interaction.user.id, name) if name else None


async def addable_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for add: cards named like what is typed (either language) that may go
    in this deck now, one copy or the copies asked for."""
    try:
        locale = locale_of(interaction)
        row = await _typed_deck(interaction)
        if row is None:
            return [app_commands.Choice(name=word("ac_no_deck", locale), value="-")]
        deck = row_deck(row)
        count = getattr(interaction.namespace, "count", None) or 1
        out = []
        for c in search_names(current, locale, limit=len(cards())):
            if can_add_count(deck, c.id, int(count)):
                out.append(app_commands.Choice(name=card_label(c, locale), value=c.id))
                if len(out) == MENU_SIZE:
                    break
        return out
    except Exception:
        log.exception("card autocomplete failed")
        return []


async def removable_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for remove: the cards in this deck (and its pantheon) named like what is typed."""
    try:
        locale = locale_of(interaction)
        row = await _typed_deck(interaction)
        if row is None:
            return [app_commands.Choice(name=word("ac_no_deck", locale), value="-")]
        q = fold(current)
        ids = ([row.pantheon] if row.pantheon in cards() else []) + [
            c for c in row.cards if c in cards()
        ]
        out = []
        for cid in ids:
            c = cards()[cid]
            if any(q in fold(n) for n in spellings(card_name(cid))):
                have = row.cards.get(cid, 1)
                out.append(
                    app_commands.Choice(
                        name=clip(f"{have} × {card_label(c, locale)}", 100), value=cid
                    )
                )
        return out[:MENU_SIZE]
    except Exception:
        log.exception("card autocomplete failed")
        return []


async def pantheon_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the pantheon cards named like what is typed."""
    locale = locale_of(interaction)
    q = fold(current)
    return [
        app_commands.Choice(name=card_label(c, locale), value=c.id)
        for c in cards().values()
        if c.type == "pantheon" and any(q in fold(n) for n in spellings(card_name(c.id)))
    ][:MENU_SIZE]


async def key_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the keys, in the reader's language."""
    locale = locale_of(interaction)
    q = fold(current)
    out = []
    for kid, t in KEYS.items():
        if any(q in fold(n) for n in spellings(t)):
            out.append(app_commands.Choice(name=t.get(locale), value=kid))
    return out[:MENU_SIZE]


def _choices(
    table: dict[str, object], exclude: tuple[str, ...] = ()
) -> list[app_commands.Choice[str]]:
    out = []
    for ident, t in table.items():
        if ident in exclude:
            continue
        # the name in every language of the rules' catalogues travels with the choice
        names = {lang: t.get(lang) for lang in catalogues().languages if lang != SOURCE}  # type: ignore[attr-defined]
        out.append(app_commands.Choice(name=app_commands.locale_str(t.get(SOURCE), **names), value=ident))  # type: ignore[attr-defined]
    return out


MYTHOLOGY_CHOICES = _choices(MYTHOLOGY_NAME)  # type: ignore[arg-type]
TYPE_CHOICES = _choices(TYPE_NAME)  # type: ignore[arg-type]


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
            max_length=4000,
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
    change = await _book(interaction).import_deck(interaction.user.id, name, text)
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
        change = await _book(interaction).create(interaction.user.id, name)
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
        old = (await _book(interaction).get(interaction.user.id, deck)).name
        change = await _book(interaction).rename(interaction.user.id, deck, new_name)
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
        old = (await _book(interaction).get(interaction.user.id, deck)).name
        change = await _book(interaction).copy(interaction.user.id, deck, new_name)
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
        book = _book(interaction)
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
        change = await _book(interaction).add(interaction.user.id, deck, card, count)
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
        change = await _book(interaction).remove(interaction.user.id, deck, card, count)
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
        change = await _book(interaction).set_pantheon(interaction.user.id, deck, pantheon)
        head = word(
            "pantheon_set",
            locale,
            name=change.row.name,
            card=_card_name(change.row.pantheon, locale),
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
        row = await _book(interaction).get(interaction.user.id, deck)
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
        rows = await _book(interaction).decks(interaction.user.id)
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
                    pantheon=_card_name(r.pantheon, locale),
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
        row, code, listing = await _book(interaction).export(interaction.user.id, deck, locale)
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
            parent = app_commands.Group(name="gdm", description=GDM_DESCRIPTION, guild_only=True)
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
