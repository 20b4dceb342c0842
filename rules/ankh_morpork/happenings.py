"""The 12 random events, resolved with the 12-sided die from the state's generator."""

from __future__ import annotations

from rules.ankh_morpork import city, scoring
from rules.ankh_morpork.board import ADJ, RIVER
from rules.ankh_morpork.frames import Handler, pop, push, register
from rules.ankh_morpork.model import DEMON, TROLL, AmState, Area, Frame, Pay, Piece
from rules.ankh_morpork.reactions import BUILDING, saved_count, sg_holder, sg_window
from rules.ankh_morpork.text import (
    act,
    area_name,
    cards_names,
    event_name,
    piece_name,
    say,
    seat_name,
)
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


def start_event(st: AmState, s: int) -> list[Event]:
    """Draw the top random event and start it; with none left, nothing happens."""
    if not st.event_deck:
        return [say("no_event", msg("No random events are left: nothing happens."))]
    e = st.event_deck.pop()
    st.event_done.append(e)
    push(st, Frame(kind="event", seat=s, actor=s, card=e, via="event"))
    n = event_name(e)
    return [say("event", msg("Random event: {event}.", event=n), event=e)]


def roll(st: AmState, who: int = -1) -> tuple[int, Event]:
    """Roll the 12-sided die: an area index, and the event that says so."""
    a = st.rng.randint(1, 12) - 1
    n = area_name(a)
    if who >= 0:
        return a, say("die", msg("The die shows {number}: {area} (rolled by {seat}).", number=a + 1, area=n,
                                 seat=seat_name(who)), area=a)
    return a, say("die", msg("The die shows {number}: {area}.", number=a + 1, area=n), area=a)


def roll_many(st: AmState, n: int) -> tuple[list[int], list[Event]]:
    """Roll the die ``n`` times: the areas, and the events that say so."""
    rolls = [roll(st) for _ in range(n)]
    return [a for a, _ in rolls], [e for _, e in rolls]


def order_from(st: AmState, s: int) -> tuple[int, ...]:
    """Every seat in turn order, starting with ``s``."""
    return tuple((s + i) % st.num_seats for i in range(st.num_seats))


def _own_pieces(st: AmState, a: int, h: int) -> list[int]:
    """Small Gods codes of ``h``'s pieces in ``a``: one per minion, and the building."""
    out = [a * 10 + h] * st.minions[a][h] if h >= 0 else []
    if h >= 0 and st.buildings[a] == h:
        out.append(a * 10 + BUILDING)
    return out


@register
class EventHandler(Handler):
    """A random event in progress."""

    kind = "event"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        return getattr(self, "_" + f.card)(st, f)

    # -- one die, everything goes
    def _dragon(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "":
            a, ev = roll(st)
            f.area, f.stage = a, "hit"
            sg_window(st, f, _own_pieces(st, a, sg_holder(st)))
            return [ev]
        pop(st)
        a = f.area
        for p in range(st.num_seats):
            st.minions[a][p] = saved_count(f, a * 10 + p)
        st.trolls[a] = st.demons[a] = 0
        st.trouble[a] = False
        if st.buildings[a] >= 0 and not saved_count(f, a * 10 + BUILDING):
            city.remove_building(st, a)
        n = area_name(a)
        return [say("dragon", msg("The dragon lays waste to {area}.", area=n), area=a)]

    # -- two dice, minions wade out
    def _flood(self, st: AmState, f: Frame) -> list[Event]:
        ev: list[Event] = []
        if f.stage == "":
            rolled, dice = roll_many(st, 2)
            ev.extend(dice)
            f.areas = tuple(sorted(set(rolled) & RIVER))
            if not f.areas:
                pop(st)
                return ev + [say("flood", msg("No river area floods."))]
            names = [area_name(a) for a in f.areas]
            ev.append(say("flood", msg("Flooded: {areas}.", areas=names), areas=list(f.areas)))
            f.seats, f.stage = order_from(st, f.actor), "next"
        while f.seats:
            s = f.seats[0]
            if self._wading(st, f, s):
                f.seat, f.stage, f.wait = s, "pick", True
                return ev
            f.seats = f.seats[1:]
        pop(st)
        return ev

    def _dry(self, f: Frame, a: int) -> list[int]:
        return sorted(d for d in ADJ[a] if d not in f.areas)

    def _wading(self, st: AmState, f: Frame, s: int) -> list[int]:
        return [a for a in f.areas if st.minions[a][s] - saved_count(f, a * 10 + s) > 0 and self._dry(f, a)]

    # -- fire spreads while it finds neighbouring buildings
    def _fire(self, st: AmState, f: Frame) -> list[Event]:
        ev: list[Event] = []
        if f.stage == "":
            f.area, e = roll(st)
            f.area2, f.stage = -1, "check"
            ev.append(e)
        if f.stage == "check":
            a, prev = f.area, f.area2
            if st.buildings[a] < 0 or (prev >= 0 and a not in ADJ[prev]):
                pop(st)
                return ev + [say("fire_out", msg("The fire dies out."))]
            f.stage = "burn"
            h = sg_holder(st)
            sg_window(st, f, [a * 10 + BUILDING] if st.buildings[a] == h >= 0 else [])
            return ev
        a = f.area
        if saved_count(f, a * 10 + BUILDING):
            ev.append(say("spared", msg("The building in {area} holds.", area=area_name(a))))
        else:
            city.remove_building(st, a)
            ev.append(say("burn", msg("The building in {area} burns.", area=area_name(a)), area=a))
        f.saved, f.area2 = (), a
        f.area, e = roll(st)
        f.stage = "check"
        return ev + [e]

    def _fog(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        gone = st.deck[:5]
        del st.deck[:5]
        st.discard.extend(gone)
        if gone and not st.deck:
            st.deck_out = True
        n = cards_names(gone)
        return [say("fog", msg("The fog takes from the deck: {cards}.", cards=n), cards=gone)]

    def _riots(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        k = sum(st.trouble)
        if k >= 8:
            return [say("riots", msg("Riots with {count} trouble markers! The game ends.", count=k))] + scoring.finish(st, "riots")
        return [say("riots", msg.n(k, "Only {n} trouble marker: no riots.", "Only {n} trouble markers: no riots."))]

    def _subsidence(self, st: AmState, f: Frame) -> list[Event]:
        ev: list[Event] = []
        if f.stage == "":
            f.seats, f.stage = order_from(st, f.actor), "next"
        while f.seats:
            s = f.seats[0]
            nb = st.buildings.count(s)
            if nb and st.money[s] < 2 * nb:
                f.seat, f.stage, f.wait = s, "lose", True
                return ev
            f.seats = f.seats[1:]
            if nb:
                city.pay_bank(st, s, 2 * nb)
                ev.append(act("subsidence", s, msg("{player} pays ${amount} for their buildings.", player=seat_name(s), amount=2 * nb)))
        pop(st)
        return ev

    def _explosion(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "":
            a, e = roll(st)
            f.area, f.stage = a, "hit"
            h = sg_holder(st)
            sg_window(st, f, [a * 10 + BUILDING] if st.buildings[a] == h >= 0 else [])
            return [e]
        pop(st)
        a = f.area
        if st.buildings[a] < 0:
            return [say("explosion", msg("There was no building there."))]
        if saved_count(f, a * 10 + BUILDING):
            return [say("spared", msg("The building in {area} holds.", area=area_name(a)))]
        city.remove_building(st, a)
        return [say("explosion", msg("The building in {area} is blown up.", area=area_name(a)), area=a)]

    def _murders(self, st: AmState, f: Frame) -> list[Event]:
        ev: list[Event] = []
        if f.stage == "":
            f.seats, f.stage = order_from(st, f.actor), "next"
        if f.stage == "hit":
            a, p = f.area, f.piece
            if saved_count(f, a * 10 + p):
                ev.append(act("spared", p, msg("{player} keeps their minion in {area}.", player=seat_name(p), area=area_name(a))))
            else:
                city.remove_piece(st, a, p)
                pn = piece_name(p)
                ev.append(act("remove", f.who, msg("{player} removes {piece} from {area}.", player=seat_name(f.who), piece=pn, area=area_name(a)),
                              area=a, piece=p))
            f.saved, f.stage = (), "next"
        while f.seats:
            s = f.seats[0]
            f.seats = f.seats[1:]
            a, e = roll(st, s)
            ev.append(e)
            if city.all_minions(st, a):
                f.who, f.seat, f.area, f.stage, f.wait = s, s, a, "pick", True
                return ev
        pop(st)
        return ev

    def murder_targets(self, st: AmState, f: Frame) -> list[int]:
        """Pieces the roller may remove: any minion there, of their choice (their own too)."""
        return city.pieces_in(st, f.area)

    def _demons(self, st: AmState, f: Frame) -> list[Event]:
        ev: list[Event] = []
        if f.stage == "":
            rolled, dice = roll_many(st, 4)
            ev.extend(dice)
            f.areas, f.stage = tuple(rolled), "next"
        if f.stage == "place":
            a = f.area
            if saved_count(f, a * 10 + DEMON):
                ev.append(say("spared", msg("The demon does not reach {area}.", area=area_name(a))))
            elif sum(st.demons) < city.DEMONS_IN_BOX:
                st.demons[a] += 1
                st.trouble[a] = True  # a demon always brings trouble, even to an empty area
                ev.append(say("demon", msg("A demon appears in {area}.", area=area_name(a)), area=a))
            f.saved, f.stage = (), "next"
        if not f.areas:
            pop(st)
            return ev
        a = f.areas[0]
        f.areas, f.area, f.stage = f.areas[1:], a, "place"
        h = sg_holder(st)
        if h >= 0 and (st.minions[a][h] or st.buildings[a] == h):
            sg_window(st, f, [a * 10 + DEMON])
        return ev

    def _johnson(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "":
            a, e = roll(st)
            h = city.holder(st, a)
            if h < 0:
                pop(st)
                return [e, say("johnson", msg("Nobody holds that card: nothing happens."))]
            st.card_out[a] = True
            n = area_name(a)
            ev = [e, act("johnson", h, msg("{player} loses the {area} card for the rest of the game.", player=seat_name(h), area=n), area=a)]
            if not st.minions[a][h]:
                pop(st)
                return ev
            f.area, f.who, f.stage = a, h, "hit"
            if h == sg_holder(st):
                sg_window(st, f, [a * 10 + h])
            return ev
        pop(st)
        a, h = f.area, f.who
        if saved_count(f, a * 10 + h):
            return [act("spared", h, msg("{player} keeps their minion in {area}.", player=seat_name(h), area=area_name(a)))]
        city.remove_piece(st, a, h)
        return [act("remove", h, msg("{player} removes a minion from {area}.", player=seat_name(h), area=area_name(a)), area=a, piece=h)]

    def _trolls(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        ev: list[Event] = []
        for _ in range(3):
            a, e = roll(st)
            ev.append(e)
            if sum(st.trolls) < city.TROLLS_IN_BOX:
                city.add_piece(st, a, TROLL)
                ev.append(say("troll", msg("A troll arrives in {area}.", area=area_name(a)), area=a))
        return ev

    def _earthquake(self, st: AmState, f: Frame) -> list[Event]:
        ev: list[Event] = []
        if f.stage == "":
            rolled, dice = roll_many(st, 2)
            ev.extend(dice)
            f.areas, f.stage = tuple(dict.fromkeys(rolled)), "next"
        if f.stage == "hit":
            a = f.area
            if st.buildings[a] >= 0:
                if saved_count(f, a * 10 + BUILDING):
                    ev.append(say("spared", msg("The building in {area} holds.", area=area_name(a))))
                else:
                    city.remove_building(st, a)
                    ev.append(say("quake", msg("The building in {area} collapses.", area=area_name(a)), area=a))
            f.saved, f.stage = (), "next"
        if not f.areas:
            pop(st)
            return ev
        a = f.areas[0]
        f.areas, f.area, f.stage = f.areas[1:], a, "hit"
        h = sg_holder(st)
        sg_window(st, f, [a * 10 + BUILDING] if st.buildings[a] == h >= 0 else [])
        return ev

    # ------------------------------------------------------------------ decisions

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        if f.card == "flood":
            if f.stage == "pick":
                return [Piece(area=a, piece=f.seat) for a in self._wading(st, f, f.seat)]
            out: list[Action] = [Area(area=d) for d in self._dry(f, f.area)]
            if sg_holder(st) == f.seat:
                out.append(Pay())
            return out
        if f.card == "subsidence":
            return [Area(area=a) for a in range(12) if st.buildings[a] == f.seat]
        return [Piece(area=f.area, piece=p) for p in self.murder_targets(st, f)]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if f.card == "flood":
            if isinstance(a, Piece):
                f.area, f.stage = a.area, "dest"
                return []
            f.stage, f.wait = "next", False
            if isinstance(a, Pay):
                city.pay_bank(st, f.seat, 3)
                f.saved = (*f.saved, f.area * 10 + f.seat)
                return [act("small_gods", f.seat, msg("{player} pays $3 (Small Gods): their minion stays in {area}.", player=seat_name(f.seat), area=area_name(f.area)))]
            assert isinstance(a, Area)
            city.move_piece(st, f.area, a.area, f.seat)
            return [act("move", f.seat, msg("{player} moves a minion from {area} to {area2}.", player=seat_name(f.seat), area=area_name(f.area), area2=area_name(a.area)), area=f.area, dest=a.area)]
        if f.card == "subsidence":
            assert isinstance(a, Area)
            city.remove_building(st, a.area)
            f.wait = False
            return [act("subsidence", f.seat, msg("{player} cannot pay and loses their building in {area}.", player=seat_name(f.seat), area=area_name(a.area)), area=a.area)]
        assert isinstance(a, Piece)
        f.piece, f.stage, f.wait = a.piece, "hit", False
        if a.piece < 4 and a.piece == sg_holder(st):
            sg_window(st, f, [f.area * 10 + a.piece])
        return []

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.card == "flood":
            if f.stage == "pick":
                return msg("Flood: choose which minion to move out.")
            return msg("Flood: where does the minion in {area} go?", area=area_name(f.area))
        if f.card == "subsidence":
            return msg("Subsidence: you cannot pay for all; choose a building to lose.")
        return msg("Mysterious Murders: choose whom to remove from {area}.", area=area_name(f.area))

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return msg("Pay $3 (Small Gods): it stays")
        if isinstance(a, Area):
            n = area_name(a.area)
            if f.card == "subsidence":
                return msg("Lose the building in {area}", area=n)
            return msg("Move it to {area}", area=n)
        if isinstance(a, Piece):
            pn, n = piece_name(a.piece), area_name(a.area)
            if f.card == "flood":
                return msg("Move out {piece} from {area}", piece=pn, area=n)
            return msg("Remove {piece} from {area}", piece=pn, area=n)
        return None

