"""The legal moves of a Rey y Hierofante position: the tiles a seat may place and where, and
the choices a tile's effect offers."""

from __future__ import annotations

from rules.core import Action
from rules.rey_hierofante import board as B
from rules.rey_hierofante.model import (
    Activate,
    BanishZone,
    Group,
    Line,
    Move,
    PendingEffect,
    Place,
    Recover,
    RhState,
    Target,
)
from rules.rey_hierofante.tiles import TILES


def available(state: RhState, seat: int) -> list[str]:
    """Tiles ``seat`` may place: their area, then the neutral area."""
    if state.first_move:
        return ["ciudadano"]
    out = [z.tile for z in state.zones[seat]] + list(state.neutral_zone)
    return list(dict.fromkeys(out))


def placements(state: RhState, seat: int) -> list[Action]:
    """Every placement of a tile ``seat`` may place on an empty square (a tower also onto its allies)."""
    empty = [i for i, c in enumerate(state.board) if c is None]
    out: list[Action] = []
    for tile in available(state, seat):
        out.extend(Place(tile=tile, square=sq) for sq in empty)
        if tile == "torre":
            out.extend(Place(tile=tile, square=sq) for sq in tower_squares(state, seat))
    return out


def is_placement(state: RhState, seat: int, action: Place) -> bool:
    """Whether ``action`` is among ``placements(state, seat)``, without building them all:
    asked for every move applied, the built-in player's weighed ones too."""
    if action.tile not in available(state, seat):
        return False
    if state.board[action.square] is None:
        return True
    return action.tile == "torre" and action.square in tower_squares(state, seat)


def can_place(state: RhState, seat: int) -> bool:
    """Whether ``seat`` has any placement at all (``placements`` not empty), without building
    them: asked at every turn's start, and by the built-in player for each move it weighs."""
    tiles = available(state, seat)
    if not tiles:
        return False
    if any(c is None for c in state.board):
        return True
    return "torre" in tiles and bool(tower_squares(state, seat))


def tower_squares(state: RhState, seat: int) -> list[int]:
    """Allies the Torre may cover: face up, yours, no shield, and not where it is cancelled."""
    return [
        i for i, c in enumerate(state.board)
        if c is not None and c.owner == seat and B.targetable(state, i)
        and not B.cancelled_at(state, i)
    ]


def effect_options(state: RhState, eff: PendingEffect | None = None) -> list[Action]:
    """Every complete way to use the pending effect (declining is added by the caller)."""
    eff = eff or state.effect
    assert eff is not None
    t = TILES[eff.tile]
    o, seat = eff.origin, eff.seat
    tg = B.targetable
    if t.effect == "destroy":
        if eff.fills_board:
            return []  # the rulebook: no destruction when the placement fills the board
        reach = B.neighbours(o, t.reach)
        if eff.tile == "pirata":
            return [Target(square=s) for s in reach if B.shielded(state, s)]
        return [Target(square=s) for s in reach if tg(state, s)]
    if t.effect == "banish" or (t.effect == "flip" and not t.many):
        return [Target(square=s) for s in B.neighbours(o, t.reach) if tg(state, s)]
    if t.effect == "flip":
        if t.reach == "group":
            return [Group(group=g) for g in ("orth", "diag")
                    if any(tg(state, s) for s in B.neighbours(o, g))]
        if t.reach == "line":
            return [Line(direction=d) for d in B.DIRS  # type: ignore[arg-type]
                    if any(tg(state, s) for s in B.line(o, d))]
        squares = B.front3(o, seat) if t.reach == "front3" else B.neighbours(o, "adj8")
        return [Activate()] if any(tg(state, s) for s in squares) else []
    if t.effect == "move":
        empty = [i for i, c in enumerate(state.board) if c is None]
        return [Move(source=s, dest=d) for s in range(9)
                if s != eff.source and tg(state, s) for d in empty]
    if t.effect == "copy":
        out: list[Action] = []
        for s in B.neighbours(o, t.reach):
            if s in eff.chain or s == eff.source or not tg(state, s):
                continue
            copied = state.board[s]
            assert copied is not None
            ct = TILES[copied.tile]
            if ct.kind != "active" or ct.effect == "cover":
                continue
            nxt = eff.model_copy(update={"tile": copied.tile, "chain": [*eff.chain, s]})
            if effect_options(state, nxt):
                out.append(Target(square=s))
        return out
    if t.effect == "banish_zone":
        return [BanishZone(slot=i) for i in range(len(state.zones[1 - seat]))]
    if t.effect == "recover":
        return [Recover(tile=x) for x in dict.fromkeys(state.discard)]
    if t.effect == "return":
        return [Target(square=s) for s in range(9)
                if s != eff.source and tg(state, s) and state.board[s].owner == seat]  # type: ignore[union-attr]
    return []
