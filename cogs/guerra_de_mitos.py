"""Guerra de Mitos in Discord: the /gdm commands, the private step-by-step panel, the hands
and the picture of the table.

Every decision goes through the session service and the engine's legal actions; the engine
already splits an ability into steps (each cost, then each target, one choice at a time),
so the panel shows the step the engine asks for now, worded with the cards' names. A hand,
a face-down oracle card and a secret bid appear only in their owner's DMs and ephemeral
messages; the public board and its picture are drawn from the public view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n
from cogs.common.autocomplete import MENU_SIZE, Choices, legal_choices, quiet
from cogs.common.catalogue import Pairs
from cogs.common.contexts import ANY_INSTALL, EVERYWHERE, require_bot_server
from cogs.common.errors import reply
from cogs.common.flow import GameCog
from cogs.common.game_ui import PanelUI, Typed
from cogs.common.i18n import locale_of, said
from cogs.common.panel import Menu, Panel
from cogs.common.present import (
    COLOUR,
    EMBED_FIELD,
    GameUI,
    clip,
    mention,
    register,
)
from cogs.gdm_words import (
    SEAT_TAG,
    SEAT_WORD,
    action_label,
    card_line,
    card_name,
    disc,
    reader_names,
    step_lines,
    table_text,
    with_seat_values,
)
from cogs.pictures import draw_or_none
from cogs.pictures.guerra_de_mitos import changes, render_board
from rules.core import Action, GameState, Seat, Text
from rules.guerra_de_mitos.card_search import by_name, search_names, stats_line, suggest
from rules.guerra_de_mitos.cards import MYTHOLOGY_NAME, Card, cards
from rules.guerra_de_mitos.decks import ready_decks
from rules.guerra_de_mitos.model import (
    Assign,
    DropOracle,
    Enter,
    Equip,
    GdmState,
    GdmView,
    Meditate,
    Play,
    Target,
    Use,
)
from services.session import Game, Refusal

log = logging.getLogger("tablero.guerra_de_mitos")

GAME_ID = "guerra_de_mitos"
# The kinds of action each /gdm command makes.
BID_KINDS = frozenset({"bid"})
TRANSFER_KINDS = frozenset({"move", "enter", "drop"})
PLAY_KINDS = frozenset({"play", "equip"})
USE_KINDS = frozenset({"use", "meditate"})
ASSIGN_KINDS = frozenset({"assign"})
CHOOSE_KINDS = frozenset({"target", "choose", "starter", "challenge"})

# Texts of this cog: catalogue ids "gdm.<key>" (cogs/locale); WORDS reads them as pairs.
# (What each verb of an ability does is the rules' own wording: rules/guerra_de_mitos/telling.py.)
WORDS = Pairs("gdm.")


def w(key: str, locale: str | None, **kw: object) -> str:
    """A word of this module in the reader's language."""
    return i18n.t("gdm." + key, locale, **kw)


# ----------------------------------------------------------------------------- the step panel


def about(g: Game, seat: Seat, locale: str) -> Callable[[Action], str]:
    """The small print under a menu entry: what the card does."""
    st = g.state
    assert isinstance(st, GdmState)

    def one(a: Action) -> str:
        uid = None
        if isinstance(a, Play | Use | Equip | Target | Assign | Meditate):
            uid = a.uid
        elif isinstance(a, Enter | DropOracle):
            ors = st.players[seat].oracles
            o = ors[a.oracle] if a.oracle < len(ors) else None
            uid = o.cards[0] if o is not None and o.cards and o.up else None
        c = cards().get(st.cards[uid].card) if uid is not None and uid in st.cards else None
        return (c.text(locale) or stats_line(c, locale)) if c is not None else ""

    return one


# The step panel: a menu per kind of move (or the current step of an ability), and a
# button for each of bid, start player, opponent, pass.
PANEL = Panel(
    menus=(
        Menu("gdm.ph.choose", CHOOSE_KINDS - {"starter", "challenge"}),
        Menu("gdm.ph.enter", frozenset({"enter", "drop"})),
        Menu("gdm.ph.move", frozenset({"move"})),
        Menu("gdm.ph.play", PLAY_KINDS),
        Menu("gdm.ph.use", USE_KINDS),
        Menu("gdm.ph.assign", ASSIGN_KINDS),
    ),
    style=discord.ButtonStyle.primary,
    styles={"pass": discord.ButtonStyle.secondary},
    about=about,
)


class GdmUI(PanelUI, Typed[GdmState, GdmView], GameUI):
    """How Guerra de Mitos looks: the table picture, the players, the step panel; hands in private."""

    side_key = "stats.side_pantheon"

    game_id = GAME_ID
    state_type, view_type = GdmState, GdmView
    panel = PANEL
    event_separator = "\n"

    # -- words ---------------------------------------------------------------------------

    def wording(self, g: Game, text: Text, locale: str, bold: bool = True) -> str:
        """A text of the rules as Discord shows it: players' names where it names a seat (as
        values; a text stored before that, by its old tags) and card names in the reader's
        language (the rules' prompts already name no hidden card)."""
        return reader_names(super().wording(g, with_seat_values(text), locale, bold), locale)

    def named(self, g: Game, text: str, bold: bool = True) -> str:
        """``text``, stored in words before the rules named seats as values, with the
        players' names instead of its log tags ("[2]") and its "seat 3"."""

        def name(seat: int, raw: str) -> str:
            return self.naming(g, bold)(seat) or raw

        text = SEAT_TAG.sub(lambda m: name(int(m[1]), m[0]), text)
        return SEAT_WORD.sub(lambda m: name(int(m[1]) - 1, m[0]), text)

    def label(self, g: Game, seat: Seat, action: Action, locale: str) -> str:
        """A legal action in words, with the cards' and players' names."""
        assert g.state is not None
        return clip(action_label(self.state(g), seat, action, locale, g.names), 100)

    # -- private information -------------------------------------------------------------

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """The hand, the cards seen and the own bid: a DM goes out when one of them changes
        (not at every step of a choice, which the panel shows)."""
        if state is None:
            return []
        v = self.view(g, seat, state)
        return [f"hand={sorted(v.hand or [])}", f"peeks={v.peeks}", f"bid={v.seats[seat].bid}"]

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Your hand with what each card does, your bid, what you have seen, and what is asked."""
        if g.state is None:
            return []
        v = self.view(g, seat)
        hand = v.hand or []
        lines = [f"**{w('your_hand', locale, n=len(hand))}**"]
        lines += [f"• {card_line(c, locale)}" for c in hand] or [f"• {w('hand_empty', locale)}"]
        mine = v.seats[seat]
        if v.phase == "bid" and mine.bid is not None:
            lines.append(f"🤫 {w('your_bid', locale, n=mine.bid)}")
        if v.peeks:
            seen = ", ".join(
                card_name(c, locale) for c in v.peeks if c in cards() or c.startswith("tk-")
            )
            if seen:
                lines.append(f"👁️ {w('peeks', locale)}: {seen}")
        st = self.state(g)
        if st.stack and st.stack[-1].seat == seat:
            lines.append(f"**{w('now', locale)}**")
            lines += step_lines(st, locale, g.names)
        elif v.prompt is not None:
            lines.append(f"**{w('now', locale)}** {self.wording(g, v.prompt, locale)}")
        return lines

    # -- the step panel ------------------------------------------------------------------

    def menu_text(self, g: Game, seat: Seat, locale: str) -> str:
        """What is being decided: the ability being resolved step by step, or the phase."""
        lines = []
        st = self.state(g)
        if st.stack and st.stack[-1].seat == seat:
            lines += step_lines(st, locale, g.names)
        prompt = g.pending().get(seat)
        if prompt is not None and not st.stack:
            lines.append(f"**{self.wording(g, prompt.text, locale, bold=False)}**")
            me = st.players[seat]
            if st.phase == "transfer":
                lines.append(i18n.tn("gdm.moves_left", me.moves, locale, r=me.reserve))
            elif st.phase != "bid":
                lines.append(w("reserve_now", locale, r=me.reserve))
        return "\n".join(lines) or w("pick_option", locale)

    # -- pictures and embeds ---------------------------------------------------------------

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The public table drawn by cogs/pictures (private views go without a picture)."""
        if seat is not None:
            return None
        view = self.view(g, None)
        changed = self.last_change(g, None, view, changes)
        return draw_or_none(partial(render_board, changed=changed), view, g.names, locale, g.id)

    def board_fields(
        self, g: Game, locale: str, pictured: bool = False
    ) -> list[tuple[str, str, bool]]:
        """The players with their reserves; without a picture also every oracle and card in play."""
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        fields = [(w("players", locale), self.players_text(g, v, locale), False)]
        if v.fight:
            a, b = v.fight
            fields.append((w("fight", locale), f"{mention(g, a)} ⚔ {mention(g, b)}", False))
        if not pictured:
            fields.append(
                (w("table", locale), clip(table_text(v, locale, g.names), EMBED_FIELD), False)
            )
        return fields

    def players_text(self, g: Game, v: GdmView, locale: str) -> str:
        """One line per player: reserve, hand, deck, victory points, the bid."""
        lines = []
        for sv in v.seats:
            parts = [
                w("reserve", locale, n=sv.reserve),
                w("hand_n", locale, n=sv.hand_size),
                w("deck_n", locale, n=sv.deck_size),
            ]
            if len(v.seats) > 2:
                parts.append(w("vp", locale, n=f"{sv.vp:g}"))
            if v.phase == "bid":
                parts.append(
                    w("bid_wait", locale) if sv.seat in v.to_act else w("bid_done", locale)
                )
            if not sv.alive:
                parts.append(w("out", locale))
            if v.first == sv.seat and v.phase not in ("bid", "starter"):
                parts.append(f"★ {w('first', locale)}")
            lines.append(
                f"{disc(sv.seat)} {mention(g, sv.seat)} · {card_name(sv.pantheon, locale)}: "
                + " · ".join(parts)
            )
        return clip("\n".join(lines), EMBED_FIELD)


UI = GdmUI()
register(UI)


# ----------------------------------------------------------------------------- Spanish names

# (their names in each language are catalogue entries with the contexts "command",
# "parameter" and "description": cogs/locale)


# ----------------------------------------------------------------------------- the cog


def find_card(value: str) -> str | None:
    """The card a typed or autocompleted value names: its id, or its name in either language."""
    raw = value.strip()
    if raw in cards():
        return raw
    found = by_name(raw)
    if found is not None:
        return found.id
    hits = search_names(raw, None, limit=2) if raw else []
    return hits[0].id if len(hits) == 1 else None


def other_name(c: Card, locale: str | None) -> str:
    """The other name a player may know a card by: its Spanish name (the printed cards'),
    or its English name for a reader whose name for it is the Spanish one."""
    return c.name if c.display_name(locale) != c.name else c.name_en


def card_choices(current: str, locale: str) -> list[app_commands.Choice[str]]:
    """Autocomplete over the 364 cards, by name in either language (card texts are public)."""
    out = []
    for c in search_names(current, locale, limit=MENU_SIZE):
        name = c.display_name(locale)
        other = other_name(c, locale)
        shown = name if other == name else f"{name} · {other}"
        out.append(
            app_commands.Choice(name=clip(f"{shown} ({stats_line(c, locale)})", 100), value=c.id)
        )
    return out


def card_embed(card: str, locale: str) -> discord.Embed:
    """What a card is and does, in the reader's language."""
    c = cards()[card]
    embed = discord.Embed(
        title=c.display_name(locale),
        description=clip(c.text(locale) or w("no_text", locale), 4000),
        colour=COLOUR,
    )
    embed.add_field(name="·", value=stats_line(c, locale), inline=False)
    if c.keys:
        embed.add_field(name=w("keys", locale), value=", ".join(c.key_names(locale)), inline=False)
    other = other_name(c, locale)
    footer = f"#{c.id}"
    if c.mythology:
        footer += f" · {MYTHOLOGY_NAME[c.mythology].get(locale)}"
    if other != c.display_name(locale):
        footer += f" · {other}"
    embed.set_footer(text=footer)
    return embed


def decks_text(locale: str) -> str:
    """The ready decks, one line each, and how to choose them."""
    lines = []
    for rid, rd in ready_decks().items():
        d = rd.deck
        lines.append(
            w(
                "deck_line",
                locale,
                name=rd.display_name(locale),
                id=rid,
                myth=MYTHOLOGY_NAME[rd.mythology].get(locale),
                pantheon=card_name(d.pantheon, locale),
                gods=i18n.count("god_cards", sum(d.god.values()), locale),
                designs=i18n.count("design_cards", sum(d.design.values()), locale),
            )
        )
    lines.append("")
    lines.append(w("decks_how", locale))
    return "\n".join(lines)


class GuerraDeMitos(GameCog):
    """The /gdm commands."""

    game_id = GAME_ID
    not_here = "gdm.not_gdm"
    # Offered everywhere for /gdm card and the deck building (attached by cogs/gdm_decks.py);
    # the moves need a server with the bot (interaction_check).
    gdm = app_commands.Group(
        name="gdm", description="Guerra de Mitos (War of Myths) moves",
        allowed_contexts=EVERYWHERE, allowed_installs=ANY_INSTALL,
    )

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        """Moves only where a game can be; a card's look-up anywhere."""
        return require_bot_server(interaction, frozenset({"gdm card"}))

    # -- moves -------------------------------------------------------------------------

    @gdm.command(
        name="bid", description="Your secret bid for the start player: power you give your opponent"
    )
    @app_commands.describe(amount="1 to 4 power")
    async def bid(self, interaction: discord.Interaction, amount: str) -> None:
        """The secret bid (only you learn it until both have bid)."""
        await self._by_kind(interaction, amount, BID_KINDS, "gdm.not_now")

    _bid_ac = bid.autocomplete("amount")(legal_choices(BID_KINDS))

    @gdm.command(
        name="transfer",
        description="Transfer: move a power counter, put a card into play, discard from an oracle",
    )
    @app_commands.describe(move="What you do")
    async def transfer(self, interaction: discord.Interaction, move: str) -> None:
        """One step of your transfer."""
        await self._by_kind(interaction, move, TRANSFER_KINDS, "gdm.not_now")

    _transfer_ac = transfer.autocomplete("move")(legal_choices(TRANSFER_KINDS))

    @gdm.command(
        name="play",
        description="Play an action card from your hand, or equip a card on a character",
    )
    @app_commands.describe(card="The card (and its target)")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        """Play or equip; the ability's costs and targets follow in your private panel."""
        await self._by_kind(interaction, card, PLAY_KINDS, "gdm.not_now")

    _play_ac = play.autocomplete("card")(legal_choices(PLAY_KINDS))

    @gdm.command(
        name="use", description="Use the ability of one of your cards in play, or meditate"
    )
    @app_commands.describe(ability="The card whose ability you use")
    async def use(self, interaction: discord.Interaction, ability: str) -> None:
        """Use an ability (its costs and targets follow in your private panel) or meditate."""
        await self._by_kind(interaction, ability, USE_KINDS, "gdm.not_now")

    _use_ac = use.autocomplete("ability")(legal_choices(USE_KINDS))

    @gdm.command(
        name="assign", description="Confrontation: send a ready character to the battlefield (1P)"
    )
    @app_commands.describe(character="The character you assign")
    async def assign(self, interaction: discord.Interaction, character: str) -> None:
        """Assign a character to the battlefield."""
        await self._by_kind(interaction, character, ASSIGN_KINDS, "gdm.not_now")

    _assign_ac = assign.autocomplete("character")(legal_choices(ASSIGN_KINDS))

    @gdm.command(
        name="choose",
        description="Answer what the game asks: a target, an option, the start player, an opponent",
    )
    @app_commands.describe(choice="What you choose")
    async def choose(self, interaction: discord.Interaction, choice: str) -> None:
        """The next step of an ability (a card, a player, an oracle, a number) or a choice of the turn."""
        await self._by_kind(interaction, choice, CHOOSE_KINDS, "gdm.not_now")

    _choose_ac = choose.autocomplete("choice")(legal_choices(CHOOSE_KINDS))

    @gdm.command(
        name="pass",
        description="Pass: end your transfer, pass your action, assign or choose no more",
    )
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass on what is asked now."""
        await self._pass(interaction, ("pass",), "gdm.no_pass")

    # -- looking things up ---------------------------------------------------------------

    @gdm.command(name="card", description="What any card of Guerra de Mitos does")
    @app_commands.describe(name="The card's name, in Spanish or English")
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """A card's numbers, keys and ability, privately, in your language."""
        locale = locale_of(interaction)
        found = find_card(name)
        if found is None:
            close = suggest(name) if name.strip() else []

            def hint(lang: str) -> str:
                names = ", ".join(c.display_name(lang) for c in close)
                return w("maybe", lang, names=names) if close else ""

            raise Refusal(said("gdm.unknown_card", value=clip(name, 40), hint=hint))
        await reply(interaction, embed=card_embed(found, locale), ephemeral=True)

    @gdm.command(name="decks", description="The six ready decks and how to choose them")
    async def decks(self, interaction: discord.Interaction) -> None:
        """The ready decks, privately."""
        locale = locale_of(interaction)
        embed = discord.Embed(
            title=w("decks_title", locale), description=decks_text(locale), colour=COLOUR
        )
        await reply(interaction, embed=embed, ephemeral=True)

    @card.autocomplete("name")
    @quiet
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return card_choices(current, locale_of(interaction))


async def setup(bot: commands.Bot) -> None:
    """Load the Guerra de Mitos cog (discord.py extension entry point)."""
    await bot.add_cog(GuerraDeMitos(bot))
