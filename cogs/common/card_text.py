"""What a card's message text says, kept true.

A card posted when the turn's message would have buried it carries that message as its
text: the turn that ended, then who must act now (with the pings, which notify only when
the message is created). Once the turn moves on, that "who acts now" is false: the card's
next edit writes its text again with the turn that ended alone. An edit notifies nobody
(Discord rebuilds an edited message's mentions from the edit's ``allowed_mentions``, and
card edits allow none), so this costs no new message and re-pings no one.

A card this process did not post (one from before a restart, or an upgrade's, whose text
may be an old ping line) is read once, at its first edit, and kept true from then on.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from cogs.common.present import turn_lines
from services.session import Game

log = logging.getLogger("tablero.board")

# How many of a game's newest turn messages are looked through to recognise a card's text.
RECORDS_LOOKED_AT = 50
_MENTION = re.compile(r"<@!?\d+>")


def split_told(text: str, turn: str | None, story: list[str] | None = None) -> tuple[str, str]:
    """A turn's message as (the turn that ended, who acts now): by its ``turn`` lines when
    known, else after the last line of its ``story``; else its trailing lines that
    mention someone (an old ping line, say) are taken for who acts now."""
    if turn and text.endswith(turn):
        return text[: -len(turn)].rstrip("\n"), turn
    if story:
        end = text.rfind(story[-1])
        if end >= 0:
            end += len(story[-1])
            return text[:end], text[end:].strip("\n")
    lines = text.split("\n")
    while lines and _MENTION.search(lines[-1]):
        lines.pop()
    body = "\n".join(lines)
    return body, text[len(body):].strip("\n")


class CardTexts:
    """Per card message: the turn that ended it tells, and the "who acts now" lines it
    still carries ("" once they are gone, or when it carries none)."""

    def __init__(self) -> None:
        self._told: dict[int, tuple[str, str]] = {}

    def posted(self, message_id: int, text: str | None, turn: str | None = None,
               story: list[str] | None = None) -> None:
        """A card was posted with ``text`` (a turn's message whose who-acts-now lines are
        ``turn``; None or empty: no text)."""
        self._told[message_id] = split_told(text, turn, story) if text else ("", "")

    def forget(self, message_id: int) -> None:
        """The card is no longer the game's card."""
        self._told.pop(message_id, None)

    async def content(self, g: Game, message_id: int, channel: discord.PartialMessageable,
                      store: Any) -> str | None:
        """The text a card's edit must write so that it stays true, or None to leave it as
        it is (no text, or its who-acts-now lines are still true)."""
        told = self._told.get(message_id)
        if told is None:
            told = self._told[message_id] = await self._read(g, message_id, channel, store)
        body, turn = told
        if not turn or turn == "\n".join(turn_lines(g, g.locale)):
            return None
        self._told[message_id] = (body, "")
        return body

    @staticmethod
    async def _read(g: Game, message_id: int, channel: discord.PartialMessageable,
                    store: Any) -> tuple[str, str]:
        """A card this process did not post: its text, split as the turn's message it is
        (found among the game's newest turn messages) or read as above."""
        try:
            text = (await channel.fetch_message(message_id)).content
        except discord.HTTPException:
            log.info("game %s: could not read card %s's text", g.id, message_id)
            return "", ""
        if not text:
            return "", ""
        for row in await store.recent_messages(g.id, ("record",), limit=RECORDS_LOOKED_AT):
            if row.payload.get("text") == text:
                return split_told(text, row.payload.get("turn"), list(row.payload.get("story") or []))
        return split_told(text, None)
