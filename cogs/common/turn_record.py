"""What a turn's message says: the lines of a change, the message of a turn that passes
(the turn that ended, then who acts now), and what a change's delivery is told by the code
that made it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from cogs.common.card import keep_newest
from cogs.common.escalation import timeout_line
from cogs.common.i18n import t
from cogs.common.present import CONTENT, clip, turn_lines
from services.session import Game, MoveResult

# How many of a game's newest owed messages are read to find the turn in play; and how
# many lines of a turn are kept (the card and the turn message show the newest).
STORY_ROWS = 200
STORY_LINES = 60


def allowed_users(user_ids: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that notify exactly these users (never roles or @everyone)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False,
        users=[discord.Object(id=u) for u in dict.fromkeys(user_ids)],
    )


def timestamp(ts: float, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in their own time zone."""
    return f"<t:{int(ts)}:{style}>"


def change_lines(g: Game, result: MoveResult, locale: str) -> list[str]:
    """What a change did, as lines that read on their own: what caused it (clock, undo),
    then each player's moves (the steps of one choice on one line)."""
    from cogs.common.choices import announcement

    lines: list[str] = []
    if result.timed_out is not None:
        lines.append(timeout_line(g, result, locale))
    if result.undone is not None:
        name = g.seat_row(result.steps[0].seat).name if result.steps else "?"
        lines.append(t("undo.done", locale, name=name, seq=result.undone))
    said = announcement(g, result, locale)
    turn = "\n".join(turn_lines(g, locale))
    if turn and said.endswith("\n" + turn):
        said = said[: -len(turn) - 1]
    elif turn and said == turn:
        said = ""
    # each step a line of its own, so a long change loses its oldest steps first, not its end
    return [line for line in [*lines, *said.split("\n")] if line]


def record(story: Sequence[str], g: Game, locale: str, limit: int = CONTENT) -> str:
    """The message of a turn that passes: the turn that ended, step by step (its oldest
    steps go first when it is long), then who acts now (whole: it holds the pings)."""
    turn = "\n".join(turn_lines(g, locale))
    room = limit - len(turn) - 1 if turn else limit
    body = keep_newest(story, room) if room > 2 else ""
    return clip("\n".join(part for part in (body, turn) if part), limit)


async def told_so_far(store: Any, game: int) -> tuple[list[str], list[str]]:
    """What the game's last turn message told (its story), and the steps folded since then
    into the card (the turn in play so far), from the outbox's newest rows."""
    now: list[str] = []
    for row in await store.recent_messages(game, ("board", "record"), limit=STORY_ROWS):
        if row.kind == "record":
            return list(row.payload.get("story") or []), now
        now[:0] = row.payload.get("turn") or []
    return [], now


@dataclass
class Context:
    """What the code that made a change passes to its delivery: the interaction to answer
    (with the record), whether the board is posted anew below (a game's start), whether
    the start's lobby message already shows the game started (edited as the answer to its
    Start button), and whether whoever acted was already told of a missing permission."""

    interaction: discord.Interaction | None = None
    board_repost: bool = False
    lobby_shown: bool = False
    told: bool = False
    # The turn's message went out as the card itself (posted anew, up to date): the
    # change's board needs no edit of its own.
    carded: bool = False
