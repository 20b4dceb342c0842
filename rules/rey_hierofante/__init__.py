"""Rey y Hierofante: 3x3 tile duel for two."""
