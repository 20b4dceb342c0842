"""The decision stack: every pending choice or effect in progress is a frame on it.

The top frame says who decides now. A frame that waits offers legal actions; one that
does not is run by :func:`settle` until something waits again, so an apply is "record
the choice, then run the stack forward".
"""

from __future__ import annotations

from typing import ClassVar

from rules.ankh_morpork.model import AmState, Frame, Interrupt, Skip
from rules.ankh_morpork.scoring import finish
from rules.ankh_morpork.text import card_name
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


class Handler:
    """How one kind of frame offers, takes and runs decisions."""

    kind: ClassVar[str]

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        """The actions offered while ``f`` waits."""
        raise NotImplementedError

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        """Take a legal action of the waiting frame ``f``."""
        raise NotImplementedError

    def run(self, st: AmState, f: Frame) -> list[Event]:
        """Move a frame that is not waiting forward: wait, pop, or push another frame."""
        raise NotImplementedError

    def prompt(self, st: AmState, f: Frame) -> Text:
        """What the deciding seat is asked."""
        return msg("Decide.")

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        """A menu label for one of this frame's actions (None: the engine's default)."""
        return None


HANDLERS: dict[str, Handler] = {}


def register(cls: type[Handler]) -> type[Handler]:
    """Class decorator: make a handler known by its kind."""
    HANDLERS[cls.kind] = cls()
    return cls


def top(st: AmState) -> Frame:
    """The frame deciding now."""
    return st.stack[-1]


def push(st: AmState, f: Frame) -> Frame:
    """Put a frame on the stack."""
    st.stack.append(f)
    return f


def pop(st: AmState) -> Frame:
    """Remove the top frame."""
    return st.stack.pop()


def below(st: AmState, f: Frame) -> Frame | None:
    """The frame under ``f``."""
    i = _index(st, f)
    return st.stack[i - 1] if i > 0 else None


def _index(st: AmState, f: Frame) -> int:
    for i in range(len(st.stack) - 1, -1, -1):
        if st.stack[i] is f:
            return i
    raise ValueError("frame not on the stack")


def settle(st: AmState) -> list[Event]:
    """Run frames that need no decision until one waits or the game ends.

    Drawing the deck's last card ends the game there and then («La partida termina … cuando
    un jugador roba la última carta de la pila de cartas»), whatever was still to be done.
    """
    events: list[Event] = []
    guard = 0
    while not st.finished:
        if st.deck_out:
            return events + finish(st, "deck")
        if not st.stack or st.stack[-1].wait:
            break
        f = st.stack[-1]
        events += HANDLERS[f.kind].run(st, f)
        guard += 1
        if guard > 10_000:  # a handler that makes no progress is a bug, not a long turn
            raise RuntimeError(f"frame {f.kind}/{f.stage} does not progress")
    return events


def card_frame(st: AmState, f: Frame) -> Frame | None:
    """The nearest card being resolved below ``f`` (the card whose symbol ``f`` is)."""
    for g in reversed(st.stack[: _index(st, f)]):
        if g.kind == "card":
            return g
    return None


def options(st: AmState, f: Frame, choices: list[Action], skip: bool = True) -> list[Action]:
    """A symbol's choices, plus "skip" and, in your own turn, Doctor Mossy Lawn."""
    out = list(choices)
    if skip:
        out.append(Skip())
    if (f.seat == st.turn and f.actor == st.turn and f.via in ("symbol", "scroll")
            and "mossy_lawn" in st.hands[f.seat] and card_frame(st, f) is not None):
        out.append(Interrupt(card="mossy_lawn"))
    return out


def mossy_label(st: AmState, f: Frame) -> Text:
    """Menu label of Doctor Mossy Lawn."""
    g = card_frame(st, f)
    c = card_name(g.card) if g else msg("the card")
    return msg("Play Doctor Mossy Lawn: end the turn and take {card} back", card=c)
