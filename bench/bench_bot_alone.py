"""The bot alone: ``python bot.py`` (with its picture workers) in a process of its own,
against the strict fake Discord in this one, where the players' moves are made too.

    python bench/bench_bot_alone.py [--games 1000] [--hot N] [--players 50] [--rate R] [--seconds 30]
                                    [--workers N] [--profile FILE] [--titles rey_hierofante ...]

The games (``--games`` of Rey y Hierofante, Rattus Cartus and Ankh-Morpork, each in a
channel of its own, every one with its card) are opened in the database before the bot
starts, without their cards: the bot's start posts each card (a start looks only at games
with no message stored, or a bot seat), and the moves begin once it says it has resumed
them. Every game is
played (``--hot``: only the first N), ``--players`` moves in flight at once for ``--seconds``, each made as a player
makes it (the card's menu, or the Play button and the private menu; a whole part of a turn
at once, from the panel), as in bench_e2e.py.
Each player moves again as soon as its last move shows (the bot's capacity: the machine
saturated), or with ``--rate R`` the players begin R moves a second together, at most
``--players`` in flight (a server's load).

Figures read on the fake's side: REST calls per move, interaction -> acknowledgement and
interaction -> card showing the move (p50/p99), moves per second, 429 answers, interactions
Discord would have forgotten (10062), cards left behind their game at the end, games with
more than one live card at the end, the changes the bot still owed Discord after the run,
and for a move that failed what its game's cards showed. The players watch the fake for their moves' outcomes (reading the bot's database
only every half second as a last resort), so the fake's side spends little of the
machine that the bot's process could use. On the bot's
side: the CPU seconds its process (and apart, its picture workers) spent per move, from
/proc; and, with ``--profile FILE``, the bot runs under cProfile, profiled only while the
moves are made, and writes the profile to FILE (read it with ``python -m pstats FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_e2e import CHANNELS_PER_GUILD, GAMES, Bench, custom_ids, pct  # noqa: E402
from cogs.pictures.pool import default_workers  # noqa: E402
from services.session import Game, SessionService  # noqa: E402
from storage.store import Store  # noqa: E402
from tests.e2e.fake_discord import EPHEMERAL  # noqa: E402
from tests.e2e.test_crash import BotProcess  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
# bot.py under cProfile, profiling only between SIGUSR1 (the moves begin) and SIGUSR2 (they
# end, and the profile is written): the start-up's imports and card checks stay out of it.
PROFILED = """
import cProfile, runpy, signal, sys
out = sys.argv[1]
sys.argv = sys.argv[2:]
prof = cProfile.Profile()
signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
signal.signal(signal.SIGUSR2, lambda *_: (prof.disable(), prof.dump_stats(out)))
runpy.run_path(sys.argv[0], run_name="__main__")
"""
EXPIRED = 10062  # Unknown interaction: answered after Discord's 3 s
HAND = "tablero:hand:"  # the card's "My hand" button, followed by its game's id
# How often the players look at the bot's database while a move they made is under way:
# they watch the fake's messages for it, and read the database only as a last resort (a
# move that ends its game shows no later move on its card).
DB_LOOK_EVERY = 0.5
# How often a player's wait looks again between the fake's changes (its predicates read
# only the fake's world and this process's copies of the games).
POLL_EVERY = 0.01
FREE_TRIES = 64  # games drawn before a player waits a little for one to be free


class CardIndex(dict):
    """The fake's live messages, remembering each game's cards (its messages with the "My
    hand" button) as they are posted, so a game's newest card is found without reading
    every message of the run at each look."""

    def __init__(self, messages: dict[str, dict]) -> None:
        super().__init__(messages)
        self.cards: dict[int, list[str]] = collections.defaultdict(list)
        for mid, message in messages.items():
            self._index(mid, message)

    def __setitem__(self, mid: str, message: dict) -> None:
        super().__setitem__(mid, message)
        self._index(mid, message)

    def _index(self, mid: str, message: dict) -> None:
        for cid in custom_ids(message.get("components")):
            if cid.startswith(HAND) and cid[len(HAND):].isdigit():
                self.cards[int(cid[len(HAND):])].append(mid)

    def newest_card(self, gid: int) -> dict | None:
        """The game's newest live card in a channel (not a private message)."""
        hand = f"{HAND}{gid}"
        for mid in reversed(self.cards.get(gid, ())):
            m = self.get(mid)
            if m is not None and not m["flags"] & EPHEMERAL and hand in custom_ids(m.get("components")):
                return m
        return None


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds a process has used so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def children(pid: int) -> list[int]:
    """The direct children of a process (the bot's picture workers)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def kind_of(interaction: dict) -> str:
    """What an interaction used: a command's name, or a component's custom_id without its ids."""
    data = interaction.get("data") or {}
    if "custom_id" in data:
        return ":".join(p for p in data["custom_id"].split(":")[:3] if not p.isdigit())
    return f"/{data.get('name', '?')}"


class BotAlone(Bench):
    """Bench's players and figures, with the bot in a process of its own."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)
        self.args.moves = 10**9  # the run is bounded by --seconds
        self.games_read: dict[int, Game] = {}
        self.expired = 0
        self.acks_by_kind: dict[str, list[float]] = collections.defaultdict(list)
        self.deadline = 0.0
        self._shown: dict[int, tuple[tuple[Any, ...], frozenset[int]]] = {}

    async def game(self, gid: int) -> Game | None:
        """The game as the bot last committed it, read from its database."""
        g = await self.session.get(gid)
        if g is not None:
            self.games_read[gid] = g
        return g

    def cached(self, gid: int) -> Game | None:
        """The game as this process last read it."""
        return self.games_read.get(gid)

    def board(self, gid: int) -> dict | None:
        """The game's newest card in its channel (a card posted anew shows the move before the
        one it replaces is retired), else the one the bot stored."""
        messages = self.fake.messages
        newest = messages.newest_card(gid) if isinstance(messages, CardIndex) else None
        return newest or super().board(gid)

    def versions_shown(self, gid: int) -> frozenset[int]:
        """The move numbers the game's card shows (its menu's and its footer's), read once per
        card and edit: fifty players' waits look at them after every change the fake sees."""
        board = self.board(gid)
        if board is None:
            return frozenset()
        # The fake replaces a message's components and embeds when it edits them (a "thinking"
        # message filled keeps no edited_timestamp): held here, they are compared by identity.
        key = (board["id"], board.get("edited_timestamp"), board.get("components"), board.get("embeds"))
        known = self._shown.get(gid)
        if known is not None and known[0][:2] == key[:2] and known[0][2] is key[2] and known[0][3] is key[3]:
            return known[1]
        self._shown[gid] = (key, self.versions_shown_of(gid, board))
        return self._shown[gid][1]

    def versions_shown_of(self, gid: int, board: dict) -> frozenset[int]:
        """The move numbers a card of the game shows (its menu's and its footer's)."""
        found = {int(m.group(1)) for c in self.fake.components(board)
                 if (m := re.match(rf"tablero:pick:{gid}:(\d+):", c.get("custom_id", ""))) is not None}
        found |= {int(v) for v in re.findall(r"(?:move|jugada) (\d+)\b",
                                             json.dumps(board["embeds"], ensure_ascii=False))}
        return frozenset(found)

    def shows(self, gid: int, version: int) -> bool:
        """Bench's check, read from versions_shown."""
        return version in self.versions_shown(gid)

    def shown_after(self, gid: int, version: int) -> bool:
        """Whether the game's card shows a move later than ``version``."""
        return any(v > version for v in self.versions_shown(gid))

    async def what_shows(self, gid: int) -> str:
        """What a failed move's game looks like: its stored version and card, and its cards
        live in the fake with the moves each shows."""
        g = await self.game(gid)
        messages = self.fake.messages
        live = [m for m in (messages.get(mid) for mid in getattr(messages, "cards", {}).get(gid, ())) if m]
        cards = ", ".join(f"{m['id']} shows {sorted(self.versions_shown_of(gid, m))}" for m in live)
        return (f"stored version {g.version if g else None}, pending {sorted(g.pending()) if g else None}, "
                f"card {g.row.board_message_id if g else None}; live cards: {cards or 'none'}")

    async def landed(self, gid: int, version: int, message: dict, edited: str | None) -> None:
        """Bench's wait after an acknowledged choice, watching the fake (the message the choice
        was made on changes, or the card shows a later move) rather than polling the bot's
        database, which would cost this process more than the fake's own work."""
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline:
            try:
                await self.fake.wait_until(lambda: message.get("edited_timestamp") != edited
                                           or self.shown_after(gid, version), timeout=DB_LOOK_EVERY)
                return
            except TimeoutError:
                now = await self.game(gid)
                if now is None or now.version > version:
                    return
        raise TimeoutError(f"waited 60 s for an acknowledged choice's outcome (after move {version})")

    async def interact(self, coro, t0: float) -> dict:  # type: ignore[no-untyped-def]
        """Send an interaction and record its acknowledgement; one Discord forgot is counted."""
        try:
            inter = await super().interact(coro, t0)
        except AssertionError:
            self.expired += 1
            raise
        self.acks_by_kind[kind_of(inter)].append(self.acks[-1])
        return inter

    async def player(self) -> None:
        """Bench's player, until the run's time is up; a failed move is counted, not fatal."""
        while time.perf_counter() < self.deadline:
            await self.paced()
            if time.perf_counter() >= self.deadline:
                break
            # A game drawn at random until one is free and active (most are: 50 of 1,000 are
            # busy), rather than listing them all at every move.
            gid = next((gid for gid in (self.rng.choice(self.hot) for _ in range(FREE_TRIES))
                        if gid not in self.busy and (g := self.cached(gid)) is not None
                        and g.status == "active"), None)
            if gid is None:
                await asyncio.sleep(0.01)
                continue
            self.busy.add(gid)
            try:
                await self.part(gid)
            except (AssertionError, TimeoutError) as exc:
                self.failed.append(f"game {gid}: {exc}; {await self.what_shows(gid)}")
            finally:
                self.busy.discard(gid)

    async def setup(self, db: str) -> None:
        """Open the games in the database and their cards in the fake, then start the bot."""
        a = self.args
        self.failed: list[str] = []
        await self.fake.start()
        self.fake.strict.window_scale = a.scale
        self.fake.poll_every = POLL_EVERY
        self.fake.messages = CardIndex(self.fake.messages)
        self.users = [self.fake.add_user(f"player{k}") for k in range(24)]
        names = [f"mesa-{k}" for k in range(a.games)]
        for start in range(0, a.games, CHANNELS_PER_GUILD):
            guild = self.fake.add_guild(f"Club {start // CHANNELS_PER_GUILD}",
                                        names[start:start + CHANNELS_PER_GUILD], self.users)
            self.channels += guild["channels"]
        store = await Store.open(db)
        self.session = SessionService(store)
        self.session.shared = True  # every read goes to the database: the bot writes it
        titles = [g for g in GAMES if not a.titles or g[0] in a.titles]
        for k in range(a.games):
            game_id, seats = titles[k % len(titles)]
            channel = self.channels[k]
            players = [self.users[(k + j) % len(self.users)] for j in range(seats)]
            g = await self.session.create(guild_id=int(channel["guild_id"]), channel_id=int(channel["id"]),
                                          game_id=game_id, options={}, host_id=int(players[0]["id"]),
                                          host_name=players[0]["username"], locale="es")
            for p in players[1:]:
                await self.session.join(g.id, user_id=int(p["id"]), name=p["username"], locale="es")
            await self.session.start(g.id, by=int(players[0]["id"]))
            # No card stored: the bot's start looks for it in the channel and, finding none,
            # posts it (a start leaves the stored cards of other games as they are).
            self.games.append(g.id)
            await self.game(g.id)
        # What the starts owe Discord (the opening announcements) is taken as told.
        async with store._write() as con:
            await con.execute("UPDATE outbox SET done_at = ?, expanded = TRUE WHERE done_at IS NULL", (time.time(),))
        self.hot = self.games[: a.hot or a.games]
        # As in production: the bot's own number of picture workers unless told.
        workers = default_workers() if a.workers is None else a.workers
        self.proc = BotProcess(self.fake, db, Path(db).with_suffix(".log"),
                               env={"TABLERO_PICTURE_WORKERS": str(workers)})
        if a.profile:
            self.proc.launch = self._launch_profiled(self.proc)  # type: ignore[method-assign]
        t0 = time.perf_counter()
        await self.proc.launch()
        async with asyncio.timeout(a.start_timeout):
            while "resumed " not in self.proc.text():
                if self.proc.proc is None or self.proc.proc.returncode is not None:
                    raise RuntimeError(f"the bot stopped while starting:\n{self.proc.text()[-3000:]}")
                await asyncio.sleep(0.2)
        print(f"bot started and checked {a.games} cards in {time.perf_counter() - t0:.1f} s")

    def _launch_profiled(self, proc: BotProcess):  # type: ignore[no-untyped-def]
        """BotProcess.launch, with ``python -m cProfile -o FILE bot.py`` as the command."""
        original = proc.launch

        async def launch() -> None:
            real = asyncio.create_subprocess_exec

            async def exec_(program: str, script: str, *args: str, **kw):  # type: ignore[no-untyped-def]
                return await real(program, "-c", PROFILED, str(Path(self.args.profile).resolve()), script,
                                  *args, **kw)

            asyncio.create_subprocess_exec = exec_  # type: ignore[assignment]
            try:
                await original()
            finally:
                asyncio.create_subprocess_exec = real  # type: ignore[assignment]

        return launch

    async def run(self) -> None:
        """Set up, play, stop the bot, print the figures."""
        with tempfile.TemporaryDirectory() as tmp:
            try:
                await self.play(str(Path(tmp) / "bench.db"))
            finally:
                if getattr(self, "proc", None) is not None:
                    await self.proc.stop()
                    errors = self.proc.errors()
                    if errors:
                        print(f"the bot logged {len(errors)} errors, the first: {errors[0]}")
                        text = self.proc.text()
                        at = text.find("Traceback")
                        if at >= 0:
                            print(text[at:at + 2500])
                if getattr(self, "session", None) is not None:
                    await self.session.store.close()
                await self.fake.stop()
        self.report()

    async def play(self, db: str) -> None:
        """Play for --seconds; keeps what the report needs."""
        await self.setup(db)
        assert self.proc.proc is not None
        pid = self.proc.proc.pid
        workers = children(pid)
        first, limited = len(self.fake.requests), len(self.fake.rate_limited)
        expired = len(self.fake.errors_with(EXPIRED))
        bot_cpu, workers_cpu = cpu_seconds(pid), sum(cpu_seconds(w) for w in workers)
        me = time.process_time()
        if self.args.profile:
            os.kill(pid, signal.SIGUSR1)
        t0 = time.perf_counter()
        self.deadline = t0 + self.args.seconds
        self.next_start = t0
        await asyncio.gather(*(self.player() for _ in range(self.args.players)))
        self.wall = time.perf_counter() - t0
        if self.args.profile:
            os.kill(pid, signal.SIGUSR2)
        self.bot_cpu = cpu_seconds(pid) - bot_cpu
        self.workers_cpu = sum(cpu_seconds(w) for w in workers) - workers_cpu
        self.fake_cpu = time.process_time() - me
        await asyncio.sleep(6.0 * self.args.scale + 0.2)  # let a queued card edit land
        # What the bot still owed Discord then: changes not yet wholly delivered (a card held
        # for a part left half made counts until it is shown).
        self.owed = len(await self.session.store.open_changes())
        self.stale = []
        for gid in self.hot:
            g = await self.game(gid)
            if g is not None and g.status == "active" and not self.shows(gid, g.version):
                self.stale.append(gid)
        # Exactly one live card per game: every other card posted was retired (deleted, or
        # its components taken off).
        messages = self.fake.messages
        cards = getattr(messages, "cards", {})
        self.doubled = [gid for gid in self.hot
                        if sum(1 for mid in cards.get(gid, ()) if (m := messages.get(mid)) is not None
                               and not m["flags"] & EPHEMERAL
                               and f"{HAND}{gid}" in custom_ids(m.get("components"))) > 1]
        self.requests = self.fake.requests[first:]
        self.limited = len(self.fake.rate_limited) - limited
        self.expired_calls = len(self.fake.errors_with(EXPIRED)) - expired
        self.load = os.getloadavg()

    def report(self) -> None:
        """Bench's figures, then the ones only a bot in its own process gives."""
        super().report()
        n = max(1, self.moves)
        print(f"interactions Discord forgot (10062): {self.expired_calls} callbacks refused, "
              f"{self.expired} interactions never answered; moves that failed: {len(self.failed)}")
        print("  acknowledged, by what was used: " + "; ".join(
            f"{k} p50 {pct(v, 50):.0f} ms p99 {pct(v, 99):.0f} ms ({len(v)})"
            for k, v in sorted(self.acks_by_kind.items(), key=lambda kv: -len(kv[1]))))
        answered: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
        for iid, response in self.fake.interaction_responses.items():
            answered[kind_of(self.fake.interactions.get(iid, {}))][response.get("type", 0)] += 1
        print("  answered, by what was used (response type: count): " + "; ".join(
            f"{k} " + ", ".join(f"{t}: {c}" for t, c in sorted(v.items()))
            for k, v in sorted(answered.items(), key=lambda kv: -sum(kv[1].values()))))
        late = collections.Counter(kind_of(self.fake.interactions.get(iid, {}))
                                   for iid, exc in self.fake.rejected_callbacks.items() if exc.code == EXPIRED)
        if late:
            print("  refused as late, by what was used: " + ", ".join(f"{k} {c}" for k, c in late.most_common()))
        print(f"changes the bot still owed Discord {6.0 * self.args.scale + 0.2:.1f} s after the last move: {self.owed}")
        print(f"games with more than one live card at the end: {len(self.doubled)}"
              + (f" ({', '.join(map(str, self.doubled[:10]))})" if self.doubled else ""))
        for line in self.failed[:5]:
            print(f"  {line}")
        print(f"CPU per move: bot process {1000 * self.bot_cpu / n:.1f} ms "
              f"({self.bot_cpu / self.wall:.0%} of a core), picture workers {1000 * self.workers_cpu / n:.1f} ms, "
              f"fake and players {1000 * self.fake_cpu / n:.1f} ms; "
              f"one free core for the bot process would sustain {n / max(self.bot_cpu, 1e-9):.0f} moves/s")
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in self.load)}")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--hot", type=int, default=None, help="how many of the games are played (default: all)")
    p.add_argument("--players", type=int, default=50)
    p.add_argument("--rate", type=float, default=0.0,
                   help="moves begun a second, all players together, at most --players in flight "
                        "(default 0: each player moves again as soon as its last move shows)")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--scale", type=float, default=1.0, help="Discord's rate-limit windows times this")
    p.add_argument("--workers", type=int, default=None, help="picture workers (default: the bot's own choice)")
    p.add_argument("--profile", default=None, help="run the bot under cProfile, writing its profile here")
    p.add_argument("--start-timeout", type=float, default=600.0)
    p.add_argument("--titles", nargs="*", default=[], help="only these games (default: all three)")
    args = p.parse_args()
    args.no_coalesce = False
    asyncio.run(BotAlone(args).run())


if __name__ == "__main__":
    main()
