"""The lines of the table's log: the names they give cards and seats, and writing one down."""

from __future__ import annotations

from functools import lru_cache

from rules.core import Text, seat_name
from rules.guerra_de_mitos.cards import Token, card_name, cards, token_name, verbatim
from rules.guerra_de_mitos.facts import facts
from rules.guerra_de_mitos.model import GdmState, LogLine


def name_of(card: str) -> Text:
    """A card's (or a created character's or weapon's) name."""
    if card in cards():
        return card_name(card)
    name = facts(card).name
    token = _tokens().get(name)
    return token_name(token) if token is not None else verbatim(name)


@lru_cache(maxsize=1)
def _tokens() -> dict[str, Token]:
    """The characters and weapons abilities create, by their Spanish name (the rules' facts
    name them so)."""
    return {t.name: t for c in cards().values() for t in c.tokens}


def tag(seat: int) -> Text:
    """A seat as the lines name it: the rules' "Player 2" (``seat_name``), which the table
    reads as the player's name, given as a value (never found by a pattern in the words)."""
    return seat_name(seat)


def say(st: GdmState, seats: list[int] | None, text: Text) -> None:
    """Log a line (public when ``seats`` is None); events are built from the log by the engine."""
    st.log.append(LogLine(aud=None if seats is None else list(seats), text=text))
