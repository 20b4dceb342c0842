"""Scroll frames, and the scroll effects that concern only the card's player.

A scroll frame carries its effect id in ``mode`` (effects aimed at other players are in
``scrolls_players.py``, those acting on the board in ``scrolls_board.py``). Each effect is a small class that
offers its choices stage by stage; effects that reach another player open a reaction
window for them first (Wallace Sonky answers any scroll; Gaspode and the others answer
what they answer).
"""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.board import ISLE
from rules.ankh_morpork.cards import SCROLLS
from rules.ankh_morpork.flow import playable
from rules.ankh_morpork.frames import Handler, pop, push, register
from rules.ankh_morpork.model import AmState, Card, Do, Frame, Skip
from rules.ankh_morpork.scroll_base import (
    SCROLL_IMPL,
    Scroll,
    collect_event,
    draw_event,
    keep_top_card,
    scroll,
)
from rules.ankh_morpork.text import (
    act,
    card_name,
    cards_count,
    cards_names,
    personality_name,
    seat_name,
)
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

# ----------------------------------------------------------------------------- no choice


@scroll("loan")
class Loan(Scroll):
    def effect(self, st: AmState, f: Frame) -> list[Event]:
        st.loans[f.seat].append(f.card)
        keep_top_card(st)
        got = city.collect(st, f.seat, 10)
        return [act("loan", f.seat, msg("{player} takes a loan and collects ${amount}.", player=seat_name(f.seat), amount=got), amount=got)]



@scroll("swap_personality")
class SwapPersonality(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.unused)

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        i = st.rng.randint(0, len(st.unused) - 1)
        old, st.personality[f.seat] = st.personality[f.seat], st.unused[i]
        st.unused[i] = old
        st.peeks[f.seat] = [p for p in [*st.peeks[f.seat], old] if p != st.personality[f.seat]]
        new = personality_name(st.personality[f.seat])
        return [act("swap_personality", f.seat, msg("{player} swaps their personality for a random one.", player=seat_name(f.seat))),
                act("personality_private", f.seat, msg("You are now {personality}.", personality=new), audience=[f.seat],
                    personality=st.personality[f.seat], old=old)]


@scroll("draw2", "draw3", "draw4")
class Draw(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.deck)

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        return draw_event(st, f.seat, city.draw(st, f.seat, int(f.mode[-1])))


@scroll("pay_per_trouble")
class PayPerTrouble(Scroll):
    def effect(self, st: AmState, f: Frame) -> list[Event]:
        return collect_event(st, f.seat, sum(st.trouble))


@scroll("isle_crowd")
class IsleCrowd(Scroll):
    def effect(self, st: AmState, f: Frame) -> list[Event]:
        return collect_event(st, f.seat, city.all_minions(st, ISLE))


@scroll("pay_per_building")
class PayPerBuilding(Scroll):
    def effect(self, st: AmState, f: Frame) -> list[Event]:
        return collect_event(st, f.seat, sum(1 for b in st.buildings if b >= 0))


@scroll("draw_per_building")
class DrawPerBuilding(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.deck) and f.seat in st.buildings

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        return draw_event(st, f.seat, city.draw(st, f.seat, st.buildings.count(f.seat)))


@scroll("monks")
class Monks(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.discard)

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        st.rng.shuffle(st.discard)
        got = st.discard[:4]
        del st.discard[:4]
        st.hands[f.seat].extend(got)
        n = cards_count(len(got))
        return [act("monks", f.seat, msg("{player} takes {cards} at random from the discard pile.", player=seat_name(f.seat), cards=n), n=len(got)),
                act("draw_private", f.seat, msg("{player} takes: {cards}.", player=seat_name(f.seat), cards=cards_names(got)),
                    audience=[f.seat], cards=got)]


@scroll("peek_personalities")
class Peek(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.unused)

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        hidden = st.rng.randint(0, len(st.unused) - 1)
        seen = [p for i, p in enumerate(st.unused) if i != hidden]
        st.peeks[f.seat] = list(dict.fromkeys([*st.peeks[f.seat], *seen]))
        names = msg("{personalities}", personalities=[personality_name(p) for p in seen]) if seen else msg("-")
        looks = msg.n(len(seen), "{player} looks at {n} unused personality.", "{player} looks at {n} unused personalities.",
                      player=seat_name(f.seat))
        return [act("peek", f.seat, looks),
                act("peek_private", f.seat, msg("Not in use: {personalities}.", personalities=names), audience=[f.seat],
                    personalities=seen)]


@scroll("two_cards_play")
class TwoCards(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(playable(st, f.seat))

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        push(st, Frame(kind="double", seat=f.seat, actor=f.seat, card=f.card, n=2))
        return []


# -------------------------------------------------- scrolls that are another symbol, reworded


@scroll("half_price", "minion_at_building", "near_unreal", "quiet_minion", "minion_at_trouble")
class Redirect(Scroll):
    """Scrolls that place a minion or a building under a rule of their own."""

    def run(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        kind, mode = {"half_price": ("building", "half"), "minion_at_building": ("minion", "at_building"),
                      "near_unreal": ("minion", "near_unreal"), "quiet_minion": ("minion", "quiet"),
                      "minion_at_trouble": ("minion", "at_trouble")}[f.mode]
        push(st, Frame(kind=kind, seat=f.seat, actor=f.actor, card=f.card, via="scroll", mode=mode))
        return []


# ----------------------------------------------------------------------------- cards in hand


@scroll("sell_cards1", "sell_cards2", "discard_one")
class SellCards(Scroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.hands[f.seat])

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(st.hands[f.seat])]

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return self.start(st, f) + [Skip()]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Skip):
            pop(st)
            return []
        assert isinstance(a, Card)
        city.discard_from_hand(st, f.seat, a.card)
        ev = [act("discard", f.seat, msg("{player} discards {card}.", player=seat_name(f.seat), card=card_name(a.card)), card=a.card)]
        if f.mode == "discard_one":
            pop(st)
            return ev
        ev += collect_event(st, f.seat, 1 if f.mode == "sell_cards1" else 2)
        f.stage = "more"
        if not st.hands[f.seat]:
            pop(st)
        return ev

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.mode == "discard_one":
            return msg("Discard a card.")
        each = 1 if f.mode == "sell_cards1" else 2
        return msg("Discard cards for ${amount} each.", amount=each)

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Card):
            return msg("Discard {card}", card=card_name(a.card))
        if isinstance(a, Skip):
            return msg("Discard no (more)")
        return None


@scroll("alchemy")
class Alchemy(Scroll):
    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if isinstance(a, Card):
            city.discard_from_hand(st, f.seat, a.card)
            f.n += 1
            ev = [act("discard", f.seat, msg("{player} discards {card}.", player=seat_name(f.seat), card=card_name(a.card)), card=a.card)]
            if f.n < 3 and st.hands[f.seat]:
                f.stage = "discard"
                return ev
        else:
            ev = []
            if f.stage == "start":
                f.stage = "discard"
                if st.hands[f.seat]:
                    return ev
        pop(st)
        return ev + draw_event(st, f.seat, city.refill(st, f.seat))

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(st.hands[f.seat])] + [Do()]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "discard":
            n = cards_count(3 - f.n)
            return msg("Discard up to {cards} more, then refill your hand.", cards=n)
        return msg("Discard up to three cards and refill to five.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Card):
            return msg("Discard {card}", card=card_name(a.card))
        if isinstance(a, Do):
            return msg("Refill the hand") if f.stage == "discard" else msg("Do it")
        return None


@register
class ScrollHandler(Handler):
    """Dispatches a scroll frame to its effect."""

    kind = "scroll"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        return SCROLL_IMPL[f.mode].run(st, f)


    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return SCROLL_IMPL[f.mode].legal(st, f)

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        return SCROLL_IMPL[f.mode].act(st, f, a)

    def prompt(self, st: AmState, f: Frame) -> Text:
        p = SCROLL_IMPL[f.mode].prompt(st, f)
        if p is not None:
            return p
        return msg("{card}: {scroll}", card=card_name(f.card), scroll=SCROLLS[f.mode])

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        lab = SCROLL_IMPL[f.mode].label(st, f, a)
        if lab is None and isinstance(a, Do):
            return msg("Do it")
        if lab is None and isinstance(a, Skip) and f.stage == "start":
            return msg("Skip the scroll")
        return lab


# The other scroll modules register their effects when imported.
from rules.ankh_morpork import scrolls_board, scrolls_players  # noqa: E402, F401
