"""Ragami's phrase book: every text the game writes is made with ``msg`` (rules.phrases)."""

from __future__ import annotations

from rules.phrases import Phrases

msg = Phrases("ragami")
