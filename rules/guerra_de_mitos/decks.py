"""Guerra de Mitos decks: the construction rules, share codes, plain lists and ready decks.

A deck is a pantheon, a god deck (characters, resources, events) and a design deck
(actions, invocations, equipment), each a map of card id to copies. ``validate`` names
every rule a deck breaks, in Spanish and English, with what would fix it; a deck may be
kept while incomplete, and only a deck with no problems can be played.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from rules.core import IllegalAction, InvalidAction, Text
from rules.guerra_de_mitos.card_search import by_name, suggest
from rules.guerra_de_mitos.cards import (
    DESIGN_DECK_TYPES,
    GOD_DECK_TYPES,
    MYTHOLOGIES,
    MYTHOLOGY_NAME,
    Card,
    card_entries,
    card_name,
    cards,
    fold,
    joined,
)
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")

GOD_DECK_MIN = 20
DESIGN_DECK_MIN = 30
MAX_COPIES = 2
MAX_BATTLE = 2


class Deck(BaseModel):
    """A player's deck: the pantheon and the two decks as card id -> copies."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    pantheon: str | None = None
    god: dict[str, int] = Field(default_factory=dict)
    design: dict[str, int] = Field(default_factory=dict)

    @field_validator("god", "design")
    @classmethod
    def _positive(cls, counts: dict[str, int]) -> dict[str, int]:
        for cid, n in counts.items():
            if n < 1:
                raise ValueError(f"card {cid}: a count must be 1 or more")
        return dict(sorted(counts.items()))

    def counts(self) -> dict[str, int]:
        """Every card of both decks with its copies (the pantheon apart)."""
        out = dict(self.god)
        for cid, n in self.design.items():
            out[cid] = out.get(cid, 0) + n
        return dict(sorted(out.items()))

    def size(self) -> tuple[int, int]:
        """Cards in the god deck and in the design deck."""
        return sum(self.god.values()), sum(self.design.values())

    def with_card(self, card_id: str, delta: int = 1) -> Deck:
        """This deck with ``delta`` copies of a card added (negative: removed) in its own deck.

        A pantheon card replaces the pantheon (or clears it when removed).
        """
        c = cards()[card_id]
        if c.type == "pantheon":
            if delta > 0:
                return self.model_copy(update={"pantheon": card_id})
            return self.model_copy(update={"pantheon": None}) if self.pantheon == card_id else self
        part = "god" if c.type in GOD_DECK_TYPES else "design"
        counts = dict(getattr(self, part))
        n = counts.get(card_id, 0) + delta
        if n > 0:
            counts[card_id] = n
        else:
            counts.pop(card_id, None)
        return self.model_validate({**self.model_dump(), part: counts})

    @classmethod
    def from_counts(cls, pantheon: str | None, counts: dict[str, int]) -> Deck:
        """A deck from one map of card id -> copies, each card put in the deck of its type."""
        god: dict[str, int] = {}
        design: dict[str, int] = {}
        for cid, n in counts.items():
            c = cards().get(cid)
            if c is None:
                raise DeckFormatError(msg("there is no card {card}", card=cid))
            (god if c.type in GOD_DECK_TYPES else design)[cid] = n
        return cls(pantheon=pantheon, god=god, design=design)


class DeckProblem(BaseModel):
    """One construction rule a deck breaks: which rule, the card it concerns, and the fix."""

    model_config = ConfigDict(frozen=True)
    rule: str
    card_id: str | None = None
    text: Text


class DeckFormatError(InvalidAction):
    """A share code or a card list that cannot be read; the message says where and why."""


class IllegalDeck(IllegalAction):
    """A deck that breaks construction rules cannot be played."""

    def __init__(self, problems: list[DeckProblem]) -> None:
        super().__init__(msg("The deck is not legal: {problems}", problems=joined([p.text for p in problems], " · ")))
        self.problems = problems


# ----------------------------------------------------------------------------- validation


def _problem(rule: str, text: Text, card_id: str | None = None) -> DeckProblem:
    return DeckProblem(rule=rule, card_id=card_id, text=text)


# A card's type as a sentence names it, with its article ("es una acción").
_A_TYPE: dict[str, Text] = {
    "pantheon": msg.c("card type with article", "a pantheon"),
    "character": msg.c("card type with article", "a character"),
    "action": msg.c("card type with article", "an action"),
    "equipment": msg.c("card type with article", "an equipment"),
    "resource": msg.c("card type with article", "a resource"),
    "invocation": msg.c("card type with article", "an invocation"),
    "event": msg.c("card type with article", "an event"),
}


def _wrong_deck(c: Card, part: str) -> Text:
    # Whole sentences: the deck the card is in and the place it belongs to.
    card, a_type = card_name(c.id), _A_TYPE[c.type]
    if c.type == "pantheon":
        if part == "god":
            return msg("{card}: it is {a_type} and does not go in the god deck; move it to the pantheon slot.",
                       card=card, a_type=a_type)
        return msg("{card}: it is {a_type} and does not go in the design deck; move it to the pantheon slot.",
                   card=card, a_type=a_type)
    if part == "god":
        return msg("{card}: it is {a_type} and does not go in the god deck; move it to the design deck.",
                   card=card, a_type=a_type)
    return msg("{card}: it is {a_type} and does not go in the design deck; move it to the god deck.",
               card=card, a_type=a_type)


def validate(deck: Deck) -> list[DeckProblem]:
    """Every construction rule the deck breaks (empty: the deck is legal)."""
    catalogue = cards()
    out: list[DeckProblem] = []
    pantheon = catalogue.get(deck.pantheon) if deck.pantheon else None
    if deck.pantheon is None:
        out.append(
            _problem(
                "pantheon_missing",
                msg("The pantheon is missing: choose a pantheon card, which sets your mythology."),
            )
        )
    elif pantheon is None:
        out.append(
            _problem(
                "unknown_card",
                msg("Pantheon {card} does not exist: choose another.", card=deck.pantheon),
                deck.pantheon,
            )
        )
    elif pantheon.type != "pantheon":
        out.append(
            _problem(
                "pantheon_not_pantheon",
                msg("{card}: it is {a_type}, not a pantheon; choose a pantheon card.",
                    card=card_name(pantheon.id), a_type=_A_TYPE[pantheon.type]),
                pantheon.id,
            )
        )
        pantheon = None
    myth = pantheon.mythology if pantheon else None

    for part, allowed in (("god", GOD_DECK_TYPES), ("design", DESIGN_DECK_TYPES)):
        for cid in getattr(deck, part):
            c = catalogue.get(cid)
            if c is None:
                out.append(
                    _problem(
                        "unknown_card",
                        msg("Card {card} does not exist: remove it.", card=cid),
                        cid,
                    )
                )
            elif c.type not in allowed:
                out.append(_problem("wrong_deck", _wrong_deck(c, part), cid))

    n_god, n_design = deck.size()
    if n_god < GOD_DECK_MIN:
        out.append(
            _problem(
                "god_deck_size",
                msg.n(n_god, "The god deck has {n} card: add at least {missing} more (characters, resources or events) to reach {least}.",
                      "The god deck has {n} cards: add at least {missing} more (characters, resources or events) to reach {least}.",
                      missing=GOD_DECK_MIN - n_god, least=GOD_DECK_MIN),
            )
        )
    if n_design < DESIGN_DECK_MIN:
        out.append(
            _problem(
                "design_deck_size",
                msg.n(n_design, "The design deck has {n} card: add at least {missing} more (actions, invocations or equipment) to reach {least}.",
                      "The design deck has {n} cards: add at least {missing} more (actions, invocations or equipment) to reach {least}.",
                      missing=DESIGN_DECK_MIN - n_design, least=DESIGN_DECK_MIN),
            )
        )

    battle = 0
    for cid, n in deck.counts().items():
        c = catalogue.get(cid)
        if c is None:
            continue
        if c.is_battle:
            battle += n
        if c.is_god and n > 1:
            out.append(
                _problem(
                    "one_copy",
                    msg("{card}: only one copy of a god; remove {extra}.", card=card_name(cid), extra=n - 1),
                    cid,
                )
            )
        elif c.is_unique and n > 1:
            out.append(
                _problem(
                    "one_copy",
                    msg("{card}: only one copy of a unique card; remove {extra}.", card=card_name(cid), extra=n - 1),
                    cid,
                )
            )
        elif n > MAX_COPIES:
            out.append(
                _problem(
                    "copies",
                    msg("{card}: at most {most} copies of a card; remove {extra}.",
                        card=card_name(cid), most=MAX_COPIES, extra=n - MAX_COPIES),
                    cid,
                )
            )
        if c.keyed_to and pantheon is not None and c.keyed_to != myth:
            out.append(
                _problem(
                    "other_mythology",
                    msg("{card}: it carries the key of the {card_mythology} mythology and your pantheon is "
                        "{pantheon_mythology}; remove it or change pantheon.", card=card_name(cid),
                        card_mythology=MYTHOLOGY_NAME[c.keyed_to],
                        pantheon_mythology=MYTHOLOGY_NAME[myth] if myth else msg.c("mythology", "none")),
                    cid,
                )
            )
    if battle > MAX_BATTLE:
        out.append(
            _problem(
                "battle_limit",
                msg("There are {battle} cards with the Battle key: at most {most}; remove {extra}.",
                    battle=battle, most=MAX_BATTLE, extra=battle - MAX_BATTLE),
            )
        )
    return out


def is_legal(deck: Deck) -> bool:
    """Whether the deck breaks no construction rule."""
    return not validate(deck)


def require_legal(deck: Deck) -> None:
    """Raise IllegalDeck, naming every broken rule, unless the deck may be played."""
    problems = validate(deck)
    if problems:
        raise IllegalDeck(problems)


def can_add(deck: Deck, card_id: str) -> bool:
    """Whether one more copy of a card keeps every per-card rule (copies, Batalla, mythology).

    Meant to filter autocomplete while building: deck sizes and a missing pantheon are
    not counted against the card.
    """
    c = cards().get(card_id)
    if c is None:
        return False
    if c.type == "pantheon":
        return True
    before = {(p.rule, p.card_id) for p in validate(deck)}
    after = validate(deck.with_card(card_id))
    per_card = {"one_copy", "copies", "other_mythology", "battle_limit"}
    return not any(p.rule in per_card and (p.rule, p.card_id) not in before for p in after)


class DeckSummary(BaseModel):
    """What a deck is made of, for showing it: sizes, counts by type and the cost curves."""

    model_config = ConfigDict(frozen=True)
    pantheon: str | None
    god_size: int
    design_size: int
    by_type: dict[str, int]
    # Cost -> copies, for the god deck's characters and resources and for the design deck.
    god_curve: dict[int, int]
    design_curve: dict[int, int]
    gods: int
    battle: int
    # Characters by affiliation (None: unaffiliated), for the affiliation penalty.
    affiliations: dict[str, int]
    legal: bool


def summary(deck: Deck) -> DeckSummary:
    """Counts of a deck by type, cost and affiliation (unknown card ids are left out)."""
    catalogue = cards()
    by_type: dict[str, int] = {}
    god_curve: dict[int, int] = {}
    design_curve: dict[int, int] = {}
    affiliations: dict[str, int] = {}
    gods = battle = 0
    for cid, n in deck.counts().items():
        c = catalogue.get(cid)
        if c is None or c.type == "pantheon":
            continue
        by_type[c.type] = by_type.get(c.type, 0) + n
        if c.cost is not None:
            curve = god_curve if c.type in GOD_DECK_TYPES else design_curve
            curve[c.cost] = curve.get(c.cost, 0) + n
        if c.type == "character":
            aff = c.mythology or "-"
            affiliations[aff] = affiliations.get(aff, 0) + n
        gods += n if c.is_god else 0
        battle += n if c.is_battle else 0
    god_size, design_size = deck.size()
    return DeckSummary(
        pantheon=deck.pantheon,
        god_size=god_size,
        design_size=design_size,
        by_type=dict(sorted(by_type.items())),
        god_curve=dict(sorted(god_curve.items())),
        design_curve=dict(sorted(design_curve.items())),
        gods=gods,
        battle=battle,
        affiliations=dict(sorted(affiliations.items())),
        legal=is_legal(deck),
    )


# ----------------------------------------------------------------------------- share code

# Crockford's base 32: no I, L, O or U, so a code read aloud or retyped survives; on the
# way in, O reads as 0 and I or L as 1.
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {ch: i for i, ch in enumerate(_ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
_VERSION = 1
_CHECK_CHARS = 3  # 15 bits of CRC-32: a mistyped code is caught 32767 times in 32768


def _gamma(n: int) -> str:
    # Elias gamma: small numbers (the gaps between sorted card ids, the copies) stay short.
    b = bin(n)[2:]
    return "0" * (len(b) - 1) + b


class _Bits:
    def __init__(self, bits: str) -> None:
        self.bits, self.pos = bits, 0

    def take(self, n: int) -> int:
        if self.pos + n > len(self.bits):
            raise ValueError("short")
        v = int(self.bits[self.pos : self.pos + n], 2)
        self.pos += n
        return v

    def gamma(self) -> int:
        zeros = 0
        while self.pos < len(self.bits) and self.bits[self.pos] == "0":
            zeros += 1
            self.pos += 1
        if zeros > 16:
            raise ValueError("long")
        return self.take(zeros + 1)


def _check(body: str) -> str:
    crc = zlib.crc32(body.encode("ascii")) & (32**_CHECK_CHARS - 1)
    return "".join(_ALPHABET[(crc >> (5 * i)) & 31] for i in reversed(range(_CHECK_CHARS)))


def export_code(deck: Deck) -> str:
    """A short code for the deck (Crockford base 32 with a checksum), for sharing."""
    counts = deck.counts()
    for cid in [deck.pantheon, *counts]:
        if cid is not None and cid not in cards():
            raise DeckFormatError(msg("Card {card} does not exist: the deck cannot be shared.", card=cid))
    bits = [
        format(_VERSION, "03b"),
        format(int(deck.pantheon or 0), "09b"),
        format(len(counts), "09b"),
    ]
    prev = 0
    for cid, n in counts.items():
        bits.append(_gamma(int(cid) - prev) + _gamma(n))
        prev = int(cid)
    s = "".join(bits)
    s += "0" * (-len(s) % 5)
    body = "".join(_ALPHABET[int(s[i : i + 5], 2)] for i in range(0, len(s), 5))
    return body + _check(body)


def import_code(code: str) -> Deck:
    """The deck a share code stands for; DeckFormatError says why a code cannot be read."""
    bad = DeckFormatError(
        msg("That deck code is not valid (a character missing or extra?); copy the whole code again.")
    )
    text = re.sub(r"[\s\-_.]", "", code or "").upper()
    if len(text) <= _CHECK_CHARS or any(ch not in _VALUE for ch in text):
        raise bad
    text = "".join(_ALPHABET[_VALUE[ch]] for ch in text)
    body, check = text[:-_CHECK_CHARS], text[-_CHECK_CHARS:]
    if _check(body) != check:
        raise bad
    reader = _Bits("".join(format(_VALUE[ch], "05b") for ch in body))
    try:
        if reader.take(3) != _VERSION:
            raise DeckFormatError(msg("That code belongs to another version of the deck format."))
        pantheon_n = reader.take(9)
        entries = reader.take(9)
        counts: dict[str, int] = {}
        cid = 0
        for _ in range(entries):
            cid += reader.gamma()
            counts[f"{cid:04d}"] = reader.gamma()
    except ValueError:
        raise bad from None
    rest = reader.bits[reader.pos :]
    if len(rest) >= 5 or "1" in rest:
        raise bad
    pantheon = f"{pantheon_n:04d}" if pantheon_n else None
    if pantheon is not None and pantheon not in cards():
        raise bad
    if any(c not in cards() for c in counts):
        raise bad
    return Deck.from_counts(pantheon, counts)


# ----------------------------------------------------------------------------- plain list

_COUNT_FIRST = re.compile(r"^(\d+)\s*[x×]?\s+(.+)$", re.IGNORECASE)
_COUNT_LAST = re.compile(r"^(.+?)\s+[x×]\s*(\d+)$", re.IGNORECASE)
# Close names are looked for (a search over every name in every language, milliseconds
# each) for this many unreadable lines at most, and this many unreadable lines are named:
# a pasted wall of junk costs no more than a list with a few typos.
SUGGESTED_LINES = 5
NAMED_LINES = 10


def export_list(deck: Deck, locale: str | None = "es") -> str:
    """The deck as a plain list, one "2 Hacha" line per card, in the reader's language."""
    lines = ["# Guerra de Mitos"]
    if deck.pantheon:
        lines.append(msg("Pantheon: {card}", card=card_name(deck.pantheon)).get(locale))
    n_god, n_design = deck.size()
    for title, part in (
        (msg("God deck ({count})", count=n_god), deck.god),
        (msg("Design deck ({count})", count=n_design), deck.design),
    ):
        lines.append(f"# {title.get(locale)}")
        lines.extend(f"{count} {card_name(cid).get(locale)}" for cid, count in part.items())
    return "\n".join(lines) + "\n"


def import_list(text: str) -> Deck:
    """The deck a plain list describes (names in either language, "2 Hacha" or "Hacha x2").

    Blank lines and lines starting with # or // are skipped; a line "Panteón: Yomi" (or a
    pantheon's name alone) sets the pantheon. Every unreadable line is reported at once (the
    first NAMED_LINES naming no card by number, close names for the first SUGGESTED_LINES).
    Linear in the lines: each is one look-up in the name index. The caller caps the length.
    """
    errors: list[Text] = []
    unread = 0  # lines naming no card
    pantheon: str | None = None
    counts: dict[str, int] = {}
    for number, raw in enumerate((text or "").splitlines(), start=1):
        line = raw.strip().lstrip("-*•").strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        head, sep, tail = line.partition(":") if ":" in line else line.partition("=")
        count, name = 1, line
        wants_pantheon = bool(sep) and fold(head) in ("panteon", "pantheon")
        if wants_pantheon:
            name = tail.strip()
        elif (m2 := _COUNT_FIRST.match(line)) is not None:
            count, name = int(m2.group(1)), m2.group(2).strip()
        elif (m3 := _COUNT_LAST.match(line)) is not None:
            count, name = int(m3.group(2)), m3.group(1).strip()
        c = by_name(name)
        if c is None:
            unread += 1
            if unread > NAMED_LINES:
                continue
            hints = [card_name(h.id) for h in suggest(name)] if unread <= SUGGESTED_LINES else []
            if hints:
                errors.append(msg('line {line}: there is no card called "{name}". Did you mean {cards}?',
                                  line=number, name=name[:60], cards=joined(hints, ", ")))
            else:
                errors.append(msg('line {line}: there is no card called "{name}".', line=number, name=name[:60]))
            continue
        if count < 1 or count > 99:
            errors.append(msg("line {line}: {count} is not a valid number of copies.", line=number, count=count))
            continue
        if c.type == "pantheon":
            if count != 1 or (pantheon is not None and pantheon != c.id):
                errors.append(msg("line {line}: a deck has a single pantheon ({card}).",
                                  line=number, card=card_name(c.id)))
                continue
            pantheon = c.id
            continue
        if wants_pantheon:
            errors.append(msg("line {line}: {card} is not a pantheon.", line=number, card=card_name(c.id)))
            continue
        counts[c.id] = counts.get(c.id, 0) + count
    if unread > NAMED_LINES:
        errors.append(msg.n(unread - NAMED_LINES, "And {n} more line names no card.",
                            "And {n} more lines name no card."))
    if errors:
        raise DeckFormatError(msg("The list could not be read: {errors}", errors=joined(errors, " ")))
    if pantheon is None and not counts:
        raise DeckFormatError(msg("The list has no cards."))
    return Deck.from_counts(pantheon, counts)


# ----------------------------------------------------------------------------- ready decks


class ReadyDeck(BaseModel):
    """A deck that comes with the game, legal and ready to play."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    name: str
    name_en: str
    mythology: str
    deck: Deck

    @property
    def title(self) -> Text:
        """The deck's name, read through the catalogues."""
        return msg.data("ready deck", self.name_en)

    def display_name(self, locale: str | None) -> str:
        """The deck's name in the reader's language."""
        return self.title.get(locale)


_READY = Path(__file__).with_name("data") / "ready_decks.json"


@lru_cache(maxsize=1)
def ready_decks() -> dict[str, ReadyDeck]:
    """The six ready decks by id, one per mythology; each is checked legal on load."""
    raw = json.loads(_READY.read_text(encoding="utf-8"))
    out: dict[str, ReadyDeck] = {}
    for rec in raw:
        rd = ReadyDeck.model_validate(rec)
        problems = validate(rd.deck)
        if problems or rd.id in out or rd.mythology not in MYTHOLOGIES:
            raise ValueError(f"ready deck {rd.id}: " + "; ".join(p.text.get("en") for p in problems))  # one language: a data error for developers
        out[rd.id] = rd
    return out


def deck_cards(deck: Deck) -> Iterable[Card]:
    """Every card of both decks, one entry per copy (the pantheon apart), in id order."""
    catalogue = cards()
    for cid, n in deck.counts().items():
        for _ in range(n):
            yield catalogue[cid]


def catalogue_entries() -> list[tuple[str, str]]:
    """Every (context, English wording) of the game's data: the cards' names and texts and
    the ready decks' names, for the catalogues (rules.catalogue_scan.DATA_SOURCES)."""
    return [*card_entries(), *(("ready deck", rd.name_en) for rd in ready_decks().values())]
