"""Autocomplete for deck building: the player's decks, the cards a deck may take or give up,
pantheons, keywords, mythologies and card types."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.common import i18n
from cogs.common.gdm_deck_views import card_label
from cogs.common.i18n import locale_of
from cogs.common.present import clip
from rules.catalogue import SOURCE, catalogues
from rules.guerra_de_mitos.card_search import search_names
from rules.guerra_de_mitos.cards import (
    KEYS,
    MYTHOLOGY_NAME,
    TYPE_NAME,
    card_name,
    cards,
    fold,
    spellings,
)
from services.gdm_decks import DeckBook, can_add_count, row_deck
from storage.decks import DeckRow

log = logging.getLogger("tablero.gdm_decks")

MENU_SIZE = 25  # answers of an autocomplete


def word(key: str, locale: str, **fmt: object) -> str:
    """One of deck building's texts in the reader's language (the catalogue scan reads
    this module's own wrapper, so each module that words texts keeps one)."""
    return i18n.t("decks." + key, locale, **fmt)


def deck_book(interaction: discord.Interaction) -> DeckBook:
    """The deck service over the bot's store."""
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
        rows = await deck_book(interaction).decks(interaction.user.id)
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
    return await deck_book(interaction).store.find_deck(interaction.user.id, name) if name else None


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
