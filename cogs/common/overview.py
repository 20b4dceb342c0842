"""What is waiting: a user's open games in every server, and a server's open games."""

from __future__ import annotations

from collections.abc import Callable

import discord

from cogs.common.i18n import names, t, tn
from cogs.common.present import COLOUR, EMBED_DESCRIPTION, jump_url, listed
from services.clock_bank import span, time_left
from services.session import Game, SessionService
from storage.deadlines import DeadlineRow

MAX_LINES = 30


def _where(g: Game) -> str:
    # The game's channel or thread, where its live board is: a link that outlives a re-post.
    return jump_url(g) or f"<#{g.row.channel_id}>"


def _waiting_for(g: Game, locale: str) -> str:
    who = [listed(g, s) for s in sorted(g.pending())]
    return t("mine.waiting", locale, who=names(who, locale) or "-")


async def mine_embed(session: SessionService, user_id: int, locale: str) -> discord.Embed:
    """Every open game of ``user_id``: where, whose turn, their time left; theirs to move first."""
    rows = await session.store.user_open_games(user_id)
    deadlines: dict[int, DeadlineRow] = {d.game: d for d in await session.store.user_deadlines(user_id)}
    entries: list[tuple[int, float, str]] = []
    for row in rows:
        g = await session.get(row.id)
        if g is None:
            continue
        title = g.engine.title.get(locale)
        seat = g.seat_of(user_id)
        if g.status == "lobby":
            status, rank, due = tn("mine.lobby", len(g.seats), locale), 2, float("inf")
        elif seat is not None and seat in g.pending():
            status, rank = t("mine.your_turn", locale), 0
            d = deadlines.get(g.id)
            due = d.due_at if d is not None and not d.paused else float("inf")
            if d is not None:
                status += " · " + (t("mine.paused", locale) if d.paused
                                   else t("mine.left", locale, when=f"<t:{int(d.due_at)}:R>"))
                if g.row.bank_increment is not None:  # a time bank: what is left of it, too
                    status += " · " + t("mine.bank", locale, left=span(time_left(d, session.clock.now())))
        else:
            status, rank, due = _waiting_for(g, locale), 1, float("inf")
        line = t("mine.line", locale, title=title, id=g.id, where=_where(g), status=status)
        entries.append((rank, due, line))
    entries.sort(key=lambda e: (e[0], e[1]))
    return _embed(t("mine.title", locale), [e[2] for e in entries], t("mine.none", locale), locale)


async def list_embed(session: SessionService, guild_id: int, locale: str,
                     visible: Callable[[int], bool]) -> discord.Embed:
    """The open games of a server in the channels ``visible`` lets through (the reader's),
    with whose turn it is."""
    lines: list[str] = []
    for row in await session.store.guild_open_games(guild_id):
        if not visible(row.channel_id):
            continue
        g = await session.get(row.id)
        if g is None:
            continue
        status = tn("mine.lobby", len(g.seats), locale) if g.status == "lobby" else _waiting_for(g, locale)
        lines.append(t("mine.line", locale, title=g.engine.title.get(locale), id=g.id,
                       where=f"<#{g.row.channel_id}>", status=status))
    return _embed(t("list.title", locale), lines, t("list.none", locale), locale)


def _embed(title: str, lines: list[str], empty: str, locale: str) -> discord.Embed:
    shown = lines[:MAX_LINES]
    body = "\n".join(shown) or empty
    while len(body) > EMBED_DESCRIPTION - 50 and shown:
        shown.pop()
        body = "\n".join(shown)
    if len(shown) < len(lines):
        body += "\n" + t("mine.more", locale, n=len(lines) - len(shown))
    return discord.Embed(title=title, description=body, colour=COLOUR)

