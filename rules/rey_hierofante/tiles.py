"""The 32 tiles of Rey y Hierofante, in the project's own words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("rey_hierofante")

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
    name: Text
    faction: Literal["red", "blue", "neutral", "blank"]
    effect: Effect
    reach: Reach
    kind: Kind
    many: bool  # True: every tile in reach is affected at once (no single target)
    text: Text  # what its effect does


def _pair(red: str, red_name: Text, blue: str, blue_name: Text,
          effect: Effect, reach: Reach, kind: Kind, many: bool, text: Text) -> list[Tile]:
    return [Tile(red, red_name, "red", effect, reach, kind, many, text),
            Tile(blue, blue_name, "blue", effect, reach, kind, many, text)]


TILES: dict[str, Tile] = {t.id: t for t in [
    *_pair("rey", msg("King"), "hierofante", msg("Hierophant"),
           "destroy", "adj8", "active", False,
           msg("Destroys one tile on any of the 8 neighbouring squares.")),
    *_pair("reina", msg("Queen"), "cardenal", msg("Cardinal"),
           "flip", "line", "active", True,
           msg("Pick one of the 8 directions: flips every tile along that line.")),
    *_pair("princesa", msg("Princess"), "santa", msg("Saint"),
           "flip", "group", "active", True,
           msg("Flips all 4 orthogonal neighbours, or else all 4 diagonal ones.")),
    *_pair("ministro", msg("Minister"), "obispo", msg("Bishop"),
           "flip", "adj8", "active", False,
           msg("Flips one tile on any of the 8 neighbouring squares.")),
    *_pair("general", msg("General"), "paladin", msg("Paladin"),
           "destroy", "orth", "active", False,
           msg("Destroys one tile on one of the 4 orthogonal squares.")),
    *_pair("mago", msg("Wizard"), "monje", msg("Monk"),
           "destroy", "diag", "active", False,
           msg("Destroys one tile on one of the 4 diagonal squares.")),
    *_pair("castillo", msg("Castle"), "templo", msg("Temple"),
           "shield", "self", "passive", False,
           msg("Carries a shield: no effect can touch it.")),
    Tile("samurai", msg("Samurai"), "neutral", "banish", "orth", "active", False,
         msg("Banishes one tile from one of the 4 orthogonal squares.")),
    Tile("ninja", msg("Ninja"), "neutral", "banish", "diag", "active", False,
         msg("Banishes one tile from one of the 4 diagonal squares.")),
    Tile("adivina", msg("Fortune Teller"), "neutral", "flip", "front3", "active", True,
         msg("Flips the 3 tiles in front of it (towards the opponent's side).")),
    Tile("hada", msg("Fairy"), "neutral", "move", "board", "active", False,
         msg("Moves one tile on the board to another empty square.")),
    Tile("bardo", msg("Bard"), "neutral", "copy", "orth", "active", False,
         msg("Repeats the active effect of an orthogonal neighbour, from its own square.")),
    Tile("artista", msg("Artist"), "neutral", "copy", "diag", "active", False,
         msg("Repeats the active effect of a diagonal neighbour, from its own square.")),
    Tile("asesino", msg("Assassin"), "neutral", "banish_zone", "none", "active", False,
         msg("Banishes one tile from the opponent's play area.")),
    Tile("ermitano", msg("Hermit"), "neutral", "recover", "none", "active", False,
         msg("Takes one tile from the discard pile into your play area.")),
    Tile("chaman", msg("Shaman"), "neutral", "cancel", "orth", "passive", False,
         msg("Cancels the active effect of any tile placed on one of its orthogonal squares.")),
    Tile("hechicera", msg("Sorceress"), "neutral", "cancel", "diag", "passive", False,
         msg("Cancels the active effect of any tile placed on one of its diagonal squares.")),
    Tile("pirata", msg("Pirate"), "neutral", "destroy", "adj8", "active", False,
         msg("Destroys a neighbouring tile that has a shield (the shield does not save it).")),
    Tile("dragon", msg("Dragon"), "neutral", "flip", "adj8", "active", True,
         msg("Flips every tile on the 8 neighbouring squares.")),
    Tile("sabio", msg("Sage"), "neutral", "protect", "lr", "passive", False,
         msg("The tiles to its left and right have a shield.")),
    Tile("torre", msg("Tower"), "neutral", "cover", "board", "active", False,
         msg("Is placed on top of one of your allies: it loses its power and gains a shield.")),
    Tile("ciudadano", msg("Citizen"), "neutral", "none", "none", "none", False,
         msg("No effect. The starting player places it on their first turn.")),
    Tile("bruja", msg("Witch"), "neutral", "return", "board", "active", False,
         msg("Returns one of your allies on the board to your play area.")),
    Tile("muerte", msg("Death"), "neutral", "death", "none", "passive", False,
         msg("At the end of the game, whoever has it as an ally loses.")),
    Tile("blanca", msg("Blank"), "blank", "none", "none", "none", False,
         msg("A spare tile the rules give no use.")),
]}

RED: tuple[str, ...] = tuple(t.id for t in TILES.values() if t.faction == "red")
BLUE: tuple[str, ...] = tuple(t.id for t in TILES.values() if t.faction == "blue")
NEUTRALS: tuple[str, ...] = tuple(t.id for t in TILES.values() if t.faction == "neutral")
# Every neutral but the Citizen goes into the shuffled neutral stock.
STOCK: tuple[str, ...] = tuple(t for t in NEUTRALS if t != "ciudadano")
# Tiles printed with a shield (see docs/rules/rey_hierofante.md, "Escudos impresos").
PRINTED_SHIELD: frozenset[str] = frozenset({"castillo", "templo"})
