"""State, actions, options and views of Guerra de Mitos."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rules.core import Action, GameState, Text, View

# Zones a card instance can be in.
HAND, DECK, GODS, DISCARD, ORACLE, PANTHEON, BATTLE, GEAR, GONE = (
    "hand",
    "deck",
    "gods",
    "discard",
    "oracle",
    "pantheon",
    "battle",
    "gear",
    "gone",
)
IN_PLAY = (PANTHEON, BATTLE, GEAR)


class DeckSpec(BaseModel):
    """A player's deck: the pantheon card, the god deck and the design deck (card ids)."""

    pantheon: str
    gods: list[str]
    designs: list[str]


class Options(BaseModel):
    """Chosen when the game is created: each seat's deck (a ready deck's name or a list)."""

    decks: list[str | DeckSpec] = Field(default_factory=list)
    max_rounds: Annotated[int, Field(ge=5, le=200)] = 60  # the game's safety limit on turns


# ----------------------------------------------------------------------------- actions


class Bid(Action):
    """Secretly give 1 to 4 power to the opponent to decide who starts."""

    kind: Literal["bid"] = "bid"
    amount: Annotated[int, Field(ge=1, le=4)]


class Starter(Action):
    """The winner of the bid names the start player."""

    kind: Literal["starter"] = "starter"
    seat: Annotated[int, Field(ge=0, le=7)]


class Move(Action):
    """Move one power counter: from the reserve (-1) to an oracle, back, or between oracles."""

    kind: Literal["move"] = "move"
    src: Annotated[int, Field(ge=-1, le=15)]
    dst: Annotated[int, Field(ge=-1, le=15)]


class DropOracle(Action):
    """Discard the top card of one of your oracles that holds no power (once per transfer)."""

    kind: Literal["drop"] = "drop"
    oracle: Annotated[int, Field(ge=0, le=15)]


class Enter(Action):
    """Put into play the top card of an oracle holding at least its cost in power."""

    kind: Literal["enter"] = "enter"
    oracle: Annotated[int, Field(ge=0, le=15)]


class Play(Action):
    """Play an action card from your hand."""

    kind: Literal["play"] = "play"
    uid: int
    ability: Annotated[int, Field(ge=0, le=3)] = 0
    payer: int | None = None  # in a confrontation: the character that pays the cost


class Use(Action):
    """Use the ability number ``ability`` of a card you control in play."""

    kind: Literal["use"] = "use"
    uid: int
    ability: Annotated[int, Field(ge=0, le=3)] = 0


class Equip(Action):
    """Equip a card from your hand onto one of your characters in your pantheon."""

    kind: Literal["equip"] = "equip"
    uid: int
    target: int


class Meditate(Action):
    """Tire one of your ready characters in your pantheon; it gains 2P."""

    kind: Literal["meditate"] = "meditate"
    uid: int


class Assign(Action):
    """Send a ready character from your pantheon to the battlefield, paying 1P from it."""

    kind: Literal["assign"] = "assign"
    uid: int


class Challenge(Action):
    """Multiplayer: choose the player you confront."""

    kind: Literal["challenge"] = "challenge"
    seat: Annotated[int, Field(ge=0, le=7)]


class Target(Action):
    """Choose a card for the ability being resolved."""

    kind: Literal["target"] = "target"
    uid: int


class Choose(Action):
    """Choose a player, an oracle or a number for the ability being resolved."""

    kind: Literal["choose"] = "choose"
    value: int


class Pass(Action):
    """Pass: end your transfer, pass in a round of actions, or skip an optional choice."""

    kind: Literal["pass"] = "pass"


GdmAction = Annotated[
    Bid
    | Starter
    | Move
    | DropOracle
    | Enter
    | Play
    | Use
    | Equip
    | Meditate
    | Assign
    | Challenge
    | Target
    | Choose
    | Pass,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(GdmAction)


# ----------------------------------------------------------------------------- state


class Inst(BaseModel):
    """One card (or created token) in the game, wherever it is."""

    uid: int
    card: str
    owner: int
    ctrl: int
    zone: str
    power: int = 0
    tired: bool = False
    gear: list[int] = Field(default_factory=list)  # equipment on a character
    on: int | None = None  # the character an equipment is on
    f_perm: int = 0
    pm_perm: int = 0
    f_turn: int = 0
    pm_turn: int = 0
    pm_round: int = 0  # lasts through reorganisation, until the next turn begins
    f_double: bool = False  # a weapon whose strength is doubled this turn
    marks: list[str] = Field(default_factory=list)  # rule changes on this card this turn
    silenced: bool = False  # abilities removed this turn
    pm_set: int | None = None  # a copied maximum power (this turn)
    keys_add: list[str] = Field(default_factory=list)  # permanent
    keys_turn: list[str] = Field(default_factory=list)
    keys_del: list[str] = Field(default_factory=list)  # permanent
    muted: list[int] = Field(default_factory=list)  # abilities removed for good
    used: list[int] = Field(default_factory=list)  # abilities used this turn
    fought: bool = False  # was on the battlefield this turn
    created: bool = False  # a token: leaves the game instead of the discard
    temp: bool = False  # destroyed at the end of the confrontation
    doomed: bool = False  # destroyed after the confrontation's resolution
    no_assign: bool = False
    shielded: bool = False  # no action may target it (this turn)
    borrowed: bool = False  # control taken until the next action or the resolution


class Oracle(BaseModel):
    """A pile of god-deck cards: top first; the power on it; whether the top is face up."""

    cards: list[int] = Field(default_factory=list)
    up: bool = False
    power: int = 0


class Player(BaseModel):
    """One seat's zones and counters."""

    reserve: int = 0
    pantheon: int = -1
    hand: list[int] = Field(default_factory=list)
    deck: list[int] = Field(default_factory=list)  # design deck, top first
    discard: list[int] = Field(default_factory=list)
    oracles: list[Oracle] = Field(default_factory=list)
    bid: int | None = None
    alive: bool = True
    vp: float = 0.0
    out_round: int | None = None
    moves: int = 0  # counter moves left in this transfer
    dropped: bool = False  # used step B this transfer
    peeks: list[str] = Field(default_factory=list)  # cards this seat has been shown (private)


class Step(BaseModel):
    """One resolving ability: where it is in its steps and what it has chosen."""

    seat: int  # who decides the choices
    src: int | None  # the card whose ability (or action card) this is
    card: str
    ability: int
    pos: int = 0
    vars: dict[str, int] = Field(default_factory=dict)
    chosen: list[int] = Field(default_factory=list)  # targets chosen in the current step
    picks: dict[str, int] = Field(default_factory=dict)  # named earlier targets
    phase: str = ""


class Fight(BaseModel):
    """One confrontation between two seats."""

    a: int
    b: int
    stage: str = "assign"  # assign | act
    turn: int = 0  # whose go it is
    passes: int = 0
    passed: list[int] = Field(default_factory=list)  # assignment passes


class GdmState(GameState):
    """The whole game."""

    options: Options = Field(default_factory=Options)
    cards: dict[int, Inst] = Field(default_factory=dict)
    players: list[Player] = Field(default_factory=list)
    next_uid: int = 0
    first: int = 0
    round: int = 1
    phase: str = "bid"  # bid | starter | transfer | influence | challenge | fight | over
    actor: int = 0
    order_pos: int = 0  # how many seats have had their transfer this phase
    passes: int = 0
    chooser: int = 0  # who names the start player after the bid
    stack: list[Step] = Field(default_factory=list)
    fight: Fight | None = None
    fought: list[int] = Field(default_factory=list)  # seats that confronted this turn
    flags: dict[str, Any] = Field(default_factory=dict)  # effects lasting this turn
    lasting: dict[str, Any] = Field(default_factory=dict)  # effects with a stated duration
    winners: list[int] = Field(default_factory=list)
    end_reason: str = ""
    log: list[str] = Field(default_factory=list)


# ----------------------------------------------------------------------------- views


class CardView(BaseModel):
    """A card in play or face up, as anyone sees it."""

    uid: int
    card: str
    name: str
    owner: int
    ctrl: int
    zone: str
    power: int
    strength: int
    max_power: int
    tired: bool
    gear: list[int]
    keys: list[str]


class OracleView(BaseModel):
    """An oracle: how many cards, the power on it, and its top card only when face up."""

    size: int
    power: int
    top: str | None


class SeatView(BaseModel):
    """One seat as everyone sees it."""

    seat: int
    reserve: int
    alive: bool
    vp: float
    hand_size: int
    deck_size: int
    discard: list[str]
    oracles: list[OracleView]
    pantheon: str
    bid: int | None  # shown only once revealed (or to its owner)


class GdmView(View):
    """What one seat (or the public) may see."""

    phase: str
    round: int
    first: int
    actor: int
    to_act: list[int]
    prompt: Text | None
    seats: list[SeatView]
    in_play: list[CardView]
    hand: list[str] | None
    peeks: list[str]
    fight: list[int] | None
    finished: bool
    winners: list[int]
    end_reason: str
