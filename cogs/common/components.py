"""The persistent components of the move flow (menus and buttons whose custom_id says the
game, version and seat, so that they route after a restart too), the views made of them,
and what a click on them does."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import discord

from cogs.common import services
from cogs.common.answering import acknowledge, answer_by, mark_card_held, mark_hand_shown, respond
from cogs.common.card_hold import fits_beside, holds_card
from cogs.common.errors import guard, reply
from cogs.common.i18n import locale_of, t
from cogs.common.menus import PLACEHOLDER, group_title, menu_options, menu_pages, placeholder
from cogs.common.moves import check_seat, publish, stale_menu, within
from cogs.common.patience import token_alive
from cogs.common.present import Rendered, clip, draw, snapshot, ui_for
from rules.core import Seat
from services.session import Game, MoveResult

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])
SEAT_TEMPLATE = r"tablero:seat:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)"
BUTTONS = 20  # a view holds at most 25 components; a reaction's answers stay well under
# The share of the global pace's window in use past which the Play button lends its token for
# the card's next edit: lending costs a request (the menu as a followup), so only when the
# bot's own token is close to its limit.
LEND_WHEN_BUSY = 0.95


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

    async def mine(self, interaction: discord.Interaction) -> tuple[Game, Seat]:
        """The game at this component's version and the clicker's seat, refused unless it
        is the seat the panel was made for."""
        g, seat = await services(interaction).session.prepare(self.game, interaction.user.id, self.version)
        check_seat(g, self.seat, seat)
        return g, seat

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


def select(custom_id: str, options: list[discord.SelectOption] | None, placeholder: str | None,
           most: int = 1) -> discord.ui.Select:
    """A select menu within Discord's limits (an empty one holds a "-" so Discord takes it)."""
    opts = options or [discord.SelectOption(label="-", value="-")]
    return discord.ui.Select(
        custom_id=custom_id, options=opts, placeholder=clip(placeholder, PLACEHOLDER) if placeholder else None,
        min_values=1, max_values=max(1, min(most, len(opts))),
    )


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tablero:pick:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)(?::(?P<group>\d+))?",
):
    """A menu of one seat's legal moves at one version (see cogs/common/menus.py): a value
    "a<i>" makes the move, "g<n>" opens step two, "p<k>" shows another page."""

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
        super().__init__(select(custom_id, options, placeholder))
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
        """Run the chosen move, or show the second step or another page."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        locale = locale_of(interaction)
        g, seat = await bot.session.prepare(self.game, interaction.user.id, self.version)
        check_seat(g, self.seat, seat)
        value = (self.item.values or ["-"])[0]
        kind, number = value[:1], int(value[1:]) if value[1:].isdigit() else -1
        if kind == "p" and number >= 0:
            await self._page(interaction, g, seat, locale, number)
        elif kind == "g" and number >= 0:
            title = group_title(ui_for(g.row.game_id), g, seat, number, locale)
            if title is None:
                raise stale_menu()
            await interaction.response.send_message(
                t("board.choose_in", locale, group=title), view=chooser(g, seat, locale, group=number),
                ephemeral=True,
            )
        else:
            actions = g.legal_actions(seat)
            if kind != "a" or not 0 <= number < len(actions):
                raise stale_menu()
            label = ui_for(g.row.game_id).label(g, seat, actions[number], locale)
            result = await within(
                interaction, bot.session.move(self.game, interaction.user.id, actions[number], self.version),
                move=True,
            )
            message = interaction.message
            if message is not None and message.flags.ephemeral:
                await after_step(interaction, result, seat, locale, label)
            await publish(interaction, result)

    async def _page(self, interaction: discord.Interaction, g: Game, seat: Seat, locale: str, page: int) -> None:
        """Show page ``page`` of this menu: in place where only the chooser sees it (an
        ephemeral message, a DM), else privately (the board's menu stays as it is)."""
        view = chooser(g, seat, locale, group=self.group, page=page)
        if not view.children:
            raise stale_menu()
        message = interaction.message
        if message is not None and (message.flags.ephemeral or interaction.guild_id is None):
            await interaction.response.edit_message(view=view)
            return
        if self.group is not None:
            title = group_title(ui_for(g.row.game_id), g, seat, self.group, locale) or ""
            content = t("board.choose_in", locale, group=title)
        else:
            content = clip(ui_for(g.row.game_id).menu_text(g, seat, locale), 2000)
        await interaction.response.send_message(content, view=view, ephemeral=True)


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"tablero:game:(?P<game>\d+)"):
    """A button of a whole game (on its board), for whoever clicks it; its custom_id is its
    template's prefix and the game's id. A subclass says its template, style and callback."""

    style: discord.ButtonStyle = discord.ButtonStyle.secondary

    def __init__(self, game: int, label: str) -> None:
        prefix = self.__discord_ui_compiled_template__.pattern.split(":(?P<", 1)[0]
        super().__init__(discord.ui.Button(label=label, style=self.style, custom_id=f"{prefix}:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["game"]))


class PlayButton(GameButton, template=r"tablero:play:(?P<game>\d+)"):
    """Opens the clicker's own menu of moves privately (when the menu would reveal a hand)."""

    style = discord.ButtonStyle.primary

    def __init__(self, game: int, label: str = "Jugar / Play") -> None:
        super().__init__(game, label)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's menu of moves, visible only to them."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        locale = locale_of(interaction)
        # Answered with the menu itself, privately, when it is ready within the answer's
        # budget; else the card is acknowledged as it is (never late) and the menu (or a
        # refusal) follows privately; that click's token can then edit the card through
        # Discord's interaction webhook, outside the bot's global rate limit.
        # When the bot's global pace is busy and no live interaction reaches the card, the
        # card is acknowledged at once instead, to lend this click's token for its next edit.
        card = interaction.message.id if interaction.message is not None else None
        pace = getattr(bot, "pace", None)
        if bot.boards.lent(self.game, card) is None and pace is not None and pace.busy(LEND_WHEN_BUSY):
            await acknowledge(interaction)
        else:
            await answer_by(interaction)
        g, seat = await bot.session.prepare(self.game, interaction.user.id)
        text = clip(ui_for(g.row.game_id).menu_text(g, seat, locale), 2000)
        view = private_menu(g, seat, locale)
        if await respond(interaction, lambda: interaction.response.send_message(text, view=view, ephemeral=True)):
            return
        bot.boards.lend(self.game, interaction)
        await interaction.followup.send(text, view=view, ephemeral=True)


class HandButton(GameButton, template=r"tablero:hand:(?P<game>\d+)"):
    """Shows the clicker's private view ("my hand") ephemerally."""

    def __init__(self, game: int, label: str = "Mi mano / My hand") -> None:
        super().__init__(game, label)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the clicker's hand, visible only to them."""
        await guard(interaction, show_hand(interaction, self.game))


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
        super().__init__(select(self.custom_id_for(game, version, seat, part), options, placeholder),
                         game, version, seat, part)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Make the chosen move, show the next step here, tell the channel."""
        value = (self.item.values or ["-"])[0]
        await guard(interaction, act(interaction, self.game, self.version, self.seat, value))


COMPONENTS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PickSelect, PlayButton, HandButton, ActButton, ActSelect)


# ----------------------------------------------------------------------------- views


def chooser(g: Game, seat: Seat, locale: str, group: int | None = None, page: int = 0) -> discord.ui.View:
    """A view holding page ``page`` of ``seat``'s menu of moves (first step, or step two of
    ``group``); empty when that page or group no longer exists."""
    ui = ui_for(g.row.game_id)
    view = discord.ui.View(timeout=None)
    options = menu_options(ui, g, seat, locale, group, page)
    if options:
        words = placeholder(g, seat, locale, page, menu_pages(ui, g, seat, locale, group))
        view.add_item(PickSelect(g.id, g.version, seat, group, options=options, placeholder=words))
    return view


def private_menu(g: Game, seat: Seat, locale: str) -> discord.ui.View:
    """``seat``'s own menu of moves: the game's step panel, else the generic menu."""
    return ui_for(g.row.game_id).menu(g, seat, locale) or chooser(g, seat, locale)


def act_buttons(g: Game, seat: Seat, locale: str) -> discord.ui.View | None:
    """A button per legal move of ``seat`` (a reaction's answers); None when there are too
    many for buttons."""
    actions = g.legal_actions(seat)
    if not actions or len(actions) > BUTTONS:
        return None
    ui = ui_for(g.row.game_id)
    view = discord.ui.View(timeout=None)
    for i, a in enumerate(actions):
        view.add_item(ActButton(g.id, g.version, seat, i, label=ui.label(g, seat, a, locale)))
    return view


def board_view(g: Game, locale: str) -> discord.ui.View | None:
    """The board's components: a move menu per pending seat whose menu reveals nothing
    hidden, otherwise a Play button that opens it privately; and the "My hand" button."""
    if g.status != "active" or g.state is None:
        return None
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
        for item in chooser(g, seat, locale).children:
            view.add_item(item)
            menus += 1
    if needs_play:
        view.add_item(PlayButton(g.id, label=t("btn.play", locale)))
    view.add_item(HandButton(g.id, label=t("btn.hand", locale)))
    return view


# ----------------------------------------------------------------------------- what a click does


async def act(interaction: discord.Interaction, game: int, version: int, seat: Seat, value: str) -> None:
    """Make legal move number ``value`` of ``seat`` at ``version`` for the clicker, then
    show what comes next on the same message and publish the move."""
    bot = services(interaction)
    locale = locale_of(interaction)
    g, mine = await bot.session.prepare(game, interaction.user.id, version)
    check_seat(g, seat, mine)
    actions = g.legal_actions(seat)
    if not value.isdigit() or int(value) >= len(actions):
        raise stale_menu()
    action = actions[int(value)]
    label = ui_for(g.row.game_id).label(g, seat, action, locale)
    result = await within(interaction, bot.session.move(game, interaction.user.id, action, version), move=True)
    await after_step(interaction, result, seat, locale, label)
    await publish(interaction, result)


async def after_step(interaction: discord.Interaction, result: MoveResult, seat: Seat, locale: str,
                     label: str) -> None:
    """After a step made from a private panel: the panel shows the seat's next step (its
    answer, when still open), and the seat's hand when the step changed it. A step that ends the seat's part in a server leaves the panel as it is, and the
    answer to the move's delivery (the turn's message, as the new card); in a DM (a
    reaction's buttons) the message says what was chosen."""
    g = result.game
    if seat not in g.pending() and interaction.guild_id is not None:
        # The panel has done its job: the turn's message (the new card) says what was done,
        # as this interaction's answer or followup; the panel's stale menus are refused.
        return
    hand: Rendered | None = None
    if seat in g.pending():
        delivery = services(interaction).delivery
        news = dict(delivery.hands_owed(g, result.before, result.events)).get(seat)
        if news is not None:
            hand = await delivery.private_view(g, seat, news)
    # The seat's part goes on: the panel shows the table as the step left it, and the public
    # card waits for the part's end (one edit a turn, card_hold.py).
    table = await services(interaction).boards.preview(result) if (
        interaction.guild_id is not None and holds_card(result, seat)) else None
    if table is not None and not fits_beside(table, hand):
        table = None
    if await show_next(interaction, g, seat, locale, label, hand=hand, table=table):
        if hand is not None:
            mark_hand_shown(interaction, seat)
        if table is not None:
            mark_card_held(interaction, seat)


async def close_panel(interaction: discord.Interaction, locale: str) -> None:
    """Say "done" on the private panel a move was made from: it has done its job, and the
    public record follows as a new message."""
    if await respond(interaction, lambda: interaction.response.edit_message(content=t("board.done", locale),
                                                                             view=None)):
        return
    if token_alive(interaction):
        await interaction.edit_original_response(content=t("board.done", locale), view=None)


async def show_next(interaction: discord.Interaction, g: Game, seat: Seat, locale: str, label: str,
                    hand: Rendered | None = None, table: Rendered | None = None) -> bool:
    """Turn the message a move was made from into the seat's next step (when the seat
    still has to decide), or into a note of what was done; with ``table`` (the card as the
    step left it, its picture included) and ``hand`` (the seat's private view as the step
    left it) shown there. False when the message could not be changed any more (Discord
    forgot the interaction)."""
    ui = ui_for(g.row.game_id)
    menu: discord.ui.View | None
    if seat in g.pending():
        menu = private_menu(g, seat, locale)
        content = clip(t("board.chosen", locale, label=label) + "\n" + ui.menu_text(g, seat, locale), 2000)
    else:
        menu, content = None, t("board.chosen", locale, label=label)
    # A hand shown with the menu is out of date once a card is played: it goes, or the
    # hand as it is now takes its place.
    shown = [r for r in (table, hand) if r is not None]
    kwargs: dict[str, Any] = {"content": content, "view": menu, "embeds": [r.embed for r in shown],
                              "attachments": [f for r in shown for f in r.files()]}
    if await respond(interaction, lambda: interaction.response.edit_message(**kwargs)):
        return True
    if not token_alive(interaction):
        return False
    # fresh files: a response tried may have used them
    kwargs["attachments"] = [f for r in shown for f in r.files()]
    await interaction.edit_original_response(**kwargs)
    return True


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
        rendered.view = private_menu(g, seat, locale)
    await reply(interaction, ephemeral=True, **rendered.send_kwargs())
