"""Rey y Hierofante board pictures: render time p50/p99 and PNG size over varied views.

Half the views come from games played at random by the engine (every variant, public and
seat views), half are built directly with random boards, zones and piles; names mix short,
long and non-Latin ones, locales mix Spanish and English. Every render is timed, the
first ones with cold caches included, one after another on one core; then the same
renders again with every cache filled. Run:

    python bench/bench_pictures.py [--views 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cogs.pictures.rey_hierofante import render_board  # noqa: E402
from rules.rey_hierofante.model import (  # noqa: E402
    CellView,
    GameRecord,
    Options,
    PendingEffect,
    RhView,
    ZoneTileView,
)
from rules.rey_hierofante.tiles import BLUE, RED, STOCK  # noqa: E402

NAMES = ["Ana", "Bruno", "María José", "Zoë", "xX_DarkLord_Xx", "Ñandú 🎲", "李小龙", "محمد",
         "Владимир", "O'Brien", "🐉🐉🐉", "a" * 120, "Guillermo del Castillo y Hierro",
         "😀 Lucía 😀", "J", "Þórr"]
VARIANTS = ["original", "clasico", "aleatorio", "aleatorio_oculto", "draft", "draft_oculto"]


def synthetic(r: random.Random) -> RhView:
    """A random view built directly: any mix of board, zones, piles, phase and score."""
    pool = list(RED + BLUE + STOCK)
    board: list[CellView | None] = []
    for _ in range(9):
        if r.random() < 0.35:
            board.append(None)
            continue
        down = r.random() < 0.1
        tile = None if down else r.choice(pool)
        board.append(CellView(tile=tile, owner=r.randrange(2), face_up=not down,
                              shielded=r.random() < 0.2,
                              covered=r.choice(pool) if tile == "torre" else None,
                              destroyed_by=r.randrange(2) if down else None))
    zones = [[ZoneTileView(slot=i, tile=None if h else t, hidden=h)
              for i, (t, h) in enumerate((t, r.random() < 0.15)
                                         for t in r.sample(pool, r.randrange(13)))]
             for _ in range(2)]
    scoring = r.choice(["match", "points"])
    finished = r.random() < 0.1
    phase = r.choice(["place", "place", "effect", "choose_starter", "draft"])
    source = r.randrange(9)
    fields: dict[str, Any] = dict(
        seat=None, version=r.randrange(100), options=Options(variant=r.choice(VARIANTS),
                                                             scoring=scoring),
        phase=phase, game_no=r.randint(1, 3), starter=r.randrange(2), turn=r.randrange(2),
        to_act=[] if finished else [r.randrange(2)], board=board,
        neutral_zone=r.sample(STOCK, r.randrange(6)), zones=zones,
        discard=r.sample(pool, r.randrange(8)), stock_count=r.randrange(12),
        effect=PendingEffect(seat=0, source=source, origin=source, tile="rey")
        if phase == "effect" else None,
        draft_offer=r.sample(STOCK, 5) if phase == "draft" and r.random() < 0.5 else None,
        draft_picker=r.randrange(2) if phase == "draft" else None, draft_seen=[],
        wins=[r.randrange(2), r.randrange(3)], points=[r.randrange(20), r.randrange(20)],
        history=[GameRecord(winner=1, allies=[3, 5], points=[3, 5], reason="board_full")]
        if r.random() < 0.5 else [],
        finished=finished, allies=[r.randrange(6), r.randrange(6)],
    )
    return RhView(**fields)


def played(r: random.Random, count: int) -> list[RhView]:
    """Views along games the engine plays at random (empty if the engine is missing)."""
    try:
        from rules.rey_hierofante.engine import RhEngine
    except ImportError:
        return []
    e = RhEngine()
    views: list[RhView] = []
    seed = 0
    while len(views) < count:
        s = e.setup(2, {"variant": VARIANTS[seed % len(VARIANTS)]}, seed)
        seed += 1
        while not s.finished and len(views) < count:
            views.append(e.view(s, r.choice([None, None, 0, 1])))  # type: ignore[arg-type]
            seat = next(iter(e.pending(s)))
            s, _ = e.apply(s, seat, r.choice(e.legal_actions(s, seat)))
    return views


def pct(xs: list[float], p: float) -> float:
    """The ``p`` percentile of sorted ``xs``."""
    return xs[min(len(xs) - 1, int(len(xs) * p))]


def main() -> None:
    """Build the views, render each once, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--views", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    r = random.Random(args.seed)
    views = played(r, args.views // 2)
    from_games = len(views)
    views += [synthetic(r) for _ in range(args.views - from_games)]
    r.shuffle(views)
    jobs = [(v, r.sample(NAMES, 2), r.choice(["es", "en", "en-US", "es-ES"])) for v in views]

    times: list[float] = []
    sizes: list[int] = []
    for view, names, locale in jobs:
        t0 = time.perf_counter()
        data = render_board(view, names, locale)
        times.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(data))
    first = times[0]
    times.sort()
    warm: list[float] = []  # the same renders again: every cache already filled
    for view, names, locale in jobs:
        t0 = time.perf_counter()
        render_board(view, names, locale)
        warm.append((time.perf_counter() - t0) * 1000)
    warm.sort()
    print(f"{len(jobs)} renders: {from_games} views from played games, "
          f"{len(jobs) - from_games} built at random; caches cold at the start")
    print(f"render ms  p50 {pct(times, 0.50):.2f}  p90 {pct(times, 0.90):.2f}  "
          f"p99 {pct(times, 0.99):.2f}  max {times[-1]:.2f}  first {first:.2f}")
    print(f"warm ms    p50 {pct(warm, 0.50):.2f}  p90 {pct(warm, 0.90):.2f}  "
          f"p99 {pct(warm, 0.99):.2f}  max {warm[-1]:.2f}")
    print(f"PNG KB     mean {statistics.mean(sizes) / 1024:.1f}  max {max(sizes) / 1024:.1f}")


if __name__ == "__main__":
    main()
