"""Guerra de Mitos decks at the table, in Discord: the lobby's "Choose deck" button and
/gdm deck pick, and the deck a tournament's sign-up asks for.

Every choice is private: the menu of a player's decks is an ephemeral message, and the
lobby only says who has chosen, never what. The rules of choosing live in
services/gdm_lobby.py; this module reads interactions and draws answers.
"""

from __future__ import annotations

import importlib
import logging
import re
import typing
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n
from cogs.common.catalogue import Pairs
from cogs.common.errors import guard, reply
from cogs.common.i18n import locale_of, said
from cogs.common.present import clip
from rules.guerra_de_mitos.cards import cards, fold
from services.gdm_decks import DeckChoice, deck_menu
from services.gdm_lobby import GAME_ID, GdmLobby, ready_name, sign_up, table_options
from services.session import Game
from services.tournament import TournamentRefusal
from storage.tournaments import MatchRow, TournamentRow

log = logging.getLogger("tablero.gdm_lobby")

MENU_SIZE = 25  # options in a select menu, answers of an autocomplete

# Texts of this cog: catalogue ids "gdml.<key>" (cogs/locale); WORDS reads them as pairs.
WORDS = Pairs("gdml.")


def word(key: str, locale: str, **fmt: object) -> str:
    """One of this cog's texts in the reader's language."""
    return i18n.t("gdml." + key, locale, **fmt)


# The /gdm deck pick command's names, and the lobby's labels of the decks option
# ("opt.decks", "opt.decks.<ready deck>"), are catalogue entries (cogs/locale).


def _bot(interaction: discord.Interaction) -> Any:
    return typing.cast(Any, interaction.client)


def _lobby(interaction: discord.Interaction) -> GdmLobby:
    found = getattr(interaction.client, "gdm_lobby", None)
    if found is None:
        raise RuntimeError("the Guerra de Mitos lobby is not loaded")
    return typing.cast(GdmLobby, found)


def choice_name(choice: DeckChoice, locale: str) -> str:
    """A deck's name in the reader's language."""
    return choice.name.get(locale)


def _pantheon(choice: DeckChoice, locale: str) -> str:
    c = cards().get(choice.deck.pantheon or "")
    return c.display_name(locale) if c is not None else "-"


def deck_options(menu: list[DeckChoice], current: str | None, locale: str) -> list[discord.SelectOption]:
    """The player's decks and the ready decks as menu options (theirs first, 25 at most)."""
    mine = [c for c in menu if c.key.startswith("deck:")]
    ready = [c for c in menu if not c.key.startswith("deck:")]
    shown = mine[: MENU_SIZE - len(ready)] + ready
    return [
        discord.SelectOption(
            label=clip(choice_name(c, locale), 100),
            value=c.key,
            description=clip(
                word("yours" if c.key.startswith("deck:") else "ready", locale, pantheon=_pantheon(c, locale)),
                100,
            ),
            default=c.key == current,
        )
        for c in shown
    ]


class DeckSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"tablero:gdmdeck:(?P<what>[gt])(?P<id>\d+)",
):
    """The private menu of a player's decks: for a game's lobby (g) or a tournament (t)."""

    def __init__(
        self, what: str, ident: int, *, options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"tablero:gdmdeck:{what}{ident}",
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=clip(placeholder, 150) if placeholder else None,
                min_values=1,
                max_values=1,
            )
        )
        self.what, self.ident = what, ident

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DeckSelect:
        """Rebuild the menu from its custom_id (after a restart too)."""
        return cls(match["what"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Choose the deck picked in the menu."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        key = (self.item.values or ["-"])[0]
        if self.what == "g":
            text, then = await choose_for_game(interaction, self.ident, key)
        else:
            text, then = await choose_for_tournament(interaction, self.ident, key)
        await interaction.response.edit_message(content=text, view=None)
        await then()


class LobbyDeckButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"tablero:gdmlobby:(?P<game>\d+)",
):
    """"Choose deck" on a Guerra de Mitos lobby: opens the player's private menu."""

    def __init__(self, game: int, label: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "deck",
                style=discord.ButtonStyle.primary,
                custom_id=f"tablero:gdmlobby:{game}",
                emoji="🃏",
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyDeckButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the player, privately, the decks they may play this game with."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        bot = _bot(interaction)
        g = await bot.session.require(self.game)
        gl = _lobby(interaction)
        seat = g.seat_of(interaction.user.id)
        if g.status != "lobby" or seat is None or gl.seat_deck(g, seat).kind == "locked":
            # the refusal a choice meets (started, not seated, a seat a tournament fixed)
            await gl.choose(self.game, interaction.user.id, "-")
            return
        menu = await deck_menu(bot.store, interaction.user.id)
        current = await gl.current(self.game, interaction.user.id)
        lines = [word("menu", locale, id=g.id)]
        if current is not None:
            lines.append(word("menu_now", locale, deck=choice_name(current, locale)))
        else:
            shown = gl.seat_deck(g, seat)
            deck = shown.ready.get(locale) if shown.ready is not None else word("random_ready", locale)
            lines.append(word("menu_default", locale, deck=deck))
        if sum(1 for c in menu if c.key.startswith("deck:")) + 6 > MENU_SIZE:
            lines.append(word("menu_more", locale))
        await send_menu(interaction, "g", g.id, menu, current.key if current else None, lines, locale)


async def send_menu(
    interaction: discord.Interaction, what: str, ident: int, menu: list[DeckChoice],
    current: str | None, lines: list[str], locale: str,
) -> None:
    """Answer privately with the menu of decks."""
    view = discord.ui.View(timeout=None)
    view.add_item(DeckSelect(what, ident, options=deck_options(menu, current, locale),
                             placeholder=word("placeholder", locale)))
    await reply(interaction, clip("\n".join(lines), 2000), ephemeral=True, view=view)


# A choice returns the player's answer and what to show the others once it is given (the
# lobby or the sign-up message edited), so the answer comes within Discord's time.
Then = Callable[[], Awaitable[Any]]


async def choose_for_game(interaction: discord.Interaction, game: int, key: str) -> tuple[str, Then]:
    """Choose ``key`` for the player in ``game``'s lobby: the answer, and the lobby's refresh."""
    locale = locale_of(interaction)
    g, choice = await _lobby(interaction).choose(game, interaction.user.id, key)
    text = word("chosen", locale, id=g.id, deck=choice_name(choice, locale))
    return text, lambda: _bot(interaction).boards.refresh(g.id)


async def choose_for_tournament(
    interaction: discord.Interaction, tournament: int, key: str
) -> tuple[str, Then]:
    """Sign the player up for ``tournament`` with ``key`` locked (or change it): the answer,
    and the sign-up message's refresh."""
    locale = locale_of(interaction)
    bot = _bot(interaction)
    svc = bot.tournaments
    t_ = await _tournament(interaction, tournament)
    lock, new = await sign_up(svc, t_.id, interaction.user.id, interaction.user.display_name, key)
    name = await _lock_name(interaction, lock.source, lock.name)

    async def refresh() -> None:
        cog = interaction.client.get_cog("Tournaments") if isinstance(interaction.client, commands.Bot) else None
        if cog is not None:
            await typing.cast(Any, cog).refresh(await svc.require(t_.id))

    return word("signed_up" if new else "changed", locale, name=t_.name, deck=name), refresh


async def _lock_name(interaction: discord.Interaction, source: str, stored: str) -> str:
    """A locked deck's name in the reader's language (a ready deck's), else as stored."""
    kind, _, ident = source.partition(":")
    return ready_name(ident).get(locale_of(interaction)) if kind == "ready" else stored


async def _tournament(interaction: discord.Interaction, tournament: int) -> TournamentRow:
    svc = _bot(interaction).tournaments
    t_ = await svc.store.get_tournament(tournament)
    if t_ is None or t_.guild_id != interaction.guild_id or t_.game_id != GAME_ID:
        raise TournamentRefusal(said("gdml.no_tourney", id=tournament))
    return t_


async def ask_deck(interaction: discord.Interaction, t_: TournamentRow) -> None:
    """Sign-up for a Guerra de Mitos tournament: the private menu of decks to lock."""
    locale = locale_of(interaction)
    bot = _bot(interaction)
    menu = await deck_menu(bot.store, interaction.user.id)
    held = await bot.store.deck_lock(t_.id, interaction.user.id)
    lines = [word("tourney_menu", locale, name=t_.name)]
    if held is not None:
        lines.append(word("menu_now", locale, deck=await _lock_name(interaction, held.source, held.name)))
    if sum(1 for c in menu if c.key.startswith("deck:")) + 6 > MENU_SIZE:
        lines.append(word("menu_more", locale))
    await send_menu(interaction, "t", t_.id, menu, held.source if held else None, lines, locale)


# ----------------------------------------------------------------------------- /gdm deck pick


@app_commands.command(
    name="pick", description="Choose the deck you play this channel's game (or a tournament) with"
)
@app_commands.describe(
    deck="One of your legal decks or a ready deck",
    tournament="A Guerra de Mitos tournament in sign-up (instead of this channel's game)",
)
async def pick_command(interaction: discord.Interaction, deck: str, tournament: int | None = None) -> None:
    """Choose privately the deck for this channel's game, or sign up for a tournament with it."""
    if tournament is not None:
        text, then = await choose_for_tournament(interaction, tournament, deck)
    else:
        g = await _bot(interaction).session.require_in_channel(interaction.channel_id or 0)
        text, then = await choose_for_game(interaction, g.id, deck)
    await reply(interaction, text, ephemeral=True)
    await then()


@pick_command.autocomplete("deck")
async def _deck_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    try:
        locale = locale_of(interaction)
        menu = await deck_menu(_bot(interaction).store, interaction.user.id, current)
        return [
            app_commands.Choice(
                name=clip(f"{choice_name(c, locale)} · "
                          + word("yours" if c.key.startswith("deck:") else "ready", locale,
                                 pantheon=_pantheon(c, locale)), 100),
                value=c.key,
            )
            for c in menu
        ][:MENU_SIZE]
    except Exception:
        log.exception("deck autocomplete failed")
        return []


@pick_command.autocomplete("tournament")
async def _tournament_ac(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    try:
        rows = await _bot(interaction).tournaments.store.tournaments_in_guild(interaction.guild_id or 0, ("signup",))
        q = fold(current)
        return [
            app_commands.Choice(name=clip(f"#{x.id} {x.name}", 100), value=x.id)
            for x in reversed(rows)
            if x.game_id == GAME_ID and q in fold(f"#{x.id} {x.name}")
        ][:MENU_SIZE]
    except Exception:
        log.exception("tournament autocomplete failed")
        return []


# ----------------------------------------------------------------------------- the lobby's look


class LobbyLook:
    """What a Guerra de Mitos lobby adds: whether each seat has a deck, and the button."""

    def __init__(self, lobby: GdmLobby) -> None:
        self.lobby = lobby

    def seat_note(self, g: Game, seat: int, locale: str) -> str:
        """"deck chosen" / "not chosen yet (else ...)": never which deck."""
        shown = self.lobby.seat_deck(g, seat)
        bot = g.seat_row(seat).ai
        if shown.kind == "chosen":
            return word("note_chosen", locale)
        if shown.kind == "locked":
            return word("note_locked", locale)
        if shown.kind == "ready" and shown.ready is not None:
            return word("bot_ready" if bot else "note_ready", locale, deck=shown.ready.get(locale))
        return word("bot_random" if bot else "note_random", locale)

    def items(self, g: Game, locale: str) -> list[discord.ui.Item[Any]]:
        """The "Choose deck" button."""
        return [LobbyDeckButton(g.id, word("button", locale))]


def _hooks() -> tuple[Any, Any]:
    """The lobby and tournament cogs' modules as loaded now: loading an extension makes a
    new module object, so the one imported when this module was first imported may be an
    old one."""
    return importlib.import_module("cogs.lobby"), importlib.import_module("cogs.tournament")


class GdmLobbyCog(commands.Cog):
    """Choosing decks for Guerra de Mitos games and tournaments."""

    def __init__(self, bot: commands.Bot) -> None:
        """The cog for ``bot`` (it needs the session service, and /gdm deck to attach to)."""
        self.bot = bot
        b = typing.cast(Any, bot)
        self.lobby = GdmLobby(b.session)
        b.gdm_lobby = self.lobby

    async def cog_load(self) -> None:
        """Read the lobbies' choices, hook into the lobby, the start and tournaments, and
        attach /gdm deck pick."""
        await self.lobby.load()
        b = typing.cast(Any, self.bot)
        self.bot.add_dynamic_items(DeckSelect, LobbyDeckButton)
        lobby_cog, tournament_cog = _hooks()
        lobby_cog.LOBBY_EXTRAS[GAME_ID] = LobbyLook(self.lobby)
        b.session.start_options[GAME_ID] = self.lobby.start_options
        tournament_cog.SIGNUP_ASK[GAME_ID] = ask_deck
        tournament_cog.TABLE_OPTIONS[GAME_ID] = self._table_options
        deck = self._deck_group()
        if deck is not None and deck.get_command("pick") is None:
            deck.add_command(pick_command)

    def _deck_group(self) -> app_commands.Group | None:
        gdm = self.bot.tree.get_command("gdm")
        deck = gdm.get_command("deck") if isinstance(gdm, app_commands.Group) else None
        return deck if isinstance(deck, app_commands.Group) else None

    async def _table_options(self, tournament: TournamentRow, match: MatchRow) -> dict[str, Any]:
        return await table_options(typing.cast(Any, self.bot).tournaments, tournament, match)

    async def cog_unload(self) -> None:
        """Unhook everything cog_load hooked."""
        lobby_cog, tournament_cog = _hooks()
        lobby_cog.LOBBY_EXTRAS.pop(GAME_ID, None)
        typing.cast(Any, self.bot).session.start_options.pop(GAME_ID, None)
        tournament_cog.SIGNUP_ASK.pop(GAME_ID, None)
        tournament_cog.TABLE_OPTIONS.pop(GAME_ID, None)
        deck = self._deck_group()
        if deck is not None:
            deck.remove_command("pick")


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point); after cogs.gdm_decks."""
    await bot.add_cog(GdmLobbyCog(bot))
