"""The rules' texts, now read from gettext catalogues when shown: how much they cost.

Seeded random games of each game are played with their built-in player; every event,
prompt and result they produce is kept, then rendered in Spanish, in English, and in a
language with no catalogue (English by fallback), after a first reading of the catalogues. Prints, per game: texts made per move,
their JSON size, and rendering speed. Run:

    python bench/bench_texts.py [--games 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rules.core import Text
from rules.registry import engine

SEATS = {"rey_hierofante": 2, "rattus_cartus": 4, "ankh_morpork": 4, "ragami": 3, "guerra_de_mitos": 2}
OPTIONS: dict[str, dict] = {}


def play(game: str, seed: int, limit: int = 3000) -> tuple[list[Text], int, float]:
    """One seeded game with the built-in player: its texts, moves, and seconds spent."""
    eng = engine(game)
    st = eng.setup(SEATS[game], OPTIONS.get(game, {}), seed)
    texts: list[Text] = []
    moves = 0
    t0 = time.perf_counter()
    while not st.finished and moves < limit:
        pending = eng.pending(st)
        texts += [p.text for p in pending.values()]
        seat = min(pending)
        st, events = eng.apply(st, seat, eng.ai_action(st, seat))
        texts += [e.text for e in events]
        moves += 1
    spent = time.perf_counter() - t0
    out = eng.outcome(st)
    if out is not None:
        texts.append(out.reason)
    return texts, moves, spent


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"{'game':16} {'moves':>6} {'texts/move':>10} {'JSON B/text':>11} "
          f"{'play ms/move':>12} {'render es/s':>12} {'en/s':>10} {'fallback/s':>10}")
    for game in SEATS:
        texts: list[Text] = []
        moves, spent = 0, 0.0
        for i in range(args.games):
            t, m, s = play(game, args.seed + i)
            texts += t
            moves += m
            spent += s
        size = statistics.mean(len(t.model_dump_json()) for t in texts)
        speeds = []
        for locale in ("es", "en", "xx"):  # the catalogues are read once, before timing
            for text in texts[:50]:
                text.get(locale)
        for locale in ("es", "en", "xx"):
            best = float("inf")
            for _ in range(3):  # the best of three passes: the machine's other work aside
                t0 = time.perf_counter()
                for text in texts:
                    text.get(locale)
                best = min(best, time.perf_counter() - t0)
            speeds.append(len(texts) / best)
        print(f"{game:16} {moves:6d} {len(texts) / moves:10.1f} {size:11.0f} "
              f"{1000 * spent / moves:12.2f} {speeds[0]:12,.0f} {speeds[1]:10,.0f} {speeds[2]:10,.0f}")


if __name__ == "__main__":
    main()
