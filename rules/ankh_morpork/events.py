"""The 12 random events, each happening at most once a game, in the project's own words."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


@dataclass(frozen=True)
class RandomEvent:
    """A random event card."""

    id: str
    name: Text
    text: Text  # what happens


EVENTS: dict[str, RandomEvent] = {e.id: e for e in [
    RandomEvent("dragon", msg("The Dragon"),
                msg("One die: the area rolled loses every minion, troll, demon, trouble marker and building.")),
    RandomEvent("flood", msg("Flood"),
                msg("Two dice: river areas rolled flood; each player moves their minions out to neighbouring dry areas.")),
    RandomEvent("fire", msg("Fire"),
                msg("One die: that area's building burns; roll again, the fire spreading while a neighbouring area with a building comes up.")),
    RandomEvent("fog", msg("Fog"),
                msg("The top five cards of the deck are discarded face up.")),
    RandomEvent("riots", msg("Riots"),
                msg("With eight or more trouble markers out, the game ends at once and points are counted.")),
    RandomEvent("subsidence", msg("Subsidence"),
                msg("Every player pays $2 a building; those they cannot pay for are removed.")),
    RandomEvent("explosion", msg("Explosion"),
                msg("One die: the building in the area rolled is removed.")),
    RandomEvent("murders", msg("Mysterious Murders"),
                msg("Each player in turn rolls a die and removes a minion of their choice from that area.")),
    RandomEvent("demons", msg("Demons from the Dungeon Dimensions"),
                msg("Four dice: a demon in each area rolled, with a trouble marker.")),
    RandomEvent("johnson", msg("Bloody Stupid Johnson"),
                msg("One die: that area's card, if someone holds it, leaves the game and its holder removes a minion from there.")),
    RandomEvent("trolls", msg("Trolls"),
                msg("Three dice: a troll in each area rolled.")),
    RandomEvent("earthquake", msg("Earthquake"),
                msg("Two dice: the buildings in the areas rolled are removed.")),
]}
