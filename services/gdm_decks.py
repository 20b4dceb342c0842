"""Guerra de Mitos deck building: players' decks checked against the construction rules.

Every change goes through here: the card a player typed is found (in either language), the
change is checked (a card that breaks a per-card rule is refused with the rule and what to
do instead), and only then written. A deck may be saved incomplete; only a legal deck is
offered to play (``playable_decks``) or locked for a tournament (``lock_deck``).
Nothing here imports discord: the cog turns these results into messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rules.catalogue import catalogues
from rules.core import RuleError, Text
from rules.guerra_de_mitos.card_search import by_name, search_names, suggest
from rules.guerra_de_mitos.cards import (
    GOD_DECK_TYPES,
    MYTHOLOGY_NAME,
    Card,
    card_name,
    cards,
    fold,
    joined,
    verbatim,
)
from rules.guerra_de_mitos.decks import (
    MAX_BATTLE,
    MAX_COPIES,
    Deck,
    DeckFormatError,
    DeckProblem,
    export_code,
    export_list,
    import_code,
    import_list,
    ready_decks,
    validate,
)
from rules.phrases import Phrases
from storage.decks import MAX_DECKS, MAX_NAME, DeckLock, DeckNameTaken, DeckRow, TooManyDecks
from storage.errors import StaleVersion
from storage.store import Store

msg = Phrases("guerra_de_mitos")

# The rules that concern one card (copies, Batalla, mythology): adding a card that breaks
# one of them is refused; sizes and a missing pantheon only say the deck is not finished.
PER_CARD = frozenset({"one_copy", "copies", "other_mythology", "battle_limit"})
MAX_COUNT = 99  # copies named in one add or remove
# What an import may hold: a deck is about 50 lines (a pantheon, 30 to 40 design cards and
# a dozen gods) of a few dozen characters; a share code is far shorter. The caps keep
# reading a pasted wall of text to milliseconds, on the event loop.
MAX_IMPORT_CHARS = 4000  # the import box's own limit
MAX_IMPORT_LINES = 150
_RETRIES = 5  # a deck changed by another command in between: read it again and redo


class DeckRefusal(RuleError):
    """A deck change refused: the message says why and what would work, in es and en."""


def _refuse(text: Text) -> DeckRefusal:
    return DeckRefusal(text)


# ----------------------------------------------------------------------------- reading


def to_deck(pantheon: str | None, counts: dict[str, int]) -> Deck:
    """The rules' Deck for stored counts; an unknown card id stays (validate names it)."""
    god: dict[str, int] = {}
    design: dict[str, int] = {}
    catalogue = cards()
    for cid, n in counts.items():
        c = catalogue.get(cid)
        (design if c is not None and c.type not in GOD_DECK_TYPES else god)[cid] = n
    return Deck(pantheon=pantheon, god=god, design=design)


def row_deck(row: DeckRow) -> Deck:
    """The rules' Deck a stored deck stands for."""
    return to_deck(row.pantheon, row.cards)


def find_card(text: str) -> Card:
    """The card a player typed: its id (autocomplete), its name in either language, or the
    one card whose name contains the text; DeckRefusal with close names otherwise."""
    raw = (text or "").strip()
    if raw in cards():
        return cards()[raw]
    found = by_name(raw)
    if found is not None:
        return found
    hits = search_names(raw, None, limit=2) if fold(raw) else []
    if len(hits) == 1:
        return hits[0]
    close = [card_name(c.id) for c in suggest(raw)] if raw else []
    if close:
        raise _refuse(msg('There is no card called "{name}". Did you mean {cards}? Pick one from the '
                          "list as you type.", name=raw[:60], cards=joined(close, ", ")))
    raise _refuse(msg('There is no card called "{name}". Pick one from the list as you type.', name=raw[:60]))


def added_problems(deck: Deck, card_id: str, count: int) -> list[DeckProblem]:
    """The per-card rules that adding ``count`` copies of a card would newly break."""
    before = {(p.rule, p.card_id) for p in validate(deck)}
    after = validate(deck.with_card(card_id, count))
    return [p for p in after if p.rule in PER_CARD and (p.rule, p.card_id) not in before]


def _why_not(deck: Deck, c: Card, count: int, problem: DeckProblem) -> Text:
    """A refused addition in words: the rule, then what the player may do instead."""
    have = deck.counts().get(c.id, 0)
    card = card_name(c.id)
    if problem.rule == "one_copy":
        if c.is_god:
            if have:
                return msg("{card}: only one copy of a god; the deck already has it.", card=card)
            return msg("{card}: only one copy of a god; add just 1.", card=card)
        if have:
            return msg("{card}: only one copy of a unique card; the deck already has it.", card=card)
        return msg("{card}: only one copy of a unique card; add just 1.", card=card)
    if problem.rule == "copies":
        room = MAX_COPIES - have
        if room <= 0:
            return msg("{card}: at most {most} copies of a card; the deck already has {have}.",
                       card=card, most=MAX_COPIES, have=have)
        return msg("{card}: at most {most} copies of a card; you may add {room} at most.",
                   card=card, most=MAX_COPIES, room=room)
    if problem.rule == "other_mythology" and c.keyed_to is not None:
        mine = cards()[deck.pantheon].mythology if deck.pantheon in cards() else None
        return msg("{card}: it carries the key of the {card_mythology} mythology and the deck's pantheon is "
                   "{pantheon_mythology}; choose a card of your mythology or change pantheon.", card=card,
                   card_mythology=MYTHOLOGY_NAME[c.keyed_to],
                   pantheon_mythology=MYTHOLOGY_NAME[mine] if mine else verbatim("-"))
    if problem.rule == "battle_limit":
        battle = sum(
            n for cid, n in deck.counts().items() if cid in cards() and cards()[cid].is_battle
        )
        room = MAX_BATTLE - battle
        if room <= 0:
            return msg("{card}: at most {most} cards with the Battle key and the deck has {battle}; remove a "
                       "Battle card first.", card=card, most=MAX_BATTLE, battle=battle)
        return msg("{card}: at most {most} cards with the Battle key and the deck has {battle}; you may add "
                   "{room} at most.", card=card, most=MAX_BATTLE, battle=battle, room=room)
    return problem.text


def can_add_count(deck: Deck, card_id: str, count: int = 1) -> bool:
    """Whether ``count`` more copies of a card keep every per-card rule of the deck."""
    c = cards().get(card_id)
    if c is None:
        return False
    return c.type == "pantheon" or not added_problems(deck, card_id, count)


def parse_import(text: str) -> Deck:
    """The deck a share code or a plain list describes; DeckFormatError says what is wrong.

    A list typed on one line (a slash command's box) may separate its entries with ";" or
    "," (no card name holds either). Longer texts than MAX_IMPORT_CHARS, and lists of more
    than MAX_IMPORT_LINES entries, are refused before any card is looked up.
    """
    raw = (text or "").strip()
    if not raw:
        raise DeckFormatError(msg("Paste a deck code or a list of cards."))
    if len(raw) > MAX_IMPORT_CHARS:
        raise DeckFormatError(msg("A deck to import has at most {most} characters and this one has {length}: "
                                  "paste its share code, or a shorter list.", most=MAX_IMPORT_CHARS,
                                  length=len(raw)))
    code_error: DeckFormatError | None = None
    if "\n" not in raw and re.fullmatch(r"[0-9A-Za-z\-_. ]{8,}", raw):
        # one line of letters and digits: a share code (perhaps in groups), unless it reads
        # as a list ("2 Hacha", or a card's name alone)
        try:
            return import_code(raw)
        except DeckFormatError as exc:
            code_error = exc
    if "\n" not in raw:
        raw = "\n".join(part for part in re.split(r"[;,]", raw))
    lines = sum(1 for line in raw.splitlines() if line.strip())
    if lines > MAX_IMPORT_LINES:
        raise DeckFormatError(msg("A deck to import has at most {most} lines and this one has {lines}: "
                                  "paste its share code, or a shorter list.", most=MAX_IMPORT_LINES,
                                  lines=lines))
    try:
        return import_list(raw)
    except DeckFormatError:
        if code_error is not None and " " not in raw.strip():
            raise code_error from None
        raise


# ----------------------------------------------------------------------------- choices


@dataclass(frozen=True)
class DeckChoice:
    """A deck a player may play: one of their own legal decks or a ready deck."""

    key: str  # "deck:<id>" or "ready:<id>"
    name: Text
    deck: Deck


def ready_choices() -> list[DeckChoice]:
    """The ready decks that come with the game."""
    return [
        DeckChoice(key=f"ready:{rid}", name=rd.title, deck=rd.deck)
        for rid, rd in ready_decks().items()
    ]


async def playable_decks(store: Store, user_id: int) -> list[DeckChoice]:
    """The legal decks of ``user_id`` (their own only; incomplete or illegal ones left out)."""
    out = []
    for row in await store.user_decks(user_id):
        deck = row_deck(row)
        if not validate(deck):
            out.append(DeckChoice(key=f"deck:{row.id}", name=verbatim(row.name), deck=deck))
    return out


async def deck_menu(store: Store, user_id: int, current: str = "") -> list[DeckChoice]:
    """What a player may pick in a lobby, for a menu or autocomplete: their legal decks
    first, then the ready decks, those whose name (either language) holds ``current``."""
    q = fold(current or "")
    out = [*await playable_decks(store, user_id), *ready_choices()]
    languages = catalogues().languages
    return [c for c in out if any(q in fold(c.name.get(lang)) for lang in languages)]


async def deck_choice(store: Store, user_id: int, key: str) -> DeckChoice:
    """The deck ``key`` names for ``user_id`` (one of their legal decks or a ready deck);
    DeckRefusal when it is not theirs, does not exist or cannot be played."""
    kind, _, ident = key.partition(":")
    if kind == "ready" and ident in ready_decks():
        rd = ready_decks()[ident]
        return DeckChoice(key=key, name=rd.title, deck=rd.deck)
    # (an id of more than 18 digits names no deck: it would not fit the store's integers)
    mine = kind == "deck" and ident.isdigit() and len(ident) <= 18
    row = await store.get_deck(int(ident)) if mine else None
    if row is None or row.user_id != user_id:
        raise _refuse(
            msg("That deck does not exist or is not yours: choose one of your decks or a ready deck."),
        )
    deck = row_deck(row)
    problems = validate(deck)
    if problems:
        raise _refuse(msg('"{deck}" cannot be played yet: {problems}', deck=row.name,
                          problems=joined([p.text for p in problems], " · ")))
    return DeckChoice(key=key, name=verbatim(row.name), deck=deck)


async def lock_deck(store: Store, tournament: int, user_id: int, key: str) -> DeckLock:
    """Lock the deck ``key`` for ``user_id`` in ``tournament`` (a copy: later edits of the
    deck change nothing there); DeckRefusal unless it is theirs and legal."""
    choice = await deck_choice(store, user_id, key)
    return await store.lock_deck(
        tournament,
        user_id,
        source=choice.key,
        # the name as locks always stored it (a ready deck's in Spanish)
        name=choice.name.get("es"),  # one language: as locks were always stored
        pantheon=choice.deck.pantheon,
        cards=choice.deck.counts(),
    )


async def locked_deck(store: Store, tournament: int, user_id: int) -> Deck | None:
    """The deck ``user_id`` locked for ``tournament``, or None."""
    lock = await store.deck_lock(tournament, user_id)
    return None if lock is None else to_deck(lock.pantheon, lock.cards)


# ----------------------------------------------------------------------------- changes


@dataclass(frozen=True)
class Change:
    """A deck after a change: the stored row, the rules' deck and what it still lacks."""

    row: DeckRow
    deck: Deck
    problems: list[DeckProblem]


def _change(row: DeckRow) -> Change:
    deck = row_deck(row)
    return Change(row=row, deck=deck, problems=validate(deck))


def _name_taken(name: str) -> DeckRefusal:
    return _refuse(
        msg('You already have a deck called "{name}": choose another name (or delete that one first).',
            name=name),
    )


def _bad_name() -> DeckRefusal:
    return _refuse(
        msg("A deck's name has 1 to {most} characters.", most=MAX_NAME),
    )


def _too_many() -> DeckRefusal:
    return _refuse(
        msg("You already have {most} decks, the most allowed: delete one before creating another.",
            most=MAX_DECKS),
    )


def _count(count: int) -> None:
    if not 1 <= count <= MAX_COUNT:
        raise _refuse(
            msg("The number of copies goes from 1 to {most}.", most=MAX_COUNT),
        )


class DeckBook:
    """One player's decks as the /gdm deck commands see them."""

    def __init__(self, store: Store) -> None:
        """Work on ``store``."""
        self.store = store

    async def decks(self, user_id: int) -> list[DeckRow]:
        """Every deck of ``user_id``, by name."""
        return await self.store.user_decks(user_id)

    async def get(self, user_id: int, name: str) -> DeckRow:
        """``user_id``'s deck called ``name``; DeckRefusal naming their decks otherwise."""
        row = await self.store.find_deck(user_id, name or "")
        if row is not None:
            return row
        names = [r.name for r in await self.store.user_decks(user_id)]
        if not names:
            raise _refuse(
                msg("You have no decks yet: create one with /gdm deck create (or import one)."),
            )
        listed = ", ".join(names[:15])
        raise _refuse(
            msg('You have no deck called "{name}". Your decks: {decks}.', name=(name or "")[:60], decks=listed),
        )

    async def create(self, user_id: int, name: str, *, deck: Deck | None = None) -> Change:
        """A new deck (empty, or ``deck``'s cards) for ``user_id``."""
        try:
            row = await self.store.create_deck(
                user_id,
                name,
                pantheon=deck.pantheon if deck else None,
                cards=deck.counts() if deck else None,
            )
        except DeckNameTaken:
            raise _name_taken(" ".join(name.split())) from None
        except TooManyDecks:
            raise _too_many() from None
        except ValueError:
            raise _bad_name() from None
        return _change(row)

    async def rename(self, user_id: int, name: str, new_name: str) -> Change:
        """Give one of ``user_id``'s decks a new name."""
        return await self._edit(user_id, name, lambda row: {"name": new_name})

    async def copy(self, user_id: int, name: str, new_name: str) -> Change:
        """A copy of one of ``user_id``'s decks under a new name."""
        row = await self.get(user_id, name)
        return await self.create(user_id, new_name, deck=row_deck(row))

    async def delete(self, user_id: int, name: str) -> DeckRow:
        """Delete one of ``user_id``'s decks; returns it as it was."""
        row = await self.get(user_id, name)
        await self.store.delete_deck(row.id, user_id)
        return row

    async def set_pantheon(self, user_id: int, name: str, card_text: str) -> Change:
        """Set the deck's pantheon (cards of another mythology stay, and are named as problems)."""
        c = find_card(card_text)
        if c.type != "pantheon":
            pantheons = [card_name(p.id) for p in cards().values() if p.type == "pantheon"]
            raise _refuse(msg("{card} is not a pantheon. The pantheons are: {pantheons}.",
                              card=card_name(c.id), pantheons=joined(pantheons, ", ")))
        return await self._edit(user_id, name, lambda row: {"pantheon": c.id})

    async def add(self, user_id: int, name: str, card_text: str, count: int = 1) -> Change:
        """Add ``count`` copies of a card (a pantheon card sets the pantheon); refused, with
        the rule and the fix, when a per-card rule would break."""
        _count(count)
        c = find_card(card_text)
        if c.type == "pantheon":
            return await self.set_pantheon(user_id, name, c.id)

        def change(row: DeckRow) -> dict[str, object]:
            deck = row_deck(row)
            problems = added_problems(deck, c.id, count)
            if problems:
                raise _refuse(msg("Not added: {why}", why=_why_not(deck, c, count, problems[0])))
            counts = dict(row.cards)
            counts[c.id] = counts.get(c.id, 0) + count
            return {"cards": counts}

        return await self._edit(user_id, name, change)

    async def remove(self, user_id: int, name: str, card_text: str, count: int = 1) -> Change:
        """Take ``count`` copies of a card out (the pantheon card clears the pantheon)."""
        _count(count)
        c = find_card(card_text)

        def change(row: DeckRow) -> dict[str, object]:
            if c.type == "pantheon":
                if row.pantheon != c.id:
                    raise _refuse(msg('{card} is not the pantheon of "{deck}".', card=card_name(c.id), deck=row.name))
                return {"pantheon": None}
            have = row.cards.get(c.id, 0)
            if have == 0:
                raise _refuse(msg('{card} is not in "{deck}".', card=card_name(c.id), deck=row.name))
            if count > have:
                raise _refuse(msg('"{deck}" has only {have} of {card}: remove {have} at most.',
                                  deck=row.name, have=have, card=card_name(c.id)))
            counts = dict(row.cards)
            if have == count:
                del counts[c.id]
            else:
                counts[c.id] = have - count
            return {"cards": counts}

        return await self._edit(user_id, name, change)

    async def import_deck(self, user_id: int, name: str, text: str) -> Change:
        """A new deck called ``name`` from a share code or a plain list. Unreadable text is
        refused and nothing is created; a readable deck that breaks rules is kept, with its
        problems named, and is not playable until fixed."""
        deck = parse_import(text)
        return await self.create(user_id, name, deck=deck)

    async def export(self, user_id: int, name: str, locale: str | None) -> tuple[DeckRow, str, str]:
        """One of ``user_id``'s decks as (row, share code, plain list in ``locale``)."""
        row = await self.get(user_id, name)
        deck = row_deck(row)
        try:
            code = export_code(deck)
        except DeckFormatError:
            code = ""
        return row, code, export_list(deck, locale)

    async def _edit(
        self, user_id: int, name: str, change: Callable[[DeckRow], dict[str, object]]
    ) -> Change:
        """Apply ``change`` to the deck as it is now; a deck changed meanwhile is read again."""
        for _ in range(_RETRIES):
            row = await self.get(user_id, name)
            fields = change(row)
            try:
                new = await self.store.update_deck(row.id, user_id, version=row.version, **fields)  # type: ignore[arg-type]
            except StaleVersion:
                continue
            except DeckNameTaken:
                raise _name_taken(" ".join(str(fields.get("name", "")).split())) from None
            except ValueError:
                raise _bad_name() from None
            return _change(new)
        raise _refuse(
            msg("The deck changed meanwhile; try again."),
        )
