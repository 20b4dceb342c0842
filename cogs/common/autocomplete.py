"""Legal choices by name, in any language of the catalogues: the autocomplete of the slash
commands, and what a typed or autocompleted value names."""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Collection, Iterable, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

from cogs.common import services
from cogs.common.i18n import locale_of, said, t
from cogs.common.menus import MENU_SIZE
from cogs.common.moves import stale_menu
from cogs.common.present import clip, ui_for
from rules.catalogue import catalogues as rules_catalogues
from rules.core import Action, Seat, Text
from services.session import Game, Refusal

log = logging.getLogger("tablero.choices")

T = TypeVar("T")
Choices = list[app_commands.Choice[str]]


def fold(text: str) -> str:
    """``text`` lower-cased and without accents, for forgiving matches."""
    nfkd = unicodedata.normalize("NFKD", text)
    return "".join(c for c in nfkd if not unicodedata.combining(c)).casefold().strip()


def languages() -> tuple[str, ...]:
    """Every language the rules' catalogues have: typed names are matched in all of them."""
    return rules_catalogues().languages


def in_every_language(text: Text) -> list[str]:
    """``text`` in every language of the catalogues, for matching what is typed."""
    return [text.get(lang) for lang in languages()]


def matches(needle: str, names: Iterable[str], *, digits_whole: bool = True) -> tuple[bool, bool]:
    """(exact, partial) match of a folded ``needle`` against ``names``; with ``digits_whole``
    a number only matches whole ("1" is not square 12)."""
    folded = [fold(n) for n in names]
    exact = needle in folded
    partial = bool(needle) and not (digits_whole and needle.isdigit()) and any(needle in f for f in folded)
    return exact, partial


def pick_one(value: str, options: Sequence[tuple[T, Sequence[str]]], *, digits_whole: bool = True) -> T | None:
    """The option ``value`` names (exactly, else the only one it is part of), or None.
    ``options`` are (thing, its names) pairs."""
    needle = fold(value)
    found = [matches(needle, names, digits_whole=digits_whole) for _, names in options]
    exact = [a for (a, _), (whole, _) in zip(options, found, strict=True) if whole]
    if len(exact) == 1:
        return exact[0]
    partial = [a for (a, _), (_, part) in zip(options, found, strict=True) if part]
    return partial[0] if len(partial) == 1 else None


def offered(current: str, options: Iterable[tuple[str, str, Sequence[str]]]) -> Choices:
    """Autocomplete choices: (shown name, value, names it is known by) pairs whose names
    hold what was typed, at most 25."""
    needle = fold(current)
    out: Choices = []
    for name, value, names in options:
        if needle and not any(needle in fold(n) for n in (name, *names)):
            continue
        out.append(app_commands.Choice(name=clip(name, 100), value=value))
        if len(out) == MENU_SIZE:
            break
    return out


def encode(g: Game, index: int, action: Action) -> str:
    """An autocomplete value for an action at this version: its JSON, or its index if long,
    followed by ``@version``, so that a request sent twice is refused as stale, not repeated."""
    data = f"{action.model_dump_json()}@{g.version}"
    return data if len(data) <= 100 else f"#{index}@{g.version}"


def chosen_version(value: str) -> int | None:
    """The version a typed or autocompleted value was chosen at (None: typed without one)."""
    m = re.search(r"@(\d+)$", value.strip())
    return int(m[1]) if m else None


def kind_of(action: Action) -> str:
    """An action's kind ("place", "play"...)."""
    return str(getattr(action, "kind", ""))


def kind_name(model: type[Action]) -> str:
    """The kind of an action model ("place" for Place)."""
    return str(model.model_fields["kind"].default)


def prompt_text(g: Game, seat: Seat, locale: str) -> str:
    """What the game asks ``seat`` now, as plain words with the players' names ("" for nothing)."""
    prompt = g.pending().get(seat)
    return ui_for(g.row.game_id).wording(g, prompt.text, locale, bold=False) if prompt is not None else ""


def quiet(complete: Callable[..., Awaitable[Choices]]) -> Callable[..., Awaitable[Choices]]:
    """An autocomplete callback whose errors are logged and answered with nothing (Discord
    cannot show them to the user)."""

    @functools.wraps(complete)
    async def answer(*args: Any, **kwargs: Any) -> Choices:
        try:
            return await complete(*args, **kwargs)
        except Exception:
            log.exception("autocomplete %s failed", complete.__qualname__)
            return []

    return answer


async def caller_in(interaction: discord.Interaction, game_id: str, *, pending: bool = False
                    ) -> tuple[Game, Seat] | None:
    """The channel's game of ``game_id`` and the caller's seat in it (with ``pending``: only
    while they have something to decide); None otherwise."""
    g = await services(interaction).session.in_channel(interaction.channel_id or 0)
    if g is None or g.row.game_id != game_id or g.state is None:
        return None
    seat = g.seat_of(interaction.user.id)
    if seat is None or (pending and seat not in g.pending()):
        return None
    return g, seat


def legal_choices(kinds: Collection[str] | None) -> Callable[[discord.Interaction, str], Awaitable[Choices]]:
    """An autocomplete callback offering the caller's legal moves of ``kinds`` (None: all;
    a free function: discord.py passes it no cog)."""

    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        return await action_choices(interaction, current, kinds)

    return complete


async def action_choices(
    interaction: discord.Interaction, current: str, kinds: Collection[str] | None = None
) -> Choices:
    """Autocomplete: the caller's legal moves in this channel's game (optionally of some
    kinds); when there are none, one line saying why (no game, not seated, not your turn,
    or what the game asks instead)."""
    locale = locale_of(interaction)
    try:
        bot = services(interaction)
        g = await bot.session.in_channel(interaction.channel_id or 0)
        if g is None:
            return [app_commands.Choice(name=t("ac.no_game", locale), value="-")]
        seat = g.seat_of(interaction.user.id)
        if seat is None:
            return [app_commands.Choice(name=t("ac.not_seated", locale), value="-")]
        ui = ui_for(g.row.game_id)
        legal = [(i, a) for i, a in enumerate(g.legal_actions(seat)) if kinds is None or kind_of(a) in kinds]
        out = offered(current, ((ui.label(g, seat, a, locale), encode(g, i, a), ()) for i, a in legal))
        if out:
            return out
        if not g.pending().get(seat):
            return [app_commands.Choice(name=t("ac.not_your_turn", locale), value="-")]
        if not current and not legal:
            hint = t("ac.nothing_now", locale, prompt=prompt_text(g, seat, locale))
            return [app_commands.Choice(name=clip(hint, 100), value="-")]
        return out
    except Exception:
        # Autocomplete errors cannot be shown to the user; log ours, answer nothing.
        log.exception("autocomplete failed in channel %s", interaction.channel_id)
        return []


def resolve_action(
    g: Game, seat: Seat, value: str, kinds: Collection[str] | None = None
) -> Action:
    """The legal action a typed or autocompleted ``value`` names; a refusal listing the
    choices otherwise. Values are never trusted: the engine validates the result again."""
    ui = ui_for(g.row.game_id)
    legal = g.legal_actions(seat)
    allowed = [(i, a) for i, a in enumerate(legal) if kinds is None or kind_of(a) in kinds]
    v = value.strip()
    at = chosen_version(v)
    if at is not None and at != g.version:
        raise stale_menu()
    if v.startswith("{"):
        action = g.engine.parse_action(re.sub(r"@\d+$", "", v))
        if kinds is None or kind_of(action) in kinds:
            return action
    elif v.startswith("#"):
        m = re.fullmatch(r"#(\d+)@(\d+)", v)
        if m and int(m[2]) != g.version:
            raise stale_menu()
        if m and any(i == int(m[1]) for i, _ in allowed):
            return legal[int(m[1])]
    else:
        # a move typed in any language's words: every language the rules' texts are in
        named = [(a, [ui.label(g, seat, a, lang) for lang in languages()]) for _, a in allowed]
        found = pick_one(v, named, digits_whole=False)
        if found is not None:
            return found
    raise Refusal(said(
        "err.pick_from_list",
        value=clip(v, 60),
        options=lambda lang: clip("; ".join(ui.label(g, seat, a, lang) for _, a in allowed[:12]), 1500),
    ))
