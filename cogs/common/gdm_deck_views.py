"""What Guerra de Mitos deck building shows: a deck as an embed and a picture, the lines
after a change (sizes, problems), search results, and the search's own parsing."""

from __future__ import annotations

import asyncio
import io
import re

import discord

from cogs.common import i18n
from cogs.common.catalogue import Pairs
from cogs.common.i18n import said
from cogs.common.present import COLOUR, clip
from cogs.pictures.gdm_deck import render_deck
from cogs.pictures.pool import render
from rules.guerra_de_mitos.card_search import search, stats_line
from rules.guerra_de_mitos.cards import Card, cards, fold, key_id
from rules.guerra_de_mitos.decks import (
    DESIGN_DECK_MIN,
    GOD_DECK_MIN,
    Deck,
    DeckProblem,
    validate,
)
from services.gdm_decks import Change, DeckRefusal, row_deck
from storage.decks import DeckRow

SEARCH_SHOWN = 25  # cards listed by a search
PROBLEMS_SHOWN = 6  # problems listed after a change
EMBED_TOTAL = 6000  # characters Discord accepts in one embed

# Texts of this cog: catalogue ids "decks.<key>" (cogs/locale); WORDS reads them as pairs.
WORDS = Pairs("decks.")

def word(key: str, locale: str, **fmt: object) -> str:
    """One of this cog's texts in the reader's language."""
    return i18n.t("decks." + key, locale, **fmt)


def card_label(c: Card, locale: str) -> str:
    """A card as an autocomplete entry: its name, the other name a player may know it by,
    and its numbers."""
    name = c.display_name(locale)
    # the other name: the printed cards' Spanish one, or English where that is the reader's
    other = c.name if name != c.name else c.name_en
    shown = name if fold(other) == fold(name) else f"{name} · {other}"
    return clip(f"{shown} ({stats_line(c, locale)})", 100)


def shown_card(cid: str | None, locale: str) -> str:
    """A card's name in the reader's language, from its id (the id itself if unknown)."""
    c = cards().get(cid or "")
    return c.display_name(locale) if c is not None else (cid or word("none", locale))


def sizes_line(deck: Deck, locale: str) -> str:
    """The pantheon and how full each of the two decks is."""
    god, design = deck.size()
    return word(
        "sizes",
        locale,
        pantheon=shown_card(deck.pantheon, locale),
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
        [f"{k} × {shown_card(cid, locale)}" for cid, k in part.items()] or [word("empty", locale)]
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
