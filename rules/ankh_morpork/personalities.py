"""The 7 secret personalities and what each needs to win, by number of players."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Personality:
    """A personality card."""

    id: str
    es: str
    en: str
    goal: str  # "spies" | "control" | "trouble" | "wealth" | "deck"
    text_es: str
    text_en: str


PERSONALITIES: dict[str, Personality] = {p.id: p for p in [
    Personality("vetinari", "Lord Vetinari", "Lord Vetinari", "spies",
                "Ganas al empezar tu turno si tienes secuaces en 11/10/9 zonas sin demonios (2/3/4 jugadores).",
                "You win at the start of your turn with minions in 11/10/9 demon-free areas (2/3/4 players)."),
    Personality("selachii", "Lord Selachii", "Lord Selachii", "control",
                "Ganas al empezar tu turno si controlas 7/5/4 zonas (2/3/4 jugadores).",
                "You win at the start of your turn controlling 7/5/4 areas (2/3/4 players)."),
    Personality("rust", "Lord Rust", "Lord Rust", "control",
                "Ganas al empezar tu turno si controlas 7/5/4 zonas (2/3/4 jugadores).",
                "You win at the start of your turn controlling 7/5/4 areas (2/3/4 players)."),
    Personality("de_worde", "Lord de Worde", "Lord de Worde", "control",
                "Ganas al empezar tu turno si controlas 7/5/4 zonas (2/3/4 jugadores).",
                "You win at the start of your turn controlling 7/5/4 areas (2/3/4 players)."),
    Personality("dragon_king", "Dragón Rey de Armas", "Dragon King of Arms", "trouble",
                "Ganas al empezar tu turno si hay 8 problemas en el tablero.",
                "You win at the start of your turn if there are 8 trouble markers on the board."),
    Personality("chrysoprase", "Chrysoprase", "Chrysoprase", "wealth",
                "Ganas al empezar tu turno si tu dinero más el coste de tus edificios, menos 12 $ por préstamo, llega a 50 $.",
                "You win at the start of your turn if your cash plus your buildings' cost, less $12 a loan, reaches $50."),
    Personality("vimes", "Comandante Vimes", "Commander Vimes", "deck",
                "Ganas si se acaba el mazo y nadie ha ganado antes.",
                "You win if the deck runs out and nobody has won before."),
]}
# Chrysoprase is left out of a two-player game (rulebook, "Partidas de dos jugadores").
TWO_PLAYER_REMOVED = "chrysoprase"

SPIES_NEEDED = {2: 11, 3: 10, 4: 9}
AREAS_NEEDED = {2: 7, 3: 5, 4: 4}
TROUBLE_NEEDED = 8
WEALTH_NEEDED = 50
LOAN_WEIGHT = 12
