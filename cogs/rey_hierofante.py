"""Rey y Hierofante in Discord: /rh commands with autocomplete of legal moves, and its board."""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common.autocomplete import (
    Choices,
    action_choices,
    caller_in,
    fold,
    in_every_language,
    kind_name,
    legal_choices,
    offered,
    pick_one,
    quiet,
)
from cogs.common.flow import GameCog, refusal
from cogs.common.game_ui import Typed
from cogs.common.i18n import locale_of, t, tn
from cogs.common.moves import play_action
from cogs.common.present import GameUI, clip, mention, register, ui_for
from cogs.pictures import draw_or_none
from cogs.pictures.rey_hierofante import changes, render_board
from rules.core import Action, Seat
from rules.rey_hierofante.engine import FACTION_NAME
from rules.rey_hierofante.model import (
    Activate,
    BanishZone,
    ChooseStarter,
    Decline,
    DraftPick,
    Group,
    Line,
    Move,
    Place,
    Recover,
    RhState,
    RhView,
    Target,
    parse_square,
    square_name,
)
from rules.rey_hierofante.tiles import TILES
from services.session import Game, Refusal

log = logging.getLogger("tablero.rey_hierofante")

GAME_ID = "rey_hierofante"


EFFECT_KINDS = frozenset(kind_name(m) for m in (Decline, Activate, Target, Group, Line, Move, BanishZone, Recover))
STARTER_KINDS = frozenset({kind_name(ChooseStarter)})
DRAFT_KINDS = frozenset({kind_name(DraftPick)})

def tile_name(tile: str | None, locale: str) -> str:
    """A tile's name in ``locale`` ("?" for a hidden one)."""
    if tile is None:
        return "?"
    info = TILES.get(tile)
    if info is None:
        return tile
    return info.name.get(locale)


def tile_text(tile: str, locale: str) -> str:
    """What a tile does, in ``locale``."""
    info = TILES.get(tile)
    if info is None:
        return ""
    return info.text.get(locale)


OWNER_MARKS = ("🔴", "🔵")


def board_text(v: RhView, locale: str) -> str:
    """The 3x3 board in text, row by row: owner, tile, 🛡 shielded, ✖ face down."""
    rows = []
    for r in range(3):
        cells = []
        for c in range(3):
            sq = r * 3 + c
            cell = v.board[sq]
            if cell is None:
                cells.append(f"{square_name(sq)} ·")
                continue
            mark = OWNER_MARKS[cell.owner] if cell.owner < len(OWNER_MARKS) else "?"
            what = tile_name(cell.tile, locale) if cell.face_up else "✖"
            shield = "🛡" if cell.shielded else ""
            cells.append(f"{square_name(sq)} {mark}{what}{shield}")
        rows.append(" │ ".join(cells))
    return "\n".join(rows)


class RhUI(Typed[RhState, RhView], GameUI):
    """How Rey y Hierofante looks: the picture of the 3x3 board, the score, the zones."""

    game_id = GAME_ID
    state_type, view_type = RhState, RhView

    def picture(self, g: Game, seat: Seat | None, locale: str) -> bytes | None:
        """The board drawn by cogs/pictures (None if it cannot be drawn)."""
        view = self.view(g, seat)
        changed = self.last_change(g, seat, view, changes)
        return draw_or_none(partial(render_board, changed=changed), view, g.names, locale, g.id)

    def group_of(self, g: Game, seat: Seat, action: Action) -> Hashable | None:
        """Placements group by tile, Hada's moves by the tile moved."""
        if isinstance(action, Place):
            return ("place", action.tile)
        if isinstance(action, Move):
            return ("move", action.source)
        return None

    def group_label(self, g: Game, seat: Seat, key: Hashable, actions: Sequence[Action], locale: str) -> str:
        """The tile to place, or the square to move from."""
        if isinstance(key, tuple) and key[0] == "place":
            return tile_name(str(key[1]), locale)
        if isinstance(key, tuple) and key[0] == "move":
            src = int(key[1])
            assert g.state is not None
            v = self.view(g, seat)
            cell = v.board[src]
            what = tile_name(cell.tile if cell else None, locale)
            return f"{what} ({square_name(src)}) →"
        return super().group_label(g, seat, key, actions, locale)

    def group_description(
        self, g: Game, seat: Seat, key: Hashable, actions: Sequence[Action], locale: str
    ) -> str:
        """Under a tile: what it does."""
        if isinstance(key, tuple) and key[0] == "place":
            return tile_text(str(key[1]), locale)
        return super().group_description(g, seat, key, actions, locale)

    def seat_side(self, seat: int, locale: str) -> str | None:
        """The first seat plays Royalty, the second Religion."""
        return FACTION_NAME[seat].get(locale) if 0 <= seat < len(FACTION_NAME) else None

    def board_fields(self, g: Game, locale: str, pictured: bool = False) -> list[tuple[str, str, bool]]:
        """Players with their factions, the score, the board in text when there is no
        picture, the neutral zone and the zones."""
        fields: list[tuple[str, str, bool]] = []
        if g.state is None:
            return super().board_fields(g, locale, pictured)
        v = self.view(g, None)
        players = "\n".join(
            f"{OWNER_MARKS[s.seat]} {FACTION_NAME[s.seat].get(locale)}: {mention(g, s.seat)}"
            for s in g.seats
            if s.seat < len(FACTION_NAME)
        )
        fields.append((t("board.players", locale), players or "-", True))
        if v.options.scoring == "match":
            score = " — ".join(str(w) for w in v.wins)
            label = tn("rh.score_match", v.options.wins_needed, locale, game=v.game_no)
        else:
            score = " — ".join(str(p) for p in v.points)
            label = t("rh.score_points", locale, games=v.options.games, game=v.game_no)
        fields.append((t("board.score", locale), f"{label}\n**{score}**", True))
        if not pictured:
            fields.append((t("rh.board", locale), board_text(v, locale), False))
        if v.neutral_zone:
            fields.append((t("rh.neutral", locale), ", ".join(tile_name(x, locale) for x in v.neutral_zone), False))
        for s, zone in enumerate(v.zones):
            if s >= len(g.seats):
                break
            tiles = ", ".join(tile_name(z.tile, locale) for z in zone) or "-"
            fields.append((t("rh.zone_of", locale, name=g.seat_row(s).name), tiles, False))
        return fields

    def private_lines(self, g: Game, seat: Seat, locale: str) -> list[str]:
        """Your zone (hidden tiles included), and the draft offer when you may see it."""
        if g.state is None:
            return []
        v = self.view(g, seat)
        lines = []
        if seat < len(v.zones):
            mine = [
                f"{tile_name(z.tile, locale)}{' 🔒' if z.hidden else ''}" for z in v.zones[seat]
            ]
            lines.append(f"**{t('rh.your_zone', locale)}**: {', '.join(mine) or '-'}")
        if v.neutral_zone:
            lines.append(f"**{t('rh.neutral', locale)}**: {', '.join(tile_name(x, locale) for x in v.neutral_zone)}")
        if v.draft_offer is not None and v.draft_picker == seat:
            offer = ", ".join(tile_name(x, locale) for x in v.draft_offer)
            lines.append(f"**{t('rh.draft_offer', locale)}**: {offer}")
        if v.draft_seen:
            seen = ", ".join(tile_name(x, locale) for x in v.draft_seen)
            lines.append(f"**{t('rh.draft_seen', locale)}**: {seen}")
        if any(z.hidden for z in (v.zones[seat] if seat < len(v.zones) else [])):
            lines.append(t("rh.hidden_note", locale))
        return lines


# Registered on import so the board looks right wherever the module is loaded.
register(RhUI())


def _placements(g: Game, seat: Seat) -> list[Place]:
    return [a for a in g.legal_actions(seat) if isinstance(a, Place)]


def _resolve_tile(g: Game, seat: Seat, value: str) -> str:
    """The tile id a typed or autocompleted value names, among the tiles placeable now."""
    tiles = list(dict.fromkeys(a.tile for a in _placements(g, seat)))
    # a tile is typed by its id or its name in any language the rules are translated into
    found = pick_one(value, [(x, [x, *(in_every_language(TILES[x].name) if x in TILES else [])]) for x in tiles])
    if found is not None:
        return found
    raise refusal(
        "err.unknown_tile",
        value=clip(value, 40),
        options=lambda lang: ", ".join(tile_name(x, lang) for x in tiles) or "-",
    )


def _resolve_square(value: str) -> int:
    v = value.strip()
    sq = parse_square(v)
    if sq is None and v.isdigit() and 0 <= int(v) <= 8:
        sq = int(v)
    if sq is None:
        raise refusal("err.unknown_square", value=clip(v, 20))
    return sq


class ReyHierofante(GameCog):
    """The /rh commands (the board's menu is the panel: none follows a command)."""

    game_id = GAME_ID
    panel_after = False
    rh = app_commands.Group(name="rh", description="Rey y Hierofante moves", guild_only=True)

    # -- /rh place -------------------------------------------------------------------

    @rh.command(name="place", description="Place a tile on the board")
    @app_commands.describe(tile="The tile to place", square="The square (A1 to C3)")
    async def place(self, interaction: discord.Interaction, tile: str, square: str) -> None:
        """Place ``tile`` on ``square``; the engine checks it is legal."""
        g, seat = await self._mine(interaction)
        tile_id = _resolve_tile(g, seat, tile)
        sq = _resolve_square(square)
        await play_action(interaction, g.id, {"kind": kind_name(Place), "tile": tile_id, "square": sq})

    @place.autocomplete("tile")
    @quiet
    async def _tile_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        locale = locale_of(interaction)
        found = await caller_in(interaction, GAME_ID)
        tiles = dict.fromkeys(a.tile for a in _placements(*found)) if found is not None else {}
        if not tiles:
            return await action_choices(interaction, current, kinds=())
        return offered(current, ((f"{tile_name(x, locale)} — {tile_text(x, locale)}", x, [x, tile_name(x, locale)])
                                 for x in tiles))

    @place.autocomplete("square")
    @quiet
    async def _square_ac(self, interaction: discord.Interaction, current: str) -> Choices:
        locale = locale_of(interaction)
        found = await caller_in(interaction, GAME_ID)
        if found is None:
            return []
        g, seat = found
        placements = _placements(g, seat)
        typed_tile = str(getattr(interaction.namespace, "tile", "") or "")
        if typed_tile:
            try:
                chosen = _resolve_tile(g, seat, typed_tile)
                placements = [a for a in placements if a.tile == chosen]
            except Refusal:
                pass
        assert g.state is not None
        needle = fold(current)
        out: dict[str, str] = {}
        for a in placements:
            sq = square_name(a.square)
            if sq in out or (needle and not fold(sq).startswith(needle)):
                continue
            label = ui_for(GAME_ID).label(g, seat, a, locale) if typed_tile else sq
            out[sq] = clip(label, 100)
        return [app_commands.Choice(name=label, value=sq) for sq, label in out.items()][:25]

    # -- /rh effect, /rh starter, /rh draft --------------------------------------------------

    @rh.command(name="effect", description="Use (or decline) the effect of the tile you placed")
    @app_commands.describe(choice="What the effect does")
    async def effect(self, interaction: discord.Interaction, choice: str) -> None:
        """Resolve the pending effect."""
        await self._by_kind(interaction, choice, EFFECT_KINDS)

    _effect_ac = effect.autocomplete("choice")(legal_choices(EFFECT_KINDS))

    @rh.command(name="starter", description="Choose who starts the next game")
    @app_commands.describe(choice="Who starts")
    async def starter(self, interaction: discord.Interaction, choice: str) -> None:
        """The previous game's loser picks who starts."""
        await self._by_kind(interaction, choice, STARTER_KINDS)

    _starter_ac = starter.autocomplete("choice")(legal_choices(STARTER_KINDS))

    @rh.command(name="draft", description="Keep a tile of the draft")
    @app_commands.describe(tile="The tile to keep")
    async def draft(self, interaction: discord.Interaction, tile: str) -> None:
        """Keep one tile of the draft offer."""
        await self._by_kind(interaction, tile, DRAFT_KINDS)

    _draft_ac = draft.autocomplete("tile")(legal_choices(DRAFT_KINDS))


async def setup(bot: commands.Bot) -> None:
    """Load the Rey y Hierofante cog (discord.py extension entry point)."""
    await bot.add_cog(ReyHierofante(bot))
