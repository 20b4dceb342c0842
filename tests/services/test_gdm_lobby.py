"""Guerra de Mitos decks at the table, without Discord: each player's private choice in the
lobby is fixed into the game when it starts (a deck edited later changes nothing), no list
shows in the public view or another seat's before the game, bad choices change nothing,
and a tournament locks a copy of each entrant's deck at sign-up for every table."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.guerra_de_mitos.decks import Deck, ready_decks
from rules.guerra_de_mitos.model import BATTLE, DISCARD, GEAR, PANTHEON, GdmState
from rules.registry import engine
from services.gdm_decks import DeckBook, DeckRefusal, row_deck
from services.gdm_lobby import GAME_ID, GdmLobby, deck_spec, sign_up, table_options
from services.replay import build_record
from services.session import NotSeated, SessionService
from services.tournament import TournamentService
from storage import Store
from storage.tournaments import MatchRow, TournamentRow
from tests.rules.test_guerra_de_mitos_decks import cid, legal_decks, legal_greek

ALICE, BOB, CAROL = 1, 2, 3
E = engine(GAME_ID)
SEED = 11


def dealt(state: GdmState, seat: int) -> tuple[str, Counter[str]]:
    """The pantheon and every other card a seat was dealt (hand, oracles and deck)."""
    mine = [c for c in state.cards.values() if c.owner == seat]
    (pantheon,) = [c.card for c in mine if c.zone == PANTHEON]
    return pantheon, Counter(c.card for c in mine if c.zone != PANTHEON)


def deck_of(deck: Deck) -> tuple[str | None, Counter[str]]:
    return deck.pantheon, Counter(deck.counts())


async def refused(coro: object, *words: str) -> DeckRefusal:
    with pytest.raises(DeckRefusal) as info:
        await coro  # type: ignore[misc]
    text = info.value.text.es + " | " + info.value.text.en
    assert all(w in text for w in words), (words, text)
    assert info.value.text.es != info.value.text.en
    return info.value


@pytest.fixture
def session(store: Store) -> SessionService:
    s = SessionService(store, seed_source=lambda: SEED)
    return s


@pytest.fixture
def lobby(session: SessionService) -> GdmLobby:
    lb = GdmLobby(session)
    session.start_options[GAME_ID] = lb.start_options
    return lb


async def new_game(session: SessionService, *users: int, options: dict | None = None) -> int:
    g = await session.create(
        guild_id=1, channel_id=100 + len(session._games), game_id=GAME_ID, options=options,
        host_id=users[0], host_name=f"u{users[0]}", locale="es",
    )
    for u in users[1:]:
        await session.join(g.id, user_id=u, name=f"u{u}", locale="en")
    return g.id


async def greek_deck(store: Store, user: int, name: str = "Olímpicos") -> int:
    change = await DeckBook(store).create(user, name, deck=legal_greek())
    return change.row.id


async def test_choices_are_private_and_fixed_into_the_game_when_it_starts(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    mine = await greek_deck(store, ALICE)
    gid = await new_game(session, ALICE, BOB)
    g = await session.require(gid)
    assert [lobby.seat_deck(g, s).kind for s in (0, 1)] == ["random", "random"]

    await lobby.choose(gid, ALICE, f"deck:{mine}")
    await lobby.choose(gid, BOB, "ready:egipcia")
    await lobby.choose(gid, BOB, "ready:nordica")  # changed, before the start
    assert [lobby.seat_deck(g, s).kind for s in (0, 1)] == ["chosen", "chosen"]
    # the lobby's options say nothing of the choices
    assert g.row.options == (await store.get_game(gid)).options
    assert "deck:" not in json.dumps(g.row.options) and "nordica" not in json.dumps(g.row.options)
    assert (await lobby.current(gid, BOB)).key == "ready:nordica"

    result = await session.start(gid, by=ALICE)
    state = result.state
    assert isinstance(state, GdmState)
    assert dealt(state, 0) == deck_of(legal_greek())
    assert dealt(state, 1) == deck_of(ready_decks()["nordica"].deck)

    # the lists are fixed into the stored options (what a replay deals), hidden from view
    row = await store.get_game(gid)
    assert row.options["decks"] == [
        deck_spec(legal_greek()).model_dump(mode="json"),
        deck_spec(ready_decks()["nordica"].deck).model_dump(mode="json"),
    ]
    assert E.public_options(row.options)["decks"] == ["private", "private"]
    assert E.dump_state(E.setup(2, row.options, SEED)) == E.dump_state(state)
    # the record of a game not over (/game replay) shows the options as anyone may see them
    record = build_record(E, game=gid, options=row.options, players=["a", "b"], seed=SEED,
                          rows=[], finished=False, final=state)
    assert record["options"]["decks"] == ["private", "private"]

    # before any card is shown, neither the public view nor bob's holds alice's cards
    alices = set(legal_greek().counts()) - set(ready_decks()["nordica"].deck.counts())
    for viewer in (None, 1):
        seen = json.dumps(E.view(state, viewer).model_dump(mode="json"))
        assert not [c for c in alices if f'"{c}"' in seen], viewer

    # editing the deck now changes nothing in the game, reloaded from the store or not
    book = DeckBook(store)
    await book.remove(ALICE, "Olímpicos", cid("Hacha"), 2)
    session.forget(gid)
    again = await session.require(gid)
    assert dealt(again.state, 0) == deck_of(legal_greek())
    await refused(lobby.choose(gid, ALICE, "ready:griega"), "ya ha empezado", "already started")


async def test_bad_choices_are_refused_and_change_nothing(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    alices = await greek_deck(store, ALICE)
    book = DeckBook(store)
    unfinished = (await book.create(BOB, "A medias", deck=legal_greek().with_card(cid("Hacha"), -1))).row.id
    gone = (await book.create(BOB, "Borrado", deck=legal_greek())).row.id
    await book.delete(BOB, "Borrado")
    gid = await new_game(session, ALICE, BOB)
    await lobby.choose(gid, BOB, "ready:japonesa")
    before = await store.lobby_decks(gid)

    await refused(lobby.choose(gid, BOB, f"deck:{alices}"), "no es tuyo", "not yours")
    await refused(lobby.choose(gid, BOB, f"deck:{gone}"), "no existe", "does not exist")
    await refused(lobby.choose(gid, BOB, f"deck:{unfinished}"), "no se puede jugar", "cannot be played")
    for garbage in ("", "xyz", "ready:atlantida", "deck:", "deck:-3", "deck:" + "9" * 40):
        await refused(lobby.choose(gid, BOB, garbage), "no es tuyo", "not yours")
    with pytest.raises(NotSeated):
        await lobby.choose(gid, CAROL, "ready:griega")
    other = await session.create(
        guild_id=1, channel_id=999, game_id="rey_hierofante", options=None,
        host_id=BOB, host_name="u2", locale="es",
    )
    await refused(lobby.choose(other.id, BOB, "ready:griega"), "no es de Guerra de Mitos")
    assert await store.lobby_decks(gid) == before
    assert await store.lobby_decks(other.id) == {}
    assert lobby.seat_deck(await session.require(gid), 0).kind == "random"


async def test_a_chosen_deck_that_can_no_longer_be_played_stops_the_start_naming_its_player(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    mine = await greek_deck(store, ALICE)
    gid = await new_game(session, ALICE, BOB)
    await lobby.choose(gid, ALICE, f"deck:{mine}")
    await DeckBook(store).remove(ALICE, "Olímpicos", cid("Hacha"), 1)
    refusal = await refused(session.start(gid, by=ALICE), "u1", "choose another")
    assert "Elegir mazo" in refusal.text.es
    g = await session.require(gid)
    assert g.status == "lobby" and g.state is None
    assert (await store.get_game(gid)).options == g.row.options
    await lobby.choose(gid, ALICE, "ready:griega")
    result = await session.start(gid, by=ALICE)
    assert dealt(result.state, 0) == deck_of(ready_decks()["griega"].deck)


async def test_two_chosen_decks_that_can_no_longer_be_played_are_named_together(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    gid = await new_game(session, ALICE, BOB)
    for user in (ALICE, BOB):
        await lobby.choose(gid, user, f"deck:{await greek_deck(store, user)}")
        await DeckBook(store).remove(user, "Olímpicos", cid("Hacha"), 1)
    refusal = await refused(session.start(gid, by=ALICE), "u1 y u2", "u1 and u2")
    assert refusal.text.es.startswith("Aún no se puede empezar: los mazos que eligieron u1 y u2 ya no se pueden")
    assert "They must each choose another" in refusal.text.en
    assert (await session.require(gid)).status == "lobby"


async def test_the_deck_named_at_game_new_is_the_default_and_bots_get_a_ready_deck(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    gid = await new_game(session, ALICE, BOB, options={"decks": ["egipcia", "japonesa"]})
    await session.add_ai(gid, by=ALICE)
    g = await session.require(gid)
    shown = [lobby.seat_deck(g, s) for s in range(3)]
    assert [s.kind for s in shown] == ["ready", "ready", "random"]
    assert shown[0].ready.es == ready_decks()["egipcia"].name
    await lobby.choose(gid, BOB, "ready:nordica")
    assert lobby.seat_deck(g, 1).kind == "chosen"
    result = await session.start(gid, by=ALICE)
    state = result.state
    # Three players: the places are drawn at the start, and each deck follows its player.
    seat = {s.user_id: s.seat for s in await store.seats(gid)}
    bot = seat[None]
    assert dealt(state, seat[ALICE]) == deck_of(ready_decks()["egipcia"].deck)
    assert dealt(state, seat[BOB]) == deck_of(ready_decks()["nordica"].deck)
    pantheon, cards_ = dealt(state, bot)
    assert any(deck_of(rd.deck) == (pantheon, cards_) for rd in ready_decks().values())
    row = await store.get_game(gid)
    assert row.options["decks"][seat[ALICE]] == "egipcia" and row.options["decks"][bot] is None
    shown = E.public_options(row.options)["decks"]
    assert [shown[seat[ALICE]], shown[seat[BOB]], shown[bot]] == ["egipcia", "private", "random"]


class Tables:
    """A TableHost that starts each table's game through the session, as the bot does."""

    def __init__(self, session: SessionService) -> None:
        self.session = session
        self.svc: TournamentService | None = None
        self.games: list[int] = []

    async def open_table(self, tournament: TournamentRow, match: MatchRow) -> int:
        assert self.svc is not None
        g = await self.session.create(
            guild_id=tournament.guild_id, channel_id=5000 + match.id, game_id=tournament.game_id,
            options=await table_options(self.svc, tournament, match),
            host_id=match.user_ids[0], host_name="x", locale="es",
        )
        for u in match.user_ids[1:]:
            await self.session.join(g.id, user_id=u, name="y", locale="es")
        await self.session.start(g.id, by=match.user_ids[0])
        self.games.append(g.id)
        return g.id

    async def close_table(self, tournament: TournamentRow, match: MatchRow) -> None:
        return None


async def test_a_tournament_locks_a_copy_of_each_deck_at_sign_up(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    tables = Tables(session)
    svc = TournamentService(store, tables)
    tables.svc = svc
    t = await svc.create(
        guild_id=1, channel_id=5, organiser_id=99, name="Copa", game_id=GAME_ID,
        format="single_elim", table_size=2, seed=3, locale="es",
    )
    mine = await greek_deck(store, ALICE)
    await greek_deck(store, ALICE, "Otro")

    # bad choices: nothing entered, nothing locked
    await refused(sign_up(svc, t.id, BOB, "bob", f"deck:{mine}"), "no es tuyo")
    await refused(sign_up(svc, t.id, BOB, "bob", "nada"), "not yours")
    assert await svc.store.entrants(t.id) == [] and await store.deck_locks(t.id) == []

    lock, new = await sign_up(svc, t.id, ALICE, "alice", "ready:japonesa")
    assert new and lock.source == "ready:japonesa"
    lock, new = await sign_up(svc, t.id, ALICE, "alice", f"deck:{mine}")  # changed before the start
    assert not new and lock.source == f"deck:{mine}"
    await sign_up(svc, t.id, BOB, "bob", "ready:nordica")
    assert len(await svc.store.entrants(t.id)) == 2

    # the lock is a copy: editing (or deleting) the deck afterwards changes nothing there
    book = DeckBook(store)
    await book.remove(ALICE, "Olímpicos", cid("Hacha"), 2)
    assert row_deck(await store.get_deck(mine)) != legal_greek()
    await svc.start(t.id)
    (gid,) = tables.games
    g = await session.require(gid)
    seat = {g.seat_row(s).user_id: s for s in range(2)}
    assert dealt(g.state, seat[ALICE]) == deck_of(legal_greek())
    assert dealt(g.state, seat[BOB]) == deck_of(ready_decks()["nordica"].deck)
    assert E.public_options(g.row.options)["decks"] == ["private", "private"]

    # once started, the locked deck stays; the table's seats cannot choose in a lobby
    await refused(sign_up(svc, t.id, ALICE, "alice", "ready:griega"), "sigue siendo «Olímpicos»")
    await refused(lobby.choose(gid, ALICE, "ready:griega"), "already started")
    other = await svc.create(
        guild_id=1, channel_id=6, organiser_id=99, name="Otra", game_id="rey_hierofante",
        format="single_elim", table_size=2, seed=3, locale="es",
    )
    await refused(sign_up(svc, other.id, ALICE, "alice", "ready:griega"), "no necesita mazo")


async def test_a_seat_fixed_by_a_tournament_cannot_choose_in_its_lobby(
    store: Store, session: SessionService, lobby: GdmLobby
) -> None:
    spec = deck_spec(ready_decks()["azteca"].deck).model_dump(mode="json")
    gid = await new_game(session, ALICE, BOB, options={"decks": [spec, None]})
    g = await session.require(gid)
    assert lobby.seat_deck(g, 0).kind == "locked"
    await refused(lobby.choose(gid, ALICE, "ready:griega"), "torneo", "tournament")
    await lobby.choose(gid, BOB, "ready:griega")
    result = await session.start(gid, by=ALICE)
    assert dealt(result.state, 0) == deck_of(ready_decks()["azteca"].deck)
    assert dealt(result.state, 1) == deck_of(ready_decks()["griega"].deck)


def _secret_of(state: GdmState, seat: int, seen: set[str]) -> set[str]:
    """Cards of ``seat``'s list that only its owner may know now: in its hand, deck or face-down
    oracle places, never shown in public, and not among what another seat holds itself."""
    public = {c.card for c in state.cards.values() if c.zone in (PANTHEON, BATTLE, GEAR, DISCARD)}
    for p in state.players:
        public |= {state.cards[o.cards[0]].card for o in p.oracles if o.up and o.cards}
    seen |= public
    others: set[str] = set()
    for s, p in enumerate(state.players):
        if s != seat:
            others |= {state.cards[u].card for u in p.hand + p.deck} | set(p.peeks)
            others |= {state.cards[u].card for o in p.oracles for u in o.cards}
    me = state.players[seat]
    mine = {state.cards[u].card for u in me.hand + me.deck}
    mine |= {state.cards[u].card for o in me.oracles for u in (o.cards[1:] if o.up else o.cards)}
    return mine - seen - others


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_decks(), legal_decks(), st.integers(0, 2**20))
def test_a_chosen_list_never_shows_in_the_public_view_or_the_other_seats(
    first: Deck, second: Deck, seed: int
) -> None:
    options = {"decks": [deck_spec(first).model_dump(mode="json"), deck_spec(second).model_dump(mode="json")]}
    state = E.setup(2, E.parse_options(options).model_dump(mode="json"), seed)
    assert dealt(state, 0) == deck_of(first) and dealt(state, 1) == deck_of(second)
    rng = random.Random(seed)
    seen: set[str] = set()
    for _ in range(40):
        for seat in (0, 1):
            secret = _secret_of(state, seat, seen)
            for viewer in (None, 1 - seat):
                shown = json.dumps(E.view(state, viewer).model_dump(mode="json"))
                assert not [c for c in secret if f'"{c}"' in shown], (seat, viewer)
        if state.finished:
            break
        mover = min(E.pending(state))
        state, _ = E.apply(state, mover, rng.choice(E.legal_actions(state, mover)))
