"""How long one member's heaviest commands hold the bot's event loop: the real bot against
the strict fake Discord server, a scripted adversary, a probe and a member of another server.

    python bench/bench_event_loop_lag.py [--imports 3] [--replays 8] [--new 40]
                                         [--workers 2] [--game ankh_morpork] [--seed 4]

Before the attack, a game of ``--game`` (the adversary against bots) is played to its end.
Then, at once, in the adversary's server:

- ``--imports`` members each paste 3,000 junk entries into ``/gdm deck import``;
- ``--replays`` members each ask ``/game replay`` of the finished game (its animation);
- one member sends ``--new`` ``/game new`` in new threads, as fast as Discord takes them.

Meanwhile a probe wakes every 10 ms and notes how late it woke (the event loop's lag, and
how much of it the loop's thread spent running code itself), and
a member of another server runs ``/settings`` again and again, noting how long each waits
for Discord's acknowledgement (Discord gives up after 3 s). Prints the lag's p50/p99/max,
that member's acknowledgement p50/p99/max and how many missed the 3 s, and what the
adversary got (answers, refusals, threads opened), with the time until the last answer.
``--workers``: the bot's picture workers (0: pictures drawn in the bot's own process).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import re
import statistics
import string
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Settings, create_bot  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.harness import start_bot, stop_bot  # noqa: E402

PROBE_EVERY = 0.010  # seconds between the probe's wake-ups
DISCORD_ACK = 3000.0  # ms Discord waits for an interaction's acknowledgement
PUBLIC_THREAD = 11


def pct(values: list[float], q: int) -> float:
    """The q-th percentile."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def junk(rng: random.Random, entries: int) -> str:
    """``entries`` words naming no card, ";"-separated, within a command box's 6,000 characters."""
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 7)))
             for _ in range(entries)]
    text = ";".join(words)
    while len(text) > 6000:  # Discord's cap on a command's text
        words = [w[:-1] if len(w) > 1 else w for w in words]
        text = ";".join(words)
    return text


class Bench:
    """The fake, the bot, the adversary, the probe and the quiet member."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.fake = FakeDiscord()
        self.lags: list[float] = []
        self.busy: list[float] = []
        self.quiet_acks: list[float] = []
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.attack_done = 0.0

    async def setup(self, db: str) -> None:
        """Two servers, the bot (its picture workers ready), a finished game to replay."""
        a = self.args
        await self.fake.start()
        self.members = [self.fake.add_user(f"member{k}") for k in range(max(a.replays, a.imports, 1) + 1)]
        self.quiet = self.fake.add_user("quiet")
        self.guild = self.fake.add_guild("Adversary's club", ["tables", "lobbies"], self.members)
        self.other = self.fake.add_guild("Quiet club", ["games"], [self.quiet])
        self.bot = create_bot(Settings(token="fake-token", db_path=db, picture_workers=a.workers))
        self.task = await start_bot(self.fake, self.bot, timeout=120)
        await asyncio.to_thread(self.bot.pictures.wait_ready, 60)
        session = self.bot.session
        session._seed = lambda: 1_000 + a.seed  # the same game in every run, before and after a change
        host = self.members[0]
        table = self.guild["channels"][0]
        engine = session.engine(a.game)
        g = await session.create(guild_id=int(self.guild["id"]), channel_id=int(table["id"]), game_id=a.game,
                                 options={}, host_id=int(host["id"]), host_name=host["username"], locale="en")
        while len(g.seats) < engine.min_players:
            g = await session.add_ai(g.id, by=int(host["id"]))
        await session.start(g.id, by=int(host["id"]))
        moves = 0
        while (g := await session.get(g.id)) is not None and g.status == "active":
            seat = sorted(g.pending())[0]
            actions = engine.legal_actions(g.state, seat)
            await session.move(g.id, int(host["id"]), self.rng.choice(actions))
            moves += 1
        assert g is not None and g.status == "finished", g
        self.game, self.game_moves = g.id, g.version

    async def probe(self, stop: asyncio.Event) -> None:
        """Wake every PROBE_EVERY seconds; note how late each wake-up came (ms)."""
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            t0, cpu0 = loop.time(), time.thread_time()
            await asyncio.sleep(PROBE_EVERY)
            lag = (loop.time() - t0 - PROBE_EVERY) * 1000
            self.lags.append(lag)
            # the part of the lag the loop's thread spent running code itself (the rest it
            # waited for the interpreter's lock, held by the bot's other threads, or for a core)
            self.busy.append(min(lag, max(0.0, (time.thread_time() - cpu0 - PROBE_EVERY) * 1000)))

    async def answered(self, inter: dict, timeout: float = 600) -> float:
        """When the bot first answered ``inter`` (perf_counter seconds), in time or too late
        (Discord then refuses the answer: the member saw "The application did not respond")."""
        try:
            await self.fake.wait_response(inter, timeout=timeout)
        except AssertionError:
            if inter["id"] not in self.fake.rejected_callbacks:
                raise
        return next(r.at for r in self.fake.requests if r.path.startswith(f"/interactions/{inter['id']}/"))

    async def quiet_member(self, stop: asyncio.Event) -> None:
        """The other server's member: /settings again and again, each acknowledgement timed."""
        channel = self.other["channels"][0]
        while not stop.is_set():
            t0 = time.perf_counter()
            inter = await self.fake.slash("settings", self.quiet, channel)
            self.quiet_acks.append((await self.answered(inter) - t0) * 1000)
            await asyncio.sleep(0.1)

    def outcome(self, kind: str, inter: dict) -> None:
        """Count what the adversary got: files, a refusal (its first words), or a lobby."""
        message = self.fake.response_message(inter) or next(iter(self.fake.followups(inter)), None)
        if message is None:
            self.outcomes[f"{kind}: no answer"] += 1
            return
        files = self.fake.files(message)
        if files:
            self.outcomes[f"{kind}: files {'+'.join(sorted(f['filename'].rsplit('.', 1)[-1] for f in files))}"] += 1
        elif message.get("embeds") and kind == "new":
            self.outcomes[f"{kind}: lobby"] += 1
        else:
            words = " ".join((message.get("content") or "").split()[:6])
            self.outcomes[f"{kind}: " + re.sub(r"<#\d+>|#\d+", "#…", words)] += 1

    async def command(self, kind: str, command: str, user: dict, channel: dict, **options: Any) -> None:
        """One adversary command, waited for to its answer (a deferred one to its followup)."""
        inter = await self.fake.slash(command, user, channel, **options)
        await self.answered(inter)
        if inter["id"] in self.fake.rejected_callbacks:
            self.outcomes[f"{kind}: answered too late (Discord refused the answer)"] += 1
            return
        if self.fake.interaction_responses[inter["id"]]["type"] == 5:
            await self.fake.wait_until(lambda: self.fake.response_message(inter) is not None
                                       and (self.fake.response_message(inter).get("content")
                                            or self.fake.files(self.fake.response_message(inter))
                                            or self.fake.response_message(inter).get("embeds")),
                                       timeout=600)
        self.outcome(kind, inter)

    async def attack(self) -> None:
        """Every heavy command at once; returns when each has its answer."""
        a = self.args
        table, lobbies = self.guild["channels"]
        jobs = [self.command("import", "gdm deck import", self.members[k], table, name=f"junk {k}",
                             text=junk(self.rng, 3000)) for k in range(a.imports)]
        jobs += [self.command("replay", "game replay", self.members[k], table) for k in range(a.replays)]
        jobs += [self.command("new", "game new", self.members[-1], lobbies, game="rey_hierofante", thread=True)
                 for _ in range(a.new)]
        t0 = time.perf_counter()
        await asyncio.gather(*jobs)
        self.attack_done = time.perf_counter() - t0

    async def run(self) -> None:
        """Set up, attack while probing, print the figures."""
        with tempfile.TemporaryDirectory() as tmp:
            try:
                await self.setup(str(Path(tmp) / "bench.db"))
                stop = asyncio.Event()
                watchers = [asyncio.create_task(self.probe(stop)), asyncio.create_task(self.quiet_member(stop))]
                await asyncio.sleep(0.5)  # a quiet baseline first
                calm = len(self.lags), len(self.quiet_acks)
                await self.attack()
                stop.set()
                await asyncio.gather(*watchers)
                self.calm = calm
            finally:
                if getattr(self, "task", None) is not None and not self.task.done():
                    await stop_bot(self.bot, self.task)
                await self.fake.stop()
        self.report()

    def report(self) -> None:
        """Print the figures."""
        a = self.args
        calm, lags, acks = self.lags[:self.calm[0]], self.lags[self.calm[0]:], self.quiet_acks[self.calm[1]:]
        busy = self.busy[self.calm[0]:]
        threads = sum(1 for c in self.fake.channels.values() if c.get("type") == PUBLIC_THREAD)
        print(f"adversary: {a.imports} imports of 3,000 junk entries, {a.replays} replays of a finished "
              f"{a.game} game ({self.game_moves} moves), {a.new} /game new in threads; "
              f"picture workers: {a.workers}")
        print(f"event-loop lag before the attack: p50 {pct(calm, 50):.1f} ms, p99 {pct(calm, 99):.1f} ms, "
              f"max {max(calm, default=float('nan')):.0f} ms ({len(calm)} wake-ups)")
        print(f"event-loop lag under attack: p50 {pct(lags, 50):.1f} ms, p99 {pct(lags, 99):.1f} ms, "
              f"max {max(lags, default=float('nan')):.0f} ms ({len(lags)} wake-ups)")
        print(f"  of which the loop's thread ran code: p50 {pct(busy, 50):.1f} ms, p99 {pct(busy, 99):.1f} ms, "
              f"max {max(busy, default=float('nan')):.0f} ms (the rest: waiting for the interpreter's lock or a core)")
        print(f"other server's /settings acknowledged: p50 {pct(acks, 50):.0f} ms, p99 {pct(acks, 99):.0f} ms, "
              f"max {max(acks, default=float('nan')):.0f} ms; over Discord's 3 s: "
              f"{sum(1 for x in acks if x > DISCORD_ACK)} of {len(acks)}")
        print(f"every adversary command answered after {self.attack_done:.1f} s; threads opened: {threads}")
        for what, n in sorted(self.outcomes.items()):
            print(f"  {n:3d} x {what}")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--imports", type=int, default=3)
    p.add_argument("--replays", type=int, default=8)
    p.add_argument("--new", type=int, default=40)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--game", default="ankh_morpork")
    p.add_argument("--seed", type=int, default=4)
    asyncio.run(Bench(p.parse_args()).run())


if __name__ == "__main__":
    main()
