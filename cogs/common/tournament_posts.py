"""A tournament's posts in its channel: what its committed changes owe (results, rounds and
their tables, drops, the podium, a cancellation) delivered oldest first, once each, and its
sign-up or standings message kept up to date."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord.ext import commands

from cogs.common.delivery import send_once
from cogs.common.i18n import lang, t
from cogs.common.patience import (
    forbidden,
    missing_permissions,
    patiently,
    permission_names,
    permissions_in,
)
from cogs.common.present import BOT_MARK, NO_MENTIONS, clip
from cogs.common.tournament_tables import _bot
from cogs.common.tournament_views import names_of, signup_message, standings_embed, standings_files
from cogs.common.usertext import plain
from rules.core import Text
from services.faults import crash_point
from services.tournament import Progress, TournamentService
from storage.tournaments import MatchRow, OwedPost, TournamentRow

log = logging.getLogger("tablero.tournament")


class TournamentPosts:
    """The tournaments cog's side that tells Discord: its outbox of posts, delivered."""

    bot: commands.Bot
    service: TournamentService
    # When this process started: posts noted before it may already be in the channel.
    started: float
    _posting: dict[int, asyncio.Lock]
    _told_no_posts: set[int]

    async def _channel(self, t_: TournamentRow) -> Any:
        return self.bot.get_channel(t_.channel_id) or await self.bot.fetch_channel(t_.channel_id)

    async def _post(
        self,
        t_: TournamentRow,
        content: str,
        *,
        ping: list[int] | None = None,
        files: list[discord.File] | None = None,
        owed: OwedPost | None = None,
    ) -> bool:
        """Post in the tournament's channel; False if Discord refused it for good. An owed
        post goes out once: with its nonce, and, if noted before this process started,
        only when the channel does not show it already."""
        channel = await self._channel(t_)
        allowed = (
            discord.AllowedMentions(users=[discord.Object(u) for u in ping])
            if ping
            else NO_MENTIONS
        )
        kwargs: dict[str, Any] = {
            "content": clip(content, 2000), "allowed_mentions": allowed, "files": files or [],
        }
        nonce = f"tt{owed.id}" if owed is not None else None
        since = owed.created_at if owed is not None and owed.created_at < self.started else None
        try:
            await send_once(channel, self.bot.user.id if self.bot.user else None, since, nonce,
                            **kwargs)
        except discord.HTTPException as exc:
            log.warning("tournament %s: could not post in its channel", t_.id, exc_info=True)
            if forbidden(exc):
                # Kept for the next check (every minute): it goes out once the permission is
                # back; the organiser is told privately what is missing, once.
                await self._tell_no_posts(t_)
                return False
            # The channel gone or a bad request: given up; a server error is tried again.
            return exc.status < 500
        self._told_no_posts.discard(t_.id)
        if owed is not None:
            crash_point(f"tournament.sent.{owed.kind}")
        return True

    async def _tell_no_posts(self, t_: TournamentRow) -> None:
        """DM the organiser which permissions the bot lacks in the tournament's channel."""
        if t_.id in self._told_no_posts:
            return
        self._told_no_posts.add(t_.id)
        known = await permissions_in(self.bot, t_.channel_id)
        names = missing_permissions(*known) if known is not None else []
        settings = await _bot(self.bot).session.store.users_settings([t_.organiser_id])
        locale = lang(settings[t_.organiser_id].locale or t_.locale)
        text = t("tourney.no_posts", locale, name=plain(t_.name), channel=f"<#{t_.channel_id}>",
                 perms=permission_names(names, locale) if names else "?")
        try:
            await _bot(self.bot).delivery.dm(t_.organiser_id, content=text, allowed_mentions=NO_MENTIONS)
        except discord.HTTPException:
            log.info("tournament %s: could not tell its organiser about missing permissions", t_.id)

    async def refresh(self, t_: TournamentRow) -> None:
        """Edit the tournament's message: the sign-up while open, the standings after."""
        if t_.standings_message_id is None:
            return
        channel = await self._channel(t_)
        message = channel.get_partial_message(t_.standings_message_id)
        if t_.status == "signup":
            kwargs = await signup_message(self.service, t_, t_.locale)
        else:
            kwargs = {
                "embed": await standings_embed(self.service, t_, t_.locale),
                "view": None,
                "allowed_mentions": NO_MENTIONS,
            }
        try:
            await patiently(lambda: message.edit(**kwargs), again_if_dropped=True)
        except discord.HTTPException:
            log.warning("tournament %s: could not edit its standings", t_.id, exc_info=True)

    async def announce(self, tournament: int, progress: Progress | None = None) -> None:
        """Tell the tournament's channel what its changes did (see ``deliver``)."""
        await self.deliver(tournament)

    async def deliver(self, tournament: int) -> None:
        """Post, oldest first, what the tournament's committed changes owe its channel
        (results, a round and its tables, a table played again, a drop, the podium, a
        cancellation), each marked done once out: a crash in between loses none, and the
        restart posts each once. A round waits until every table of it has its thread."""
        crash_point("tournament.deliver")
        store = self.service.store
        async with self._posting.setdefault(tournament, asyncio.Lock()):
            t_ = await store.get_tournament(tournament)
            if t_ is None:
                return
            owed = await store.owed_posts(tournament)
            i = 0
            while i < len(owed):
                row = owed[i]
                if row.kind in ("result", "replayed"):
                    # consecutive results (and tables played again) are one post
                    batch: list[OwedPost] = []
                    while i < len(owed) and owed[i].kind in ("result", "replayed"):
                        if owed[i].kind == "replayed" and not await self._opened(owed[i]):
                            break
                        batch.append(owed[i])
                        i += 1
                    if not batch:
                        break  # a table waits for its thread: later posts wait with it
                    lines = [line for b in batch for line in await self._result_lines(t_, b)]
                    if not lines or await self._post(t_, "\n".join(lines), owed=batch[0]):
                        await store.owed_posts_done([b.id for b in batch])
                    continue
                if row.kind == "round":
                    tables = await store.matches(tournament, row.payload["round"])
                    if any(m.status == "pending" for m in tables):
                        break
                    done = await self._round_opened(t_, row)
                elif row.kind == "podium":
                    done = await self._podium(t_, row)
                elif row.kind == "dropped":
                    done = await self._post(
                        t_, t("tourney.dropped", t_.locale, who=f"<@{row.payload['user']}>"),
                        owed=row,
                    )
                elif row.kind == "cancelled":
                    why = row.payload.get("why")
                    text = (
                        t("tourney.cancelled_few", t_.locale, name=plain(t_.name),
                          why=Text.model_validate(why).get(t_.locale))
                        if why is not None
                        else t("tourney.cancelled", t_.locale, name=plain(t_.name))
                    )
                    done = await self._post(t_, text, owed=row)
                else:  # a kind a newer version wrote: nothing this one can say
                    done = True
                if not done:
                    break  # kept for the next try (every minute, and at each start)
                await store.owed_posts_done([row.id])
                i += 1
        await self.refresh(await self.service.require(tournament))

    async def _opened(self, row: OwedPost) -> bool:
        m = await self.service.store.get_match(row.payload["match"])
        return m.status != "pending"

    async def _result_lines(self, t_: TournamentRow, row: OwedPost) -> list[str]:
        """The line a table's result (or its replay) gets in the channel."""
        locale = t_.locale
        m = await self.service.store.get_match(row.payload["match"])
        if row.kind == "replayed":
            return [t("tourney.replayed", locale, table=m.bracket or m.number,
                      thread=await self._thread_of(m))]
        if m.result in (None, "bye"):
            return []  # played again since: its new result has a row of its own
        names = {k: plain(v) for k, v in (await names_of(self.service, t_.id)).items()}
        for user in await self._bots_seats(m):  # their seat was the bot's by the end
            names[user] = f"{BOT_MARK} {names.get(user, user)}"
        ranked = sorted(m.players, key=lambda p: (p.place is None, p.place or 0, p.seat))
        order = ", ".join(
            f"{(p.place or 0) + 1}. {names.get(p.user_id, p.user_id)}"
            if p.place is not None
            else f"– {names.get(p.user_id, p.user_id)}"
            for p in ranked
        )
        return [t("tourney.result", locale, round=m.round, table=m.bracket or m.number,
                  how=t(f"tourney.kind.{m.result or 'game'}", locale), order=order)]

    async def _bots_seats(self, m: MatchRow) -> set[int]:
        """The players of ``m`` whose seat the bot took over (the clock put them out)."""
        g = await _bot(self.bot).session.get(m.game) if m.game is not None else None
        if g is None:
            return set()
        return {s.user_id for s in g.seats if s.ai and s.user_id is not None}

    async def _thread_of(self, m: MatchRow) -> str:
        if m.game is None:
            return "-"
        g = await _bot(self.bot).session.get(m.game)
        return f"<#{g.row.channel_id}>" if g is not None else "-"

    async def _round_opened(self, t_: TournamentRow, row: OwedPost) -> bool:
        number = row.payload["round"]
        names = {k: plain(v) for k, v in (await names_of(self.service, t_.id)).items()}
        lines = [t("tourney.round_opened", t_.locale, name=plain(t_.name), round=number)]
        for m in await self.service.store.matches(t_.id, number):
            who = ", ".join(names.get(u, str(u)) for u in m.user_ids)
            if m.result == "bye":
                lines.append(t("tourney.bye", t_.locale, who=who))
            elif m.game is not None:
                lines.append(
                    t(
                        "tourney.table_line",
                        t_.locale,
                        table=m.bracket or m.number,
                        who=who,
                        thread=await self._thread_of(m),
                    )
                )
        return await self._post(t_, "\n".join(lines), owed=row)

    async def _podium(self, t_: TournamentRow, row: OwedPost) -> bool:
        places = await self.service.podium(t_.id)
        medals = ("🥇", "🥈", "🥉")
        lines = [t("tourney.finished", t_.locale, name=plain(t_.name))]
        ping: list[int] = []
        for group in places:
            rank = group[0].rank
            medal = medals[min(rank, 3) - 1] if rank <= 3 else ""
            lines.append(f"{medal} {rank}. " + ", ".join(f"<@{s.player}>" for s in group))
            ping += [s.player for s in group]
        files = await standings_files(self.service, t_, t_.locale, csv=False)
        return await self._post(t_, "\n".join(lines), ping=ping, files=files, owed=row)

