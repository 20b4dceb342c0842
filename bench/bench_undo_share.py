"""The share of moves that /game undo may take back, per game (a script, not a test).

    python bench/bench_undo_share.py [--seeds 3] [--moves 400]

Plays seeded games of every game and player count with the built-in bot on every seat
(at most ``--moves`` moves each) and asks the undo check (services.history) about every
move: prints the share it allows and, where the check can say why, what blocks the rest.
"""

from __future__ import annotations

import argparse
from collections import Counter

from rules.registry import games
from services import history


def why(engine, before, after, events, seat) -> str | None:  # type: ignore[no-untyped-def]
    """The undo check's reason for refusing (a bare "refused" where it gives none)."""
    explain = getattr(history, "what_it_reveals", None)
    if explain is not None:
        reason = explain(engine, before, after, events, seat)
        # "new to seat 1: card:12" -> "new: card" (the kind, not the card)
        return reason if reason is None or ":" not in reason else reason.split(":")[0] + ": " + \
            reason.split(": ", 1)[1].split(":")[0]
    return "refused" if history.reveals(engine, before, after, events, seat) else None


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--moves", type=int, default=400)
    args = ap.parse_args()
    for gid, engine in sorted(games().items()):
        if gid not in ("ragami", "rattus_cartus", "ankh_morpork", "rey_hierofante", "guerra_de_mitos"):
            continue
        total, allowed, reasons = 0, 0, Counter[str]()
        for n in range(engine.min_players, engine.max_players + 1):
            for seed in range(1, args.seeds + 1):
                state = engine.setup(n, {}, seed)
                for _ in range(args.moves):
                    if state.finished:
                        break
                    seat = sorted(engine.pending(state))[0]
                    new, events = engine.apply(state, seat, engine.ai_action(state, seat))
                    reason = why(engine, state, new, events, seat)
                    total += 1
                    if reason is None:
                        allowed += 1
                    else:
                        reasons[reason.replace(f"seat {seat}", "the mover")] += 1
                    state = new
        print(f"{gid}: {allowed}/{total} moves undoable ({100 * allowed / max(total, 1):.1f}%)")
        for reason, k in reasons.most_common(6):
            print(f"    {k:6d}  {reason}")


if __name__ == "__main__":
    main()
