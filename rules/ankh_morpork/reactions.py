"""Reaction windows: interrupt cards played out of turn, and Small Gods against events.

When an effect is about to reach a player who could answer it, the effect's frame records
the target, moves to its next stage and pushes a reaction frame for that player. The
answer sets ``blocked`` (the effect does not happen to them) or ``rescue`` (the minion is
removed, then put back elsewhere) on the frame below, which then carries on.
"""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.board import SMALL_GODS
from rules.ankh_morpork.frames import Handler, below, pop, push, register
from rules.ankh_morpork.model import DEMON, AmState, Area, Frame, Interrupt, Piece, Skip
from rules.ankh_morpork.text import act, area_name, card_name, piece_name, seat_name
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

# What each interrupt answers: "remove" (another player's card removes one of your minions),
# "lose" (another player's card makes you remove one yourself: the Auditors), "move", or
# (Wallace) any scroll text. Gaspode stops *a player* moving or removing your minion, so not
# a removal you make yourself; Susan, Fresh Start Club and Igor answer any minion of yours
# leaving the board because of another player's card.
STOPS = {"gaspode": ("remove", "move"), "susan": ("remove", "lose")}
RESCUES = ("fresh_start_club", "igor")
REMOVALS = ("remove", "lose")
BUILDING = 9  # piece code of a building in Small Gods' lists


def reaction_cards(st: AmState, f: Frame, victim: int, what: str) -> list[str]:
    """Interrupt cards ``victim`` holds that answer ``f`` doing ``what`` to them.

    Only another player's card (its symbols or its text) can be answered with an
    interrupt; random events are answered by Small Gods alone.
    """
    if not 0 <= victim < st.num_seats or victim in (f.actor, f.seat) or f.via not in ("symbol", "scroll"):
        return []
    hand = st.hands[victim]
    out = [c for c, whats in STOPS.items() if what in whats and c in hand]
    if what in REMOVALS:
        out += [c for c in RESCUES if c in hand]
    if f.via == "scroll" and "wallace_sonky" in hand:
        out.append("wallace_sonky")
    return out


def window(st: AmState, f: Frame, victim: int, what: str) -> bool:
    """Open a reaction window for ``victim`` if they can answer; True if one was opened."""
    f.blocked = f.rescue = False
    cards = reaction_cards(st, f, victim, what)
    if not cards:
        return False
    push(st, Frame(kind="react", seat=victim, actor=f.seat, card=f.card, via=f.via, mode=what,
                   area=f.area, piece=f.piece, cards=tuple(cards), wait=True))
    return True


def remove_hit(st: AmState, f: Frame, a: int, p: int) -> list[Event]:
    """Remove piece ``p`` from ``a`` unless an interrupt stopped it; rescue it if one was played."""
    if f.blocked:
        f.blocked = False
        return [act("spared", p, msg("{player} keeps their minion in {area}.", player=seat_name(p), area=area_name(a)))]
    city.remove_piece(st, a, p)
    pn = piece_name(p)
    ev = [act("remove", f.seat, msg("{player} removes {piece} from {area}.", player=seat_name(f.seat), piece=pn, area=area_name(a)),
              area=a, piece=p)]
    if f.rescue and p < 4:
        f.rescue = False
        push(st, Frame(kind="minion", seat=p, actor=p, via="interrupt", mode="rescue", area2=a))
    return ev


@register
class ReactHandler(Handler):
    """A player may answer another player's card with an interrupt, or not."""

    kind = "react"

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return [Interrupt(card=c) for c in f.cards if c in st.hands[f.seat]] + [Skip()]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        pop(st)
        under = below_after_pop(st)
        if not isinstance(a, Interrupt):
            return []
        city.discard_from_hand(st, f.seat, a.card)
        if a.card in RESCUES:
            under.rescue = True
        else:
            under.blocked = True
        if a.card == "wallace_sonky":  # the rest of this card's text no longer reaches them
            under.immune = (*under.immune, f.seat)
        return [act("interrupt", f.seat, msg("{player} plays {card}.", player=seat_name(f.seat), card=card_name(a.card)),
                    card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        who = seat_name(f.actor)
        c, area = card_name(f.card), _where(f)
        if f.mode == "remove":
            return msg("{who} wants to remove one of your minions from {area} ({card}). Play an interrupt?",
                       who=who, area=area, card=c)
        if f.mode == "move":
            return msg("{who} wants to move one of your minions from {area} ({card}). Play an interrupt?",
                       who=who, area=area, card=c)
        if f.mode == "lose":
            return msg("{who} makes you remove your minion from {area} ({card}). Play an interrupt?",
                       who=who, area=area, card=c)
        return msg("{who} targets you with their card's text ({card}). Play an interrupt?", who=who, card=c)

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Skip):
            return msg("No")
        if isinstance(a, Interrupt):
            return msg("Play {card}", card=card_name(a.card))
        return None


def _where(f: Frame) -> Text:
    return area_name(f.area) if f.area >= 0 else msg("the board")


def below_after_pop(st: AmState) -> Frame:
    """The frame that opened a window, once the window frame is gone."""
    return st.stack[-1]


# --------------------------------------------------------------------------- Small Gods


def sg_holder(st: AmState) -> int:
    """Who may pay with Small Gods now (-1: nobody)."""
    h = city.holder(st, SMALL_GODS)
    if h < 0 or st.demons[SMALL_GODS] or st.money[h] < 3:
        return -1
    if h == st.turn and SMALL_GODS in st.fresh:
        return -1  # not in the turn the card was won
    return h


def sg_window(st: AmState, f: Frame, pieces: list[int]) -> bool:
    """Offer Small Gods' holder to spare their ``pieces`` (area*10 + piece) for $3 each."""
    f.saved = ()
    h = sg_holder(st)
    if h < 0 or not pieces:
        return False
    push(st, Frame(kind="small_gods", seat=h, actor=f.actor, via="event", card=f.card,
                   areas=tuple(pieces), wait=True))
    return True


def saved_count(f: Frame, code: int) -> int:
    """How many times ``code`` was spared."""
    return f.saved.count(code)


@register
class SmallGodsHandler(Handler):
    """The Small Gods holder pays $3 per piece to spare it from a random event."""

    kind = "small_gods"

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        under = below(st, f)
        out: list[Action] = []
        if st.money[f.seat] >= 3 and under is not None:
            for code in dict.fromkeys(f.areas):
                if saved_count(under, code) < f.areas.count(code):
                    a, p = divmod(code, 10)
                    out.append(Area(area=a) if p == BUILDING else Piece(area=a, piece=p))
        return out + [Skip()]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        under = below(st, f)
        assert under is not None
        if isinstance(a, Skip):
            pop(st)
            return []
        code = a.area * 10 + (a.piece if isinstance(a, Piece) else BUILDING)
        city.pay_bank(st, f.seat, 3)
        under.saved = (*under.saved, code)
        if not [x for x in self.legal(st, f) if not isinstance(x, Skip)]:
            pop(st)
        who, n = seat_name(f.seat), area_name(a.area)
        if isinstance(a, Area):
            text = msg("{player} pays $3 (Small Gods) and spares the building in {area}.", player=who, area=n)
        elif a.piece == DEMON:
            text = msg("{player} pays $3 (Small Gods) and spares the demon's arrival in {area}.", player=who, area=n)
        else:
            text = msg("{player} pays $3 (Small Gods) and spares a minion in {area}.", player=who, area=n)
        return [act("small_gods", f.seat, text, area=a.area)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("A random event reaches your pieces: you may pay $3 a piece with Small Gods.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Skip):
            return msg("Pay no more")
        if isinstance(a, Area):
            return msg("Pay $3: save the building in {area}", area=area_name(a.area))
        if isinstance(a, Piece):
            if a.piece == DEMON:
                return msg("Pay $3: keep the demon out of {area}", area=area_name(a.area))
            return msg("Pay $3: save a minion in {area}", area=area_name(a.area))
        return None
