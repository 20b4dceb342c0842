"""State, actions, options and views of Rey y Hierofante."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rules.core import Action, GameState, View

Square = Annotated[int, Field(ge=0, le=8)]
Direction = Literal["n", "ne", "e", "se", "s", "sw", "w", "nw"]

Variant = Literal[
    "original", "clasico", "aleatorio", "aleatorio_oculto", "draft", "draft_oculto"
]


class Options(BaseModel):
    """Chosen when the match is created."""

    variant: Variant = "original"
    # "match": first to `wins_needed` game wins (the rulebook: 2). "points": a fixed
    # number of games, each ally a point.
    scoring: Literal["match", "points"] = "match"
    wins_needed: int = Field(default=2, ge=1, le=5)
    games: int = Field(default=3, ge=1, le=9)
    reshuffle: bool = False


# ----------------------------------------------------------------------------- actions


class ChooseStarter(Action):
    """The previous game's loser (or the first game's draw) says who starts."""

    kind: Literal["choose_starter"] = "choose_starter"
    starter: Annotated[int, Field(ge=0, le=1)]


class DraftPick(Action):
    """Keep one tile of the draft offer."""

    kind: Literal["draft_pick"] = "draft_pick"
    tile: str


class Place(Action):
    """Place a tile from your zone or the neutral zone on a square."""

    kind: Literal["place"] = "place"
    tile: str
    square: Square


class Decline(Action):
    """Do not use the active effect of the tile just placed."""

    kind: Literal["decline"] = "decline"


class Activate(Action):
    """Use an effect that has no choice to make (Adivina, Dragón)."""

    kind: Literal["activate"] = "activate"


class Target(Action):
    """Point the effect at one square."""

    kind: Literal["target"] = "target"
    square: Square


class Group(Action):
    """Princesa/Santa: the orthogonal or the diagonal neighbours."""

    kind: Literal["group"] = "group"
    group: Literal["orth", "diag"]


class Line(Action):
    """Reina/Cardenal: one of the 8 directions, in board terms (n = row 0's side)."""

    kind: Literal["line"] = "line"
    direction: Direction


class Move(Action):
    """Hada: move the tile on `source` to the empty `dest`."""

    kind: Literal["move"] = "move"
    source: Square
    dest: Square


class BanishZone(Action):
    """Asesino: banish the tile in the opponent's zone at position `slot`."""

    kind: Literal["banish_zone"] = "banish_zone"
    slot: Annotated[int, Field(ge=0, le=40)]


class Recover(Action):
    """Ermitaño: take this tile from the discard pile."""

    kind: Literal["recover"] = "recover"
    tile: str


RhAction = Annotated[
    ChooseStarter | DraftPick | Place | Decline | Activate | Target | Group | Line | Move
    | BanishZone | Recover,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[RhAction] = TypeAdapter(RhAction)


# ----------------------------------------------------------------------------- state


class Cell(BaseModel):
    """A tile on the board."""

    tile: str
    owner: int  # the seat the tile faces: that seat's ally
    face_up: bool = True
    destroyed_by: int | None = None  # face-down tiles leave at the start of this seat's turn
    covered: str | None = None  # the ally under a Torre


class ZoneTile(BaseModel):
    """A tile in a player's play area; hidden ones are known only to their owner."""

    tile: str
    hidden: bool = False


class PendingEffect(BaseModel):
    """An effect waiting for its player's choice."""

    seat: int
    source: int  # the square of the tile that was placed
    origin: int  # the square the effect reaches from (same square; a copy acts from the copier)
    tile: str  # the tile whose effect is being used (for a copy: the copied tile)
    chain: list[int] = Field(default_factory=list)  # squares already copied through
    fills_board: bool = False  # the placement filled the 9 squares: no destruction


class Draft(BaseModel):
    """A draft in progress."""

    offer: list[str]  # tiles on offer (face up in "draft"; private to `picker` in hidden)
    picker: int
    step: int = 0


class GameRecord(BaseModel):
    """One finished game of the match."""

    winner: int | None
    allies: list[int]
    points: list[int]
    reason: str  # "board_full" | "death" | "no_tile"


class RhState(GameState):
    """The whole match."""

    options: Options
    phase: Literal["choose_starter", "draft", "place", "effect"] = "place"
    game_no: int = 1
    starter: int = 0
    chooser: int = 0  # who chooses the starter when phase is choose_starter
    turn: int = 0  # whose placement it is
    first_move: bool = True
    board: list[Cell | None] = Field(default_factory=lambda: [None] * 9)
    neutral_zone: list[str] = Field(default_factory=list)
    zones: list[list[ZoneTile]] = Field(default_factory=lambda: [[], []])
    discard: list[str] = Field(default_factory=list)
    stock: list[str] = Field(default_factory=list)  # neutrals not yet used this match
    used: list[str] = Field(default_factory=list)  # neutrals set aside after earlier games
    drawn: list[str] = Field(default_factory=list)  # neutrals drawn for the game in progress
    effect: PendingEffect | None = None
    draft: Draft | None = None
    draft_seen: list[list[str]] = Field(default_factory=lambda: [[], []])
    wins: list[int] = Field(default_factory=lambda: [0, 0])
    points: list[int] = Field(default_factory=lambda: [0, 0])
    history: list[GameRecord] = Field(default_factory=list)


# ----------------------------------------------------------------------------- views


class CellView(BaseModel):
    """A board square as anyone sees it."""

    tile: str | None  # None when face down (a face-down tile shows no character)
    owner: int
    face_up: bool
    shielded: bool
    covered: str | None = None
    destroyed_by: int | None = None


class ZoneTileView(BaseModel):
    """A zone tile; `tile` is None when hidden from the viewer."""

    slot: int
    tile: str | None
    hidden: bool


class RhView(View):
    """The board as `seat` may see it."""

    # Neutral tiles come from a stock shuffled at setup: wherever a tile shows (the neutral
    # zone, a play area, the board, the discard pile, a draft offer) it counts; and what the
    # seat has seen of hidden drafts.
    shown: ClassVar[dict[str, str] | None] = {
        "neutral_zone": "tile", "zones.*.*.tile": "tile", "board.*.tile": "tile",
        "board.*.covered": "tile", "discard": "tile", "draft_offer": "tile", "draft_seen": "seen",
    }

    options: Options
    phase: str
    game_no: int
    starter: int
    turn: int
    to_act: list[int]
    board: list[CellView | None]
    neutral_zone: list[str]
    zones: list[list[ZoneTileView]]
    discard: list[str]
    stock_count: int
    effect: PendingEffect | None
    draft_offer: list[str] | None  # None when the viewer may not see the offer
    draft_picker: int | None
    draft_seen: list[str]
    wins: list[int]
    points: list[int]
    history: list[GameRecord]
    finished: bool
    allies: list[int]


def square_name(i: int) -> str:
    """A1..C3: column letter left to right, row number top to bottom as the picture shows
    it (the Realeza seat, 0, sits at the bottom, row 3; Religión, seat 1, at the top)."""
    return "ABC"[i % 3] + str(i // 3 + 1)


def parse_square(name: str) -> int | None:
    """The square index for a name like "b2" (None if it is not one)."""
    n = name.strip().upper()
    if len(n) != 2 or n[0] not in "ABC" or n[1] not in "123":
        return None
    return (int(n[1]) - 1) * 3 + "ABC".index(n[0])
