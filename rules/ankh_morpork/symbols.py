"""The action symbols: place a minion, build, assassinate, remove trouble, take money."""

from __future__ import annotations

from typing import Literal

from rules.ankh_morpork import city
from rules.ankh_morpork.board import ADJ, DIMWELL, DOLLY, UNREAL
from rules.ankh_morpork.frames import Handler, options, pop, register
from rules.ankh_morpork.model import AmState, Area, Do, Frame, Piece, Skip
from rules.ankh_morpork.reactions import remove_hit, window
from rules.ankh_morpork.text import act, area_name, card_name, piece_name, seat_name
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

# ------------------------------------------------------------------------ place a minion

_NEAR = {"near_unreal": UNREAL, "dolly": DOLLY, "dimwell": DIMWELL}


def minion_dests(st: AmState, f: Frame, without: int = -1) -> list[int]:
    """Where the frame's minion may go (``without``: the area one is being taken back from)."""
    s, m = f.seat, f.mode
    if m in _NEAR:
        out = sorted({_NEAR[m]} | ADJ[_NEAR[m]])
    elif m == "quiet":
        out = list(range(12))
    elif m == "at_building":
        out = [a for a in range(12) if st.buildings[a] == s]
    elif m == "at_trouble":
        out = [a for a in range(12) if st.trouble[a]]
    else:  # the normal rule; "rescue" also leaves out the area the minion was removed from
        out = city.placement_areas(st, s, without)
    excluded = {without, f.area2 if m == "rescue" else -1}
    return [a for a in out if a not in excluded]


@register
class MinionHandler(Handler):
    """Place a minion; with all twelve out, first take one back from another area."""

    kind = "minion"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if city.supply(st, f.seat) > 0:
            if minion_dests(st, f):
                f.stage, f.wait = "place", True
            else:
                pop(st)
        elif self._origins(st, f):
            f.stage, f.wait = "retake", True
        else:
            pop(st)
        return []

    def _origins(self, st: AmState, f: Frame) -> list[int]:
        return [a for a in city.on_board(st, f.seat) if minion_dests(st, f, without=a)]

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        optional = f.via != "power" and f.area2 < 0 or f.mode == "rescue"
        if f.stage == "retake":
            return options(st, f, [Area(area=a) for a in self._origins(st, f)], skip=optional)
        without = f.area2 if f.mode != "rescue" else -1
        dests = [a for a in minion_dests(st, f) if a != without]
        return options(st, f, [Area(area=a) for a in dests], skip=optional and f.stage == "place")

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Skip):
            pop(st)
            return []
        assert isinstance(a, Area)
        if f.stage == "retake":
            city.remove_piece(st, a.area, f.seat)
            f.area2, f.stage = a.area, "place"
            n = area_name(a.area)
            return [act("retake", f.seat, msg("{player} takes back a minion from {area}.", player=seat_name(f.seat), area=n), area=a.area)]
        pop(st)
        city.add_piece(st, a.area, f.seat, trouble=f.mode != "quiet")
        n = area_name(a.area)
        return [act("minion", f.seat, msg("{player} places a minion in {area}.", player=seat_name(f.seat), area=n), area=a.area)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "retake":
            return msg("All 12 of your minions are out: choose where to take one back from.")
        if f.mode == "rescue":
            return msg("Put the removed minion in another area.")
        return msg("Place a minion.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Area):
            n = area_name(a.area)
            if f.stage == "retake":
                return msg("Take back from {area}", area=n)
            return msg("Minion in {area}", area=n)
        if isinstance(a, Skip):
            return msg("Do not place the minion")
        return None


# ------------------------------------------------------------------------ build


def price(f: Frame, a: int) -> int:
    """What building in ``a`` costs for this frame (Wee Mad Arthur: half)."""
    c = city.cost(a)
    return c // 2 if f.mode == "half" else c


def build_areas(st: AmState, f: Frame) -> list[int]:
    """Areas with one of the seat's minions, no building, no trouble, and a price it can pay."""
    s = f.seat
    return [a for a in range(12) if st.minions[a][s] and st.buildings[a] < 0 and not st.trouble[a]
            and st.money[s] >= price(f, a)]


def build(st: AmState, f: Frame, a: int, pay: int) -> list[Event]:
    """Pay and put the seat's building in ``a``; its area card comes with it."""
    city.pay_bank(st, f.seat, pay)
    city.set_building(st, a, f.seat)
    n = area_name(a)
    return [act("building", f.seat, msg("{player} builds in {area} for ${amount}.", player=seat_name(f.seat), area=n, amount=pay),
                area=a, cost=pay)]


@register
class BuildingHandler(Handler):
    """Place a building; with all six out, one of them moves to the new area."""

    kind = "building"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if build_areas(st, f):
            f.stage, f.wait = "area", True
        else:
            pop(st)
        return []

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        if f.stage == "relocate":
            return [Area(area=a) for a in range(12) if st.buildings[a] == f.seat]
        return options(st, f, [Area(area=a) for a in build_areas(st, f)])

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Skip):
            pop(st)
            return []
        assert isinstance(a, Area)
        if f.stage == "area" and city.building_supply(st, f.seat) == 0:
            f.area, f.stage = a.area, "relocate"
            return []
        ev: list[Event] = []
        target = a.area
        if f.stage == "relocate":
            city.remove_building(st, a.area)
            target = f.area
            n = area_name(a.area)
            ev.append(act("unbuild", f.seat, msg("{player} takes their building off {area}.", player=seat_name(f.seat), area=n),
                          area=a.area))
        pop(st)
        return ev + build(st, f, target, price(f, target))

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "relocate":
            return msg.c("building symbol", "All 6 of your buildings are out: choose which one moves.")
        return msg("Place a building.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Area):
            n = area_name(a.area)
            if f.stage == "relocate":
                return msg("Move the one in {area}", area=n)
            return msg("Building in {area} (${cost})", area=n, cost=price(f, a.area))
        if isinstance(a, Skip):
            return msg("Do not build")
        return None


# ------------------------------------------------------------------------ assassinate


def hit_targets(st: AmState, spare: int) -> list[tuple[int, int]]:
    """Pieces an assassination may remove: in an area with trouble, not ``spare``'s own."""
    return [(a, p) for a in range(12) if st.trouble[a] for p in city.pieces_in(st, a) if p != spare]


@register
class AssassinateHandler(Handler):
    """Remove a minion (not yours), a troll or a demon from an area with trouble."""

    kind = "assassinate"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "hit":
            pop(st)
            return remove_hit(st, f, f.area, f.piece)
        if hit_targets(st, f.seat):
            f.stage, f.wait = "pick", True
        else:
            pop(st)
        return []

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return options(st, f, [Piece(area=a, piece=p) for a, p in hit_targets(st, f.seat)])

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Skip):
            pop(st)
            return []
        assert isinstance(a, Piece)
        f.area, f.piece, f.stage, f.wait = a.area, a.piece, "hit", False
        window(st, f, a.piece, "remove")
        return []

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("Assassinate: choose a piece in an area with trouble.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Piece):
            return piece_label("assassinate", a)
        if isinstance(a, Skip):
            return msg("Do not assassinate")
        return None


def piece_label(verb: Literal["choose", "assassinate", "move", "remove"], a: Piece) -> Text:
    """"Assassinate a minion of Player 2 in Dimwell"."""
    piece, area = piece_name(a.piece), area_name(a.area)
    if verb == "assassinate":
        return msg("Assassinate {piece} in {area}", piece=piece, area=area)
    if verb == "move":
        return msg("Move {piece} in {area}", piece=piece, area=area)
    if verb == "remove":
        return msg("Remove {piece} in {area}", piece=piece, area=area)
    return msg("Choose {piece} in {area}", piece=piece, area=area)


# ------------------------------------------------------------------------ trouble, money


@register
class TroubleHandler(Handler):
    """Remove one trouble marker of your choice."""

    kind = "trouble"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if any(st.trouble):
            f.wait = True
        else:
            pop(st)
        return []

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return options(st, f, [Area(area=a) for a in range(12) if st.trouble[a]])

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        pop(st)
        if isinstance(a, Skip):
            return []
        assert isinstance(a, Area)
        st.trouble[a.area] = False
        n = area_name(a.area)
        return [act("calm", f.seat, msg("{player} removes the trouble in {area}.", player=seat_name(f.seat), area=n), area=a.area)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("Remove a trouble marker.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Area):
            n = area_name(a.area)
            return msg("Remove the trouble in {area}", area=n)
        if isinstance(a, Skip):
            return msg("Remove none")
        return None


@register
class MoneyHandler(Handler):
    """Take the money shown on the card from the bank."""

    kind = "money"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        f.wait = True
        return []

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return options(st, f, [Do()])

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        pop(st)
        if isinstance(a, Skip):
            return []
        got = city.collect(st, f.seat, f.n)
        return [act("collect", f.seat, msg("{player} collects ${amount}.", player=seat_name(f.seat), amount=got), amount=got)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("{card}: collect ${amount}.", card=card_name(f.card), amount=f.n)

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Do):
            return msg("Collect ${amount}", amount=f.n)
        if isinstance(a, Skip):
            return msg("Do not collect")
        return None
