"""Turns and cards: the turn frame, a card's symbols in order, "play another" and Drumknott."""

from __future__ import annotations

from rules.ankh_morpork import city, scoring
from rules.ankh_morpork.cards import CARDS, INTERRUPTS
from rules.ankh_morpork.frames import Handler, card_frame, pop, push, register
from rules.ankh_morpork.happenings import start_event
from rules.ankh_morpork.model import AmState, Frame, Interrupt, Play, Power, Skip
from rules.ankh_morpork.powers import usable_powers, use_power
from rules.ankh_morpork.text import act, card_name, cards_count, cards_names, seat_name
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


def playable(st: AmState, s: int) -> list[str]:
    """Cards the seat may play as an action: any in hand but the interrupt-only ones."""
    return [c for c in dict.fromkeys(st.hands[s]) if c not in INTERRUPTS]


def play_card(st: AmState, s: int, c: str) -> list[Event]:
    """Take a card from the hand and start resolving its symbols."""
    st.hands[s].remove(c)
    push(st, Frame(kind="card", seat=s, actor=s, card=c))
    return [act("play", s, msg("{player} plays {card}.", player=seat_name(s), card=card_name(c)), card=c)]


def finish_card(st: AmState, f: Frame) -> None:
    """A card is done: to the discard pile, unless it went elsewhere."""
    if f.stage != "kept":
        st.discard.append(f.card)


@register
class TurnHandler(Handler):
    """The turn player's own decisions: play a card (or pass), use area cards, end the turn."""

    kind = "turn"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        events: list[Event] = []
        if f.stage == "":
            events += scoring.start_of_turn(st, f.seat)
            if st.finished:
                return events
            f.stage = "main"
        if f.stage == "main":
            if playable(st, f.seat) or usable_powers(st, f.seat):
                f.wait = True
                return events
            # FAQ: with no card you can play, you pass (and still draw as usual).
            events.append(act("pass", f.seat, msg("{player} cannot play any card and passes.", player=seat_name(f.seat))))
            f.stage = "after"
        if usable_powers(st, f.seat):
            f.wait = True
            return events
        return events + end_turn(st, f)

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        powers: list[Action] = [Power(area=a) for a in usable_powers(st, f.seat)]
        if f.stage == "main":
            plays: list[Action] = [Play(card=c) for c in playable(st, f.seat)]
            return plays + powers + ([] if plays else [Skip()])
        return powers + [Skip()]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        f.wait = False
        if isinstance(a, Play):
            f.stage = "after"
            return play_card(st, f.seat, a.card)
        if isinstance(a, Power):
            return use_power(st, f.seat, a.area)
        if f.stage == "main":
            return [act("pass", f.seat, msg("{player} passes.", player=seat_name(f.seat)))] + end_turn(st, f)
        return end_turn(st, f)

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.stage == "main":
            return msg("Your turn: play a card (or use a city area card).")
        return msg("You may use your city area cards or end the turn.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Skip):
            return msg("Pass") if f.stage == "main" else msg("End the turn")
        return None


def end_turn(st: AmState, f: Frame) -> list[Event]:
    """Refill the hand, end the game if the deck ran out, else pass the turn on."""
    s = f.seat
    events: list[Event] = []
    got = city.refill(st, s)
    if got:
        events.append(act("draw", s, msg("{player} draws {cards}.", player=seat_name(s), cards=cards_count(len(got))), n=len(got)))
        events.append(act("draw_private", s, msg("{player} draws: {cards}.", player=seat_name(s), cards=cards_names(got)),
                          audience=[s], cards=got))
    st.stack.clear()
    if st.deck_out:
        return events + scoring.finish(st, "deck")
    st.turn = (s + 1) % st.num_seats
    st.turn_no += 1
    st.fresh = []
    st.used = []
    push(st, Frame(kind="turn", seat=st.turn, actor=st.turn))
    n = seat_name(st.turn)
    events.append(Event(kind="turn", text=msg("{seat}'s turn.", seat=n), data={"seat": st.turn}))
    return events


@register
class CardHandler(Handler):
    """A card being played: each of its symbols in printed order."""

    kind = "card"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        c = CARDS[f.card]
        if f.sym >= len(c.symbols):
            pop(st)
            finish_card(st, f)
            return []
        sym = c.symbols[f.sym]
        f.sym += 1
        if sym == "event":
            return start_event(st, f.seat)
        if sym == "another":
            # "Play another card" is always a card's last symbol: the card is done first.
            pop(st)
            finish_card(st, f)
            push(st, Frame(kind="another", seat=f.seat, actor=f.seat, card=f.card))
            return []
        if sym == "interrupt":
            return []
        kind = "scroll" if sym == "scroll" else sym
        push(st, Frame(kind=kind, seat=f.seat, actor=f.seat, card=f.card, via="scroll" if sym == "scroll" else "symbol",
                       mode=c.scroll if sym == "scroll" else "", n=c.money))
        return []


@register
class AnotherHandler(Handler):
    """The "play another card" symbol."""

    kind = "another"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if playable(st, f.seat) or usable_powers(st, f.seat):
            f.wait = True
        else:
            pop(st)
        return []

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return ([Play(card=c) for c in playable(st, f.seat)]
                + [Power(area=a) for a in usable_powers(st, f.seat)] + [Skip()])

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        f.wait = False
        if isinstance(a, Play):
            pop(st)
            return play_card(st, f.seat, a.card)
        if isinstance(a, Power):
            return use_power(st, f.seat, a.area)
        pop(st)
        return []

    def prompt(self, st: AmState, f: Frame) -> Text:
        return msg("You may play another card.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Skip):
            return msg("Do not play another card")
        return None


@register
class DoubleHandler(Handler):
    """Drumknott and Ponder Stibbons: two more cards, each resolved on its own."""

    kind = "double"

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if f.n > 0 and playable(st, f.seat):
            f.wait = True
        else:
            pop(st)
        return []

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        return [Play(card=c) for c in playable(st, f.seat)] + [Skip()]

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        f.wait = False
        if isinstance(a, Play):
            f.n -= 1
            return play_card(st, f.seat, a.card)
        pop(st)
        return []

    def prompt(self, st: AmState, f: Frame) -> Text:
        if f.n == 2:
            return msg("{card}: play the first of your two cards.", card=card_name(f.card))
        return msg("{card}: play the second of your two cards.", card=card_name(f.card))

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        if isinstance(a, Skip):
            return msg("Play no more cards")
        return None


def mossy_lawn(st: AmState, f: Frame) -> list[Event]:
    """Doctor Mossy Lawn: the turn ends now; the card being played goes back to the hand."""
    s = f.seat
    city.discard_from_hand(st, s, "mossy_lawn")
    g = card_frame(st, f)
    back = g.card if g is not None else ""
    events = [act("interrupt", s, msg("{player} plays Doctor Mossy Lawn and ends their turn.", player=seat_name(s)), card="mossy_lawn")]
    # Every other card still being resolved this turn is finished as it stands.
    for h in st.stack:
        if h.kind == "card" and h is not g:
            finish_card(st, h)
    if g is not None and g.stage != "kept":
        st.hands[s].append(back)
        events.append(act("take_back", s, msg("{player} takes {card} back into their hand.", player=seat_name(s), card=card_name(back)), card=back))
    turn = st.stack[0]
    st.stack[:] = [turn]
    return events + end_turn(st, turn)


def is_mossy(a: Action) -> bool:
    """Whether the action plays Doctor Mossy Lawn."""
    return isinstance(a, Interrupt) and a.card == "mossy_lawn"

