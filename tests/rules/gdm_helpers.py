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


# ----------------------------------------------------------------------------- positions

from rules.core import Rng  # noqa: E402
from rules.guerra_de_mitos import board as B  # noqa: E402
from rules.guerra_de_mitos.model import Fight, GdmState, Oracle, Player  # noqa: E402
from rules.registry import engine  # noqa: E402

E = engine("guerra_de_mitos")  # with its built-in player


def blank(
    n: int = 2, pantheons: tuple[str, ...] = ("0003", "0023", "0043", "0101"), reserve: int = 20
) -> GdmState:
    """An empty table in the influence phase: pantheons and reserves only."""
    st = GdmState(num_seats=n, rng=Rng(seed=7), players=[Player() for _ in range(n)])
    for s in range(n):
        p = st.players[s]
        p.pantheon = B.new_inst(st, pantheons[s % len(pantheons)], s, "pantheon")
        p.reserve = reserve
    st.phase = "influence"
    st.actor = 0
    st.first = 0
    return st


def put(
    st: GdmState,
    card: str,
    seat: int = 0,
    zone: str = "pantheon",
    power: int = 0,
    tired: bool = False,
) -> int:
    """A card in play (pantheon or battle) with some power."""
    u = B.new_inst(st, card, seat, zone)
    st.cards[u].power = power
    st.cards[u].tired = tired
    if zone == "battle":
        st.cards[u].fought = True
    return u


def gear(st: GdmState, card: str, bearer: int) -> int:
    """An equipment attached to a character."""
    u = B.new_inst(st, card, st.cards[bearer].ctrl, "gear")
    B.attach(st, u, bearer)
    return u


def in_hand(st: GdmState, card: str, seat: int = 0) -> int:
    """A card in a hand."""
    u = B.new_inst(st, card, seat, "hand")
    st.players[seat].hand.append(u)
    return u


def on_deck(st: GdmState, cards: list[str], seat: int = 0) -> list[int]:
    """Cards on top of the design deck, in order."""
    us = [B.new_inst(st, c, seat, "deck") for c in cards]
    st.players[seat].deck[:0] = us
    return us


def discarded(st: GdmState, card: str, seat: int = 0) -> int:
    """A card in a discard pile."""
    u = B.new_inst(st, card, seat, "discard")
    st.players[seat].discard.append(u)
    return u


def oracle(st: GdmState, cards: list[str], seat: int = 0, power: int = 0, up: bool = True) -> int:
    """A new oracle (top first); returns its index."""
    us = [B.new_inst(st, c, seat, "oracle") for c in cards]
    st.players[seat].oracles.append(Oracle(cards=us, up=up, power=power))
    return len(st.players[seat].oracles) - 1


def fight(st: GdmState, a: int = 0, b: int = 1, stage: str = "act") -> None:
    """Put the table in a confrontation between ``a`` and ``b``."""
    st.phase = "fight"
    st.fight = Fight(a=a, b=b, turn=a, stage=stage)
    st.fought = [a, b]


def settle_choices(st: GdmState, pick: int = 0) -> GdmState:
    """Answer every pending ability choice with the option number ``pick`` (or the last)."""
    guard = 0
    while st.stack and not st.finished and guard < 60:
        guard += 1
        seat = st.stack[-1].seat
        acts = [a for a in E.legal_actions(st, seat) if a.kind != "pass"]
        if not acts:
            acts = E.legal_actions(st, seat)
        st, _ = E.apply(st, seat, acts[min(pick, len(acts) - 1)])
    return st
