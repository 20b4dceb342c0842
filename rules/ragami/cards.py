"""The 33 action cards of Ragami: 15 kinds, their printed numbers, copies and icons.

Wording is the project's own (English here, Spanish in the game's catalogue). Numbers,
copies and icons are decisions recorded in docs/rules/ragami.md.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from rules.core import Text
from rules.ragami.text import msg


class Kind(BaseModel):
    """One kind of action card."""

    model_config = ConfigDict(frozen=True)

    id: str
    number: int  # the number printed on the card
    copies: int
    cube: bool  # white-cube icon: may be exchanged for a white cube instead of its action
    triangle: bool  # red triangle: at most one such card per conflict resolution
    name: Text
    text: Text


def _k(
    id: str, number: int, copies: int, cube: bool, triangle: bool, name: Text, text: Text
) -> Kind:
    return Kind(
        id=id, number=number, copies=copies, cube=cube, triangle=triangle, name=name, text=text
    )


KINDS: tuple[Kind, ...] = (
    _k(
        "santos",
        1,
        2,
        False,
        False,
        msg("Two Saints"),
        msg(
            "Move up to two different Saints, 1 to 4 squares each (never onto your Ragami's "
            "square). +1 cube for each Saint that reaches a conflict without coming from one."
        ),
    ),
    _k(
        "demonios",
        2,
        2,
        False,
        False,
        msg("Two Demons"),
        msg(
            "Move up to two Demons, 1 to 4 squares each (not those sharing your Ragami's square). "
            "+1 cube for each Demon that leaves a conflict and does not enter another."
        ),
    ),
    _k(
        "ajuste",
        3,
        2,
        True,
        False,
        msg("Adjust a conflict"),
        msg("Raise or lower one Conflict die by 1 or 2 (it stays between 1 and 6)."),
    ),
    _k(
        "virtud",
        4,
        2,
        True,
        False,
        msg("Move your Virtue"),
        msg("Move your Virtue die to another building and add 1 to it (at most 6)."),
    ),
    _k(
        "extra",
        5,
        2,
        False,
        False,
        msg("Extra action"),
        msg(
            "Pay 1 cube: one more action of an Action die, even one at zero; that die goes down 1 "
            "if it can."
        ),
    ),
    _k(
        "doble",
        6,
        2,
        True,
        True,
        msg("Double power"),
        msg("When resolving: roll the Power die twice and add. Always discarded."),
    ),
    _k(
        "resolver",
        7,
        3,
        False,
        False,
        msg("Resolve"),
        msg("Pay 1 cube: take a resolve-a-conflict action."),
    ),
    _k(
        "poder2",
        8,
        3,
        False,
        True,
        msg("2 Power"),
        msg("When resolving: pay 1 cube and add 2 Power points."),
    ),
    _k(
        "poder4",
        9,
        2,
        False,
        True,
        msg("4 Power"),
        msg("When resolving: pay 2 cubes and add 4 Power points."),
    ),
    _k(
        "poderx",
        10,
        2,
        True,
        True,
        msg("? Power"),
        msg(
            "When resolving: 4 Power points if you alone are last, 2 if tied for last, 1 otherwise."
            " Not used with 2 players."
        ),
    ),
    _k(
        "robar",
        11,
        2,
        True,
        False,
        msg("Draw two"),
        msg("Only if you hold exactly one other card: draw 3 cards and keep 2."),
    ),
    _k(
        "ragami",
        12,
        3,
        True,
        False,
        msg("Flight"),
        msg("Move your Ragami up to 4 spaces (with 2 players, or the neutral Ragami)."),
    ),
    _k(
        "cambio",
        13,
        2,
        True,
        False,
        msg("Swap"),
        msg("Swap your Ragami with another; give 1 cube to whoever controls it."),
    ),
    _k(
        "cubos",
        14,
        2,
        False,
        False,
        msg("Outside help"),
        msg("+1 cube for each Ragami (not yours nor the neutral one) not on a conflict."),
    ),
    _k(
        "ultimo",
        15,
        2,
        False,
        False,
        msg("Consolation"),
        msg(
            "The last player in VP scores 1 VP and you get 2 cubes; with two tied for last both "
            "score 1 VP and you get 3; with three or more, nothing."
        ),
    ),
)
KIND: dict[str, Kind] = {k.id: k for k in KINDS}
# card id -> kind id: ids 0..32 in printed-number order
CARDS: tuple[str, ...] = tuple(k.id for k in KINDS for _ in range(k.copies))
POWER_CARDS = ("doble", "poder2", "poder4", "poderx")  # the red-triangle kinds


def kind_of(card: int) -> Kind:
    """The kind of a card id."""
    return KIND[CARDS[card]]


def card_name(card: int) -> Text:
    """A card's name with its printed number."""
    k = kind_of(card)
    return msg("#{number} {name}", number=k.number, name=k.name)


def deck_for(num_seats: int, power_die: bool) -> list[int]:
    """The card ids in play: without ? Power with two players, without Double power when the
    power die is left out."""
    out = []
    for c, k in enumerate(CARDS):
        if k == "poderx" and num_seats == 2:
            continue
        if k == "doble" and not power_die:
            continue
        out.append(c)
    return out
