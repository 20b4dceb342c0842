"""What a move costs in Discord's terms: the real bot against the strict fake Discord server.

    python bench/bench_e2e.py [--games 1000] [--hot 48] [--players 16] [--rate R] [--moves 400]
                              [--scale 1.0] [--no-coalesce] [--titles rey_hierofante ...]

Opens ``--games`` games of Rey y Hierofante, Rattus Cartus and Ankh-Morpork (in turn) in
their own channels of two servers, all of them loaded by the bot; ``--hot`` of them get a
board and are then played, ``--players`` moves in flight at once, each move made as a player
makes it (the board's menu, or the Play button and the private menu for games with hands,
its selects or its buttons); a player makes their whole part of a turn at once, going on
from the panel their last step left them while it shows their next step;
``--rate``: the moves begun a second by all the players together (a server's load), rather
than each player moving again as soon as its last move shows (the bot's capacity).
The fake applies Discord's rate limits with Discord's own windows (``--scale 1.0``: the
global 50 requests per second, 5 messages per 5 s and 3 edits per 6 s per channel).

Prints, per move: REST calls by kind beyond the interactions' own responses (the callback
that answers each interaction is not counted), split as Discord limits them: calls bound by
the bot's global rate limit (50/s), and calls through an interaction's webhook (followups,
edits of ``@original``), which Discord's rate-limit docs say are not bound by it; then the
time from the
interaction to its acknowledgement and to the board showing the move (p50/p99; a step of a
part that goes on, to its panel showing it, the card waiting for the part's end), the
requests by game, the moves per second sustained, the 429 answers, and whether every board ends on its game's latest
version (no update lost). ``--no-coalesce`` turns off the board-edit coalescing of busy
games, to compare the fan-out before and after that shaping.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.common.board import BoardKeeper  # noqa: E402
from services.session import Game  # noqa: E402
from tests.e2e.fake_discord import DM, EPHEMERAL, FakeDiscord  # noqa: E402
from tests.e2e.harness import start_bot, stop_bot  # noqa: E402
from tests.e2e.table import make_bot  # noqa: E402

GAMES = (("rey_hierofante", 2), ("rattus_cartus", 3), ("ankh_morpork", 3))
CHANNELS_PER_GUILD = 500  # Discord's cap on a server's channels
DEFERRED_UPDATE = 6  # an interaction's response type: acknowledged, the message is edited after
MOVE_BUTTON = "tablero:act:"  # a move's button in a private panel (a prompt answered by buttons)


class NoCoalescing(dict):
    """A waiting-count table that always says nobody waits: every refresh edits the board."""

    def __getitem__(self, key: Any) -> int:
        return 0


def kind(method: str, path: str) -> str:
    """A request's route with its ids blanked: ``PATCH channels/{}/messages/{}``."""
    path = re.sub(r"/webhooks/(\d+)/[^/]+", r"/webhooks/\1/{token}", path.split("?")[0])
    return f"{method} " + re.sub(r"/\d+", "/{}", path).lstrip("/")


def custom_ids(node: Any) -> list[str]:
    """Every component custom_id in a message body or answer (nested rows and containers)."""
    if isinstance(node, dict):
        found = [node["custom_id"]] if isinstance(node.get("custom_id"), str) else []
        for value in node.values():
            found += custom_ids(value)
        return found
    if isinstance(node, list):
        return [cid for item in node for cid in custom_ids(item)]
    return []


def is_card_body(body: Any) -> bool:
    """Whether a message body is a game's card (it carries the "My hand" button)."""
    return any(cid.startswith("tablero:hand:") for cid in custom_ids((body or {}).get("components")))


def purpose(fake: FakeDiscord, rec: Any) -> str:
    """What a REST call was for, read from its route, its body and the fake's world: the
    card's edit (through the bot's token or an interaction's), the turn's message, a hand
    DM, a private panel's followup or edit, an old card's retirement..."""
    method, parts = rec.method, rec.path.split("?")[0].strip("/").split("/")
    body = rec.body if isinstance(rec.body, dict) else {}
    if parts[0] == "interactions":
        return f"interaction response type {body.get('type')}"
    if parts[0] == "webhooks":
        iid = fake._tokens.get(parts[2]) if len(parts) > 2 else None
        if len(parts) == 3:
            private = (body.get("flags") or 0) & EPHEMERAL
            return "webhook: followup, " + ("private (a menu, a refusal)" if private else "public")
        record = fake.interaction_responses.get(iid or "") or {}
        mid = record.get("message_id") if parts[-1] == "@original" else parts[-1]
        msg = fake.messages.get(mid or "") or fake.deleted_messages.get(mid or "") or {}
        what = ("the card" if is_card_body(body) or is_card_body(msg)
                else "a private panel" if (msg.get("flags") or 0) & EPHEMERAL else "a message")
        verb = {"PATCH": "edit", "DELETE": "delete", "GET": "read"}.get(method, method)
        return f"webhook: {verb} {what} (@original)" if parts[-1] == "@original" else f"webhook: {verb} {what}"
    if parts[0] == "channels" and len(parts) > 1:
        channel = fake.channels.get(parts[1]) or {}
        dm = channel.get("type") == DM
        rest = parts[2:]
        if rest[:1] == ["messages"] and len(rest) == 1 and method == "POST":
            if dm:
                kind_ = ("a hand" if body.get("embeds") else "a question" if body.get("components")
                         else "a text (turn, reminder, notice)")
                return f"DM: new, {kind_}"
            if is_card_body(body):
                return "channel: post the card" + (" carrying the turn's message" if body.get("content") else "")
            return "channel: post a message (the turn's message, a notice)"
        if rest[:1] == ["messages"] and len(rest) == 2:
            if method == "PATCH":
                if dm:
                    return "DM: edit " + ("a hand" if body.get("embeds") or body.get("attachments") else "a text")
                if body.get("embeds") == [] and not custom_ids(body.get("components")):
                    return "channel: strip an old card (its turn's message stays)"
                return "channel: edit the card" if is_card_body(body) or body.get("embeds") else "channel: edit a message"
            if method == "DELETE":
                return "channel: delete a message (an old card)"
            return f"channel: {method} a message"
        if rest == ["messages"] and method == "GET":
            return "DM: read history" if dm else "channel: read history"
    if rec.path.startswith("/users/@me/channels"):
        return "DM: open the channel"
    return kind(method, rec.path)


def pct(values: list[float], q: int) -> float:
    """The q-th percentile (milliseconds in, milliseconds out)."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[q - 1]


class Bench:
    """The fake, the bot, the games and the players' moves."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.fake = FakeDiscord()
        self.rng = random.Random(7)
        self.users: list[dict] = []
        self.channels: list[dict] = []
        self.games: list[int] = []
        self.busy: set[int] = set()
        self.acks: list[float] = []
        self.shown: list[float] = []
        self.panel_shown: list[float] = []  # moves shown in their mover's panel, the card waiting
        self.moves = 0
        self.slash_moves = 0  # moves no menu led to, made with /game move
        self.moves_of: collections.Counter[str] = collections.Counter()  # moves by title

    async def setup(self, db: str) -> None:
        """Start the fake and the bot, open the games, post the hot games' boards."""
        a = self.args
        await self.fake.start()
        self.fake.strict.window_scale = a.scale
        self.users = [self.fake.add_user(f"player{k}") for k in range(24)]
        names = [f"mesa-{k}" for k in range(a.games)]
        for start in range(0, a.games, CHANNELS_PER_GUILD):
            guild = self.fake.add_guild(f"Club {start // CHANNELS_PER_GUILD}",
                                        names[start:start + CHANNELS_PER_GUILD], self.users)
            self.channels += guild["channels"]
        self.bot = make_bot(db)
        if a.no_coalesce:
            BoardKeeper.__init__ = _patched_init(BoardKeeper.__init__)  # type: ignore[method-assign]
        self.task = await start_bot(self.fake, self.bot, timeout=60)
        session = self.bot.session
        for k in range(a.games):
            titles = [g for g in GAMES if not a.titles or g[0] in a.titles]
            game_id, seats = titles[k % len(titles)]
            channel = self.channels[k]
            players = [self.users[(k + j) % len(self.users)] for j in range(seats)]
            g = await session.create(guild_id=int(channel["guild_id"]), channel_id=int(channel["id"]),
                                     game_id=game_id, options={}, host_id=int(players[0]["id"]),
                                     host_name=players[0]["username"], locale="es")
            for p in players[1:]:
                await session.join(g.id, user_id=int(p["id"]), name=p["username"], locale="es")
            await session.start(g.id, by=int(players[0]["id"]))
            self.games.append(g.id)
        self.hot = self.games[: a.hot]
        for gid in self.hot:
            await self.bot.boards.refresh(gid)

    async def game(self, gid: int) -> Game | None:
        """The game as it is now (the bot's own copy: it runs in this process)."""
        return await self.bot.session.get(gid)

    def cached(self, gid: int) -> Game | None:
        """The game as last read, without waiting."""
        return self.bot.session.cached(gid)

    def board(self, gid: int) -> dict | None:
        """The game's board message as the fake holds it."""
        g = self.cached(gid)
        if g is None or g.row.board_message_id is None:
            return None
        return self.fake.messages.get(str(g.row.board_message_id))

    def shows(self, gid: int, version: int) -> bool:
        """Whether the board shows ``version`` (its menu or its footer carries the number)."""
        board = self.board(gid)
        if board is None:
            return False
        for c in self.fake.components(board):
            if c.get("custom_id", "").startswith(f"tablero:pick:{gid}:{version}:"):
                return True
        return re.search(rf"(move|jugada) {version}\b", json.dumps(board["embeds"], ensure_ascii=False)) is not None

    def menu(self, message: dict | None) -> dict | None:
        """The first menu of a message (a move, or a step of one), if it has one."""
        for c in self.fake.components(message) if message else []:
            if c["type"] == 3 and c.get("custom_id", "").startswith("tablero:") and c.get("options"):
                return c
        return None

    async def interact(self, coro: Any, t0: float) -> dict:
        """Send an interaction; record when Discord got its first answer."""
        inter = await coro
        await self.fake.wait_response(inter, timeout=60)
        done = next(r.at for r in reversed(self.fake.requests)
                    if r.path.startswith(f"/interactions/{inter['id']}/"))
        self.acks.append((done - t0) * 1000)
        return inter

    async def landed(self, gid: int, version: int, message: dict, edited: str | None) -> None:
        """After a choice acknowledged before its work (a deferred update): wait until the move
        is committed or the message it was made on changes (its next step, a refusal's)."""
        async with asyncio.timeout(60):
            while message.get("edited_timestamp") == edited:
                now = await self.game(gid)
                if now is None or now.version > version:
                    return
                await asyncio.sleep(0.02)

    async def waiting(self, what: str, predicate: Any, timeout: float) -> Any:
        """The fake's ``wait_until``, a timeout saying what was awaited (a failed move's
        report then tells a benchmark's wait from the bot's fault)."""
        try:
            return await self.fake.wait_until(predicate, timeout=timeout)
        except TimeoutError as exc:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}: {exc}") from None

    def panel_shows(self, message: dict | None, version: int) -> bool:
        """Whether a private panel shows the table at ``version`` (the card waits for the
        end of its mover's part: the panel shows it instead, with the next step)."""
        return message is not None and bool(message["flags"] & EPHEMERAL) and re.search(
            rf"(move|jugada) {version}\b", json.dumps(message.get("embeds"), ensure_ascii=False)) is not None

    async def move(self, gid: int, panel: dict | None = None) -> dict | None:
        """The player to act makes one move as in Discord: the board's menu, or the Play
        button and the private menu, step by step; ``/game move`` if no menu leads on.
        ``panel``: the private panel their last step left them, showing their next step (a
        player makes their whole part of a turn at once). Returns the panel to go on from
        when their part goes on and the card waits for its end, else None."""
        g = await self.game(gid)
        assert g is not None
        version = g.version
        # going on from a panel: the seat of the player it shows to (another may be asked too)
        seats = sorted(s for s in g.pending() if panel is None
                       or str(g.seat_row(s).user_id) == panel.get("_visible_to"))
        if not seats:
            return None
        seat = seats[0]
        user = next(u for u in self.users if int(u["id"]) == g.seat_row(seat).user_id)
        board: dict | None = None
        if panel is None:
            board = await self.waiting("the card to show the game's version before the move",
                                       lambda: self.board(gid) if self.shows(gid, version) else None, 120)
        t0 = time.perf_counter()
        message: dict | None = panel if panel is not None else board
        if panel is None and self.menu(board) is None:  # hidden hands: the Play button opens a private menu
            play = next((c["custom_id"] for c in self.fake.components(board)
                         if c.get("custom_id", "").startswith(f"tablero:play:{gid}")), None)
            if play is not None:
                inter = await self.interact(self.fake.click(board, play, user), time.perf_counter())
                if self.fake.interaction_responses[inter["id"]]["type"] == DEFERRED_UPDATE:
                    # the card acknowledged as it is; the private menu comes as a followup
                    message = await self.waiting("the Play button's menu as a followup",
                                                 lambda: next(iter(self.fake.followups(inter)), None), 60)
                else:  # the private menu is the click's answer
                    message = self.fake.response_message(inter)
        for _ in range(8):
            if message is None:
                break
            menu = self.menu(message)
            # A prompt answered by buttons (Ankh-Morpork's money and scroll choices): one of them.
            buttons = [c["custom_id"] for c in self.fake.components(message)
                       if c["type"] == 2 and c.get("custom_id", "").startswith(MOVE_BUTTON)]
            if menu is None and not buttons:
                break
            edited = message.get("edited_timestamp")
            if menu is not None:
                value = self.rng.choice(menu["options"])["value"]
                made = self.fake.select(message, menu["custom_id"], user, [value])
            else:
                made = self.fake.click(message, self.rng.choice(buttons), user)
            inter = await self.interact(made, time.perf_counter())
            if self.fake.interaction_responses[inter["id"]]["type"] == DEFERRED_UPDATE:
                await self.landed(gid, version, message, edited)
            now = await self.game(gid)
            message = self.fake.response_message(inter) or next(iter(self.fake.followups(inter)), None)
            if now is not None and now.version > version:
                break
        now = await self.game(gid)
        if now is None or now.version == version:
            channel = self.fake.channels[str(g.row.channel_id)]
            choices = await self.fake.autocomplete("game move", user, channel, "choice", choice="")
            self.slash_moves += 1
            if choices:
                value = self.rng.choice(choices)["value"]
                await self.interact(self.fake.slash("game move", user, channel, choice=value),
                                    time.perf_counter())
        after = await self.game(gid)
        assert after is not None
        self.moves += 1
        self.moves_of[g.row.game_id] += 1
        if after.version > version and after.status == "active":
            goes_on = seat in after.pending() and after.seat_row(seat).user_id == int(user["id"])
            if goes_on and message is not None and message["flags"] & EPHEMERAL:
                # Their part goes on: they look at their panel, which shows the move and the
                # next step (the card shows it once the part ends), or at the card.
                def seen() -> str | None:
                    panel = self.fake.messages.get(message["id"])
                    return ("panel" if self.panel_shows(panel, after.version)
                            else "card" if self.shows(gid, after.version) else None)

                where = await self.waiting(f"the panel or the card to show move {after.version}", seen, 120)
                (self.panel_shown if where == "panel" else self.shown).append((time.perf_counter() - t0) * 1000)
                return self.fake.messages.get(message["id"]) if where == "panel" else None
            await self.waiting(f"the card to show move {after.version}",
                               lambda: self.shows(gid, after.version), 120)
            self.shown.append((time.perf_counter() - t0) * 1000)
        return None

    async def paced(self) -> None:
        """Wait for the next move's turn to begin under ``--rate`` (moves begun a second by all
        the players together): a server's players do not move the instant a card changes. A
        turn missed while every player was busy is not made up later in a burst."""
        if not self.args.rate:
            return
        now = time.perf_counter()
        start = max(now, self.next_start)
        self.next_start = start + 1.0 / self.args.rate
        await asyncio.sleep(start - now)

    async def player(self) -> None:
        """One player's loop: pick a free hot game that waits on a human, move, again."""
        while self.moves < self.args.moves:
            await self.paced()
            free = [gid for gid in self.hot if gid not in self.busy
                    and (g := self.cached(gid)) is not None and g.status == "active"]
            if not free:
                await asyncio.sleep(0.01)
                continue
            gid = self.rng.choice(free)
            self.busy.add(gid)
            try:
                await self.part(gid)
            finally:
                self.busy.discard(gid)

    async def part(self, gid: int) -> None:
        """One player's part of a turn in ``gid``: a move, and the next ones from their panel
        while it goes on (each begun at the pace of ``--rate``)."""
        panel = await self.move(gid)
        while panel is not None:
            await self.paced()
            panel = await self.move(gid, panel)

    async def run(self) -> None:
        """Set up, play, and print the figures."""
        with tempfile.TemporaryDirectory() as tmp:
            try:
                await self.play(str(Path(tmp) / "bench.db"))
            finally:
                if getattr(self, "task", None) is not None and not self.task.done():
                    await stop_bot(self.bot, self.task)
                await self.fake.stop()
        self.report()

    async def play(self, db: str) -> None:
        """Set up and play the moves; keeps what the report needs."""
        await self.setup(db)
        first = len(self.fake.requests)
        limited = len(self.fake.rate_limited)
        t0 = time.perf_counter()
        self.next_start = t0
        await asyncio.gather(*(self.player() for _ in range(self.args.players)))
        await asyncio.sleep(6.0 * self.args.scale + 0.2)  # let a queued board edit land
        self.wall = time.perf_counter() - t0
        self.stale = [gid for gid in self.hot
                      if (g := self.bot.session.cached(gid)) is not None and g.status == "active"
                      and not self.shows(gid, g.version)]
        self.requests = self.fake.requests[first:]
        self.limited = len(self.fake.rate_limited) - limited

    def requests_by_title(self) -> collections.Counter[str]:
        """The REST calls beyond the interactions' own responses, by the title of the game
        they were for ("" for those no game is read from: opening a DM channel)."""
        title_of = {}
        for k, channel in enumerate(self.channels[:len(self.games)]):
            g = self.cached(self.games[k])
            if g is not None:
                title_of[channel["id"]] = g.row.game_id
        counts: collections.Counter[str] = collections.Counter()
        for r in self.requests:
            parts = r.path.split("?")[0].strip("/").split("/")
            if parts[0] == "interactions":
                continue
            channel = ""
            if parts[0] == "webhooks" and len(parts) > 2:
                inter = self.fake.interactions.get(self.fake._tokens.get(parts[2]) or "") or {}
                channel = str(inter.get("channel_id") or "")
            elif parts[0] == "channels" and len(parts) > 1:
                channel = parts[1]
                if channel not in title_of:  # a DM: its text names the game's channel
                    found = re.search(r"<#(\d+)>", json.dumps(r.body or {}, ensure_ascii=False))
                    channel = found.group(1) if found else ""
            counts[title_of.get(channel, "")] += 1
        return counts

    def report(self) -> None:
        """Print the figures."""
        counts = collections.Counter(kind(r.method, r.path) for r in self.requests
                                     if not r.path.startswith("/interactions/"))
        responses = sum(1 for r in self.requests if r.path.startswith("/interactions/"))
        n = max(1, self.moves)
        webhook = sum(c for k, c in counts.items() if k.split(" ", 1)[1].startswith("webhooks/"))
        bound = sum(counts.values()) - webhook
        print(f"{self.args.games} open games, {len(self.hot)} played, {self.args.players} moves in flight, "
              f"windows x{self.args.scale}, coalescing {'off' if self.args.no_coalesce else 'on'}")
        print(f"moves: {self.moves} in {self.wall:.1f} s = {self.moves / self.wall:.2f} moves/s; 429 answers: "
              f"{self.limited}; interactions' own responses (not counted below): {responses / n:.2f}/move")
        print(f"REST calls beyond the interactions' own responses: {(bound + webhook) / n:.2f}/move =\n"
              f"  {bound / n:.2f}/move bound by the bot's global rate limit (the bot's token)\n"
              f"  {webhook / n:.2f}/move through interaction webhooks (followups, @original edits: not bound by it)")
        for k, c in counts.most_common():
            print(f"  {c / n:6.2f}/move  {k}")
        whats = collections.Counter(purpose(self.fake, r) for r in self.requests)
        refused = collections.Counter(
            ("global: " if json.loads(r.answer or "{}").get("global") else "its route's bucket: ") + purpose(self.fake, r)
            for r in self.requests if r.status == 429)
        if refused:
            print("429 answers, by what was asked: " + "; ".join(f"{k} {c}" for k, c in refused.most_common()))
        print("by what they were for (interaction responses, not counted above, last):")
        for k, c in sorted(whats.items(), key=lambda kv: (kv[0].startswith("interaction"), -kv[1])):
            print(f"  {c / n:6.2f}/move  {k}")
        titles = self.requests_by_title()
        print("REST calls beyond the interactions' own responses, by game: " + "; ".join(
            f"{title} {titles[title] / n:.2f}/move ({n} moves)" for title, n in sorted(self.moves_of.items()))
            + (f"; not told apart (DM channels opened) {titles[''] / max(1, self.moves):.2f}/move"
               if titles[""] else ""))
        print(f"interaction -> acknowledged: p50 {pct(self.acks, 50):.0f} ms, p99 {pct(self.acks, 99):.0f} ms "
              f"({len(self.acks)} interactions)")
        print(f"interaction -> board shows the move: p50 {pct(self.shown, 50):.0f} ms, "
              f"p99 {pct(self.shown, 99):.0f} ms ({len(self.shown)} moves)")
        if self.panel_shown:
            print(f"  moves whose mover's part went on, shown in their panel (the card shows them at the "
                  f"part's end): {len(self.panel_shown)}, p50 {pct(self.panel_shown, 50):.0f} ms, "
                  f"p99 {pct(self.panel_shown, 99):.0f} ms")
        print(f"boards behind their game at the end: {len(self.stale)} of {len(self.hot)}; "
              f"moves made with /game move (no menu led on): {self.slash_moves}")


def _patched_init(init: Any) -> Any:
    def patched(self: BoardKeeper, bot: Any) -> None:
        init(self, bot)
        self._waiting = NoCoalescing()

    return patched


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--hot", type=int, default=48)
    p.add_argument("--players", type=int, default=16)
    p.add_argument("--rate", type=float, default=0.0,
                   help="moves begun a second, all players together, at most --players in flight "
                        "(default 0: each player moves again as soon as its last move shows)")
    p.add_argument("--moves", type=int, default=400)
    p.add_argument("--scale", type=float, default=1.0, help="Discord's rate-limit windows times this")
    p.add_argument("--no-coalesce", action="store_true")
    p.add_argument("--titles", nargs="*", default=[], help="only these games (default: all three)")
    asyncio.run(Bench(p.parse_args()).run())


if __name__ == "__main__":
    main()
