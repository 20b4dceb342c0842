"""Ragami: the built-in player against random players, and the engine's speed.

    python bench/bench_ragami.py [--games 200] [--speed 100] [--pictures 6]

Prints the board picture's drawing time, the built-in player's win rate in seeded 3-player games against two players
choosing uniformly among the legal actions, its decision time (p50/p99/max), and how many
whole random games one core plays per second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.ragami.model import EndTurn  # noqa: E402
from rules.registry import engine  # noqa: E402

E = engine("ragami")  # with its built-in player


def ai_against_random(games: int) -> None:
    """The built-in player in seat ``seed % 3`` against two uniformly random players."""
    wins = shared = 0
    times: list[float] = []
    for seed in range(games):
        s = E.setup(3, {}, seed)
        ai = seed % 3
        r = random.Random(seed)
        while not s.finished:
            seat = min(E.pending(s))
            if seat == ai:
                t = time.perf_counter()
                a = E.ai_action(s, seat)
                times.append(time.perf_counter() - t)
            else:
                a = r.choice(E.legal_actions(s, seat))
            s, _ = E.apply(s, seat, a)
        w = E.outcome(s).winners  # type: ignore[union-attr]
        wins += w == [ai]
        shared += ai in w and len(w) > 1
    times.sort()
    print(f"built-in player vs 2 random players, {games} seeded 3-player games:")
    print(f"  wins {wins}/{games} = {100 * wins / games:.1f}%  (shared victories: {shared})")
    print(
        f"  decision time p50 {1000 * statistics.median(times):.2f} ms, "
        f"p99 {1000 * times[int(0.99 * len(times))]:.2f} ms, max {1000 * times[-1]:.2f} ms "
        f"over {len(times)} decisions"
    )


def random_speed(games: int) -> None:
    """Whole games by random players (a turn ends half the time it may), on one core."""
    for n in (2, 3, 4):
        steps = 0
        t = time.process_time()
        for seed in range(games):
            s = E.setup(n, {}, seed)
            r = random.Random(seed)
            while not s.finished:
                seat = min(E.pending(s))
                legal = E.legal_actions(s, seat)
                a = (
                    legal[-1]
                    if isinstance(legal[-1], EndTurn) and r.random() < 0.5
                    else r.choice(legal)
                )
                s, _ = E.apply(s, seat, a)
                steps += 1
        dt = time.process_time() - t
        print(
            f"random {n}-player games: {games / dt:.1f} games/s per core "
            f"({steps / games:.0f} moves a game, {steps / dt:.0f} moves/s)"
        )


def picture_speed(games: int) -> None:
    """The public board picture after every move of whole games by the built-in player."""
    from cogs.pictures.ragami import render_board

    times: list[float] = []
    sizes: list[int] = []
    names = ["Ana García", "Bruno", "Carla", "Dámaso"]
    for seed in range(games):
        n = 2 + seed % 3
        s = E.setup(n, {}, seed)
        while not s.finished:
            t = time.perf_counter()
            png = render_board(E.view(s, None), names[:n], "es")
            times.append(time.perf_counter() - t)
            sizes.append(len(png))
            seat = min(E.pending(s))
            s, _ = E.apply(s, seat, E.ai_action(s, seat))
    times.sort()
    print(
        f"board picture over {len(times)} positions: p50 {1000 * statistics.median(times):.1f} ms, "
        f"p99 {1000 * times[int(0.99 * len(times))]:.1f} ms, "
        f"PNG {statistics.median(sizes) / 1024:.0f} KB median"
    )


def main() -> None:
    """Run both measurements."""
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--speed", type=int, default=100)
    p.add_argument("--pictures", type=int, default=6)
    args = p.parse_args()
    random_speed(args.speed)
    picture_speed(args.pictures)
    if args.games:
        ai_against_random(args.games)


if __name__ == "__main__":
    main()
