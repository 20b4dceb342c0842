"""Ragami in Discord: the /rg commands, the private step-by-step panel, and the board.

Every decision goes through the session service and the engine's legal actions (the
engine splits many-step choices: piece, then destination; a resolution one power source
at a time). This module draws the public picture of the city, the board's text fields,
the players' names in the rules' texts and each hand in private (by DM, or ephemerally
when DMs are closed), and turns commands and clicks into the engine's own actions. Every
step of a resolution shows the power gathered against the cost before it commits.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import i18n
from cogs.common.autocomplete import (
    MENU_SIZE,
    Choices,
    action_choices,
    caller_in,
    in_every_language,
    languages,
    legal_choices,
    offered,
    pick_one,
    quiet,
)
from cogs.common.catalogue import Pairs
from cogs.common.errors import reply
from cogs.common.flow import GameCog, nothing, refusal
from cogs.common.game_ui import PanelUI, Typed
from cogs.common.i18n import locale_of
from cogs.common.moves import play_steps
from cogs.common.panel import Menu, Panel
from cogs.common.present import COLOUR, GameUI, clip, engine_view, mention, register
from cogs.pictures import draw_or_none
from cogs.pictures.ragami import changes, render_board
from rules.core import Action, GameState, Seat, Text
from rules.ragami.cards import KINDS, Kind, card_name, kind_of
from rules.ragami.city import node_name
from rules.ragami.engine import piece_label
from rules.ragami.model import (
    Pick,
    Place,
    Power,
    Resolution,
    RgState,
    RgView,
    UseDie,
)
from services.session import Game, Refusal

log = logging.getLogger("tablero.ragami")

GAME_ID = "ragami"
# The engine names seats "Jugador 2 (verde)" / "Player 2 (green)"; Discord shows names.
COLOUR_DISC = ("🟡", "🟢", "🔵", "🟣")
CURRENT = "*"  # the piece already chosen (or being placed), as a /rg piece value

DIE_KINDS = frozenset({"use_die"})
CARD_KINDS = frozenset({"play_card", "cash_card", "discard"})
KEEP_KINDS = frozenset({"keep"})
RESOLVE_KINDS = frozenset({"power", "power_card", "roll", "commit", "cancel"})
# Answered with a button; everything else goes in a menu.
BUTTON_KINDS = frozenset({"commit", "roll", "cancel", "convert", "done", "end_turn"})
# Texts of this cog: catalogue ids "rg.<key>" (cogs/locale); WORDS reads them as pairs.
WORDS = Pairs("rg.")

def word(key: str, locale: str, **fmt: object) -> str:
    """A text of this module in the player's language."""
    return i18n.t("rg." + key, locale, **fmt)



# ----------------------------------------------------------------------------- the running total


def resolution_lines(r: Resolution, locale: str) -> list[str]:
    """A resolution's running total: power gathered by source against the cost, and what
    is still missing."""
    lines = [
        word(
            "res_line",
            locale,
            square=r.square,
            total=r.total,
            cost=r.cost,
            die=r.die,
            demons=r.cost - r.die,
        )
    ]
    parts = []
    if r.saints:
        parts.append(word("res_saints", locale, n=len(r.saints)))
    if r.helper is not None:
        parts.append(word("res_helper", locale))
    if r.cubes:
        parts.append(word("res_cubes", locale, n=r.cubes))
    if r.virtue:
        parts.append(word("res_virtue", locale, n=r.virtue))
    if r.card is not None:
        parts.append(word("res_card", locale, card=card_name(r.card).get(locale), n=r.card_power))
    lines.append(word("res_parts", locale, parts=" · ".join(parts) or word("res_nothing", locale)))
    missing = r.cost - r.total
    lines.append(
        i18n.tn("rg.res_missing", missing, locale) if missing > 0 else word("res_enough", locale)
    )
    return lines


# ----------------------------------------------------------------------------- the panel


def about(g: Game, seat: Seat, locale: str) -> Callable[[Action], str]:
    """The small print under a menu entry: a card's text, a die's value, what lies on a
    square, the total after adding power."""
    v = engine_view(g, seat, RgView)

    def one(a: Action) -> str:
        card = getattr(a, "card", None)
        if isinstance(card, int):
            return kind_of(card).text.get(locale)
        if isinstance(a, UseDie):
            return word("die_value", locale, n=v.dice[a.slot])
        if isinstance(a, Power) and v.step is not None and v.step.res is not None:
            r = v.step.res
            return word("after_power", locale, total=r.total + a.amount, cost=r.cost)
        if isinstance(a, Pick) and a.piece[0] in "SR":
            c = int(a.piece[1:])
            where = v.saints[c] if a.piece[0] == "S" else v.ragamis[c]
            return word("on", locale, where=node_name(str(where)).get(locale)) if where is not None else ""
        if isinstance(a, Place) and a.at.isdigit():
            for c in v.conflicts:
                if c.square == int(a.at):
                    return word("conflict_at", locale, die=c.die, demons=c.demons)
        return ""

    return one


# The step panel: a menu per kind of choice (power sources, dice, cards, pieces,
# destinations, anything else), a button for each choice without options.
PANEL = Panel(
    menus=(
        Menu("rg.ph_power", frozenset({"power", "power_card"})),
        Menu("rg.ph_die", DIE_KINDS),
        Menu("rg.ph_cards", CARD_KINDS),
        Menu("rg.ph_keep", KEEP_KINDS),
        Menu("rg.ph_piece", frozenset({"pick"})),
        Menu("rg.ph_place", frozenset({"place"})),
    ),
    buttons=BUTTON_KINDS,
    other="rg.ph_other",
    styles={"commit": discord.ButtonStyle.success, "cancel": discord.ButtonStyle.danger,
            "roll": discord.ButtonStyle.primary, "convert": discord.ButtonStyle.primary},
    about=about,
)



class RgUI(PanelUI, Typed[RgState, RgView], GameUI):
    """How Ragami looks: the city picture and the players; hands and the panel in private."""

    game_id = GAME_ID
    state_type, view_type = RgState, RgView
    panel = PANEL
    # A move can set off a chain (a resolution, the end of a round): one event per line.
    event_separator = "\n"

    def label(self, g: Game, seat: Seat, action: Action, locale: str) -> str:
        """The engine's label of a legal action, with names (menus show no bold)."""
        assert g.state is not None
        return clip(self.wording(g, g.engine.describe(g.state, seat, action), locale, bold=False), 100)

    # -- private information -------------------------------------------------------------

    def dm_facts(self, g: Game, state: GameState | None, seat: Seat) -> list[str]:
        """A DM when the hand or the cards to choose from change."""
        if state is None:
            return []
        me = self.view(g, seat, state).me
        if me is None:
            return []
        return [f"hand={me.hand}", f"drawn={me.drawn}"]

    def menu_text(self, g: Game, seat: Seat, locale: str) -> str:
        """The running total of a resolution, the piece being moved, and the question."""
        lines = list(self.progress_lines(g, seat, locale))
        prompt = g.pending().get(seat)
        if prompt is not None:
            lines.append(f"**{self.wording(g, prompt.text, locale, bold=False)}**")
        return "\n".join(lines) or super().menu_text(g, seat, locale)

    def progress_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Where ``seat``'s many-step action stands (nothing when it is in none)."""
        if g.state is None:
            return []
        v = self.view(g, None)
        st = v.step
        if st is None or v.turn != seat or v.phase != "turn":
            return []
        if st.res is not None:
            return resolution_lines(st.res, locale)
        if st.piece:
            return [word("moving", locale, piece=piece_label(st.piece).get(locale))]
        return []

    # -- pictures and embeds -------------------------------------------------------------

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The public board drawn by cogs/pictures (private views go without a picture)."""
        if seat is not None:
            return None
        out = g.engine.outcome(g.state) if g.state is not None else None
        view = self.view(g, None)
        draw = partial(render_board, winners=out.winners if out is not None else None,
                       changed=self.last_change(g, None, view, changes))
        return draw_or_none(draw, view, g.names, locale, g.id)

    def title(self, g: Game, locale: str) -> str:
        """The title with the round."""
        base = super().title(g, locale)
        if g.state is None:
            return base
        return f"{base} · {word('round', locale, n=self.view(g, None).round)}"

    def board_fields(
        self, g: Game, locale: str, pictured: bool = False
    ) -> list[tuple[str, str, bool]]:
        """Players with their scores; without a picture also the conflicts and dice; the
        running total of a resolution; the final scoring."""
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        lines = []
        for p in v.players:
            score = word("score", locale, vp=p.vp, res=p.resolved,
                         cubes=i18n.count("cubes", p.cubes, locale))
            lines.append(f"{COLOUR_DISC[p.seat]} {mention(g, p.seat)} — {score}")
        fields = [(word("players", locale), "\n".join(lines), False)]
        if not pictured:
            conflicts = ", ".join(f"{c.square}: {c.die}+{c.demons}" for c in v.conflicts)
            fields.append((word("conflicts", locale), conflicts or "-", True))
            fields.append((word("dice", locale), " / ".join(str(d) for d in v.dice), True))
        if v.step is not None and v.step.res is not None:
            fields.append(
                (word("resolving", locale), "\n".join(resolution_lines(v.step.res, locale)), False)
            )
        elif v.step is not None and v.step.piece:
            fields.append(
                (word("moving_field", locale), piece_label(v.step.piece).get(locale), True)
            )
        if v.final is not None:
            final = [
                word(
                    "final_line",
                    locale,
                    who=mention(g, f.seat),
                    total=f.total,
                    before=f.vp_before,
                    cubes=f.cubes,
                    bonus=f.bonus,
                    res=i18n.count("resolved", f.resolved, locale),
                )
                for f in sorted(v.final, key=lambda f: -f.total)
            ]
            fields.append((word("final", locale), "\n".join(final), False))
        return fields

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """The hand (cards new this turn marked) and the cards being chosen from."""
        v = self.view(g, seat)
        me = v.me
        if me is None:
            return []
        # while resolving, the panel below the hand needs the running total above it
        out = [*self.progress_lines(g, seat, locale), f"**{word('hand', locale)}**:"]
        for c in me.hand:
            k = kind_of(c)
            new = f" *({word('new', locale)})*" if c in me.fresh else ""
            out.append(f"• {card_name(c).get(locale)}{new} — {k.text.get(locale)}")
        if not me.hand:
            out.append(f"• {word('none', locale)}")
        if me.drawn:
            names = ", ".join(card_name(c).get(locale) for c in me.drawn)
            out.append(f"**{word('drawn', locale)}**: {names}")
        return out


UI = RgUI()
register(UI)


# ----------------------------------------------------------------------------- commands' helpers


def _prompt(g: Game, seat: Seat) -> Text | None:
    p = g.pending().get(seat)
    return p.text if p is not None else None


def _words(g: Game, text: Text | None, locale: str) -> str:
    """A rules text in ``locale`` with the players' names, not bold ("" for none)."""
    return UI.wording(g, text, locale, bold=False) if text is not None else ""


def _piece_names(g: Game, seat: Seat, a: Pick) -> list[str]:
    return [a.piece, *in_every_language(piece_label(a.piece)), *(UI.label(g, seat, a, lang) for lang in languages())]


def _place_names(g: Game, seat: Seat, a: Place, state: GameState) -> list[str]:
    return [a.at, *in_every_language(node_name(a.at)), *in_every_language(g.engine.describe(state, seat, a))]


def current_piece(g: Game, seat: Seat) -> Text | None:
    """What the caller is placing or moving now, when the piece is already chosen (a
    picked piece, or what a setup step places)."""
    st = UI.view(g, None).step
    if st is not None and st.piece:
        return piece_label(st.piece)
    return _prompt(g, seat)


def piece_choices(g: Game, seat: Seat, current: str, locale: str) -> Choices:
    """Autocomplete of /rg piece: the pieces the caller may move now, or the one already
    chosen when only its destination is left."""
    legal = g.legal_actions(seat)
    picks = [a for a in legal if isinstance(a, Pick)]
    out = offered(current, ((UI.label(g, seat, a, locale), a.piece, ()) for a in picks))
    if not picks and any(isinstance(a, Place) for a in legal):
        label = clip(_words(g, current_piece(g, seat), locale), 100)
        out.append(app_commands.Choice(name=label, value=CURRENT))
    return out[:MENU_SIZE]


def destinations(g: Game, seat: Seat, piece: str) -> tuple[GameState, Pick | None, list[Place]]:
    """For a piece named in /rg piece: the state its destination is chosen in, the pick
    that comes first (None when the piece is already chosen), and the legal destinations."""
    assert g.state is not None
    legal = g.legal_actions(seat)
    picks = [a for a in legal if isinstance(a, Pick)]
    if picks:
        chosen = pick_one(piece, [(a, _piece_names(g, seat, a)) for a in picks])
        if not isinstance(chosen, Pick):
            raise refusal(
                "rg.bad_piece",
                value=clip(piece, 40),
                options=lambda lang: clip("; ".join(UI.label(g, seat, a, lang) for a in picks), 1500),
            )
        # what the engine allows once the piece is chosen (nothing is committed here)
        after, _ = g.engine.apply(g.state, seat, chosen)
        return (
            after,
            chosen,
            [a for a in g.engine.legal_actions(after, seat) if isinstance(a, Place)],
        )
    places = [a for a in legal if isinstance(a, Place)]
    if not places:
        raise nothing(g, seat, "rg.nothing_piece")
    return g.state, None, places


def destination_choices(
    g: Game, seat: Seat, piece: str, current: str, locale: str
) -> Choices:
    """Autocomplete of /rg piece's destination: only the legal ones for the piece chosen."""
    state, _, places = destinations(g, seat, piece or CURRENT)
    return offered(current, ((UI.wording(g, g.engine.describe(state, seat, a), locale, bold=False), a.at, _place_names(g, seat, a, state))
                             for a in places))


def _place_list(places: Sequence[Place], lang: str) -> str:
    """The destinations' names in ``lang``, for a refusal."""
    return clip(", ".join(node_name(a.at).get(lang) for a in places), 1500)


def piece_steps(g: Game, seat: Seat, piece: str, destination: str | None) -> list[Action]:
    """The engine's steps for "move ``piece`` to ``destination``": pick it (unless it is
    already chosen), then place it; a refusal naming the legal ones otherwise."""
    state, pick, places = destinations(g, seat, piece)
    steps: list[Action] = [pick] if pick is not None else []
    what = piece_label(pick.piece) if pick is not None else current_piece(g, seat)
    if not destination:
        if pick is not None and not places:
            return steps  # a piece that goes nowhere (a Conflict die, a Ragami to swap with)
        raise refusal(
            "rg.need_dest",
            piece=lambda lang: _words(g, what, lang),
            options=lambda lang: _place_list(places, lang),
        )
    to = pick_one(destination, [(a, _place_names(g, seat, a, state)) for a in places])
    if to is None:
        raise refusal(
            "rg.bad_dest",
            value=clip(destination, 40),
            piece=lambda lang: _words(g, what, lang),
            options=lambda lang: _place_list(places, lang) or "-",
        )
    return [*steps, to]


def find_kind(value: str) -> Kind | None:
    """The kind of action card a typed or autocompleted value names: its id, its printed
    number, or its name in either language."""
    raw = value.strip()
    digits = re.sub(r"^(?:n\.?\s*º|#|no\.?)\s*", "", raw.casefold())
    if digits.isdigit():
        return next((k for k in KINDS if k.number == int(digits)), None)
    return pick_one(raw, [(k, [k.id, *in_every_language(k.name)]) for k in KINDS])


def kind_title(k: Kind, locale: str) -> str:
    """A kind's printed number and name."""
    return word("kind_title", locale, number=k.number, name=k.name.get(locale))


def card_choices(current: str, locale: str) -> Choices:
    """Autocomplete over the 15 kinds of action card (their texts are no secret)."""
    return offered(current, ((kind_title(k, locale), k.id, [k.id, *in_every_language(k.name)]) for k in KINDS))


def card_embed(k: Kind, locale: str) -> discord.Embed:
    """What a kind of action card does, its copies and icons."""
    embed = discord.Embed(
        title=kind_title(k, locale), description=k.text.get(locale), colour=COLOUR
    )
    embed.add_field(name=word("copies", locale), value=str(k.copies), inline=True)
    icons = [word("icon_cube", locale)] if k.cube else []
    if k.triangle:
        icons.append(word("icon_triangle", locale))
    embed.add_field(
        name=word("icons", locale),
        value="\n".join(icons) or word("icon_none", locale),
        inline=False,
    )
    embed.set_footer(text=word("card_footer", locale))
    return embed


# ----------------------------------------------------------------------------- Spanish names

# (their names in each language are catalogue entries with the contexts "command",
# "parameter" and "description": cogs/locale)


# ----------------------------------------------------------------------------- the cog


class Ragami(GameCog):
    """The /rg commands."""

    game_id = GAME_ID
    not_here = "rg.not_rg"
    rg = app_commands.Group(name="rg", description="Ragami moves", guild_only=True)

    # -- moves -------------------------------------------------------------------------

    @rg.command(name="die", description="Use an Action die: its slot's action, or move a Ragami")
    @app_commands.describe(choice="The die and what you do with it")
    async def die(self, interaction: discord.Interaction, choice: str) -> None:
        """Use one of the three Action dice (once a turn); its steps follow privately."""
        await self._by_kind(interaction, choice, DIE_KINDS, "rg.nothing_die")

    _die_ac = die.autocomplete("choice")(legal_choices(DIE_KINDS))

    @rg.command(
        name="piece",
        description="Move a piece: the piece, then its destination among the legal ones",
    )
    @app_commands.describe(piece="The piece you move (or place)", destination="Where it goes")
    async def piece(
        self, interaction: discord.Interaction, piece: str, destination: str | None = None
    ) -> None:
        """Pick a piece and put it on a legal destination, in one go."""
        g, seat = await self._mine(interaction)
        await play_steps(interaction, g.id, piece_steps(g, seat, piece, destination), g.version)
        await self._then_panel(interaction, g.id)

    @piece.autocomplete("piece")
    @quiet
    async def _piece_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        found = await caller_in(interaction, GAME_ID, pending=True)
        if found is None:
            return await action_choices(interaction, current, kinds=())
        return piece_choices(*found, current, locale_of(interaction)) or await action_choices(
            interaction, current, kinds=())

    @piece.autocomplete("destination")
    @quiet
    async def _destination_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        found = await caller_in(interaction, GAME_ID, pending=True)
        if found is None:
            return await action_choices(interaction, current, kinds=())
        piece = str(getattr(interaction.namespace, "piece", "") or "")
        try:
            return destination_choices(*found, piece, current, locale_of(interaction))
        except Refusal:
            return []  # the piece typed so far is not one that may move: nowhere to offer

    @rg.command(name="play", description="Play a card, exchange it for a cube, or discard it")
    @app_commands.describe(card="The card")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        """Play a card held since an earlier turn (its steps follow privately), exchange a
        white-cube card for a cube, or discard from a full hand."""
        await self._by_kind(interaction, card, CARD_KINDS, "rg.nothing_card")

    _play_ac = play.autocomplete("card")(legal_choices(CARD_KINDS))

    @rg.command(name="keep", description="Keep one of the cards you have drawn")
    @app_commands.describe(card="The card to keep")
    async def keep(self, interaction: discord.Interaction, card: str) -> None:
        """Keep a drawn card (the others go face up to the discard pile)."""
        await self._by_kind(interaction, card, KEEP_KINDS, "rg.nothing_keep")

    _keep_ac = keep.autocomplete("card")(legal_choices(KEEP_KINDS))

    @rg.command(
        name="resolve",
        description="Resolve a conflict step by step: add power, roll, resolve or give up",
    )
    @app_commands.describe(step="The power source, or resolve, roll, give up")
    async def resolve(self, interaction: discord.Interaction, step: str) -> None:
        """One step of the resolution under way; the running total follows privately."""
        await self._by_kind(interaction, step, RESOLVE_KINDS, "rg.nothing_resolve")

    _resolve_ac = resolve.autocomplete("step")(legal_choices(RESOLVE_KINDS))

    @rg.command(name="pass", description="End your turn, or skip the optional rest of a step")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """End the turn (a turn with no action is a pass), or go on without the optional
        rest of a step (the second Saint, the virtue die at the round's start)."""
        await self._pass(interaction, ("end_turn", "done"), "rg.nothing_pass")

    @rg.command(name="decide", description="Anything the game asks now (setup, dice, exchanges)")
    @app_commands.describe(choice="What you decide")
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        """Any legal move of the moment, by its label."""
        await self._by_kind(interaction, choice, None)

    _decide_ac = decide.autocomplete("choice")(legal_choices(None))

    # -- looking things up ---------------------------------------------------------------

    @rg.command(name="card", description="What an action card does")
    @app_commands.describe(card="The card")
    async def card(self, interaction: discord.Interaction, card: str) -> None:
        """A card's text, copies and icons, privately, in the caller's language."""
        locale = locale_of(interaction)
        k = find_kind(card)
        if k is None:
            raise refusal(
                "rg.bad_card",
                value=clip(card, 40),
                options=lambda lang: ", ".join(kind_title(x, lang) for x in KINDS),
            )
        await reply(interaction, embed=card_embed(k, locale), ephemeral=True)

    @card.autocomplete("card")
    @quiet
    async def _card_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        return card_choices(current, locale_of(interaction))


async def setup(bot: commands.Bot) -> None:
    """Load the Ragami cog (discord.py extension entry point)."""
    await bot.add_cog(Ragami(bot))
