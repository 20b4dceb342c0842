"""The 364 cards of the first era as validated records, with name lookup in every language.

The records live in ``data/cards.json`` (the project's own file: facts from the card list,
typos fixed, abilities in the project's own words). Every record is checked when this
module loads; a bad record stops the import with the reason.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

from rules.catalogue import catalogues
from rules.core import Text
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")

CardType = Literal[
    "pantheon", "character", "action", "equipment", "resource", "invocation", "event"
]
Mythology = Literal["Japonesa", "Nórdica", "Griega", "Azteca", "Egipcia", "Primigenia", "Neutral"]
Phase = Literal["influence", "confrontation"]

# The six mythologies with pantheons and characters of their own (Neutral is no mythology:
# the glossary's "Neutral: No pertenece a ninguna mitología").
MYTHOLOGIES: tuple[str, ...] = ("Japonesa", "Nórdica", "Griega", "Azteca", "Egipcia", "Primigenia")
MYTHOLOGY_NAME: dict[str, Text] = {
    "Japonesa": msg.c("mythology", "Japanese"),
    "Nórdica": msg.c("mythology", "Norse"),
    "Griega": msg.c("mythology", "Greek"),
    "Azteca": msg.c("mythology", "Aztec"),
    "Egipcia": msg.c("mythology", "Egyptian"),
    "Primigenia": msg.c("mythology", "Great Old Ones"),
    "Neutral": msg.c("mythology", "Neutral"),
}

TYPE_NAME: dict[str, Text] = {
    "pantheon": msg.c("card type", "Pantheon"),
    "character": msg.c("card type", "Character"),
    "action": msg.c("card type", "Action"),
    "equipment": msg.c("card type", "Equipment"),
    "resource": msg.c("card type", "Resource"),
    "invocation": msg.c("card type", "Invocation"),
    "event": msg.c("card type", "Event"),
}
PHASE_NAME: dict[str, Text] = {
    "influence": msg("INFLUENCE"),
    "confrontation": msg("CONFRONTATION"),
}

# Which of a player's two decks a card type goes into (rulebook, "Componentes necesarios").
GOD_DECK_TYPES: frozenset[str] = frozenset({"character", "resource", "event"})
DESIGN_DECK_TYPES: frozenset[str] = frozenset({"action", "invocation", "equipment"})

# Every key of the first era, one spelling each (gender and accents folded), with the
# name shown to players in each language.
KEYS: dict[str, Text] = {
    "Agua": msg.c("card key", "Water"),
    "Aguila": msg.c("card key", "Eagle"),
    "Aire": msg.c("card key", "Air"),
    "Alquimista": msg.c("card key", "Alchemist"),
    "Arma": msg.c("card key", "Weapon"),
    "Armadura": msg.c("card key", "Armour"),
    "Ashigaru": msg.c("card key", "Ashigaru"),
    "Atlante": msg.c("card key", "Atlantean"),
    "Azteca": msg.c("card key", "Aztec"),
    "Batalla": msg.c("card key", "Battle"),
    "Berserker": msg.c("card key", "Berserker"),
    "Biblioteca": msg.c("card key", "Library"),
    "Carruaje": msg.c("card key", "Chariot"),
    "Cataclismo": msg.c("card key", "Cataclysm"),
    "Chaman": msg.c("card key", "Shaman"),
    "Ciudad": msg.c("card key", "City"),
    "Constructor": msg.c("card key", "Builder"),
    "Criatura": msg.c("card key", "Creature"),
    "Demonio": msg.c("card key", "Demon"),
    "Dios": msg.c("card key", "God"),
    "Dvargar": msg.c("card key", "Dvärgar"),
    "Egipcio": msg.c("card key", "Egyptian"),
    "Embaucador": msg.c("card key", "Trickster"),
    "Emperador": msg.c("card key", "Emperor"),
    "Encadenado": msg.c("card key", "Chained"),
    "Entorno": msg.c("card key", "Surroundings"),
    "Esclavo": msg.c("card key", "Slave"),
    "Espiritu": msg.c("card key", "Spirit"),
    "Faraon": msg.c("card key", "Pharaoh"),
    "Festival": msg.c("card key", "Festival"),
    "Fuego": msg.c("card key", "Fire"),
    "Gigante": msg.c("card key", "Giant"),
    "Griego": msg.c("card key", "Greek"),
    "Guardian": msg.c("card key", "Guardian"),
    "Guerrero": msg.c("card key", "Warrior"),
    "Heroe": msg.c("card key", "Hero"),
    "Invocador": msg.c("card key", "Summoner"),
    "Jaguar": msg.c("card key", "Jaguar"),
    "Japones": msg.c("card key", "Japanese"),
    "Jotun": msg.c("card key", "Jotun"),
    "Libro": msg.c("card key", "Book"),
    "Loco": msg.c("card key", "Madman"),
    "Mitos de Cthulhu": msg.c("card key", "Cthulhu Mythos"),
    "Monstruo": msg.c("card key", "Monster"),
    "Musa": msg.c("card key", "Muse"),
    "Nordico": msg.c("card key", "Norse"),
    "Oricalco": msg.c("card key", "Orichalcum"),
    "Plaga": msg.c("card key", "Plague"),
    "Primigenio": msg.c("card key", "Great Old One"),
    "Punto de poder": msg.c("card key", "Place of Power"),
    "Ratido": msg.c("card key", "Ratkin"),
    "Reina": msg.c("card key", "Queen"),
    "Ronin": msg.c("card key", "Ronin"),
    "Runa": msg.c("card key", "Rune"),
    "Sacrificio": msg.c("card key", "Sacrifice"),
    "Samurai": msg.c("card key", "Samurai"),
    "Satiro": msg.c("card key", "Satyr"),
    "Shinobi": msg.c("card key", "Shinobi"),
    "Shoei": msg.c("card key", "Shoei"),
    "Sol": msg.c("card key", "Sun"),
    "Sonador": msg.c("card key", "Dreamer"),
    "Svartalfar": msg.c("card key", "Svartálfar"),
    "Templo": msg.c("card key", "Temple"),
    "Tierra": msg.c("card key", "Earth"),
    "Trueno": msg.c("card key", "Thunder"),
    "Unico": msg.c("card key", "Unique"),
    "Valkiria": msg.c("card key", "Valkyrie"),
    "Veneno": msg.c("card key", "Poison"),
    "Vidente": msg.c("card key", "Seer"),
    "Vino": msg.c("card key", "Wine"),
    "Volva": msg.c("card key", "Völva"),
}

# Keys that tie a card to one mythology: deck building forbids them under another pantheon
# ("No se puede incluir cartas con la clave específica de mitologías distintas al panteón").
MYTHOLOGY_KEYS: dict[str, str] = {
    "Japones": "Japonesa",
    "Nordico": "Nórdica",
    "Griego": "Griega",
    "Azteca": "Azteca",
    "Egipcio": "Egipcia",
    "Mitos de Cthulhu": "Primigenia",
}

# Keys printed in another form than their name (a goddess's "Diosa"): what each language
# shows for them. Every other printed key is the key's own name.
_PRINTED: dict[str, Text] = {
    "Diosa": msg.c("card key, feminine", "God"),
    "Invocadora": msg.c("card key, feminine", "Summoner"),
    "Única": msg.c("card key, feminine", "Unique"),
    "Guerrera": msg.c("card key, feminine", "Warrior"),
    "Japonesa": msg.c("card key, feminine", "Japanese"),
    "Nórdica": msg.c("card key, feminine", "Norse"),
    "Griega": msg.c("card key, feminine", "Greek"),
    "Egipto": msg.c("card key, as printed", "Egyptian"),
    "Samurai": msg.c("card key, as printed", "Samurai"),
    "Volva": msg.c("card key, as printed", "Völva"),
    "Chaman": msg.c("card key, as printed", "Shaman"),
}


def key_shown(key: str, printed: str) -> Text:
    """The name of ``key`` as a card prints it (``printed``: "Diosa" for the key Dios)."""
    return _PRINTED.get(printed, KEYS[key])


_DATA = Path(__file__).with_name("data") / "cards.json"
# How the records' text_es and text_en label the phases: part of the data's format, checked
# on load (not a text shown from here: players read PHASE_NAME).
_LABEL_IN_DATA = {
    "influence": ("INFLUENCIA", "INFLUENCE"),
    "confrontation": ("ENFRENTAMIENTO", "CONFRONTATION"),
}
_ID = re.compile(r"^\d{4}$")


def fold(text: str) -> str:
    """Lower case, accents dropped, runs of anything but letters and digits made one space."""
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c)).lower()
    return " ".join(re.findall(r"[a-z0-9]+", t))


def compact(text: str) -> str:
    """A name as names are compared: folded and without spaces, so "Aji suki" finds
    "Aji-suki-taka-hi-kone"."""
    return fold(text).replace(" ", "")


def key_id(word: str) -> str | None:
    """The key a displayed or typed spelling means ("Diosa" -> "Dios"), or None."""
    return _KEY_LOOKUP.get(compact(word))


class Token(BaseModel):
    """A character or weapon an ability creates; it belongs to no deck."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    type: Literal["character", "equipment"]
    name: str
    name_en: str
    strength: int
    # A token character's maximum power (PM); a token weapon's PM modifier.
    max_power: int
    # The power a token character is created with (None for a weapon).
    power: int | None
    keys: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> Token:
        if (self.type == "character") != (self.power is not None):
            raise ValueError(f"token {self.name}: a character has starting power, a weapon none")
        for k in self.keys:
            if k not in KEYS:
                raise ValueError(f"token {self.name}: unknown key {k!r}")
        return self


class Card(BaseModel):
    """One card of the first era.

    ``power`` means what the card's type makes it mean: a pantheon's starting power, a
    character's maximum power (PM), the PM modifier of an equipment or invocation; the
    other types have none. ``strength`` is a character's strength (F) or an equipment's
    F modifier. ``cost`` is the power needed to put a god-deck card into play or to play
    or equip a design-deck card; pantheons and events have none.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: str
    name: str
    name_en: str
    mythology: Mythology | None
    type: CardType
    cost: int | None
    strength: int | None
    power: int | None
    keys: tuple[str, ...]
    # The keys as printed on the card (gender and accents kept: "Diosa", "Única").
    keys_shown: tuple[str, ...]
    # The mythology a mythology key ties this card to (deck building), else None.
    keyed_to: Mythology | None
    phases: tuple[Phase, ...]
    tokens: tuple[Token, ...]
    text_es: str
    text_en: str
    is_god: bool
    is_unique: bool
    is_battle: bool

    @model_validator(mode="after")
    def _check(self) -> Card:
        texts = self.model_dump(include={"text_es", "text_en"})
        problems = _problems(self, texts["text_es"], texts["text_en"])
        if problems:
            raise ValueError(f"card {self.id} ({self.name}): " + "; ".join(problems))
        return self

    # ------------------------------------------------------------------ reading

    @property
    def deck(self) -> Literal["god", "design", "pantheon"]:
        """Which part of a deck the card goes into."""
        if self.type == "pantheon":
            return "pantheon"
        return "god" if self.type in GOD_DECK_TYPES else "design"

    @property
    def is_mortal(self) -> bool:
        """A character without the key Dios (glossary: "Mortal")."""
        return self.type == "character" and not self.is_god

    @property
    def is_weapon(self) -> bool:
        """An equipment with the key Arma (a character carries one at most)."""
        return self.type == "equipment" and "Arma" in self.keys

    @property
    def is_armour(self) -> bool:
        """An equipment with the key Armadura (a character carries one at most)."""
        return self.type == "equipment" and "Armadura" in self.keys

    @property
    def starting_power(self) -> int | None:
        """A pantheon's starting power."""
        return self.power if self.type == "pantheon" else None

    @property
    def max_power(self) -> int | None:
        """A character's printed maximum power (PM)."""
        return self.power if self.type == "character" else None

    @property
    def pm_modifier(self) -> int | None:
        """The PM an equipment or invocation adds to its bearer (negative: takes away)."""
        return self.power if self.type in ("equipment", "invocation") else None

    def display_name(self, locale: str | None) -> str:
        """The card's name in the reader's language."""
        return card_name(self.id).get(locale)

    def text(self, locale: str | None) -> str:
        """The card's ability text in the reader's language ("" when it has none)."""
        return card_text(self.id).get(locale)

    def key_names(self, locale: str | None) -> list[str]:
        """The card's keys as the reader's language shows them (as printed: "Diosa")."""
        return [key_shown(k, shown).get(locale) for k, shown in zip(self.keys, self.keys_shown, strict=True)]


def _problems(c: Card, text_es: str, text_en: str) -> list[str]:
    """Everything wrong with one record (empty when it is sound), its two texts apart."""
    out: list[str] = []
    if not _ID.match(c.id) or c.id == "0000":
        out.append("id must be four digits from 0001")
    for label, value in (("name", c.name), ("name_en", c.name_en)):
        if not value or value != value.strip() or "  " in value:
            out.append(f"{label} must be non-empty without stray spaces")
    # Stats by type: which of cost, strength and power the type carries.
    shape = {
        "pantheon": (False, False, True),
        "character": (True, True, True),
        "equipment": (True, True, True),
        "invocation": (True, False, True),
        "resource": (True, False, False),
        "action": (True, False, False),
        "event": (False, False, False),
    }[c.type]
    for has, label, value in zip(
        shape, ("cost", "strength", "power"), (c.cost, c.strength, c.power), strict=True
    ):
        if has and value is None:
            out.append(f"a {c.type} has a {label}")
        if not has and value is not None:
            out.append(f"a {c.type} has no {label}")
    if c.cost is not None and c.cost < 0:
        out.append("cost cannot be negative")
    if c.type in ("pantheon", "character") and c.power is not None and c.power < 0:
        out.append("starting or maximum power cannot be negative")
    if c.type == "character" and c.strength is not None and c.strength < 0:
        out.append("a character's strength cannot be negative")
    # Keys: known, one spelling, shown spellings fold to them, flags follow from them.
    for k in c.keys:
        if k not in KEYS:
            out.append(f"unknown key {k!r}")
    if len(set(c.keys)) != len(c.keys):
        out.append("a key is listed twice")
    shown = []
    for s in c.keys_shown:
        k = key_id(s)
        if k is None:
            out.append(f"shown key {s!r} is no known key")
        elif k not in shown:
            shown.append(k)
    if tuple(shown) != c.keys:
        out.append("keys_shown must spell exactly the keys, in order")
    if c.is_god != ("Dios" in c.keys):
        out.append("is_god must follow the key Dios")
    if c.is_unique != ("Unico" in c.keys):
        out.append("is_unique must follow the key Unico")
    if c.is_battle != ("Batalla" in c.keys):
        out.append("is_battle must follow the key Batalla")
    if c.type == "invocation" and not c.is_unique:
        out.append("every invocation is unique")
    if c.is_god and c.type != "character":
        out.append("only characters carry the key Dios")
    myth_keys = {MYTHOLOGY_KEYS[k] for k in c.keys if k in MYTHOLOGY_KEYS}
    if len(myth_keys) > 1:
        out.append("keys of two mythologies")
    keyed = next(iter(myth_keys), None)
    if c.keyed_to != keyed:
        out.append("keyed_to must be the mythology of the card's mythology key")
    if keyed is not None and c.mythology != keyed:
        out.append("a card keyed to a mythology belongs to it")
    if c.type == "pantheon" and c.mythology is None:
        out.append("a pantheon belongs to a mythology or is Neutral")
    # Text: both languages or neither; each phase the ability uses is labelled in both.
    if bool(text_es) != bool(text_en):
        out.append("text in both languages or in neither")
    for lang, text in (("es", text_es), ("en", text_en)):
        if text != text.strip():
            out.append(f"text_{lang} has stray spaces")
    if text_es:
        for phase, (es, en) in _LABEL_IN_DATA.items():
            used = phase in c.phases
            if used != (f"{es}:" in text_es) or used != (f"{en}:" in text_en):
                out.append(f"phase {phase} must be labelled in both texts exactly when used")
    elif c.phases or c.tokens:
        out.append("a card with phases or tokens has text")
    for lang, text in (("es", text_es), ("en", text_en)):
        if text and text[-1] not in '.»"':
            out.append(f"text_{lang} must end a sentence")
    if any(f"{es}:" in text_en for es, _ in _LABEL_IN_DATA.values()):
        out.append("text_en uses the English phase labels")
    if c.type == "event" and c.phases:
        out.append("an event resolves when revealed and has no phase")
    return out


def _load(raw: list[dict]) -> dict[str, Card]:
    """Validate every record; raise ValueError naming every fault."""
    cards: dict[str, Card] = {}
    faults: list[str] = []
    for rec in raw:
        try:
            card = Card.model_validate(rec)
        except ValueError as exc:
            faults.append(str(exc))
            continue
        if card.id in cards:
            faults.append(f"card {card.id}: id used twice")
        cards[card.id] = card
    names: dict[str, str] = {}
    for card in cards.values():
        for n in {compact(card.name), compact(card.name_en)}:
            other = names.setdefault(n, card.id)
            if other != card.id:
                faults.append(f"cards {other} and {card.id}: one name for two cards ({n!r})")
    if faults:
        raise ValueError("Guerra de Mitos card data: " + " | ".join(faults))
    return dict(sorted(cards.items()))


def spellings(text: Text) -> set[str]:
    """A name as every language with a catalogue writes it (English always among them)."""
    return {text.get(lang) for lang in catalogues().languages}


_KEY_LOOKUP: dict[str, str] = {}
for _k, _t in KEYS.items():
    for _spelling in {_k} | spellings(_t):
        _KEY_LOOKUP[compact(_spelling)] = _k
# Feminine and other printed spellings of the same key.
for _spelling, _k in {
    "Diosa": "Dios",
    "Invocadora": "Invocador",
    "Única": "Unico",
    "Guerrera": "Guerrero",
    "Japonesa": "Japones",
    "Nórdica": "Nordico",
    "Griega": "Griego",
    "Egipto": "Egipcio",
    "Egipcia": "Egipcio",
    "Heroína": "Heroe",
    "Primigenia": "Primigenio",
    "Goddess": "Dios",
}.items():
    _KEY_LOOKUP[compact(_spelling)] = _k

_RECORDS: list[dict] = json.loads(_DATA.read_text(encoding="utf-8"))
_CARDS = _load(_RECORDS)
# The English of each card's name and text: their message ids in the catalogues.
_WORDING: dict[str, tuple[str, str]] = {
    r["id"]: (r["name_en"], r["text_en"]) for r in sorted(_RECORDS, key=lambda r: r["id"])
}


def verbatim(words: str) -> Text:
    """Words that read the same in every language (an id, a player's deck name): a text
    with no catalogue entry."""
    return Text(m="{words}", a={"words": words})


def joined(texts: list[Text], separator: str) -> Text:
    """Texts one after another with ``separator`` between them ("A · B"), each in the
    reader's language (a list value would join them as the language joins a list)."""
    if not texts:
        return verbatim("")
    between = separator.replace("{", "{{").replace("}", "}}")
    return Text(m=between.join(f"{{t{i}}}" for i in range(len(texts))), a={f"t{i}": t for i, t in enumerate(texts)})


def card_name(card: str) -> Text:
    """The name of the card with id ``card`` (an id no card has: the id itself)."""
    wording = _WORDING.get(card)
    return msg.data("card name", wording[0]) if wording is not None else verbatim(card)


def card_text(card: str) -> Text:
    """The ability text of the card with id ``card`` (empty when it has none)."""
    wording = _WORDING.get(card)
    return msg.data("card text", wording[1]) if wording is not None and wording[1] else verbatim("")


def token_name(token: Token) -> Text:
    """The name of a character or weapon an ability creates."""
    return msg.data("card name", token.name_en)


def card_entries() -> list[tuple[str, str]]:
    """Every (context, English wording) of the cards' names and texts, for the catalogues
    (rules.guerra_de_mitos.decks.catalogue_entries adds the ready decks' names)."""
    out: list[tuple[str, str]] = []
    for name, text in _WORDING.values():
        out.append(("card name", name))
        if text:
            out.append(("card text", text))
    for tok in sorted({t.name_en for c in _CARDS.values() for t in c.tokens}):
        out.append(("card name", tok))
    return out


def cards() -> dict[str, Card]:
    """Every card by id ("0001".."0364"), in id order."""
    return _CARDS


def card(card_id: str) -> Card:
    """One card by id; KeyError when there is none."""
    return _CARDS[card_id]
