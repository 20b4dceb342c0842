"""The tournament cog's commands in Spanish and English, its messages, and the award syntax."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot import Settings, create_bot
from cogs.common import i18n
from cogs.common.i18n import Translator
from cogs.tournament import parse_ranking
from services.session import SessionService
from storage import Store

from .test_i18n import NAME, fields, walk


@pytest.fixture
async def tree(tmp_path: Any) -> AsyncIterator[discord.app_commands.CommandTree[Any]]:
    bot = create_bot(Settings(token="unused", db_path=str(tmp_path / "t.db")))
    store = await Store.open(str(tmp_path / "t.db"))
    bot._session = SessionService(store)
    for ext in ("cogs.settings", "cogs.tournament"):
        await bot.load_extension(ext)
    yield bot.tree
    await bot.close()
    await store.close()


async def test_tournament_and_rating_commands_have_spanish_names_and_descriptions(
    tree: Any,
) -> None:
    translator = Translator()
    es: dict[str, str] = {}
    for cmd in tree.get_commands():
        top = await cmd.get_translated_payload(tree, translator)
        for path, node in walk(top):
            names = node.get("name_localizations") or {}
            assert NAME.match(names.get("es-ES", "")), path
            if "description" in node:
                assert (node.get("description_localizations") or {}).get("es-ES"), path
            for choice in node.get("choices") or []:
                assert choice.get("name_localizations", {}).get("es-ES"), (path, choice)
            spanish = [
                o.get("name_localizations", {}).get("es-ES") for o in node.get("options") or []
            ]
            assert len(set(spanish)) == len(spanish), path
            es[path] = names.get("es-ES", "")
    assert es["/tournament"] == "torneo"
    assert es["/tournament/create"] == "crear"
    assert es["/tournament/standings"] == "clasificacion"
    assert es["/rating/top"] == "mejores"
    assert es["/config/organiser_role"] == "rol_torneos"


def test_every_tournament_message_has_both_languages_and_the_same_placeholders() -> None:
    keys = [k for k in i18n.MESSAGES if k.split(".")[0] in ("tourney", "rating", "config")]
    assert len(keys) > 50
    for key in keys:
        entry = i18n.MESSAGES[key]
        assert {"es", "en"} <= set(entry), key
        assert fields(entry["es"]) == fields(entry["en"]), key


def test_an_awarded_ranking_is_read_from_mentions_with_ties() -> None:
    assert parse_ranking("<@1> <@!2> = <@3> <@4>") == [[1], [2, 3], [4]]
    assert parse_ranking("first <@5>, then <@6>") == [[5], [6]]
    assert parse_ranking("nobody") == []
