"""The error funnel: refusals in the user's language, bugs logged with an id."""

from __future__ import annotations

import logging
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord import app_commands

from cogs.common.errors import guard, report
from rules.core import NotYourTurn
from services.session import NotSeated


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str | None, dict[str, Any]]] = []
        self.type: discord.InteractionResponseType | None = None

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.sent.append((content, kwargs))


def interaction(locale: discord.Locale) -> Any:
    followups: list[tuple[str | None, dict[str, Any]]] = []

    async def followup_send(content: str | None = None, **kwargs: Any) -> None:
        followups.append((content, kwargs))

    return SimpleNamespace(
        locale=locale, response=Response(), followup=SimpleNamespace(send=followup_send, sent=followups),
        command=None, data={"custom_id": "tablero:pick:1:2:0"}, type=discord.InteractionType.component,
        user=SimpleNamespace(id=5), channel_id=9, extras={},
    )


async def test_a_rule_error_is_an_ephemeral_message_in_the_users_language() -> None:
    spanish = interaction(discord.Locale.spain_spanish)
    await report(spanish, NotYourTurn("Ahora no te toca.", "Not your turn."))
    assert private(spanish.response.sent) == [("Ahora no te toca.", {"ephemeral": True})]
    english = interaction(discord.Locale.british_english)
    await report(english, app_commands.CommandInvokeError(SimpleNamespace(name="move"), NotSeated()))  # type: ignore[arg-type]
    assert private(english.response.sent) == [("You are not playing in this game.", {"ephemeral": True})]


async def test_a_bug_is_logged_with_an_id_the_user_sees(caplog: pytest.LogCaptureFixture) -> None:
    inter = interaction(discord.Locale.american_english)
    with caplog.at_level(logging.ERROR, logger="tablero.errors"):
        await report(inter, ZeroDivisionError("oops"))
    (text, kwargs), = private(inter.response.sent)
    assert kwargs == {"ephemeral": True}
    err_id = re.search(r"`([0-9a-f]{8})`", text or "")
    assert err_id is not None
    record = next(r for r in caplog.records if err_id.group(1) in r.getMessage())
    assert record.exc_info and isinstance(record.exc_info[1], ZeroDivisionError)
    assert "oops" not in (text or "")  # the user sees the id, not the internals


async def test_after_a_first_answer_the_funnel_uses_a_followup() -> None:
    inter = interaction(discord.Locale.spain_spanish)
    await inter.response.send_message("first")

    async def work() -> None:
        raise NotSeated()

    await guard(inter, work())
    assert private(inter.followup.sent) == [("No juegas en esta partida.", {"ephemeral": True})]


def private(sent: list[tuple[str | None, dict]]) -> list[tuple[str | None, dict]]:
    """What was sent, each checked to ping nobody (a private answer may quote what the user
    typed, mentions included) and without that setting."""
    out = []
    for content, kwargs in sent:
        kwargs = dict(kwargs)
        assert kwargs.pop("allowed_mentions").to_dict() == {"parse": []}, content
        out.append((content, kwargs))
    return out


async def test_a_refusal_is_logged_with_its_game_server_and_user(caplog: pytest.LogCaptureFixture) -> None:
    inter = interaction(discord.Locale.spain_spanish)
    inter.guild_id = 77
    with caplog.at_level(logging.INFO, logger="tablero.errors"):
        await report(inter, NotYourTurn("Ahora no te toca.", "Not your turn."))
    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "refusal"]
    assert (line.game, line.guild, line.user, line.channel) == (1, 77, 5, 9)  # type: ignore[attr-defined]
    assert line.refusal == "NotYourTurn" and "NotYourTurn" in line.getMessage()  # type: ignore[attr-defined]


async def test_a_refusal_is_logged_by_its_kind_never_with_the_options_it_lists(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A refusal may list the player's own options (cards in their hand): the player reads
    them, the log must not."""
    from cogs.common.i18n import said
    from services.session import Refusal

    inter = interaction(discord.Locale.american_english)
    error = Refusal(said("err.pick_from_list", value="zz", options=lambda lang: "Hidden Card; Other Secret"))
    with caplog.at_level(logging.DEBUG):
        await report(inter, error)
    shown = inter.response.sent[0][0] or ""
    assert "Hidden Card" in shown  # the player is told their options
    logged = "\n".join(r.getMessage() + repr(r.__dict__) for r in caplog.records)
    assert "Hidden Card" not in logged and "Other Secret" not in logged
    (line,) = [r for r in caplog.records if getattr(r, "event", None) == "refusal"]
    assert line.wording == "err.pick_from_list"  # type: ignore[attr-defined]
