"""Deck building as the /gdm deck commands run it: every construction rule checked at each
step with its reason and fix in both languages, import and export through the store, and
unreadable input refused without changing anything."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.decks import (
    DeckFormatError,
    export_code,
    export_list,
    ready_decks,
    validate,
)
from services.gdm_decks import (
    DeckBook,
    DeckRefusal,
    deck_choice,
    deck_menu,
    lock_deck,
    locked_deck,
    parse_import,
    playable_decks,
    row_deck,
)
from storage import Store
from tests.rules.test_guerra_de_mitos_decks import cid, legal_decks, legal_greek

ALICE, BOB = 1, 2
C = cards()


@pytest.fixture
def book(store: Store) -> DeckBook:
    return DeckBook(store)


async def refused(coro: object, *words: str) -> DeckRefusal:
    """Await ``coro`` expecting a refusal whose Spanish or English text holds every word."""
    with pytest.raises(DeckRefusal) as info:
        await coro  # type: ignore[misc]
    text = info.value.text.es + " | " + info.value.text.en
    for w in words:
        assert w in text, (w, text)
    assert info.value.text.es != info.value.text.en
    return info.value


async def build(book: DeckBook, name: str, deck: object) -> None:
    """Build ``deck`` card by card through the book, as a player would."""
    await book.create(ALICE, name)
    await book.set_pantheon(ALICE, name, deck.pantheon)  # type: ignore[attr-defined]
    for card_id, n in deck.counts().items():  # type: ignore[attr-defined]
        await book.add(ALICE, name, card_id, n)


async def test_building_a_legal_deck_step_by_step_in_both_languages(book: DeckBook) -> None:
    change = await book.create(ALICE, "Héroes")
    assert {p.rule for p in change.problems} == {
        "pantheon_missing",
        "god_deck_size",
        "design_deck_size",
    }
    # a name in Spanish, in English, or the id from autocomplete
    change = await book.add(ALICE, "héroes", "Zeus")
    change = await book.add(ALICE, "HEROES", "Axe", 2)
    assert change.deck.design == {cid("Hacha"): 2} and change.deck.god == {cid("Zeus"): 1}
    await book.set_pantheon(ALICE, "Héroes", "Olympus")
    greek = legal_greek()
    for card_id, n in greek.counts().items():
        have = (await book.get(ALICE, "Héroes")).cards.get(card_id, 0)
        if n > have:
            change = await book.add(ALICE, "Héroes", card_id, n - have)
    assert change.deck == greek and change.problems == []
    assert [c.key for c in await playable_decks(book.store, ALICE)] == [f"deck:{change.row.id}"]


async def test_sizes_and_pantheon_missing_are_named_with_the_fix_and_keep_it_unplayable(
    book: DeckBook,
) -> None:
    change = await book.add(ALICE, (await book.create(ALICE, "A")).row.name, "Zeus")
    texts = {p.rule: p.text for p in change.problems}
    assert "19" in texts["god_deck_size"].es and "19" in texts["god_deck_size"].en
    assert "30" in texts["design_deck_size"].en and "panteón" in texts["pantheon_missing"].es
    assert await playable_decks(book.store, ALICE) == []
    row = await book.get(ALICE, "A")
    await refused(
        deck_choice(book.store, ALICE, f"deck:{row.id}"), "no se puede jugar", "cannot be played"
    )
    # a legal deck without its pantheon is not playable either
    await build(book, "Sin panteón", legal_greek())
    change = await book.remove(ALICE, "Sin panteón", "Olimpo")
    assert change.deck.pantheon is None and [p.rule for p in change.problems] == [
        "pantheon_missing"
    ]


async def test_each_card_goes_in_the_deck_of_its_type(book: DeckBook) -> None:
    await book.create(ALICE, "A")
    for name in ("Zeus", "Laberinto de Creta", "Hinamatsuri", "Hacha", "Pegaso", "Golpe mortal"):
        change = await book.add(ALICE, "A", name)
    assert set(change.deck.god) == {cid("Zeus"), cid("Laberinto de Creta"), cid("Hinamatsuri")}
    assert set(change.deck.design) == {cid("Hacha"), cid("Pegaso"), cid("Golpe mortal")}
    assert not [p for p in change.problems if p.rule == "wrong_deck"]
    # a pantheon card added sets the pantheon; a card that is not a pantheon cannot be one
    change = await book.add(ALICE, "A", "Olimpo")
    assert change.deck.pantheon == cid("Olimpo")
    await refused(
        book.set_pantheon(ALICE, "A", "Zeus"), "no es un panteón", "Olimpo", "not a pantheon"
    )


async def test_at_most_two_copies(book: DeckBook) -> None:
    await book.create(ALICE, "A")
    await refused(book.add(ALICE, "A", "Hacha", 3), "como mucho 2 copias", "you may add 2 at most")
    await book.add(ALICE, "A", "Hacha", 1)
    await refused(book.add(ALICE, "A", "Hacha", 2), "puedes añadir 1 como mucho")
    await book.add(ALICE, "A", "Hacha")
    before = await book.get(ALICE, "A")
    await refused(book.add(ALICE, "A", "Axe"), "el mazo ya tiene 2", "at most 2 copies")
    assert await book.get(ALICE, "A") == before  # refused: nothing changed


async def test_one_copy_of_a_god_and_of_a_unique_card(book: DeckBook) -> None:
    await book.create(ALICE, "N")
    await book.set_pantheon(ALICE, "N", "Asgard")
    await refused(book.add(ALICE, "N", "Thor", 2), "Thor: solo una copia de un dios; añade solo 1")
    await book.add(ALICE, "N", "Thor")
    await refused(book.add(ALICE, "N", "Thor"), "el mazo ya la tiene", "only one copy of a god")
    await book.add(ALICE, "N", "Euterpe")
    await refused(book.add(ALICE, "N", "Euterpe"), "una carta única", "a unique card")
    assert (await book.get(ALICE, "N")).cards == {cid("Thor"): 1, cid("Euterpe"): 1}


async def test_at_most_two_battle_cards(book: DeckBook) -> None:
    battle = [c for c in C.values() if c.is_battle and c.keyed_to is None and not c.is_unique]
    await book.create(ALICE, "B")
    await book.add(ALICE, "B", battle[0].id, 2)
    await refused(book.add(ALICE, "B", battle[1].id), "Batalla", "remove a Battle card first")
    await book.remove(ALICE, "B", battle[0].id)
    await refused(book.add(ALICE, "B", battle[1].id, 2), "puedes añadir 1 como mucho")
    change = await book.add(ALICE, "B", battle[1].id)
    assert sum(change.deck.counts().values()) == 2


async def test_no_card_keyed_to_another_mythology(book: DeckBook) -> None:
    await book.create(ALICE, "G")
    await book.set_pantheon(ALICE, "G", "Olimpo")
    await refused(
        book.add(ALICE, "G", "Mjolnir"),
        "Mjolnir",
        "Nórdica",
        "Griega",
        "cambia de panteón",
        "change pantheon",
    )
    # without a pantheon it may go in; choosing a pantheon of another mythology names it
    await book.create(ALICE, "H")
    await book.add(ALICE, "H", "Mjolnir")
    change = await book.set_pantheon(ALICE, "H", "Olimpo")
    assert [p.rule for p in change.problems if p.card_id == cid("Mjolnir")] == ["other_mythology"]
    change = await book.set_pantheon(ALICE, "H", "Asgard")
    assert not [p for p in change.problems if p.rule == "other_mythology"]


async def test_removing_more_than_there_is_or_what_is_not_there_is_refused(book: DeckBook) -> None:
    await book.create(ALICE, "A")
    await book.add(ALICE, "A", "Hacha", 2)
    await refused(book.remove(ALICE, "A", "Hacha", 3), "solo tiene 2", "remove 2 at most")
    await refused(book.remove(ALICE, "A", "Zeus"), "no está en", "is not in")
    await refused(book.remove(ALICE, "A", "Olimpo"), "no es el panteón")
    change = await book.remove(ALICE, "A", "Hacha", 2)
    assert change.deck.counts() == {}


async def test_unknown_cards_decks_and_names_are_refused_with_hints(book: DeckBook) -> None:
    await refused(
        book.add(ALICE, "Nada", "Zeus"), "Aún no tienes ningún mazo", "You have no decks yet"
    )
    await book.create(ALICE, "Uno")
    await refused(book.add(ALICE, "Dos", "Zeus"), "Tus mazos: Uno", "Your decks: Uno")
    await refused(book.add(ALICE, "Uno", "Zeuss"), "¿Querías decir Zeus", "Did you mean Zeus")
    await refused(book.add(ALICE, "Uno", "Hacha", 0), "de 1 a 99")
    await refused(book.create(ALICE, " uno "), "Ya tienes un mazo llamado «uno»")
    await refused(book.create(ALICE, "x" * 61), "de 1 a 60 caracteres")
    assert [r.name for r in await book.decks(ALICE)] == ["Uno"] and (
        await book.get(ALICE, "Uno")
    ).cards == {}


async def test_rename_copy_delete(book: DeckBook) -> None:
    await build(book, "Base", legal_greek())
    await book.create(ALICE, "Otro")
    await refused(book.rename(ALICE, "Base", "otro"), "Ya tienes un mazo llamado")
    await book.rename(ALICE, "Base", "Olímpicos")
    copy = await book.copy(ALICE, "olimpicos", "Olímpicos 2")
    assert copy.deck == legal_greek() and copy.problems == []
    deleted = await book.delete(ALICE, "Olímpicos")
    assert row_deck(deleted) == legal_greek()
    assert [r.name for r in await book.decks(ALICE)] == ["Olímpicos 2", "Otro"]
    # another player's decks are out of reach
    await refused(book.delete(BOB, "Otro"), "Aún no tienes ningún mazo")


async def test_two_changes_at_once_both_land(book: DeckBook) -> None:
    await book.create(ALICE, "A")
    await asyncio.gather(
        book.add(ALICE, "A", "Hacha"),
        book.add(ALICE, "A", "Zeus"),
        book.add(ALICE, "A", "Pegaso", 2),
    )
    assert (await book.get(ALICE, "A")).cards == {cid("Hacha"): 1, cid("Zeus"): 1, cid("Pegaso"): 2}


@pytest.mark.parametrize("deck_id", sorted(ready_decks()))
async def test_every_ready_deck_round_trips_through_import_and_export(
    book: DeckBook, deck_id: str
) -> None:
    deck = ready_decks()[deck_id].deck
    await book.import_deck(ALICE, "code", export_code(deck))
    for locale in ("es", "en"):
        await book.import_deck(ALICE, f"list {locale}", export_list(deck, locale))
    for name in ("code", "list es", "list en"):
        row, code, listing = await book.export(ALICE, name, "en")
        assert row_deck(row) == deck and code == export_code(deck)
        assert parse_import(code) == deck and parse_import(listing) == deck
    # the other player imports the first one's code
    change = await book.import_deck(BOB, "mine", (await book.export(ALICE, "code", "es"))[1])
    assert change.deck == deck and change.problems == []
    assert [c.deck for c in await playable_decks(book.store, BOB)] == [deck]


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(legal_decks())
def test_random_legal_decks_round_trip_through_the_store(deck: object) -> None:
    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            async with await Store.open(Path(tmp) / "t.db") as store:
                book = DeckBook(store)
                await book.import_deck(ALICE, "d", export_code(deck))  # type: ignore[arg-type]
                row, code, listing = await book.export(ALICE, "d", "es")
                assert row_deck(row) == deck and validate(row_deck(row)) == []
                change = await book.import_deck(BOB, "d", listing)
                assert change.deck == deck
                _, _, english = await book.export(BOB, "d", "en")
                assert parse_import(english) == deck and parse_import(code) == deck

    asyncio.run(run())


@pytest.mark.parametrize(
    "text, words",
    [
        ("", ("Pega un código", "Paste a deck code")),
        ("ZZZZZZZZZZ", ("código de mazo no es válido", "copy the whole code again")),
        ("2 Hacha\n3 Zeuss\nfoo bar baz", ("línea 2", "línea 3", "line 2", "Zeus")),
        ("2 Hacha; 1 Nadie", ("línea 2", "Nadie")),
        ("Panteón: Zeus", ("no es un panteón", "is not a pantheon")),
        ("Panteón: Olimpo\nPanteón: Asgard", ("un solo panteón", "a single pantheon")),
        ("# only comments\n\n", ("ninguna carta", "no cards")),
        ("0 Hacha", ("no es un número de copias válido",)),
    ],
)
async def test_malformed_codes_and_lists_are_refused_and_change_nothing(
    book: DeckBook, text: str, words: tuple[str, ...]
) -> None:
    await book.create(ALICE, "Existing")
    before = await book.decks(ALICE)
    with pytest.raises(DeckFormatError) as info:
        await book.import_deck(ALICE, "New", text)
    both = info.value.text.es + " | " + info.value.text.en
    assert all(w in both for w in words), both
    assert await book.decks(ALICE) == before


async def test_a_code_with_one_character_changed_is_refused(book: DeckBook) -> None:
    code = export_code(ready_decks()["griega"].deck)
    # typed in groups, in lower case, with O for 0: still the same deck
    spaced = " ".join(code[i : i + 5] for i in range(0, len(code), 5)).lower().replace("0", "o")
    assert parse_import(spaced) == ready_decks()["griega"].deck
    assert parse_import("Hacha") == parse_import("1 Hacha")  # a single card's name is a list
    broken = code[:10] + ("0" if code[10] != "0" else "1") + code[11:]
    with pytest.raises(DeckFormatError):
        await book.import_deck(ALICE, "x", broken)
    assert await book.decks(ALICE) == []


async def test_a_list_on_one_line_and_an_illegal_but_readable_deck(book: DeckBook) -> None:
    change = await book.import_deck(ALICE, "corto", "Panteón: Olimpo; 2 Hacha, 1 Zeus")
    assert change.deck.pantheon == cid("Olimpo") and change.deck.counts() == {
        cid("Hacha"): 2,
        cid("Zeus"): 1,
    }
    # readable but against the rules: kept (being built), with the problems named, not playable
    change = await book.import_deck(ALICE, "raro", "Panteón: Olimpo\n3 Hacha\n1 Mjolnir")
    assert {"copies", "other_mythology"} <= {p.rule for p in change.problems}
    assert await playable_decks(book.store, ALICE) == []


async def test_the_lobby_and_tournament_helpers(book: DeckBook, store: Store) -> None:
    await build(book, "Legal", legal_greek())
    await book.create(ALICE, "A medias")
    mine = await playable_decks(store, ALICE)
    assert [c.name.es for c in mine] == ["Legal"]
    assert (await deck_choice(store, ALICE, "ready:nordica")).deck == ready_decks()["nordica"].deck
    menu = await deck_menu(store, ALICE)
    assert [c.key for c in menu] == [mine[0].key] + [f"ready:{r}" for r in ready_decks()]
    assert [c.key for c in await deck_menu(store, ALICE, "leg")] == [mine[0].key]
    assert [c.key for c in await deck_menu(store, BOB, "norse")] == []  # names, not mythologies
    assert len(await deck_menu(store, BOB)) == len(ready_decks())
    await refused(deck_choice(store, BOB, mine[0].key), "no es tuyo", "not yours")
    await refused(deck_choice(store, ALICE, "ready:nadie"), "no existe")
    now = time.time()
    async with store._write() as db:
        rows = await db.execute_fetchall(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, game_id, format,"
            " table_size, seed, locale, created_at, updated_at)"
            " VALUES (1, 2, 3, 'Copa', 'guerra_de_mitos', 'swiss', 2, 7, 'es', ?, ?) RETURNING id",
            (now, now),
        )
        tid = list(rows)[0][0]
    half = await book.get(ALICE, "A medias")
    await refused(lock_deck(store, tid, ALICE, f"deck:{half.id}"), "no se puede jugar")
    assert await locked_deck(store, tid, ALICE) is None
    await lock_deck(store, tid, ALICE, mine[0].key)
    await book.remove(ALICE, "Legal", "Zeus")  # editing after sign-up changes nothing there
    assert await locked_deck(store, tid, ALICE) == legal_greek()
    await lock_deck(store, tid, BOB, "ready:azteca")
    assert await locked_deck(store, tid, BOB) == ready_decks()["azteca"].deck


async def format_refusal(coro: object) -> str:
    """Await ``coro`` expecting a DeckFormatError; its English and Spanish texts, joined."""
    with pytest.raises(DeckFormatError) as info:
        await coro  # type: ignore[misc]
    assert info.value.text.es != info.value.text.en
    return info.value.text.en + " | " + info.value.text.es


async def test_a_wall_of_junk_lines_is_refused_by_its_size_before_any_card_is_looked_up(
    book: DeckBook, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rules.guerra_de_mitos.decks as decks

    looked: list[str] = []
    monkeypatch.setattr(decks, "by_name", lambda name: looked.append(name))
    junk = "\n".join(f"zq{i}" for i in range(3000))  # 3,000 lines
    said = await format_refusal(book.import_deck(ALICE, "junk", junk[:3990]))
    assert "at most 150 lines" in said and "como mucho 150 líneas" in said
    said = await format_refusal(book.import_deck(ALICE, "junk", junk))
    assert "at most 4000 characters" in said and "este tiene 19889" in said
    # one line of ";"-separated entries counts its entries as lines
    said = await format_refusal(book.import_deck(ALICE, "junk", ";".join("ab" for _ in range(1000))))
    assert "at most 150 lines and this one has 1000" in said
    assert looked == [] and await book.decks(ALICE) == []


async def test_close_names_are_sought_for_the_first_unreadable_lines_only(
    book: DeckBook, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rules.guerra_de_mitos.decks as decks

    sought: list[str] = []
    real = decks.suggest
    monkeypatch.setattr(decks, "suggest", lambda name: sought.append(name) or real(name))
    junk = "\n".join(["Pantheon: Olympus", *(f"2 Hachaa{i}" for i in range(140)), "2 Hacha"])
    said = await format_refusal(book.import_deck(ALICE, "typos", junk))
    assert len(sought) == decks.SUGGESTED_LINES
    # the first lines are named by number, with close names for the first few ...
    assert 'line 2: there is no card called "Hachaa0". Did you mean' in said
    assert 'line 11: there is no card called "Hachaa9".' in said and "line 12:" not in said
    # ... and the rest counted, in each language
    assert "And 130 more lines name no card." in said and "Y 130 líneas más no nombran" in said
    assert await book.decks(ALICE) == []


def test_the_largest_legal_decks_fit_the_import_caps() -> None:
    from services.gdm_decks import MAX_IMPORT_CHARS, MAX_IMPORT_LINES

    for rd in ready_decks().values():
        for locale in ("es", "en"):
            listing = export_list(rd.deck, locale)
            assert len(listing) < MAX_IMPORT_CHARS / 2
            assert len(listing.splitlines()) < MAX_IMPORT_LINES / 2
