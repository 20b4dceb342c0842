"""The settings of games' threads (the default, the archive delay) and when a finished
game's thread is due to be archived, on both backends."""

from __future__ import annotations

import time

from storage import Store
from storage.settings import OpenCounts


async def _game_in_thread(store: Store, guild_id: int, thread_id: int) -> int:
    game = await store.create_game(guild_id=guild_id, channel_id=thread_id, game_id="ragami",
                                   options={}, host_id=10, locale="es")
    await store.note_game_thread(thread_id, game.id, guild_id)
    return game.id


async def test_thread_settings_default_on_and_a_day_then_change(store: Store) -> None:
    gs = await store.guild_settings(1)
    assert gs.game_threads is True and gs.archive_hours == 24
    gs = await store.update_guild(1, game_threads=False, archive_hours=0)
    assert gs.game_threads is False and gs.archive_hours == 0
    again = await store.guild_settings(1)
    assert again.game_threads is False and again.archive_hours == 0
    # another setting changed later keeps these
    await store.update_guild(1, clock_seconds=3600)
    assert (await store.guild_settings(1)).game_threads is False


async def test_a_thread_is_due_its_servers_hours_after_its_game_ended_and_only_once(store: Store) -> None:
    await store.update_guild(2, archive_hours=1)
    await store.update_guild(3, archive_hours=0)  # never
    day = await _game_in_thread(store, 1, 501)  # a server never configured: 24 hours
    hour = await _game_in_thread(store, 2, 502)
    never = await _game_in_thread(store, 3, 503)
    open_game = await _game_in_thread(store, 2, 504)
    assert await store.threads_due(time.time() + 10 ** 7) == []  # nothing has ended
    for game in (day, hour, never):
        await store.set_status(game, "abandoned")
    ended = time.time()
    assert [d.thread_id for d in await store.threads_due(ended + 2 * 3600)] == [502]
    due = await store.threads_due(ended + 25 * 3600)
    assert sorted(d.thread_id for d in due) == [501, 502]
    assert {d.game for d in due} == {day, hour} and open_game not in {d.game for d in due}
    await store.thread_archived(502)
    assert await store.game_thread_archived_at(502) is not None
    assert await store.game_thread_archived_at(501) is None
    assert [d.thread_id for d in await store.threads_due(ended + 25 * 3600)] == [501]


async def test_the_limits_default_then_change_and_the_open_counts(store: Store) -> None:
    gs = await store.guild_settings(1)
    assert (gs.cooldown_seconds, gs.lobbies_per_member, gs.lobbies_per_server) == (60, 3, 30)
    assert (gs.threads_per_member, gs.threads_per_server) == (5, 100)
    await store.update_guild(1, cooldown_seconds=0, lobbies_per_member=1, threads_per_server=7)
    gs = await store.guild_settings(1)
    assert (gs.cooldown_seconds, gs.lobbies_per_member, gs.threads_per_server) == (0, 1, 7)
    assert gs.lobbies_per_server == 30

    assert await store.open_counts(1, 10) == OpenCounts()
    here = await store.create_game(guild_id=1, channel_id=600, game_id="ragami", options={}, host_id=10,
                                   locale="es")
    await _game_in_thread(store, 1, 601)  # host 10, in a thread
    other = await store.create_game(guild_id=1, channel_id=602, game_id="ragami", options={}, host_id=11,
                                    locale="es")
    await _game_in_thread(store, 2, 603)  # another server
    assert await store.open_counts(1, 10) == OpenCounts(lobbies=3, member_lobbies=2, threads=1, member_threads=1)
    assert await store.open_counts(1, 11) == OpenCounts(lobbies=3, member_lobbies=1, threads=1, member_threads=0)
    # a started game is no lobby; an ended game's thread no longer counts
    await store.set_status(other.id, "active")
    thread_game = (await store.game_in_channel(601)).id
    await store.set_status(thread_game, "abandoned")
    await store.set_status(here.id, "abandoned")
    assert await store.open_counts(1, 10) == OpenCounts()
    assert await store.open_counts(1, 11) == OpenCounts(lobbies=0, member_lobbies=0, threads=0)
