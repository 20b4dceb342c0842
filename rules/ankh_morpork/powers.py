"""City area cards: who may use which power now, and using it."""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.board import (
    ADJ,
    DIMWELL,
    DOLLY,
    DRAGONS,
    HIPPO,
    LONGWALL,
    NAP,
    SCOURS,
    SHADES,
    SLEEPERS,
    SMALL_GODS,
    UNREAL,
)
from rules.ankh_morpork.frames import Handler, pop, push, register
from rules.ankh_morpork.model import AmState, Area, Card, Frame
from rules.ankh_morpork.text import act, area_name, card_name, seat_name
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

INCOME = {DRAGONS: 2, HIPPO: 2, LONGWALL: 1, SLEEPERS: 3, NAP: 1}


def power_active(st: AmState, s: int, a: int) -> bool:
    """The seat holds area ``a``'s card and may use it now (no demon there, not won this turn)."""
    return city.holder(st, a) == s and st.demons[a] == 0 and a not in st.fresh


def shades_targets(st: AmState) -> list[int]:
    """Where the Shades may put trouble: itself or a neighbour, holding a minion, without trouble."""
    return [a for a in sorted({SHADES} | ADJ[SHADES]) if city.all_minions(st, a) and not st.trouble[a]]


def usable_powers(st: AmState, s: int) -> list[int]:
    """Area cards the seat may use now (each once a turn; Small Gods answers events instead)."""
    out: list[int] = []
    for a in range(12):
        if a == SMALL_GODS or a in st.used or not power_active(st, s, a):
            continue
        if a in INCOME:
            ok = city.bank(st) > 0
        elif a in (DOLLY, DIMWELL):
            ok = st.money[s] >= 3 and (city.supply(st, s) > 0 or bool(city.on_board(st, s)))
        elif a == UNREAL:
            ok = bool(st.deck)
        elif a == SCOURS:
            ok = bool(st.hands[s])
        elif a == SHADES:
            ok = bool(shades_targets(st))
        else:  # ISLE
            ok = st.money[s] >= 2 and any(st.trouble)
        if ok:
            out.append(a)
    return out


def use_power(st: AmState, s: int, a: int) -> list[Event]:
    """Use area ``a``'s power: income at once, otherwise the choice it needs."""
    st.used.append(a)
    name = area_name(a)
    if a in INCOME:
        got = city.collect(st, s, INCOME[a])
        return [act("power", s, msg("{player} uses {area} and collects ${amount}.", player=seat_name(s), area=name, amount=got), area=a)]
    ev = [act("power", s, msg("{player} uses the {area} card.", player=seat_name(s), area=name), area=a)]
    if a in (DOLLY, DIMWELL):
        city.pay_bank(st, s, 3)
        push(st, Frame(kind="minion", seat=s, actor=s, via="power", mode="dolly" if a == DOLLY else "dimwell"))
    elif a == UNREAL:
        got = city.draw(st, s, 1)
        ev.append(act("draw_private", s, msg("{player} draws {card}.", player=seat_name(s), card=card_name(got[0])),
                      audience=[s], cards=got))
        push(st, Frame(kind="power_discard", seat=s, actor=s, via="power", area=a, wait=True))
    elif a == SCOURS:
        push(st, Frame(kind="power_discard", seat=s, actor=s, via="power", area=a, wait=True))
    elif a == SHADES:
        push(st, Frame(kind="power_area", seat=s, actor=s, via="power", area=a, wait=True))
    else:  # ISLE
        city.pay_bank(st, s, 2)
        push(st, Frame(kind="power_area", seat=s, actor=s, via="power", area=a, wait=True))
    return ev


@register
class PowerDiscard(Handler):
    """Unreal Estate (after drawing) and the Scours: discard a card."""

    kind = "power_discard"

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(st.hands[f.seat])]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Card)
        pop(st)
        city.discard_from_hand(st, f.seat, a.card)
        ev = [act("discard", f.seat, msg("{player} discards {card}.", player=seat_name(f.seat), card=card_name(a.card)),
                  card=a.card)]
        if f.area == SCOURS:
            got = city.collect(st, f.seat, 2)
            ev.append(act("collect", f.seat, msg("{player} collects ${amount}.", player=seat_name(f.seat), amount=got), amount=got))
        return ev

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("Discard a card.")


@register
class PowerArea(Handler):
    """The Shades (put trouble) and the Isle of Gods (take trouble away)."""

    kind = "power_area"

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        if f.area == SHADES:
            return [Area(area=a) for a in shades_targets(st)]
        return [Area(area=a) for a in range(12) if st.trouble[a]]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Area)
        pop(st)
        n = area_name(a.area)
        if f.area == SHADES:
            st.trouble[a.area] = True
            return [act("trouble", f.seat, msg("{player} puts trouble in {area}.", player=seat_name(f.seat), area=n), area=a.area)]
        st.trouble[a.area] = False
        return [act("calm", f.seat, msg("{player} removes the trouble in {area}.", player=seat_name(f.seat), area=n), area=a.area)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.area == SHADES:
            return msg("Choose where to put a trouble marker.")
        return msg("Choose which trouble marker to remove.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Area):
            n = area_name(a.area)
            if f.area == SHADES:
                return msg("Trouble in {area}", area=n)
            return msg("Remove the trouble in {area}", area=n)
        return None
