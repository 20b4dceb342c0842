"""Guerra de Mitos: the collectible card game of warring mythologies (first era, 364 cards)."""
