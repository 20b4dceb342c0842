"""Build Mundodisco: Ankh-Morpork positions by hand for scenario tests."""

from __future__ import annotations

from typing import Any

from rules.ankh_morpork.board import area_by_name
from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.engine import AmEngine
from rules.ankh_morpork.events import EVENTS
from rules.ankh_morpork.frames import settle
from rules.ankh_morpork.model import AmState, Frame
from rules.core import Rng

E = AmEngine()
# The seats by colour, as the rulebook's examples name them (GREEN is a card border).
RED, YELLOW, GREEN_S, BLUE = 0, 1, 2, 3


def ar(name: str) -> int:
    """Area index from a name ("Dolly Sisters", "Hermanas Dolly", "dolly_sisters" or "1")."""
    return area_by_name(name)


def position(
    n: int = 3,
    *,
    minions: dict[str, dict[int, int]] | None = None,
    trouble: list[str] | None = None,
    buildings: dict[str, int] | None = None,
    trolls: dict[str, int] | None = None,
    demons: dict[str, int] | None = None,
    hands: dict[int, list[str]] | None = None,
    money: list[int] | None = None,
    personalities: list[str] | None = None,
    deck: list[str] | None = None,
    events: list[str] | None = None,
    turn: int = 0,
    seed: int = 1,
    **extra: Any,
) -> AmState:
    """A mid-game position; the turn player is asked to play a card.

    ``deck``: the draw pile, top first (default: every card not in a hand).
    ``events``: the event pile, next event LAST (default: all twelve).
    """
    grid = [[0] * n for _ in range(12)]
    for name, per in (minions or {}).items():
        for s, k in per.items():
            grid[ar(name)][s] = k
    hs = [list((hands or {}).get(s, [])) for s in range(n)]
    held = {c for h in hs for c in h}
    # Seats not given a hand hold one harmless card, so their turns stop for a decision.
    spare = iter(c for c in ("peeled_nuts", "buggy_swires", "sergeant_angua", "groat") if c not in held)
    for s in range(n):
        if hands is None or s not in hands:
            hs[s] = [next(spare)]
    held = {c for h in hs for c in h}
    st = AmState(
        num_seats=n, rng=Rng(seed=seed), turn=turn, money=money or [10] * n,
        personality=personalities or ["vimes", "rust", "selachii", "de_worde"][:n],
        unused=[p for p in ("vetinari", "dragon_king", "chrysoprase", "rust", "selachii", "de_worde", "vimes")
                if p not in (personalities or ["vimes", "rust", "selachii", "de_worde"][:n])],
        hands=hs, deck=deck if deck is not None else [c for c in CARDS if c not in held],
        event_deck=events if events is not None else list(EVENTS),
        minions=grid, loans=extra.pop("loans", [[] for _ in range(n)]), stuck=[[] for _ in range(n)], peeks=[[] for _ in range(n)],
        stack=[Frame(kind="turn", seat=turn, actor=turn)], **extra,
    )
    for name in trouble or []:
        st.trouble[ar(name)] = True
    for name, s in (buildings or {}).items():
        st.buildings[ar(name)] = s
    for name, k in (trolls or {}).items():
        st.trolls[ar(name)] = k
    for name, k in (demons or {}).items():
        st.demons[ar(name)] = k
    settle(st)
    return st


def play(state: AmState, seat: int, *actions: dict[str, Any]) -> AmState:
    """Apply a sequence of actions (as dicts) by ``seat``."""
    for a in actions:
        state, _ = E.apply(state, seat, a)
    return state


def acts(state: AmState, *steps: tuple[int, dict[str, Any]]) -> tuple[AmState, list]:
    """Apply (seat, action) steps; returns the state and all events."""
    events: list = []
    for seat, a in steps:
        state, ev = E.apply(state, seat, a)
        events += ev
    return state, events


def legal(state: AmState, seat: int) -> list[dict[str, Any]]:
    """Legal actions as plain dicts, for compact assertions."""
    return [a.model_dump() for a in E.legal_actions(state, seat)]


def areas_offered(state: AmState, seat: int) -> set[int]:
    """The areas among the legal actions."""
    return {a["area"] for a in legal(state, seat) if a["kind"] == "area"}


def who(state: AmState) -> int:
    """The one seat pending now."""
    (s,) = E.pending(state)
    return s


def card(c: str) -> dict[str, Any]:
    """The action playing card ``c``."""
    return {"kind": "play", "card": c}


SKIP = {"kind": "skip"}
DO = {"kind": "do"}
PAY = {"kind": "pay"}


def area(name: str) -> dict[str, Any]:
    """Choose an area."""
    return {"kind": "area", "area": ar(name)}


def piece(name: str, p: int) -> dict[str, Any]:
    """Choose a piece (seat 0..3, troll 4, demon 5) in an area."""
    return {"kind": "piece", "area": ar(name), "piece": p}


def player(s: int) -> dict[str, Any]:
    """Choose a player."""
    return {"kind": "player", "seat": s}


def interrupt(c: str) -> dict[str, Any]:
    """Play an interrupt card."""
    return {"kind": "interrupt", "card": c}


def pick(c: str) -> dict[str, Any]:
    """Choose a card."""
    return {"kind": "card", "card": c}
