"""Menus of legal moves (board selects, autocomplete) and what follows once one is chosen."""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
from collections.abc import Awaitable, Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands

from cogs.common import services
from cogs.common.errors import PUBLIC_PLACEHOLDER, guard, reply
from cogs.common.i18n import locale_of, said, t, tn
from cogs.common.patience import token_alive
from cogs.common.present import (
    GameUI,
    clip,
    clip_before,
    draw,
    event_lines,
    mention,
    said_by,
    snapshot,
    turn_lines,
    ui_for,
)
from rules.catalogue import catalogues as rules_catalogues
from rules.core import Action, Seat, StaleAction
from services.session import Game, MoveResult, Refusal

log = logging.getLogger("tablero.choices")

MENU_SIZE = 25  # Discord's limit of options in a select menu and choices in autocomplete
SLOW = 2.0  # seconds of work after which an interaction is deferred (Discord allows 3)

T = TypeVar("T")


# ----------------------------------------------------------------------------- helpers


def fold(text: str) -> str:
    """``text`` lower-cased and without accents, for forgiving matches."""
    nfkd = unicodedata.normalize("NFKD", text)
    return "".join(c for c in nfkd if not unicodedata.combining(c)).casefold().strip()


async def within(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = False) -> T:
    """Await ``work``; if it runs long, defer ``interaction`` so Discord's 3 s are kept."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=SLOW)
    if not done and not interaction.response.is_done():
        thinking = interaction.message is None
        # A public "thinking…" placeholder must never be filled with a refusal: reply()
        # reads this to answer privately instead.
        interaction.extras[PUBLIC_PLACEHOLDER] = thinking and not ephemeral
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    return await task


@dataclass
class Group:
    """One entry of a first-step menu: a single action or several sharing their first step."""

    key: Hashable
    indices: list[int]


def groups(ui: GameUI, g: Game, seat: Seat, actions: Sequence[Action]) -> list[Group]:
    """Legal actions arranged so that each menu holds at most 25 entries.

    Up to 25 actions: one entry each. More: grouped by the game's first step (the tile
    before the square); if even that gives more than 25, plain pages of 25.
    """
    if len(actions) <= MENU_SIZE:
        return [Group(key=("#", i), indices=[i]) for i in range(len(actions))]
    by: dict[Hashable, list[int]] = {}
    for i, a in enumerate(actions):
        key = ui.group_of(g, seat, a)
        by.setdefault(("#", i) if key is None else key, []).append(i)
    if len(by) <= MENU_SIZE:
        return [Group(key=k, indices=v) for k, v in by.items()]
    pages = range(0, len(actions), MENU_SIZE)
    return [
        Group(key=("page", n), indices=list(range(k, min(k + MENU_SIZE, len(actions)))))
        for n, k in enumerate(pages)
    ][:MENU_SIZE]


def menu_options(
    ui: GameUI, g: Game, seat: Seat, locale: str, group: int | None
) -> list[discord.SelectOption]:
    """The options of the first-step menu (group None) or of one group's second step."""
    actions = g.legal_actions(seat)
    gs = groups(ui, g, seat, actions)
    if group is not None:
        if group >= len(gs):
            return []
        return [
            discord.SelectOption(label=ui.label(g, seat, actions[i], locale), value=f"a{i}")
            for i in gs[group].indices[:MENU_SIZE]
        ]
    out: list[discord.SelectOption] = []
    for n, grp in enumerate(gs):
        if len(grp.indices) == 1:
            i = grp.indices[0]
            out.append(discord.SelectOption(label=ui.label(g, seat, actions[i], locale), value=f"a{i}"))
            continue
        members = [actions[i] for i in grp.indices]
        if isinstance(grp.key, tuple) and grp.key and grp.key[0] == "page":
            first = ui.label(g, seat, members[0], locale)
            last = ui.label(g, seat, members[-1], locale)
            label = clip(f"{first} … {last}", 100)
            description = tn("board.options_n", len(members), locale)
        else:
            label = ui.group_label(g, seat, grp.key, members, locale)
            description = ui.group_description(g, seat, grp.key, members, locale)
        out.append(
            discord.SelectOption(
                label=clip(label, 100), value=f"g{n}", description=clip(description, 100) or None
            )
        )
    return out


# ----------------------------------------------------------------------------- components

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
SEAT_TEMPLATE = r"tablero:seat:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)"


class SeatItem(discord.ui.DynamicItem[ItemT], template=SEAT_TEMPLATE):
    """A component of one seat's panel at one game version. Its custom_id is its template's
    prefix followed by the template's fields in order (``game``, ``version``, ``seat``, then
    any more), each an integer; so it is rebuilt from the custom_id alone, after a restart
    too, and keeps the fields as attributes. A subclass says its template and callback."""

    game: int
    version: int
    seat: Seat

    def __init__(self, item: ItemT, *values: int) -> None:
        super().__init__(item)
        for name, value in zip(self.fields(), values, strict=True):
            setattr(self, name, value)

    @classmethod
    def fields(cls) -> list[str]:
        """The template's fields, in order."""
        groups = cls.__discord_ui_compiled_template__.groupindex
        return sorted(groups, key=groups.__getitem__)

    @classmethod
    def custom_id_for(cls, *values: int) -> str:
        """The custom_id of the component with these field values."""
        prefix = cls.__discord_ui_compiled_template__.pattern.split(":(?P<", 1)[0]
        return ":".join([prefix, *map(str, values)])

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        """Rebuild the component from its custom_id (after a restart too)."""
        return cls(*(int(match[name]) for name in cls.fields()))


class SeatButton(SeatItem[discord.ui.Button], template=SEAT_TEMPLATE):
    """A button of one seat's panel (see SeatItem); ``style`` is its default style."""

    style: discord.ButtonStyle = discord.ButtonStyle.secondary

    def __init__(
        self,
        game: int,
        version: int,
        seat: Seat,
        *more: int,
        label: str = "-",
        style: discord.ButtonStyle | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=clip(label or "-", 80), style=style or self.style, row=row,
                custom_id=self.custom_id_for(game, version, seat, *more),
            ),
            game, version, seat, *more,
        )


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tablero:pick:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)(?::(?P<group>\d+))?",
):
    """A menu of one seat's legal moves at one version; a value "g<n>" opens step two."""

    def __init__(
        self,
        game: int,
        version: int,
        seat: Seat,
        group: int | None = None,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        custom_id = f"tablero:pick:{game}:{version}:{seat}" + (f":{group}" if group is not None else "")
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=clip(placeholder, 150) if placeholder else None,
                min_values=1,
                max_values=1,
            )
        )
        self.game, self.version, self.seat, self.group = game, version, seat, group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        """Rebuild the menu from its custom_id (after a restart too)."""
        group = match["group"]
        return cls(
            int(match["game"]), int(match["version"]), int(match["seat"]), int(group) if group else None
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Run the chosen move, or show the second step."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        locale = locale_of(interaction)
        g, seat = await bot.session.prepare(self.game, interaction.user.id, self.version)
        check_seat(g, self.seat, seat)
        value = (self.item.values or ["-"])[0]
        ui = ui_for(g.row.game_id)
        actions = g.legal_actions(seat)
        if value.startswith("g") and value[1:].isdigit():
            n = int(value[1:])
            gs = groups(ui, g, seat, actions)
            if n >= len(gs):
                raise _stale_menu()
            label = ui.group_label(g, seat, gs[n].key, [actions[i] for i in gs[n].indices], locale)
            menu = chooser(g, seat, locale, group=n)
            await interaction.response.send_message(
                t("board.choose_in", locale, group=label), view=menu, ephemeral=True
            )
            return
        if not (value.startswith("a") and value[1:].isdigit()) or int(value[1:]) >= len(actions):
            raise _stale_menu()
        action = actions[int(value[1:])]
        result = await within(interaction, bot.session.move(self.game, interaction.user.id, action, self.version))
        message = interaction.message
        if message is not None and message.flags.ephemeral and not interaction.response.is_done():
            # Close the private step-two menu; the public record follows as a new message.
            await interaction.response.edit_message(content=t("board.done", locale), view=None)
        await publish(interaction, result)


def _stale_menu() -> StaleAction:
    return StaleAction(said("err.stale_menu"))


class PlayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tablero:play:(?P<game>\d+)"):
    """Opens the clicker's own menu of moves privately (when the menu would reveal a hand)."""

    def __init__(self, game: int, label: str = "Jugar / Play") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"tablero:play:{game}")
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlayButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's menu of moves, visible only to them."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        locale = locale_of(interaction)
        g, seat = await bot.session.prepare(self.game, interaction.user.id)
        ui = ui_for(g.row.game_id)
        menu = ui.menu(g, seat, locale) or chooser(g, seat, locale)
        await interaction.response.send_message(
            clip(ui.menu_text(g, seat, locale), 2000), view=menu, ephemeral=True
        )


class HandButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tablero:hand:(?P<game>\d+)"):
    """Shows the clicker's private view ("my hand") ephemerally."""

    def __init__(self, game: int, label: str = "Mi mano / My hand") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=f"tablero:hand:{game}")
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's hand, visible only to them."""
        await guard(interaction, show_hand(interaction, self.game))


async def show_hand(interaction: discord.Interaction, game: int) -> None:
    """Reply privately with the caller's view of ``game`` (and their move menu if it is their turn)."""
    bot = services(interaction)
    locale = locale_of(interaction)
    g, seat = await bot.session.seat_for(game, interaction.user.id)
    g = snapshot(g)
    ui = ui_for(g.row.game_id)
    # Drawing may take a moment: answer within Discord's 3 s whatever happens.
    png = await within(interaction, draw(ui, g, seat, locale), ephemeral=True)
    rendered = ui.private(g, seat, locale, png)
    if seat in g.pending():
        rendered.view = ui.menu(g, seat, locale) or chooser(g, seat, locale)
    await reply(interaction, ephemeral=True, **rendered.send_kwargs())


class ActButton(
    SeatButton,
    template=r"tablero:act:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<index>\d+)",
):
    """One legal move of one seat at one version, as a button (a step of a private panel,
    or an answer in a reaction DM); the message it sits on then shows the next step."""

    index: int

    async def callback(self, interaction: discord.Interaction) -> None:
        """Make the move, show the next step here, tell the channel."""
        await guard(interaction, act(interaction, self.game, self.version, self.seat, str(self.index)))


class ActSelect(
    SeatItem[discord.ui.Select],
    template=r"tablero:acts:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<part>\d+)",
):
    """Legal moves of one seat at one version as a menu (values: their indices); ``part``
    tells apart several menus of one message."""

    part: int

    def __init__(
        self,
        game: int,
        version: int,
        seat: Seat,
        part: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=self.custom_id_for(game, version, seat, part),
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=clip(placeholder, 150) if placeholder else None,
                min_values=1,
                max_values=1,
            ),
            game, version, seat, part,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Make the chosen move, show the next step here, tell the channel."""
        value = (self.item.values or ["-"])[0]
        await guard(interaction, act(interaction, self.game, self.version, self.seat, value))


def check_seat(g: Game, expected: Seat, actual: Seat) -> None:
    """Refuse unless the clicker's seat ``actual`` is the seat ``expected`` a panel was made for."""
    if expected != actual:
        name = g.seat_row(expected).name
        raise Refusal(said("err.not_this_seat", name=name))


async def act(interaction: discord.Interaction, game: int, version: int, seat: Seat, value: str) -> None:
    """Make legal move number ``value`` of ``seat`` at ``version`` for the clicker, then
    show what comes next on the same message and publish the move."""
    bot = services(interaction)
    locale = locale_of(interaction)
    g, mine = await bot.session.prepare(game, interaction.user.id, version)
    check_seat(g, seat, mine)
    actions = g.legal_actions(seat)
    if not value.isdigit() or int(value) >= len(actions):
        raise _stale_menu()
    action = actions[int(value)]
    label = ui_for(g.row.game_id).label(g, seat, action, locale)
    result = await within(interaction, bot.session.move(game, interaction.user.id, action, version))
    await show_next(interaction, result.game, seat, locale, label)
    await publish(interaction, result)


async def show_next(interaction: discord.Interaction, g: Game, seat: Seat, locale: str, label: str) -> None:
    """Turn the message a move was made from into the seat's next step (when the seat
    still has to decide), or into a note of what was done."""
    ui = ui_for(g.row.game_id)
    if seat in g.pending():
        menu = ui.menu(g, seat, locale) or chooser(g, seat, locale)
        content = clip(t("board.chosen", locale, label=label) + "\n" + ui.menu_text(g, seat, locale), 2000)
    else:
        menu, content = None, t("board.chosen", locale, label=label)
    # A hand shown with the menu is out of date once a card is played: it goes.
    kwargs: dict[str, Any] = {"content": content, "view": menu, "embeds": [], "attachments": []}
    if not interaction.response.is_done():
        await interaction.response.edit_message(**kwargs)
    elif token_alive(interaction):
        await interaction.edit_original_response(**kwargs)


def act_buttons(g: Game, seat: Seat, locale: str) -> discord.ui.View | None:
    """A button per legal move of ``seat`` (a reaction's answers); None when there are too
    many for buttons."""
    actions = g.legal_actions(seat)
    if not actions or len(actions) > 20:
        return None
    ui = ui_for(g.row.game_id)
    view = discord.ui.View(timeout=None)
    for i, a in enumerate(actions):
        view.add_item(ActButton(g.id, g.version, seat, i, label=ui.label(g, seat, a, locale)))
    return view


COMPONENTS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PickSelect, PlayButton, HandButton, ActButton, ActSelect)


def chooser(g: Game, seat: Seat, locale: str, group: int | None = None) -> discord.ui.View:
    """A view holding ``seat``'s menu of moves (first step, or step two of ``group``)."""
    ui = ui_for(g.row.game_id)
    view = discord.ui.View(timeout=None)
    options = menu_options(ui, g, seat, locale, group)
    if options:
        name = g.seat_row(seat).name
        view.add_item(
            PickSelect(g.id, g.version, seat, group, options=options, placeholder=t("board.pick", locale, name=name))
        )
    return view


def board_view(g: Game, locale: str) -> discord.ui.View | None:
    """The board's components: a move menu per pending seat whose menu reveals nothing
    hidden, otherwise a Play button that opens it privately; and the "My hand" button."""
    if g.status != "active" or g.state is None:
        return None
    ui = ui_for(g.row.game_id)
    view = discord.ui.View(timeout=None)
    needs_play = False
    menus = 0
    for seat in sorted(g.pending()):
        if g.seat_row(seat).ai:
            continue
        # A public menu would show this seat's options to everyone; only allowed when
        # the seat sees nothing the public does not.
        if g.secrets(seat) or menus >= 3:
            needs_play = True
            continue
        options = menu_options(ui, g, seat, locale, None)
        if not options:
            continue
        name = g.seat_row(seat).name
        view.add_item(
            PickSelect(g.id, g.version, seat, options=options, placeholder=t("board.pick", locale, name=name))
        )
        menus += 1
    if needs_play:
        view.add_item(PlayButton(g.id, label=t("btn.play", locale)))
    view.add_item(HandButton(g.id, label=t("btn.hand", locale)))
    return view


# ----------------------------------------------------------------------------- after a move


def announcement(g: Game, result: MoveResult, locale: str) -> str:
    """The public record of a move: who did what, then who must act (pinged) or the result."""
    lines: list[str] = []
    if result.before is None:
        lines.append(t("board.started", locale, id=g.id))
    # Consecutive steps of one player (the parts of one choice) are told as one line.
    runs: list[tuple[Seat, list[str]]] = []
    for step in result.steps:
        if step.action is None:
            continue  # an undo: its own line says so
        texts = event_lines(step.events, locale, g=g)
        if runs and runs[-1][0] == step.seat:
            runs[-1][1].extend(texts)
        else:
            runs.append((step.seat, texts))
    for seat, texts in runs:
        lines.append(said_by(g, seat, texts, locale))
    # A long record loses lines of what happened, never the lines that ping who acts now.
    return clip_before("\n".join(lines), "\n".join(turn_lines(g, locale)), 2000)


async def publish(interaction: discord.Interaction, result: MoveResult) -> None:
    """Tell Discord about a committed move: the public record, the board, the DMs."""
    await services(interaction).announcer.publish(result, interaction=interaction)


# ----------------------------------------------------------------------------- slash commands


def encode(g: Game, index: int, action: Action) -> str:
    """An autocomplete value for an action at this version: its JSON, or its index if long,
    followed by ``@version``, so that a request sent twice is refused as stale, not repeated."""
    data = f"{action.model_dump_json()}@{g.version}"
    return data if len(data) <= 100 else f"#{index}@{g.version}"


def chosen_version(value: str) -> int | None:
    """The version a typed or autocompleted value was chosen at (None: typed without one)."""
    m = re.search(r"@(\d+)$", value.strip())
    return int(m[1]) if m else None


def _kind(action: Action) -> str:
    return str(getattr(action, "kind", ""))


def legal_choices(kinds: Collection[str]) -> Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[str]]]]:
    """An autocomplete callback offering the caller's legal moves of ``kinds`` (a free
    function: discord.py passes it no cog)."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await action_choices(interaction, current, kinds)

    return complete


async def action_choices(
    interaction: discord.Interaction, current: str, kinds: Collection[str] | None = None
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the caller's legal moves in this channel's game (optionally of some kinds)."""
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
        needle = fold(current)
        out: list[app_commands.Choice[str]] = []
        for i, a in enumerate(g.legal_actions(seat)):
            if kinds is not None and _kind(a) not in kinds:
                continue
            label = ui.label(g, seat, a, locale)
            if needle and needle not in fold(label):
                continue
            out.append(app_commands.Choice(name=label, value=encode(g, i, a)))
            if len(out) == MENU_SIZE:
                break
        if not out and not g.pending().get(seat):
            return [app_commands.Choice(name=t("ac.not_your_turn", locale), value="-")]
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
    allowed = [(i, a) for i, a in enumerate(legal) if kinds is None or _kind(a) in kinds]
    v = value.strip()
    at = chosen_version(v)
    if at is not None and at != g.version:
        raise _stale_menu()
    if v.startswith("{"):
        action = g.engine.parse_action(re.sub(r"@\d+$", "", v))
        if kinds is None or _kind(action) in kinds:
            return action
    elif v.startswith("#"):
        m = re.fullmatch(r"#(\d+)@(\d+)", v)
        if m and int(m[2]) != g.version:
            raise _stale_menu()
        if m and int(m[1]) < len(legal) and any(i == int(m[1]) for i, _ in allowed):
            return legal[int(m[1])]
    else:
        needle = fold(v)
        # a move typed in any language's words: every language the rules' texts are in
        labels = [(a, [fold(ui.label(g, seat, a, lang)) for lang in rules_catalogues().languages])
                  for _, a in allowed]
        exact = [a for a, words in labels if needle in words]
        if len(exact) == 1:
            return exact[0]
        partial = [a for a, words in labels if needle and any(needle in w for w in words)]
        if len(partial) == 1:
            return partial[0]
    raise Refusal(said(
        "err.pick_from_list",
        value=clip(v, 60),
        options=lambda lang: clip("; ".join(ui.label(g, seat, a, lang) for _, a in allowed[:12]), 1500),
    ))


async def play_value(
    interaction: discord.Interaction, value: str, kinds: Collection[str] | None = None
) -> None:
    """Run the move named by ``value`` for the caller in this channel's game, then publish it."""
    bot = services(interaction)
    g = await bot.session.require_in_channel(interaction.channel_id or 0)
    g, seat = await bot.session.prepare(g.id, interaction.user.id)
    version = g.version
    action = resolve_action(g, seat, value, kinds)
    # The version the value was read at goes with it: the session checks it again under the
    # game's lock, so the same request twice (or crossing another move) applies once.
    at = chosen_version(value)
    await play_action(interaction, g.id, action, version if at is None else at)


async def play_action(interaction: discord.Interaction, game: int, action: Action | dict[str, Any],
                      version: int | None = None) -> None:
    """Run ``action`` for the caller at ``version`` (the session re-checks everything under
    the game's lock), then publish it."""
    bot = services(interaction)
    result = await within(interaction, bot.session.move(game, interaction.user.id, action, version))
    await publish(interaction, result)


__all__ = [
    "COMPONENTS",
    "ActButton",
    "ActSelect",
    "act",
    "act_buttons",
    "HandButton",
    "PickSelect",
    "PlayButton",
    "SeatButton",
    "SeatItem",
    "action_choices",
    "announcement",
    "board_view",
    "check_seat",
    "chooser",
    "fold",
    "legal_choices",
    "mention",
    "play_action",
    "play_value",
    "publish",
    "resolve_action",
    "show_hand",
    "show_next",
    "within",
]
