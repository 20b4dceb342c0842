"""What keeps one member from tiring the bot, through the real bot against the fake Discord
server: the heavy commands' cooldown, the caps on open lobbies and threads (set in
/config), and replays drawn a few at a time; each refusal in the member's language."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest

from services.clock import ManualClock
from services.limits import Gate

from .fake_discord import EPHEMERAL, MANAGE_GUILD
from .harness import FakeWorld
from .table import Table


def world(fake: Any) -> FakeWorld:
    options = {"alice": {"permissions": MANAGE_GUILD}, "bob": {"locale": "es-ES"}}
    return FakeWorld(users=["alice", "bob", "carol"], user_options=options, fake=fake,
                     channels=["games", "general", "cards", "dice"])


def said(message: dict | None) -> str:
    assert message is not None
    return (message.get("content") or "") + str(message.get("embeds") or "")


async def new(t: Table, user: dict, channel: str, **options: Any) -> dict | None:
    """/game new of Rey y Hierofante in ``channel``; the answer (lobby or refusal)."""
    _, _, message = await t.slash("game new", user, t.world.channels[channel], game="rey_hierofante", **options)
    return message


async def test_a_member_opens_three_games_a_minute_at_most(fake, db) -> None:
    async with world(fake) as w:
        clock = ManualClock()
        t = Table(w, db, clock=clock)
        await t.start()
        alice, bob = w["alice"], w["bob"]
        for _ in range(3):  # open and abandon: three uses in a minute are fine
            assert (await new(t, alice, "games"))["embeds"]
            await t.slash("game abandon", alice, w.channels["games"])
            clock.advance(10)
        refused = await new(t, alice, "games")
        assert refused["flags"] & EPHEMERAL and "Wait 30 s before opening another game with /game new." in said(refused)
        # a refusal does not count: bob (Spanish) asking three times for a game where one is
        # open may still open games after
        assert (await new(t, bob, "general"))["embeds"]
        for _ in range(3):
            taken = await new(t, bob, "general")
            assert taken["flags"] & EPHEMERAL and not taken["embeds"] and "Espera" not in said(taken)
        await t.slash("game abandon", bob, w.channels["general"])
        assert (await new(t, bob, "general"))["embeds"]
        # a minute after her first game, alice may open one again
        clock.advance(30)
        assert (await new(t, alice, "games"))["embeds"]
        # the server may lift the limit, or make it longer
        _, _, shown = await t.slash("config", alice, cooldown="off")
        assert "no limit" in said(shown)
        for _ in range(4):
            await t.slash("game abandon", alice, w.channels["games"])
            assert (await new(t, alice, "games"))["embeds"]
        _, _, shown = await t.slash("config", alice, cooldown="5m")
        assert "at most 3 per member and command in 300 seconds" in said(shown)


async def test_open_lobbies_and_threads_are_capped_per_member_and_per_server(fake, db) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        alice, bob, carol = w["alice"], w["bob"], w["carol"]
        _, _, shown = await t.slash("config", alice, lobbies_per_member=1, lobbies_per_server=2, cooldown="off")
        assert "1 per member, 2 in the whole server" in said(shown)
        lobby = await new(t, alice, "games", thread=False)
        refused = await new(t, alice, "general", thread=False)
        assert refused["flags"] & EPHEMERAL
        assert "as many open lobbies as this server allows a member (1)" in said(refused)
        assert (await new(t, bob, "general", thread=False))["embeds"]
        refused = await new(t, carol, "cards", thread=False)
        assert "This server already holds as many open lobbies as it allows (2)" in said(refused)
        # a lobby that starts is a lobby no more: alice may open another
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["ai"], alice)
        await t.click(lobby, buttons["start"], alice)
        assert (await new(t, alice, "cards", thread=False))["embeds"]

        # threads: one per member, three in the server; a game in the channel needs none
        await t.slash("config", alice, lobbies_per_member=5, lobbies_per_server=20, threads_per_member=1,
                      threads_per_server=2)
        await t.slash("game abandon", alice, w.channels["cards"])
        opened = await new(t, alice, "dice", thread=True)
        assert "<#" in said(opened)
        refused = await new(t, alice, "dice", thread=True)
        assert "as many threads as this server allows a member (1)" in said(refused)
        assert (await new(t, alice, "dice", thread=False))["embeds"]
        assert "<#" in said(await new(t, bob, "cards", thread=True))
        refused = await new(t, carol, "cards", thread=True)
        assert "ya ocupan" not in said(refused) and "as many threads as it allows (2)" in said(refused)
        spanish = await new(t, bob, "cards", thread=True)
        assert "tantos hilos como este servidor permite a un miembro (1)" in said(spanish)


async def test_replays_are_drawn_a_few_at_a_time_and_the_rest_told_the_bot_is_busy(
    fake, db, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        alice, bob, carol = w["alice"], w["bob"], w["carol"]
        await new(t, alice, "games", thread=False)
        t.bot.limits.replays = Gate(running=1, waiting=1)
        drawing = threading.Event()
        lobby_module = sys.modules["cogs.lobby"]  # as the bot loaded it
        real = lobby_module.replay_files

        def slow(*args: Any) -> Any:
            drawing.wait(10)
            return real(*args)

        monkeypatch.setattr(lobby_module, "replay_files", slow)
        first = await fake.slash("game replay", alice, w.channels["games"])
        second = await fake.slash("game replay", carol, w.channels["games"])
        await fake.wait_until(lambda: t.bot.limits.replays.inside == 2)
        _, _, busy = await t.slash("game replay", bob, w.channels["games"])
        assert busy["flags"] & EPHEMERAL and "se están dibujando muchas repeticiones" in said(busy)
        drawing.set()
        for inter in (first, second):
            await fake.wait_until(lambda inter=inter: fake.response_message(inter) is not None
                                  and fake.files(fake.response_message(inter)), timeout=30)
        assert t.bot.limits.replays.inside == 0
        _, _, again = await t.slash("game replay", bob, w.channels["games"])
        assert any(f["filename"].endswith(".json") for f in fake.files(again))


async def test_deck_imports_share_the_cooldown_and_a_refused_list_does_not_count(fake, db) -> None:
    from rules.guerra_de_mitos.decks import export_code, ready_decks

    async with world(fake) as w:
        clock = ManualClock()
        t = Table(w, db, clock=clock)
        await t.start()
        bob = w["bob"]  # in Spanish
        code = export_code(next(iter(ready_decks().values())).deck)
        for _ in range(4):  # typos: refused, not counted
            _, _, typo = await t.slash("gdm mazo importar", bob, nombre="Mal", texto="2 Hachaaa")
            assert "Hachaaa" in said(typo) and "Espera" not in said(typo)
        for k in range(3):
            _, _, done = await t.slash("gdm mazo importar", bob, nombre=f"Mazo {k}", texto=code)
            assert "importado" in said(done)
        _, _, refused = await t.slash("gdm mazo importar", bob, nombre="Otro", texto=code)
        assert refused["flags"] & EPHEMERAL
        assert "Espera 60 s antes de importar otro mazo con /gdm mazo importar." in said(refused)
        assert len(await t.bot.store.user_decks(int(bob["id"]))) == 3
        clock.advance(60)
        _, _, done = await t.slash("gdm mazo importar", bob, nombre="Otro", texto=code)
        assert "importado" in said(done)


async def test_members_opening_games_at_once_cannot_pass_the_servers_caps(fake, db) -> None:
    """Ten members send /game new together: the server's cap on threads, then on lobbies,
    holds exactly; the others are refused privately."""
    names = [f"m{k}" for k in range(10)]
    options = {"m0": {"permissions": MANAGE_GUILD}}
    async with FakeWorld(users=names, user_options=options, fake=fake, channels=["games"]) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        guild = int(w.guild["id"])
        # three threads may open; then, with room for threads, two more lobbies (five in all)
        for settings, opened in (({"threads_per_server": 3, "lobbies_per_server": 20}, 3),
                                 ({"threads_per_server": 50, "lobbies_per_server": 5}, 2)):
            await t.slash("config", w["m0"], cooldown="off", **settings)
            before = await t.bot.session.store.open_counts(guild, 0)
            sent = [await fake.slash_with("game new", w[n], w.channels["games"],
                                          {"game": "rey_hierofante", "thread": True}) for n in names]
            for inter in sent:
                await fake.wait_response(inter, timeout=10)
            await fake.wait_until(lambda sent=sent: all(fake.followups(i) or said_anything(fake.response_message(i))
                                                        for i in sent), timeout=20)
            after = await t.bot.session.store.open_counts(guild, 0)
            assert (after.threads - before.threads, after.lobbies - before.lobbies) == (opened, opened)
            answers = [m for i in sent for m in [fake.response_message(i), *fake.followups(i)] if m]
            refusals = [m for m in answers if m["flags"] & EPHEMERAL and "allows (" in said(m)]
            assert len(refusals) == len(names) - opened


def said_anything(message: dict | None) -> bool:
    """Whether a (deferred) answer has been filled."""
    return bool(message and (message.get("content") or message.get("embeds")))
