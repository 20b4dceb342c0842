"""The one error funnel: refusals become ephemeral messages, bugs an apology with an id."""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands

from cogs.common.answering import respond
from cogs.common.contexts import NotInGameServer
from cogs.common.i18n import locale_of, t
from cogs.common.patience import token_alive
from rules.core import RuleError

log = logging.getLogger("tablero.errors")
_FILLED = "tablero.deferred_filled"
# Set by choices.within when it defers a slash command with a public "thinking…" message.
PUBLIC_PLACEHOLDER = "tablero.public_placeholder"
_NO_MENTIONS = discord.AllowedMentions.none()
# Discord's limit on a message's text: a refusal quoting a long input is cut to fit, or
# Discord would refuse the answer and the user would see the command fail.
_CONTENT = 2000


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool,
    **kwargs: Any,
) -> None:
    """Answer ``interaction``: its first response if still open, the deferred "thinking"
    message if it was deferred, else a followup. A private answer pings nobody: it may quote
    what the user typed (a deck's name, an option), mentions included."""
    if ephemeral:
        kwargs.setdefault("allowed_mentions", _NO_MENTIONS)
    if not interaction.response.is_done() and await respond(
            interaction, lambda: interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)):
        return
    if not token_alive(interaction):
        # Discord no longer takes this interaction's token: a DM is the private way left.
        kwargs.pop("attachments", None)
        try:
            await interaction.user.send(content, **kwargs)
        except discord.HTTPException:
            log.info("could not answer user %s after their interaction expired", interaction.user.id)
        return
    deferred = interaction.response.type is discord.InteractionResponseType.deferred_channel_message
    if deferred and ephemeral and interaction.extras.get(PUBLIC_PLACEHOLDER) and not interaction.extras.get(_FILLED):
        # A private answer (a refusal, say) to a slow command deferred in public: the
        # "thinking…" placeholder goes (the first followup would fill it, for all to read)
        # and the answer comes alone, privately.
        interaction.extras[_FILLED] = True
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            pass
        await interaction.followup.send(content, ephemeral=True, **kwargs)
        return
    if deferred and not interaction.extras.get(_FILLED):
        # The "thinking…" placeholder is the answer's place (and keeps its visibility).
        interaction.extras[_FILLED] = True
        if "files" in kwargs:
            kwargs["attachments"] = kwargs.pop("files")
        await interaction.edit_original_response(content=content, **kwargs)
        return
    await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)


def placeholder_open(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` was deferred with a "thinking…" message that no answer has
    filled yet (the user watches it think until something does)."""
    return (interaction.response.type is discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get(_FILLED))


def mark_filled(interaction: discord.Interaction) -> None:
    """Note that ``interaction``'s "thinking…" message was filled (by an edit of it)."""
    interaction.extras[_FILLED] = True


def unwrap(error: BaseException) -> BaseException:
    """The exception that actually went wrong, out of discord.py's wrappers."""
    seen = 0
    while seen < 5:
        seen += 1
        if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
            inner = error.__cause__ or getattr(error, "original", None)
            if inner is None:
                break
            error = inner
        else:
            break
    return error


# Components carry their game after their kind: "tablero:<kind>:<game>:...".
_GAME_IN_ID = re.compile(r"tablero:[a-z_]+:(\d+)")


def log_context(interaction: discord.Interaction) -> dict[str, Any]:
    """What a log line about ``interaction`` carries: server, channel, user, where, game."""
    # getattr throughout: a log line must never be what breaks the answer to the user.
    data = getattr(interaction, "data", None) or {}
    found = _GAME_IN_ID.match(str(data.get("custom_id", "")))
    return {"guild": getattr(interaction, "guild_id", None), "channel": getattr(interaction, "channel_id", None),
            "user": getattr(getattr(interaction, "user", None), "id", None),
            "where": _where(interaction), "game": int(found[1]) if found else None}


def _where(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data = interaction.data or {}
    return str(data.get("custom_id", interaction.type.name))


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong: the rules' own words, or an apology with a log id."""
    error = unwrap(error)
    locale = locale_of(interaction)
    if isinstance(error, RuleError):
        text = error.message(locale)
        context = log_context(interaction)
        # By its kind and its wording's id only: the words filled in may name what the player
        # alone may see (the options they had, their hand).
        wording = error.text.m or "-"
        log.info("refused %s in %s: %s", type(error).__name__, context["where"], wording,
                 extra={"event": "refusal", "refusal": type(error).__name__, "wording": wording, **context})
    elif isinstance(error, app_commands.CommandOnCooldown):
        text = t("err.cooldown", locale, seconds=f"{error.retry_after:.0f}")
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = t("err.guild_only", locale)
    elif isinstance(error, NotInGameServer):
        text = t("err.game_place", locale)
    elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        text = t("err.not_allowed", locale)
    elif isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        text = t("err.command_outdated", locale)
    else:
        err_id = secrets.token_hex(4)
        log.error(
            "error %s in %s (user %s, channel %s)",
            err_id,
            _where(interaction),
            interaction.user.id,
            interaction.channel_id,
            exc_info=(type(error), error, error.__traceback__),
            extra={"event": "error", "error_id": err_id, **log_context(interaction)},
        )
        text = t("err.bug", locale, id=err_id)
    if len(text) > _CONTENT:
        text = text[:_CONTENT - 1] + "…"
    try:
        await reply(interaction, text, ephemeral=True)
    except Exception as exc:  # noqa: BLE001 - nothing may escape the funnel
        # The interaction expired, was answered elsewhere, or the bot is shutting down.
        log.debug("could not report an error to the user: %s", exc)


async def guard(interaction: discord.Interaction, work: Awaitable[Any]) -> None:
    """Run a component's work through the funnel (discord.py only logs their exceptions)."""
    try:
        await work
    except Exception as exc:  # noqa: BLE001 - this is the funnel
        await report(interaction, exc)


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Make the funnel the command tree's error handler."""

    async def on_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        """Every slash-command error goes through the funnel."""
        await report(interaction, error)

    tree.error(on_error)
