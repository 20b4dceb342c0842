"""Guerra de Mitos test helpers: card facts, provisional decks, and hand-built positions."""

from __future__ import annotations

import csv
from pathlib import Path

from rules.guerra_de_mitos import facts as facts_mod
from rules.guerra_de_mitos.facts import MYTH_KEYS, Facts, from_record, norm_key

CSV = Path("/work/shared/reference/guerra_de_mitos/cards_era1.csv")


def _csv_facts() -> dict[str, Facts]:
    """Card facts read from the reference list (used only while the catalogue is absent)."""
    out: dict[str, Facts] = {}
    with CSV.open(encoding="utf-8") as fh:
        for r in csv.DictReader(fh):

            def num(s: str) -> int:
                s = (s or "").strip()
                return int(s) if s.lstrip("-").isdigit() else 0

            out[r["ID"]] = from_record(
                {
                    "id": r["ID"],
                    "name": r["Nombre"].strip(),
                    "mythology": r["Mitologia"],
                    "type": r["Tipo"],
                    "cost": num(r["Coste"]),
                    "strength": num(r["Fuerza"]),
                    "power": num(r["Poder"]),
                    "keys": r["Claves"],
                    "text_es": r["Texto - Habilidades"],
                }
            )
    return out


if not facts_mod.catalogue_present():
    facts_mod.install(_csv_facts)

# noqa: E402 -- the engine reads the facts installed above
from rules.guerra_de_mitos.abilities import UNENCODED  # noqa: E402
from rules.guerra_de_mitos.facts import all_facts  # noqa: E402
from rules.guerra_de_mitos.model import DeckSpec  # noqa: E402

MYTHOLOGIES = ("japonesa", "nordica", "griega", "azteca", "egipcia", "primigenia")


def deck_for(myth: str, limit: int = 45) -> DeckSpec:
    """A provisional legal deck of one mythology (the ready decks replace it once present)."""
    fs = [f for f in all_facts().values() if not f.id.startswith("tk-")]
    foreign = {k for k, m in MYTH_KEYS.items() if m != myth}

    def ok(f: Facts) -> bool:
        return (
            f.id not in UNENCODED
            and not (f.keys & foreign)
            and (f.myth in (None, myth) or f.type == "character" and f.myth == myth)
        )

    def copies(f: Facts) -> int:
        return 1 if ({"dios", "unico"} & f.keys or f.type == "invocation") else 2

    pantheon = next(f.id for f in fs if f.type == "pantheon" and f.myth == myth)
    gods: list[str] = []
    for f in fs:
        if f.type == "character" and f.myth == myth and ok(f):
            gods += [f.id] * copies(f)
    for f in fs:
        if f.type == "resource" and ok(f) and len(gods) < 40:
            gods.append(f.id)
    for f in fs:
        if f.type == "event" and ok(f) and len(gods) < 46:
            gods.append(f.id)
    designs: list[str] = []
    batalla = 0
    for f in fs:
        if f.type in ("action", "equipment", "invocation") and ok(f):
            if "batalla" in f.keys:
                if batalla >= 2:
                    continue
                batalla += 1
            designs.append(f.id)
    return DeckSpec(pantheon=pantheon, gods=gods, designs=designs[:limit])


def key(word: str) -> str:
    """A key as the rules spell it."""
    return norm_key(word)
