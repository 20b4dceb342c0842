"""Guerra de Mitos decks from the deck builder to the table, through the fake Discord server:
a player builds a deck from nothing with autocomplete and exports it, a second player
imports it (and tunes it), both choose their decks privately in the lobby (one by its
button and menu, one by /gdm deck pick) and play the game to its end with exactly those
lists; and a tournament whose sign-up locks a copy of each deck that its table deals.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter

from rules.guerra_de_mitos.cards import cards
from rules.guerra_de_mitos.decks import Deck, export_code, ready_decks
from rules.guerra_de_mitos.model import PANTHEON, GdmState
from rules.registry import engine
from tests.rules.test_guerra_de_mitos_decks import cid, legal_greek

from .checks import replay_matches_store, text_of
from .fake_discord import EPHEMERAL
from .harness import DiscordLogCollector, FakeWorld
from .table import Table
from .test_gdm_decks import answer, pick
from .test_guerra_de_mitos import Players, Watcher

E = engine("guerra_de_mitos")
C = cards()
# With this seed the two decks below, played by the AI's choices, end in about a hundred moves.
SEED = 7
MAX_MOVES = 400
HACHA, ATLATL = cid("Hacha"), cid("Átlatl")


def dealt(state: GdmState, seat: int) -> tuple[str, Counter[str]]:
    """The pantheon and every other card a seat was dealt (hand, oracles and deck)."""
    mine = [c for c in state.cards.values() if c.owner == seat]
    (pantheon,) = [c.card for c in mine if c.zone == PANTHEON]
    return pantheon, Counter(c.card for c in mine if c.zone != PANTHEON)


def deck_of(deck: Deck) -> tuple[str | None, Counter[str]]:
    return deck.pantheon, Counter(deck.counts())


def public_text(t: Table, channel: dict) -> str:
    """Everything every channel message shows (ephemeral answers are not in it)."""
    return "\n".join(text_of(m) for m in t.fake.channel_messages(channel))


async def menu_of(t: Table, message: dict, custom_id: str, user: dict) -> dict:
    """Press a button that answers with a private menu of decks; the menu's message."""
    inter, _ = await t.click(message, custom_id, user)
    menu = t.fake.response_message(inter)
    assert menu is not None and menu["flags"] & EPHEMERAL, menu
    assert menu["_visible_to"] == user["id"]
    return menu


async def choose_in(t: Table, menu: dict, user: dict, key: str) -> str:
    """Pick ``key`` in a private menu of decks; what the answer says."""
    select = next(c for c in t.fake.components(menu) if c.get("custom_id", "").startswith("tablero:gdmdeck:"))
    assert key in [o["value"] for o in select["options"]], select["options"]
    inter = await t.fake.select(menu, select["custom_id"], user, [key])
    await t.fake.wait_response(inter)
    return text_of(t.fake.messages[menu["id"]])


async def test_build_share_pick_privately_in_the_lobby_and_play_with_those_decks(fake, db) -> None:
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(
            users=["alice", "bob", "carol"], fake=fake, user_options={"alice": {"locale": "es-ES"}}
        ) as world:
            t = Table(world, db, random.Random(1))
            await t.start()
            t.bot.session._seed = lambda: SEED
            alice, bob, carol = world["alice"], world["bob"], world["carol"]

            # alice builds a legal deck from nothing, every card through autocomplete
            await answer(t, "gdm mazo crear", alice, nombre="Olímpicos")
            greek = legal_greek()
            await pick(t, "gdm deck pantheon", alice, "pantheon", "olim", greek.pantheon, deck="Olímpicos")
            await answer(t, "gdm deck pantheon", alice, deck="Olímpicos", pantheon=greek.pantheon)
            for k, (card_id, n) in enumerate(greek.counts().items()):
                c = C[card_id]
                typed = (c.name if k % 2 else c.name_en)[:5]
                await pick(t, "gdm deck add", alice, "card", typed, card_id, deck="Olímpicos", count=n)
                said = await answer(t, "gdm deck add", alice, deck="Olímpicos", card=card_id, count=n)
            assert "Legal: se puede jugar" in text_of(said)
            exported = await answer(t, "gdm deck export", alice, deck="Olímpicos")
            code = re.search(r"```\\n([0-9A-Z]+)\\n```", text_of(exported))[1]

            # bob imports it and tunes it: one Axe less, one Atlatl more
            got = await answer(t, "gdm deck import", bob, name="From Alice", text=code)
            assert "Legal: ready to play" in text_of(got)
            await answer(t, "gdm deck remove", bob, deck="From Alice", card=HACHA)
            await pick(t, "gdm deck add", bob, "card", "atla", ATLATL, deck="From Alice")
            said = await answer(t, "gdm deck add", bob, deck="From Alice", card=ATLATL)
            assert "Legal: ready to play" in text_of(said)
            bobs = greek.with_card(HACHA, -1).with_card(ATLATL, 1)
            deck_ids = {r.user_id: r.id for u in (alice, bob) for r in await t.bot.store.user_decks(int(u["id"]))}
            alice_key, bob_key = f"deck:{deck_ids[int(alice['id'])]}", f"deck:{deck_ids[int(bob['id'])]}"

            # the lobby (alice chooses her language for the game's public messages on this
            # English server): a Choose deck button, and who has chosen (never what)
            _, _, lobby = await t.slash("game new", alice, game="guerra_de_mitos", language="es")
            gid = int(lobby["embeds"][0]["title"].split("#")[-1])
            buttons = t.lobby_buttons(lobby)
            await t.click(fake.messages[lobby["id"]], buttons["join"], bob)
            lobby = fake.messages[lobby["id"]]
            assert text_of(lobby).count("sin elegir (si no: un mazo listo al azar)") == 2
            choose = f"tablero:gdmlobby:{gid}"
            assert choose in [c.get("custom_id") for c in fake.components(lobby)]

            # alice by the button: her private menu holds her decks and the ready ones, not bob's
            menu = await menu_of(t, lobby, choose, alice)
            assert "Solo tú ves esta lista" in text_of(menu) and "From Alice" not in text_of(menu)
            options = [o["value"] for c in fake.components(menu) for o in c.get("options", [])]
            assert options == [alice_key] + [f"ready:{r}" for r in ready_decks()]
            assert "Jugarás la partida" in await choose_in(t, menu, alice, alice_key)

            # bob by command, found by autocomplete; bad input is refused privately, changes nothing
            hints = await fake.autocomplete("gdm deck pick", bob, world.channel, "deck", deck="from")
            assert [h["value"] for h in hints] == [bob_key]
            await answer(t, "gdm deck create", bob, name="Empty")
            empty = next(r.id for r in await t.bot.store.user_decks(int(bob["id"])) if r.name == "Empty")
            before = await t.bot.store.lobby_decks(gid)
            for who, value, words in (
                (bob, f"deck:{empty}", "cannot be played yet"),
                (bob, alice_key, "not yours"),
                (bob, "deck:999999", "does not exist"),
                (bob, "un mazo cualquiera", "not yours"),
                (carol, "ready:griega", "not playing"),
            ):
                refused = await answer(t, "gdm deck pick", who, deck=value)
                assert words in text_of(refused), text_of(refused)
            assert await t.bot.store.lobby_decks(gid) == before
            said = await answer(t, "gdm deck pick", bob, deck=bob_key)
            assert 'You will play game' in text_of(said) and "From Alice" in text_of(said)
            lobby = await fake.wait_until(
                lambda: fake.messages[lobby["id"]]
                if text_of(fake.messages[lobby["id"]]).count("mazo elegido") == 2 else None
            )

            # nothing public names a deck or a card of one
            shown = public_text(t, world.channel)
            for secret in ("Olímpicos", "From Alice", "deck:", *(C[c].name for c in bobs.counts())):
                assert secret not in shown, secret

            # the bot restarts: the choices are still there (told to anyone, without the decks)
            await t.restart()
            t.bot.session._seed = lambda: SEED
            _, _, status = await t.slash("game status", carol)
            assert text_of(status).count("✅ deck chosen") == 2 and "From Alice" not in text_of(status)

            # the game starts with exactly those lists, each in its player's seat
            await t.click(fake.messages[lobby["id"]], buttons["start"], alice)
            g = await t.game(gid)
            assert [g.seat_of(int(u["id"])) for u in (alice, bob)] == [0, 1]
            assert dealt(g.state, 0) == deck_of(greek) and dealt(g.state, 1) == deck_of(bobs)
            assert "Mazos: elegido en privado, elegido en privado" in text_of(fake.messages[lobby["id"]])
            # a deck changed now changes nothing in the game
            await answer(t, "gdm deck remove", bob, deck="From Alice", card=ATLATL)
            refused = await answer(t, "gdm deck pick", bob, deck="ready:griega")
            assert "already started" in text_of(refused)

            p = Players(t, gid, {0: "alice", 1: "bob"}, {0: "es", 1: "en"}, SEED)
            watcher = Watcher(t, world.channel)
            moves = 0
            while (await t.game(gid)).status == "active":
                state = await p.state()
                watcher.check(state)
                await p.play(min(E.pending(state)))  # the secret bid: both, one after the other
                moves += 1
                assert moves < MAX_MOVES
            state = (await t.game(gid)).state
            assert state.finished and state.winners
            watcher.check(state)
            await replay_matches_store(E, db, gid, 2)
            row = await t.bot.store.get_game(gid)
            replayed = E.setup(2, row.options, row.seed)
            assert dealt(replayed, 0) == deck_of(greek) and dealt(replayed, 1) == deck_of(bobs)
        assert not errors.messages(), errors.messages()


async def test_a_tournament_locks_each_deck_at_sign_up_and_its_table_deals_it(fake, db) -> None:
    with DiscordLogCollector(("tablero",)) as errors:
        async with FakeWorld(
            users=["org", "alice", "bob"], fake=fake, owner="org",
            user_options={"alice": {"locale": "es-ES"}},
        ) as world:
            t = Table(world, db, random.Random(2))
            await t.start()
            org, alice, bob = world["org"], world["alice"], world["bob"]
            greek = legal_greek()
            await answer(t, "gdm deck import", alice, name="Olímpicos", text=export_code(greek))
            (row,) = await t.bot.store.user_decks(int(alice["id"]))
            alice_key = f"deck:{row.id}"

            _, _, signup = await t.slash(
                "tournament create", org, name="Copa de los dioses", game="guerra_de_mitos",
                format="single_elim",
            )
            tid = int(signup["embeds"][0]["title"].split("#")[-1])
            join = next(c["custom_id"] for c in fake.components(signup) if ":join:" in c.get("custom_id", ""))

            # alice signs up by the button: asked privately for her deck, a copy is locked
            menu = await menu_of(t, signup, join, alice)
            assert "Se guarda una copia" in text_of(menu)
            assert "Inscrito en **Copa de los dioses** con «Olímpicos»" in await choose_in(t, menu, alice, alice_key)
            # bob by /tournament join, then changes his mind before the start with /gdm deck pick
            _, _, menu = await t.slash("tournament join", bob)
            assert menu["flags"] & EPHEMERAL and "A copy is kept" in text_of(menu)
            await t.restart()  # the private menu still answers after a restart
            assert "Signed up" in await choose_in(t, menu, bob, "ready:egipcia")
            hints = await fake.autocomplete("gdm deck pick", bob, world.channel, "tournament", tournament="copa")
            assert [h["value"] for h in hints] == [tid]
            said = await answer(t, "gdm deck pick", bob, deck="ready:nordica", tournament=tid)
            assert "Your deck for **Copa de los dioses** is now" in text_of(said)
            assert "(2" in text_of(fake.messages[signup["id"]])

            # bad input changes nothing: someone else's deck, a deck no longer legal
            refused = await answer(t, "gdm deck pick", bob, deck=alice_key, tournament=tid)
            assert "not yours" in text_of(refused)
            await answer(t, "gdm deck remove", alice, deck="Olímpicos", card=HACHA, count=2)
            refused = await answer(t, "gdm deck pick", alice, deck=alice_key, tournament=tid)
            assert "no se puede jugar" in text_of(refused)
            locks = {lk.user_id: lk for lk in await t.bot.store.deck_locks(tid)}
            assert locks[int(alice["id"])].cards == greek.counts()  # the copy, not the edited deck
            assert locks[int(bob["id"])].source == "ready:nordica"
            assert "Olímpicos" not in public_text(t, world.channel)

            _, _, started = await t.slash("tournament start", org, wait=30)
            assert "has started" in text_of(started)

            async def table() -> int | None:
                ms = await t.bot.tournaments.store.matches(tid, 1)
                return ms[0].game if ms and ms[0].game is not None else None

            for _ in range(400):
                gid = await table()
                if gid is not None:
                    break
                await asyncio.sleep(0.02)
            g = await t.game(gid)
            seat = {g.seat_row(s).user_id: s for s in range(2)}
            assert dealt(g.state, seat[int(alice["id"])]) == deck_of(greek)
            assert dealt(g.state, seat[int(bob["id"])]) == deck_of(ready_decks()["nordica"].deck)
            thread = fake.channels[str(g.row.channel_id)]
            assert "Olímpicos" not in public_text(t, thread)

            # once the tournament runs, the locked deck stays
            refused = await answer(t, "gdm deck pick", alice, deck="ready:griega", tournament=tid)
            assert "sigue siendo «Olímpicos»" in text_of(refused)
        assert not errors.messages(), errors.messages()
