"""Guerra de Mitos deck building through the fake Discord server: a player builds a deck from
nothing with autocomplete (in Spanish), the deck survives a restart, is exported, and a
second player (in English) imports it by code and by a pasted list. Every answer is private.
"""

from __future__ import annotations

import json
import random
import re

from rules.guerra_de_mitos.card_search import search
from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.decks import export_list, import_code
from services.gdm_decks import row_deck
from tests.rules.test_guerra_de_mitos_decks import cid, legal_greek

from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table

C = cards()


def text_of(message: dict) -> str:
    return (message.get("content") or "") + json.dumps(
        message.get("embeds", []), ensure_ascii=False
    )


async def answer(t: Table, command: str, user: dict, **options: object) -> dict:
    """Run a command and return its answer, which must be private."""
    _, _, message = await t.slash(command, user, **options)
    assert message is not None and message["flags"] & EPHEMERAL, (command, message)
    return message


async def pick(
    t: Table, command: str, user: dict, focused: str, typed: str, value: str, **options: object
) -> None:
    """Type ``typed`` into ``focused`` and check the autocomplete offers ``value``."""
    choices = await t.fake.autocomplete(
        command, user, t.world.channel, focused, **{focused: typed}, **options
    )
    assert value in [c["value"] for c in choices], (typed, choices)


async def test_build_from_nothing_export_and_import_by_another_player(fake, db) -> None:
    async with FakeWorld(
        users=["alice", "bob"], fake=fake, user_options={"alice": {"locale": "es-ES"}}
    ) as world:
        t = Table(world, db, random.Random(1))
        await t.start()
        alice, bob = world["alice"], world["bob"]

        # Spanish command and option names
        made = await answer(t, "gdm mazo crear", alice, nombre="Olímpicos")
        assert "Mazo «Olímpicos» creado" in text_of(made) and "Falta el panteón" in text_of(made)
        choices = await fake.autocomplete(
            "gdm deck show", alice, world.channel, "deck", deck="olim"
        )
        assert [c["value"] for c in choices] == ["Olímpicos"]
        await pick(
            t, "gdm deck pantheon", alice, "pantheon", "olim", cid("Olimpo"), deck="Olímpicos"
        )
        await answer(t, "gdm deck pantheon", alice, deck="Olímpicos", pantheon=cid("Olimpo"))

        # every card through autocomplete: typed as the first letters of its Spanish name,
        # or of its English name; the offered value is what is sent
        greek = legal_greek()
        for k, (card_id, n) in enumerate(greek.counts().items()):
            c = C[card_id]
            typed = (c.name if k % 2 else c.name_en)[:5]
            await pick(t, "gdm deck add", alice, "card", typed, card_id, deck="Olímpicos", count=n)
            reply = await answer(t, "gdm deck add", alice, deck="Olímpicos", card=card_id, count=n)
            assert f"añadidas {n} × {c.name}" in text_of(reply)
        assert "Legal: se puede jugar" in text_of(reply)

        # what may not go in is not offered, and typed anyway is refused with the fix
        for name in ("Zeus", "Hacha", "Mjolnir"):
            offered = await fake.autocomplete(
                "gdm deck add", alice, world.channel, "card", card=name, deck="Olímpicos"
            )
            assert cid(name) not in [o["value"] for o in offered], name
        refused = await answer(t, "gdm deck add", alice, deck="Olímpicos", card="Mjolnir")
        assert "No se ha añadido" in text_of(refused) and "cambia de panteón" in text_of(refused)
        refused = await answer(t, "gdm deck add", alice, deck="Olímpicos", card="Zeus")
        assert "solo una copia de un dios" in text_of(refused)

        # the deck survives a restart
        await t.restart()
        shown = await answer(t, "gdm deck show", alice, deck="olímpicos")
        assert fake.files(shown)[0]["data"][:8] == b"\x89PNG\r\n\x1a\n"
        assert "Mazo de dioses (20)" in text_of(shown) and "Mazo de designios (30)" in text_of(
            shown
        )

        exported = await answer(t, "gdm deck export", alice, deck="Olímpicos")
        code = re.search(r"```\\n([0-9A-Z]+)\\n```", text_of(exported)).group(1)
        assert import_code(code) == greek
        assert "2 Hacha" in text_of(exported)  # the plain list, in Spanish

        # bob (English) imports the code, and the list by pasting it into the import box
        got = await answer(t, "gdm deck import", bob, name="From Alice", text=code)
        assert 'Deck "From Alice" imported' in text_of(got) and "Legal: ready to play" in text_of(
            got
        )
        inter = await fake.slash("gdm deck import", bob, world.channel, name="Pasted")
        assert (await fake.wait_response(inter))["type"] == 9  # a box to paste a long list into
        submit = await fake.submit_modal(
            inter, {next(iter(_fields(fake, inter))): export_list(greek, "en")}
        )
        await fake.wait_response(submit)
        assert "imported" in text_of(fake.response_message(submit))
        listed = await answer(t, "gdm deck list", bob)
        assert "✅ **From Alice**" in text_of(listed) and "✅ **Pasted**" in text_of(listed)

        # a malformed code or list is refused and changes nothing
        before = await t.bot.store.user_decks(int(bob["id"]))
        bad = await answer(
            t,
            "gdm deck import",
            bob,
            name="Broken",
            text=code[:-1] + ("0" if code[-1] != "0" else "1"),
        )
        assert "not valid" in text_of(bad)
        bad = await answer(t, "gdm deck import", bob, name="Broken", text="2 Axe; 1 Nobody")
        assert "line 2" in text_of(bad) and "Nobody" in text_of(bad)
        assert await t.bot.store.user_decks(int(bob["id"])) == before
        assert all(row_deck(r) == greek for r in before)

        # alice's decks are hers: bob cannot see or touch them
        assert "no deck called" in text_of(await answer(t, "gdm deck show", bob, deck="Olímpicos"))
        # copy, rename, remove, delete: and a deleted deck comes back from the code it leaves
        await answer(t, "gdm deck copy", alice, deck="Olímpicos", new_name="Prueba")
        renamed = await answer(
            t, "gdm mazo renombrar", alice, mazo="Prueba", nuevo_nombre="Variante"
        )
        assert "«Prueba» se llama ahora «Variante»" in text_of(renamed)
        await pick(t, "gdm deck remove", alice, "card", "hach", cid("Hacha"), deck="Variante")
        less = await answer(
            t, "gdm deck remove", alice, deck="Variante", card=cid("Hacha"), count=2
        )
        assert "quitadas 2 × Hacha" in text_of(less) and "Mazo de designios 28/30" in text_of(less)
        gone = await answer(t, "gdm deck delete", alice, deck="Variante")
        back = re.search(r"`([0-9A-Z]+)`", text_of(gone)).group(1)
        await answer(t, "gdm deck import", alice, name="Variante", text=back)
        rows = {r.name: row_deck(r) for r in await t.bot.store.user_decks(int(alice["id"]))}
        assert rows == {"Olímpicos": greek, "Variante": greek.with_card(cid("Hacha"), -2)}
        # (choosing these decks in a game's lobby and playing them: test_gdm_lobby.py)


def _fields(fake, interaction: dict) -> list[str]:
    record = fake.interaction_responses[interaction["id"]]
    out = []
    for row in record["data"]["components"]:
        for comp in row.get("components", []) or [row.get("component") or {}]:
            if comp.get("custom_id"):
                out.append(comp["custom_id"])
    return out


async def test_search_by_every_filter(fake, db) -> None:
    async with FakeWorld(
        users=["alice"], fake=fake, user_options={"alice": {"locale": "es-ES"}}
    ) as world:
        t = Table(world, db, random.Random(2))
        await t.start()
        alice = world["alice"]
        found = await answer(
            t, "gdm buscar", alice, tipo="character", mitologia="Griega", coste="<=3"
        )
        expected = search(type="character", mythology="Griega", cost=(0, 3))
        assert expected and f"Búsqueda: {len(expected)} cartas" in text_of(found)
        assert all(c.name in text_of(found) for c in expected[:25])
        keys = await fake.autocomplete("gdm search", alice, world.channel, "key", key="bata")
        assert [k["value"] for k in keys] == ["Batalla"]
        found = await answer(
            t, "gdm search", alice, key="Dios", strength="5-9", text="poder", name=""
        )
        expected = search(key="Dios", strength=(5, 9), text="poder")
        assert expected and f"Búsqueda: {len(expected)} cartas" in text_of(found)
        assert all(c.name in text_of(found) for c in expected)
        found = await answer(t, "gdm search", alice, name="thor")
        assert "Búsqueda: " in text_of(found) and "**Thor**" in text_of(found)
        bad = await answer(t, "gdm search", alice, cost="mucho")
        assert "no es un número ni un intervalo" in text_of(bad)


async def test_a_pasted_wall_of_junk_is_refused_at_once_with_the_cap(fake, db) -> None:
    async with FakeWorld(users=["alice", "bob"], fake=fake, user_options={"alice": {"locale": "es-ES"}}) as world:
        t = Table(world, db, random.Random(3))
        await t.start()
        alice, bob = world["alice"], world["bob"]
        # 3,000 junk entries in the command's box (Discord lets 6,000 characters through)
        junk = ";".join("q" for _ in range(3000))
        got = await answer(t, "gdm deck import", bob, name="Junk", text=junk)
        assert "at most 4000 characters and this one has 5999" in text_of(got)
        # as many junk lines as the import box holds: refused by their number, in Spanish
        inter = await fake.slash("gdm mazo importar", alice, world.channel, nombre="Basura")
        assert (await fake.wait_response(inter))["type"] == 9
        lines = "\n".join("q" for _ in range(2000))[:4000]
        submit = await fake.submit_modal(inter, {next(iter(_fields(fake, inter))): lines})
        await fake.wait_response(submit)
        said = text_of(fake.response_message(submit))
        assert "como mucho 150 líneas y este tiene 2000" in said
        # a few unreadable lines among good ones: the first are named, the rest counted
        typos = "\n".join(["Pantheon: Olympus", *(f"2 Axee{i}" for i in range(40))])
        got = await answer(t, "gdm deck import", bob, name="Typos", text=typos.replace("\n", "; "))
        assert 'line 2: there is no card called "Axee0"' in text_of(got)
        assert "And 30 more lines name no card." in text_of(got)
        assert await t.bot.store.user_decks(int(alice["id"])) == []
        assert await t.bot.store.user_decks(int(bob["id"])) == []
