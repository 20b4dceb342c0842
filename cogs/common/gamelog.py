"""The game's log for a reader: timestamped lines that read on their own, in pages."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.common import services
from cogs.common.errors import guard
from cogs.common.i18n import locale_of, t
from cogs.common.present import COLOUR, EMBED_DESCRIPTION, clip, event_lines, said_by
from cogs.common.usertext import plain
from rules.core import Seat
from services.session import Game, LogLine

# Lines per page: a page must fit an embed description with room to spare.
PAGE_LINES = 15


def log_line(g: Game, line: LogLine, viewer: Seat | None, locale: str) -> str:
    """One move as ``viewer`` may read it: number, time, who, what (never a bare seat number)."""
    name = plain(g.seat_row(line.seat).name)
    when = f"<t:{int(line.at)}:f>" if line.at else ""
    if line.undoes is not None:
        what = t("undo.done", locale, name=name, seq=line.undoes)
    else:
        what = said_by(g, line.seat, event_lines(line.events, locale, viewer, g=g), locale)
    return clip(f"`{line.seq:>3}` {when} {what}".replace("  ", " "), 600)


def pages(lines: list[str]) -> list[list[str]]:
    """Split lines into pages that each fit one embed."""
    out: list[list[str]] = []
    current: list[str] = []
    size = 0
    for line in lines:
        if current and (len(current) >= PAGE_LINES or size + len(line) + 1 > EMBED_DESCRIPTION - 200):
            out.append(current)
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current or not out:
        out.append(current)
    return out


async def render_log(session: Any, g: Game, viewer: Seat | None, locale: str,
                          page: int | None) -> dict[str, Any]:
    """The log page ``page`` (None: the newest) of ``g`` as ``viewer`` may read it."""
    lines = [log_line(g, line, viewer, locale) for line in await session.replay(g.id, viewer)]
    split = pages(lines)
    n = len(split)
    index = n - 1 if page is None else max(0, min(page, n - 1))
    body = "\n".join(split[index]) or t("log.empty", locale)
    embed = discord.Embed(title=t("log.title", locale, id=g.id), description=body, colour=COLOUR)
    embed.set_footer(text=t("log.page", locale, page=index + 1, pages=n))
    view = discord.ui.View(timeout=None)
    view.add_item(LogButton(g.id, index - 1, t("btn.prev", locale), disabled=index == 0))
    view.add_item(LogButton(g.id, index + 1, t("btn.next", locale), disabled=index >= n - 1))
    return {"embed": embed, "view": view}


class LogButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tablero:log:(?P<game>\d+):(?P<page>-?\d+)"):
    """Earlier / later page of a game's log; the page is drawn for whoever presses it."""

    def __init__(self, game: int, page: int, label: str = "·", *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.secondary,
            custom_id=f"tablero:log:{game}:{page}", disabled=disabled,
        ))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LogButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show that page in place."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        session = services(interaction).session
        g = await session.require(self.game)
        kwargs = await render_log(session, g, g.seat_of(interaction.user.id), locale_of(interaction),
                                       max(0, self.page))
        await interaction.response.edit_message(**kwargs)
