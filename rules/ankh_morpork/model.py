"""State, actions, options and views of Mundodisco: Ankh-Morpork."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from rules.core import Action, GameState, Text, View

AreaNo = Annotated[int, Field(ge=0, le=11)]
# A piece on the board: 0..3 is that seat's minion, 4 a troll, 5 a demon.
TROLL, DEMON = 4, 5
PieceNo = Annotated[int, Field(ge=0, le=5)]


class Options(BaseModel):
    """Chosen when the game is created (the rulebook has no variants)."""


# ----------------------------------------------------------------------------- actions


class Play(Action):
    """Play a card from your hand (the turn's card, another one, or one of Drumknott's two)."""

    kind: Literal["play"] = "play"
    card: str


class Power(Action):
    """Use the power of a city area card you hold."""

    kind: Literal["power"] = "power"
    area: AreaNo


class Do(Action):
    """Carry out the current symbol or effect, which needs no further choice."""

    kind: Literal["do"] = "do"


class Skip(Action):
    """Leave the current symbol undone, decline, say "no" to a reaction, or end the turn."""

    kind: Literal["skip"] = "skip"


class Pay(Action):
    """Pay what is asked instead (a fine, a ransom, Small Gods' $3)."""

    kind: Literal["pay"] = "pay"


class Area(Action):
    """Choose an area."""

    kind: Literal["area"] = "area"
    area: AreaNo


class Piece(Action):
    """Choose a piece: a minion of seat ``piece`` (0..3), a troll (4) or a demon (5) in ``area``."""

    kind: Literal["piece"] = "piece"
    area: AreaNo
    piece: PieceNo


class Player(Action):
    """Choose a player."""

    kind: Literal["player"] = "player"
    seat: Annotated[int, Field(ge=0, le=3)]


class Card(Action):
    """Choose a card from your hand (to give, discard or keep)."""

    kind: Literal["card"] = "card"
    card: str


class Interrupt(Action):
    """Play an interrupt card now."""

    kind: Literal["interrupt"] = "interrupt"
    card: str


AmAction = Annotated[
    Play | Power | Do | Skip | Pay | Area | Piece | Player | Card | Interrupt,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[AmAction] = TypeAdapter(AmAction)


# ----------------------------------------------------------------------------- state


class Frame(BaseModel):
    """One decision or effect in progress; the state keeps a stack of them.

    Tuples, not lists, so a shallow copy of a frame is an independent one.
    """

    kind: str
    seat: int  # who decides while this frame waits
    actor: int = -1  # whose card or turn caused it
    wait: bool = False  # True: waiting for ``seat``'s action
    stage: str = ""
    card: str = ""  # the card (or event) being resolved
    sym: int = 0  # next symbol of ``card``
    via: str = ""  # "symbol" | "scroll" | "event" | "power" | "interrupt"
    mode: str = ""  # a variant of the frame's kind (which placement rule, which scroll...)
    area: int = -1
    area2: int = -1
    piece: int = -1
    piece2: int = -1
    who: int = -1
    n: int = 0
    blocked: bool = False
    rescue: bool = False
    areas: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()
    saved: tuple[int, ...] = ()  # pieces spared by Small Gods: area * 10 + piece (9: building)
    immune: tuple[int, ...] = ()  # seats that answered this card's text with Wallace Sonky


class AmState(GameState):
    """The whole game."""

    options: Options = Field(default_factory=Options)
    turn: int = 0
    turn_no: int = 1
    money: list[int]
    personality: list[str]  # secret: each seat's own
    unused: list[str]  # personalities set aside face down
    hands: list[list[str]]
    deck: list[str]
    discard: list[str] = Field(default_factory=list)
    event_deck: list[str]
    event_done: list[str] = Field(default_factory=list)
    minions: list[list[int]]  # [area][seat] counts
    trolls: list[int] = Field(default_factory=lambda: [0] * 12)
    demons: list[int] = Field(default_factory=lambda: [0] * 12)
    trouble: list[bool] = Field(default_factory=lambda: [False] * 12)
    buildings: list[int] = Field(default_factory=lambda: [-1] * 12)  # owner seat or -1
    card_out: list[bool] = Field(default_factory=lambda: [False] * 12)  # set aside by Johnson
    fresh: list[int] = Field(default_factory=list)  # area cards won this turn
    used: list[int] = Field(default_factory=list)  # area powers used this turn
    loans: list[list[str]]
    stuck: list[list[str]]  # Dr Whiteface / Fools' Guild in front of each seat
    peeks: list[list[str]]  # unused personalities each seat has been shown (Mrs Cake)
    stack: list[Frame] = Field(default_factory=list)
    deck_out: bool = False  # the last card of the deck has been drawn
    end_reason: str = ""  # "personality" | "riots" | "deck"
    winners: list[int] = Field(default_factory=list)
    scores: list[int] = Field(default_factory=list)


# ----------------------------------------------------------------------------- views


class AreaView(BaseModel):
    """One area as everyone sees it."""

    index: int
    number: int
    name: Text
    cost: int
    minions: list[int]
    trolls: int
    demons: int
    trouble: bool
    building: int
    card_holder: int | None  # who holds the area card (None: on the side, or set aside)
    card_out: bool
    controller: int | None


class SeatView(BaseModel):
    """What everyone knows about a seat."""

    seat: int
    money: int
    hand_size: int
    minions_in_supply: int
    buildings_in_supply: int
    loans: list[str]
    stuck: list[str]
    area_cards: list[int]
    personality: str | None  # only your own, or everyone's once the game is over


class AmView(View):
    """The game as ``seat`` may see it (None: the public board)."""

    # Cards come from a deck shuffled at setup, wherever they are now (hand, discard pile,
    # on the table, in front of a seat); events from the shuffled event deck; personalities
    # dealt face down (one's own, those shown by Mrs Cake, everyone's at the end).
    shown: ClassVar[dict[str, str] | None] = {
        "hand": "card", "discard": "card", "in_play": "card", "seats.*.loans": "card",
        "seats.*.stuck": "card", "events_done": "event", "personality": "personality",
        "peeked": "peeked", "seats.*.personality": "personality",
    }

    turn: int
    turn_no: int
    areas: list[AreaView]
    seats: list[SeatView]
    hand: list[str] | None  # the viewer's own hand
    personality: str | None  # the viewer's own personality
    peeked: list[str]  # unused personalities the viewer has been shown
    deck_count: int
    discard: list[str]
    events_left: int
    events_done: list[str]
    bank: int
    trouble_count: int
    to_act: list[int]
    prompt: Text | None  # what the viewer must decide now, if anything
    waiting: Text  # what the game waits for, without naming anything hidden
    in_play: list[str]  # cards on the table being resolved
    finished: bool
    end_reason: str
    winners: list[int]
    scores: list[int]

    def known(self, public: View | None = None) -> Counter[str]:
        """What the view shows from hidden information (``shown``), and whom the game asks
        whether they react: a seat is asked only when it holds a card to react with."""
        out = super().known(public)
        if self.waiting.m == REACT_WAIT:
            out[f"react:{self.waiting.model_dump_json()}"] += 1
        return out


# The engine's wording of the wait for a reaction (``_waiting``); tests/services/
# test_undo_hidden.py fails if the two part.
REACT_WAIT = "Waiting to see whether {who} reacts."
