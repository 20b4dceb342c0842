"""Rattus Cartus (1347): six social classes, twelve buildings and the plague, for 2 to 5."""
