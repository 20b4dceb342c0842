"""The 32 tiles of Rey y Hierofante, in the project's own words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Effect = Literal[
    "none", "destroy", "banish", "flip", "move", "copy", "banish_zone", "recover",
    "cancel", "shield", "protect", "cover", "return", "death",
]
Kind = Literal["active", "passive", "none"]
# Where an effect reaches from the tile's square: the 8 neighbours, the 4 orthogonal or
# 4 diagonal ones, a choice of orthogonal-or-diagonal group, a line, the 3 squares in
# front, anywhere on the board, or off the board (zones, discard pile).
Reach = Literal["adj8", "orth", "diag", "group", "line", "front3", "board", "self", "lr", "none"]


@dataclass(frozen=True)
class Tile:
    """One tile: identity, faction and effect."""

    id: str
    es: str
    en: str
    faction: Literal["red", "blue", "neutral", "blank"]
    effect: Effect
    reach: Reach
    kind: Kind
    many: bool  # True: every tile in reach is affected at once (no single target)
    text_es: str
    text_en: str


def _pair(red: str, red_es: str, red_en: str, blue: str, blue_es: str, blue_en: str,
          effect: Effect, reach: Reach, kind: Kind, many: bool, es: str, en: str) -> list[Tile]:
    return [Tile(red, red_es, red_en, "red", effect, reach, kind, many, es, en),
            Tile(blue, blue_es, blue_en, "blue", effect, reach, kind, many, es, en)]


TILES: dict[str, Tile] = {t.id: t for t in [
    *_pair("rey", "Rey", "King", "hierofante", "Hierofante", "Hierophant",
           "destroy", "adj8", "active", False,
           "Destruye una loseta de cualquiera de las 8 casillas vecinas.",
           "Destroys one tile on any of the 8 neighbouring squares."),
    *_pair("reina", "Reina", "Queen", "cardenal", "Cardenal", "Cardinal",
           "flip", "line", "active", True,
           "Elige una de las 8 direcciones: gira todas las losetas en esa línea.",
           "Pick one of the 8 directions: flips every tile along that line."),
    *_pair("princesa", "Princesa", "Princess", "santa", "Santa", "Saint",
           "flip", "group", "active", True,
           "Gira las 4 vecinas ortogonales o bien las 4 diagonales.",
           "Flips all 4 orthogonal neighbours, or else all 4 diagonal ones."),
    *_pair("ministro", "Ministro", "Minister", "obispo", "Obispo", "Bishop",
           "flip", "adj8", "active", False,
           "Gira una loseta de cualquiera de las 8 casillas vecinas.",
           "Flips one tile on any of the 8 neighbouring squares."),
    *_pair("general", "General", "General", "paladin", "Paladín", "Paladin",
           "destroy", "orth", "active", False,
           "Destruye una loseta de una de las 4 casillas ortogonales.",
           "Destroys one tile on one of the 4 orthogonal squares."),
    *_pair("mago", "Mago", "Wizard", "monje", "Monje", "Monk",
           "destroy", "diag", "active", False,
           "Destruye una loseta de una de las 4 casillas diagonales.",
           "Destroys one tile on one of the 4 diagonal squares."),
    *_pair("castillo", "Castillo", "Castle", "templo", "Templo", "Temple",
           "shield", "self", "passive", False,
           "Lleva escudo: ningún efecto puede tocarla.",
           "Carries a shield: no effect can touch it."),
    Tile("samurai", "Samurái", "Samurai", "neutral", "banish", "orth", "active", False,
         "Destierra una loseta de una de las 4 casillas ortogonales.",
         "Banishes one tile from one of the 4 orthogonal squares."),
    Tile("ninja", "Ninja", "Ninja", "neutral", "banish", "diag", "active", False,
         "Destierra una loseta de una de las 4 casillas diagonales.",
         "Banishes one tile from one of the 4 diagonal squares."),
    Tile("adivina", "Adivina", "Fortune Teller", "neutral", "flip", "front3", "active", True,
         "Gira las 3 losetas que tiene delante (hacia el lado del rival).",
         "Flips the 3 tiles in front of it (towards the opponent's side)."),
    Tile("hada", "Hada", "Fairy", "neutral", "move", "board", "active", False,
         "Lleva una loseta del tablero a otra casilla libre.",
         "Moves one tile on the board to another empty square."),
    Tile("bardo", "Bardo", "Bard", "neutral", "copy", "orth", "active", False,
         "Repite el efecto activo de una vecina ortogonal, desde su propia casilla.",
         "Repeats the active effect of an orthogonal neighbour, from its own square."),
    Tile("artista", "Artista", "Artist", "neutral", "copy", "diag", "active", False,
         "Repite el efecto activo de una vecina diagonal, desde su propia casilla.",
         "Repeats the active effect of a diagonal neighbour, from its own square."),
    Tile("asesino", "Asesino", "Assassin", "neutral", "banish_zone", "none", "active", False,
         "Destierra una loseta de la zona de juego del rival.",
         "Banishes one tile from the opponent's play area."),
    Tile("ermitano", "Ermitaño", "Hermit", "neutral", "recover", "none", "active", False,
         "Recupera una loseta de la pila de descartes a tu zona.",
         "Takes one tile from the discard pile into your play area."),
    Tile("chaman", "Chamán", "Shaman", "neutral", "cancel", "orth", "passive", False,
         "Anula el efecto activo de toda loseta que se coloque en una casilla ortogonal suya.",
         "Cancels the active effect of any tile placed on one of its orthogonal squares."),
    Tile("hechicera", "Hechicera", "Sorceress", "neutral", "cancel", "diag", "passive", False,
         "Anula el efecto activo de toda loseta que se coloque en una casilla diagonal suya.",
         "Cancels the active effect of any tile placed on one of its diagonal squares."),
    Tile("pirata", "Pirata", "Pirate", "neutral", "destroy", "adj8", "active", False,
         "Destruye una vecina que tenga escudo (el escudo no la salva).",
         "Destroys a neighbouring tile that has a shield (the shield does not save it)."),
    Tile("dragon", "Dragón", "Dragon", "neutral", "flip", "adj8", "active", True,
         "Gira todas las losetas de las 8 casillas vecinas.",
         "Flips every tile on the 8 neighbouring squares."),
    Tile("sabio", "Sabio", "Sage", "neutral", "protect", "lr", "passive", False,
         "Las losetas a su izquierda y derecha tienen escudo.",
         "The tiles to its left and right have a shield."),
    Tile("torre", "Torre", "Tower", "neutral", "cover", "board", "active", False,
         "Se coloca encima de un aliado tuyo: este pierde su poder y gana escudo.",
         "Is placed on top of one of your allies: it loses its power and gains a shield."),
    Tile("ciudadano", "Ciudadano", "Citizen", "neutral", "none", "none", "none", False,
         "Sin efecto. El jugador inicial la coloca en su primer turno.",
         "No effect. The starting player places it on their first turn."),
    Tile("bruja", "Bruja", "Witch", "neutral", "return", "board", "active", False,
         "Devuelve a tu zona un aliado tuyo del tablero.",
         "Returns one of your allies on the board to your play area."),
    Tile("muerte", "Muerte", "Death", "neutral", "death", "none", "passive", False,
         "Al final de la partida pierde quien la tenga como aliada.",
         "At the end of the game, whoever has it as an ally loses."),
    Tile("blanca", "En blanco", "Blank", "blank", "none", "none", "none", False,
         "Loseta de repuesto sin uso en las reglas.",
         "A spare tile the rules give no use."),
]}

RED: tuple[str, ...] = tuple(t.id for t in TILES.values() if t.faction == "red")
BLUE: tuple[str, ...] = tuple(t.id for t in TILES.values() if t.faction == "blue")
NEUTRALS: tuple[str, ...] = tuple(t.id for t in TILES.values() if t.faction == "neutral")
# Every neutral but the Citizen goes into the shuffled neutral stock.
STOCK: tuple[str, ...] = tuple(t for t in NEUTRALS if t != "ciudadano")
# Tiles printed with a shield (see docs/rules/rey_hierofante.md, "Escudos impresos").
PRINTED_SHIELD: frozenset[str] = frozenset({"castillo", "templo"})
