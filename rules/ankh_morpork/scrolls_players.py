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
from rules.core import Action, Event, Text, tr

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
            return tr(f"Elegir a {seat_name(a.seat).es}", f"Choose {seat_name(a.seat).en}")
        if isinstance(a, Card):
            return tr(card_name(a.card).es, card_name(a.card).en)
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
        return [act("give", f.who, f"da una carta a {seat_name(f.actor).es}.", f"gives a card to {seat_name(f.actor).en}."),
                act("give_private", f.who, f"da {card_name(a.card).es} a {seat_name(f.actor).es}.",
                    f"gives {card_name(a.card).en} to {seat_name(f.actor).en}.", audience=[f.who, f.actor], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "give":
            return tr(f"Da una carta a {seat_name(f.actor).es} ({f.n} por dar).",
                      f"Give a card to {seat_name(f.actor).en} ({f.n} to give).")
        return tr("Elige a quién pides dos cartas.", "Choose who must give you two cards.")


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
        return [act("give", f.actor, f"da una carta a {seat_name(f.who).es} y cobra {paid} $.",
                    f"gives a card to {seat_name(f.who).en} and is paid ${paid}."),
                act("give_private", f.actor, f"da {card_name(a.card).es} a {seat_name(f.who).es}.",
                    f"gives {card_name(a.card).en} to {seat_name(f.who).en}.", audience=[f.who, f.actor], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "give":
            return tr("Elige qué carta das.", "Choose the card to give.")
        return tr("Elige a quién das una carta a cambio de 2 $.", "Choose who gets a card from you for $2.")


@scroll("steal_three")
class StealThree(VictimScroll):
    def eligible(self, st: AmState, f: Frame, s: int) -> bool:
        return st.money[s] > 0

    def hit(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        got = city.transfer(st, f.who, f.actor, 3)
        return [act("steal", f.actor, f"quita {got} $ a {seat_name(f.who).es}.", f"takes ${got} from {seat_name(f.who).en}.")]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return tr("Elige a quién quitas 3 $.", "Choose whom to take $3 from.")


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
            return [act("ransom", f.who, f"paga 5 $ a {seat_name(f.actor).es}.", f"pays $5 to {seat_name(f.actor).en}.")]
        st.stuck[f.who].append(f.card)
        keep_top_card(st)
        c = card_name(f.card)
        return [act("stuck", f.who, f"se queda {c.es} delante: ocupa un hueco de su mano.",
                    f"gets {c.en} in front of them: it takes a place in their hand.", card=f.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "ransom":
            c = card_name(f.card)
            return tr(f"Paga 5 $ a {seat_name(f.actor).es} o quédate {c.es} para siempre.",
                      f"Pay $5 to {seat_name(f.actor).en} or keep {c.en} for good.")
        return tr("Elige a otro jugador.", "Choose another player.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return tr("Pagar 5 $", "Pay $5")
        if isinstance(a, Skip) and f.stage == "ransom":
            return tr(f"No pagar: quedarme {card_name(f.card).es}", f"Do not pay: keep {card_name(f.card).en}")
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
                return [act("ransom", f.who, f"paga 5 $ a {seat_name(f.actor).es}.", f"pays $5 to {seat_name(f.actor).en}.")]
            f.seat, f.stage = f.actor, "burn"
            return [act("refuse", f.who, "no paga.", "does not pay.")]
        pop(st)
        if isinstance(a, Area):
            city.remove_building(st, a.area)
            n = area_name(a.area)
            return [act("burn", f.actor, f"quema el edificio de {seat_name(f.who).es} en {n.es}.",
                        f"burns {seat_name(f.who).en}'s building in {n.en}.", area=a.area)]
        return []

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "ransom":
            return tr(f"Paga 5 $ a {seat_name(f.actor).es} o puede quemarte un edificio.",
                      f"Pay $5 to {seat_name(f.actor).en} or they may burn one of your buildings.")
        if f.stage == "burn":
            return tr("Elige qué edificio quemas.", "Choose which building to burn.")
        return tr("Elige a un jugador con edificios.", "Choose a player with buildings.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return tr("Pagar 5 $", "Pay $5")
        if isinstance(a, Skip):
            return tr("No pagar", "Do not pay") if f.stage == "ransom" else tr("No quemar nada", "Burn nothing")
        if isinstance(a, Area):
            return tr(f"Quemar el de {area_name(a.area).es}", f"Burn the one in {area_name(a.area).en}")
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
        return [act("take", f.actor, f"se queda una carta de {seat_name(f.who).es}.", f"keeps a card of {seat_name(f.who).en}'s."),
                act("take_private", f.actor, f"se queda {card_name(a.card).es}.", f"keeps {card_name(a.card).en}.",
                    audience=[f.actor, f.who], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "keep":
            return tr("Elige cuál te quedas; la otra vuelve a su mano.", "Choose which to keep; the other goes back.")
        return tr("Elige a quién tomas dos cartas al azar.", "Choose whose two random cards you take.")


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
        return [act("discard", f.who, f"descarta {c.es} por orden de {seat_name(f.actor).es}.",
                    f"discards {c.en}, as {seat_name(f.actor).en} chose.", card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "pick":
            return tr(f"Mano de {seat_name(f.who).es}: elige la carta que descarta.",
                      f"{seat_name(f.who).en}'s hand: choose the card they discard.")
        return tr("Elige de quién miras la mano.", "Choose whose hand to look at.")


@scroll("swap_hands")
class SwapHands(VictimScroll):
    def hit(self, st: AmState, f: Frame) -> list[Event]:
        pop(st)
        a, b = f.actor, f.who
        st.hands[a], st.hands[b] = st.hands[b], st.hands[a]
        return [act("swap_hands", a, f"cambia su mano con la de {seat_name(b).es}.", f"swaps hands with {seat_name(b).en}."),
                act("hand_private", a, f"recibes: {cards_names(st.hands[a]).es}.", f"you get: {cards_names(st.hands[a]).en}.",
                    audience=[a], cards=list(st.hands[a])),
                act("hand_private", b, f"recibes: {cards_names(st.hands[b]).es}.", f"you get: {cards_names(st.hands[b]).en}.",
                    audience=[b], cards=list(st.hands[b]))]

    def prompt(self, st: AmState, f: Frame) -> Text:
        return tr("Elige con quién cambias la mano.", "Choose whom to swap hands with.")


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
        return [act("steal", f.actor, f"quita {got} $ a {seat_name(f.who).es}.", f"takes ${got} from {seat_name(f.who).en}.")]


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
            return [act("give", s, f"da 1 $ a {seat_name(f.actor).es}.", f"gives $1 to {seat_name(f.actor).en}.")]
        assert isinstance(a, Card)
        st.hands[s].remove(a.card)
        st.hands[f.actor].append(a.card)
        return [act("give", s, f"da una carta a {seat_name(f.actor).es}.", f"gives a card to {seat_name(f.actor).en}."),
                act("give_private", s, f"da {card_name(a.card).es}.", f"gives {card_name(a.card).en}.",
                    audience=[s, f.actor], card=a.card)]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "give":
            return tr(f"Da 1 $ o una carta a {seat_name(f.actor).es}.", f"Give $1 or a card to {seat_name(f.actor).en}.")
        return tr("Cada uno de los demás te dará 1 $ o una carta.", "Every other player gives you $1 or a card.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Pay):
            return tr("Dar 1 $", "Give $1")
        if isinstance(a, Card):
            return tr(f"Dar {card_name(a.card).es}", f"Give {card_name(a.card).en}")
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
            return [act("spared", s, f"conserva su secuaz en {n.es}.", f"keeps their minion in {n.en}.")]
        city.remove_piece(st, f.area, s)
        ev = [act("remove", s, f"retira un secuaz suyo de {n.es}.", f"removes one of their minions from {n.en}.",
                  area=f.area, piece=s)]
        if f.rescue:
            f.rescue = False
            push(st, Frame(kind="minion", seat=s, actor=s, via="interrupt", mode="rescue", area2=f.area))
        return ev

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "lose":
            return tr("Los Auditores: retira uno de tus secuaces.", "The Auditors: remove one of your minions.")
        return tr("Cada uno de los demás retirará un secuaz suyo.", "Every other player will remove one of their minions.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Piece):
            return tr(f"Retirar el de {area_name(a.area).es}", f"Remove the one in {area_name(a.area).en}")
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
        return [act("pay", f.who, f"da {got} $ a {seat_name(f.area2).es}.", f"gives ${got} to {seat_name(f.area2).en}.")]

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "to":
            return tr(f"¿A quién da {seat_name(f.who).es} los 3 $?", f"Whom does {seat_name(f.who).en} give the $3 to?")
        return tr("Elige quién paga 3 $.", "Choose who pays $3.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Player):
            return tr(seat_name(a.seat).es, seat_name(a.seat).en)
        return None
