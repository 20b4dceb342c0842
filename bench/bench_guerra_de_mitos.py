"""Guerra de Mitos figures: random games per second, the AI against random play, decision time.

Run: python bench/bench_guerra_de_mitos.py [games] (default 200 AI games, 20 random ones).
Decks: the ready decks when present, else the provisional decks of the tests.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.guerra_de_mitos.engine import GdmEngine, ready_decks  # noqa: E402
from rules.guerra_de_mitos.model import Options  # noqa: E402

try:
    from tests.rules import gdm_helpers as H  # noqa: E402

    PROVISIONAL = [H.deck_for(m) for m in H.MYTHOLOGIES]
except Exception:  # noqa: BLE001 - the bench also runs without the tests package
    PROVISIONAL = []

E = GdmEngine()


def decks(rng: random.Random, n: int) -> Options:
    """Random distinct decks for ``n`` seats."""
    pool = list(ready_decks().values()) or PROVISIONAL
    rng.shuffle(pool)
    return Options(decks=pool[:n])


def random_game(seed: int, n: int) -> int:
    """One game of random moves; returns the number of moves."""
    rng = random.Random(seed)
    st = E.setup(n, decks(rng, n), seed)
    steps = 0
    while not st.finished:
        seat = rng.choice(sorted(E.pending(st)))
        st, _ = E.apply(st, seat, rng.choice(E.legal_actions(st, seat)))
        steps += 1
    return steps


def ai_game(seed: int, times: list[float]) -> bool:
    """The AI (seat seed % 2) against a random player; True when the AI wins."""
    rng = random.Random(seed)
    ai = seed % 2
    st = E.setup(2, decks(rng, 2), seed)
    while not st.finished:
        seat = rng.choice(sorted(E.pending(st)))
        if seat == ai:
            t = time.perf_counter()
            a = E.ai_action(st, seat)
            times.append(time.perf_counter() - t)
        else:
            a = rng.choice(E.legal_actions(st, seat))
        st, _ = E.apply(st, seat, a)
    return ai in st.winners


def main() -> None:
    """Print the figures."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 200
    ai_first = "--ai-only" in sys.argv
    for n in () if ai_first else (2, 3, 4):
        t = time.perf_counter()
        k = max(2, games // 60)
        moves = sum(random_game(s, n) for s in range(k))
        dt = time.perf_counter() - t
        print(f"{n} players: {k / dt:.3f} random games/s ({moves / dt:.0f} moves/s, one core)")
    times: list[float] = []
    wins = 0
    for s in range(games):
        wins += ai_game(s, times)
        if (s + 1) % 20 == 0:
            print(f"  after {s + 1} games: {wins} won", flush=True)
    times.sort()
    p50 = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99)] * 1000
    print(f"AI vs random: {wins}/{games} won ({100 * wins / games:.1f}%)")
    print(f"AI decision: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {times[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
