"""The 7 secret personalities and what each needs to win, by number of players."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


@dataclass(frozen=True)
class Personality:
    """A personality card."""

    id: str
    name: Text
    goal: str  # "spies" | "control" | "trouble" | "wealth" | "deck"
    text: Text  # what it needs to win


PERSONALITIES: dict[str, Personality] = {p.id: p for p in [
    Personality("vetinari", msg("Lord Vetinari"), "spies",
                msg("You win at the start of your turn with minions in 11/10/9 demon-free areas (2/3/4 players).")),
    Personality("selachii", msg("Lord Selachii"), "control",
                msg("You win at the start of your turn controlling 7/5/4 areas (2/3/4 players).")),
    Personality("rust", msg("Lord Rust"), "control",
                msg("You win at the start of your turn controlling 7/5/4 areas (2/3/4 players).")),
    Personality("de_worde", msg("Lord de Worde"), "control",
                msg("You win at the start of your turn controlling 7/5/4 areas (2/3/4 players).")),
    Personality("dragon_king", msg("Dragon King of Arms"), "trouble",
                msg("You win at the start of your turn if there are 8 trouble markers on the board.")),
    Personality("chrysoprase", msg("Chrysoprase"), "wealth",
                msg("You win at the start of your turn if your cash plus your buildings' cost, less $12 a loan, reaches $50.")),
    Personality("vimes", msg("Commander Vimes"), "deck",
                msg("You win if the deck runs out and nobody has won before.")),
]}
# Chrysoprase is left out of a two-player game (rulebook, "Partidas de dos jugadores").
TWO_PLAYER_REMOVED = "chrysoprase"

SPIES_NEEDED = {2: 11, 3: 10, 4: 9}
AREAS_NEEDED = {2: 7, 3: 5, 4: 4}
TROUBLE_NEEDED = 8
WEALTH_NEEDED = 50
LOAN_WEIGHT = 12
