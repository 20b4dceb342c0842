"""State, actions, options and views of Guerra de Mitos."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

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
    """Chosen when the game is created: each seat's deck (a ready deck's name or a list;
    None, or no entry: a ready deck picked from the seed)."""

    decks: list[str | DeckSpec | None] = Field(default_factory=list)
    # A safety bound on turns (docs/rules/guerra_de_mitos.md, "Fin de la partida"): the
    # rulebook has no limit; real and random games end long before it.
    max_rounds: Annotated[int, Field(ge=5, le=200)] = 200


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


_LIST_FIELDS: dict[type, tuple[str, ...]] = {}
_DICT_FIELDS: dict[type, tuple[str, ...]] = {}


def clone(m: Any) -> Any:
    """A copy of a flat pydantic model whose list and dict fields are copied one level deep."""
    cls = m.__class__
    lists = _LIST_FIELDS.get(cls)
    if lists is None:
        lists = _LIST_FIELDS[cls] = tuple(
            k
            for k, f in cls.model_fields.items()
            if getattr(f.annotation, "__origin__", None) is list
        )
        _DICT_FIELDS[cls] = tuple(
            k
            for k, f in cls.model_fields.items()
            if getattr(f.annotation, "__origin__", None) is dict
        )
    new = cls.__new__(cls)
    d = m.__dict__.copy()
    for k in lists:
        d[k] = d[k][:]
    for k in _DICT_FIELDS[cls]:
        d[k] = dict.copy(d[k])
    object.__setattr__(new, "__dict__", d)
    object.__setattr__(new, "__pydantic_fields_set__", set(m.__pydantic_fields_set__))
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


_get = dict.__getitem__
_put = dict.__setitem__


class CardTable(dict):  # type: ignore[type-arg]
    """The cards of one state, copied on write.

    A copy (``share``) holds the same card records as its source, and neither table owns
    them any more. A record is copied into a table the first time that table hands it out
    through ``table[uid]``, ``get``, ``values`` or ``items``, so what the rules write through
    those never reaches another state. Code that only reads uses ``board.peek`` and
    ``board.raw_items`` (plain dict access), which hand out the shared record uncopied.
    """

    __slots__ = ("_own", "_all", "_live")

    def __init__(self, data: Any = ()) -> None:
        dict.__init__(self, data)
        self._own: set[int] = set()
        self._all = True  # a fresh table owns every record it was built with
        self._live: list[tuple[int, Inst]] | None = None  # see board.reading

    def share(self) -> CardTable:
        """A copy sharing every record; from now on both tables copy a record before handing it out."""
        new = CardTable.__new__(CardTable)
        dict.__init__(new, self)
        new._own, new._all, new._live = set(), False, None
        self._own, self._all = set(), False
        return new

    def __getitem__(self, uid: int) -> Inst:
        c = _get(self, uid)
        if self._all or uid in self._own:
            return c
        c = clone(c)
        _put(self, uid, c)
        self._own.add(uid)
        return c

    def __setitem__(self, uid: int, c: Inst) -> None:
        _put(self, uid, c)
        self._own.add(uid)

    def _own_all(self) -> None:
        if not self._all:
            for uid in dict.keys(self):
                self[uid]
            self._all = True

    def get(self, uid: int, default: Any = None) -> Any:  # type: ignore[override]
        """The record, owned by this table (like ``table[uid]``), or ``default``."""
        return self[uid] if dict.__contains__(self, uid) else default

    def values(self) -> Any:  # type: ignore[override]
        """Every record, owned by this table (each is copied once if shared)."""
        self._own_all()
        return dict.values(self)

    def items(self) -> Any:  # type: ignore[override]
        """Every ``(uid, record)``, owned by this table (each is copied once if shared)."""
        self._own_all()
        return dict.items(self)

    def pop(self, uid: int, *default: Any) -> Any:  # type: ignore[override]
        """Remove a record and return it (owned)."""
        if dict.__contains__(self, uid):
            c = self[uid]
            dict.__delitem__(self, uid)
            return c
        return dict.pop(self, uid, *default)

    def setdefault(self, uid: int, default: Any = None) -> Any:  # type: ignore[override]
        """The record for ``uid`` (owned), adding ``default`` first when absent."""
        if not dict.__contains__(self, uid):
            self[uid] = default
        return self[uid]

    def copy(self) -> dict[int, Inst]:  # type: ignore[override]
        """A plain dict of owned records (for code that wants one)."""
        return dict(self.items())

    def popitem(self) -> Any:
        """Not used by the rules; kept owned like the rest."""
        self._own_all()
        return dict.popitem(self)

    def update(self, *args: Any, **kw: Any) -> None:
        """Add records; they are owned by this table."""
        for k, v in dict(*args, **kw).items():
            self[k] = v

    def __reduce__(self) -> Any:
        # deep copies and pickles rebuild a plain, fully owned table of copied records
        return (CardTable, (dict(self.items()),))


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
    dropped: bool = False  # step B is over this transfer (used, or C has begun)
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


class LogLine(BaseModel):
    """A line the rules wrote during a move, told as an event once the move is done."""

    model_config = ConfigDict(frozen=True)
    aud: list[int] | None = None  # the seats that read it; None: everyone
    text: Text

    @classmethod
    def read(cls, v: Any) -> Any:
        """A stored line: a model's dict, or the older "aud|es|en" string (audience "*" or
        seats "0,2", then the Spanish and the English)."""
        if isinstance(v, str):
            aud, es, en = v.split("|", 2)
            seats = None if aud == "*" else [int(x) for x in aud.split(",") if x]
            return {"aud": seats, "text": {"es": es, "en": en}}
        return v


class GdmState(GameState):
    """The whole game."""

    options: Options = Field(default_factory=Options)
    cards: dict[int, Inst] = Field(default_factory=CardTable)
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
    # A blocked table (seats.blocked_check, docs/rules/guerra_de_mitos.md): turns in a row that
    # ended with a table one of the last turns left, a digest of the last one, and the
    # digests of the last ``STILL_TURNS`` tables.
    still_turns: int = 0
    still_table: int = 0
    still_seen: list[int] = Field(default_factory=list)
    log: list[LogLine] = Field(default_factory=list)

    @field_validator("log", mode="before")
    @classmethod
    def _old_lines(cls, v: Any) -> Any:
        """States stored before the catalogues hold their lines as "aud|es|en" strings."""
        return [LogLine.read(x) for x in v] if isinstance(v, list) else v

    @field_validator("cards", mode="after")
    @classmethod
    def _table(cls, v: dict[int, Inst]) -> dict[int, Inst]:
        """Cards live in a copy-on-write table (see CardTable)."""
        return v if isinstance(v, CardTable) else CardTable(v)


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
    # the counters the reserve holds: never below 0, as a pile of counters (a loss larger
    # than the reserve leaves it empty; the rules keep how much it fell short: Olvido)
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

    # Cards come from shuffled decks and oracles: in the hand, in play, in a discard pile,
    # face up on an oracle; the cards the seat was shown; and the top of the deck that a
    # step's prompt names for the deciding seat.
    shown: ClassVar[dict[str, str] | None] = {
        "hand": "card", "in_play.*.card": "card", "seats.*.discard": "card",
        "seats.*.oracles.*.top": "card", "peeks": "peek", "prompt.a.top": "top",
    }

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
