"""State, actions, options and views of Rattus Cartus."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from rules.core import Action, GameState, View
from rules.rattus_cartus.cards import BUILDINGS, CLASSES

BuildingId = Literal[
    "granja", "cerveceria", "mercado", "oficina", "monasterio", "hospital", "castillo",
    "torre_vigia", "palacio", "tesoro", "tienda", "cabana",
]
RowIndex = Annotated[int, Field(ge=0, le=2)]
Position = Annotated[int, Field(ge=0, le=4)]
SeatNo = Annotated[int, Field(ge=0, le=4)]
CardId = Annotated[str, Field(min_length=2, max_length=4)]


class Options(BaseModel):
    """Chosen when the game is created."""

    # "first_game": the rulebook's recommended set; "random_cards": five cards drawn at
    # random from each class's ten; "random_buildings": one building per class drawn at
    # random (all five of its cards); "chosen": the building of each class in `chosen`.
    buildings: Literal["first_game", "random_cards", "random_buildings", "chosen"] = "first_game"
    chosen: list[BuildingId] = Field(default_factory=list)
    # When the plague takes everybody: nobody wins (the rulebook's rule), or the player
    # with the fewest rats counts as the survivor (the rulebook's optional reading).
    all_eliminated: Literal["nobody", "fewest_rats"] = "nobody"

    @model_validator(mode="after")
    def _one_per_class(self) -> Options:
        if self.buildings == "chosen":
            classes = sorted(BUILDINGS[b].cls for b in self.chosen)
            if classes != sorted(CLASSES):
                raise ValueError("chosen must name exactly one building of each class")
        return self


# ----------------------------------------------------------------------------- actions


class SupplyChoice(Action):
    """Phase B: take the supply action of row card `card` (and look at nun card `peek`)."""

    kind: Literal["supply"] = "supply"
    card: RowIndex
    peek: Position | None = None


class Pass(Action):
    """Phase C: play a Safe-conduct and choose after everybody else."""

    kind: Literal["pass"] = "pass"


class Enter(Action):
    """Phase C: put your disc on the next free space of row card `building`."""

    kind: Literal["enter"] = "enter"
    building: RowIndex


class Play(Action):
    """Phase C: add one more card from your hand to the face-down cards you play."""

    kind: Literal["play"] = "play"
    card: CardId


class Undo(Action):
    """Phase C: take back the last card added (or, with none, the building chosen)."""

    kind: Literal["undo"] = "undo"


class Done(Action):
    """Confirm: the cards chosen are played (phase C); no more cards to discard (Hospital)."""

    kind: Literal["done"] = "done"


class Choose(Action):
    """Sword or Flute tie: the winner names which tied player loses the duel."""

    kind: Literal["choose"] = "choose"
    seat: SeatNo


class Give(Action):
    """Give this card from your hand (Sword duel lost, Guard Tower)."""

    kind: Literal["give"] = "give"
    card: CardId


class Discard(Action):
    """Hospital: discard this card from your hand to give back a rat."""

    kind: Literal["discard"] = "discard"
    card: CardId


class Peek(Action):
    """Fortune-teller's Tent: look at the nun card at `position` (0 = first)."""

    kind: Literal["peek"] = "peek"
    position: Position


RcAction = Annotated[
    SupplyChoice | Pass | Enter | Play | Undo | Done | Choose | Give | Discard | Peek,
    Field(discriminator="kind"),
]
ACTION_ADAPTER: TypeAdapter[RcAction] = TypeAdapter(RcAction)


# ----------------------------------------------------------------------------- state


class Task(BaseModel):
    """One step of resolving the buildings (phase D); never mutated, replaced instead."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["building", "duel", "victim", "action", "give", "hospital", "tower", "peek",
                  "clear"]
    b: int = -1  # the row card
    # who acts (victim: the duel winner; give/hospital/peek: the player; building: the
    # premium holder decided when phase D began, -1 for nobody, if `premium` is set)
    seat: int = -1
    target: int = -1  # who receives (give)
    n: int = 0  # cards still to give / discard, nun cards still to look at
    duel: Literal["", "espada", "flauta"] = ""
    premium: bool = False
    seats: list[int] = Field(default_factory=list)  # victim: the tied losers; tower: givers
    counts: list[int] = Field(default_factory=list)  # tower: cards each giver still owes


class Score(BaseModel):
    """One player's final scoring."""

    seat: int
    classes: list[int]  # points per class, in CLASSES order
    hand: int  # majority of population cards and jokers in hand
    specials: dict[str, int]  # espada, flauta, salvo majorities
    gold: int
    tokens: int  # victory point tokens
    total: int
    rats: int  # value of the rat tokens, shown at the end
    held: dict[str, int]  # what was counted: hand cards, espada, flauta, salvo, oro
    eliminated: bool


class RcState(GameState):
    """The whole game; per-seat data in parallel lists indexed by seat."""

    options: Options
    phase: Literal["supply", "enter", "resolve", "over"] = "supply"
    round: int = 1
    rounds: int = 10
    start: int = 0  # the start player this round
    in_play: list[str] = Field(default_factory=list)  # building types of the game's 30 cards
    building_deck: list[str] = Field(default_factory=list)  # top = last
    reserve: list[str] = Field(default_factory=list)  # top = last
    row: list[str] = Field(default_factory=list)
    building_discard: list[str] = Field(default_factory=list)
    deck: list[str] = Field(default_factory=list)  # population deck, top = last
    discard: list[str] = Field(default_factory=list)
    nuns: list[str] = Field(default_factory=list)  # the nun row, face down
    peeks: list[list[int]] = Field(default_factory=list)  # per seat: nun positions seen
    hands: list[list[str]] = Field(default_factory=list)
    rats: list[list[int]] = Field(default_factory=list)  # per seat: rat token values
    influence: list[list[int]] = Field(default_factory=list)  # [seat][class]
    arrived: list[list[int]] = Field(default_factory=list)  # [seat][class]: when the disc got there
    clock: int = 0  # stamps `arrived`: a later arrival sits on top of the stack
    vp: list[int] = Field(default_factory=list)
    piles: dict[str, list[str]] = Field(default_factory=dict)  # joker, espada, flauta, salvo, oro
    # phase B: each seat's secret choice, [row card, nun position or -1]
    choices: list[list[int] | None] = Field(default_factory=list)
    # phase C
    queue: list[int] = Field(default_factory=list)  # who chooses next, in order
    entering: int = -1  # the building the seat at queue[0] has picked, not yet announced
    picking: list[str] = Field(default_factory=list)  # the cards it has picked so far
    slots: list[list[int]] = Field(default_factory=list)  # per row card: seats in entry order
    played: list[list[str]] = Field(default_factory=list)  # per seat: cards played face down
    where: list[int] = Field(default_factory=list)  # per seat: the row card entered, or -1
    order: list[int] = Field(default_factory=list)  # seats in the order they entered
    # phase D
    revealed: list[bool] = Field(default_factory=list)  # per row card
    gained: list[int] = Field(default_factory=list)  # influence each seat gained this round
    tasks: list[Task] = Field(default_factory=list)
    final: list[Score] | None = None


# ----------------------------------------------------------------------------- views


class SlotView(BaseModel):
    """A disc on a building card and the cards played with it."""

    seat: int
    cards: int  # how many were played face down
    revealed: list[str] | None = None  # their kinds, once revealed


class BuildingView(BaseModel):
    """A building card of the row."""

    index: int
    card: str
    building: str
    cls: str
    supply: list[int]  # draw, rats, peeks
    slots: list[SlotView]
    revealed: bool


class PlayerView(BaseModel):
    """What everybody knows about a player."""

    seat: int
    influence: list[int]
    hand: int  # number of cards
    rat_tokens: int  # number of rat tokens (not their value)
    vp: int
    supply_done: bool  # phase B: has chosen
    building: int | None  # the row card entered this round


class DecisionView(BaseModel):
    """The decision the game waits for in phase D, as everyone may know it."""

    kind: str
    building: int
    seats: list[int]  # who must decide
    target: int | None = None
    left: int = 0
    candidates: list[int] = Field(default_factory=list)


class PrivateView(BaseModel):
    """What only the viewing seat knows."""

    hand: list[str]  # card ids, sorted by type
    rats: list[int]  # rat token values
    peeks: dict[int, int]  # nun position -> nuns shown
    supply_choice: list[int] | None  # phase B, before everybody has chosen
    entering: int | None  # phase C: the building picked, not yet announced
    picking: list[str]  # phase C: cards picked so far
    played: list[str]  # cards played face down this round


class RcView(View):
    """The game as `seat` (None: the public board) may see it."""

    # From hidden information: the hand and the cards played face down (``picking`` is
    # part of the hand), the rat tokens' values, the nun cards looked at, the building cards
    # turned up from their deck, played cards once revealed, and the nun row at the end.
    shown: ClassVar[dict[str, str] | None] = {
        "me.hand": "card", "me.played": "card", "me.rats": "rat", "me.peeks": "nun",
        "row.*.card": "building", "row.*.slots.*.revealed": "kind", "nuns": "nuns",
        "final.*.rats": "rats",
    }

    options: Options
    phase: str
    round: int
    rounds: int
    start: int
    to_act: list[int]
    queue: list[int]
    row: list[BuildingView]
    players: list[PlayerView]
    tracks: list[list[int]]  # per class: seats from first to last (ties: bottom of the stack first)
    deck: int
    discard: int
    building_deck: int
    reserve: int
    piles: dict[str, int]
    treasury: bool
    decision: DecisionView | None
    me: PrivateView | None
    nuns: list[int] | None  # revealed at the end
    final: list[Score] | None
    finished: bool
