"""Board pictures of Rattus Cartus, Ankh-Morpork and Guerra de Mitos, drawn after the moves
of whole games.

    python bench/bench_game_pictures.py [--games 6]

Prints p50/p99/max render time per game and player count, and PNG sizes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.pictures.ankh_morpork import render_board as am_render  # noqa: E402
from cogs.pictures.guerra_de_mitos import render_board as gdm_render  # noqa: E402
from cogs.pictures.rattus_cartus import render_board as rc_render  # noqa: E402
from rules.registry import engine  # noqa: E402

NAMES = ["Ana García", "Bruno", "Carla", "Dámaso", "Elena"]


def measure(game_id: str, render, seats: int, games: int) -> None:
    """Play ``games`` random games and time the public picture after every move."""
    eng = engine(game_id)
    times: list[float] = []
    sizes: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        st = eng.setup(seats, {}, seed)
        while not st.finished:
            seat = sorted(eng.pending(st))[0]
            st, _ = eng.apply(st, seat, rng.choice(eng.legal_actions(st, seat)))
            view = eng.view(st, None)
            t0 = time.perf_counter()
            png = render(view, NAMES[:seats], "es" if seed % 2 else "en")
            times.append(time.perf_counter() - t0)
            sizes.append(len(png))
    times.sort()
    q = statistics.quantiles(times, n=100)
    print(f"{game_id:14} {seats} players: {len(times):5} renders, p50 {q[49] * 1000:.2f} ms, "
          f"p99 {q[98] * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms, "
          f"PNG mean {statistics.mean(sizes) / 1024:.1f} KB")


def measure_gdm(seats: int, games: int, every: int = 3) -> None:
    """Guerra de Mitos: the built-in player plays every seat (random play drags on for
    hundreds of rounds); the public picture is timed every ``every`` moves."""
    eng = engine("guerra_de_mitos")
    times: list[float] = []
    sizes: list[int] = []
    heights: list[int] = []
    for seed in range(games):
        st = eng.setup(seats, {}, seed)
        moves = 0
        while not st.finished and moves < 600:
            seat = sorted(eng.pending(st))[0]
            st, _ = eng.apply(st, seat, eng.ai_action(st, seat))
            moves += 1
            if moves % every:
                continue
            view = eng.view(st, None)
            t0 = time.perf_counter()
            png = gdm_render(view, NAMES[:seats], "es" if seed % 2 else "en")
            times.append(time.perf_counter() - t0)
            sizes.append(len(png))
            heights.append(int.from_bytes(png[20:24], "big"))
    times.sort()
    q = statistics.quantiles(times, n=100)
    print(f"{'guerra_de_mitos':14} {seats} players: {len(times):5} renders, p50 {q[49] * 1000:.2f} ms, "
          f"p99 {q[98] * 1000:.2f} ms, max {times[-1] * 1000:.2f} ms, "
          f"PNG mean {statistics.mean(sizes) / 1024:.1f} KB, 520 x {max(heights)} px at most")


def main() -> None:
    """Parse arguments and run."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--only", choices=["guerra_de_mitos"], default=None)
    a = p.parse_args()
    if a.only is None:
        for seats in (2, 3, 5):
            measure("rattus_cartus", rc_render, seats, a.games)
        for seats in (2, 3, 4):
            measure("ankh_morpork", am_render, seats, a.games)
    for seats in (2, 3, 4):
        measure_gdm(seats, a.games)


if __name__ == "__main__":
    main()
