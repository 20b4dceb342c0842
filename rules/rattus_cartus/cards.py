"""Every component of Rattus Cartus as data, with card and building texts in the project's own words."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("rattus_cartus")

# ----------------------------------------------------------------------------- classes

CLASSES: tuple[str, ...] = (
    "campesinado", "burguesia", "iglesia", "caballeria", "hechiceria", "realeza",
)
CLASS_NAME: dict[str, Text] = {
    "campesinado": msg("Peasantry"),
    "burguesia": msg("Bourgeoisie"),
    "iglesia": msg("Church"),
    "caballeria": msg("Knighthood"),
    "hechiceria": msg("Sorcery"),
    "realeza": msg("Royalty"),
}
# The figure drawn on a class's population cards (the rulebook's examples speak of a
# "Monje", a "Rey" and a "Bruja").
FIGURE: dict[str, Text] = {
    "campesinado": msg("Peasant"),
    "burguesia": msg("Merchant"),
    "iglesia": msg("Monk"),
    "caballeria": msg("Knight"),
    "hechiceria": msg("Witch"),
    "realeza": msg("King"),
}

# ----------------------------------------------------------------------------- cards

# 14 population cards per class; the nuns they show. Six classes give the rulebook's
# 24 x 4, 12 x 3, 12 x 2, 12 x 1 and 24 x 0.
NUNS_PER_CLASS: tuple[int, ...] = (4, 4, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0)
SPECIALS: tuple[str, ...] = ("espada", "flauta", "salvo", "oro")
PILE_SIZE: dict[str, int] = {"joker": 15, "espada": 12, "flauta": 12, "salvo": 12, "oro": 15}
PILE_PREFIX: dict[str, str] = {"joker": "j", "espada": "e", "flauta": "f", "salvo": "s", "oro": "o"}
# What may be played face down at a building: population cards, jokers, Swords, Flutes.
PLAYABLE_SPECIALS: frozenset[str] = frozenset({"joker", "espada", "flauta"})

KIND_NAME: dict[str, Text] = {
    **FIGURE,
    "joker": msg("Joker"),
    "espada": msg("Sword"),
    "flauta": msg("Flute"),
    "salvo": msg("Safe-conduct"),
    "oro": msg("Gold"),
}
KIND_TEXT: dict[str, Text] = {
    "joker": msg("Counts as a population card of the building's class, without a rat."),
    "espada": msg("Whoever plays the fewest Swords at the building gives half their hand to "
                  "whoever plays the most."),
    "flauta": msg("Whoever plays the fewest Flutes at the building gets a rat from whoever "
                  "plays the most."),
    "salvo": msg("At the start of your turn to enter a building: pass and choose later."),
    "oro": msg("Cannot be played. At the end, Gold majority: 6 and 3 points (with the Treasury)."),
}


def _population() -> dict[str, tuple[str, int]]:
    out: dict[str, tuple[str, int]] = {}
    for c, cls in enumerate(CLASSES):
        for i, nuns in enumerate(NUNS_PER_CLASS):
            out[f"p{c * 14 + i:02d}"] = (cls, nuns)
    return out


POPULATION: dict[str, tuple[str, int]] = _population()
PILES: dict[str, list[str]] = {
    k: [f"{PILE_PREFIX[k]}{i:02d}" for i in range(n)] for k, n in PILE_SIZE.items()
}
# The kind of every card id: a class for population cards, else the pile it belongs to.
KIND: dict[str, str] = {
    **{cid: cls for cid, (cls, _) in POPULATION.items()},
    **{cid: k for k, ids in PILES.items() for cid in ids},
}
NUNS: dict[str, int] = {cid: n for cid, (_, n) in POPULATION.items()}
# Cards that look exactly alike share a type: a class and a nun count, or a pile.
TYPE: dict[str, str] = {
    cid: f"{KIND[cid]}:{NUNS[cid]}" if cid in NUNS else KIND[cid] for cid in KIND
}
TYPE_ORDER: dict[str, int] = {
    t: i for i, t in enumerate(
        [f"{cls}:{n}" for cls in CLASSES for n in (4, 3, 2, 1, 0)]
        + ["joker", "espada", "flauta", "salvo", "oro"])
}


@lru_cache(maxsize=256)
def card_name(cid: str) -> Text:
    """A card's name: the figure, class and nuns for population cards, else the special's name."""
    k = KIND[cid]
    if cid in NUNS:
        return _population_name(k, NUNS[cid])
    return KIND_NAME[k]


def _population_name(cls: str, nuns: int) -> Text:
    return msg.n(nuns, "{figure} ({cls}, {n} nun)", "{figure} ({cls}, {n} nuns)",
                 figure=FIGURE[cls], cls=CLASS_NAME[cls])


def type_name(t: str) -> Text:
    """The name of a card type ("iglesia:4", "joker"...)."""
    k, _, n = t.partition(":")
    if n:
        return _population_name(k, int(n))
    return KIND_NAME[k]


def names(cards: list[str]) -> Text:
    """A list of card names, in hand order."""
    if not cards:
        return msg("nothing")
    ordered = sorted(cards, key=lambda c: (TYPE_ORDER[TYPE[c]], c))
    return msg("{cards}", cards=[card_name(c) for c in ordered])


def kinds_name(kinds: list[str]) -> Text:
    """Revealed cards as their kinds (figure or special), e.g. "Monje, Bruja, Espada"."""
    if not kinds:
        return msg("no cards")
    return msg("{cards}", cards=[KIND_NAME[k] for k in kinds])


# ----------------------------------------------------------------------------- buildings

Effect = Literal["draw", "brew", "take", "rats", "hospital", "tower", "vp", "peek"]


@dataclass(frozen=True)
class Building:
    """A building type: its class and its premium (top) and standard (bottom) actions."""

    id: str
    name: Text
    cls: str
    effect: Effect
    # How many cards drawn or taken, rats, VP, nun cards looked at, cards discarded
    # (Hospital) or taken from each player (Guard Tower); for the Brewery, the influence
    # points that earn one card.
    premium: int
    standard: int
    take: str  # the pile the "take" effect takes from ("" otherwise)
    premium_text: Text  # what the premium action does
    standard_text: Text  # what the standard action does


BUILDINGS: dict[str, Building] = {b.id: b for b in [
    Building("granja", msg("Farm"), "campesinado", "draw", 4, 2, "",
             msg("Draw 4 population cards."),
             msg("Draw 2 population cards.")),
    Building("cerveceria", msg("Brewery"), "campesinado", "brew", 1, 2, "",
             msg("Draw a population card for every influence point you gained this round."),
             msg("Draw a population card for every two influence points you gained this round.")),
    Building("mercado", msg("Marketplace"), "burguesia", "take", 2, 1, "joker",
             msg("Take 2 jokers."),
             msg("Take 1 joker.")),
    Building("oficina", msg("Office"), "burguesia", "take", 2, 1, "salvo",
             msg("Take 2 Safe-conducts."),
             msg("Take 1 Safe-conduct.")),
    Building("monasterio", msg("Monastery"), "iglesia", "rats", 2, 1, "",
             msg("Give back 2 rats."),
             msg("Give back 1 rat.")),
    Building("hospital", msg("Hospital"), "iglesia", "hospital", 3, 2, "",
             msg("Give back 1 rat; also discard up to 3 cards from your hand to give back as many rats."),
             msg("Discard up to 2 cards from your hand to give back as many rats.")),
    Building("castillo", msg("Castle"), "caballeria", "take", 2, 1, "espada",
             msg("Take 2 Swords."),
             msg("Take 1 Sword.")),
    Building("torre_vigia", msg("Guard Tower"), "caballeria", "tower", 3, 0, "",
             msg("Everyone who did not enter a Guard Tower this round and holds at least as many cards as you gives you 3 cards of their choice (all of them if fewer)."),
             msg("Nothing; protects you this round from the premium action of any Guard Tower.")),
    Building("palacio", msg("Palace"), "realeza", "vp", 2, 1, "",
             msg("Take 2 victory point tokens."),
             msg("Take 1 victory point token.")),
    Building("tesoro", msg("Treasury"), "realeza", "take", 2, 1, "oro",
             msg("Take 2 Gold cards."),
             msg("Take 1 Gold card.")),
    Building("tienda", msg("Fortune-teller's Tent"), "hechiceria", "peek", 2, 1, "",
             msg("Look at 2 cards of the nun row."),
             msg("Look at 1 card of the nun row.")),
    Building("cabana", msg("Piper's Hut"), "hechiceria", "take", 2, 1, "flauta",
             msg("Take 2 Flutes."),
             msg("Take 1 Flute.")),
]}
BY_CLASS: dict[str, tuple[str, str]] = {
    cls: tuple(b.id for b in BUILDINGS.values() if b.cls == cls)  # type: ignore[misc]
    for cls in CLASSES
}
FIRST_GAME: tuple[str, ...] = ("granja", "mercado", "monasterio", "castillo", "palacio", "tienda")


# ----------------------------------------------------------------------------- supply actions


@dataclass(frozen=True)
class Supply:
    """The supply action printed on a building card: draw cards, give back rats, look at nuns."""

    draw: int = 0
    rats: int = 0
    peeks: int = 0

    def text(self) -> Text:
        """What the supply action does: its parts joined by "+"."""
        parts: list[Text] = []
        if self.draw:
            parts.append(msg("draw {n}", n=self.draw))
        if self.rats:
            parts.append(msg.n(self.rats, "give back {n} rat", "give back {n} rats"))
        if self.peeks:
            parts.append(msg.n(self.peeks, "look at {n} nun card", "look at {n} nun cards"))
        if not parts:
            return msg("nothing")
        out = parts[0]
        for part in parts[1:]:
            out = msg("{actions} + {action}", actions=out, action=part)
        return out


# The five supply actions every building type carries, one per card (see
# docs/rules/rattus_cartus.md): each is worth about "four cards" (a rat or a look at the
# nun row counting as two), like the rulebook's three examples.
SUPPLY_SET: tuple[Supply, ...] = (
    Supply(draw=4),
    Supply(rats=2),
    Supply(draw=2, peeks=1),
    Supply(draw=2, rats=1),
    Supply(rats=1, peeks=1),
)
BUILDING_CARDS: dict[str, tuple[str, Supply]] = {
    f"{b}-{i + 1}": (b, s) for b in BUILDINGS for i, s in enumerate(SUPPLY_SET)
}


def building_of(card: str) -> Building:
    """The building type of a building card id ("monasterio-2")."""
    return BUILDINGS[BUILDING_CARDS[card][0]]


def supply_of(card: str) -> Supply:
    """The supply action printed on a building card."""
    return BUILDING_CARDS[card][1]


# ----------------------------------------------------------------------------- player counts

ROUNDS: dict[int, int] = {2: 10, 3: 9, 4: 8, 5: 8}
RESERVE: dict[int, int] = {2: 10, 3: 12, 4: 6, 5: 6}
ROW_SIZE: dict[int, int] = {2: 2, 3: 2, 4: 3, 5: 3}
START_RATS: tuple[int, ...] = (5, 3, 1, 1)  # ten in value
NUN_ROW = 5
HAND = 5
