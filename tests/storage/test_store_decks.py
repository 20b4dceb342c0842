"""Guerra de Mitos decks in the store: created, changed, copied, deleted, locked, and kept
across a close and reopen."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from storage import StaleVersion, Store
from storage.decks import DeckNameTaken, TooManyDecks, UnknownDeck, name_key

ALICE, BOB = 11, 22


async def _tournament(store: Store) -> int:
    now = time.time()
    async with store._write() as db:
        rows = await db.execute_fetchall(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game_id, format,"
            " table_size, seed, locale, created_at, updated_at)"
            " VALUES (1, 2, 3, 'Copa', 'guerra_de_mitos', 'swiss', 2, 7, 'es', ?, ?) RETURNING id",
            (now, now),
        )
        return list(rows)[0][0]


async def test_a_deck_survives_close_and_reopen(db_target: str | Path) -> None:
    path = db_target
    async with await Store.open(path) as s:
        row = await s.create_deck(
            ALICE, "  Samuráis   de Yomi ", pantheon="0001", cards={"0004": 2, "0010": 1}
        )
        row = await s.update_deck(row.id, ALICE, version=row.version, cards={"0004": 1, "0011": 2})
    async with await Store.open(path) as s:
        again = await s.get_deck(row.id)
        assert again == row
        assert again.name == "Samuráis de Yomi" and again.pantheon == "0001"
        assert again.cards == {"0004": 1, "0011": 2} and again.version == 1
        assert await s.find_deck(ALICE, "samurais DE yomi") == row
        assert await s.user_decks(ALICE) == [row]
        assert await s.user_decks(BOB) == []


async def test_names_are_unique_per_player_not_across_players(store: Store) -> None:
    await store.create_deck(ALICE, "Thor")
    with pytest.raises(DeckNameTaken):
        await store.create_deck(ALICE, "thór")
    other = await store.create_deck(BOB, "Thor")
    assert other.user_id == BOB
    second = await store.create_deck(ALICE, "Odín")
    with pytest.raises(DeckNameTaken):
        await store.update_deck(second.id, ALICE, version=0, name="THOR")
    assert (await store.get_deck(second.id)).name == "Odín"  # refused: nothing changed
    with pytest.raises(ValueError):
        await store.create_deck(ALICE, "   ")
    with pytest.raises(ValueError):
        await store.create_deck(ALICE, "x" * 61)
    assert name_key(" Ñandú  Ágil ") == "nandu agil"


async def test_rename_pantheon_cards_and_their_version_guard(store: Store) -> None:
    row = await store.create_deck(ALICE, "A")
    renamed = await store.update_deck(row.id, ALICE, version=0, name="B")
    assert (renamed.name, renamed.version, renamed.cards) == ("B", 1, {})
    with pytest.raises(StaleVersion):
        await store.update_deck(row.id, ALICE, version=0, pantheon="0022")
    with pytest.raises(UnknownDeck):
        await store.update_deck(row.id, BOB, version=1, pantheon="0022")
    set_ = await store.update_deck(row.id, ALICE, version=1, pantheon="0022")
    assert set_.pantheon == "0022" and set_.name == "B"
    cleared = await store.update_deck(row.id, ALICE, version=2, pantheon=None, cards={"0030": 2})
    assert cleared.pantheon is None and cleared.cards == {"0030": 2}
    with pytest.raises(ValueError):
        await store.update_deck(row.id, ALICE, version=3, cards={"0030": 0})
    assert await store.get_deck(row.id) == cleared


async def test_copy_and_delete_only_ones_own(store: Store) -> None:
    row = await store.create_deck(ALICE, "Base", pantheon="0042", cards={"0050": 2})
    copy = await store.copy_deck(row.id, ALICE, "Base 2")
    assert (copy.pantheon, copy.cards) == ("0042", {"0050": 2}) and copy.id != row.id
    with pytest.raises(UnknownDeck):
        await store.copy_deck(row.id, BOB, "Mine now")
    with pytest.raises(UnknownDeck):
        await store.delete_deck(row.id, BOB)
    await store.delete_deck(row.id, ALICE)
    assert await store.get_deck(row.id) is None
    assert [d.name for d in await store.user_decks(ALICE)] == ["Base 2"]
    # the cards of the deleted deck went with it
    assert await store._fetchall(
        "SELECT COUNT(*) FROM gdm_deck_cards WHERE deck = ?", (row.id,)
    ) == [(0,)]
    with pytest.raises(UnknownDeck):
        await store.delete_deck(row.id, ALICE)


async def test_a_player_keeps_at_most_so_many_decks(store: Store) -> None:
    for i in range(3):
        await store.create_deck(ALICE, f"d{i}", max_decks=3)
    with pytest.raises(TooManyDecks):
        await store.create_deck(ALICE, "d3", max_decks=3)
    await store.create_deck(BOB, "d3", max_decks=3)


async def test_concurrent_edits_of_one_version_let_one_through(store: Store) -> None:
    row = await store.create_deck(ALICE, "A")
    results = await asyncio.gather(
        *(store.update_deck(row.id, ALICE, version=0, cards={f"00{30 + i}": 1}) for i in range(5)),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    assert len(ok) == 1 and all(isinstance(r, StaleVersion) for r in results if r not in ok)
    assert (await store.get_deck(row.id)).cards == ok[0].cards


async def test_a_tournament_lock_is_a_copy_kept_after_the_deck_changes(store: Store) -> None:
    tid = await _tournament(store)
    row = await store.create_deck(ALICE, "Torneo", pantheon="0001", cards={"0004": 1})
    lock = await store.lock_deck(
        tid, ALICE, source=f"deck:{row.id}", name=row.name, pantheon=row.pantheon, cards=row.cards
    )
    await store.update_deck(row.id, ALICE, version=0, cards={"0005": 2})
    await store.delete_deck(row.id, ALICE)
    kept = await store.deck_lock(tid, ALICE)
    assert kept == lock and kept.cards == {"0004": 1} and kept.pantheon == "0001"
    # a new choice during sign-up replaces the old one
    again = await store.lock_deck(
        tid, ALICE, source="ready:nordica", name="N", pantheon="0022", cards={"0030": 2}
    )
    assert await store.deck_locks(tid) == [again]
    assert await store.deck_lock(tid, BOB) is None
