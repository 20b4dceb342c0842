"""Mundodisco: Ankh-Morpork: secret personalities, 101 player cards, reactions out of turn."""
