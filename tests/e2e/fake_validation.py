"""Payload validation of the fake Discord: messages, embeds, components, modals and
application commands are refused (400/50035) where Discord refuses them, with its limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .fake_model import (
    ACTION_ROW,
    BUTTON,
    COMMAND_NAME,
    DISCORD_LOCALES,
    IS_COMPONENTS_V2,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
    invalid_form,
)


def _check_len(value: Any, limit: int, path: str, minimum: int = 0) -> None:
    if value is None and minimum == 0:
        return
    if not isinstance(value, str) or not minimum <= len(value) <= limit:
        raise invalid_form(path, f"Must be between {minimum} and {limit} in length.", "BASE_TYPE_BAD_LENGTH")


def _validate_embeds(embeds: list[dict], prefix: str) -> None:
    if len(embeds) > 10:
        raise invalid_form(f"{prefix}embeds", "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    for i, embed in enumerate(embeds):
        p = f"{prefix}embeds.{i}."
        texts = [("title", embed.get("title"), 256), ("description", embed.get("description"), 4096),
                 ("footer.text", (embed.get("footer") or {}).get("text"), 2048),
                 ("author.name", (embed.get("author") or {}).get("name"), 256)]
        for key, value, limit in texts:
            _check_len(value, limit, p + key)
            total += len(value or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid_form(p + "fields", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for j, fld in enumerate(fields):
            _check_len(fld.get("name"), 256, f"{p}fields.{j}.name", minimum=1)
            _check_len(fld.get("value"), 1024, f"{p}fields.{j}.value", minimum=1)
            total += len(fld["name"]) + len(fld["value"])
    if total > 6000:
        raise invalid_form(f"{prefix}embeds", "Embed size exceeds maximum size of 6000",
                           "MAX_EMBED_SIZE_EXCEEDED")


def walk_components(components: list[dict], path: str = "components") -> Iterator[tuple[str, dict]]:
    """Yield (form path, component) for every component, however deeply nested (rows, V2 layouts)."""
    for i, comp in enumerate(components or []):
        here = f"{path}.{i}"
        yield here, comp
        yield from walk_components(comp.get("components") or [], f"{here}.components")
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                yield f"{here}.{key}", comp[key]
                yield from walk_components(comp[key].get("components") or [], f"{here}.{key}.components")


def stored_components(components: list[dict] | None) -> list[dict]:
    """Components as Discord keeps them: every one has an ``id``; those the sender left out are
    numbered from 1 in order, skipping ids the sender used ("Component Reference": ``id``).
    A Unicode emoji comes back without the null ``id`` discord.py sends with it."""
    out = json.loads(json.dumps(components or []))
    taken = {c["id"] for _, c in walk_components(out) if c.get("id") is not None}
    number = 0
    for _, comp in walk_components(out):
        if comp.get("id") is None:
            number += 1
            while number in taken:
                number += 1
            comp["id"] = number
        for holder in (comp, *comp.get("options", [])):
            emoji = holder.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is None:  # a Unicode emoji: just its name
                holder["emoji"] = {k: v for k, v in emoji.items() if k != "id"}
    return out


def stored_embeds(embeds: list[dict] | None) -> list[dict]:
    """Embeds as Discord answers with them: each has a ``type`` ("rich" unless the sender said)."""
    return [{"type": "rich", **embed} for embed in embeds or []]


def _validate_select(comp: dict, path: str) -> None:
    _check_len(comp.get("placeholder"), 150, f"{path}.placeholder")
    lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
    if not 0 <= lo <= 25 or not 1 <= hi <= 25 or lo > hi:
        raise invalid_form(f"{path}.min_values", f"Invalid min/max values {lo}/{hi}.")
    if comp["type"] != STRING_SELECT:
        return
    options = comp.get("options") or []
    if not 1 <= len(options) <= 25:
        raise invalid_form(f"{path}.options", "Must be between 1 and 25 in length.", "BASE_TYPE_BAD_LENGTH")
    if hi > len(options):
        raise invalid_form(f"{path}.max_values", "max_values exceeds the number of options.")
    seen: set[str] = set()
    for j, opt in enumerate(options):
        _check_len(opt.get("label"), 100, f"{path}.options.{j}.label", minimum=1)
        _check_len(opt.get("value"), 100, f"{path}.options.{j}.value", minimum=1)
        _check_len(opt.get("description"), 100, f"{path}.options.{j}.description")
        if opt["value"] in seen:
            raise invalid_form(f"{path}.options.{j}.value", "Select option values must be unique.",
                               "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED")
        seen.add(opt["value"])


def _validate_components(components: list[dict], prefix: str, v2: bool) -> None:
    if not v2:
        if len(components) > 5:
            raise invalid_form(f"{prefix}components", "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for i, row in enumerate(components):
            kids = row.get("components") or []
            if row.get("type") != ACTION_ROW:
                raise invalid_form(f"{prefix}components.{i}.type", "Top-level components must be action rows "
                                   "unless the message uses components V2.")
            if not 1 <= len(kids) <= 5:
                raise invalid_form(f"{prefix}components.{i}.components", "Must be between 1 and 5 in length.",
                                   "BASE_TYPE_BAD_LENGTH")
            if len(kids) > 1 and any(k.get("type") in SELECT_TYPES for k in kids):
                raise invalid_form(f"{prefix}components.{i}.components", "A select menu needs its own row.",
                                   "COMPONENT_LAYOUT_WIDTH_EXCEEDED")
    elif sum(1 for _ in walk_components(components)) > 40:
        raise invalid_form(f"{prefix}components", "Must be 40 or fewer components.", "BASE_TYPE_MAX_LENGTH")
    custom_ids: set[str] = set()
    for path, comp in walk_components(components, f"{prefix}components"):
        ctype = comp.get("type")
        if ctype == TEXT_INPUT:
            raise invalid_form(f"{path}.type", "Text inputs are only allowed in modals.")
        if ctype == BUTTON:
            _check_len(comp.get("label"), 80, f"{path}.label")
            if comp.get("style") == 5:
                if not comp.get("url") or comp.get("custom_id"):
                    raise invalid_form(path, "Link buttons need a url and no custom_id.")
                continue
            if comp.get("style") == 6:
                continue
        elif ctype in SELECT_TYPES:
            _validate_select(comp, path)
        else:
            continue
        cid = comp.get("custom_id")
        _check_len(cid, 100, f"{path}.custom_id", minimum=1)
        if cid in custom_ids:
            raise invalid_form(f"{path}.custom_id", "Component custom id cannot be duplicated",
                               "COMPONENT_CUSTOM_ID_DUPLICATED")
        custom_ids.add(cid)


def _validate_message(body: dict, prefix: str = "") -> None:
    """Refuse what Discord refuses (limits are the ones Discord documents)."""
    _check_len(body.get("content"), 2000, f"{prefix}content")
    flags = body.get("flags") or 0
    v2 = bool(flags & IS_COMPONENTS_V2)
    if v2 and (body.get("content") or body.get("embeds")):
        raise invalid_form(f"{prefix}content", "content and embeds cannot be used with components V2.")
    _validate_embeds(body.get("embeds") or [], prefix)
    _validate_components(body.get("components") or [], prefix, v2)
    allowed = body.get("allowed_mentions") or {}
    for kind in ("users", "roles"):
        # Discord refuses a kind both parsed and listed, and lists of more than 100 ids.
        if kind in (allowed.get("parse") or []) and allowed.get(kind):
            raise invalid_form(f"{prefix}allowed_mentions", f"parse:[\"{kind}\"] and {kind}: [ids...] are "
                               "mutually exclusive.")
        if len(allowed.get(kind) or []) > 100:
            raise invalid_form(f"{prefix}allowed_mentions.{kind}", "Must be 100 or fewer in length.",
                               "BASE_TYPE_MAX_LENGTH")


def _validate_modal(data: dict) -> None:
    _check_len(data.get("title"), 45, "data.title", minimum=1)
    _check_len(data.get("custom_id"), 100, "data.custom_id", minimum=1)
    if not 1 <= len(data.get("components") or []) <= 5:
        raise invalid_form("data.components", "Must be between 1 and 5 in length.", "BASE_TYPE_BAD_LENGTH")
    for path, comp in walk_components(data["components"], "data.components"):
        if comp.get("type") == TEXT_INPUT:
            _check_len(comp.get("custom_id"), 100, f"{path}.custom_id", minimum=1)
            _check_len(comp.get("label"), 45, f"{path}.label")
            _check_len(comp.get("value"), 4000, f"{path}.value")


def _validate_choices(choices: list[dict], path: str) -> None:
    if len(choices) > 25:
        raise invalid_form(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, choice in enumerate(choices):
        _check_len(choice.get("name"), 100, f"{path}.{i}.name", minimum=1)
        for locale, name in (choice.get("name_localizations") or {}).items():
            _check_len(name, 100, f"{path}.{i}.name_localizations.{locale}", minimum=1)
        if isinstance(choice.get("value"), str):
            _check_len(choice["value"], 100, f"{path}.{i}.value")


def _validate_name(name: Any, path: str, chat_input: bool) -> None:
    if not isinstance(name, str) or not COMMAND_NAME.match(name) or (chat_input and name != name.lower()):
        raise invalid_form(path, f"Invalid command name {name!r}: 1-32 lowercase letters, digits, - or _.",
                           "APPLICATION_COMMAND_INVALID_NAME")


def _validate_localized(node: dict, path: str, chat_input: bool, needs_description: bool) -> None:
    """Name, description and their localizations; translator output is checked like anything else."""
    _validate_name(node.get("name"), f"{path}.name", chat_input)
    if needs_description:
        _check_len(node.get("description"), 100, f"{path}.description", minimum=1)
    for key in ("name_localizations", "description_localizations"):
        for locale, text in (node.get(key) or {}).items():
            where = f"{path}.{key}.{locale}"
            if locale not in DISCORD_LOCALES:
                raise invalid_form(where, f"{locale!r} is not a valid locale.", "INVALID_LOCALE")
            if key == "name_localizations":
                _validate_name(text, where, chat_input)
            else:
                _check_len(text, 100, where, minimum=1)


def _validate_options(options: list[dict], path: str, parent: str) -> None:
    """parent is "command", "group" or "subcommand": each allows different children."""
    if len(options) > 25:
        raise invalid_form(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    nested = [o.get("type") in (1, 2) for o in options]
    if any(nested) and not all(nested):
        raise invalid_form(path, "Subcommands cannot be mixed with regular options.")
    names: dict[str, set[str]] = {}
    optional_seen = False
    for i, opt in enumerate(options):
        p, otype = f"{path}.{i}", opt.get("type")
        _validate_localized(opt, p, chat_input=True, needs_description=True)
        for locale, name in [("", opt["name"]), *(opt.get("name_localizations") or {}).items()]:
            if name in names.setdefault(locale, set()):
                raise invalid_form(f"{p}.name", f"Duplicate option name {name!r}.",
                                   "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE")
            names[locale].add(name)
        if otype == 2:
            if parent != "command":
                raise invalid_form(f"{p}.type", "Subcommand groups can only be nested in a command.")
            if not all(o.get("type") == 1 for o in opt.get("options") or []):
                raise invalid_form(f"{p}.options", "Subcommand groups can only contain subcommands.")
            _validate_options(opt.get("options") or [], f"{p}.options", "group")
        elif otype == 1:
            if parent == "subcommand":
                raise invalid_form(f"{p}.type", "Subcommands cannot contain subcommands.")
            _validate_options(opt.get("options") or [], f"{p}.options", "subcommand")
        else:
            if opt.get("required") and optional_seen:
                raise invalid_form(f"{p}.required", "Required options must be placed before non-required options",
                                   "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID")
            optional_seen = optional_seen or not opt.get("required")
            if opt.get("choices") and opt.get("autocomplete"):
                raise invalid_form(f"{p}.autocomplete", "Autocomplete cannot be used with choices.")
            _validate_choices(opt.get("choices") or [], f"{p}.choices")


def _validate_commands(commands: list[dict]) -> None:
    if len(commands) > 100:
        raise invalid_form("", "Too many application commands.", "BASE_TYPE_MAX_LENGTH")
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = cmd.get("type", 1)
        _validate_localized(cmd, str(i), chat_input=ctype == 1, needs_description=ctype == 1)
        if (ctype, cmd["name"]) in seen:
            raise invalid_form(f"{i}.name", "Application command names must be unique",
                               "APPLICATION_COMMANDS_DUPLICATE_NAME")
        seen.add((ctype, cmd["name"]))
        _validate_options(cmd.get("options") or [], f"{i}.options", "command")
