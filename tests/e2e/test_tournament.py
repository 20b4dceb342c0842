"""Tournaments end to end through the real bot against the fake Discord server: sign-up with
buttons, rounds opening threads by themselves as games end, a player dropped, a clock that
runs out, the bot restarted mid-round (and a round's last game finished while it was down),
the standings with picture and CSV, the podium, and the ratings the games leave.

The players' moves are made through the session service with each game's AI choosing them
(the menus are covered by the games' own end-to-end tests); everything else goes through
Discord as a player or an organiser would do it."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import random
import re

from services.clock import ManualClock
from services.ratings import shown_rating
from services.session import SessionService
from storage import Store

from .fake_discord import CREATE_PUBLIC_THREADS, EPHEMERAL, SEND_MESSAGES
from .harness import FakeWorld
from .table import Table

HOUR = 3600.0


def text_of(message: dict) -> str:
    return (message.get("content") or "") + json.dumps(
        message.get("embeds", []), ensure_ascii=False
    )


async def play(session: SessionService, game: int, *, until_one_pending: bool = False) -> None:
    """Humans at ``game`` move (their game's AI picks each move) until it ends, or until
    exactly one human must act and ``until_one_pending`` asks to stop there."""
    for _ in range(5000):
        g = await session.get(game)
        assert g is not None
        if g.status != "active":
            return
        humans = [s for s in sorted(g.pending()) if not g.seat_row(s).ai]
        assert humans, f"game {game}: nobody human to move"
        if until_one_pending and len(humans) == 1:
            return
        seat = humans[0]
        action = g.engine.ai_action(g.state, seat)
        await session.move(game, g.seat_row(seat).user_id, action.model_dump(mode="json"))
    raise AssertionError(f"game {game} did not end")


async def sign_up(t: Table, organiser: dict, players: list[dict], **options) -> tuple[int, dict]:
    """/tournament create, then every player presses the sign-up button; (id, message)."""
    _, _, message = await t.slash("tournament create", organiser, **options)
    assert message is not None and not message["flags"] & EPHEMERAL
    tid = int(message["embeds"][0]["title"].split("#")[-1])
    join = next(
        c["custom_id"] for c in t.fake.components(message) if ":join:" in c.get("custom_id", "")
    )
    leave = next(
        c["custom_id"] for c in t.fake.components(message) if ":leave:" in c.get("custom_id", "")
    )
    for p in players:
        await t.click(message, join, p)
    # leaving before the start, then coming back
    await t.click(message, leave, players[0])
    assert f"({len(players) - 1}" in text_of(t.fake.messages[message["id"]])
    await t.click(message, join, players[0])
    inter, _ = await t.click(message, join, players[0])  # twice: refused privately
    assert "already signed up" in text_of(t.fake.response_message(inter))
    assert f"({len(players)}" in text_of(t.fake.messages[message["id"]])
    return tid, message


async def round_tables(t: Table, tid: int, number: int, count: int) -> list:
    """Wait until round ``number`` has ``count`` tables playing; their rows."""
    store = t.bot.tournaments.store

    async def ready():
        ms = [m for m in await store.matches(tid, number) if m.result != "bye"]
        return ms if len(ms) == count and all(m.game is not None for m in ms) else None

    for _ in range(400):
        found = await ready()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(
        f"round {number} did not open {count} tables: {await store.matches(tid, number)}"
    )


async def test_swiss_of_nine_at_tables_of_three_with_a_timeout_a_drop_and_restarts(
    fake, db
) -> None:
    clock = ManualClock()
    names = ["org"] + [f"p{i}" for i in range(1, 10)]
    async with FakeWorld(users=names, fake=fake, owner="org") as world:
        t = Table(world, db, random.Random(1), clock=clock)
        await t.start()
        org, players = world["org"], [world[f"p{i}"] for i in range(1, 10)]
        # only organisers create tournaments
        _, _, refused = await t.slash(
            "tournament create", players[0], name="Nope", game="rattus_cartus", format="swiss"
        )
        assert refused["flags"] & EPHEMERAL and "organisers" in text_of(refused)
        tid, signup = await sign_up(
            t,
            org,
            players,
            name="Liga de la peste",
            game="rattus_cartus",
            format="swiss",
            table_size=3,
            rounds=2,
            clock="12h",
            timeout="drop",
            seeding="random",
        )
        _, _, started = await t.slash("tournament start", org, wait=30)
        assert "has started" in text_of(started)
        svc = t.bot.tournaments
        r1 = await round_tables(t, tid, 1, 3)
        assert sorted(u for m in r1 for u in m.user_ids) == sorted(int(p["id"]) for p in players)
        # each table: its own thread, the players mentioned, the clock, a link to the standings
        standings_url = f"/{world.channel['id']}/{signup['id']}"
        for m in r1:
            g = await t.game(m.game)
            assert g.status == "active" and [s.user_id for s in g.seats] == list(m.user_ids)
            assert g.row.clock_seconds == 12 * HOUR and g.row.timeout_action == "drop"
            thread = fake.channels[str(g.row.channel_id)]
            assert thread["parent_id"] == world.channel["id"]
            intro = fake.channel_messages(thread)[0]
            assert set(fake.pinged(intro)) == {str(u) for u in m.user_ids}
            assert standings_url in intro["content"] and "12h" in intro["content"]
        announced = await fake.wait_for_message(
            world.channel, lambda msg: "round 1 begins" in msg["content"]
        )
        threads = [(await t.game(m.game)).row.channel_id for m in r1]
        assert all(f"<#{thread}>" in announced["content"] for thread in threads)
        # the sign-up message has become the standings
        await fake.wait_until(lambda: not fake.components(fake.messages[signup["id"]]))
        assert "Playing: round 1" in text_of(fake.messages[signup["id"]])

        # table 1 plays to the end; the bot is restarted mid-round
        await play(t.bot.session, r1[0].game)
        await fake.wait_until(
            lambda: (
                "Round 1, table 1"
                in "".join(m["content"] or "" for m in fake.channel_messages(world.channel))
            )
        )
        await t.restart()
        svc = t.bot.tournaments
        assert (await svc.store.get_match(r1[0].id)).status == "finished"

        # table 2: one player lets the clock run out; the bot takes the seat, a loss for them
        await play(t.bot.session, r1[1].game, until_one_pending=True)
        g = await t.game(r1[1].game)
        (late,) = [s for s in g.pending() if not g.seat_row(s).ai]
        late_user = g.seat_row(late).user_id
        clock.advance(12 * HOUR + 1)
        assert (await t.bot.scheduler.tick()).timeouts >= 1
        g = await t.game(r1[1].game)
        assert g.seat_row(late).ai and g.seat_row(late).dropped
        await play(t.bot.session, r1[1].game)
        await t.bot.session.settle()
        done = await svc.store.get_match(r1[1].id)
        assert done.status == "finished"
        places = {p.user_id: p.place for p in done.players}
        assert places[late_user] == max(places.values())  # last, whatever the bot achieved
        # the table's result marks the seat the bot took over as the bot's
        result = await fake.wait_for_message(world.channel, lambda msg: "Round 1, table 2" in msg["content"])
        assert f"🤖 {t._name_of(late_user)}" in result["content"], result["content"]
        assert result["content"].count("🤖") == 1
        history = await t.bot.session.store._fetchall(
            "SELECT count(*) FROM rating_history WHERE game = ?", (r1[1].game,)
        )
        assert history[0][0] == 0  # a game with an AI seat is not rated

        # table 3 ends while the bot is down: the next start takes its result and opens round 2
        await world.stop()
        store = await Store.open(db)
        offline = SessionService(store, clock=clock)
        await play(offline, r1[2].game)
        await store.close()
        await t.start()
        svc = t.bot.tournaments
        r2 = await round_tables(t, tid, 2, 3)
        assert (await svc.store.get_match(r1[2].id)).status == "finished"
        await fake.wait_for_message(world.channel, lambda msg: "round 2 begins" in msg["content"])

        # round 2: the organiser drops a player; their game is closed and lost
        gone = r2[0].user_ids[1]
        _, _, said = await t.slash("tournament drop", org, player=world[t._name_of(gone)])
        assert "dropped" in text_of(said)
        closed = await t.game(r2[0].game)
        assert closed.status == "abandoned"
        m = await svc.store.get_match(r2[0].id)
        assert m.status == "finished" and m.result == "abandoned"
        assert {p.user_id: p.place for p in m.players}[gone] == 2
        for m in r2[1:]:
            await play(t.bot.session, m.game)

        podium = await fake.wait_for_message(
            world.channel, lambda msg: "is over" in (msg["content"] or ""), timeout=20
        )
        assert (await svc.require(tid)).status == "finished"
        assert any(f["filename"].endswith(".png") for f in fake.files(podium))
        first = [s.player for s in await svc.standings(tid) if s.rank == 1]
        assert all(str(u) in fake.pinged(podium) for u in first)
        # no round 3: two rounds were asked for
        assert not await svc.store.matches(tid, 3)

        # standings: embed, picture, CSV with everyone (the dropped player marked)
        _, _, table = await t.slash("tournament standings", players[3], tournament=tid, wait=20)
        assert "Buchholz" in text_of(table) and "(dropped)" in text_of(table)
        files = {f["filename"]: f for f in fake.files(table)}
        assert {f"tournament-{tid}.png", f"tournament-{tid}.csv"} <= set(files)
        rows = list(csv.DictReader(io.StringIO(files[f"tournament-{tid}.csv"]["data"].decode())))
        assert len(rows) == 9
        assert [r for r in rows if r["dropped"] in ("yes", "True", "true", "1")][0][
            "user_id"
        ] == str(gone)

        # ratings: positive whole numbers on the scale every newcomer starts at 1000 on,
        # a record for each player who finished a rated game
        _, _, top = await t.slash("rating top", players[0], game="rattus_cartus")
        lines = top["embeds"][0]["description"].splitlines()
        shown = [line.split("**")[1] for line in lines if "**" in line]
        assert shown and all(r.isdigit() and int(r) > 0 for r in shown), lines
        assert any(int(r) > 1000 for r in shown) and any(int(r) < 1000 for r in shown), shown
        assert "starts at 1000" in top["embeds"][0]["footer"]["text"]
        _, _, mine = await t.slash("rating me", world[t._name_of(r1[0].user_ids[0])])
        assert re.search(r"\d+ games?\b", text_of(mine)) and mine["flags"] & EPHEMERAL
        assert re.search(r"Rating \*\*[1-9]\d*\*\*", text_of(mine)) and not re.search(r"-\d", text_of(mine))


async def test_single_elimination_of_eight_to_the_podium(fake, db) -> None:
    names = ["org"] + [f"k{i}" for i in range(1, 9)]
    async with FakeWorld(users=names, fake=fake, owner="org") as world:
        t = Table(world, db, random.Random(2))
        await t.start()
        org, players = world["org"], [world[f"k{i}"] for i in range(1, 9)]
        tid, _ = await sign_up(
            t,
            org,
            players,
            name="Copa del Rey",
            game="rey_hierofante",
            format="single_elim",
            options="wins_needed=1",
        )
        await t.slash("tournament start", org, wait=30)
        svc = t.bot.tournaments
        expected = {1: 4, 2: 2, 3: 1}
        for number, count in expected.items():
            tables = await round_tables(t, tid, number, count)
            for i, m in enumerate(tables):
                await play(t.bot.session, m.game)
                if number == 1 and i == 1:
                    await t.bot.session.settle()
                    await t.restart()  # mid-round: the bracket goes on after it
                    svc = t.bot.tournaments
        podium = await fake.wait_for_message(
            world.channel, lambda msg: "is over" in (msg["content"] or ""), timeout=20
        )
        standings = await svc.standings(tid)
        champion = [s.player for s in standings if s.rank == 1]
        assert len(champion) == 1 and str(champion[0]) in fake.pinged(podium)
        assert [s.rank for s in standings] == [1, 2, 3, 3, 5, 5, 5, 5]
        assert {f["filename"] for f in fake.files(podium)} >= {
            f"tournament-{tid}.png",
            f"bracket-{tid}.png",
        }
        # every game was rated: the champion has three wins and a rating above a newcomer's 1000
        _, _, mine = await t.slash("rating me", world[t._name_of(champion[0])])
        assert "3 games, 3 wins" in text_of(mine)
        rating = (await svc.ratings.ratings_of(int(world.guild["id"]), "rey_hierofante", champion))[
            champion[0]
        ]
        assert rating.games == 3 and f"**{shown_rating(rating.conservative)}**" in text_of(mine)
        assert shown_rating(rating.conservative) > 1000 and "-" not in re.findall(r"\*\*(-?\d+)\*\*", text_of(mine))[0]


async def test_check_in_an_organiser_role_a_deadline_a_replayed_table_an_award_and_ending_early(
    fake, db
) -> None:
    clock = ManualClock()
    names = ["org", "helper", "q1", "q2", "q3", "q4", "q5"]
    async with FakeWorld(
        users=names, fake=fake, owner="org", user_options={"helper": {"manage_channels": True}}
    ) as world:
        t = Table(world, db, random.Random(3), clock=clock)
        await t.start()
        org, helper = world["org"], world["helper"]
        quick = [world[f"q{i}"] for i in range(1, 6)]
        gid = world.guild["id"]
        role_id = fake.guild_members[gid][helper["id"]]["roles"][0]
        role = next(r for r in fake.guilds[gid]["roles"] if r["id"] == role_id)
        _, _, shown = await t.slash("config", org, organiser_role=role)
        assert f"<@&{role_id}>" in text_of(shown)
        # the organiser role may create; sign-up closes by itself an hour later
        _, _, message = await t.slash(
            "tournament create",
            helper,
            name="Copa rápida",
            game="rey_hierofante",
            format="swiss",
            rounds=2,
            check_in=True,
            cap=5,
            signup_hours=1,
            options="wins_needed=1",
        )
        tid = int(message["embeds"][0]["title"].split("#")[-1])
        buttons = {
            c["custom_id"].split(":")[2]: c["custom_id"]
            for c in fake.components(message)
            if c.get("custom_id", "").startswith("tablero:tourney:")
        }
        for p in quick:
            await t.click(message, buttons["join"], p)
        full = fake.messages[message["id"]]
        assert "(5/5)" in text_of(full)
        join = next(c for c in fake.components(full) if c.get("custom_id") == buttons["join"])
        assert join.get("disabled")  # the cap is reached
        for p in quick[:4]:
            await t.click(message, buttons["checkin"], p)
        assert text_of(fake.messages[message["id"]]).count("✅") == 4
        _, _, refused = await t.slash("tournament start", quick[0])
        assert "organisers" in text_of(refused)
        cog = t.bot.get_cog("Tournaments")
        await cog.tick()
        assert (await t.bot.tournaments.require(tid)).status == "signup"  # not yet
        clock.advance(HOUR + 1)
        await cog.tick()
        svc = t.bot.tournaments
        entrants = [e.user_id for e in await svc.store.entrants(tid)]
        assert int(quick[4]["id"]) not in entrants and len(entrants) == 4  # never checked in
        r1 = await round_tables(t, tid, 1, 2)
        # a table's thread is no place for a new tournament (its tables would need threads)
        thread = fake.channels[str((await t.game(r1[0].game)).row.channel_id)]
        _, _, refused = await t.slash(
            "tournament create", org, thread, name="Otra", game="rey_hierofante", format="swiss"
        )
        assert refused["flags"] & EPHEMERAL and "text channel" in text_of(refused)

        # table 1 is played again with a new game; table 2's result is awarded
        _, _, said = await t.slash("tournament repair", helper, table=1, wait=20)
        assert "starts again" in text_of(said)
        assert (await t.game(r1[0].game)).status == "abandoned"
        again = await svc.store.get_match(r1[0].id)
        assert again.status == "playing" and again.game != r1[0].game
        await fake.wait_for_message(world.channel, lambda m: "played again" in (m["content"] or ""))
        loser, winner = r1[1].user_ids
        _, _, said = await t.slash(
            "tournament award", helper, table=2, ranking=f"<@{winner}> <@{loser}>", wait=20
        )
        assert "recorded" in text_of(said)
        awarded = await svc.store.get_match(r1[1].id)
        assert awarded.result == "awarded"
        assert {p.user_id: p.place for p in awarded.players} == {winner: 0, loser: 1}
        assert (await t.game(r1[1].game)).status == "abandoned"
        # Discord refuses the next round's threads: the tables wait, stored, and open by
        # themselves at the next check once the permission is back
        await fake.deny_bot(world.channel, CREATE_PUBLIC_THREADS)
        await play(t.bot.session, again.game)
        await t.bot.session.settle()
        await fake.wait_for_message(
            world.channel, lambda m: "cannot open the tables' threads" in (m["content"] or "")
        )
        waiting = await svc.store.matches(tid, 2)
        assert len(waiting) == 2 and all(m.status == "pending" for m in waiting)
        await cog.tick()
        assert all(m.status == "pending" for m in await svc.store.matches(tid, 2))
        notices = [
            m
            for m in fake.channel_messages(world.channel)
            if "cannot open the tables' threads" in (m["content"] or "")
        ]
        assert len(notices) == 1  # said once, not at every retry
        await fake.set_overwrite(world.channel, fake.bot_user["id"], deny=0, member=True)
        await cog.tick()
        await round_tables(t, tid, 2, 2)
        await fake.wait_for_message(
            world.channel, lambda m: "round 2 begins" in (m["content"] or "")
        )

        # ended early in round 2 while Discord refuses the bot's posts in the channel: the
        # organiser is told privately what is missing, the podium waits, stored, and goes
        # out once at the next check after the permission is back
        await fake.deny_bot(world.channel, SEND_MESSAGES)
        _, _, said = await t.slash("tournament end", helper, wait=20)
        assert "closed" in text_of(said)
        await fake.wait_until(
            lambda: any("cannot post in" in (m["content"] or "") for m in fake.dms_to(helper)),
            timeout=20,
        )
        told = [m for m in fake.dms_to(helper) if "cannot post in" in (m["content"] or "")]
        assert len(told) == 1 and "Send Messages" in told[0]["content"]
        assert not any("is over" in (m["content"] or "") for m in fake.channel_messages(world.channel))
        assert await svc.store.tournaments_owing() == [tid]
        await cog.tick()  # still refused: kept, and the organiser is not told again
        assert len([m for m in fake.dms_to(helper) if "cannot post in" in (m["content"] or "")]) == 1
        await fake.set_overwrite(world.channel, fake.bot_user["id"], deny=0, member=True)
        await cog.tick()
        await fake.wait_for_message(world.channel, lambda m: "is over" in (m["content"] or ""))
        assert await svc.store.tournaments_owing() == []
        assert len([m for m in fake.channel_messages(world.channel)
                    if "is over" in (m["content"] or "")]) == 1
        assert (await svc.require(tid)).status == "finished"
        for m in await svc.store.matches(tid, 2):
            assert (await t.game(m.game)).status == "abandoned"
            assert m.status == "playing"  # no result: never played
        first_round = [await svc.store.get_match(m.id) for m in r1]
        winners = {p.user_id for m in first_round for p in m.players if p.place == 0}
        standings = await svc.standings(tid)
        assert {s.player for s in standings if s.points == 1} == winners  # round 2 never counted


async def test_a_tournament_named_with_a_mention_and_a_link_pings_only_the_players(fake, db) -> None:
    async with FakeWorld(users=["org", "p1", "p2", "outsider"], fake=fake, owner="org") as world:
        t = Table(world, db, random.Random(5))
        await t.start()
        org, p1, p2 = world["org"], world["p1"], world["p2"]
        outsider = world["outsider"]["id"]
        name = f"<@{outsider}> [Cup](https://evil.example) @everyone"
        tid, _ = await sign_up(t, org, [p1, p2], name=name, game="rey_hierofante",
                               format="single_elim", options="wins_needed=1")
        await t.slash("tournament start", org, wait=30)
        [table] = await round_tables(t, tid, 1, 1)
        g = await t.bot.session.get(table.game)
        intro = await fake.wait_for_message(
            {"id": str(g.row.channel_id)}, lambda m: "Cup" in (m["content"] or ""), timeout=10)
        assert set(fake.pinged(intro)) == {p1["id"], p2["id"]}
        await play(t.bot.session, table.game)
        over = await fake.wait_for_message(
            world.channel, lambda m: "is over" in (m["content"] or ""), timeout=20)
        for message in (intro, over):
            text = message["content"]
            assert f"<@{outsider}>" not in text and "](https://" not in text and "@everyone" not in text
            assert outsider not in fake.pinged(message)
