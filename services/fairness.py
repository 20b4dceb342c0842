"""Dice anyone can verify: a game's seed is committed to at its start and revealed at its end.

Every shuffle and draw of a game comes from its seed (rules.core keeps a generator seeded
with it inside the state). At the start the bot draws the seed and a secret salt and shows
``commitment(seed, salt)``, a SHA-256; nothing shown while the game runs holds either. When
the game ends both are revealed: anyone can check that they give the commitment shown at the
start, and replay the record from the seed to the final state (``python -m services.replay``),
so the bot cannot have chosen the shuffles after seeing the moves.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

SALT_BYTES = 16  # 128 secret bits: the seed's 64 bits cannot be searched for from the hash
_PREFIX = "tablero-seed-v1"


def new_salt() -> str:
    """A fresh secret salt, as hex."""
    return secrets.token_hex(SALT_BYTES)


def commitment(seed: int, salt: str) -> str:
    """The public SHA-256 (hex) of ``seed`` with ``salt``: ``tablero-seed-v1:<seed>:<salt>``."""
    return hashlib.sha256(f"{_PREFIX}:{seed}:{salt}".encode()).hexdigest()


@dataclass(frozen=True)
class Fairness:
    """What a game shows of its dice: the commitment, and once over the seed and salt."""

    commitment: str | None
    seed: int | None = None
    salt: str | None = None

    @property
    def revealed(self) -> bool:
        """True once the seed and salt may be shown (the game is over)."""
        return self.seed is not None


def of_game(seed: int | None, salt: str | None, *, over: bool) -> Fairness:
    """What may be shown of a game's dice: nothing for a game without a salt (started before
    commitments, or not yet started), the commitment while it runs, all of it once over."""
    if seed is None or salt is None:
        return Fairness(None)
    shown = commitment(seed, salt)
    return Fairness(shown, seed, salt) if over else Fairness(shown)
