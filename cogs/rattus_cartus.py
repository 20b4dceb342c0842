"""Rattus Cartus in Discord: the /rc commands, the private entering panel, and the board.

Everything a player decides goes through the session service and the engine; this
module only shows the game and turns clicks into actions. Hidden things (hands, rat
values, nun cards seen, the cards chosen to play) appear only in the owner's DMs and
ephemeral messages.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import services
from cogs.common.autocomplete import (
    Choices,
    action_choices,
    caller_in,
    in_every_language,
    kind_name,
    legal_choices,
    offered,
    pick_one,
    quiet,
)
from cogs.common.components import SeatButton, SeatItem, close_panel, select
from cogs.common.errors import guard, reply
from cogs.common.flow import GameCog, refusal
from cogs.common.game_ui import Typed
from cogs.common.i18n import Said, locale_of, names, t, tn
from cogs.common.moves import play_action, publish, stale_menu, within
from cogs.common.present import COLOUR, EMBED_FIELD, GameUI, clip, mention, register
from cogs.pictures import draw_or_none
from cogs.pictures.rattus_cartus import changes, render_board
from rules.core import Action, GameState, Seat
from rules.rattus_cartus.cards import (
    BUILDINGS,
    CLASS_NAME,
    CLASSES,
    KIND,
    KIND_NAME,
    KIND_TEXT,
    PLAYABLE_SPECIALS,
    TYPE,
    Supply,
    card_name,
    type_name,
)
from rules.rattus_cartus.engine import playable
from rules.rattus_cartus.model import (
    Done,
    Enter,
    Pass,
    Play,
    PrivateView,
    RcState,
    RcView,
    SupplyChoice,
    Undo,
)
from services.session import Game, Refusal

log = logging.getLogger("tablero.rattus_cartus")

GAME_ID = "rattus_cartus"
MENU_SIZE = 25


SUPPLY_KINDS = frozenset({kind_name(SupplyChoice)})
# Phase D decisions: a duel's victim, cards to give, Hospital discards (or stop), nun cards.
DECIDE_KINDS = frozenset({"choose", "give", "discard", "peek", "done"})
SEAT_DISCS = ("🔴", "🔵", "🟡", "🟢", "🟣")


def disc(seat: int) -> str:
    """The colour of a seat's discs, as on the picture."""
    return SEAT_DISCS[seat % len(SEAT_DISCS)]


def supply_text(supply: Sequence[int], locale: str) -> str:
    """What a building card's supply action does."""
    draw, rats, peeks = supply
    return Supply(draw=draw, rats=rats, peeks=peeks).text().get(locale)


def slot_text(cards: int, revealed: list[str] | None, locale: str) -> str:
    """Cards at a building: how many face down, or their kinds once shown."""
    if revealed is not None:
        return ", ".join(KIND_NAME[k].get(locale) for k in revealed) or tn("rc.cards_face_down", 0, locale)
    return tn("rc.cards_face_down", cards, locale)


def hand_lines(cards: Sequence[str], locale: str) -> list[str]:
    """A hand as "Monk (Church, 2 nuns) ×2" lines, cards that look alike together."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[TYPE[c]] = counts.get(TYPE[c], 0) + 1
    return [type_name(k).get(locale) + (f" ×{n}" if n > 1 else "") for k, n in counts.items()]


class RcUI(Typed[RcState, RcView], GameUI):
    """How Rattus Cartus looks: the picture, the row and the players; hands in private."""

    game_id = GAME_ID
    state_type, view_type = RcState, RcView
    # One move can resolve a whole building row: one event per line reads better.
    event_separator = "\n"

    # -- private information -------------------------------------------------------------

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """Hand, rats, nun cards seen and cards face down: a DM when any of them changes
        (not at every step of choosing a building and its cards, nor for the secret supply
        choice the player has just made themselves)."""
        if state is None:
            return []
        me = self.view(g, seat, state).me
        if me is None:
            return []
        return [
            f"hand={me.hand}",
            f"rats={sorted(me.rats)}",
            f"peeks={sorted(me.peeks.items())}",
            f"played={me.played}",
        ]

    def menu(self, g: Game, seat: Seat, locale: str) -> discord.ui.View | None:
        """Phase C gets the entering panel (building, then every card at once)."""
        if g.state is None or g.status != "active":
            return None
        v = self.view(g, seat)
        if v.phase == "enter" and v.queue and v.queue[0] == seat:
            return building_panel(g, seat, locale)
        return None

    # -- pictures and embeds ---------------------------------------------------------------

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The public board drawn by cogs/pictures (private views go without a picture)."""
        if seat is not None:
            return None
        out = g.engine.outcome(g.state)
        view = self.view(g, None)
        draw = partial(render_board, winners=out.winners if out is not None else None,
                       changed=self.last_change(g, None, view, changes))
        return draw_or_none(draw, view, g.names, locale, g.id)

    def title(self, g: Game, locale: str) -> str:
        """The title with the round and the phase."""
        base = super().title(g, locale)
        if g.state is None:
            return base
        v = self.view(g, None)
        return f"{base} · {t('rc.round', locale, n=v.round, total=v.rounds)} · {t(f'rc.phase.{v.phase}', locale)}"

    def board_fields(self, g: Game, locale: str, pictured: bool = False) -> list[tuple[str, str, bool]]:
        """Players, the supply answers still awaited, the row, the tracks (without a
        picture) and, at the end, the final scoring."""
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        fields: list[tuple[str, str, bool]] = []
        players = []
        final = {f.seat: f for f in v.final or ()}
        for p in v.players:
            if p.seat in final:  # the end: the final scoring's points, as the picture shows them
                f = final[p.seat]
                players.append(t("rc.player_final", locale, disc=disc(p.seat), who=mention(g, p.seat), total=f.total,
                                 rats=f.rats, dead=t("rc.dead", locale) if f.eliminated else ""))
                continue
            line = t("rc.player_line", locale, disc=disc(p.seat), who=mention(g, p.seat),
                     cards=p.hand, rats=tn("count.rat_tokens", p.rat_tokens, locale), vp=p.vp)
            if p.seat == v.start and not v.finished:
                line += f" · *{t('rc.start_player', locale)}*"
            players.append(line)
        fields.append((t("rc.players", locale), "\n".join(players) or "-", False))
        if v.phase == "supply" and not v.finished:
            done = [mention(g, p.seat) for p in v.players if p.supply_done]
            waiting = [mention(g, p.seat) for p in v.players if not p.supply_done]
            lines = []
            if done:
                lines.append(tn("rc.chosen", len(done), locale, who=names(done, locale)))
            if waiting:
                lines.append(tn("rc.waiting", len(waiting), locale, who=names(waiting, locale)))
            fields.append((t("rc.supply_state", locale), "\n".join(lines), False))
        if v.phase == "enter" and v.queue:
            order = " → ".join(mention(g, s) for s in v.queue)
            fields.append((t("rc.queue", locale), order, False))
        if v.row:
            fields.append((t("rc.row", locale), self.row_text(g, v, locale), False))
        if v.round == v.rounds and not v.finished:
            fields.append(("⚠", t("rc.last_round", locale), False))
        if not pictured:
            fields.append((t("rc.tracks", locale), self.tracks_text(g, v, locale), False))
        if v.final is not None:
            fields.append((t("rc.final", locale), self.final_text(g, v, locale), False))
        return fields

    def row_text(self, g: Game, v: RcView, locale: str) -> str:
        """The row of building cards with the discs and face-down counts at each."""
        lines = []
        for b in v.row:
            bd = BUILDINGS[b.building]
            lines.append(t("rc.row_line", locale, n=b.index + 1, building=bd.name.get(locale),
                           cls=CLASS_NAME[b.cls].get(locale), supply=supply_text(b.supply, locale)))
            if not b.slots:
                lines.append(f"  {t('rc.nobody_in', locale)}")
            for slot in b.slots:
                lines.append("  " + t("rc.slot", locale, disc=disc(slot.seat), who=self.name(g, slot.seat),
                                      what=slot_text(slot.cards, slot.revealed, locale)))
        return clip("\n".join(lines), EMBED_FIELD)

    def tracks_text(self, g: Game, v: RcView, locale: str) -> str:
        """The six influence tracks in text, first place first."""
        lines = []
        for c, order in enumerate(v.tracks):
            marks = ", ".join(f"{self.name(g, s)} {v.players[s].influence[c]}" for s in order)
            lines.append(f"**{CLASS_NAME[CLASSES[c]].get(locale)}**: {marks}")
        return clip("\n".join(lines), EMBED_FIELD)

    def final_text(self, g: Game, v: RcView, locale: str) -> str:
        """Everybody's points, rats and fate, and the nun row."""
        assert v.final is not None
        lines = []
        for f in sorted(v.final, key=lambda f: (f.eliminated, -f.total, f.rats)):
            lines.append(t(
                "rc.final_line", locale, who=mention(g, f.seat), total=f.total, classes=sum(f.classes),
                hand=f.hand, specials=sum(f.specials.values()), gold=f.gold, tokens=f.tokens,
                rats=f.rats, dead=t("rc.dead", locale) if f.eliminated else "",
            ))
        if v.nuns is not None:
            lines.append(t("rc.nuns", locale, shown=" + ".join(str(n) for n in v.nuns), total=sum(v.nuns)))
        return clip("\n".join(lines), EMBED_FIELD)

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Your hand, your rats, the nun cards you have seen, your choices in progress."""
        if g.state is None:
            return []
        v = self.view(g, seat)
        me = v.me
        if me is None:
            return []
        hand = hand_lines(me.hand, locale)
        lines = [f"**{t('rc.hand', locale, n=len(me.hand))}**"]
        lines += [f"• {h}" for h in hand] or [f"• {t('rc.hand_empty', locale)}"]
        lines.append(f"**{t('rc.rats', locale)}**")
        if me.rats:
            tokens = " + ".join(str(r) for r in me.rats)
            lines.append(tn("rc.rats_line", sum(me.rats), locale, tokens=tokens))
        else:
            lines.append(t("rc.no_rats", locale))
        lines.append(f"**{t('rc.peeks', locale)}**")
        seen = " · ".join(t("rc.peek", locale, n=p + 1, nuns=n) for p, n in sorted(me.peeks.items()))
        lines.append(seen or t("rc.no_peeks", locale))
        lines += self._in_progress(g, v, me, seat, locale)
        return lines

    def _in_progress(self, g: Game, v: RcView, me: PrivateView, seat: Seat, locale: str) -> list[str]:
        assert g.state is not None
        lines = []
        if me.supply_choice is not None:
            card, peek = me.supply_choice
            what = g.engine.describe(g.state, seat, SupplyChoice(card=card, peek=None if peek < 0 else peek))
            lines += [f"**{t('rc.my_supply', locale)}**", what.get(locale)]
        if me.entering is not None and me.entering < len(v.row):
            building = BUILDINGS[v.row[me.entering].building].name.get(locale)
            picked = ", ".join(card_name(c).get(locale) for c in me.picking) or "-"
            lines += [f"**{t('rc.my_entering', locale)}**", f"{building}: {picked}"]
        if me.played:
            lines += [f"**{t('rc.my_played', locale)}**", ", ".join(hand_lines(me.played, locale))]
        return lines


# Registered on import so the board looks right wherever the module is loaded.
UI = RcUI()
register(UI)


# ----------------------------------------------------------------------------- the entering panel


def _check_entering(g: Game, seat: Seat, locale: str) -> RcView:
    """The seat's view, or a refusal if it is not the seat's turn to enter a building."""
    v = UI.view(g, seat)
    if v.phase != "enter" or not v.queue or v.queue[0] != seat:
        prompt = g.pending().get(seat)
        # Said itself, not said(): with no prompt the message must not end in a space.
        raise Refusal(Said(words=lambda lang: t(
            "rc.not_entering", lang, prompt=UI.wording(g, prompt.text, lang) if prompt else "").strip()))
    return v


def building_panel(g: Game, seat: Seat, locale: str) -> discord.ui.View:
    """Step one, privately: the building to enter (and the Safe-conduct, when allowed)."""
    assert g.state is not None
    v = UI.view(g, seat)
    options = []
    for b in v.row:
        label = g.engine.describe(g.state, seat, Enter(building=b.index)).get(locale)
        bd = BUILDINGS[b.building]
        inside = ", ".join(f"{UI.name(g, s.seat)} ({s.cards})" for s in b.slots)
        where = t("rc.inside", locale, who=inside) if inside else t("rc.empty", locale)
        premium = bd.premium_text.get(locale)
        options.append(discord.SelectOption(
            label=clip(f"{b.index + 1}. {label}", 100), value=str(b.index),
            description=clip(f"{where} · {premium}", 100),
        ))
    view = discord.ui.View(timeout=None)
    if options:
        view.add_item(BuildingSelect(g.id, g.version, seat, options=options,
                                     placeholder=t("rc.building_ph", locale)))
    if any(isinstance(a, Pass) for a in g.legal_actions(seat)):
        view.add_item(PassButton(g.id, g.version, seat, label=t("rc.btn.pass", locale)))
    return view


def playable_cards(me: PrivateView) -> list[str]:
    """The cards of the hand that may be played face down, at most 25 (a select's limit),
    taken kind by kind in turn so that every kind stays on offer."""
    cards = [c for c in me.hand if playable(c)]
    if len(cards) <= MENU_SIZE:
        return cards
    by_kind: dict[str, list[str]] = {}
    for c in cards:
        by_kind.setdefault(KIND[c], []).append(c)
    out: list[str] = []
    while len(out) < MENU_SIZE:
        for pile in by_kind.values():
            if pile and len(out) < MENU_SIZE:
                out.append(pile.pop(0))
    return out


def cards_panel(g: Game, seat: Seat, building: int, locale: str) -> tuple[str, discord.ui.View]:
    """Step two, privately: every card to play face down at once, or none."""
    v = UI.view(g, seat)
    if building >= len(v.row):
        raise stale_menu()
    assert v.me is not None
    name = BUILDINGS[v.row[building].building].name.get(locale)
    text = t("rc.choose_cards", locale, building=name)
    cards = playable_cards(v.me)
    total = sum(1 for c in v.me.hand if playable(c))
    view = discord.ui.View(timeout=None)
    if cards:
        options = []
        for c in cards:
            k = KIND[c]
            about = KIND_TEXT[k].get(locale) if k in PLAYABLE_SPECIALS else CLASS_NAME[k].get(locale)
            options.append(discord.SelectOption(label=clip(card_name(c).get(locale), 100), value=c,
                                                description=clip(about, 100)))
        view.add_item(CardsSelect(g.id, g.version, seat, building, options=options,
                                  placeholder=t("rc.cards_ph", locale)))
        if total > len(cards):
            text += "\n" + t("rc.more_cards", locale, n=total)
    else:
        text += "\n" + t("rc.no_playable", locale)
    view.add_item(NoCardsButton(g.id, g.version, seat, building, label=t("rc.btn.none", locale)))
    view.add_item(BackButton(g.id, g.version, seat, label=t("rc.btn.back", locale)))
    return text, view


def entering_steps(v: RcView, building: int, cards: Sequence[str]) -> list[Action]:
    """The engine's steps for "enter ``building`` with ``cards``": first take back any
    choice left half made (say, through /game move), then building, cards, confirm."""
    me = v.me
    steps: list[Action] = []
    if me is not None and me.entering is not None:
        steps += [Undo()] * (len(me.picking) + 1)
    steps.append(Enter(building=building))
    steps += [Play(card=c) for c in cards]
    steps.append(Done())
    return steps


async def entering(item: SeatItem[Any], interaction: discord.Interaction) -> tuple[Game, Seat, str]:
    """The game, the clicker's seat (the panel's) and their language, refused unless the
    seat is the one to enter a building now."""
    g, seat = await item.mine(interaction)
    locale = locale_of(interaction)
    _check_entering(g, seat, locale)
    return g, seat, locale


async def enter_with(item: CardsSelect | NoCardsButton, interaction: discord.Interaction,
                     cards: Sequence[str]) -> None:
    """Enter the item's building with ``cards`` for the caller, then tell everyone what they may know."""
    g, seat, locale = await entering(item, interaction)
    v = UI.view(g, seat)
    assert v.me is not None
    if any(c not in v.me.hand for c in cards):
        raise refusal("rc.unknown_card")
    steps = entering_steps(v, item.building, cards)
    result = await within(interaction, services(interaction).session.move_many(
        item.game, interaction.user.id, steps, item.version))
    await close_panel(interaction, locale)
    await publish(interaction, result)


class BuildingSelect(
    SeatItem[discord.ui.Select],
    template=r"tablero:rc:enter:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)",
):
    """The building to enter; answers with the cards to play there (nothing is moved yet)."""

    def __init__(self, game: int, version: int, seat: Seat, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(select(self.custom_id_for(game, version, seat), options, placeholder), game, version, seat)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the card panel of the chosen building."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        g, seat, locale = await entering(self, interaction)
        value = (self.item.values or ["-"])[0]
        if not value.isdigit():
            raise stale_menu()
        text, view = cards_panel(g, seat, int(value), locale)
        await interaction.response.edit_message(content=text, view=view)


class CardsSelect(
    SeatItem[discord.ui.Select],
    template=r"tablero:rc:cards:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<building>\d)",
):
    """The cards to play face down at the building chosen; choosing them enters."""

    building: int

    def __init__(self, game: int, version: int, seat: Seat, building: int, *,
                 options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(select(self.custom_id_for(game, version, seat, building), options, placeholder,
                                most=len(options or [])), game, version, seat, building)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Enter with the cards chosen."""
        await guard(interaction, enter_with(self, interaction, list(self.item.values)))


class NoCardsButton(
    SeatButton,
    template=r"tablero:rc:none:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+):(?P<building>\d)",
):
    """Enter the building chosen with no cards."""

    building: int

    async def callback(self, interaction: discord.Interaction) -> None:
        """Enter with no cards."""
        await guard(interaction, enter_with(self, interaction, []))


class BackButton(
    SeatButton,
    template=r"tablero:rc:back:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)",
):
    """Back to the choice of building."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the buildings again."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        g, seat, locale = await entering(self, interaction)
        await interaction.response.edit_message(content=t("rc.choose_building", locale),
                                                view=building_panel(g, seat, locale))


class PassButton(
    SeatButton,
    template=r"tablero:rc:pass:(?P<game>\d+):(?P<version>\d+):(?P<seat>\d+)",
):
    """Play a Safe-conduct and choose after the others."""

    style = discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction) -> None:
        """Pass with a Safe-conduct."""
        await guard(interaction, self._run(interaction))

    async def _run(self, interaction: discord.Interaction) -> None:
        bot = services(interaction)
        locale = locale_of(interaction)
        await self.mine(interaction)
        result = await within(interaction, bot.session.move(self.game, interaction.user.id, Pass(), self.version))
        await close_panel(interaction, locale)
        await publish(interaction, result)


COMPONENTS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    BuildingSelect, CardsSelect, NoCardsButton, BackButton, PassButton,
)


# ----------------------------------------------------------------------------- the cog


def resolve_building(v: RcView, value: str, locale: str) -> int:
    """The row card a typed or autocompleted value names (its number or its building)."""
    raw = value.strip()
    if raw.isdigit() and 1 <= int(raw) <= len(v.row):
        return int(raw) - 1
    found = pick_one(raw, [(b.index, [b.building, *in_every_language(BUILDINGS[b.building].name)]) for b in v.row])
    if found is not None:
        return found
    raise refusal("rc.unknown_building", value=clip(raw, 40), options=lambda lang: ", ".join(
        f"{b.index + 1}. {BUILDINGS[b.building].name.get(lang)}" for b in v.row) or "-")


class RattusCartus(GameCog):
    """The /rc commands (a move by command shows no panel after it: phase C's is its own)."""

    game_id = GAME_ID
    not_here = "rc.not_rc"
    panel_after = False
    rc = app_commands.Group(name="rc", description="Rattus Cartus moves", guild_only=True)

    async def cog_load(self) -> None:
        """Register the entering panel's components (they work after a restart)."""
        self.bot.add_dynamic_items(*COMPONENTS)

    # -- phase B -----------------------------------------------------------------------

    @rc.command(name="supply", description="Secretly choose the supply action of a building card (phase B)")
    @app_commands.describe(choice="The supply action you take")
    async def supply(self, interaction: discord.Interaction, choice: str) -> None:
        """Your secret supply choice; the game goes on once everybody has chosen."""
        await self._by_kind(interaction, choice, SUPPLY_KINDS)

    _supply_ac = supply.autocomplete("choice")(legal_choices(SUPPLY_KINDS))

    # -- phase C -----------------------------------------------------------------------

    @rc.command(name="enter", description="Enter a building and choose your face-down cards privately (phase C)")
    @app_commands.describe(building="The building you enter")
    async def enter(self, interaction: discord.Interaction, building: str) -> None:
        """Answer privately with the cards you may play at ``building``; choosing them enters."""
        locale = locale_of(interaction)
        g, seat = await self._mine(interaction)
        v = _check_entering(g, seat, locale)
        index = resolve_building(v, building, locale)
        text, view = cards_panel(g, seat, index, locale)
        await reply(interaction, text, view=view, ephemeral=True)

    @enter.autocomplete("building")
    @quiet
    async def _building_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        found = await caller_in(interaction, GAME_ID)
        if found is None:
            return await action_choices(interaction, current, kinds=())
        locale = locale_of(interaction)
        row = UI.view(found[0], None).row
        return offered(current, ((f"{b.index + 1}. {BUILDINGS[b.building].name.get(locale)} "
                                  f"({CLASS_NAME[b.cls].get(locale)})", str(b.index + 1), ()) for b in row))

    @rc.command(name="pass", description="Play a Safe-conduct: choose your building after the others (phase C)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass with a Safe-conduct (the engine says so if you cannot)."""
        g = await self._game(interaction)
        await play_action(interaction, g.id, Pass())

    # -- phase D -----------------------------------------------------------------------

    @rc.command(name="decide",
                description="Answer what the buildings ask of you: duels, cards to give, Hospital, nun cards (phase D)")
    @app_commands.describe(choice="What you decide")
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        """A duel's victim, a card to give or discard, a nun card to look at."""
        await self._by_kind(interaction, choice, DECIDE_KINDS)

    _decide_ac = decide.autocomplete("choice")(legal_choices(DECIDE_KINDS))

    # -- help --------------------------------------------------------------------------

    @rc.command(name="buildings", description="What the buildings in play and the special cards do")
    async def buildings(self, interaction: discord.Interaction) -> None:
        """The premium and standard actions of this game's buildings, privately."""
        locale = locale_of(interaction)
        g = await self._game(interaction)
        # The game's buildings are no secret: their cards lie open on the table.
        chosen = set(getattr(g.state, "in_play", None) or BUILDINGS)
        in_play = [b for b in BUILDINGS if b in chosen]
        embed = discord.Embed(title=t("rc.buildings_title", locale), colour=COLOUR)
        for b in in_play[:20]:
            bd = BUILDINGS[b]
            premium = bd.premium_text.get(locale)
            standard = bd.standard_text.get(locale)
            embed.add_field(
                name=f"{bd.name.get(locale)} ({CLASS_NAME[bd.cls].get(locale)})",
                value=clip(f"**{t('rc.premium', locale)}**: {premium}\n**{t('rc.standard', locale)}**: {standard}",
                           EMBED_FIELD),
                inline=False,
            )
        specials = "\n".join(
            f"**{KIND_NAME[k].get(locale)}**: {KIND_TEXT[k].get(locale)}" for k in KIND_TEXT
        )
        embed.add_field(name=t("rc.specials", locale), value=clip(specials, EMBED_FIELD), inline=False)
        await reply(interaction, embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the Rattus Cartus cog (discord.py extension entry point)."""
    await bot.add_cog(RattusCartus(bot))
