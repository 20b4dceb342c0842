"""Finding Guerra de Mitos cards by name, type, mythology or words, in any language, and the
one-line descriptions the deck builder shows."""

from __future__ import annotations

import difflib
from functools import lru_cache

from rules.catalogue import Catalogues, catalogues, language
from rules.guerra_de_mitos.cards import (
    MYTHOLOGY_NAME,
    TYPE_NAME,
    Card,
    card_name,
    card_text,
    cards,
    compact,
    fold,
    key_id,
    spellings,
)
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")


# Every card's name, compacted, in the catalogues' languages: its id.
_BY_NAME: dict[str, str] = {}
for _c in cards().values():
    _BY_NAME[compact(_c.name)] = _c.id
    _BY_NAME[compact(_c.name_en)] = _c.id
# A card's name in the other catalogues' languages finds it too, where it names no other card.
for _c in cards().values():
    for _n in spellings(card_name(_c.id)):
        _BY_NAME.setdefault(compact(_n), _c.id)


def by_name(name: str) -> Card | None:
    """The card with this name in either language (case, accents, spaces and hyphens ignored)."""
    cid = _BY_NAME.get(compact(name))
    return cards()[cid] if cid else None


def suggest(name: str, limit: int = 3) -> list[Card]:
    """Cards whose names are closest to a mistyped one (for error messages)."""
    hits = difflib.get_close_matches(compact(name), list(_BY_NAME), n=limit * 2, cutoff=0.6)
    out: list[Card] = []
    for h in hits:
        c = cards()[_BY_NAME[h]]
        if c not in out:
            out.append(c)
    return out[:limit]


@lru_cache(maxsize=8)
def _search_index(lang: str, _cats: Catalogues) -> list[tuple[str, list[str], Card]]:
    # (the catalogues in use are part of the key: a test may read others)
    rows = []
    for c in cards().values():
        name = card_name(c.id)
        shown = name.get(lang)
        others = sorted(fold(n) for n in spellings(name) if n != shown)
        rows.append((fold(shown), others, c))
    return rows


def search_names(text: str, locale: str | None = None, limit: int = 25) -> list[Card]:
    """Cards whose name in any language contains ``text``; names that start with it first.

    Meant for autocomplete: the reader's language is matched first, then the others.
    """
    q = fold(text)
    ranked: list[tuple[int, str, Card]] = []
    for shown, others, c in _search_index(language(locale), catalogues()):
        if not q:
            rank = 0
        elif shown.startswith(q) or any(w.startswith(q) for w in shown.split()):
            rank = 0 if shown.startswith(q) else 1
        elif q in shown:
            rank = 2
        elif any(q in other for other in others):
            rank = 3
        else:
            continue
        ranked.append((rank, shown, c))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [c for _, _, c in ranked[:limit]]


def type_id(word: str) -> str | None:
    """The card type a Spanish or English word names ("Acción", "equipment"), or None."""
    w = compact(word)
    for tid, name in TYPE_NAME.items():
        if w in {compact(tid)} | {compact(s) for s in spellings(name)}:
            return tid
    return None


def mythology_id(word: str) -> str | None:
    """The mythology a Spanish or English word names ("Norse", "nordica"), or None."""
    w = compact(word)
    for mid, name in MYTHOLOGY_NAME.items():
        if w in {compact(mid)} | {compact(s) for s in spellings(name)}:
            return mid
    if w in ("nordico", "griego", "egipcio", "japones", "primigenio", "cthulhu"):
        return {
            "nordico": "Nórdica",
            "griego": "Griega",
            "egipcio": "Egipcia",
            "japones": "Japonesa",
            "primigenio": "Primigenia",
            "cthulhu": "Primigenia",
        }[w]
    return None


def search(
    *,
    name: str | None = None,
    mythology: str | None = None,
    type: str | None = None,
    key: str | None = None,
    cost: int | tuple[int, int] | None = None,
    strength: int | tuple[int, int] | None = None,
    text: str | None = None,
) -> list[Card]:
    """Cards matching every filter given, in id order (the pool search of deck building).

    ``name`` and ``text`` match part of the name or text in any language; ``mythology``,
    ``type`` and ``key`` take a word of any language ("none" or "ninguna" for unaffiliated
    cards); ``cost`` and ``strength`` take a number or an inclusive (low, high) range. An
    unknown mythology, type or key matches nothing.
    """

    def in_range(value: int | None, want: int | tuple[int, int]) -> bool:
        if value is None:
            return False
        lo, hi = (want, want) if isinstance(want, int) else want
        return lo <= value <= hi

    myth: str | None = None
    if mythology is not None and fold(mythology) not in ("none", "ninguna", "sin mitologia"):
        myth = mythology_id(mythology)
        if myth is None:
            return []
    tid = type_id(type) if type is not None else None
    kid = key_id(key) if key is not None else None
    if (type is not None and tid is None) or (key is not None and kid is None):
        return []
    q_name = fold(name) if name else ""
    q_text = fold(text) if text else ""
    out: list[Card] = []
    for c in cards().values():
        if q_name and not any(q_name in fold(n) for n in spellings(card_name(c.id))):
            continue
        if mythology is not None and c.mythology != myth:
            continue
        if tid is not None and c.type != tid:
            continue
        if kid is not None and kid not in c.keys:
            continue
        if cost is not None and not in_range(c.cost, cost):
            continue
        if strength is not None and not in_range(c.strength, strength):
            continue
        if q_text and not any(q_text in fold(t) for t in spellings(card_text(c.id))):
            continue
        out.append(c)
    return out


def stats_line(c: Card, locale: str | None) -> str:
    """The card's type, mythology and numbers in one line ("Personaje · Nórdica · Coste 7 · 4F · 9PM")."""
    parts = [TYPE_NAME[c.type].get(locale)]
    if c.mythology:
        parts.append(MYTHOLOGY_NAME[c.mythology].get(locale))
    if c.cost is not None:
        parts.append(msg("Cost {cost}", cost=c.cost).get(locale))
    if c.type == "pantheon":
        parts.append(msg("Starting power {power}P", power=c.power or 0).get(locale))
    elif c.type == "character":
        parts.append(f"{c.strength}F")
        parts.append(f"{c.power}PM")
    elif c.type in ("equipment", "invocation"):
        if c.strength is not None:
            parts.append(f"{c.strength:+d}F")
        parts.append(f"{c.power:+d}PM")
    return " · ".join(parts)


def describe(c: Card, locale: str | None) -> str:
    """What a card is and does, in the reader's language (name, stats, keys, ability)."""
    lines = [f"{c.display_name(locale)} — {stats_line(c, locale)}"]
    if c.keys:
        lines.append(msg("Keys: {keys}", keys=", ".join(c.key_names(locale))).get(locale))
    lines.append(c.text(locale) or msg("No ability.").get(locale))
    return "\n".join(lines)
