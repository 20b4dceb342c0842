"""Shard settings: TABLERO_SHARDS, TABLERO_SHARD_IDS, TABLERO_LEASE_SECONDS, and the client."""

from __future__ import annotations

import pytest
from discord.ext import commands

from bot import Settings, SettingsError, ShardedTableroBot, TableroBot, create_bot


def test_without_shards_one_process_holds_everything() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": "a"})
    assert (s.shard_count, s.shard_ids, s.client_options()) == (None, None, {})


def test_shards_and_this_process_share() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": "a", "TABLERO_SHARDS": " 4 ", "TABLERO_SHARD_IDS": "2, 3",
                           "TABLERO_LEASE_SECONDS": "7.5"})
    assert (s.shard_count, s.shard_ids, s.lease_seconds) == (4, (2, 3), 7.5)
    assert s.client_options() == {"shard_count": 4, "shard_ids": [2, 3]}
    # No share named: this process holds every shard.
    assert Settings.from_env({"DISCORD_TOKEN": "a", "TABLERO_SHARDS": "3"}).shard_ids == (0, 1, 2)


@pytest.mark.parametrize("env, says", [
    ({"TABLERO_SHARDS": "two"}, "TABLERO_SHARDS must be the number of shards"),
    ({"TABLERO_SHARDS": "0"}, "TABLERO_SHARDS must be the number of shards"),
    ({"TABLERO_SHARD_IDS": "0"}, "TABLERO_SHARD_IDS needs TABLERO_SHARDS"),
    ({"TABLERO_SHARDS": "2", "TABLERO_SHARD_IDS": "2"}, "shards are numbered 0 to 1"),
    ({"TABLERO_SHARDS": "2", "TABLERO_SHARD_IDS": "0;1"}, "separated by commas"),
    ({"TABLERO_SHARDS": "2", "TABLERO_SHARD_IDS": "-1"}, "separated by commas"),
    ({"TABLERO_SHARDS": "2", "TABLERO_SHARD_IDS": "1,1"}, "names a shard twice"),
    ({"TABLERO_LEASE_SECONDS": "0"}, "TABLERO_LEASE_SECONDS must be a positive number"),
    ({"TABLERO_LEASE_SECONDS": "soon"}, "TABLERO_LEASE_SECONDS must be a positive number"),
])
def test_bad_shard_settings_say_what_is_wrong(env: dict[str, str], says: str) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_env({"DISCORD_TOKEN": "a", **env})
    assert says in str(err.value)


async def test_a_sharded_process_starts_an_auto_sharded_client_with_its_share() -> None:
    plain = create_bot(Settings.from_env({"DISCORD_TOKEN": "a"}))
    assert type(plain) is TableroBot and not isinstance(plain, commands.AutoShardedBot)
    bot = create_bot(Settings.from_env({"DISCORD_TOKEN": "a", "TABLERO_SHARDS": "4",
                                        "TABLERO_SHARD_IDS": "1,3"}))
    assert isinstance(bot, ShardedTableroBot) and isinstance(bot, commands.AutoShardedBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    await plain.close()  # the sharded one never connected: nothing to close
