"""Scrolls aimed at other players: one chosen target, or every other player in turn."""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.frames import pop, push
from rules.ankh_morpork.model import AmState, Area, Card, Frame, Pay, Piece, Player, Skip
from rules.ankh_morpork.reactions import window
from rules.ankh_morpork.scroll_base import (
    Scroll,
    keep_top_card,
    others,
    scroll,
    wallace_event,
)
from rules.ankh_morpork.text import (
    act,
    area_name,
    card_name,
    cards_names,
    seat_name,
)
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

# ----------------------------------------------------------------------------- one target player


class VictimScroll(Scroll):
    """Pick a player; they may answer with Wallace Sonky; then :meth:`hit` them."""

    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return True

    def targets(self, st: AmState, f: Frame) -> list[int]:
        return [s for s in others(st, f.actor) if self.eligible(st, f, s)]

    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(self.targets(st, f))

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Player(seat=s) for s in sorted(self.targets(st, f))]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if f.stage == "start":
            assert isinstance(a, Player)
            f.who, f.stage, f.wait = a.seat, "hit", False
            window(st, f, a.seat, "affect")
            return []
        return self.decide(st, f, a)

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "hit":
            if f.blocked:
                pop(st)
                return [wallace_event(f.who)]
            return self.hit(st, f)
        return self.later(st, f)

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        """The effect on ``f.who``, who did not stop it."""
        raise NotImplementedError

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        """A later choice (by the actor or the target)."""
        raise NotImplementedError

    def later(self, st: AmState, f: Frame) -> list[Event]:
        """A later automatic stage."""
        raise NotImplementedError

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Player):
            return msg("Choose {seat}", seat=seat_name(a.seat))
        if isinstance(a, Card):
            return card_name(a.card)
        return None


@scroll("two_cards")
class TwoCardsFrom(VictimScroll):
    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return bool(st.hands[s])

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        f.n = min(2, len(st.hands[f.who]))
        if not f.n:
            pop(st)
            return []
        f.seat, f.stage, f.wait = f.who, "give", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(st.hands[f.seat])]

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Card)
        st.hands[f.who].remove(a.card)
        st.hands[f.actor].append(a.card)
        f.n -= 1
        if f.n == 0 or not st.hands[f.who]:
            pop(st)
        return [act("give", f.who, msg("{player} gives a card to {actor}.", player=seat_name(f.who), actor=seat_name(f.actor))),
                act("give_private", f.who, msg("{player} gives {card} to {actor}.", player=seat_name(f.who), card=card_name(a.card), actor=seat_name(f.actor)), audience=[f.who, f.actor], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "give":
            return msg("Give a card to {actor} ({left} to give).", actor=seat_name(f.actor), left=f.n)
        return msg("Choose who must give you two cards.")


@scroll("card_for_two")
class CardForTwo(VictimScroll):
    def possible(self, st: AmState, f: Frame) -> bool:
        return bool(st.hands[f.actor]) and super().possible(st, f)

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        if not st.hands[f.actor]:
            pop(st)
            return []
        f.stage, f.wait = "give", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(st.hands[f.actor])]

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Card)
        pop(st)
        st.hands[f.actor].remove(a.card)
        st.hands[f.who].append(a.card)
        paid = city.transfer(st, f.who, f.actor, 2)
        return [act("give", f.actor, msg("{player} gives a card to {who} and is paid ${amount}.", player=seat_name(f.actor), who=seat_name(f.who), amount=paid)),
                act("give_private", f.actor, msg("{player} gives {card} to {who}.", player=seat_name(f.actor), card=card_name(a.card), who=seat_name(f.who)), audience=[f.who, f.actor], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "give":
            return msg("Choose the card to give.")
        return msg("Choose who gets a card from you for $2.")


@scroll("steal_three")
class StealThree(VictimScroll):
    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return st.money[s] > 0

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        got = city.transfer(st, f.who, f.actor, 3)
        return [act("steal", f.actor, msg("{player} takes ${amount} from {who}.", player=seat_name(f.actor), amount=got, who=seat_name(f.who)))]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("Choose whom to take $3 from.")


@scroll("hand_penalty")
class HandPenalty(VictimScroll):
    def hit(self, st: AmState, f: Frame) -> list[Event]:
        f.seat, f.stage, f.wait = f.who, "ransom", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return ([Pay()] if st.money[f.seat] >= 5 else []) + [Skip()]

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        pop(st)
        if isinstance(a, Pay):
            city.transfer(st, f.who, f.actor, 5)
            return [act("ransom", f.who, msg("{player} pays $5 to {actor}.", player=seat_name(f.who), actor=seat_name(f.actor)))]
        st.stuck[f.who].append(f.card)
        keep_top_card(st)
        c = card_name(f.card)
        return [act("stuck", f.who, msg("{player} gets {card} in front of them: it takes a place in their hand.", player=seat_name(f.who), card=c), card=f.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "ransom":
            c = card_name(f.card)
            return msg("Pay $5 to {actor} or keep {card} for good.", actor=seat_name(f.actor), card=c)
        return msg("Choose another player.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return msg("Pay $5")
        if isinstance(a, Skip) and f.stage == "ransom":
            return msg("Do not pay: keep {card}", card=card_name(f.card))
        return super().label(st, f, a)


@scroll("fire_brigade")
class FireBrigade(VictimScroll):
    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return s in st.buildings

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        f.seat, f.stage, f.wait = f.who, "ransom", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        if f.stage == "ransom":
            return ([Pay()] if st.money[f.seat] >= 5 else []) + [Skip()]
        return [Area(area=a) for a in range(12) if st.buildings[a] == f.who] + [Skip()]

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if f.stage == "ransom":
            if isinstance(a, Pay):
                pop(st)
                city.transfer(st, f.who, f.actor, 5)
                return [act("ransom", f.who, msg("{player} pays $5 to {actor}.", player=seat_name(f.who), actor=seat_name(f.actor)))]
            f.seat, f.stage = f.actor, "burn"
            return [act("refuse", f.who, msg("{player} does not pay.", player=seat_name(f.who)))]
        pop(st)
        if isinstance(a, Area):
            city.remove_building(st, a.area)
            n = area_name(a.area)
            return [act("burn", f.actor, msg("{player} burns {who}'s building in {area}.", player=seat_name(f.actor), who=seat_name(f.who), area=n), area=a.area)]
        return []

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "ransom":
            return msg("Pay $5 to {actor} or they may burn one of your buildings.", actor=seat_name(f.actor))
        if f.stage == "burn":
            return msg("Choose which building to burn.")
        return msg("Choose a player with buildings.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return msg("Pay $5")
        if isinstance(a, Skip):
            return msg("Do not pay") if f.stage == "ransom" else msg("Burn nothing")
        if isinstance(a, Area):
            return msg("Burn the one in {area}", area=area_name(a.area))
        return super().label(st, f, a)


@scroll("pick_pocket")
class PickPocket(VictimScroll):
    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return bool(st.hands[s])

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        hand = list(st.hands[f.who])
        if not hand:
            pop(st)
            return []
        st.rng.shuffle(hand)
        f.cards, f.stage, f.wait = tuple(hand[:2]), "keep", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(f.cards)]

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Card)
        pop(st)
        st.hands[f.who].remove(a.card)
        st.hands[f.actor].append(a.card)
        return [act("take", f.actor, msg("{player} keeps a card of {who}'s.", player=seat_name(f.actor), who=seat_name(f.who))),
                act("take_private", f.actor, msg("{player} keeps {card}.", player=seat_name(f.actor), card=card_name(a.card)),
                    audience=[f.actor, f.who], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "keep":
            return msg("Choose which to keep; the other goes back.")
        return msg("Choose whose two random cards you take.")


@scroll("spy_hand")
class SpyHand(VictimScroll):
    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return bool(st.hands[s])

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        if not st.hands[f.who]:
            pop(st)
            return []
        f.stage, f.wait = "pick", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Card(card=c) for c in dict.fromkeys(st.hands[f.who])]

    def decide(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Card)
        pop(st)
        city.discard_from_hand(st, f.who, a.card)
        c = card_name(a.card)
        return [act("discard", f.who, msg("{player} discards {card}, as {actor} chose.", player=seat_name(f.who), card=c, actor=seat_name(f.actor)), card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "pick":
            return msg("{who}'s hand: choose the card they discard.", who=seat_name(f.who))
        return msg("Choose whose hand to look at.")


@scroll("swap_hands")
class SwapHands(VictimScroll):
    def hit(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        a, b = f.actor, f.who
        st.hands[a], st.hands[b] = st.hands[b], st.hands[a]
        return [act("swap_hands", a, msg("{player} swaps hands with {seat}.", player=seat_name(a), seat=seat_name(b))),
                act("hand_private", a, msg("You get: {cards}.", cards=cards_names(st.hands[a])),
                    audience=[a], cards=list(st.hands[a])),
                act("hand_private", b, msg("You get: {cards}.", cards=cards_names(st.hands[b])),
                    audience=[b], cards=list(st.hands[b]))]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("Choose whom to swap hands with.")


# ----------------------------------------------------------------------------- every other player


class EachScroll(Scroll):
    """Reaches every other player in turn order; each may answer with Wallace Sonky."""

    what = "affect"

    def reaches(self, st: AmState, f: Frame, s: int) -> bool:
        return True

    def possible(self, st: AmState, f: Frame) -> bool:
        return any(self.reaches(st, f, s) for s in others(st, f.actor))

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if f.stage == "start":
            f.seats, f.stage, f.wait = others(st, f.actor), "next", False
            return []
        return self.answer(st, f, a)

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "hit":
            if f.blocked:
                f.stage = "next"
                return [wallace_event(f.who)]
            return self.each(st, f)
        while f.seats:
            s, f.seats = f.seats[0], f.seats[1:]
            if self.reaches(st, f, s):
                f.who, f.stage = s, "hit"
                window(st, f, s, self.what)
                return []
        pop(st)
        return []

    def each(self, st: AmState, f: Frame) -> list[Event]:
        """The effect on ``f.who``; set ``stage`` back to "next" when done."""
        raise NotImplementedError

    def answer(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        """A choice made by the player reached."""
        raise NotImplementedError


@scroll("steal_two_each")
class StealTwoEach(EachScroll):
    def reaches(self, st: AmState, f: Frame, s: int) -> bool:
        return st.money[s] > 0

    def each(self, st: AmState, f: Frame) -> list[Event]:
        f.stage = "next"
        got = city.transfer(st, f.who, f.actor, 2)
        return [act("steal", f.actor, msg("{player} takes ${amount} from {who}.", player=seat_name(f.actor), amount=got, who=seat_name(f.who)))]


@scroll("card_or_dollar")
class CardOrDollar(EachScroll):
    def reaches(self, st: AmState, f: Frame, s: int) -> bool:
        return st.money[s] > 0 or bool(st.hands[s])

    def each(self, st: AmState, f: Frame) -> list[Event]:
        f.seat, f.stage, f.wait = f.who, "give", True
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return ([Pay()] if st.money[f.seat] else []) + [Card(card=c) for c in dict.fromkeys(st.hands[f.seat])]

    def answer(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        s = f.seat
        f.seat, f.stage, f.wait = f.actor, "next", False
        if isinstance(a, Pay):
            city.transfer(st, s, f.actor, 1)
            return [act("give", s, msg("{player} gives $1 to {actor}.", player=seat_name(s), actor=seat_name(f.actor)))]
        assert isinstance(a, Card)
        st.hands[s].remove(a.card)
        st.hands[f.actor].append(a.card)
        return [act("give", s, msg("{player} gives a card to {actor}.", player=seat_name(s), actor=seat_name(f.actor))),
                act("give_private", s, msg("{player} gives {card}.", player=seat_name(s), card=card_name(a.card)),
                    audience=[s, f.actor], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "give":
            return msg("Give $1 or a card to {actor}.", actor=seat_name(f.actor))
        return msg("Every other player gives you $1 or a card.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return msg("Give $1")
        if isinstance(a, Card):
            return msg("Give {card}", card=card_name(a.card))
        return None


@scroll("audit")
class Audit(EachScroll):
    """Each other player chooses one of their minions; then they may answer the removal
    (Susan, Fresh Start Club, Igor, Wallace Sonky) as they would any other card's."""

    def reaches(self, st: AmState, f: Frame, s: int) -> bool:
        return bool(city.on_board(st, s))

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "lost":
            f.stage = "next"
            return self.lost(st, f)
        while f.seats:
            s, f.seats = f.seats[0], f.seats[1:]
            if self.reaches(st, f, s):
                f.who, f.seat, f.stage, f.wait = s, s, "lose", True
                return []
        pop(st)
        return []

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Piece(area=a, piece=f.seat) for a in city.on_board(st, f.seat)]

    def answer(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Piece)
        f.area, f.piece = a.area, f.seat
        f.seat, f.stage, f.wait = f.actor, "lost", False
        window(st, f, f.piece, "lose")
        return []

    def lost(self, st: AmState, f: Frame) -> list[Event]:
        """The chosen minion leaves, unless an interrupt kept it; a rescue puts it elsewhere."""
        s, n = f.piece, area_name(f.area)
        if f.blocked:
            f.blocked = False
            return [act("spared", s, msg("{player} keeps their minion in {area}.", player=seat_name(s), area=n))]
        city.remove_piece(st, f.area, s)
        ev = [act("remove", s, msg("{player} removes one of their minions from {area}.", player=seat_name(s), area=n),
                  area=f.area, piece=s)]
        if f.rescue:
            f.rescue = False
            push(st, Frame(kind="minion", seat=s, actor=s, via="interrupt", mode="rescue", area2=f.area))
        return ev

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "lose":
            return msg("The Auditors: remove one of your minions.")
        return msg("Every other player will remove one of their minions.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Piece):
            return msg("Remove the one in {area}", area=area_name(a.area))
        return None


@scroll("force_pay")
class ForcePay(Scroll):
    """Hubert: one player gives another $3; the card's player is neither."""

    def possible(self, st: AmState, f: Frame) -> bool:
        return st.num_seats >= 3 and any(st.money[s] for s in others(st, f.actor))

    def start(self, st: AmState, f: Frame) -> list[Action]:
        return [Player(seat=s) for s in sorted(others(st, f.actor)) if st.money[s]]

    def more(self, st: AmState, f: Frame) -> list[Action]:
        return [Player(seat=s) for s in sorted(others(st, f.actor)) if s != f.who]

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        assert isinstance(a, Player)
        if f.stage == "start":
            f.who, f.stage = a.seat, "to"
            return []
        f.area2, f.stage, f.wait = a.seat, "hit", False  # area2 holds the receiving seat
        window(st, f, f.who, "affect")
        return []

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        if f.blocked:
            return [wallace_event(f.who)]
        got = city.transfer(st, f.who, f.area2, 3)
        return [act("pay", f.who, msg("{player} gives ${amount} to {seat}.", player=seat_name(f.who), amount=got, seat=seat_name(f.area2)))]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "to":
            return msg("Whom does {who} give the $3 to?", who=seat_name(f.who))
        return msg("Choose who pays $3.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Player):
            return seat_name(a.seat)
        return None
