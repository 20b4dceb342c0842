"""Every component of Rattus Cartus as data, with card and building texts in the project's own words."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rules.core import Text, tr

# ----------------------------------------------------------------------------- classes

CLASSES: tuple[str, ...] = (
    "campesinado", "burguesia", "iglesia", "caballeria", "hechiceria", "realeza",
)
CLASS_NAME: dict[str, Text] = {
    "campesinado": tr("Campesinado", "Peasantry"),
    "burguesia": tr("Burguesía", "Bourgeoisie"),
    "iglesia": tr("Iglesia", "Church"),
    "caballeria": tr("Caballería", "Knighthood"),
    "hechiceria": tr("Hechicería", "Sorcery"),
    "realeza": tr("Realeza", "Royalty"),
}
# The figure drawn on a class's population cards (the rulebook's examples speak of a
# "Monje", a "Rey" and a "Bruja").
FIGURE: dict[str, Text] = {
    "campesinado": tr("Campesino", "Peasant"),
    "burguesia": tr("Mercader", "Merchant"),
    "iglesia": tr("Monje", "Monk"),
    "caballeria": tr("Caballero", "Knight"),
    "hechiceria": tr("Bruja", "Witch"),
    "realeza": tr("Rey", "King"),
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
    "joker": tr("Comodín", "Joker"),
    "espada": tr("Espada", "Sword"),
    "flauta": tr("Flauta", "Flute"),
    "salvo": tr("Salvoconducto", "Safe-conduct"),
    "oro": tr("Oro", "Gold"),
}
KIND_TEXT: dict[str, Text] = {
    "joker": tr("Cuenta como una carta de población de la clase del edificio, sin rata.",
                "Counts as a population card of the building's class, without a rat."),
    "espada": tr("Quien juegue menos Espadas en el edificio da la mitad de su mano a quien "
                 "juegue más.",
                 "Whoever plays the fewest Swords at the building gives half their hand to "
                 "whoever plays the most."),
    "flauta": tr("Quien juegue menos Flautas en el edificio recibe una rata de quien juegue más.",
                 "Whoever plays the fewest Flutes at the building gets a rat from whoever "
                 "plays the most."),
    "salvo": tr("Al empezar tu turno de entrar en edificios: pasa y vuelve a elegir después.",
                "At the start of your turn to enter a building: pass and choose later."),
    "oro": tr("No se juega. Al final, mayoría de Oro: 6 y 3 puntos (con Tesoro Público).",
              "Cannot be played. At the end, Gold majority: 6 and 3 points (with the Treasury)."),
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
        f, c, n = FIGURE[k], CLASS_NAME[k], NUNS[cid]
        return tr(f"{f.es} ({c.es}, {n} rel.)", f"{f.en} ({c.en}, {n} nuns)")
    return KIND_NAME[k]


def type_name(t: str) -> Text:
    """The name of a card type ("iglesia:4", "joker"...)."""
    k, _, n = t.partition(":")
    if n:
        f, c = FIGURE[k], CLASS_NAME[k]
        return tr(f"{f.es} ({c.es}, {n} rel.)", f"{f.en} ({c.en}, {n} nuns)")
    return KIND_NAME[k]


def names(cards: list[str]) -> Text:
    """A list of card names, in both languages."""
    if not cards:
        return tr("nada", "nothing")
    ordered = sorted(cards, key=lambda c: (TYPE_ORDER[TYPE[c]], c))
    return tr(", ".join(card_name(c).es for c in ordered), ", ".join(card_name(c).en for c in ordered))


def kinds_name(kinds: list[str]) -> Text:
    """Revealed cards as their kinds (figure or special), e.g. "Monje, Bruja, Espada"."""
    if not kinds:
        return tr("ninguna carta", "no cards")
    return tr(", ".join(KIND_NAME[k].es for k in kinds), ", ".join(KIND_NAME[k].en for k in kinds))


# ----------------------------------------------------------------------------- buildings

Effect = Literal["draw", "brew", "take", "rats", "hospital", "tower", "vp", "peek"]


@dataclass(frozen=True)
class Building:
    """A building type: its class and its premium (top) and standard (bottom) actions."""

    id: str
    es: str
    en: str
    cls: str
    effect: Effect
    # How many cards drawn or taken, rats, VP, nun cards looked at, cards discarded
    # (Hospital) or taken from each player (Guard Tower); for the Brewery, the influence
    # points that earn one card.
    premium: int
    standard: int
    take: str  # the pile the "take" effect takes from ("" otherwise)
    premium_es: str
    premium_en: str
    standard_es: str
    standard_en: str

    def name(self) -> Text:
        """The building's name."""
        return tr(self.es, self.en)


BUILDINGS: dict[str, Building] = {b.id: b for b in [
    Building("granja", "Granja", "Farm", "campesinado", "draw", 4, 2, "",
             "Roba 4 cartas de población.", "Draw 4 population cards.",
             "Roba 2 cartas de población.", "Draw 2 population cards."),
    Building("cerveceria", "Cervecería", "Brewery", "campesinado", "brew", 1, 2, "",
             "Roba una carta de población por cada punto de influencia que ganaste esta ronda.",
             "Draw a population card for every influence point you gained this round.",
             "Roba una carta de población por cada dos puntos de influencia que ganaste esta ronda.",
             "Draw a population card for every two influence points you gained this round."),
    Building("mercado", "Mercado", "Marketplace", "burguesia", "take", 2, 1, "joker",
             "Toma 2 comodines.", "Take 2 jokers.", "Toma 1 comodín.", "Take 1 joker."),
    Building("oficina", "Oficina", "Office", "burguesia", "take", 2, 1, "salvo",
             "Toma 2 Salvoconductos.", "Take 2 Safe-conducts.",
             "Toma 1 Salvoconducto.", "Take 1 Safe-conduct."),
    Building("monasterio", "Monasterio", "Monastery", "iglesia", "rats", 2, 1, "",
             "Devuelve 2 ratas.", "Give back 2 rats.", "Devuelve 1 rata.", "Give back 1 rat."),
    Building("hospital", "Hospital", "Hospital", "iglesia", "hospital", 3, 2, "",
             "Devuelve 1 rata; además, descarta hasta 3 cartas de tu mano y devuelve otras "
             "tantas ratas.",
             "Give back 1 rat; also discard up to 3 cards from your hand to give back as many "
             "rats.",
             "Descarta hasta 2 cartas de tu mano y devuelve otras tantas ratas.",
             "Discard up to 2 cards from your hand to give back as many rats."),
    Building("castillo", "Castillo", "Castle", "caballeria", "take", 2, 1, "espada",
             "Toma 2 Espadas.", "Take 2 Swords.", "Toma 1 Espada.", "Take 1 Sword."),
    Building("torre_vigia", "Torre Vigía", "Guard Tower", "caballeria", "tower", 3, 0, "",
             "Quien no haya entrado en una Torre Vigía esta ronda y tenga al menos tantas cartas "
             "como tú te da 3 cartas de su mano, a su elección (todas si tiene menos).",
             "Everyone who did not enter a Guard Tower this round and holds at least as many "
             "cards as you gives you 3 cards of their choice (all of them if fewer).",
             "Nada; te protege esta ronda de la acción preferente de cualquier Torre Vigía.",
             "Nothing; protects you this round from the premium action of any Guard Tower."),
    Building("palacio", "Palacio", "Palace", "realeza", "vp", 2, 1, "",
             "Toma 2 fichas de punto de victoria.", "Take 2 victory point tokens.",
             "Toma 1 ficha de punto de victoria.", "Take 1 victory point token."),
    Building("tesoro", "Tesoro Público", "Treasury", "realeza", "take", 2, 1, "oro",
             "Toma 2 cartas de Oro.", "Take 2 Gold cards.", "Toma 1 carta de Oro.",
             "Take 1 Gold card."),
    Building("tienda", "Tienda del Adivino", "Fortune-teller's Tent", "hechiceria", "peek", 2, 1,
             "", "Mira 2 cartas de la fila de religiosas.", "Look at 2 cards of the nun row.",
             "Mira 1 carta de la fila de religiosas.", "Look at 1 card of the nun row."),
    Building("cabana", "Cabaña del Flautista", "Piper's Hut", "hechiceria", "take", 2, 1, "flauta",
             "Toma 2 Flautas.", "Take 2 Flutes.", "Toma 1 Flauta.", "Take 1 Flute."),
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
        """What the supply action does, in both languages."""
        es: list[str] = []
        en: list[str] = []
        if self.draw:
            es.append(f"roba {self.draw}")
            en.append(f"draw {self.draw}")
        if self.rats:
            es.append(f"devuelve {self.rats} rata" + ("s" if self.rats > 1 else ""))
            en.append(f"give back {self.rats} rat" + ("s" if self.rats > 1 else ""))
        if self.peeks:
            es.append(f"mira {self.peeks} religiosa" + ("s" if self.peeks > 1 else ""))
            en.append(f"look at {self.peeks} nun card" + ("s" if self.peeks > 1 else ""))
        return tr(" + ".join(es), " + ".join(en))


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
