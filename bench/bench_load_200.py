"""Two hundred users at fifty tables at once: the real bot against the strict fake Discord.

    python bench/bench_load_200.py [--seconds 60] [--users 200] [--games 50] [--think 1.0]
                                   [--doubles 0.1] [--scale 1.0] [--seed 7]

Five servers: a busy one with three fifths of the games and users, four small ones with the
rest. Each game has two seated players and two (or more) bystanders. For ``--seconds``
every user, after a think time (exponential, ``--think`` s on average), does what a user
does: a seated player whose turn it is moves from the board's menu, from the private panel
its Play button opens, or with ``/game move`` and a value from its autocomplete
(``--doubles`` of those presses are sent twice at once, as a double click or a retried
request); anyone else presses the board's buttons and menus, runs ``/game status``,
``/game hand`` or ``/game move``, or types into its autocomplete.

Prints the acknowledgement time of every interaction (from its sending to the bot's first
answer) by server: the busy one, and the others (which must not wait for it), p50 and p99;
interactions Discord would have failed (no answer in 3 s); and the ledger of moves: each
move press the bot accepted (its answer was no refusal) against the moves stored for that
game, at the version it was pressed at. A move accepted but not stored is lost, a move
stored twice for one press or accepted twice at one version is doubled: both must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.fake_discord import EPHEMERAL, FakeDiscord  # noqa: E402
from tests.e2e.harness import start_bot, stop_bot  # noqa: E402
from tests.e2e.table import make_bot  # noqa: E402

KINDS = ("rey_hierofante", "rattus_cartus", "ankh_morpork", "ragami", "guerra_de_mitos")
SERVERS = 5
BUSY_SHARE = 0.6  # of the games and users, in the busy server
DONE = ("Done.", "Hecho.")
STUCK = 30.0  # seconds after which a user gives up on what they were doing


def pct(values: list[float], q: int) -> float:
    """The q-th percentile."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100)[q - 1]


def shown(ms: float) -> str:
    """A time for the report: "over 3 s" for an interaction Discord would have failed."""
    return "over 3 s" if ms == float("inf") else f"{ms:.0f} ms"


@dataclass
class Press:
    """One move press: the game, the version it was pressed at, the presser's seat, and
    whether the bot accepted it (None: Discord saw no answer in time)."""

    game: int
    version: int
    seat: int
    accepted: bool | None  # True until its answers are read (Press.interaction), at the end
    interaction: str = ""  # its id (the answers are in the fake)


@dataclass
class Table:
    """One game: its id, its channel and server, its seated users and bystanders."""

    game: int
    channel: dict
    server: int
    seated: dict[str, int] = field(default_factory=dict)  # user id -> seat
    users: list[dict] = field(default_factory=list)


class Counted(logging.Handler):
    """Counts the warnings and errors logged (instead of printing them), by their first words."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: collections.Counter[str] = collections.Counter()

    def emit(self, record: logging.LogRecord) -> None:
        """Count one record under its level, logger and cause."""
        cause = record.exc_info[1] if record.exc_info else None
        why = f" [{type(cause).__name__}: {str(cause)[:60]}]" if cause is not None else ""
        self.seen[f"{record.levelname} {record.name}{why}"] += 1


class Load:
    """The fake, the bot, the tables and the users."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.fake = FakeDiscord()
        self.rng = random.Random(args.seed)
        self.tables: list[Table] = []
        self.acks: dict[int, list[float]] = collections.defaultdict(list)  # server -> ms
        self.failed: collections.Counter[int] = collections.Counter()  # server -> no answer in time
        self.presses: list[Press] = []
        self.did: collections.Counter[str] = collections.Counter()
        self.deadline = 0.0
        self.logged = Counted()
        logging.getLogger().addHandler(self.logged)

    # -- the world ---------------------------------------------------------------------------

    async def setup(self, db: str) -> None:
        """Start the fake and the bot; five servers, their users, a game per table."""
        a = self.args
        await self.fake.start()
        self.fake.strict.window_scale = a.scale
        busy_games = round(a.games * BUSY_SHARE)
        games_in = [busy_games] + [len(range(k, a.games - busy_games, SERVERS - 1)) for k in range(SERVERS - 1)]
        per_game = a.users // a.games
        plan: list[tuple[dict, int]] = []  # (channel, server) per game
        users = [self.fake.add_user(f"user{k}") for k in range(per_game * a.games)]
        start = 0
        for server, count in enumerate(games_in):
            members = users[start * per_game:(start + count) * per_game]
            guild = self.fake.add_guild(f"Server {server}", [f"mesa-{server}-{k}" for k in range(count)], members)
            plan += [(c, server) for c in guild["channels"]]
            start += count
        self.bot = make_bot(db)
        self.task = await start_bot(self.fake, self.bot, timeout=60)
        session = self.bot.session
        for k, (channel, server) in enumerate(plan):
            mine = users[k * per_game:(k + 1) * per_game]
            host, guest = mine[0], mine[1]
            g = await session.create(guild_id=int(channel["guild_id"]), channel_id=int(channel["id"]),
                                     game_id=KINDS[k % len(KINDS)], options={}, host_id=int(host["id"]),
                                     host_name=host["username"], locale="en")
            await session.join(g.id, user_id=int(guest["id"]), name=guest["username"], locale="en")
            await session.start(g.id, by=int(host["id"]))
            await self.bot.boards.refresh(g.id)
            self.tables.append(Table(g.id, channel, server, {host["id"]: 0, guest["id"]: 1}, mine))

    def board(self, table: Table) -> dict | None:
        """The game's board as the fake holds it (the message the users see in the channel)."""
        g = self.bot.session.cached(table.game)
        if g is None or g.row.board_message_id is None:
            return None
        return self.fake.messages.get(str(g.row.board_message_id))

    # -- interactions --------------------------------------------------------------------------

    async def send(self, table: Table, coro: Any) -> tuple[dict, dict] | None:
        """Send an interaction; record its acknowledgement time under its server. None when
        Discord would have failed it (no answer in 3 s, or the answer refused)."""
        t0 = time.perf_counter()
        inter = await coro
        try:
            record = await self.fake.wait_response(inter, timeout=10)
        except (AssertionError, TimeoutError):
            self.failed[table.server] += 1
            return None
        self.acks[table.server].append((record["at"] - t0) * 1000)
        return inter, record

    async def complete(self, table: Table, user: dict) -> list[dict]:
        """Type nothing yet into ``/game move``'s choice; its acknowledgement is the list."""
        t0 = time.perf_counter()
        try:
            choices = await self.fake.autocomplete("game move", user, table.channel, "choice", choice="")
        except (AssertionError, TimeoutError):
            self.failed[table.server] += 1
            return []
        self.acks[table.server].append((time.perf_counter() - t0) * 1000)
        return choices

    def refused(self, inter: dict, record: dict) -> bool:
        """The bot said no: a private message of its own (not a panel, not "Done.") answered it."""
        made = [self.fake.response_message(inter)] if record["type"] in (4, 5) else []
        made += self.fake.followups(inter)
        return any(m is not None and m["flags"] & EPHEMERAL and not m.get("components")
                   and m["content"] not in DONE for m in made)

    async def settle(self, inter: dict, record: dict) -> None:
        """Wait for a deferred answer to come."""
        if record["type"] in (5, 6):
            try:
                await self.fake.wait_until(lambda: self.fake.followups(inter) or (
                    (m := self.fake.response_message(inter)) is not None and (m["content"] or m["components"])),
                    timeout=5)
            except TimeoutError:
                pass

    async def press_move(self, table: Table, seat: int, version: int,
                         make: Callable[[], Awaitable[dict]]) -> tuple[dict, dict] | None:
        """A press that makes a move if the bot accepts it: sent (twice at once, sometimes:
        a double click, a retried request), each press and its outcome in the ledger."""
        copies = 2 if self.rng.random() < self.args.doubles else 1
        self.did["move presses sent twice"] += copies - 1
        # In the ledger before it is sent: a press given up on still made whatever it made.
        presses = [Press(table.game, version, seat, None) for _ in range(copies)]
        self.presses += presses
        results = await asyncio.gather(*(self.send(table, make()) for _ in range(copies)))
        out = None
        for press, res in zip(presses, results, strict=True):
            if res is None:
                continue
            await self.settle(*res)
            # Whether it was refused is read at the end: a refusal may follow a deferral late.
            press.accepted, press.interaction = True, res[0]["id"]
            out = res
        return out

    # -- what users do ---------------------------------------------------------------------------

    async def user(self, table: Table, user: dict, rng: random.Random) -> None:
        """One user's loop until the run's end: think, then act."""
        while True:
            await asyncio.sleep(rng.expovariate(1 / self.args.think))
            if time.perf_counter() >= self.deadline:
                return
            try:
                await asyncio.wait_for(self.act(table, user, rng), STUCK)
            except TimeoutError:
                self.did[f"an action still unfinished after {STUCK:.0f} s (given up)"] += 1
            except (LookupError, PermissionError, ValueError) as exc:
                # The Discord client would not have let the user do it (a menu gone by the
                # time they clicked, an option no longer offered): nothing sent.
                self.did[f"not sendable ({type(exc).__name__})"] += 1
            except Exception as exc:  # noqa: BLE001 - a figure, not a crash of the whole run
                self.did[f"user loop failed ({type(exc).__name__}: {str(exc)[:80]})"] += 1

    async def act(self, table: Table, user: dict, rng: random.Random) -> None:
        """A seated player whose turn it is moves (by the board, the panel or the command);
        anyone else pokes at the table."""
        g = self.bot.session.cached(table.game)
        seat = table.seated.get(user["id"])
        if g is not None and g.status == "active" and seat is not None and seat in g.pending():
            way = rng.choice(("board", "panel", "command"))
            self.did[f"move by {way}"] += 1
            if way == "board" and await self.by_menu(table, user, seat, self.board(table), rng):
                return
            if way != "command" and await self.by_panel(table, user, seat, rng):
                return
            await self.by_command(table, user, seat, rng)
            return
        await self.poke(table, user, rng)

    def controls(self, message: dict | None, seat: int) -> list[tuple[str, dict, str]]:
        """The move controls for ``seat`` on ``message``: (kind, component, value)."""
        out: list[tuple[str, dict, str]] = []
        for c in self.fake.components(message) if message else []:
            cid = c.get("custom_id", "")
            parts = cid.split(":")
            if len(parts) < 5 or parts[1] not in ("pick", "act", "acts") or parts[4] != str(seat) or c.get("disabled"):
                continue
            if parts[1] == "act":
                out.append(("click", c, ""))
            else:
                out += [("select", c, o["value"]) for o in c.get("options", [])]
        return out

    async def by_menu(self, table: Table, user: dict, seat: int, message: dict | None,
                      rng: random.Random) -> bool:
        """Choose from a menu of moves (its pages and groups first); False if none is there."""
        for _ in range(8):
            options = self.controls(message, seat)
            if not options or message is None:
                return False
            how, c, value = rng.choice(options)
            version = int(c["custom_id"].split(":")[3])
            msg, cid = message, c["custom_id"]
            if how == "click":
                await self.press_move(table, seat, version, lambda m=msg, i=cid: self.fake.click(m, i, user))
                return True
            if cid.startswith("tablero:acts:") or value[:1] not in ("g", "p"):
                await self.press_move(table, seat, version,
                                      lambda m=msg, i=cid, v=value: self.fake.select(m, i, user, [v]))
                return True
            res = await self.send(table, self.fake.select(msg, c["custom_id"], user, [value]))
            if res is None:
                return True
            inter, record = res
            message = self.fake.messages.get(msg["id"]) if record["type"] == 7 else self.fake.response_message(inter)
        return True

    async def by_panel(self, table: Table, user: dict, seat: int, rng: random.Random) -> bool:
        """Press the board's Play button and choose in the private panel."""
        board = self.board(table)
        play = next((c for c in self.fake.components(board) if c.get("custom_id", "").startswith("tablero:play:")),
                    None) if board else None
        if play is None:
            return False
        res = await self.send(table, self.fake.click(board, play["custom_id"], user))
        if res is None:
            return True
        await self.settle(*res)
        panel = self.fake.response_message(res[0]) or next(iter(self.fake.followups(res[0])), None)
        return await self.by_menu(table, user, seat, panel, rng)

    async def by_command(self, table: Table, user: dict, seat: int, rng: random.Random) -> None:
        """``/game move`` with a value its autocomplete offered (it carries the version)."""
        channel = table.channel
        choices = await self.complete(table, user)
        values = [c["value"] for c in choices if "@" in c["value"]]
        if not values:
            return
        value = rng.choice(values)
        version = int(value.rsplit("@", 1)[1])
        await self.press_move(table, seat, version, lambda: self.fake.slash("game move", user, channel, choice=value))

    async def poke(self, table: Table, user: dict, rng: random.Random) -> None:
        """What a user whose turn it is not does: the board's buttons and menus (someone
        else's moves: a press the bot must refuse), status, hand, a move, an autocomplete."""
        board = self.board(table)
        what = rng.choice(("button", "menu", "status", "hand", "move", "autocomplete"))
        self.did[f"poke: {what}"] += 1
        if what == "button" and board is not None:
            buttons = [c for c in self.fake.components(board) if c.get("type") == 2 and c.get("custom_id")
                       and not c.get("disabled")]
            if buttons:
                c = rng.choice(buttons)
                await self.send(table, self.fake.click(board, c["custom_id"], user))
            return
        if what == "menu" and board is not None:
            others = [x for s in (0, 1) for x in self.controls(board, s)]
            if others:
                how, c, value = rng.choice(others)
                if how == "select" and value[:1] not in ("g", "p"):
                    version = int(c["custom_id"].split(":")[3])
                    await self.press_move(table, -1, version,
                                          lambda: self.fake.select(board, c["custom_id"], user, [value]))
            return
        if what == "autocomplete":
            await self.complete(table, user)
            return
        options = {"choice": rng.choice(("a1", "0", "pass@0", "-"))} if what == "move" else {}
        await self.send(table, self.fake.slash(f"game {what}", user, table.channel, **options))

    # -- the run -------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Set up, let the users loose, and print the figures."""
        with tempfile.TemporaryDirectory() as tmp:
            try:
                await self.setup(str(Path(tmp) / "load.db"))
                first = len(self.fake.requests)
                t0 = time.perf_counter()
                self.deadline = t0 + self.args.seconds
                rng = random.Random(self.args.seed)
                await asyncio.gather(*(self.user(table, u, random.Random(rng.random()))
                                       for table in self.tables for u in table.users))
                await asyncio.sleep(3.0)  # answers still on their way
                self.wall = time.perf_counter() - t0
                self.requests = len(self.fake.requests) - first
                await self.ledger()
                self.report()  # before the shutdown, which may wait on answers still in flight
            finally:
                if getattr(self, "task", None) is not None and not self.task.done():
                    await stop_bot(self.bot, self.task)
                await self.fake.stop()

    async def ledger(self) -> None:
        """Compare the presses the bot accepted with the moves stored."""
        store = self.bot.session.store
        self.lost = self.doubled = self.phantom = self.failed_but_made = self.wrongly_accepted = 0
        self.stored = 0
        for p in self.presses:
            if p.accepted:
                inter = self.fake.interactions[p.interaction]
                p.accepted = not self.refused(inter, self.fake.interaction_responses[p.interaction])
        for table in self.tables:
            stored = {a.seq: a.seat for a in await store.actions(table.game)}
            self.stored += len(stored)
            mine = [p for p in self.presses if p.game == table.game]
            self.wrongly_accepted += sum(1 for p in mine if p.seat < 0 and p.accepted)
            accepted: dict[int, list[Press]] = collections.defaultdict(list)
            for p in mine:
                if p.accepted and p.seat >= 0:
                    accepted[p.version].append(p)
            for version, ps in accepted.items():
                self.doubled += len(ps) - 1
                if len(ps) > 1 and os.environ.get("LOAD_DEBUG"):
                    for p in ps:
                        inter = self.fake.interactions[p.interaction]
                        rec = self.fake.interaction_responses[p.interaction]
                        made = [self.fake.response_message(inter)] + self.fake.followups(inter)
                        print("DOUBLE", table.game, version, p.seat, inter["type"], inter["data"].get("custom_id"),
                              inter["data"].get("values"), rec["type"], rec["data"].get("content"),
                              [(m["flags"], m["content"][:80], bool(m.get("components"))) for m in made if m])
                if stored.get(version + 1) != ps[0].seat:
                    self.lost += 1
            for seq, seat in stored.items():
                if accepted.get(seq - 1):
                    continue
                if any(p.version == seq - 1 and p.seat == seat and p.accepted is None for p in mine):
                    self.failed_but_made += 1  # made, but Discord showed the user a failure
                else:
                    self.phantom += 1  # stored with no press accepted for it

    def report(self) -> None:
        """Print the figures."""
        a = self.args
        users = sum(len(t.users) for t in self.tables)
        print(f"{users} users at {len(self.tables)} tables in {SERVERS} servers for {a.seconds:.0f} s "
              f"(think {a.think} s, doubles {a.doubles:.0%}, windows x{a.scale})")
        interactions = sum(len(v) for v in self.acks.values())
        print(f"interactions answered: {interactions} = {interactions / self.wall:.1f}/s; "
              f"REST requests to the fake: {self.requests}")
        busy = self.acks.get(0, [])
        others = [x for s, v in self.acks.items() if s != 0 for x in v]
        for name, values, fails in (("busy server", busy, self.failed[0]),
                                    ("other servers", others, sum(v for s, v in self.failed.items() if s != 0))):
            # The unanswered took longer than any answer: they count at the top.
            every = sorted(values) + [float("inf")] * fails
            p50, p99 = (every[min(len(every) - 1, int(q * len(every)))] if every else float("nan")
                        for q in (0.50, 0.99))
            print(f"acknowledged, {name}: p50 {shown(p50)}, p99 {shown(p99)} "
                  f"({len(values)} answered in time, {fails} not answered within 3 s; "
                  f"of the answered: p99 {pct(values, 99):.0f} ms)")
        presses = len(self.presses)
        took = sum(1 for p in self.presses if p.accepted)
        print(f"move presses: {presses}, accepted {took}; moves stored: {self.stored}")
        print(f"lost moves: {self.lost}; doubled moves: {self.doubled + self.phantom} "
              f"(accepted twice at one version {self.doubled}, stored with no accepted press {self.phantom}); "
              f"others' presses accepted: {self.wrongly_accepted}; made though Discord showed a failure: "
              f"{self.failed_but_made}")
        for what, n in sorted(self.did.items()):
            print(f"  {n:6d}  {what}")
        print("warnings and errors the bot logged:" if self.logged.seen else "the bot logged no warning or error")
        for what, n in self.logged.seen.most_common():
            print(f"  {n:6d}  {what}")
        sys.stdout.flush()


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--users", type=int, default=200)
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--think", type=float, default=1.0, help="mean seconds between a user's actions")
    p.add_argument("--doubles", type=float, default=0.1, help="share of move presses sent twice at once")
    p.add_argument("--scale", type=float, default=1.0, help="Discord's rate-limit windows times this")
    p.add_argument("--seed", type=int, default=7)
    asyncio.run(Load(p.parse_args()).run())


if __name__ == "__main__":
    main()
