"""Names and event helpers shared by the engine's modules."""

from __future__ import annotations

from typing import Any

from rules.ankh_morpork.board import AREAS
from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.events import EVENTS
from rules.ankh_morpork.model import DEMON, TROLL
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.core import Event, Text
from rules.core import seat_name as core_seat_name
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


def seat_name(s: int) -> Text:
    """A seat's display name."""
    return core_seat_name(s)


def area_name(a: int) -> Text:
    """An area's display name."""
    return AREAS[a].name


def card_name(c: str) -> Text:
    """A player card's display name."""
    return CARDS[c].name


def cards_names(cs: list[str] | tuple[str, ...]) -> Text:
    """A list of card names ("-" for none)."""
    return msg("{cards}", cards=[CARDS[c].name for c in cs]) if cs else msg("-")


def semicolons(items: list[Text]) -> Text:
    """Texts one after another, "A; B; C" (labels or lines that may hold commas)."""
    out = items[0] if items else msg("-")
    for item in items[1:]:
        out = msg("{items}; {item}", items=out, item=item)
    return out


def commas(items: list[Text]) -> Text:
    """Texts one after another, "A, B, C" (a tally rather than a list with "and")."""
    out = items[0] if items else msg("-")
    for item in items[1:]:
        out = msg("{items}, {item}", items=out, item=item)
    return out


def cards_count(n: int) -> Text:
    """ "1 card", "3 cards"."""
    return msg.n(n, "{n} card", "{n} cards")


def event_name(e: str) -> Text:
    """A random event's display name."""
    return EVENTS[e].name


def personality_name(p: str) -> Text:
    """A personality's display name."""
    return PERSONALITIES[p].name


def piece_name(p: int) -> Text:
    """A piece: a seat's minion, a troll or a demon."""
    if p == TROLL:
        return msg("a troll")
    if p == DEMON:
        return msg("a demon")
    return msg("a minion of {seat}", seat=seat_name(p))


def say(kind: str, text: Text, audience: list[int] | None = None, **data: Any) -> Event:
    """An event; ``audience`` None means everyone."""
    return Event(kind=kind, text=text, audience=audience, data=data)


def act(kind: str, seat: int, text: Text, audience: list[int] | None = None, **data: Any) -> Event:
    """An event done by ``seat`` (its data carries the seat); its text is a whole sentence,
    which names the seat unless only that seat reads it ("Player 2 places...")."""
    return say(kind, text, audience, seat=seat, **data)
