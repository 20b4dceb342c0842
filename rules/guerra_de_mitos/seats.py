"""Who is still at the table and in what order, how many counters a seat moves, and when
the table is blocked."""

from __future__ import annotations

import zlib

from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.facts import TOKENS
from rules.guerra_de_mitos.model import BATTLE, GEAR, GdmState
from rules.guerra_de_mitos.model import PANTHEON as ZP


def alive(st: GdmState) -> list[int]:
    """Seats still in the game."""
    return [s for s in range(st.num_seats) if st.players[s].alive]


def order(st: GdmState) -> list[int]:
    """Alive seats in turn order from the start player."""
    n = st.num_seats
    return [(st.first + k) % n for k in range(n) if st.players[(st.first + k) % n].alive]


STILL_TURNS = 5  # turns in a row without any change that make a blocked table


def nothing_left(st: GdmState) -> bool:
    """No seated player has an oracle or a design card left, and no effect waits to expire."""
    return not st.lasting and all(not p.oracles and not p.deck for p in st.players if p.alive)


def table_digest(st: GdmState) -> int:
    """A digest of what a turn can change for good: reserves, points, seats, where cards are.

    Created tokens count by kind, not by number: one more copy of a token already on the
    table (R'lyeh's Cultist every turn) is not a change, whereas a first one, one leaving, or
    any card of a deck moving is (docs/rules/guerra_de_mitos.md, "Partida bloqueada").
    """
    parts = [f"{p.reserve},{p.vp},{p.alive}" for p in st.players]
    tokens: set[str] = set()
    for u, c in B.raw_items(st):
        if c.card in TOKENS:
            tokens.add(f"{c.card}:{c.zone}:{c.ctrl}")
        else:
            parts.append(f"{u}:{c.zone}:{c.ctrl}")
    parts += sorted(tokens)
    return zlib.crc32(";".join(parts).encode())


def blocked_check(st: GdmState) -> bool:
    """After reorganisation: whether the table has been blocked for ``STILL_TURNS`` turns.

    With nothing left to reveal, draw or expire, a table that ends turn after turn as one of
    the last turns left it (the same reserves and points, every card where it was: the same
    table, or two or more tables in turn, such as a point lost and won back every other turn)
    can only go on so for ever.
    """
    if not nothing_left(st):
        st.still_turns, st.still_table, st.still_seen = 0, 0, []
        return False
    digest = table_digest(st)
    st.still_turns = st.still_turns + 1 if digest in st.still_seen else 0
    st.still_table = digest
    st.still_seen = [*st.still_seen, digest][-STILL_TURNS:]
    return st.still_turns >= STILL_TURNS


def moves_for(st: GdmState, seat: int) -> int:
    """Counter moves this transfer: 1, 2, 3... up to 5 in the first turn, then 5."""
    base = min(st.order_pos + 1, 5) if st.round == 1 else 5
    for u, c in B.raw_items(st):
        if c.zone not in (ZP, BATTLE, GEAR):
            continue
        for op in B.statics(st, u, "transfers"):
            if op.params.get("mode") == "all" or c.ctrl == seat:
                base += int(op.n)  # type: ignore[arg-type]
    return max(0, base)
