"""How strong each game's built-in player is against random players: the share of seeded
games it wins alone, sitting in seat ``seed % n`` with the random player of the play-out
tests in every other seat, against the share chance gives (1 / n).

Run: python bench/bench_ai_strength.py [games] [--titles a,b] [--counts 2,3]
(default 100 games per title and player count, every title at every count its rulebook
has). Games are played unchecked (the play-out tests check the contract).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.registry import games  # noqa: E402
from tests.playout import Rules, play  # noqa: E402


def strength(game_id: str, n: int, seeds: range) -> tuple[int, int, float]:
    """(wins alone, games, CPU seconds) of the built-in player in ``n``-player games."""
    rules = Rules(game_id)
    wins = 0
    t0 = time.process_time()
    for seed in seeds:
        out = play(rules, n, seed, players="mixed", every=None, checked=False)
        wins += rules.engine.outcome(out.state).winners == [seed % n]
    return wins, len(seeds), time.process_time() - t0


def main() -> None:
    """Print the table."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("games", nargs="?", type=int, default=100)
    p.add_argument("--titles", default=",".join(sorted(games())))
    p.add_argument("--counts", default="")
    a = p.parse_args()
    wanted = {int(c) for c in a.counts.split(",") if c}
    print("title, players: built-in player's wins alone / games (share; chance 1/n); CPU a game")
    for game_id in a.titles.split(","):
        e = games()[game_id]
        for n in range(e.min_players, e.max_players + 1):
            if wanted and n not in wanted:
                continue
            wins, played, cpu = strength(game_id, n, range(a.games))
            print(f"{game_id}, {n}: {wins}/{played} ({wins / played:.0%}; chance {1 / n:.0%}); "
                  f"{cpu / played:.2f} s", flush=True)


if __name__ == "__main__":
    main()
