"""How seeded Guerra de Mitos games end: counts of each ending and the longest game.

Run: python bench/bench_gdm_endings.py [games] [--counts 2,3,4,5,6] [--mixes random,eager,ai,mixed]
(default 2000 games per player count, counts 2 to 6, the four players in turn by seed; the
counts are played in turn seed by seed, and the figures so far printed every ``--every``
seeds, so that a run stopped early has played every count alike).

The players (the ``mix``, chosen by ``seed % 4`` unless ``--mixes`` names fewer):
- random: every seat the plain random player of the play-out tests (a kind of move at
  random, then one move of that kind);
- eager: every seat the eager random player of those tests (it feeds its oracles);
- ai: every seat the built-in player;
- mixed: the built-in player in seat ``seed % n``, eager random players in the others.

Games are played unchecked (the play-out tests check the contract). Printed per count and
per mix: the games, how many ended by each ending (``dios_de_dioses``, ``olvido``,
``puntos``, ``bloqueo``, ``limite`` the turn bound), the longest game in turns (its seed),
and the CPU time. A game reaching the turn bound is printed with its seed as it happens.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.guerra_de_mitos.model import GdmState  # noqa: E402
from tests.rules.test_guerra_de_mitos_playouts import seated  # noqa: E402

MIXES = ("random", "eager", "ai", "mixed")


def players(mix: str, n: int, seed: int) -> list[str]:
    """Who plays each seat: "plain", "eager" or "ai"."""
    if mix == "ai":
        return ["ai"] * n
    if mix == "mixed":
        return ["ai" if s == seed % n else "eager" for s in range(n)]
    return ["plain" if mix == "random" else "eager"] * n


def game(n: int, seed: int, mix: str) -> GdmState:
    """One seeded game played to its end; returns the final state."""
    return seated(n, seed, players(mix, n, seed))


def report(n: int, mixes: list[str], ends: dict[tuple[int, str], Counter[str]],
           longest: dict[tuple[int, str], tuple[int, int]], cpu: Counter[tuple[int, str]]) -> None:
    """One line per mix of ``n`` players: games, endings, the longest game, CPU time."""
    for m in mixes:
        k = sum(ends[n, m].values())
        if k:
            print(f"{n} players, {m}: {k} games, endings {dict(sorted(ends[n, m].items()))}, "
                  f"longest {longest[n, m][0]} turns (seed {longest[n, m][1]}), "
                  f"{cpu[n, m]:.0f} s CPU ({cpu[n, m] / k:.2f} s a game)", flush=True)


def main() -> None:
    """Print the figures: every ``--every`` seeds so far, and at the end."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=2000)
    ap.add_argument("--counts", default="2,3,4,5,6")
    ap.add_argument("--mixes", default=",".join(MIXES))
    ap.add_argument("--first", type=int, default=0, help="the first seed")
    ap.add_argument("--every", type=int, default=200, help="print the figures so far every so many seeds")
    args = ap.parse_args()
    mixes = args.mixes.split(",")
    counts = [int(x) for x in args.counts.split(",")]
    ends: dict[tuple[int, str], Counter[str]] = {(n, m): Counter() for n in counts for m in mixes}
    longest = dict.fromkeys(ends, (0, -1))
    cpu: Counter[tuple[int, str]] = Counter()
    # the counts in turn seed by seed: a run stopped early has played every count alike
    for i, seed in enumerate(range(args.first, args.first + args.games)):
        mix = mixes[seed % len(mixes)]
        for n in counts:
            c = time.process_time()
            st = game(n, seed, mix)
            cpu[n, mix] += time.process_time() - c
            ends[n, mix][st.end_reason] += 1
            longest[n, mix] = max(longest[n, mix], (st.round, seed))
            if st.end_reason == "limite":
                print(f"  {n} players, {mix}, seed {seed}: the turn bound", flush=True)
        if (i + 1) % args.every == 0 and i + 1 < args.games:
            print(f"-- after {i + 1} seeds", flush=True)
            for n in counts:
                report(n, mixes, ends, longest, cpu)
    print(f"== {args.games} seeds", flush=True)
    for n in counts:
        report(n, mixes, ends, longest, cpu)


if __name__ == "__main__":
    main()
