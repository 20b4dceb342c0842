"""Guerra de Mitos figures: random games per second, the AI against random play, decision time.

Run: python bench/bench_guerra_de_mitos.py [games] (default 200 AI games, 20 random ones).
``--ai-only`` skips the random games; ``--playouts [k]`` instead plays k checked play-outs
per player count (default 300) with every check of tests/rules/test_guerra_de_mitos_playouts.py
and prints their time, their length in turns and how they ended.
Times are CPU time of this process (the machine may be shared) and wall time.
Decks: the ready decks when present, else the provisional decks of the tests.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.guerra_de_mitos.engine import ready_decks  # noqa: E402
from rules.guerra_de_mitos.model import Options  # noqa: E402
from rules.registry import engine  # noqa: E402

try:
    from tests.rules import gdm_helpers as H  # noqa: E402

    PROVISIONAL = [H.deck_for(m) for m in H.MYTHOLOGIES]
except Exception:  # noqa: BLE001 - the bench also runs without the tests package
    PROVISIONAL = []

E = engine("guerra_de_mitos")  # with its built-in player


def decks(rng: random.Random, n: int) -> Options:
    """Random distinct decks for ``n`` seats."""
    pool = list(ready_decks().values()) or PROVISIONAL
    rng.shuffle(pool)
    return Options(decks=pool[:n])


def random_game(seed: int, n: int) -> int:
    """One game of random moves (the random player of the play-out tests, its eager and plain
    seats alike); returns its moves. It ends by the rules, never by the bound on turns."""
    from tests.rules.test_guerra_de_mitos_playouts import PLAIN, move

    rng = random.Random(seed)
    st = E.setup(n, decks(rng, n), seed)
    eager = [rng.random() >= PLAIN for _ in range(n)]
    steps = 0
    while not st.finished:
        seat = rng.choice(sorted(E.pending(st)))
        st, _ = E.apply(st, seat, move(rng, st, seat, E.legal_actions(st, seat), eager[seat]))
        steps += 1
    assert st.end_reason != "limite", f"game {n}/{seed} reached the bound on turns"
    return steps


def ai_game(seed: int, times: list[float], cpu: list[float]) -> bool:
    """The AI (seat seed % 2) against a random player; True when the AI wins."""
    rng = random.Random(seed)
    ai = seed % 2
    st = E.setup(2, decks(rng, 2), seed)
    while not st.finished:
        seat = rng.choice(sorted(E.pending(st)))
        if seat == ai:
            t, c = time.perf_counter(), time.process_time()
            a = E.ai_action(st, seat)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        else:
            a = rng.choice(E.legal_actions(st, seat))
        st, _ = E.apply(st, seat, a)
    return ai in st.winners


def playouts(k: int) -> None:
    """The checked play-outs of the tests, k per player count: time, turns and endings."""
    from tests.rules.test_guerra_de_mitos_playouts import REPLAY, play

    for n in (2, 3, 4):
        t, c = time.perf_counter(), time.process_time()
        rounds: list[int] = []
        ends: dict[str, int] = {}
        for s in range(k):
            st = play(n, s, replay=s % REPLAY == 0)
            rounds.append(st.round)
            ends[st.end_reason] = ends.get(st.end_reason, 0) + 1
        dt, dc = time.perf_counter() - t, time.process_time() - c
        rounds.sort()
        print(
            f"{n} players: {k} checked play-outs in {dc:.1f} s CPU ({dt:.1f} s wall); "
            f"turns p50 {rounds[k // 2]}, max {rounds[-1]}; endings {ends}",
            flush=True,
        )


def main() -> None:
    """Print the figures."""
    args = [a for a in sys.argv[1:] if a.isdigit()]
    if "--playouts" in sys.argv:
        playouts(int(args[0]) if args else 300)
        return
    games = int(args[0]) if args else 200
    ai_first = "--ai-only" in sys.argv
    for n in () if ai_first else (2, 3, 4):
        t, c = time.perf_counter(), time.process_time()
        k = max(2, games // 20)
        moves = sum(random_game(s, n) for s in range(k))
        dt, dc = time.perf_counter() - t, time.process_time() - c
        print(
            f"{n} players: {k / dc:.2f} random games/s per core ({moves / dc:.0f} moves/s; "
            f"{k} games, {dc:.1f} s CPU, {dt:.1f} s wall)",
            flush=True,
        )
    times: list[float] = []
    cpu: list[float] = []
    wins = 0
    for s in range(games):
        wins += ai_game(s, times, cpu)
        if (s + 1) % 20 == 0:
            print(f"  after {s + 1} games: {wins} won", flush=True)
    print(f"AI vs random: {wins}/{games} won ({100 * wins / games:.1f}%)")
    for name, xs in (("wall", times), ("CPU", cpu)):
        xs.sort()
        p50 = statistics.median(xs) * 1000
        p99 = xs[int(len(xs) * 0.99)] * 1000
        print(
            f"AI decision ({name}, {len(xs)} decisions): p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {xs[-1] * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
