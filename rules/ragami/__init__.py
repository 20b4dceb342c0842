"""Ragami (Gil d'Orey, MESAboardgames): angels resolving the conflicts of a city."""
