"""Moves per second with many games moving at once, with and without group commit.

The game is the smallest there is (tic-tac-toe, defined here), so the figures measure the
platform's move path rather than a game's rules: the session service (game lock, checks,
apply, JSON), the guarded commit of state, log row and outbox row, and the sync. 1,000
open games, 16 of them moving at once, each move a random legal one. Run:

    python bench/bench_group_commit.py [--games 1000] [--concurrency 16] [--moves 3000]
        [--rounds 3] [--sync FULL]

Side by side with boardgame.io's server: set TABLERO_BGIO_DIR to a directory holding an
install of boardgame.io (with node-persist for its flat-file storage) and a ``load.js``
there that plays the same load on boardgame.io's Master over FlatFile and prints one JSON
line ``{"moves": n, "seconds": s, "cpu": s}``; it is called as
``node load.js --games N --concurrency C --moves M --dir DIR --seed R``. Without it the
comparison is skipped (and says so). The runs are interleaved, round after round, so a
loaded machine weighs on all of them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

# Run from anywhere: the project root is the parent of bench/.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core import (  # noqa: E402
    Action,
    Engine,
    Event,
    GameState,
    IllegalAction,
    Outcome,
    Prompt,
    Rng,
    Seat,
    View,
    tr,
)
from services.session import SessionService  # noqa: E402
from storage import Store  # noqa: E402

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


class Mark(Action):
    """Put the seat's mark in an empty cell."""

    kind: Literal["mark"] = "mark"
    cell: int = Field(ge=0, le=8)


ACTION = TypeAdapter(Annotated[Mark, Field(discriminator="kind")])


class Board(GameState):
    """Nine cells (None, 0 or 1), whose turn it is, and the winner once there is one."""

    cells: list[int | None] = Field(default_factory=lambda: [None] * 9)
    turn: int = 0
    winner: int | None = None


class BoardView(View):
    """Everything is public."""

    cells: list[int | None]
    turn: int


class NoOptions(BaseModel):
    """Tic-tac-toe has none."""


class TicTacToe(Engine[Board]):
    """Tic-tac-toe for two seats."""

    id = "tictactoe"
    title = tr("Tres en raya", "Tic-tac-toe")
    min_players = max_players = 2
    options_model = NoOptions
    state_model = Board
    action_adapter = ACTION

    def _setup(self, num_seats: int, options: Any, seed: int) -> Board:
        return Board(num_seats=num_seats, rng=Rng(seed=seed))

    def _pending(self, state: Board) -> dict[Seat, Prompt]:
        return {state.turn: Prompt(kind="mark", text=tr("Marca una casilla", "Mark a cell"))}

    def _legal_actions(self, state: Board, seat: Seat) -> list[Action]:
        return [Mark(cell=i) for i, c in enumerate(state.cells) if c is None]

    def _apply(self, state: Board, seat: Seat, action: Action) -> list[Event]:
        assert isinstance(action, Mark)
        if state.cells[action.cell] is not None:
            raise IllegalAction("Esa casilla está ocupada.", "That cell is taken.")
        state.cells[action.cell] = seat
        if any(state.cells[a] == state.cells[b] == state.cells[c] == seat for a, b, c in LINES):
            state.winner, state.finished = seat, True
        elif all(c is not None for c in state.cells):
            state.finished = True
        state.turn = 1 - seat
        return [Event(kind="mark", text=tr("Marca", "Mark"), data={"cell": action.cell})]

    def _view(self, state: Board, seat: Seat | None) -> View:
        return BoardView(seat=seat, version=state.version, cells=state.cells, turn=state.turn)

    def _outcome(self, state: Board) -> Outcome:
        ranking = [[state.winner], [1 - state.winner]] if state.winner is not None else [[0, 1]]
        return Outcome(ranking=ranking, reason=tr("Fin", "Over"))


ENGINES = {TicTacToe.id: TicTacToe()}


async def seed_store(path: Path, games: int) -> None:
    """``games`` started games between two humans, made through the session service."""
    store = await Store.open(path, synchronous="OFF")  # setup only
    session = SessionService(store, ENGINES, seed_source=lambda: 1)
    for i in range(games):
        g = await session.create(guild_id=1, channel_id=10_000 + i, game_id=TicTacToe.id,
                                 options={}, host_id=2 * i + 1, host_name="Ana", locale="es")
        await session.join(g.id, user_id=2 * i + 2, name="Bruno", locale="es")
        await session.start(g.id, by=2 * i + 1)
    await store.close()


async def tablero(seeded: Path, workdir: Path, *, group: bool, sync: str, concurrency: int,
                  moves: int, seed: int) -> dict[str, float]:
    """Play ``moves`` moves, ``concurrency`` games at a time, on a copy of the seeded store."""
    path = workdir / f"run-{group}-{seed}.db"
    shutil.copy(seeded, path)
    store = await Store.open(path, synchronous=sync, group_commit=group)
    session = SessionService(store, ENGINES)
    ids = await store.open_game_ids()
    games = [await session.require(g) for g in ids]  # loaded, as in a running bot
    rng = random.Random(seed)
    idle = list(games)  # open and not moving now
    done = 0

    async def worker() -> None:
        nonlocal done
        while done < moves:
            i = rng.randrange(len(idle))
            idle[i], idle[-1] = idle[-1], idle[i]
            g = idle.pop()
            seat = next(iter(g.pending()))
            action = rng.choice(g.legal_actions(seat))
            user = g.seat_row(seat).user_id
            await session.move(g.id, user, action.model_dump(), g.version)
            if g.status == "active":
                idle.append(g)
            done += 1

    cpu0, t0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    seconds, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    grouped = store._group
    per_batch = grouped.writes / grouped.batches if grouped is not None and grouped.batches else 1.0
    await store.close()
    path.unlink()
    return {"moves": done, "seconds": seconds, "cpu": cpu, "per_commit": per_batch}


def bgio(driver: Path, workdir: Path, *, games: int, concurrency: int, moves: int,
         seed: int) -> dict[str, float]:
    """The same load on boardgame.io's server core over its flat-file storage."""
    out = subprocess.run(
        ["node", str(driver), "--games", str(games), "--concurrency", str(concurrency),
         "--moves", str(moves), "--dir", str(workdir / f"bgio-{seed}"), "--seed", str(seed)],
        cwd=driver.parent, capture_output=True, text=True, check=True, timeout=3600,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def line(name: str, r: dict[str, float]) -> str:
    """One run's figures."""
    extra = f", {r['per_commit']:.1f} moves per commit" if "per_commit" in r else ""
    return (f"  {name:<22} {r['moves'] / r['seconds']:7.0f} moves/s, "
            f"{r['cpu'] / r['moves'] * 1e3:5.2f} ms CPU per move{extra}")


async def main() -> None:
    """Parse arguments, seed the games once, run the rounds, print the figures and ratios."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--moves", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sync", default="FULL", help="PRAGMA synchronous of the measured store")
    ap.add_argument("--dir", type=Path, default=None, help="where to put the files (default: temp)")
    args = ap.parse_args()

    home = os.environ.get("TABLERO_BGIO_DIR")
    driver = Path(home) / "load.js" if home else None
    if driver is not None and not (driver.exists()
                                   and (driver.parent / "node_modules" / "boardgame.io").exists()):
        print(f"TABLERO_BGIO_DIR={home} holds no boardgame.io install with load.js")
        driver = None
    if driver is None:
        print("boardgame.io comparison skipped (set TABLERO_BGIO_DIR to run it)")

    print(f"{args.games} open tic-tac-toe games, {args.concurrency} moving at once, "
          f"{args.moves} moves per run, synchronous={args.sync}, {os.cpu_count()} CPUs")
    runs: dict[str, list[dict[str, float]]] = {"group": [], "alone": [], "bgio": []}
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        workdir = Path(d)
        seeded = workdir / "seeded.db"
        await seed_store(seeded, args.games)
        kinds = ["group", "alone"] + (["bgio"] if driver is not None else [])
        for r in range(args.rounds):
            print(f"round {r + 1}")
            # A different order each round, so no kind always runs first or last.
            order = kinds[r % len(kinds):] + kinds[:r % len(kinds)]
            for kind in order:
                seed = 100 + r
                if kind == "bgio":
                    assert driver is not None
                    res = bgio(driver, workdir, games=args.games, concurrency=args.concurrency,
                               moves=args.moves, seed=seed)
                    name = "boardgame.io FlatFile"
                else:
                    res = await tablero(seeded, workdir, group=kind == "group", sync=args.sync,
                                        concurrency=args.concurrency, moves=args.moves, seed=seed)
                    name = f"Tablero, group commit {'on' if kind == 'group' else 'off'}"
                runs[kind].append(res)
                print(line(name, res))

    def rate(kind: str, i: int) -> float:
        return runs[kind][i]["moves"] / runs[kind][i]["seconds"]

    print("medians and ratios, round by round:")
    for kind in kinds:
        rates = [rate(kind, i) for i in range(args.rounds)]
        cpu = [x["cpu"] / x["moves"] * 1e3 for x in runs[kind]]
        print(f"  {kind:<6} median {statistics.median(rates):7.0f} moves/s, "
              f"{statistics.median(cpu):.2f} ms CPU per move")
    pairs = [("group", "alone")] + ([("group", "bgio"), ("alone", "bgio")] if driver else [])
    for a, b in pairs:
        ratios = [rate(a, i) / rate(b, i) for i in range(args.rounds)]
        print(f"  {a}/{b}: " + ", ".join(f"{x:.2f}" for x in ratios)
              + f" (median {statistics.median(ratios):.2f})")


if __name__ == "__main__":
    asyncio.run(main())
