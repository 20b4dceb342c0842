"""Guerra de Mitos: how many cards are plain data over shared primitives, how many need code.

Run: python bench/bench_gdm_encoding.py [-v]

A card counts as "code of its own" when its ability uses a word that no other card uses:
a verb, a ``mode=``/``name=``/``src=`` parameter, a condition or the ``any`` phase (each such
word is a branch of the interpreter written for that card). The follow-ups another player
resolves (``SUBS``) and the replaced resolutions (``RESOLUTIONS``) are data in the same
grammar; the words inside them count like any other. Cards without text are counted apart.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.guerra_de_mitos.abilities import (  # noqa: E402
    ABILITIES,
    RESOLUTIONS,
    SUBS,
    UNENCODED,
    VANILLA,
)
from rules.guerra_de_mitos.primitives import Ability  # noqa: E402


def words(abilities: list[Ability]) -> set[tuple[str, ...]]:
    """The vocabulary one card's abilities use."""
    out: set[tuple[str, ...]] = set()
    for ab in abilities:
        if ab.cond:
            out.add(("cond", ab.cond))
        if ab.phase == "any":
            out.add(("phase", "any"))
        for op in ab.steps:
            out.add(("verb", op.verb))
            if op.verb == "make":
                out |= words(SUBS[op.params["sub"]])
                continue
            if op.verb == "resolution":
                res = RESOLUTIONS.get(op.params["mode"])  # "rules": the rulebook's own
                out |= words([res]) if res else set()
                continue
            for k in ("mode", "name", "src"):
                if k in op.params:
                    out.add((op.verb, k, op.params[k]))
    return out


def main() -> None:
    """Print the counts (and with -v the cards with code of their own and why)."""
    used = {cid: words(abs_) for cid, abs_ in ABILITIES.items()}
    seen = Counter(w for ws in used.values() for w in ws)
    own = {cid: sorted(w for w in ws if seen[w] == 1) for cid, ws in used.items()}
    own = {cid: ws for cid, ws in own.items() if ws}
    print(f"cards: {len(ABILITIES) + len(VANILLA) + len(UNENCODED)}")
    print(f"  without text: {len(VANILLA)}")
    print(f"  data over shared primitives: {len(ABILITIES) - len(own)}")
    print(f"  with code of their own: {len(own)}")
    print(f"  not encoded: {len(UNENCODED)}")
    if "-v" in sys.argv:
        for cid, ws in sorted(own.items()):
            print(f"    {cid}: {', '.join(':'.join(w) for w in ws)}")


if __name__ == "__main__":
    main()
