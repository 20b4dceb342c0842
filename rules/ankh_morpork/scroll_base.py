"""Scroll effects: the base class, the registry and small helpers they share."""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.frames import options, pop
from rules.ankh_morpork.model import AmState, Do, Frame, Skip
from rules.ankh_morpork.text import (
    act,
    cards_count,
    cards_names,
    seat_name,
)
from rules.core import Action, Event, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


def others(st: AmState, s: int) -> tuple[int, ...]:
    """The other seats in turn order after ``s``."""
    return tuple((s + i) % st.num_seats for i in range(1, st.num_seats))


def draw_event(st: AmState, s: int, got: list[str]) -> list[Event]:
    """A public "draws N" and a private "draws X, Y"."""
    if not got:
        return [act("draw", s, msg("{player} cannot draw: the deck is empty.", player=seat_name(s)))]
    return [act("draw", s, msg("{player} draws {cards}.", player=seat_name(s), cards=cards_count(len(got))), n=len(got)),
            act("draw_private", s, msg("{player} draws: {cards}.", player=seat_name(s), cards=cards_names(got)),
                audience=[s], cards=got)]


def collect_event(st: AmState, s: int, n: int) -> list[Event]:
    """Collect ``n`` from the bank and say so."""
    got = city.collect(st, s, n)
    return [act("collect", s, msg("{player} collects ${amount}.", player=seat_name(s), amount=got), amount=got)]


def wallace_event(s: int) -> Event:
    """Said when Wallace Sonky stopped a scroll."""
    return act("unaffected", s, msg("{player} is not affected by the card's text.", player=seat_name(s)))


class Scroll:
    """One scroll effect; the default is "do it or skip it" with no further choice."""

    def possible(self, st: AmState, f: Frame) -> bool:
        """Whether doing it can change anything (else the scroll is skipped without asking)."""
        return True

    def run(self, st: AmState, f: Frame) -> list[Event]:
        if f.stage == "":
            if self.possible(st, f):
                f.stage, f.wait = "start", True
            else:
                pop(st)
            return []
        return self.resume(st, f)

    def resume(self, st: AmState, f: Frame) -> list[Event]:
        """Carry on after a reaction window or a nested frame."""
        raise NotImplementedError

    def start(self, st: AmState, f: Frame) -> list[Action]:
        """The first choice: by default, do it."""
        return [Do()]

    def legal(self, st: AmState, f: Frame) -> list[Action]:
        if f.stage == "start":
            return options(st, f, self.start(st, f))
        return self.more(st, f)

    def more(self, st: AmState, f: Frame) -> list[Action]:
        """Choices after the first one."""
        return []

    def act(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        if f.stage == "start" and isinstance(a, Skip):
            pop(st)
            return []
        return self.take(st, f, a)

    def take(self, st: AmState, f: Frame, a: Action) -> list[Event]:
        """Take a choice; the default pops and applies :meth:`effect`."""
        pop(st)
        return self.effect(st, f)

    def effect(self, st: AmState, f: Frame) -> list[Event]:
        """A no-choice effect, applied after the frame is popped."""
        return []

    def prompt(self, st: AmState, f: Frame) -> Text | None:
        """What the deciding seat is asked (None: the card's name and its scroll's text)."""
        return None

    def label(self, st: AmState, f: Frame, a: Action) -> Text | None:
        return None


SCROLL_IMPL: dict[str, Scroll] = {}


def scroll(*ids: str):  # noqa: ANN201 - a class decorator
    """Register a Scroll class under one or more effect ids."""
    def deco(cls: type[Scroll]) -> type[Scroll]:
        for i in ids:
            SCROLL_IMPL[i] = cls()
        return cls
    return deco


def keep_top_card(st: AmState) -> None:
    """The card being resolved went somewhere (a loan, another player): do not discard it."""
    for g in reversed(st.stack):
        if g.kind == "card":
            g.stage = "kept"
            return

