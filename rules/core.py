"""The rules contract every game engine follows: pure, deterministic, JSON-serialisable.

Nothing in ``rules/`` imports discord. Seats are the integers ``0..n-1``; which Discord
user sits where is the platform's business.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)

from rules.catalogue import SOURCE, catalogues, join, language

Seat = int
# How the platform names a seat where a text says it (None: the rules' own "Player 2").
Naming = Callable[[int], "str | None"]


class Text(BaseModel):
    """A text a player reads, rendered in their language when shown: the English wording
    (a ``str.format`` template, the message id of its game's catalogue) and the values to
    fill in. Built with a game's phrase book (rules.phrases), never by hand (but for this
    module's own texts, written out as ``Text(d="core", m="...")``: rules.phrases imports it)."""

    model_config = ConfigDict(frozen=True)
    d: str = "core"  # the catalogue (domain) holding its translations: the game's id
    m: str = ""  # the English wording, singular
    p: str | None = None  # the English wording for several, when it has a plural
    n: int | None = None  # how many, for the plural's choice
    c: str | None = None  # a gettext context, where one English wording has two meanings
    # The values filled in: numbers, names, other texts (rendered in the same language), or
    # lists of them (joined the way the language joins lists).
    a: dict[str, int | float | str | Text | list[int | str | Text]] = Field(default_factory=dict)
    # The words of a text written before the catalogues ({"es": ..., "en": ...}), as
    # stored then; read back as they are.
    lit: dict[str, str] | None = None

    @model_validator(mode="before")
    @classmethod
    def _stored_pair(cls, data: Any) -> Any:
        # games stored before the catalogues hold their texts as {"es": ..., "en": ...}
        if isinstance(data, dict) and "m" not in data and ("es" in data or "en" in data):
            return {"lit": {k: data[k] for k in ("es", "en") if k in data}}
        return data

    @model_serializer(mode="wrap")
    def _compact(self, handler: Any) -> Any:
        # only what a text needs: states and events carry many of them
        out = handler(self)
        if isinstance(out, dict):
            return {k: v for k, v in out.items() if v not in (None, {}, "") and not (k == "d" and v == "core")}
        return out

    def get(self, locale: str | None, seats: Naming | None = None) -> str:
        """The text in ``locale``'s language (English where its catalogue lacks it).

        ``seats`` names the players: a seat's name (``seat_name``), here or in any value,
        reads as what it gives for the seat (None: the rules' own "Player 2")."""
        if seats is not None and self.d == "core" and self.c == "seat" and isinstance(self.a.get("number"), int):
            named = seats(int(self.a["number"]) - 1)
            if named is not None:
                return named
        if self.lit is not None:
            value = (locale or SOURCE).replace("-", "_")
            for candidate in (value, value.split("_")[0].lower(), SOURCE):
                if candidate in self.lit:
                    return self.lit[candidate]
            return next(iter(self.lit.values()), "")
        lang = language(locale)
        args = {k: _render(v, lang, seats) for k, v in self.a.items()}
        if self.n is not None:
            args.setdefault("n", self.n)
        if self.p is not None:
            tr = catalogues().translation(lang, self.d)
            n = self.n if self.n is not None else 1
            template = tr.npgettext(self.c, self.m, self.p, n) if self.c else tr.ngettext(self.m, self.p, n)
        elif not self.a and self.c is None and lang == SOURCE and "{" not in self.m:
            return self.m  # plain English: nothing to look up or fill in
        else:
            template = catalogues().wording(lang, self.d, self.c, self.m)
        try:
            return template.format_map(args)
        except (KeyError, IndexError, ValueError):
            # a translation naming a value the code does not give: the English, not a crash
            english = self.m if self.p is None or self.n == 1 else self.p
            return english.format_map(args)

    @property
    def es(self) -> str:
        """The text in Spanish."""
        return self.get("es")

    @property
    def en(self) -> str:
        """The text in English."""
        return self.get("en")

    def __str__(self) -> str:
        return self.en


def _render(value: Any, lang: str, seats: Naming | None = None) -> Any:
    if isinstance(value, Text):
        return value.get(lang, seats)
    if isinstance(value, int | float):
        return value  # kept a number, so a template may format it ("{delta:+d}")
    if isinstance(value, list):
        return join([_render(v, lang, seats) for v in value], lang)
    return str(value)


@lru_cache(maxsize=64)
def seat_name(seat: int) -> Text:
    """How the rules name a seat ("Player 2"): one text for every game, so the platform can
    put the player's name in its place in any language (rules.catalogue.seat_words)."""
    return Text(d="core", c="seat", m="Player {number}", a={"number": seat + 1})


def tr(es: str, en: str) -> Text:
    """A text with its own words in both languages, not in a catalogue: for tests and for
    texts stored before the catalogues. The rules write theirs with a phrase book."""
    return Text(lit={"es": es, "en": en})


def count(n: int, es: str, es_many: str, en: str, en_many: str) -> Text:
    """``n`` things with their own words in both languages (tests and old code; the rules
    count with a phrase book's ``n``)."""
    one = n == 1
    return tr(f"{n} {es if one else es_many}", f"{n} {en if one else en_many}")


# ----------------------------------------------------------------------------- errors


class RuleError(Exception):
    """A move the rules refuse; its message is fit to show a player, in es and en."""

    def __init__(self, text: Text | str, en: str | None = None) -> None:
        # a phrase book's Text; (es, en) strings only from code older than the catalogues
        self.text = text if isinstance(text, Text) else tr(text, en if en is not None else text)
        super().__init__(self.text.en)

    def message(self, locale: str | None) -> str:
        """The message in the player's language."""
        return self.text.get(locale)


class NotYourTurn(RuleError):
    """The seat has nothing to decide now."""


class IllegalAction(RuleError):
    """A well-formed action the rules do not allow now."""


class InvalidAction(RuleError):
    """An action that does not parse: unknown kind, missing or wrong fields."""


class GameOver(RuleError):
    """The game has finished; no more moves."""


class StaleAction(RuleError):
    """The action was chosen against an older version of the game."""


# ----------------------------------------------------------------------------- randomness


class Rng(BaseModel):
    """A seeded generator kept inside the state so a replay draws the same numbers."""

    seed: int
    draws: int = 0

    def _next(self) -> random.Random:
        # A fresh generator per draw keyed by (seed, draw number): the state stays two
        # integers, and replays on any machine give the same sequence.
        r = random.Random(f"{self.seed}:{self.draws}")
        self.draws += 1
        return r

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place."""
        self._next().shuffle(items)

    def randint(self, a: int, b: int) -> int:
        """A whole number from ``a`` to ``b`` inclusive."""
        return self._next().randint(a, b)

    def choice(self, items: Sequence[Any]) -> Any:
        """One element of ``items``."""
        return self._next().choice(list(items))


# ----------------------------------------------------------------------------- models


class Action(BaseModel):
    """Base of every game's actions; each concrete action has ``kind: Literal[...]``."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Prompt(BaseModel):
    """What a pending seat must decide."""

    kind: str
    text: Text


class Event(BaseModel):
    """Something that happened; ``audience`` None means everyone, else only those seats."""

    kind: str
    text: Text
    audience: list[Seat] | None = None
    data: dict[str, Any] = Field(default_factory=dict)

    def visible_to(self, seat: Seat | None) -> bool:
        """Whether ``seat`` (None: the public channel) may read this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


class Outcome(BaseModel):
    """The final result: ranking groups (ties share a group), scores, and why."""

    ranking: list[list[Seat]]
    scores: dict[Seat, float] = Field(default_factory=dict)
    reason: Text

    @property
    def winners(self) -> list[Seat]:
        """The seats ranked first."""
        return list(self.ranking[0]) if self.ranking else []


class GameState(BaseModel):
    """Common fields of every game's state."""

    num_seats: int
    version: int = 0
    rng: Rng
    finished: bool = False


class View(BaseModel):
    """What one seat (or the public, seat None) may see."""

    # What of this view comes from hidden information (hands, drawn cards, peeks, and public
    # piles fed from a shuffled deck), for the undo check: dotted paths into the view's JSON
    # ("*" walks every item of a list or value of a dict) mapped to the kind of thing they
    # show, so one card moving from the hand to the discard pile stays the same card. A path
    # ending on a list counts each item; on a dict, each key and value. None: the game
    # declares nothing, and every leaf of the seat's private part counts.
    shown: ClassVar[dict[str, str] | None] = None

    seat: Seat | None
    version: int

    def known(self, public: View | None = None) -> Counter[str]:
        """The multiset of things this view shows that come from hidden information (a second
        copy of the same card counts again). Without a declaration, the leaves of what this
        view shows beyond ``public`` (beyond nothing when not given: every leaf)."""
        data = self.model_dump(mode="json")
        if self.shown is None:
            base = public.model_dump(mode="json") if public is not None else {}
            return Counter(private_facts(data, base))
        out: Counter[str] = Counter()
        for path, kind in self.shown.items():
            for node in _walk(data, path.split(".")):
                out.update(f"{kind}:{thing}" for thing in _things(node))
        return out


def _walk(node: Any, path: list[str]) -> Iterator[Any]:
    """The nodes a dotted path of ``View.shown`` reaches (absent parts reach nothing)."""
    if not path:
        yield node
        return
    head, rest = path[0], path[1:]
    if head == "*":
        items = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for item in items:
            yield from _walk(item, rest)
    elif isinstance(node, dict) and head in node:
        yield from _walk(node[head], rest)


def _things(node: Any) -> Iterator[str]:
    """The things one node shows: each item of a list, each entry of a dict, else itself."""
    if node is None:
        return
    if isinstance(node, list):
        for item in node:
            if item is not None:
                yield json.dumps(item, sort_keys=True)
    elif isinstance(node, dict):
        for k, v in node.items():
            yield f"{k}={json.dumps(v, sort_keys=True)}"
    else:
        yield json.dumps(node, sort_keys=True)


def private_facts(mine: dict[str, Any], public: dict[str, Any]) -> list[str]:
    """The leaves of a seat's view (JSON) that the public view lacks or shows otherwise, as
    "field=value" facts named by their field but not their position: a hidden tile that
    merely moves up a slot is the same fact."""
    facts: list[str] = []
    for key, value in mine.items():
        if key not in ("seat", "version"):  # whose view and when: no fact of the game
            _diff(key, value, public.get(key), facts)
    return facts


def _diff(name: str, mine: Any, public: Any, out: list[str]) -> None:
    if mine == public:
        return
    if isinstance(mine, dict) and isinstance(public, dict):
        for k, v in mine.items():
            _diff(k, v, public.get(k), out)
    elif isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        for a, b in zip(mine, public, strict=True):
            _diff(name, a, b, out)
    elif isinstance(mine, dict):
        for k, v in mine.items():
            _diff(k, v, None, out)
    elif isinstance(mine, list):
        for v in mine:
            _diff(name, v, None, out)
    elif mine is not None:
        out.append(f"{name}={json.dumps(mine, sort_keys=True)}")


S = TypeVar("S", bound=GameState)


class Engine(Generic[S]):
    """A game. Subclasses fill the class attributes and the ``_`` hooks.

    The public methods run the shared pre-checks once, in the order of the design:
    game over, seat not pending, stale version, action schema.
    """

    id: ClassVar[str]
    title: ClassVar[Text]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # True where the rulebook draws the places around the table: the platform then seats
    # the players in an order drawn from the game's seed when it starts, not join order.
    random_seats: ClassVar[bool] = False
    options_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[GameState]]
    action_adapter: ClassVar[TypeAdapter[Any]]

    def __init__(self, ai: Callable[[Any, Any, Seat], Action] | None = None) -> None:
        # The built-in player, ``ai(engine, state, seat)``: paired with the engine by
        # rules.registry, so that a game's engine never imports its AI (which uses the engine).
        self._ai = ai

    # -- contract -----------------------------------------------------------------

    def setup(self, num_seats: int, options: BaseModel | dict[str, Any] | None, seed: int) -> S:
        """A new game for ``num_seats`` seats."""
        if not self.min_players <= num_seats <= self.max_players:
            if self.min_players == self.max_players:
                raise IllegalAction(Text(d="core", m="{game} takes {n} player.", p="{game} takes {n} players.",
                                         n=self.min_players, a={"game": self.title}))
            raise IllegalAction(Text(d="core", m="{game} takes {least}-{most} players.", a={
                "game": self.title, "least": self.min_players, "most": self.max_players}))
        opts = self.parse_options(options)
        return self._setup(num_seats, opts, seed)

    def parse_options(self, options: BaseModel | dict[str, Any] | None) -> BaseModel:
        """Validate game options; bad ones raise InvalidAction."""
        if isinstance(options, self.options_model):
            return options
        try:
            return self.options_model.model_validate(options or {})
        except ValidationError as exc:
            raise InvalidAction(
                Text(d="core", m="Invalid options: {problem}", a={"problem": _short(exc)})
            ) from exc

    def public_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """The options (as stored, JSON) as anyone may see them before the game is over; a
        game whose options hold a player's secret (a deck list) hides it here."""
        return options

    def reseat_options(self, options: dict[str, Any], seating: dict[Seat, Seat]) -> dict[str, Any]:
        """The options (JSON) once the places are drawn (``seating``: lobby seat -> seat),
        for a game whose options say something per seat; only games with ``random_seats``."""
        return options

    def pending(self, state: S) -> dict[Seat, Prompt]:
        """Who must decide now, and what."""
        if state.finished:
            return {}
        return self._pending(state)

    def legal_actions(self, state: S, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now (empty when not pending)."""
        if state.finished or seat not in self._pending(state):
            return []
        return self._legal_actions(state, seat)

    def parse_action(self, data: Any) -> Action:
        """Parse an action from JSON data; malformed input raises InvalidAction."""
        if isinstance(data, Action):
            return data
        try:
            if isinstance(data, str | bytes):
                return self.action_adapter.validate_json(data)
            return self.action_adapter.validate_python(data)
        except ValidationError as exc:
            raise InvalidAction(
                Text(d="core", m="Malformed move: {problem}", a={"problem": _short(exc)})
            ) from exc

    def apply(
        self, state: S, seat: Seat, action: Any, version: int | None = None
    ) -> tuple[S, list[Event]]:
        """Apply ``action`` by ``seat``; returns a new state and events, never mutates ``state``."""
        self.check(state, seat, version)
        act = self.parse_action(action)
        new = self.copy_state(state)
        events = self._apply(new, seat, act)
        new.version = state.version + 1
        return new, events

    def check(self, state: S, seat: Seat, version: int | None = None) -> None:
        """The shared pre-checks before any game code: over, pending, stale."""
        if state.finished:
            raise GameOver(Text(d="core", m="The game is already over."))
        if seat not in self._pending(state):
            raise NotYourTurn(Text(d="core", m="You have nothing to decide in this game right now."))
        if version is not None and version != state.version:
            raise StaleAction(
                Text(d="core", m="The game has moved on since you chose; look at the board again.")
            )

    def view(self, state: S, seat: Seat | None) -> View:
        """What ``seat`` may see (None: the public board)."""
        return self._view(state, seat)

    def outcome(self, state: S) -> Outcome | None:
        """The final result, once the game is over."""
        return self._outcome(state) if state.finished else None

    def sides(self, state: S) -> dict[Seat, Text]:
        """What each seat played as (a faction, pantheon or personality), once the game is
        over, for a server's statistics; empty where seats differ only by their order."""
        return self._sides(state) if state.finished else {}

    def ai_action(self, state: S, seat: Seat) -> Action:
        """The move a computer-controlled seat makes now: the built-in player's the registry
        paired with this engine, else the first legal one."""
        if self._ai is None:
            return self.legal_actions(state, seat)[0]
        return self._ai(self, state, seat)

    def describe(self, state: S, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, for menus and autocomplete."""
        return Text(d="core", m="{action}", a={"action": action.model_dump_json()})

    # -- serialisation --------------------------------------------------------------

    def dump_state(self, state: S) -> str:
        """State to JSON."""
        return state.model_dump_json()

    def load_state(self, data: str | bytes | dict[str, Any]) -> S:
        """State from JSON."""
        if isinstance(data, dict):
            return self.state_model.model_validate(data)  # type: ignore[return-value]
        return self.state_model.model_validate_json(data)  # type: ignore[return-value]

    def dump_action(self, action: Action) -> str:
        """Action to JSON."""
        return action.model_dump_json()

    def copy_state(self, state: S) -> S:
        """An independent copy the engine may mutate."""
        return state.model_copy(deep=True)

    # -- hooks ------------------------------------------------------------------------

    def _setup(self, num_seats: int, options: Any, seed: int) -> S:
        raise NotImplementedError

    def _pending(self, state: S) -> dict[Seat, Prompt]:
        raise NotImplementedError

    def _legal_actions(self, state: S, seat: Seat) -> list[Action]:
        raise NotImplementedError

    def _apply(self, state: S, seat: Seat, action: Action) -> list[Event]:
        raise NotImplementedError

    def _view(self, state: S, seat: Seat | None) -> View:
        raise NotImplementedError

    def _outcome(self, state: S) -> Outcome:
        raise NotImplementedError

    def _sides(self, state: S) -> dict[Seat, Text]:
        return {}


def _short(exc: ValidationError) -> str:
    """A one-line summary of a pydantic error, without echoing the whole input back."""
    errs = exc.errors()
    if not errs:
        return str(exc)
    e = errs[0]
    loc = ".".join(str(p) for p in e.get("loc", ()))
    return f"{loc}: {e.get('msg', '')}" if loc else str(e.get("msg", ""))
