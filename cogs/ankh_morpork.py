"""Mundodisco: Ankh-Morpork in Discord: the /am commands, the private step-by-step panel,
the reaction windows and the board.

Every decision goes through the session service and the engine; this module only shows
the game and turns clicks into the engine's own legal actions. A hand, a personality and
the personalities a player has been shown appear only in that player's DMs and ephemeral
messages; the channel learns that someone may answer an action, never with what.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n, services
from cogs.common.autocomplete import (
    Choices,
    fold,
    in_every_language,
    legal_choices,
    offered,
    pick_one,
    quiet,
)
from cogs.common.errors import reply
from cogs.common.flow import GameCog, refusal
from cogs.common.game_ui import PanelUI, Typed
from cogs.common.i18n import locale_of, t, tn
from cogs.common.panel import Menu, Panel
from cogs.common.present import (
    COLOUR,
    EMBED_DESCRIPTION,
    EMBED_FIELD,
    GameUI,
    clip,
    engine_view,
    mention,
    register,
)
from cogs.pictures import draw_or_none
from cogs.pictures.ankh_morpork import changes, render_board
from rules.ankh_morpork import scoring
from rules.ankh_morpork.board import ADJ, AREAS, RIVER
from rules.ankh_morpork.cards import CARDS, card_text
from rules.ankh_morpork.events import EVENTS
from rules.ankh_morpork.model import (
    AmState,
    AmView,
    Area,
    AreaView,
    Card,
    Piece,
    Play,
    Power,
)
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.core import Action, GameState, Seat
from services.session import Game

log = logging.getLogger("tablero.ankh_morpork")

GAME_ID = "ankh_morpork"

# The seat colours of the picture, as discs in text.
SEAT_DISCS = ("🔴", "🔵", "🟢", "🟡")
SYMBOL_ICON = {
    "minion": "👤", "building": "🏠", "assassinate": "🗡️", "trouble": "🕊️", "money": "💰",
    "scroll": "📜", "event": "🎲", "another": "➕", "interrupt": "⚡",
}
# Pending decisions that answer someone else's action out of turn: asked by DM.
REACTIONS = frozenset({"react", "small_gods"})
PLAY_KINDS = frozenset({"play"})
POWER_KINDS = frozenset({"power"})
DECIDE_KINDS = frozenset({"do", "skip", "pay", "area", "piece", "player", "card", "interrupt"})


def disc(seat: int) -> str:
    """The colour of a seat's pieces, as on the picture."""
    return SEAT_DISCS[seat % len(SEAT_DISCS)]


def card_name(card: str, locale: str) -> str:
    """A player card's name in ``locale``."""
    return CARDS[card].name.get(locale)


def card_about(card: str, locale: str) -> str:
    """What a card does: its symbols in order and its text."""
    return card_text(card).get(locale)


def symbol_label(card: str, symbol: str, locale: str) -> str:
    """One symbol of a card, with its icon (and the amount of a money symbol)."""
    text = t(f"am.sym.{symbol}", locale)
    if symbol == "money":
        text = t("am.money", locale, n=CARDS[card].money)
    return f"{SYMBOL_ICON[symbol]} {text}"


def area_label(a: int, locale: str) -> str:
    """An area as "7 · The Shades"."""
    info = AREAS[a]
    return f"{info.number} · {info.name.get(locale)}"


def personality_line(p: str, locale: str) -> str:
    """A personality's name and what it needs to win."""
    info = PERSONALITIES[p]
    return f"**{info.name.get(locale)}**: {info.text.get(locale)}"


# ----------------------------------------------------------------------------- the step panel


def area_pieces(area: AreaView) -> str:
    """Who stands in an area, and its trouble and building, as emoji ("" for nobody)."""
    bits = [f"{disc(s)}{n}" for s, n in enumerate(area.minions) if n]
    if area.trolls:
        bits.append(f"🧌{area.trolls}")
    if area.demons:
        bits.append(f"👹{area.demons}")
    if area.trouble:
        bits.append("⚠️")
    if area.building >= 0:
        bits.append(f"🏠{disc(area.building)}")
    return " ".join(bits)


def about(g: Game, seat: Seat, locale: str) -> Callable[[Action], str]:
    """The small print under a menu entry: what a card does, an area card's power, who
    stands in an area."""
    v = engine_view(g, seat, AmView)

    def one(a: Action) -> str:
        if isinstance(a, Play | Card):
            return card_about(a.card, locale)
        if isinstance(a, Power):
            return AREAS[a.area].power.get(locale)
        if isinstance(a, Area | Piece):
            return f"{area_label(a.area, locale)} · {area_pieces(v.areas[a.area]) or t('am.empty', locale)}"
        return ""

    return one


# The step panel: a menu of the cards to play, one of the area cards to use, one of the
# current choice (area, piece, player or card); a button for doing, paying, interrupting
# or skipping.
PANEL = Panel(
    menus=(
        Menu("am.ph.play", PLAY_KINDS),
        Menu("am.ph.power", POWER_KINDS),
        Menu("am.ph.choose", frozenset({"area", "piece", "player", "card"})),
    ),
    styles={"do": discord.ButtonStyle.success, "interrupt": discord.ButtonStyle.danger,
            "pay": discord.ButtonStyle.primary},
    about=about,
)


class AmUI(PanelUI, Typed[AmState, AmView], GameUI):
    """How Ankh-Morpork looks: the city map, the players, the step panel; hands in private."""

    side_key = "stats.side_personality"

    game_id = GAME_ID
    state_type, view_type = AmState, AmView
    panel = PANEL
    # A move sets off chains of events (a card, its symbols, the next turn): one per line.
    event_separator = "\n"

    # -- words ---------------------------------------------------------------------------

    def label(self, g: Game, seat: Seat, action: Action, locale: str) -> str:
        """The engine's label of a legal action, with names (menus show no bold)."""
        assert g.state is not None
        return clip(self.wording(g, g.engine.describe(g.state, seat, action), locale, bold=False), 100)

    # -- private information -------------------------------------------------------------

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """The hand, the personality and the personalities seen: a DM when one changes."""
        if state is None:
            return []
        v = self.view(g, seat, state)
        return [f"hand={sorted(v.hand or [])}", f"personality={v.personality}", f"peeked={sorted(v.peeked)}"]

    def reaction(self, g: Game, seat: Seat) -> bool:
        """An interrupt to answer another player's card, or Small Gods against an event."""
        prompt = g.pending().get(seat)
        return prompt is not None and prompt.kind in REACTIONS

    def menu_text(self, g: Game, seat: Seat, locale: str) -> str:
        """The card being played with its symbols (the current one marked), and the question."""
        prompt = g.pending().get(seat)
        lines = []
        progress = self.progress_line(g, seat, locale)
        if progress:
            lines.append(progress)
        if prompt is not None:
            lines.append(f"**{self.wording(g, prompt.text, locale, bold=False)}**")
        return "\n".join(lines) or t("board.pick", locale, name=self.name(g, seat))

    def progress_line(self, g: Game, seat: Seat, locale: str) -> str | None:
        """"Card: 💰 $3 ✓ · ▶ 🗡️ assassinate · ➕ play another" for the seat's card in play."""
        st = self.state(g)
        # Display only: the card being resolved and how far its symbols have got.
        frames = [f for f in st.stack if f.kind == "card"]
        if not frames or frames[-1].seat != seat:
            return None
        f = frames[-1]
        symbols = CARDS[f.card].symbols
        current = f.sym - 1
        parts = []
        for i, sym in enumerate(symbols):
            label = symbol_label(f.card, sym, locale)
            if i < current:
                parts.append(f"~~{label}~~")
            elif i == current:
                parts.append(f"▶ **{label}**")
            else:
                parts.append(label)
        return f"🃏 **{card_name(f.card, locale)}**: " + " · ".join(parts)

    # -- pictures and embeds ---------------------------------------------------------------

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The public board drawn by cogs/pictures (private views go without a picture)."""
        if seat is not None:
            return None
        view = self.view(g, None)
        changed = self.last_change(g, None, view, changes)
        return draw_or_none(partial(render_board, changed=changed), view, g.names, locale, g.id)

    def title(self, g: Game, locale: str) -> str:
        """The title with the turn number."""
        base = super().title(g, locale)
        if g.state is None:
            return base
        return f"{base} · {t('am.turn', locale, n=self.view(g, None).turn_no)}"

    def board_fields(self, g: Game, locale: str, pictured: bool = False) -> list[tuple[str, str, bool]]:
        """The players, the cards on the table, the city (when there is no picture), the
        deck and the bank; at the end, the points and the personalities."""
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        fields: list[tuple[str, str, bool]] = [(t("am.players", locale), self.players_text(g, v, locale), False)]
        if v.in_play and not v.finished:
            cards = ", ".join(card_name(c, locale) for c in v.in_play)
            fields.append((t("am.in_play", locale), clip(cards, EMBED_FIELD), False))
        if not pictured:
            fields.append((t("am.city", locale), self.city_text(v, locale), False))
        fields.append((t("am.table", locale), self.table_text(v, locale), False))
        return fields

    def players_text(self, g: Game, v: AmView, locale: str) -> str:
        """One line per player: money, cards in hand, pieces left, area cards, loans."""
        lines = []
        for sv in v.seats:
            parts = [t("am.money", locale, n=sv.money), tn("am.hand_n", sv.hand_size, locale),
                     t("am.supply", locale, m=sv.minions_in_supply, b=sv.buildings_in_supply)]
            if sv.area_cards:
                parts.append(t("am.area_cards", locale, areas=", ".join(str(AREAS[a].number) for a in sv.area_cards)))
            if sv.loans:
                parts.append(t("am.loans", locale, n=len(sv.loans)))
            if sv.stuck:
                parts.append(t("am.stuck", locale, cards=", ".join(card_name(c, locale) for c in sv.stuck)))
            line = f"{disc(sv.seat)} {mention(g, sv.seat)}: " + " · ".join(parts)
            if v.finished:
                points = v.scores[sv.seat] if sv.seat < len(v.scores) else 0
                who = PERSONALITIES[sv.personality] if sv.personality else None
                line += "\n  " + t("am.final_line", locale, points=i18n.count("points", points, locale),
                                   personality=who.name.get(locale) if who else "?")
            lines.append(line)
        return clip("\n".join(lines), EMBED_FIELD)

    def city_text(self, v: AmView, locale: str) -> str:
        """The twelve areas in text: pieces, trouble, building and its card."""
        lines = [f"**{area_label(area.index, locale)}**: {area_pieces(area) or '-'}" for area in v.areas]
        return clip("\n".join(lines), EMBED_FIELD)

    def table_text(self, v: AmView, locale: str) -> str:
        """Deck, discard pile, events, bank and trouble markers."""
        lines = [t("am.deck_line", locale, deck=i18n.count("cards", v.deck_count, locale), discard=len(v.discard), bank=v.bank,
                   trouble=v.trouble_count)]
        if v.discard:
            lines.append(t("am.last_discard", locale, card=card_name(v.discard[-1], locale)))
        done = ", ".join(EVENTS[e].name.get(locale) for e in v.events_done)
        lines.append(t("am.events_line", locale, n=v.events_left, done=done or "-"))
        return clip("\n".join(lines), EMBED_FIELD)

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Your personality (and how close it is), your hand with what each card does, the
        personalities you have been shown, and what you are asked now."""
        if g.state is None:
            return []
        v = self.view(g, seat)
        lines = self.personality_lines(g, seat, locale)
        hand = v.hand or []
        lines.append(f"**{t('am.your_hand', locale, n=len(hand))}**")
        lines += [f"• **{card_name(c, locale)}**: {card_about(c, locale)}" for c in hand] or [
            f"• {t('am.hand_empty', locale)}"]
        if v.prompt is not None:
            lines.append(f"**{t('am.now', locale)}** {self.wording(g, v.prompt, locale)}")
        return lines

    def personality_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Your secret personality, how close it is to its goal, and the unused ones you saw."""
        v = self.view(g, seat)
        lines: list[str] = []
        if v.personality is not None:
            lines.append(f"🎭 {t('am.your_personality', locale)} {personality_line(v.personality, locale)}")
            if PERSONALITIES[v.personality].goal != "deck" and not v.finished:
                have, need = scoring.progress(self.state(g), seat)
                lines.append(t("am.progress", locale, have=have, need=need))
        if v.peeked:
            seen = ", ".join(PERSONALITIES[p].name.get(locale) for p in v.peeked)
            lines.append(f"👁️ {t('am.peeked', locale, who=seen)}")
        return lines


# Registered on import so the board looks right wherever the module is loaded.
UI = AmUI()
register(UI)


# ----------------------------------------------------------------------------- the cog


def find_card(value: str) -> str | None:
    """The card a typed or autocompleted value names (its id or its name in either language)."""
    raw = value.strip()
    return raw if raw in CARDS else pick_one(raw, [(c.id, in_every_language(c.name)) for c in CARDS.values()])


def card_choices(current: str, locale: str) -> Choices:
    """Autocomplete over all 101 cards (their texts are no secret: the deck is known)."""
    ordered = sorted(CARDS.values(), key=lambda c: fold(c.name.get(locale)))
    return offered(current, ((c.name.get(locale), c.id, in_every_language(c.name)) for c in ordered))


def areas_text(locale: str) -> str:
    """The city: each area's number, name, cost, neighbours, river, and power."""
    lines = []
    for info in AREAS:
        near = ", ".join(str(AREAS[b].number) for b in sorted(ADJ[info.index]))
        river = " · 🌊" if info.index in RIVER else ""
        power = info.power.get(locale)
        lines.append(t("am.area_line", locale, area=area_label(info.index, locale), cost=info.cost, near=near,
                       river=river, power=power))
    return clip("\n".join(lines), EMBED_DESCRIPTION)


class AnkhMorpork(GameCog):
    """The /am commands."""

    game_id = GAME_ID
    not_here = "am.not_am"
    am = app_commands.Group(name="am", description="Discworld: Ankh-Morpork moves", guild_only=True)

    # -- moves -------------------------------------------------------------------------

    @am.command(name="play", description="Play a card from your hand")
    @app_commands.describe(card="The card you play")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        """Play a card; its symbols then follow one by one in your private panel."""
        await self._by_kind(interaction, card, PLAY_KINDS)

    _play_ac = play.autocomplete("card")(legal_choices(PLAY_KINDS))

    @am.command(name="power", description="Use the power of a city area card you hold")
    @app_commands.describe(area="The area whose card you use")
    async def power(self, interaction: discord.Interaction, area: str) -> None:
        """Use a city area card (once a turn, not in the turn you won it)."""
        await self._by_kind(interaction, area, POWER_KINDS)

    _power_ac = power.autocomplete("area")(legal_choices(POWER_KINDS))

    @am.command(name="decide",
                description="Answer what the game asks now: a symbol's choice, a scroll, a payment, an interrupt")
    @app_commands.describe(choice="What you decide")
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        """An area, a piece, a player, a card, do it, pay, play an interrupt, or skip."""
        await self._by_kind(interaction, choice, DECIDE_KINDS)

    _decide_ac = decide.autocomplete("choice")(legal_choices(DECIDE_KINDS))

    @am.command(name="pass", description="Skip what is asked now: pass, end your turn, skip a symbol, or say no")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Skip the current decision (the engine's "skip": pass, end the turn, decline)."""
        await self._pass(interaction, ("skip",), "am.no_skip")

    # -- looking things up ---------------------------------------------------------------

    @am.command(name="card", description="What any card of the deck does")
    @app_commands.describe(card="The card")
    async def card(self, interaction: discord.Interaction, card: str) -> None:
        """A card's symbols and text, privately (every card of the deck is public knowledge)."""
        locale = locale_of(interaction)
        found = find_card(card)
        if found is None:
            raise refusal("am.unknown_card", value=clip(card, 40))
        c = CARDS[found]
        symbols = " · ".join(symbol_label(found, s, locale) for s in c.symbols) or "-"
        embed = discord.Embed(title=card_name(found, locale), description=clip(card_about(found, locale), 4000),
                              colour=COLOUR)
        embed.add_field(name=t("am.symbols", locale), value=symbols, inline=False)
        embed.set_footer(text=t(f"am.border.{c.border}", locale))
        await reply(interaction, embed=embed, ephemeral=True)

    @card.autocomplete("card")
    @quiet
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return card_choices(current, locale_of(interaction))

    @am.command(name="areas", description="The twelve areas: costs, neighbours and city area card powers")
    async def areas(self, interaction: discord.Interaction) -> None:
        """The city, privately."""
        locale = locale_of(interaction)
        embed = discord.Embed(title=t("am.areas_title", locale), description=areas_text(locale), colour=COLOUR)
        await reply(interaction, embed=embed, ephemeral=True)

    @am.command(name="personality", description="Your secret personality and how close it is to winning")
    async def personality(self, interaction: discord.Interaction) -> None:
        """Your personality, privately (and the unused ones you have been shown)."""
        bot = services(interaction)
        locale = locale_of(interaction)
        g = await self._game(interaction, latest=True)
        g, seat = await bot.session.seat_for(g.id, interaction.user.id)
        if g.state is None:
            raise refusal("am.not_started")
        await reply(interaction, "\n".join(UI.personality_lines(g, seat, locale)) or "-", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the Ankh-Morpork cog (discord.py extension entry point)."""
    await bot.add_cog(AnkhMorpork(bot))
