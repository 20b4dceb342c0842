"""Guerra de Mitos: the collectible card game of warring mythologies."""
