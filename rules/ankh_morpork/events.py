"""The 12 random events, each happening at most once a game, in the project's own words."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RandomEvent:
    """A random event card."""

    id: str
    es: str
    en: str
    text_es: str
    text_en: str


EVENTS: dict[str, RandomEvent] = {e.id: e for e in [
    RandomEvent("dragon", "El Dragón", "The Dragon",
                "Un dado: la zona que sale pierde todos sus secuaces, trolls, demonios, problema y edificio.",
                "One die: the area rolled loses every minion, troll, demon, trouble marker and building."),
    RandomEvent("flood", "Inundación", "Flood",
                "Dos dados: las zonas del río que salen se inundan; cada jugador saca de ellas sus secuaces a zonas vecinas no inundadas.",
                "Two dice: river areas rolled flood; each player moves their minions out to neighbouring dry areas."),
    RandomEvent("fire", "Incendio", "Fire",
                "Un dado: arde el edificio de esa zona; se vuelve a tirar y el fuego salta mientras salga una zona vecina con edificio.",
                "One die: that area's building burns; roll again, the fire spreading while a neighbouring area with a building comes up."),
    RandomEvent("fog", "Niebla", "Fog",
                "Se descartan boca arriba las cinco primeras cartas del mazo.",
                "The top five cards of the deck are discarded face up."),
    RandomEvent("riots", "Disturbios", "Riots",
                "Si hay ocho o más problemas, la partida acaba ya y se cuentan puntos.",
                "With eight or more trouble markers out, the game ends at once and points are counted."),
    RandomEvent("subsidence", "Derrumbe", "Subsidence",
                "Cada jugador paga 2 $ por edificio; los que no pueda pagar se retiran.",
                "Every player pays $2 a building; those they cannot pay for are removed."),
    RandomEvent("explosion", "Explosión", "Explosion",
                "Un dado: se retira el edificio de la zona que sale.",
                "One die: the building in the area rolled is removed."),
    RandomEvent("murders", "Asesinatos misteriosos", "Mysterious Murders",
                "Cada jugador, por turno, tira un dado y retira un secuaz a su elección de esa zona.",
                "Each player in turn rolls a die and removes a minion of their choice from that area."),
    RandomEvent("demons", "Demonios de las Dimensiones Mazmorra", "Demons from the Dungeon Dimensions",
                "Cuatro dados: un demonio en cada zona que sale, con su problema.",
                "Four dice: a demon in each area rolled, with a trouble marker."),
    RandomEvent("johnson", "Jodido Estúpido Johnson", "Bloody Stupid Johnson",
                "Un dado: la carta de esa zona, si alguien la tiene, queda fuera de la partida y su dueño retira un secuaz de allí.",
                "One die: that area's card, if someone holds it, leaves the game and its holder removes a minion from there."),
    RandomEvent("trolls", "Trolls", "Trolls",
                "Tres dados: un troll en cada zona que sale.",
                "Three dice: a troll in each area rolled."),
    RandomEvent("earthquake", "Terremoto", "Earthquake",
                "Dos dados: se retiran los edificios de las zonas que salen.",
                "Two dice: the buildings in the areas rolled are removed."),
]}
