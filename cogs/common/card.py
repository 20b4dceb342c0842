"""A game's card: its one living message, built for every game alike from its GameUI.

The card holds the picture, whose turn it is and when their time runs out, the last turn
told step by step (and the steps of the turn in play), the game's own fields and the
buttons. It stays within Discord's embed limits whatever a game's fields hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import discord

from cogs.common.i18n import t
from cogs.common.present import (
    EMBED_DESCRIPTION,
    EMBED_FIELD,
    GameUI,
    Rendered,
    clip,
    keep_newest,
    turn_lines,
)
from rules.core import Seat
from services.session import Game

# Discord's limits on one embed (all its texts together) and on its number of fields.
EMBED_TOTAL = 6000
EMBED_FIELDS = 25
# Kept free of the total for what Discord counts that this module does not see.
MARGIN = 16


@dataclass
class Story:
    """What the card tells of the game's recent past: the last turn that ended, every step
    of it, and the steps of the turn in play so far."""

    last: list[str] = field(default_factory=list)
    now: list[str] = field(default_factory=list)


def _size(embed: discord.Embed) -> int:
    """The characters Discord counts toward an embed's total."""
    return (len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "")
            + len(embed.author.name or "") + sum(len(f.name or "") + len(f.value or "") for f in embed.fields))


def turn_now(g: Game, locale: str, due: Mapping[Seat, float]) -> list[str]:
    """Who must act now (each with their time left, as a Discord timestamp every reader sees
    in their own time zone), or how the game ended."""
    lines = turn_lines(g, locale)
    if g.status != "active" or g.state is None or g.state.finished:
        return lines
    pending = sorted(g.pending())
    if len(lines) != len(pending):
        return lines
    return [f"{line} {t('card.due', locale, when=f'<t:{int(due[seat])}:R>')}" if seat in due else line
            for line, seat in zip(lines, pending, strict=True)]


def card(ui: GameUI, g: Game, story: Story, locale: str, png: bytes | None = None, *,
         due: Mapping[Seat, float] | None = None,
         extra: Sequence[tuple[str, str, bool]] = ()) -> Rendered:
    """The card of ``g``: the game's board (title, fields, picture, footer) with the story
    and whose turn it is in its description; ``due``: each pending seat's deadline;
    ``extra``: fields the platform adds (who is on vacation)."""
    rendered = ui.board(g, [], locale, png)
    embed = rendered.embed
    for name, value, inline in extra:
        embed.add_field(name=name, value=clip(value, EMBED_FIELD), inline=inline)
    while len(embed.fields) > EMBED_FIELDS:
        embed.remove_field(EMBED_FIELDS)
    embed.description = None
    # The game's fields first, then the description gets what is left of the total: the
    # turn lines whole, the story losing its oldest lines.
    while _size(embed) > EMBED_TOTAL - MARGIN - 200 and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    room = min(EMBED_DESCRIPTION, EMBED_TOTAL - MARGIN - _size(embed))
    turn = "\n".join(turn_now(g, locale, due or {}))
    parts: list[tuple[str, list[str]]] = []
    if story.last:
        parts.append((t("card.last_turn", locale), story.last))
    if story.now:
        parts.append((t("card.this_turn", locale), story.now))
    left = room - len(turn)
    told: list[str] = []
    # The turn in play is newer than the last turn: it keeps its room first. Each part
    # costs its bold title, a line break and the blank line before what follows.
    for title, lines in reversed(parts):
        fixed = len(title) + 5 + 2
        if left - fixed < 40:
            break
        body = keep_newest(lines, left - fixed)
        told.insert(0, f"**{title}**\n{body}")
        left -= fixed + len(body)
    embed.description = clip("\n\n".join([*told, turn] if turn else told), room) or None
    return rendered
