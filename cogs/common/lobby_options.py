"""The options of /game new: read from its parameters and free text, checked against the
game's options model, shown in words, and offered by autocomplete."""

from __future__ import annotations

import logging
import typing
from typing import Any

import discord
from discord import app_commands

from cogs.common.choices import fold
from cogs.common.i18n import MESSAGES, locale_of, said, t
from cogs.common.present import clip
from rules.core import Engine
from rules.registry import games as registered_games
from services.session import Game, Refusal

log = logging.getLogger("tablero.lobby")
# How much of an unreadable option a refusal quotes (the whole text may be thousands long).
OPTION_SHOWN = 60

# /game new offers the common options (variant, scoring, wins_needed, games, reshuffle)
# as their own parameters; any other field of a game's options model is set through the
# free-text "options" parameter, so a new game needs no change here.


def literal_values(engine: Engine, field: str) -> list[str]:
    """The allowed values of an options field declared as a Literal (empty otherwise)."""
    info = engine.options_model.model_fields.get(field)
    if info is None:
        return []
    args = typing.get_args(info.annotation)
    return [str(a) for a in args if isinstance(a, str)]


def list_values(engine: Engine, field: str) -> list[str]:
    """The allowed items of an options field declared as a list of a Literal (empty otherwise)."""
    info = engine.options_model.model_fields.get(field)
    if info is None or typing.get_origin(info.annotation) is not list:
        return []
    (item,) = typing.get_args(info.annotation) or (None,)
    return [str(a) for a in typing.get_args(item) if isinstance(a, str)]


def is_list(engine: Engine, field: str) -> bool:
    """Whether an options field holds a list (written as items joined by "+")."""
    info = engine.options_model.model_fields.get(field)
    return info is not None and typing.get_origin(info.annotation) is list


def option_label(field: str, value: Any, locale: str) -> str:
    """A readable label for an option value (the catalogue's, else the raw value)."""
    if isinstance(value, list):
        return ", ".join(option_label(field, v, locale) for v in value) or "-"
    key = f"opt.{field}.{value}"
    if key in MESSAGES:
        return t(key, locale)
    return str(value).lower() if isinstance(value, bool) else str(value)


def field_label(field: str, locale: str) -> str:
    """A readable name for an options field."""
    key = f"opt.{field}"
    return t(key, locale) if key in MESSAGES else field


def parse_options_text(text: str | None) -> dict[str, str]:
    """"key=value key=value" into a dict; a refusal naming the first item that is not."""
    out: dict[str, str] = {}
    for item in (text or "").replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise Refusal(said("err.bad_option", item=clip(item, OPTION_SHOWN)))
        out[key.strip().lower()] = value.strip()
    return out


def gather_options(engine: Engine, explicit: dict[str, Any], text: str | None) -> dict[str, Any]:
    """The options for ``engine`` from the explicit parameters and the free text; unknown
    keys are refused here, values are validated by the engine."""
    merged: dict[str, Any] = dict(parse_options_text(text))
    merged.update({k: v for k, v in explicit.items() if v is not None})
    known = list(engine.options_model.model_fields)
    for key, value in merged.items():
        # A list is written as its items joined by "+" (spaces and commas separate options).
        if isinstance(value, str) and is_list(engine, key):
            merged[key] = [v for v in value.replace("/", "+").split("+") if v]
    for key in merged:
        if key not in known:
            raise Refusal(said("err.unknown_option", game=engine.title, key=key, known=", ".join(known) or "-"))
    return merged


def describe_options(g: Game, locale: str) -> str:
    """The game's options, one per line (a player's secret among them hidden by the game)."""
    # An empty list is an option not in use (say, the buildings of a "chosen" set).
    lines = [
        f"{field_label(k, locale)}: {option_label(k, v, locale)}"
        for k, v in g.engine.public_options(g.row.options).items()
        if v != []
    ]
    return "\n".join(lines) or "-"


async def literal_autocomplete(interaction: discord.Interaction, current: str, field: str) -> list[app_commands.Choice[str]]:
    locale = locale_of(interaction)
    try:
        gid = getattr(interaction.namespace, "game", None)
        engines = registered_games()
        candidates = [engines[gid]] if gid in engines else list(engines.values())
        seen: dict[str, str] = {}
        for engine in candidates:
            for value in literal_values(engine, field):
                seen.setdefault(value, option_label(field, value, locale))
        needle = fold(current)
        return [
            app_commands.Choice(name=label, value=value)
            for value, label in seen.items()
            if not needle or needle in fold(label) or needle in fold(value)
        ][:25]
    except Exception:
        log.exception("options autocomplete failed")
        return []


# The options /game new has parameters of its own; the free text offers the others.
OWN_PARAMETERS = frozenset({"variant", "scoring", "wins_needed", "games", "reshuffle"})


def option_suggestions(engine: Engine, current: str, locale: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for the free-text options: the text typed so far, completed with one
    more ``key=value`` of ``engine``'s options model (its Literal, bool and list fields)."""
    head, _, last = current.rpartition(" ")
    head = head.strip()
    typed = {tok.partition("=")[0].lower() for tok in head.split()}
    needle = fold(last)
    out: list[app_commands.Choice[str]] = []
    for field in engine.options_model.model_fields:
        if field in OWN_PARAMETERS or field in typed:
            continue
        info = engine.options_model.model_fields[field]
        values = literal_values(engine, field) or (["true", "false"] if info.annotation is bool else [])
        tokens: list[tuple[str, str]] = [
            (f"{field}={v}", f"{field_label(field, locale)}: {option_label(field, v, locale)}") for v in values
        ]
        items = list_values(engine, field)
        if items:
            # Lists grow one item at a time: "chosen=a" is offered "chosen=a+b", "chosen=a+c"...
            key, sep, so_far = last.partition("=")
            chosen = [v for v in so_far.split("+") if v] if sep and key.lower() == field else []
            if chosen and chosen[-1] not in items:
                chosen.pop()  # the item being typed
            for v in items:
                if v not in chosen:
                    joined = "+".join([*chosen, v])
                    shown = ", ".join(option_label(field, x, locale) for x in [*chosen, v])
                    tokens.append((f"{field}={joined}", f"{field_label(field, locale)}: {shown}"))
        for token, label in tokens:
            if needle and not fold(token).startswith(needle) and needle not in fold(label):
                continue
            value = f"{head} {token}".strip()
            if len(value) <= 100:
                out.append(app_commands.Choice(name=clip(f"{head} {label}".strip(), 100), value=value))
    return out[:25]
