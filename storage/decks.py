"""Guerra de Mitos decks in the store: each player's decks and the decks locked for tournaments.

The store keeps decks as names, a pantheon and card counts; it knows nothing of the
construction rules (services/gdm_decks.py checks them before anything is written).
"""

from __future__ import annotations

import json
import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .dialect import IntegrityError, game_locks
from .errors import StaleVersion, StoreError

DECK_COLUMNS = "id, user_id, name, pantheon, version, created_at, updated_at"
LOCK_COLUMNS = "tournament, user_id, source, name, pantheon, cards, locked_at"
MAX_DECKS = 100  # decks one player may keep
MAX_NAME = 60  # characters in a deck's name
_KEEP: Any = object()


class UnknownDeck(StoreError, LookupError):
    """No deck of that player has that id (or name)."""


class DeckNameTaken(StoreError):
    """The player already has a deck with that name."""


class TooManyDecks(StoreError):
    """The player already keeps MAX_DECKS decks."""


@dataclass(frozen=True)
class DeckRow:
    """One player's deck: its name, pantheon (a card id or None) and cards (id -> copies)."""

    id: int
    user_id: int
    name: str
    pantheon: str | None
    cards: dict[str, int]
    version: int
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class DeckLock:
    """The deck an entrant plays a tournament with, copied at sign-up."""

    tournament: int
    user_id: int
    source: str  # "deck:<id>" or "ready:<id>"
    name: str
    pantheon: str | None
    cards: dict[str, int]
    locked_at: float


def name_key(name: str) -> str:
    """The form of a deck name that must be unique per player: no case, accents or extra spaces."""
    t = unicodedata.normalize("NFKD", name)
    t = "".join(c for c in t if not unicodedata.combining(c))
    return " ".join(t.casefold().split())


def clean_name(name: str) -> str:
    """A deck name as stored: spaces trimmed and collapsed; ValueError when empty or too long."""
    clean = " ".join((name or "").split())
    if not clean or len(clean) > MAX_NAME:
        raise ValueError(f"a deck name has 1 to {MAX_NAME} characters")
    return clean


def _deck(r: Sequence[Any], cards: dict[str, int]) -> DeckRow:
    return DeckRow(
        id=r[0],
        user_id=r[1],
        name=r[2],
        pantheon=r[3],
        cards=cards,
        version=r[4],
        created_at=r[5],
        updated_at=r[6],
    )


def _lock(r: Sequence[Any]) -> DeckLock:
    return DeckLock(
        tournament=r[0],
        user_id=r[1],
        source=r[2],
        name=r[3],
        pantheon=r[4],
        cards=json.loads(r[5]),
        locked_at=r[6],
    )


def _check_cards(cards: Mapping[str, int]) -> dict[str, int]:
    out = {}
    for cid, n in cards.items():
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"card {cid}: copies must be a positive integer")
        out[str(cid)] = n
    return dict(sorted(out.items()))


class DeckQueries:
    """The store's deck methods (mixed into Store, which provides _write and _fetchall)."""

    async def _cards_of(self, ids: list[int]) -> dict[int, dict[str, int]]:
        out: dict[int, dict[str, int]] = {i: {} for i in ids}
        if not ids:
            return out
        marks = ", ".join("?" for _ in ids)
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT deck, card, copies FROM gdm_deck_cards WHERE deck IN ({marks}) ORDER BY deck, card",
            tuple(ids),
        )
        for deck, card, copies in rows:
            out[deck][card] = copies
        return out

    async def user_decks(self, user_id: int) -> list[DeckRow]:
        """Every deck of ``user_id``, by name."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {DECK_COLUMNS} FROM gdm_decks WHERE user_id = ? ORDER BY name_key", (user_id,)
        )
        cards = await self._cards_of([r[0] for r in rows])
        return [_deck(r, cards[r[0]]) for r in rows]

    async def get_deck(self, deck_id: int) -> DeckRow | None:
        """The deck with that id, or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {DECK_COLUMNS} FROM gdm_decks WHERE id = ?", (deck_id,)
        )
        if not rows:
            return None
        return _deck(rows[0], (await self._cards_of([deck_id]))[deck_id])

    async def find_deck(self, user_id: int, name: str) -> DeckRow | None:
        """``user_id``'s deck called ``name`` (case, accents and spaces aside), or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT id FROM gdm_decks WHERE user_id = ? AND name_key = ?", (user_id, name_key(name))
        )
        return await self.get_deck(rows[0][0]) if rows else None

    async def create_deck(
        self,
        user_id: int,
        name: str,
        *,
        pantheon: str | None = None,
        cards: Mapping[str, int] | None = None,
        max_decks: int = MAX_DECKS,
    ) -> DeckRow:
        """A new deck for ``user_id``; DeckNameTaken, TooManyDecks, ValueError for a bad name."""
        name = clean_name(name)
        counts = _check_cards(cards or {})
        now = time.time()
        async with self._write(locks=(("user", user_id),)) as db:  # type: ignore[attr-defined]
            n = list(
                await db.execute_fetchall(
                    "SELECT COUNT(*) FROM gdm_decks WHERE user_id = ?", (user_id,)
                )
            )[0][0]
            if n >= max_decks:
                raise TooManyDecks(f"user {user_id} already has {n} decks")
            try:
                rows = await db.execute_fetchall(
                    "INSERT INTO gdm_decks (user_id, name, name_key, pantheon, version, created_at,"
                    f" updated_at) VALUES (?, ?, ?, ?, 0, ?, ?) RETURNING {DECK_COLUMNS}",
                    (user_id, name, name_key(name), pantheon, now, now),
                )
            except IntegrityError as e:
                raise DeckNameTaken(f"user {user_id} already has a deck called {name!r}") from e
            row = list(rows)[0]
            await db.executemany(
                "INSERT INTO gdm_deck_cards (deck, card, copies) VALUES (?, ?, ?)",
                [(row[0], c, k) for c, k in counts.items()],
            )
            return _deck(row, counts)

    async def update_deck(
        self,
        deck_id: int,
        user_id: int,
        *,
        version: int,
        name: str = _KEEP,
        pantheon: str | None = _KEEP,
        cards: Mapping[str, int] | None = None,
    ) -> DeckRow:
        """Change a deck's name, pantheon and/or whole card list, if it is still at ``version``.

        UnknownDeck when ``user_id`` has no such deck, StaleVersion when it changed since it
        was read, DeckNameTaken when another of their decks has the new name.
        """
        async with self._write(locks=(("user", user_id),)) as db:  # type: ignore[attr-defined]
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {DECK_COLUMNS} FROM gdm_decks WHERE id = ? AND user_id = ?",
                    (deck_id, user_id),
                )
            )
            if not rows:
                raise UnknownDeck(f"user {user_id} has no deck {deck_id}")
            if rows[0][4] != version:
                raise StaleVersion(f"deck {deck_id} is at version {rows[0][4]}, not {version}")
            new_name = rows[0][2] if name is _KEEP else clean_name(name)
            new_pantheon = rows[0][3] if pantheon is _KEEP else pantheon
            now = time.time()
            try:
                await db.execute(
                    "UPDATE gdm_decks SET name = ?, name_key = ?, pantheon = ?, version = version + 1,"
                    " updated_at = ? WHERE id = ?",
                    (new_name, name_key(new_name), new_pantheon, now, deck_id),
                )
            except IntegrityError as e:
                raise DeckNameTaken(f"user {user_id} already has a deck called {new_name!r}") from e
            if cards is not None:
                counts = _check_cards(cards)
                await db.execute("DELETE FROM gdm_deck_cards WHERE deck = ?", (deck_id,))
                await db.executemany(
                    "INSERT INTO gdm_deck_cards (deck, card, copies) VALUES (?, ?, ?)",
                    [(deck_id, c, k) for c, k in counts.items()],
                )
            else:
                got = await db.execute_fetchall(
                    "SELECT card, copies FROM gdm_deck_cards WHERE deck = ? ORDER BY card",
                    (deck_id,),
                )
                counts = {c: k for c, k in got}
            r = rows[0]
            return DeckRow(
                id=deck_id,
                user_id=user_id,
                name=new_name,
                pantheon=new_pantheon,
                cards=counts,
                version=version + 1,
                created_at=r[5],
                updated_at=now,
            )

    async def copy_deck(self, deck_id: int, user_id: int, new_name: str) -> DeckRow:
        """A copy of ``user_id``'s deck under a new name."""
        source = await self.get_deck(deck_id)
        if source is None or source.user_id != user_id:
            raise UnknownDeck(f"user {user_id} has no deck {deck_id}")
        return await self.create_deck(
            user_id, new_name, pantheon=source.pantheon, cards=source.cards
        )

    async def delete_deck(self, deck_id: int, user_id: int) -> None:
        """Delete one of ``user_id``'s decks (its cards go with it); UnknownDeck if none."""
        async with self._write(locks=(("user", user_id),)) as db:  # type: ignore[attr-defined]
            async with db.execute(
                "DELETE FROM gdm_decks WHERE id = ? AND user_id = ?", (deck_id, user_id)
            ) as cur:
                if cur.rowcount != 1:
                    raise UnknownDeck(f"user {user_id} has no deck {deck_id}")

    # ------------------------------------------------------------------ tournament locks

    async def lock_deck(
        self,
        tournament: int,
        user_id: int,
        *,
        source: str,
        name: str,
        pantheon: str | None,
        cards: Mapping[str, int],
    ) -> DeckLock:
        """Record the deck ``user_id`` plays ``tournament`` with (replacing an earlier choice)."""
        counts = _check_cards(cards)
        now = time.time()
        async with self._write(locks=(("user", user_id),)) as db:  # type: ignore[attr-defined]
            await db.execute(
                "DELETE FROM gdm_deck_locks WHERE tournament = ? AND user_id = ?",
                (tournament, user_id),
            )
            await db.execute(
                f"INSERT INTO gdm_deck_locks ({LOCK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tournament, user_id, source, name, pantheon, json.dumps(counts), now),
            )
        return DeckLock(tournament, user_id, source, name, pantheon, counts, now)

    async def deck_lock(self, tournament: int, user_id: int) -> DeckLock | None:
        """The deck ``user_id`` locked for ``tournament``, or None."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {LOCK_COLUMNS} FROM gdm_deck_locks WHERE tournament = ? AND user_id = ?",
            (tournament, user_id),
        )
        return _lock(rows[0]) if rows else None

    async def deck_locks(self, tournament: int) -> list[DeckLock]:
        """Every deck locked for ``tournament``, by user id."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            f"SELECT {LOCK_COLUMNS} FROM gdm_deck_locks WHERE tournament = ? ORDER BY user_id",
            (tournament,),
        )
        return [_lock(r) for r in rows]

    # ------------------------------------------------------------------ lobby choices

    async def choose_lobby_deck(self, game: int, user_id: int, source: str) -> None:
        """Record the deck ``user_id`` will play ``game`` with (replacing an earlier choice)."""
        now = time.time()
        async with self._write(locks=game_locks(game)) as db:  # type: ignore[attr-defined]
            await db.execute(
                "DELETE FROM gdm_lobby_decks WHERE game = ? AND user_id = ?", (game, user_id)
            )
            await db.execute(
                "INSERT INTO gdm_lobby_decks (game, user_id, source, chosen_at) VALUES (?, ?, ?, ?)",
                (game, user_id, source, now),
            )

    async def lobby_decks(self, game: int) -> dict[int, str]:
        """The deck each player of ``game``'s lobby chose: user id -> 'deck:<id>' / 'ready:<id>'."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT user_id, source FROM gdm_lobby_decks WHERE game = ? ORDER BY user_id", (game,)
        )
        return {r[0]: r[1] for r in rows}

    async def open_lobby_decks(self) -> dict[int, dict[int, str]]:
        """The choices of every game still in its lobby: game -> user id -> source."""
        rows = await self._fetchall(  # type: ignore[attr-defined]
            "SELECT d.game, d.user_id, d.source FROM gdm_lobby_decks d"
            " JOIN games g ON g.id = d.game WHERE g.status = 'lobby' ORDER BY d.game, d.user_id"
        )
        out: dict[int, dict[int, str]] = {}
        for game, user, source in rows:
            out.setdefault(game, {})[user] = source
        return out
