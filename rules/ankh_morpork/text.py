"""Names and event helpers shared by the engine's modules."""

from __future__ import annotations

from typing import Any

from rules.ankh_morpork.board import AREAS
from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.events import EVENTS
from rules.ankh_morpork.model import DEMON, TROLL
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.core import Event, Text, count, tr


def seat_name(s: int) -> Text:
    """A seat's display name."""
    return tr(f"Jugador {s + 1}", f"Player {s + 1}")


def area_name(a: int) -> Text:
    """An area's display name."""
    return tr(AREAS[a].es, AREAS[a].en)


def card_name(c: str) -> Text:
    """A player card's display name."""
    return tr(CARDS[c].es, CARDS[c].en)


def cards_names(cs: list[str] | tuple[str, ...]) -> Text:
    """A list of card names."""
    return tr(", ".join(CARDS[c].es for c in cs) or "-", ", ".join(CARDS[c].en for c in cs) or "-")


def cards_count(n: int) -> Text:
    """ "1 carta", "3 cartas"."""
    return count(n, "carta", "cartas", "card", "cards")


def event_name(e: str) -> Text:
    """A random event's display name."""
    return tr(EVENTS[e].es, EVENTS[e].en)


def personality_name(p: str) -> Text:
    """A personality's display name."""
    return tr(PERSONALITIES[p].es, PERSONALITIES[p].en)


def piece_name(p: int) -> Text:
    """A piece: a seat's minion, a troll or a demon."""
    if p == TROLL:
        return tr("un troll", "a troll")
    if p == DEMON:
        return tr("un demonio", "a demon")
    return tr(f"un secuaz de {seat_name(p).es}", f"a minion of {seat_name(p).en}")


def say(kind: str, es: str, en: str, audience: list[int] | None = None, **data: Any) -> Event:
    """An event; ``audience`` None means everyone."""
    return Event(kind=kind, text=tr(es, en), audience=audience, data=data)


def act(kind: str, seat: int, es: str, en: str, audience: list[int] | None = None, **data: Any) -> Event:
    """An event that starts with the seat's name: "Jugador 2 coloca...". """
    n = seat_name(seat)
    return say(kind, f"{n.es} {es}", f"{n.en} {en}", audience, seat=seat, **data)
