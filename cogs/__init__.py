"""Discord side of Tablero."""
