"""Guerra de Mitos decks at the table: each player's private choice in a game's lobby, fixed
into the game's options when it starts, and the deck an entrant locks for a tournament.

A choice is stored as the deck's name in the store ('deck:<id>' or 'ready:<id>'); when the
game starts the list itself is read, checked once more and written into the game's options
(``decks``, one entry per seat), so the engine deals it, the replay deals it again, and a
deck edited afterwards changes nothing in the game. Before the game no one but its owner
sees a list: the lobby only says who has chosen. Nothing here imports discord.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import Text
from rules.guerra_de_mitos.cards import verbatim
from rules.guerra_de_mitos.decks import Deck, ready_decks
from rules.guerra_de_mitos.model import DeckSpec
from rules.phrases import Phrases
from services.gdm_decks import DeckChoice, DeckRefusal, deck_choice, locked_deck
from services.session import Game, NotSeated, SessionService
from services.tournament import TournamentService
from storage.decks import DeckLock
from storage.tournaments import (
    AlreadyEntered,
    MatchRow,
    NotInSignup,
    TournamentFull,
    TournamentRow,
)

msg = Phrases("guerra_de_mitos")

GAME_ID = "guerra_de_mitos"


def deck_spec(deck: Deck) -> DeckSpec:
    """The engine's deck (a list of card ids per deck, one per copy) for a rules' Deck."""
    if deck.pantheon is None:
        raise ValueError("a deck without a pantheon cannot be dealt")
    gods = [c for c, n in deck.god.items() for _ in range(n)]
    designs = [c for c, n in deck.design.items() for _ in range(n)]
    return DeckSpec(pantheon=deck.pantheon, gods=gods, designs=designs)


def ready_name(ident: str) -> Text:
    """A ready deck's name (its id when there is no such deck)."""
    rd = ready_decks().get(ident)
    return rd.title if rd is not None else verbatim(ident)


@dataclass(frozen=True)
class SeatDeck:
    """What a lobby may say of a seat's deck, and nothing more: never the list.

    ``kind``: 'chosen' (its player chose privately), 'locked' (fixed by a tournament),
    'ready' (a ready deck named when the game was created: public), 'random' (none yet: a
    ready deck picked from the seed when the game starts).
    """

    kind: str
    ready: Text | None = None


def _preset(g: Game, seat: int) -> Any:
    decks = g.row.options.get("decks") or []
    return decks[seat] if seat < len(decks) else None


def _refuse(text: Text) -> DeckRefusal:
    return DeckRefusal(text)


class GdmLobby:
    """The decks of Guerra de Mitos lobbies: who chose what (privately), fixed at the start.

    Lobby messages are drawn without waiting on the store, so the choices of the games in
    their lobby are kept here too (loaded by ``load``, written through by ``choose``).
    """

    def __init__(self, session: SessionService) -> None:
        """Work on ``session``'s games and store."""
        self.session = session
        self.store = session.store
        self._chosen: dict[int, dict[int, str]] = {}

    async def load(self) -> None:
        """Read the choices of every game still in its lobby (at start-up)."""
        self._chosen = await self.store.open_lobby_decks()

    def seat_deck(self, g: Game, seat: int) -> SeatDeck:
        """What the lobby shows of ``seat``'s deck (never which deck a player chose)."""
        preset = _preset(g, seat)
        if isinstance(preset, dict):
            return SeatDeck("locked")
        row = g.seat_row(seat)
        if not row.ai and row.user_id in self._chosen.get(g.id, {}):
            return SeatDeck("chosen")
        if isinstance(preset, str):
            return SeatDeck("ready", ready_name(preset))
        return SeatDeck("random")

    async def current(self, game: int, user_id: int) -> DeckChoice | None:
        """The deck ``user_id`` has chosen for ``game`` (None if none, or no longer playable)."""
        key = (await self.store.lobby_decks(game)).get(user_id)
        if key is None:
            return None
        try:
            return await deck_choice(self.store, user_id, key)
        except DeckRefusal:
            return None

    async def choose(self, game: int, user_id: int, key: str) -> tuple[Game, DeckChoice]:
        """Choose, privately, the deck ``user_id`` plays ``game`` with: one of their legal
        decks or a ready deck. Refused (nothing changes) for a game that is not Guerra de
        Mitos, not in its lobby, not theirs, a seat whose deck a tournament fixed, or a deck
        that is not theirs, does not exist or cannot be played."""
        async with self.session.lock(game):
            g = await self.session.require(game)
            if g.row.game_id != GAME_ID:
                raise _refuse(
                    msg("This channel's game is not Guerra de Mitos."),
                )
            if g.status != "lobby":
                raise _refuse(
                    msg("The game has already started: the decks were fixed when it began."),
                )
            seat = g.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if isinstance(_preset(g, seat), dict):
                raise _refuse(
                    msg("Your deck for this game is the one you locked when you signed up for the "
                        "tournament."),
                )
            choice = await deck_choice(self.store, user_id, key)
            await self.store.choose_lobby_deck(game, user_id, choice.key)
            self._chosen.setdefault(game, {})[user_id] = choice.key
            return g, choice

    async def start_options(self, g: Game) -> dict[str, Any]:
        """The game's options with each chosen deck's list fixed in (the session calls this
        as the game starts, inside the game's lock). A seat whose player chose nothing keeps
        the deck named at /game new, or gets a ready deck picked from the seed; bot seats
        likewise. Refused, naming them, when a chosen deck can no longer be played."""
        picks = await self.store.lobby_decks(g.id)
        n = len(g.seats)
        decks: list[Any] = [_preset(g, s) for s in range(n)]
        lost: list[str] = []
        for row in g.seats:
            key = picks.get(row.user_id) if not row.ai and row.user_id is not None else None
            if key is None or isinstance(decks[row.seat], dict):
                continue
            try:
                choice = await deck_choice(self.store, row.user_id, key)  # type: ignore[arg-type]
            except DeckRefusal:
                lost.append(row.name)
                continue
            decks[row.seat] = deck_spec(choice.deck).model_dump(mode="json")
        if lost:
            raise _refuse(
                msg.n(len(lost), "The game cannot start yet: the deck {players} chose can no longer be played "
                      "(it was deleted or changed). They must choose another with “Choose deck”.",
                      "The game cannot start yet: the decks {players} chose can no longer be played (they "
                      "were deleted or changed). They must each choose another with “Choose deck”.",
                      players=list(lost)),
            )
        return {**g.row.options, "decks": decks}


# ----------------------------------------------------------------------------- tournaments


async def sign_up(
    tournaments: TournamentService, tournament: int, user_id: int, name: str, key: str
) -> tuple[DeckLock, bool]:
    """Sign ``user_id`` up for a Guerra de Mitos tournament with the deck ``key`` locked (a
    copy: later edits of the deck change nothing there), or, already signed up, change the
    locked deck; only while sign-up is open. Returns the lock and whether they were new."""
    store = tournaments.store
    choice = await deck_choice(store, user_id, key)
    async with tournaments.lock(tournament):
        t = await tournaments.require(tournament)
        if t.game_id != GAME_ID:
            raise _refuse(
                msg("That tournament is not of Guerra de Mitos: it needs no deck."),
            )
        held = await store.deck_lock(tournament, user_id)
        if t.status != "signup":
            if held is not None:
                raise _refuse(
                    msg('The tournament has started: your deck stays "{name}".', name=held.name),
                )
            raise _refuse(
                msg("Sign-up for this tournament is closed."),
            )
        entrants = await tournaments.store.entrants(tournament)
        new = all(e.user_id != user_id for e in entrants)
        if new:
            try:
                await tournaments.store.enter_tournament(tournament, user_id, name)
            except AlreadyEntered:
                new = False
            except TournamentFull:
                raise _refuse(msg("The tournament is full.")) from None
            except NotInSignup:
                raise _refuse(
                    msg("Sign-up for this tournament is closed."),
                ) from None
        lock = await store.lock_deck(
            tournament,
            user_id,
            source=choice.key,
            name=choice.name.get("es"),  # one language: as locks were always stored
            pantheon=choice.deck.pantheon,
            cards=choice.deck.counts(),
        )
    return lock, new


async def table_options(
    tournaments: TournamentService, tournament: TournamentRow, match: MatchRow
) -> dict[str, Any]:
    """The options of a tournament table's game: each player's locked deck in their seat
    (the match's order is the seat order). An entrant without a lock (a crash between the
    sign-up and the lock) gets a ready deck picked from the seed."""
    decks: list[Any] = []
    for user in match.user_ids:
        deck = await locked_deck(tournaments.store, tournament.id, user)
        decks.append(None if deck is None else deck_spec(deck).model_dump(mode="json"))
    return {**tournament.options, "decks": decks}


__all__ = ["GAME_ID", "GdmLobby", "SeatDeck", "deck_spec", "sign_up", "table_options"]
