"""The facts of each card as the rules need them, read through one adapter.

The card list itself (``cards.py`` and ``data/cards.json``) is the catalogue's business;
this module turns a catalogue record into the few normalised fields the rules use
(type, mythology, cost, strength, maximum power, keys) and adds the token characters
and weapons that some abilities create. A different provider may be installed (the
tests do so until the catalogue is present).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

CHAR, RESOURCE, EVENT, EQUIP, INVOC, ACTION, PANTHEON = (
    "character",
    "resource",
    "event",
    "equipment",
    "invocation",
    "action",
    "pantheon",
)
GOD_DECK_TYPES = (CHAR, RESOURCE, EVENT)
DESIGN_DECK_TYPES = (ACTION, INVOC, EQUIP)

_TYPES = {
    "personaje": CHAR,
    "character": CHAR,
    "recurso": RESOURCE,
    "resource": RESOURCE,
    "evento": EVENT,
    "event": EVENT,
    "equipo": EQUIP,
    "equipment": EQUIP,
    "invocacion": INVOC,
    "invocation": INVOC,
    "accion": ACTION,
    "action": ACTION,
    "panteon": PANTHEON,
    "pantheon": PANTHEON,
}

# Keys that differ only by gender, accent or spelling, folded to one word.
_KEY_FOLD = {
    "diosa": "dios",
    "invocadora": "invocador",
    "unica": "unico",
    "guerrera": "guerrero",
    "japonesa": "japones",
    "nordica": "nordico",
    "griega": "griego",
    "egipcia": "egipcio",
    "egipto": "egipcio",
    "azteca": "azteca",
    "heroe": "heroe",
    "heroina": "heroe",
    "punto de poder": "punto de poder",
    "primigenia": "primigenio",
    "reina": "reina",
}

MYTHS = ("japonesa", "nordica", "griega", "azteca", "egipcia", "primigenia")
# The key that ties a card to a mythology (deck building forbids another mythology's key).
MYTH_KEYS = {
    "japones": "japonesa",
    "nordico": "nordica",
    "griego": "griega",
    "azteca": "azteca",
    "egipcio": "egipcia",
    "mitos de cthulhu": "primigenia",
}


def fold(word: str) -> str:
    """Lower case without accents or surrounding spaces."""
    w = unicodedata.normalize("NFKD", word.strip().lower())
    return "".join(c for c in w if not unicodedata.combining(c))


def norm_key(word: str) -> str:
    """One spelling per key ("Diosa" and "Dios" are one key)."""
    w = fold(word)
    return _KEY_FOLD.get(w, w)


def norm_myth(value: str | None) -> str | None:
    """The mythology as one of MYTHS, "neutral", or None for unaffiliated cards."""
    if not value:
        return None
    w = fold(value)
    if w.startswith("neutral"):
        return "neutral"
    for m in MYTHS:
        if w.startswith(m[:5]):
            return m
    return w


@dataclass(frozen=True)
class Facts:
    """What the rules read from a card."""

    id: str
    name: str
    type: str
    myth: str | None = None
    cost: int = 0
    strength: int = 0
    power: int = 0  # a pantheon's starting power, a character's PM, a PM modifier on gear
    keys: frozenset[str] = field(default_factory=frozenset)

    def has(self, key: str) -> bool:
        """Whether the card carries ``key`` (normalised)."""
        return norm_key(key) in self.keys


def from_record(rec: Any) -> Facts:
    """Facts from a catalogue record (an object or a mapping with the catalogue's fields)."""
    get = rec.get if isinstance(rec, dict) else (lambda k, d=None: getattr(rec, k, d))
    keys = get("keys") or []
    if isinstance(keys, str):
        keys = [k for k in keys.replace("·", ",").split(",") if k.strip()]
    typ = fold(str(get("type") or ""))
    if typ not in _TYPES:
        raise ValueError(f"card {get('id')}: unknown type {get('type')!r}")
    return Facts(
        id=str(get("id")),
        name=str(get("name")).strip(),
        type=_TYPES[typ],
        myth=norm_myth(get("mythology")),
        cost=int(get("cost") or 0),
        strength=int(get("strength") or 0),
        power=int(get("power") or 0),
        keys=frozenset(norm_key(k) for k in keys),
    )


def _catalogue() -> dict[str, Facts]:
    from rules.guerra_de_mitos.cards import cards  # type: ignore[import-not-found]

    return {cid: from_record(c) for cid, c in cards().items()}


_provider: Callable[[], dict[str, Facts]] = _catalogue
_cache: dict[str, Facts] | None = None


def install(provider: Callable[[], dict[str, Facts]]) -> None:
    """Use another source of card facts (tests use this before the catalogue exists)."""
    global _provider, _cache
    _provider, _cache = provider, None


def catalogue_present() -> bool:
    """Whether the project's own card catalogue can be imported."""
    try:
        import rules.guerra_de_mitos.cards  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def all_facts() -> dict[str, Facts]:
    """Every card's facts by id (tokens included)."""
    global _cache
    if _cache is None:
        base = dict(_provider())
        base.update(TOKENS)
        _cache = base
    return _cache


def facts(card_id: str) -> Facts:
    """The facts of one card (or token)."""
    return all_facts()[card_id]


# Characters and gear that abilities create; they are no card of any deck.
TOKENS: dict[str, Facts] = {
    "tk-kitsune": Facts(
        "tk-kitsune", "Espíritu Kitsune", CHAR, "japonesa", 0, 1, 2, frozenset({"espiritu"})
    ),
    "tk-espiritu": Facts(
        "tk-espiritu", "Espíritu", CHAR, "griega", 0, 1, 2, frozenset({"espiritu"})
    ),
    "tk-sectario": Facts(
        "tk-sectario", "Sectario", CHAR, "primigenia", 0, 0, 1, frozenset({"loco", "sectario"})
    ),
    "tk-criatura": Facts(
        "tk-criatura", "Criatura", CHAR, "egipcia", 0, 1, 0, frozenset({"criatura"})
    ),
    "tk-arma": Facts("tk-arma", "Arma forjada", EQUIP, None, 0, 1, 1, frozenset({"arma"})),
    "tk-arma1": Facts("tk-arma1", "Arma de la herrería", EQUIP, None, 0, 1, 0, frozenset({"arma"})),
}
