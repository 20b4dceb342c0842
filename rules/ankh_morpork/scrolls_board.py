"""Scrolls that act on the board: trouble markers, moving and removing minions, buying buildings."""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.board import ADJ, UNREAL
from rules.ankh_morpork.frames import pop
from rules.ankh_morpork.happenings import roll
from rules.ankh_morpork.model import AmState, Area, Do, Frame, Pay, Piece, Player
from rules.ankh_morpork.reactions import remove_hit, window
from rules.ankh_morpork.scroll_base import (
    Scroll,
    collect_event,
    others,
    scroll,
    wallace_event,
)
from rules.ankh_morpork.symbols import hit_targets, piece_label
from rules.ankh_morpork.text import (
    act,
    area_name,
    seat_name,
)
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

# ----------------------------------------------------------------------------- trouble markers


@scroll("trouble_payday", "spread_trouble", "place_trouble")
class TroubleScroll(Scroll):
    def areas(self, st: AmState, f: Frame) -> list[int]:
        if f.mode == "trouble_payday":
            return [a for a in range(12) if st.trouble[a] and city.all_minions(st, a)]
        if f.mode == "spread_trouble":
            return [a for a in range(12) if not st.trouble[a] and any(st.trouble[b] for b in ADJ[a])]
        return [a for a in range(12) if not st.trouble[a]]

    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(self.areas(st, f))

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Area(area=a) for a in self.areas(st, f)]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Area)
        pop(st)
        if f.mode == "trouble_payday":
            return collect_event(st, f.seat, 2 * city.all_minions(st, a.area))
        st.trouble[a.area] = True
        n = area_name(a.area)
        return [act("trouble", f.seat, msg("{player} puts trouble in {area}.", player=seat_name(f.seat), area=n), area=a.area)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.mode == "trouble_payday":
            return msg("Choose an area with trouble: $2 a minion.")
        return msg("Choose where to put a trouble marker.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Area):
            n = area_name(a.area)
            if f.mode == "trouble_payday":
                k = city.all_minions(st, a.area)
                return msg("{area}: ${amount}", area=n, amount=2 * k)
            return msg("Trouble in {area}", area=n)
        return None


# ----------------------------------------------------------------------------- moving minions


@scroll("flee_trouble", "move_anywhere", "shove")
class MoveMinion(Scroll):
    """Rincewind, Dorfl/Adora Belle, and the Duckman/Foul Ole Ron/Canting Crew shove."""

    def sources(self, st: AmState, f: Frame) -> list[tuple[int, int]]:
        if f.mode == "shove":
            return [(a, p) for a in range(12) for p in range(st.num_seats) if p != f.actor and st.minions[a][p]]
        mine = [(a, f.actor) for a in city.on_board(st, f.actor)]
        return [x for x in mine if st.trouble[x[0]]] if f.mode == "flee_trouble" else mine

    def dests(self, st: AmState, f: Frame) -> list[int]:
        if f.mode == "move_anywhere":
            return [a for a in range(12) if a != f.area]
        return sorted(ADJ[f.area])

    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(self.sources(st, f))

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Piece(area=a, piece=p) for a, p in self.sources(st, f)]

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Area(area=a) for a in self.dests(st, f)]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Piece):
            f.area, f.piece, f.stage = a.area, a.piece, "dest"
            return []
        assert isinstance(a, Area)
        f.area2, f.stage, f.wait = a.area, "move", False
        window(st, f, f.piece, "move")
        return []

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        if f.blocked:
            return [act("spared", f.piece, msg.c("move stopped", "{player} keeps their minion in {area}.", player=seat_name(f.piece), area=area_name(f.area)))]
        city.move_piece(st, f.area, f.area2, f.piece)
        return [act("move", f.seat, msg("{player} moves a minion of {piece} from {area} to {area2}.", player=seat_name(f.seat), piece=seat_name(f.piece), area=area_name(f.area), area2=area_name(f.area2)),
                    area=f.area, dest=f.area2, piece=f.piece)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "dest":
            return msg("Where does the minion in {area} go?", area=area_name(f.area))
        return msg("Choose the minion to move.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Piece):
            return piece_label("move", a)
        if isinstance(a, Area):
            return msg("To {area}", area=area_name(a.area))
        return None


@scroll("ride_anywhere")
class Ride(MoveMinion):
    """Hobson's: pay $2 to a player, then move one of your minions anywhere."""

    def possible(self, st: AmState, f: Frame) -> bool:
        return st.money[f.actor] >= 2 and bool(city.on_board(st, f.actor))

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Player(seat=s) for s in sorted(others(st, f.actor))]

    def more(self, st: AmState, f: Frame) -> list[Action]:
        if f.stage == "pick":
            return [Piece(area=a, piece=f.actor) for a in city.on_board(st, f.actor)]
        return [Area(area=a) for a in range(12) if a != f.area]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Player):
            city.transfer(st, f.actor, a.seat, 2)
            f.stage = "pick"
            return [act("pay", f.actor, msg("{player} pays $2 to {seat}.", player=seat_name(f.actor), seat=seat_name(a.seat)))]
        return super().take(st, f, a)

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "start":
            return msg("Choose whom to pay $2.")
        return super().prompt(st, f)

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Player):
            return msg("Pay $2 to {seat}", seat=seat_name(a.seat))
        return super().label(st, f, a)


@scroll("swap_minions")
class SwapMinions(Scroll):
    """The Bursar: any two minions (trolls and demons too) trade places."""

    def all_pieces(self, st: AmState) -> list[tuple[int, int]]:
        return [(a, p) for a in range(12) for p in city.pieces_in(st, a)]

    def possible(self, st: AmState, f: Frame) -> bool:
        return len({a for a, _ in self.all_pieces(st)}) >= 2

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Piece(area=a, piece=p) for a, p in self.all_pieces(st)]

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Piece(area=a, piece=p) for a, p in self.all_pieces(st) if a != f.area]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Piece)
        if f.stage == "start":
            f.area, f.piece, f.stage = a.area, a.piece, "second"
            return []
        f.area2, f.piece2, f.stage, f.wait = a.area, a.piece, "first_window", False
        return []

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "first_window":
            f.stage = "second_window"
            window(st, f, f.piece, "move")
            return []
        if f.stage == "second_window":
            if f.blocked:
                pop(st)
                return [act("spared", f.piece, msg("{player} stops the swap.", player=seat_name(f.piece)))]
            f.stage = "swap"
            window(st, f, f.piece2, "move")
            return []
        pop(st)
        if f.blocked:
            return [act("spared", f.piece2, msg("{player} stops the swap.", player=seat_name(f.piece2)))]
        city.remove_piece(st, f.area, f.piece)
        city.remove_piece(st, f.area2, f.piece2)
        city.add_piece(st, f.area2, f.piece)
        city.add_piece(st, f.area, f.piece2)
        return [act("swap", f.seat, msg("{player} swaps the minions in {area} and {area2}.", player=seat_name(f.seat), area=area_name(f.area), area2=area_name(f.area2)), areas=[f.area, f.area2])]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "second":
            return msg("Choose the second minion, in another area.")
        return msg("Choose the first minion of the swap.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Piece):
            return piece_label("choose", a)
        return None


# ----------------------------------------------------------------------------- removing minions


@scroll("clear_unreal", "carcer", "hit_or_miss", "paid_hit", "hired_hit", "gamble_steal", "business_plan")
class Removal(Scroll):
    """Scrolls that remove a minion (or may): the Dean, Carcer, Errol, Burleigh, Cosmo,
    and the die rolls of Here'n'Now and CMOT Dibbler."""

    def possible(self, st: AmState, f: Frame) -> bool:
        m = f.mode
        if m == "clear_unreal":
            return city.all_minions(st, UNREAL) > 0
        if m in ("paid_hit", "hired_hit"):
            return st.money[f.actor] >= 2
        return True

    def start(self, st: AmState, f: Frame) -> list[Action]:
        m = f.mode
        if m == "clear_unreal":
            return [Piece(area=UNREAL, piece=p) for p in city.pieces_in(st, UNREAL)]
        if m in ("paid_hit", "hired_hit"):
            return [Player(seat=s) for s in sorted(others(st, f.actor))]
        return [Do()]

    def targets(self, st: AmState, f: Frame) -> list[tuple[int, int]]:
        """What the current pick may remove."""
        m = f.mode
        if m == "carcer":  # any minion there, but none of a player who answered with Wallace Sonky
            return [(f.area, p) for p in city.pieces_in(st, f.area) if p not in f.immune]
        if f.stage in ("lose", "penalty"):
            return [(a, f.actor) for a in city.on_board(st, f.actor)]
        if m == "hired_hit":
            return hit_targets(st, f.actor)
        if m == "hit_or_miss":  # Errol: "a minion of your choice", your own included
            return hit_targets(st, -1)
        return hit_targets(st, f.seat)

    def more(self, st: AmState, f: Frame) -> list[Action]:
        out: list[Action] = [Piece(area=a, piece=p) for a, p in self.targets(st, f)]
        if f.stage == "penalty" and st.money[f.actor] >= 2:
            out.append(Pay())
        if f.stage == "steal":
            out = [Player(seat=s) for s in sorted(others(st, f.actor)) if st.money[s] > 0]
        return out

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        m = f.mode
        ev: list[Event] = []
        if isinstance(a, Do):  # roll the die
            f.wait = False
            return self._roll(st, f)
        if isinstance(a, Player) and m in ("paid_hit", "hired_hit") and f.stage == "start":
            f.who = a.seat
            if m == "hired_hit":
                f.stage, f.wait = "hired", False
                window(st, f, a.seat, "affect")
                return []
            city.transfer(st, f.actor, a.seat, 2)
            ev.append(act("pay", f.actor, msg("{player} pays $2 to {seat}.", player=seat_name(f.actor), seat=seat_name(a.seat))))
            return ev + self._pick_or_end(st, f)
        if isinstance(a, Player):  # Here'n'Now: whom to rob
            f.who, f.stage, f.wait = a.seat, "rob", False
            window(st, f, a.seat, "affect")
            return []
        if isinstance(a, Pay):  # CMOT Dibbler's penalty
            pop(st)
            city.pay_bank(st, f.actor, 2)
            return [act("pay", f.actor, msg("{player} pays $2 to the bank.", player=seat_name(f.actor)))]
        assert isinstance(a, Piece)
        f.area, f.piece, f.wait = a.area, a.piece, False
        if f.stage in ("lose", "penalty"):
            f.stage = "own_loss"
            return []
        f.stage = "hit"
        if a.piece < 4:
            window(st, f, a.piece, "remove")
        return []

    def _roll(self, st: AmState, f: Frame) -> list[Event]:
        m = f.mode
        if m == "carcer":
            rolled: list[Event] = []
            areas: list[int] = []
            for _ in range(2):
                a, e = roll(st)
                areas.append(a)
                rolled.append(e)
            f.areas = tuple(areas)
            return rolled + self._next_area(st, f)
        n = st.rng.randint(1, 12)
        ev = [act("roll", f.actor, msg("{player} rolls the die: {roll}.", player=seat_name(f.actor), roll=n), roll=n)]
        if 2 <= n <= 6:
            pop(st)
            return ev
        if n == 1:
            if m == "business_plan" and (st.money[f.actor] >= 2 or city.on_board(st, f.actor)):
                f.stage, f.wait = "penalty", True
            elif city.on_board(st, f.actor):
                f.stage, f.wait = "lose", True
            else:
                pop(st)
                if m == "business_plan" and st.money[f.actor]:
                    # neither $2 nor a minion: no choice left, so you pay what you have
                    paid = city.pay_bank(st, f.actor, 2)
                    ev.append(act("pay", f.actor, msg("{player} pays ${amount} to the bank.", player=seat_name(f.actor), amount=paid)))
            return ev
        if m == "business_plan":
            pop(st)
            return ev + collect_event(st, f.actor, 4)
        if m == "gamble_steal":
            if any(st.money[s] for s in others(st, f.actor)):
                f.stage, f.wait = "steal", True
            else:
                pop(st)
            return ev
        return ev + self._pick_or_end(st, f)  # Errol: a 7 or more

    def _pick_or_end(self, st: AmState, f: Frame) -> list[Event]:
        f.stage = "pick"
        if self.targets(st, f):
            f.wait = True
        else:
            pop(st)
        return []

    def _next_area(self, st: AmState, f: Frame) -> list[Event]:
        while f.areas:
            f.area, f.areas = f.areas[0], f.areas[1:]
            if self.targets(st, f):
                f.stage, f.wait = "pick", True
                return []
        pop(st)
        return []

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        m = f.mode
        if f.stage == "own_loss":
            pop(st)
            city.remove_piece(st, f.area, f.actor)
            return [act("remove", f.actor, msg("{player} removes one of their minions from {area}.", player=seat_name(f.actor), area=area_name(f.area)), area=f.area, piece=f.actor)]
        if f.stage == "rob":
            pop(st)
            if f.blocked:
                return [wallace_event(f.who)]
            got = city.transfer(st, f.who, f.actor, 3)
            return [act("steal", f.actor, msg("{player} takes ${amount} from {who}.", player=seat_name(f.actor), amount=got, who=seat_name(f.who)))]
        if f.stage == "hired":
            if f.blocked:
                pop(st)
                return [wallace_event(f.who)]
            city.transfer(st, f.actor, f.who, 2)
            ev = [act("pay", f.actor, msg("{player} pays $2 to {who}.", player=seat_name(f.actor), who=seat_name(f.who)))]
            f.seat = f.who  # the paid player chooses the victim
            return ev + self._pick_or_end(st, f)
        # stage "hit": the chosen piece goes, unless an interrupt saved it
        if m == "carcer":
            ev = remove_hit(st, f, f.area, f.piece)
            f.wait = False
            return ev + self._next_area(st, f) if st.stack[-1] is f else ev + self._defer_next(f)
        pop(st)
        return remove_hit(st, f, f.area, f.piece)

    def _defer_next(self, f: Frame) -> list[Event]:
        # A rescued minion is being placed on top of this frame: carry on afterwards.
        f.stage = "carcer_next"
        return []

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "carcer_next":
            return self._next_area(st, f)
        return super().run(st, f)

    def prompt(self, st: AmState, f: Frame) -> Text:
        s = f.stage
        if s == "penalty":
            return msg("You rolled a 1: pay $2 to the bank or remove one of your minions.")
        if s == "lose":
            return msg("You rolled a 1: remove one of your minions.")
        if s == "steal":
            return msg("You rolled 7 or more: choose whom to take $3 from.")
        if s == "pick":
            return msg("Choose the minion to remove.")
        if f.mode in ("paid_hit", "hired_hit"):
            return msg("Choose whom to pay $2.")
        if f.mode == "clear_unreal":
            return msg("Choose the minion to remove from Unreal Estate.")
        return msg("Roll the die.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Do):
            return msg("Roll the die")
        if isinstance(a, Pay):
            return msg("Pay $2 to the bank")
        if isinstance(a, Player):
            if f.stage == "steal":
                return msg("Take $3 from {seat}", seat=seat_name(a.seat))
            return msg("Pay $2 to {seat}", seat=seat_name(a.seat))
        if isinstance(a, Piece):
            return piece_label("remove", a)
        return None


# ----------------------------------------------------------------------------- buildings and money


@scroll("buy_calm", "buy_troubled")
class BuyBuilding(Scroll):
    """Sybil Vimes and Reacher Gilt: buy out another player's building."""

    def areas(self, st: AmState, f: Frame) -> list[int]:
        want_trouble = f.mode == "buy_troubled"
        return [a for a in range(12) if st.buildings[a] >= 0 and st.buildings[a] != f.actor
                and st.trouble[a] == want_trouble and st.money[f.actor] >= city.cost(a)]

    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(self.areas(st, f))

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Area(area=a) for a in self.areas(st, f)]

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Area(area=a) for a in range(12) if st.buildings[a] == f.actor]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Area)
        if f.stage == "start":
            f.area, f.who, f.stage, f.wait = a.area, st.buildings[a.area], "hit", False
            window(st, f, f.who, "affect")
            return []
        f.area2, f.stage, f.wait = a.area, "buy", False
        return []

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "hit":
            if f.blocked:
                pop(st)
                return [wallace_event(f.who)]
            if city.building_supply(st, f.actor) == 0:
                f.stage, f.wait = "relocate", True
                return []
        pop(st)
        ev: list[Event] = []
        if f.area2 >= 0:
            city.remove_building(st, f.area2)
            ev.append(act("unbuild", f.actor, msg("{player} takes their building off {area}.", player=seat_name(f.actor), area=area_name(f.area2)), area=f.area2))
        paid = city.transfer(st, f.actor, f.who, city.cost(f.area))
        city.remove_building(st, f.area)
        city.set_building(st, f.area, f.actor)
        n = area_name(f.area)
        return ev + [act("buyout", f.actor, msg("{player} buys {who}'s building in {area} for ${amount}.", player=seat_name(f.actor), who=seat_name(f.who), area=n, amount=paid), area=f.area)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "relocate":
            return msg("All 6 of your buildings are out: choose which one moves.")
        return msg("Choose which building to buy.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Area):
            n = area_name(a.area)
            if f.stage == "relocate":
                return msg("Move the one in {area}", area=n)
            return msg("Buy the one in {area} (${cost})", area=n, cost=city.cost(a.area))
        return None
