"""Games in their own threads, through the real bot against the fake Discord server: the
thread default and /config, the member's own permissions at /game new, /game list showing
only channels the member can see, archiving a finished game's thread (across a restart),
and links that lead to the game's thread or channel rather than to a message."""

from __future__ import annotations

import time
from typing import Any

from services.clock import ManualClock

from .fake_discord import (
    CREATE_PUBLIC_THREADS,
    EPHEMERAL,
    MANAGE_GUILD,
    MANAGE_THREADS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from .harness import FakeWorld
from .table import Table

HOUR = 3600.0
PUBLIC_THREAD = 11


async def new_game(t: Table, user: dict, channel: dict | None = None, **options: Any) -> tuple[dict, dict]:
    """/game new as the host types it (no thread option unless given): (response, message)."""
    fake = t.fake
    inter = await fake.slash("game new", user, channel or t.world.channel, game="rey_hierofante", **options)
    resp = await fake.wait_response(inter)
    if resp["type"] == 5:  # deferred: opening a thread answers with a followup
        await fake.wait_until(lambda: fake.response_message(inter) is not None
                              and fake.response_message(inter)["content"])
    message = fake.response_message(inter)
    assert message is not None
    return resp, message


def threads_under(t: Table, channel: dict) -> list[dict]:
    return [c for c in t.fake.channels.values() if c.get("type") == PUBLIC_THREAD and c.get("parent_id") == channel["id"]]


def world(fake: Any, **kwargs: Any) -> FakeWorld:
    options = {"alice": {"permissions": MANAGE_GUILD}, "bob": {"locale": "es-ES"}}
    return FakeWorld(users=["alice", "bob"], user_options=options, fake=fake, **kwargs)


async def test_a_new_game_opens_in_its_own_thread_unless_the_server_or_host_says_otherwise(fake, db) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        games = w.channel
        _, answer = await new_game(t, w["alice"])
        (thread,) = threads_under(t, games)
        assert answer["flags"] & EPHEMERAL and f"<#{thread['id']}>" in answer["content"]
        g = await t.bot.session.in_channel(int(thread["id"]))
        assert g is not None and g.status == "lobby"
        assert [m for m in fake.channel_messages(thread) if m["embeds"]], "the lobby is in the thread"
        assert not [m for m in fake.channel_messages(games) if m["embeds"]], "nothing in the channel"

        # the server turns the default off: games open where asked; the host may still ask
        _, _, shown = await t.slash("config", w["alice"], threads=False)
        assert "New games in their own thread" in str(shown["embeds"])
        general = w.channels["general"]
        _, lobby = await new_game(t, w["alice"], general)
        assert not (lobby["flags"] & EPHEMERAL) and lobby["channel_id"] == general["id"]
        assert not threads_under(t, general)
        await new_game(t, w["bob"], general, thread=True)
        assert len(threads_under(t, general)) == 1


async def test_where_no_thread_can_open_the_default_stays_in_the_channel_and_an_explicit_thread_is_refused(
        fake, db) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        games, general = w.channel, w.channels["general"]
        # the bot may not open threads in #games
        await fake.deny_bot(games, CREATE_PUBLIC_THREADS)
        _, lobby = await new_game(t, w["alice"])
        assert lobby["channel_id"] == games["id"] and not threads_under(t, games)
        # the member may not open threads in #general (an overwrite on them)
        await fake.set_overwrite(general, w["bob"], deny=CREATE_PUBLIC_THREADS, member=True)
        _, refusal = await new_game(t, w["bob"], general, thread=True)
        assert refusal["flags"] & EPHEMERAL
        assert "te faltan" in refusal["content"] and "Crear hilos públicos" in refusal["content"]
        assert not threads_under(t, general)
        _, lobby = await new_game(t, w["bob"], general)
        assert lobby["channel_id"] == general["id"] and not (lobby["flags"] & EPHEMERAL)


async def test_game_new_checks_the_members_own_permissions(fake, db) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        games = w.channel
        # bob may neither post in #games nor open threads there
        await fake.set_overwrite(games, w["bob"], deny=SEND_MESSAGES | CREATE_PUBLIC_THREADS, member=True)
        _, refusal = await new_game(t, w["bob"])
        assert refusal["flags"] & EPHEMERAL and "Enviar mensajes" in refusal["content"]
        _, refusal = await new_game(t, w["bob"], thread=False)
        assert "Enviar mensajes" in refusal["content"]
        assert await t.bot.session.in_channel(int(games["id"])) is None and not threads_under(t, games)
        # a member who may open threads but not post in the channel gets a thread
        await fake.set_overwrite(games, w["bob"], deny=SEND_MESSAGES, member=True)
        await new_game(t, w["bob"])
        assert len(threads_under(t, games)) == 1
        assert await t.bot.session.in_channel(int(games["id"])) is None


async def test_game_list_shows_only_the_games_in_channels_the_member_can_see(fake, db) -> None:
    async with world(fake, channels=["games", "general", "secret"]) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        secret, general = w.channels["secret"], w.channels["general"]
        await new_game(t, w["alice"], secret, thread=False)
        await new_game(t, w["alice"], general)  # in a thread of #general
        (thread,) = threads_under(t, general)
        await fake.set_overwrite(secret, w["bob"], deny=VIEW_CHANNEL, member=True)
        _, _, seen_by_alice = await t.slash("game list", w["alice"])
        _, _, seen_by_bob = await t.slash("game list", w["bob"])
        assert f"<#{secret['id']}>" in str(seen_by_alice["embeds"]) and f"<#{thread['id']}>" in str(seen_by_alice["embeds"])
        assert f"<#{secret['id']}>" not in str(seen_by_bob["embeds"])
        assert f"<#{thread['id']}>" in str(seen_by_bob["embeds"])
        # a channel the bot no longer knows (deleted) is left out for everyone
        await fake.delete_channel(secret)
        _, _, seen_by_alice = await t.slash("game list", w["alice"])
        assert f"<#{secret['id']}>" not in str(seen_by_alice["embeds"])


async def test_a_finished_games_thread_is_archived_a_day_later_across_a_restart(fake, db) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        await new_game(t, w["alice"])
        (thread,) = threads_under(t, w.channel)
        await t.slash("game abandon", w["alice"], thread)
        ended = time.time()
        card = [m for m in fake.channel_messages(thread) if m["embeds"]]
        assert card

        # not before the day is over
        keeper = t.bot.get_cog("Lobby").threads
        assert await keeper.archive_due(now=ended + 23 * HOUR) == 0
        assert not thread["thread_metadata"]["archived"]
        # the due time is in the store: a new process archives it
        await t.restart()
        keeper = t.bot.get_cog("Lobby").threads
        assert await keeper.archive_due(now=ended + 25 * HOUR) == 1
        meta = fake.channels[thread["id"]]["thread_metadata"]
        assert meta["archived"] and not meta.get("locked")
        # the last card stays there to read; archived once, not again
        assert [m["id"] for m in fake.channel_messages(thread) if m["embeds"]] == [m["id"] for m in card]
        assert await keeper.archive_due(now=ended + 48 * HOUR) == 0


async def test_archiving_follows_the_servers_setting_and_gives_up_without_manage_threads(fake, db) -> None:
    async with world(fake, channels=["games", "general"]) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        _, _, shown = await t.slash("config", w["alice"], archive="never")
        assert "never" in str(shown["embeds"])
        await new_game(t, w["alice"])
        (kept,) = threads_under(t, w.channel)
        await t.slash("game abandon", w["alice"], kept)
        keeper = t.bot.get_cog("Lobby").threads
        assert await keeper.archive_due(now=time.time() + 30 * 24 * HOUR) == 0
        assert not kept["thread_metadata"]["archived"]

        await t.slash("config", w["alice"], archive="1h")
        general = w.channels["general"]
        await fake.deny_bot(general, MANAGE_THREADS)
        await new_game(t, w["alice"], general)
        (refused,) = threads_under(t, general)
        await t.slash("game abandon", w["alice"], refused)
        # both are due now (1 hour); Discord refuses the second: given up, not retried
        assert await keeper.archive_due(now=time.time() + 2 * HOUR) == 1
        assert kept["thread_metadata"]["archived"] and not refused["thread_metadata"]["archived"]
        assert await t.bot.store.game_thread_archived_at(int(refused["id"])) is not None
        assert await keeper.archive_due(now=time.time() + 3 * HOUR) == 0
        fake.errors.clear()  # the 403 above was expected


async def test_links_lead_to_the_games_thread_not_to_a_message(fake, db) -> None:
    async with world(fake) as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        alice, bob = w["alice"], w["bob"]
        await new_game(t, alice)
        (thread,) = threads_under(t, w.channel)
        g = await t.bot.session.in_channel(int(thread["id"]))
        assert g is not None
        lobby = next(m for m in fake.channel_messages(thread) if m["embeds"])
        for player in (alice, bob):  # told of their turn by DM
            await t.slash("settings", player, notify="dm")
        buttons = t.lobby_buttons(lobby)
        await t.click(lobby, buttons["join"], bob)
        await t.click(lobby, buttons["start"], alice)
        await fake.wait_until(lambda: t.board(g.id) is not None)
        link = f"https://discord.com/channels/{w.guild['id']}/{thread['id']}"
        _, _, mine = await t.slash("game mine", alice)
        assert link in str(mine["embeds"])
        assert f"{link}/" not in str(mine["embeds"])  # no message id after it
        # the turn's DM links there too
        turn = await fake.wait_until(lambda: next(
            (m for u in (alice, bob) for m in fake.dms_to(u) if "https://discord.com/channels/" in m["content"]), None))
        assert link in turn["content"].splitlines()


async def test_a_tournament_tables_thread_is_archived_after_its_game_like_a_lobbys(fake, db) -> None:
    from .test_tournament import play, round_tables, sign_up

    names = ["org", "k1", "k2", "k3", "k4"]
    async with FakeWorld(users=names, fake=fake, owner="org") as w:
        t = Table(w, db, clock=ManualClock())
        await t.start()
        tid, _ = await sign_up(t, w["org"], [w[n] for n in names[1:]], name="Copa", game="rey_hierofante",
                               format="single_elim", options="wins_needed=1")
        await t.slash("tournament start", w["org"], wait=30)
        first, second = await round_tables(t, tid, 1, 2)
        await play(t.bot.session, first.game)
        ended = time.time()
        threads = {int(c["id"]): c for c in threads_under(t, w.channel)}
        played = (await t.game(first.game)).row.channel_id
        waiting = (await t.game(second.game)).row.channel_id
        assert {played, waiting} <= set(threads)
        keeper = t.bot.get_cog("Lobby").threads
        assert await keeper.archive_due(now=ended + 25 * HOUR) == 1
        assert threads[played]["thread_metadata"]["archived"]
        assert not threads[waiting]["thread_metadata"]["archived"]
