"""The reliability record end to end through the real bot and the fake Discord: /rating me
shows it, in English and Spanish, and a tournament asking for a minimum refuses a sign-up
that falls short, by its button and by /tournament join, in the player's language."""

from __future__ import annotations

import random

from tests.storage.test_store_reliability import script_history

from .checks import text_of
from .fake_discord import EPHEMERAL
from .harness import FakeWorld
from .table import Table


def field(message: dict, name: str) -> str:
    """The value of the embed field called ``name`` ('' when there is none)."""
    for embed in message.get("embeds", []):
        for f in embed.get("fields", []):
            if f["name"] == name:
                return f["value"]
    return ""


async def test_rating_me_shows_the_record_and_a_tournament_refuses_a_short_one(fake, db) -> None:
    async with FakeWorld(users=["org", "ana", "bea", "cid"], fake=fake, owner="org") as world:
        t = Table(world, db, random.Random(4))
        await t.start()
        org, ana, bea = world["org"], world["ana"], world["bea"]
        guild = int(world.guild["id"])
        # ana's history on this server and another (games 1-5, as the store keeps them)
        await script_history(t.bot.session.store, int(ana["id"]), int(bea["id"]), guild, channel=9000)

        _, _, mine = await t.slash("rating me", ana)
        assert mine is not None and mine["flags"] & EPHEMERAL
        record = field(mine, "Reliability")
        assert "1 game finished · 1 lost on time or to the bot" in record
        assert "3 timeouts (33% of turns) · median time to move: 2 min" in record
        # asked by another player in the server: the same record, this server's
        _, _, hers = await t.slash("rating me", bea, player=ana["id"])
        assert field(hers, "Reliability") == record
        fake.settings(ana).locale = "es-ES"
        _, _, suyo = await t.slash("rating me", ana)
        assert "1 partida terminada · 1 perdida por tiempo o cedida al bot" in field(suyo, "Fiabilidad")
        # a newcomer has no record to show
        _, _, new = await t.slash("rating me", org)
        assert not field(new, "Reliability")

        _, _, signup = await t.slash("tournament create", org, name="Copa seria", game="rey_hierofante",
                                     format="swiss", max_timeouts=20, min_games=1)
        assert signup is not None and not signup["flags"] & EPHEMERAL
        assert "at most 20% of one's turns ran out of time" in text_of(signup)
        join = next(c["custom_id"] for c in fake.components(signup) if ":join:" in c.get("custom_id", ""))
        inter, _ = await t.click(signup, join, ana)
        refused = fake.response_message(inter)
        assert refused is not None and refused["flags"] & EPHEMERAL
        assert "como mucho un 20% de tus turnos" in text_of(refused) and "33% (3 de 9)" in text_of(refused)
        fake.settings(ana).locale = "en-US"
        _, _, again = await t.slash("tournament join", ana)
        assert again is not None and again["flags"] & EPHEMERAL
        assert "at most 20% of your turns ran out of time; yours: 33% (3 of 9)" in text_of(again)
        # cid has played no game here: the tournament asks for one finished game
        inter, _ = await t.click(signup, join, world["cid"])
        assert "at least 1 finished game on this server; you have 0" in text_of(fake.response_message(inter))
        # bea finished a game here and never ran out of time: she is in
        await t.click(signup, join, bea)
        tid = int(signup["embeds"][0]["title"].split("#")[-1])
        assert [e.user_id for e in await t.bot.tournaments.store.entrants(tid)] == [int(bea["id"])]
