"""Settings and the entry point."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot import Settings, SettingsError, TableroBot, create_bot
from cogs.pictures.pool import default_workers

ROOT = Path(__file__).resolve().parents[2]


def test_settings_defaults() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": "abc"})
    # Read from the environment, pictures get worker processes; a Settings built in code
    # (the tests' bots) draws them in its own process.
    assert s == Settings(token="abc", db_path="tablero.db", guild_id=None, log_level="INFO", locale="es",
                         picture_workers=default_workers())
    assert (s.log_format, s.health_file, s.health_port) == ("text", None, None)
    assert Settings(token="abc").picture_workers == 0


def test_settings_read_every_variable() -> None:
    s = Settings.from_env({
        "DISCORD_TOKEN": " abc ", "TABLERO_DB": "/tmp/x.db", "TABLERO_GUILD_ID": "123",
        "TABLERO_LOG_LEVEL": "debug", "TABLERO_LOCALE": "en-US",
    })
    assert (s.token, s.db_path, s.guild_id, s.log_level, s.locale) == ("abc", "/tmp/x.db", 123, "DEBUG", "en")
    s = Settings.from_env({
        "DISCORD_TOKEN": "abc", "TABLERO_PICTURE_WORKERS": "0", "TABLERO_LOG_FORMAT": "JSON",
        "TABLERO_HEALTH_FILE": "/run/tablero/health.json", "TABLERO_HEALTH_PORT": "8089",
        "TABLERO_HEALTH_INTERVAL": "5", "TABLERO_GAME_CACHE": "300",
    })
    assert (s.picture_workers, s.log_format, s.health_file, s.health_port, s.health_interval) == (
        0, "json", "/run/tablero/health.json", 8089, 5.0)
    assert s.game_cache == 300
    assert Settings.from_env({"DISCORD_TOKEN": "abc"}).game_cache == 2000


@pytest.mark.parametrize("env, mentions", [
    ({}, "DISCORD_TOKEN"),
    ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN"),
    ({"DISCORD_TOKEN": "a", "TABLERO_GUILD_ID": "my server"}, "TABLERO_GUILD_ID"),
    ({"DISCORD_TOKEN": "a", "TABLERO_LOG_LEVEL": "LOUD"}, "TABLERO_LOG_LEVEL"),
    ({"DISCORD_TOKEN": "a", "TABLERO_LOCALE": "fr"}, "TABLERO_LOCALE"),
    ({"DISCORD_TOKEN": "a", "TABLERO_PICTURE_WORKERS": "many"}, "TABLERO_PICTURE_WORKERS"),
    ({"DISCORD_TOKEN": "a", "TABLERO_LOG_FORMAT": "xml"}, "TABLERO_LOG_FORMAT"),
    ({"DISCORD_TOKEN": "a", "TABLERO_GAME_CACHE": "0"}, "TABLERO_GAME_CACHE"),
    ({"DISCORD_TOKEN": "a", "TABLERO_GAME_CACHE": "lots"}, "TABLERO_GAME_CACHE"),
    ({"DISCORD_TOKEN": "a", "TABLERO_HEALTH_PORT": "99999"}, "TABLERO_HEALTH_PORT"),
    ({"DISCORD_TOKEN": "a", "TABLERO_HEALTH_INTERVAL": "often"}, "TABLERO_HEALTH_INTERVAL"),
])
def test_bad_settings_say_what_to_set(env: dict[str, str], mentions: str) -> None:
    with pytest.raises(SettingsError) as err:
        Settings.from_env(env)
    assert mentions in str(err.value)


def test_the_default_language_may_be_any_with_a_catalogue(tmp_path: Path) -> None:
    from cogs.common import catalogue

    root = tmp_path / "locale"
    shutil.copytree(catalogue.LOCALE_DIR, root)
    shutil.copytree(root / "en", root / "fr")  # a French catalogue (not translated yet)
    previous = catalogue.use(root)
    try:
        assert Settings.from_env({"DISCORD_TOKEN": "a", "TABLERO_LOCALE": "fr-CA"}).locale == "fr"
        with pytest.raises(SettingsError) as err:
            Settings.from_env({"DISCORD_TOKEN": "a", "TABLERO_LOCALE": "de"})
        assert "en, es, fr" in str(err.value)
    finally:
        catalogue.restore(previous)


def test_without_a_token_the_bot_explains_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TABLERO_"))}
    env["DISCORD_TOKEN"] = ""  # set but empty: a .env file cannot fill it in either
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


async def test_create_bot_passes_client_options(tmp_path: Path) -> None:
    bot = create_bot(Settings(token="t", db_path=str(tmp_path / "t.db")), guild_ready_timeout=0.05)
    try:
        assert isinstance(bot, TableroBot)
        assert bot._connection.guild_ready_timeout == 0.05
        assert not bot.intents.members and not bot.intents.message_content and not bot.intents.presences
        assert not bot.allowed_mentions.everyone  # type: ignore[union-attr]
    finally:
        await bot.close()


def test_the_start_line_never_shows_a_database_password() -> None:
    from bot import _safe_db

    assert _safe_db("postgresql://tablero:s3cret@db:5432/tablero") == "postgresql://…@db:5432/tablero"
    assert _safe_db("/data/tablero.db") == "/data/tablero.db"
    # the other forms a PostgreSQL connection string takes
    for dsn in ("postgresql://db:5432/tablero?user=t&password=s3cret&sslmode=require",
                "postgresql://db/tablero?sslmode=require&PASSWORD=s3cret",
                "host=db dbname=tablero user=t password=s3cret",
                "host=db password = 's3 cret' user=t",
                "postgres://t:s3cret@db/tablero?password=s3cret"):
        safe = _safe_db(dsn)
        assert "s3cret" not in safe and "s3 cret" not in safe, safe
        assert "db" in safe
    assert _safe_db("host=db password=s3cret user=t").endswith("user=t")
