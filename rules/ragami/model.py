"""State, actions, options and views of Ragami."""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rules.core import Action, GameState, View

CardId = Annotated[int, Field(ge=0, le=32)]
Slot = Annotated[int, Field(ge=0, le=2)]
Node = Annotated[str, Field(min_length=1, max_length=2)]
COLOURS = ("amarillo", "verde", "azul", "purpura")  # a seat's colour is its seat number


class Options(BaseModel):
    """Chosen when the game is created."""

    # The rulebook's optional rule: play without the power die and its card (n.º 6).
    power_die: bool = True
    # Two players: «Los jugadores pueden usar un tercer Ragami neutral» (they may; by default
    # they do). Ignored with three or four players.
    neutral_ragami: bool = True


# ----------------------------------------------------------------------------- actions


class Keep(Action):
    """Keep this card from the ones just drawn (the others go face up to the discard pile)."""

    kind: Literal["keep"] = "keep"
    card: CardId


class Place(Action):
    """Put the piece being placed or moved on this node (square "12", building "E")."""

    kind: Literal["place"] = "place"
    at: Node


class SetDie(Action):
    """Turn a red 1 of the action dice to this value."""

    kind: Literal["set_die"] = "set_die"
    value: Annotated[int, Field(ge=2, le=6)]


class Arrange(Action):
    """Put the three action dice on the action board: the value for slots 1, 2 and 3."""

    kind: Literal["arrange"] = "arrange"
    values: Annotated[list[Annotated[int, Field(ge=1, le=6)]], Field(min_length=3, max_length=3)]


class UseDie(Action):
    """Use an action die: its slot's own action, or "move a Ragami"."""

    kind: Literal["use_die"] = "use_die"
    slot: Slot
    move: bool = False


class PlayCard(Action):
    """Play a card from your hand for its action."""

    kind: Literal["play_card"] = "play_card"
    card: CardId


class CashCard(Action):
    """Exchange a card with the white-cube icon for a white cube."""

    kind: Literal["cash_card"] = "cash_card"
    card: CardId


class Discard(Action):
    """Discard a card from a full hand (to make room before drawing)."""

    kind: Literal["discard"] = "discard"
    card: CardId


class Convert(Action):
    """2 white cubes for 1 VP, or 3 points of your Virtue die for 1 VP."""

    kind: Literal["convert"] = "convert"
    what: Literal["cubes", "virtue"]


class EndTurn(Action):
    """End your turn (a turn with no action is a pass)."""

    kind: Literal["end_turn"] = "end_turn"


class Pick(Action):
    """Choose the piece to move: "S2" a Saint, "D14" a Demon on square 14, "D0" a new Demon
    from the supply, "R1" a Ragami, "C14" the Conflict die on square 14."""

    kind: Literal["pick"] = "pick"
    piece: Annotated[str, Field(min_length=2, max_length=3)]


class Adjust(Action):
    """Card n.º 3: change the chosen Conflict die by this much."""

    kind: Literal["adjust"] = "adjust"
    delta: Literal[-2, -1, 1, 2]


class Power(Action):
    """Resolving: add power from white cubes or your Virtue die."""

    kind: Literal["power"] = "power"
    source: Literal["cubes", "virtue"]
    amount: Annotated[int, Field(ge=1, le=30)]


class PowerCard(Action):
    """Resolving: play your one red-triangle card."""

    kind: Literal["power_card"] = "power_card"
    card: CardId


class Roll(Action):
    """Resolving: roll the power die (nothing can be added after it)."""

    kind: Literal["roll"] = "roll"


class Commit(Action):
    """Resolving: the power is enough; resolve the conflict."""

    kind: Literal["commit"] = "commit"


class Cancel(Action):
    """Resolving: give up before anything is spent; the action is not used."""

    kind: Literal["cancel"] = "cancel"


class Done(Action):
    """Finish an optional part (the second piece of a card, the end-of-round virtue step)."""

    kind: Literal["done"] = "done"


@lru_cache(maxsize=4096)
def act(cls: type[Action], **fields: Any) -> Action:
    """A shared instance of an action (actions are frozen): legal-action lists are rebuilt
    at every step, and sharing spares building the same objects again."""
    return cls(**fields)


RgAction = Annotated[
    Keep
    | Place
    | SetDie
    | Arrange
    | UseDie
    | PlayCard
    | CashCard
    | Discard
    | Convert
    | EndTurn
    | Pick
    | Adjust
    | Power
    | PowerCard
    | Roll
    | Commit
    | Cancel
    | Done,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[RgAction] = TypeAdapter(RgAction)


# ----------------------------------------------------------------------------- state


class Task(BaseModel):
    """A decision outside the turns (setup, round preparation), in queue order."""

    kind: Literal["saint", "virtue", "ragami", "demon", "set_die", "arrange", "flee", "prep_virtue"]
    seat: int
    colour: int = -1  # ragami/flee: the Ragami's colour
    die: int = -1  # set_die: which of the rolled dice


class Resolution(BaseModel):
    """A conflict being resolved, with the power gathered so far (public)."""

    square: int
    cost: int  # die + Demons
    die: int
    saints: list[int] = Field(default_factory=list)  # colours of the Saints present
    helper: int | None = None  # colour of the second Ragami present
    cubes: int = 0  # pledged, out of the player's stock until it ends
    virtue: int = 0  # pledged points of the Virtue die
    card: int | None = None  # the red-triangle card played
    card_cubes: int = 0  # the cubes that card cost
    card_power: int = 0
    via: int | None = None  # the Resolve card (n.º 7) that gave the action, if any
    slot: int | None = None  # the die slot that gave the action, if any
    free: bool = False  # the action came from the Extra action card
    was_acted: bool = False  # how the turn stood before, for giving up
    die_was_used: bool = False

    @property
    def auto(self) -> int:
        """Power the Saints and the second Ragami give for nothing."""
        return len(self.saints) + (2 if self.helper is not None else 0)

    @property
    def total(self) -> int:
        """Power gathered so far."""
        return self.auto + self.cubes + self.virtue + self.card_power


class Step(BaseModel):
    """The part of a many-step action the turn player is in the middle of."""

    kind: Literal[
        "saint",
        "demon",
        "saints",
        "demons",
        "move",
        "draw",
        "adjust",
        "virtue",
        "extra",
        "resolve",
        "flee",
        "swap",
    ]
    piece: str = ""  # picked piece ("S2", "D14", "D0", "R1", "C14"), "" before picking
    left: int = 0  # saints/demons: pieces still to move after this one
    done: list[str] = Field(default_factory=list)  # saints: moved Saints; demons: squares
    keep: int = 1  # draw: cards still to keep
    slot: int | None = None  # the die slot used
    free: bool = False  # an Extra action card: the die may be at zero
    res: Resolution | None = None


class FinalScore(BaseModel):
    """One player's end of game."""

    seat: int
    vp_before: int  # VP at the end of the last round
    cubes: int  # VP from the last cube exchange
    bonus: int  # 7, 4 or 0 for conflicts resolved
    resolved: int
    total: int


class RgState(GameState):
    """The whole game; per-seat lists are indexed by seat, per-colour lists by colour."""

    options: Options
    phase: Literal["keep", "setup", "turn", "over"] = "keep"
    prep: int = 0  # the next stage (1-7) of the round preparation to run in phase "setup"
    round: int = 1
    first: int = 0
    ragamis: list[str | None] = Field(default_factory=list)  # by colour: node, None = absent
    neutral: int | None = None  # the neutral Ragami's colour (2 players)
    saints: list[int | None] = Field(default_factory=list)  # by colour: square
    demons: list[int] = Field(default_factory=list)  # squares, one entry per Demon (sorted)
    conflicts: dict[int, int] = Field(default_factory=dict)  # square -> Conflict die
    tokens: list[int] = Field(default_factory=list)  # squares whose location token is out
    forbidden: list[int] = Field(default_factory=list)  # tokens turned to "paso prohibido"
    pool: list[int] = Field(default_factory=list)  # face-down location tokens left
    virtue_at: list[str | None] = Field(default_factory=list)  # by seat: building
    virtue: list[int] = Field(default_factory=list)  # by seat: the Virtue die's value
    vp: list[int] = Field(default_factory=list)
    cubes: list[int] = Field(default_factory=list)
    resolved: list[int] = Field(default_factory=list)
    cube_supply: int = 30
    dice: list[int] = Field(default_factory=lambda: [0, 0, 0])  # the action board, by slot
    rolled: list[int] = Field(default_factory=list)  # action dice being set
    deck: list[int] = Field(default_factory=list)  # top = last
    discard: list[int] = Field(default_factory=list)  # face up
    hands: list[list[int]] = Field(default_factory=list)
    fresh: list[list[int]] = Field(default_factory=list)  # cards got in the current turn
    drawn: list[list[int]] = Field(default_factory=list)  # cards drawn, to keep some of
    turn: int = 0
    die_used: bool = False
    acted: bool = False
    idle: int = 0  # turns ended in a row without an action
    tasks: list[Task] = Field(default_factory=list)
    step: Step | None = None
    last_roll: list[int] = Field(default_factory=list)  # the power die's last roll
    final: list[FinalScore] | None = None
    end_reason: Literal["", "vp", "tokens"] = ""


# ----------------------------------------------------------------------------- views


class PlayerView(BaseModel):
    """What everybody knows about a player."""

    seat: int
    vp: int
    cubes: int
    resolved: int
    hand: int
    virtue_at: str | None
    virtue: int
    ragami: str | None
    saint: int | None


class ConflictView(BaseModel):
    """A Conflict die on the board."""

    square: int
    die: int
    demons: int
    cost: int


class PrivateView(BaseModel):
    """What only the viewing seat knows."""

    hand: list[int]
    fresh: list[int]
    drawn: list[int]


class RgView(View):
    """The game as ``seat`` (None: the public board) may see it."""

    # Cards come from a deck shuffled at setup: the hand, the cards drawn to keep some of,
    # and the face-up discard pile (``fresh`` is part of the hand, counted there).
    shown: ClassVar[dict[str, str] | None] = {"me.hand": "card", "me.drawn": "card", "discard": "card"}

    options: Options
    phase: str
    round: int
    first: int
    turn: int
    to_act: list[int]
    players: list[PlayerView]
    ragamis: list[str | None]
    neutral: int | None
    saints: list[int | None]
    demons: list[int]
    conflicts: list[ConflictView]
    tokens: list[int]
    forbidden: list[int]
    pool: int
    dice: list[int]
    rolled: list[int]
    die_used: bool
    deck: int
    discard: list[int]
    cube_supply: int
    demon_supply: int
    conflict_supply: int
    step: Step | None
    task: Task | None
    drawing: list[int]  # seats choosing among drawn cards (not what they drew)
    last_roll: list[int]
    me: PrivateView | None
    final: list[FinalScore] | None
    end_reason: str
    finished: bool
