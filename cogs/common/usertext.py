"""Text that users wrote (display names, tournament names), made inert for public messages."""

from __future__ import annotations

import re

import discord

# Mentions of any length of id (discord.py's escape_mentions knows only ids of 17-20 digits
# and @everyone/@here), role mentions, and the @everyone/@here words.
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>|@(everyone|here)\b")
# A link's scheme: "https://" shown as text, never made a link by Discord.
_LINK = re.compile(r"(?i)\b(https?)://")


def plain(text: str) -> str:
    """``text`` shown as written but inert: no Markdown, no masked or bare links, no mentions."""
    text = discord.utils.escape_markdown(text)
    text = _MENTION.sub(lambda m: f"<{m[1]}\u200b{m[2]}>" if m[2] else f"@\u200b{m[3]}", text)
    return _LINK.sub(lambda m: f"{m[1]}:\u200b//", text)


def small_number(text: str, below: int) -> int | None:
    """The whole number 0 <= n < ``below`` that ``text`` is, written in ASCII digits (None
    otherwise: "²", "٣", 5,000 digits, a sign, a space inside)."""
    text = text.strip()
    if not text or len(text) > len(str(below)) or not (text.isascii() and text.isdigit()):
        return None
    n = int(text)
    return n if n < below else None
