"""Rey y Hierofante: the whole rulebook, the match and every variant."""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel

from rules.core import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    Prompt,
    Rng,
    Seat,
    Text,
    seat_name,
)
from rules.phrases import Phrases as BasePhrases
from rules.rey_hierofante import board as B
from rules.rey_hierofante.legal import (
    available,
    can_place,
    effect_options,
    is_placement,
    placements,
    tower_squares,
)
from rules.rey_hierofante.model import (
    ACTION_ADAPTER,
    Activate,
    BanishZone,
    Cell,
    CellView,
    ChooseStarter,
    Decline,
    Draft,
    DraftPick,
    GameRecord,
    Group,
    Line,
    Move,
    Options,
    PendingEffect,
    Place,
    Recover,
    RhState,
    RhView,
    Target,
    ZoneTile,
    ZoneTileView,
    square_name,
)
from rules.rey_hierofante.tiles import BLUE, RED, STOCK, TILES


class Phrases(BasePhrases):
    """The game's phrase book, silent while the built-in player looks ahead (``after_legal``):
    it weighs tens of moves a choice, and reads none of their texts. (Named as the base, so
    that the catalogue's scan finds ``msg = Phrases(...)`` as in every game.)"""

    def __call__(self, wording: str, /, **values: Any) -> Text:
        """The text, or one shared empty text when nobody will read it."""
        if _QUIET.get():
            return _SILENT
        return super().__call__(wording, **values)


_QUIET: ContextVar[bool] = ContextVar("rey_hierofante_quiet", default=False)
_SILENT = Text(d="rey_hierofante")
_SILENT_EVENT = Event(kind="", text=_SILENT)
msg = Phrases("rey_hierofante")


def _event(**fields: Any) -> Event:
    """An event; one shared empty event while the built-in player looks ahead."""
    if _QUIET.get():
        return _SILENT_EVENT
    return Event(**fields)

FACTION_NAME = (msg("Royalty"), msg("Religion"))
HIDDEN_VARIANTS = ("aleatorio_oculto", "draft_oculto")
DIR_NAMES: dict[str, Text] = {
    "n": msg("up"), "s": msg("down"), "e": msg("right"),
    "w": msg("left"), "ne": msg("up-right"),
    "nw": msg("up-left"), "se": msg("down-right"),
    "sw": msg("down-left"),
}


def name(tile: str) -> Text:
    """A tile's display name."""
    return TILES[tile].name


def _names(tiles: list[str]) -> Text:
    return msg("{tiles}", tiles=[TILES[t].name for t in tiles]) if tiles else msg("-")


M = TypeVar("M", bound=BaseModel)


def _clone(model: M, update: dict[str, Any] | None = None) -> M:
    """``model.model_copy(update=update)``, without pydantic's generic copying of each part
    (a move copies the board's nine cells, and the built-in player weighs tens of moves)."""
    if model.__pydantic_extra__ is not None or model.__pydantic_private__ is not None:
        return model.model_copy(update=update)
    new = object.__new__(type(model))
    fields = dict(model.__dict__)
    fields_set = set(model.__pydantic_fields_set__)
    if update:
        fields.update(update)
        fields_set.update(update)
    object.__setattr__(new, "__dict__", fields)
    object.__setattr__(new, "__pydantic_fields_set__", fields_set)
    object.__setattr__(new, "__pydantic_extra__", None)
    object.__setattr__(new, "__pydantic_private__", None)
    return new


def _seat(s: int) -> Text:
    # The text is kept once made: one made during a look-ahead (silent) must not be.
    return _SILENT if _QUIET.get() else _seat_text(s)


@lru_cache(maxsize=8)
def _seat_text(s: int) -> Text:
    return msg("{seat} ({faction})", seat=seat_name(s), faction=FACTION_NAME[s])


class RhEngine(Engine[RhState]):
    """Rey y Hierofante for two seats: seat 0 Realeza (red), seat 1 Religión (blue)."""

    id: ClassVar[str] = "rey_hierofante"
    title: ClassVar[Text] = msg("King & Hierophant")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_model = Options
    state_model = RhState
    action_adapter = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup

    def _setup(self, num_seats: int, options: Any, seed: int) -> RhState:
        rng = Rng(seed=seed)
        stock = list(STOCK)
        rng.shuffle(stock)
        state = RhState(num_seats=2, rng=rng, options=options, stock=stock)
        # The rulebook's "last player to have conquered a kingdom" starts; the bot draws lots.
        self._new_game(state, rng.randint(0, 1))
        return state

    def _draw(self, state: RhState, n: int) -> list[str]:
        """Draw up to n neutrals from the stock, reshuffling the set-aside ones if allowed."""
        out: list[str] = []
        while len(out) < n:
            if not state.stock:
                if not (state.options.reshuffle and state.used):
                    break
                state.stock = list(state.used)
                state.used = []
                state.rng.shuffle(state.stock)
            out.append(state.stock.pop())
        state.drawn.extend(out)
        return out

    def _new_game(self, state: RhState, starter: int) -> None:
        state.starter = starter
        state.turn = starter
        state.first_move = True
        state.board = [None] * 9
        state.discard = []
        state.effect = None
        state.draft = None
        state.neutral_zone = []
        state.draft_seen = [[], []]
        state.zones = [[ZoneTile(tile=t) for t in RED], [ZoneTile(tile=t) for t in BLUE]]
        state.zones[starter].append(ZoneTile(tile="ciudadano"))
        other = 1 - starter
        v = state.options.variant
        state.phase = "place"
        if v == "original":
            state.neutral_zone = self._draw(state, 5)
        elif v in ("aleatorio", "aleatorio_oculto"):
            hidden = v == "aleatorio_oculto"
            for s in (starter, other):
                state.zones[s].extend(ZoneTile(tile=t, hidden=hidden) for t in self._draw(state, 2))
        elif v == "draft":
            offer = self._draw(state, 5)
            if offer:
                state.draft = Draft(offer=offer, picker=starter)
                state.phase = "draft"
        elif v == "draft_oculto":
            offer = self._draw(state, 4)
            if offer:
                state.draft = Draft(offer=offer, picker=starter)
                state.draft_seen[starter].extend(offer)
                state.phase = "draft"

    def copy_state(self, state: RhState) -> RhState:
        """A copy deep in exactly the parts ``_apply`` mutates (a generic deep copy is 5x slower).
        The board's cells are shared with ``state``: a move that changes a cell (a destroy, a
        flip) replaces it with a copy of its own first."""
        eff, d = state.effect, state.draft
        return _clone(state, {
            "rng": _clone(state.rng),
            "board": list(state.board),
            "neutral_zone": list(state.neutral_zone),
            "zones": [list(z) for z in state.zones],
            "discard": list(state.discard), "stock": list(state.stock),
            "used": list(state.used), "drawn": list(state.drawn),
            "effect": _clone(eff, {"chain": list(eff.chain)}) if eff else None,
            "draft": _clone(d, {"offer": list(d.offer)}) if d else None,
            "draft_seen": [list(x) for x in state.draft_seen],
            "wins": list(state.wins), "points": list(state.points), "history": list(state.history),
        })

    # ------------------------------------------------------------------ pending

    def _pending(self, state: RhState) -> dict[Seat, Prompt]:
        if state.phase == "choose_starter":
            return {state.chooser: Prompt(kind="choose_starter", text=msg("You lost the previous game: choose who starts the next one."))}
        if state.phase == "draft":
            assert state.draft is not None
            return {state.draft.picker: Prompt(kind="draft_pick", text=msg("Choose a neutral tile for your area."))}
        if state.phase == "effect":
            assert state.effect is not None
            t = name(state.effect.tile)
            return {state.effect.seat: Prompt(kind="effect", text=msg("Use {t}'s effect or decline it.", t=t))}
        if state.first_move:
            return {state.turn: Prompt(kind="place", text=msg("Place the Citizen on any square."))}
        return {state.turn: Prompt(kind="place", text=msg("Place a tile from your area or from the neutral area."))}

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, state: RhState, seat: Seat) -> list[Action]:
        if state.phase == "choose_starter":
            return [ChooseStarter(starter=0), ChooseStarter(starter=1)]
        if state.phase == "draft":
            assert state.draft is not None
            return [DraftPick(tile=t) for t in dict.fromkeys(state.draft.offer)]
        if state.phase == "effect":
            return [*effect_options(state), Decline()]
        return placements(state, seat)

    # ------------------------------------------------------------------ apply

    def _apply(self, state: RhState, seat: Seat, action: Action) -> list[Event]:
        if isinstance(action, Place) and state.phase == "place":
            # A placement is checked on its own: the list of every legal one is built only
            # to say what would be legal instead.
            if not is_placement(state, seat, action):
                raise self._refusal(state, seat, action, self._legal_actions(state, seat))
        else:
            legal = self._legal_actions(state, seat)
            if action not in legal:
                raise self._refusal(state, seat, action, legal)
        return self._play(state, seat, action)

    def after_legal(self, state: RhState, seat: Seat, action: Action) -> RhState:
        """The state after ``action``, taken from ``legal_actions(state, seat)``: what
        ``apply`` gives, for the built-in player's look-ahead, without ``apply``'s checks
        (the action is legal already) and without the events' texts (nobody reads them)."""
        new = self.copy_state(state)
        token = _QUIET.set(True)
        try:
            self._play(new, seat, action)
        finally:
            _QUIET.reset(token)
        new.version = state.version + 1
        return new

    def _play(self, state: RhState, seat: Seat, action: Action) -> list[Event]:
        """Make a legal action's changes to ``state`` (a copy): the events they make."""
        if isinstance(action, ChooseStarter):
            return self._choose_starter(state, seat, action.starter)
        if isinstance(action, DraftPick):
            return self._draft_pick(state, seat, action.tile)
        if isinstance(action, Place):
            return self._place(state, seat, action)
        return self._resolve(state, seat, action)

    def _refusal(self, state: RhState, seat: int, action: Action, legal: list[Action]) -> IllegalAction:
        """Say why ``action`` is refused and what would be legal instead."""
        if state.phase == "effect" and not isinstance(action, Place):
            opts = [self.describe(state, seat, a) for a in legal[:12]]
            return IllegalAction(msg("That effect is not possible. You may: {options}.", options=opts))
        if state.phase != "place" or not isinstance(action, Place):
            prompt = self._pending(state)[seat].text
            return IllegalAction(msg("That is not what comes now. {prompt}", prompt=prompt))
        avail = available(state, seat)
        if action.tile not in avail:
            if state.first_move:
                return IllegalAction(msg("Your first move must be placing the Citizen."))
            n = _names(avail)
            return IllegalAction(msg("That tile is not available to you. You may place: {n}.", n=n))
        empty = [square_name(i) for i, c in enumerate(state.board) if c is None]
        if action.tile == "torre":
            allies = [square_name(i) for i in tower_squares(state, seat)]
            return IllegalAction(
                msg("The Tower goes on an empty square ({empty}) or on an ally of yours without a shield ({x}).", empty=', '.join(empty), x=', '.join(allies) or '-'))
        return IllegalAction(msg("That square is taken. Empty squares: {empty}.", empty=', '.join(empty)))

    def _choose_starter(self, state: RhState, seat: int, starter: int) -> list[Event]:
        self._new_game(state, starter)
        ev = [_event(kind="starter", text=msg("{seat} chooses {starter} to start. Game {game_no} begins.", seat=_seat(seat), starter=_seat(starter), game_no=state.game_no),
            data={"starter": starter})]
        return ev + self._turn_start(state)

    def _draft_pick(self, state: RhState, seat: int, tile: str) -> list[Event]:
        d = state.draft
        assert d is not None
        hidden = state.options.variant == "draft_oculto"
        d.offer.remove(tile)
        state.zones[seat].append(ZoneTile(tile=tile, hidden=hidden))
        other = 1 - seat
        if hidden:
            events = [_event(kind="draft_pick", text=msg("{seat} keeps a hidden tile.", seat=_seat(seat))),
                      _event(kind="draft_pick_private", audience=[seat], text=msg("You keep {tile}.", tile=name(tile)), data={"tile": tile})]
            if d.step in (0, 2):  # pass the rest to the other player
                state.draft_seen[other].extend(d.offer)
                state.draft = Draft(offer=d.offer, picker=other, step=d.step + 1)
            elif d.step == 1:  # the rest is set aside unseen; the second player draws four
                offer = self._draw(state, 4)
                if offer:
                    state.draft_seen[seat].extend(offer)
                    state.draft = Draft(offer=offer, picker=seat, step=2)
                else:
                    self._end_draft(state)
            else:
                self._end_draft(state)
            if state.draft is not None and not state.draft.offer:
                self._end_draft(state)
            return events + (self._turn_start(state) if state.phase == "place" else [])
        events = [_event(kind="draft_pick", text=msg("{seat} takes {tile}.", seat=_seat(seat), tile=name(tile)),
                        data={"tile": tile})]
        if d.step == 2:
            # the second player takes the last two
            for t in d.offer:
                state.zones[other].append(ZoneTile(tile=t))
            if d.offer:
                events.append(_event(kind="draft_pick", text=msg("{other} gets {offer}.", other=_seat(other), offer=_names(d.offer)), data={"tiles": list(d.offer)}))
            d.offer = []
        else:
            d.picker, d.step = other, d.step + 1
        if not d.offer:
            self._end_draft(state)
            return events + self._turn_start(state)
        return events

    def _end_draft(self, state: RhState) -> None:
        state.draft = None
        state.phase = "place"

    def _place(self, state: RhState, seat: int, action: Place) -> list[Event]:
        tile, sq = action.tile, action.square
        hidden_src = self._take(state, seat, tile)
        prev = state.board[sq]
        state.first_move = False
        if prev is not None:  # only a Torre may be placed on a tile: it covers an ally
            state.board[sq] = Cell(tile=tile, owner=seat, covered=prev.tile)
            return [_event(kind="place", text=msg("{seat} places the Tower on {tile} at {sq}.", seat=_seat(seat), tile=name(prev.tile), sq=square_name(sq)),
                data={"tile": tile, "square": sq, "covered": prev.tile, "revealed": hidden_src})
            ] + self._end_turn(state, seat)
        state.board[sq] = Cell(tile=tile, owner=seat)
        events = [_event(kind="place", text=msg("{seat} places {tile} at {sq}.", seat=_seat(seat), tile=name(tile), sq=square_name(sq)),
            data={"tile": tile, "square": sq, "revealed": hidden_src})]
        t = TILES[tile]
        if t.kind == "active":
            # A tile that arrives with a shield (beside a Sabio) is "objeto de ningún efecto":
            # the Chamán's or Hechicera's cancelling does not reach it.
            if B.cancelled_at(state, sq) and not B.shielded(state, sq):
                events.append(_event(kind="cancelled", text=msg("{tile}'s effect is cancelled.", tile=name(tile))))
            else:
                full = all(c is not None for c in state.board)
                state.effect = PendingEffect(seat=seat, source=sq, origin=sq, tile=tile, fills_board=full)
                if effect_options(state):
                    state.phase = "effect"
                    return events
                state.effect = None
        return events + self._end_turn(state, seat)

    def _take(self, state: RhState, seat: int, tile: str) -> bool:
        """Remove ``tile`` from the seat's area (first) or the neutral area; True if it was hidden."""
        for i, z in enumerate(state.zones[seat]):
            if z.tile == tile:
                del state.zones[seat][i]
                return z.hidden
        state.neutral_zone.remove(tile)
        return False

    def _resolve(self, state: RhState, seat: int, action: Action) -> list[Event]:
        eff = state.effect
        assert eff is not None
        t = TILES[eff.tile]
        who = _seat(seat)
        if isinstance(action, Decline):
            state.effect = None
            return [_event(kind="decline", text=msg("{who} does not use the effect.", who=who))] + self._end_turn(state, seat)
        events: list[Event] = []
        if t.effect == "copy" and isinstance(action, Target):
            copied = state.board[action.square]
            assert copied is not None
            eff.tile = copied.tile
            eff.chain.append(action.square)
            events.append(_event(kind="copy", text=msg("{who} repeats {tile}'s effect ({square}).", who=who, tile=name(copied.tile), square=square_name(action.square))))
            if effect_options(state):
                return events
            state.effect = None
            return events + self._end_turn(state, seat)
        if isinstance(action, Target):
            sq = action.square
            cell = state.board[sq]
            assert cell is not None
            if t.effect == "destroy":
                cell = state.board[sq] = _clone(cell)  # the cells are shared: see copy_state
                cell.face_up = False
                cell.destroyed_by = seat
                events.append(self._ev("destroy", msg("{seat} destroys {tile} at {sq}.", seat=_seat(seat), tile=name(cell.tile), sq=square_name(sq))))
            elif t.effect == "banish":
                self._to_discard(state, sq)
                events.append(self._ev("banish", msg("{seat} banishes {tile} from {sq}.", seat=_seat(seat), tile=name(cell.tile), sq=square_name(sq))))
            elif t.effect == "flip":
                events.append(self._flip(state, seat, [sq]))
            elif t.effect == "return":
                state.board[sq] = None
                state.zones[seat].append(ZoneTile(tile=cell.tile))
                events.append(self._ev("return", msg("{seat} takes {tile} back to their area.", seat=_seat(seat), tile=name(cell.tile))))
        elif isinstance(action, Group):
            events.append(self._flip(state, seat, B.neighbours(eff.origin, action.group)))
        elif isinstance(action, Line):
            events.append(self._flip(state, seat, B.line(eff.origin, action.direction)))
        elif isinstance(action, Activate):
            sqs = B.front3(eff.origin, seat) if t.reach == "front3" else B.neighbours(eff.origin, "adj8")
            events.append(self._flip(state, seat, sqs))
        elif isinstance(action, Move):
            state.board[action.dest] = state.board[action.source]
            state.board[action.source] = None
            moved = state.board[action.dest]
            assert moved is not None
            events.append(self._ev("move", msg("{seat} moves {tile} from {source} to {dest}.", seat=_seat(seat), tile=name(moved.tile), source=square_name(action.source), dest=square_name(action.dest))))
        elif isinstance(action, BanishZone):
            z = state.zones[1 - seat].pop(action.slot)
            state.discard.append(z.tile)
            events.append(self._ev("banish_zone", msg("{seat} banishes {tile} from the opponent's area.", seat=_seat(seat), tile=name(z.tile))))
        elif isinstance(action, Recover):
            state.discard.remove(action.tile)
            state.zones[seat].append(ZoneTile(tile=action.tile))
            events.append(self._ev("recover", msg("{seat} takes {tile} from the discard pile.", seat=_seat(seat), tile=name(action.tile))))
        state.effect = None
        return events + self._end_turn(state, seat)

    def _ev(self, kind: str, text: Text) -> Event:
        return _event(kind=kind, text=text)

    def _flip(self, state: RhState, seat: int, squares: Sequence[int]) -> Event:
        """Turn every targetable tile on ``squares`` round; immune ones stay as they are."""
        flipped = [s for s in squares if B.targetable(state, s)]
        for s in flipped:
            cell = state.board[s]
            assert cell is not None
            cell = state.board[s] = _clone(cell)  # the cells are shared: see copy_state
            cell.owner = 1 - cell.owner
        where = ", ".join(square_name(s) for s in flipped)
        return _event(kind="flip", text=msg("{seat} flips {where}.", seat=_seat(seat), where=where),
                     data={"squares": flipped})

    def _to_discard(self, state: RhState, sq: int) -> None:
        cell = state.board[sq]
        assert cell is not None
        state.discard.append(cell.tile)
        if cell.covered:
            state.discard.append(cell.covered)
        state.board[sq] = None

    # ------------------------------------------------------------------ turns and games

    def _end_turn(self, state: RhState, seat: int) -> list[Event]:
        state.phase = "place"
        state.effect = None
        if all(c is not None and c.face_up for c in state.board):
            return self._end_game(state, "board_full")
        state.turn = 1 - seat
        return self._turn_start(state)

    def _turn_start(self, state: RhState) -> list[Event]:
        """Start of ``state.turn``'s turn: their destroyed tiles leave; no tile to place loses."""
        if state.phase != "place":
            return []
        s = state.turn
        events: list[Event] = []
        for i, c in enumerate(state.board):
            if c is not None and not c.face_up and c.destroyed_by == s:
                self._to_discard(state, i)
                events.append(_event(kind="removed", text=msg("The destroyed tile leaves {i}.", i=square_name(i))))
        if not can_place(state, s):
            return events + self._end_game(state, "no_tile", loser=s)
        return events

    def _end_game(self, state: RhState, reason: str, loser: int | None = None) -> list[Event]:
        al = B.allies(state)
        if loser is None:
            death = [c.owner for c in state.board if B.powered(c, "muerte")]
            if death:
                loser, reason = death[0], "death"
            else:
                loser = 0 if al[0] < al[1] else 1
        winner = 1 - loser
        pts = [0, 0]
        pts[winner] = al[winner]
        # Losing to Muerte or by having no tile to place scores nothing (rulebook, points system).
        pts[loser] = 0 if reason in ("death", "no_tile") else al[loser]
        state.history.append(GameRecord(winner=winner, allies=al, points=pts, reason=reason))
        state.wins[winner] += 1
        for s in (0, 1):
            state.points[s] += pts[s]
        state.used.extend(state.drawn)
        state.drawn = []
        why = {
            "board_full": msg("the board is full ({al} to {al2} allies)", al=al[0], al2=al[1]),
            "death": msg("Death is the loser's ally"),
            "no_tile": msg("the loser has no tile to place"),
        }[reason]
        events = [_event(kind="game_end", text=msg("Game {game_no} is over: {winner} wins; {why}.", game_no=state.game_no, winner=_seat(winner), why=why),
            data={"winner": winner, "reason": reason, "allies": al, "points": pts})]
        o = state.options
        done = (state.wins[winner] >= o.wins_needed) if o.scoring == "match" else state.game_no >= o.games
        if done:
            state.finished = True
            res = self._outcome(state)
            events.append(_event(kind="match_end", text=msg("The match is over: {reason}", reason=res.reason)))
            return events
        state.game_no += 1
        state.phase = "choose_starter"
        state.chooser = loser
        state.effect = None
        return events

    # ------------------------------------------------------------------ views and outcome

    def _view(self, state: RhState, seat: Seat | None) -> RhView:
        hidden_to = lambda owner: seat != owner  # noqa: E731
        zones = [
            [ZoneTileView(slot=i, tile=None if z.hidden and hidden_to(s) else z.tile, hidden=z.hidden)
             for i, z in enumerate(state.zones[s])]
            for s in (0, 1)
        ]
        board = [
            None if c is None else CellView(
                tile=c.tile if c.face_up else None, owner=c.owner, face_up=c.face_up,
                shielded=B.shielded(state, i), covered=c.covered if c.face_up else None,
                destroyed_by=c.destroyed_by)
            for i, c in enumerate(state.board)
        ]
        d = state.draft
        offer = None
        if d is not None and (state.options.variant == "draft" or seat == d.picker):
            offer = list(d.offer)
        return RhView(
            seat=seat, version=state.version, options=state.options, phase=state.phase,
            game_no=state.game_no, starter=state.starter, turn=state.turn,
            to_act=sorted(self.pending(state)), board=board, neutral_zone=list(state.neutral_zone),
            zones=zones, discard=list(state.discard), stock_count=len(state.stock),
            effect=state.effect, draft_offer=offer, draft_picker=d.picker if d else None,
            draft_seen=list(state.draft_seen[seat]) if seat is not None else [],
            wins=list(state.wins), points=list(state.points), history=list(state.history),
            finished=state.finished, allies=B.allies(state),
        )

    def _sides(self, state: RhState) -> dict[Seat, Text]:
        return {s: FACTION_NAME[s] for s in range(min(state.num_seats, len(FACTION_NAME)))}

    def _outcome(self, state: RhState) -> Outcome:
        o = state.options
        if o.scoring == "match":
            w = 0 if state.wins[0] > state.wins[1] else 1
            return Outcome(ranking=[[w], [1 - w]], scores={0: state.wins[0], 1: state.wins[1]},
                           reason=msg("{w} wins {wins} to {wins2}.", w=_seat(w), wins=state.wins[w], wins2=state.wins[1 - w]))
        p = state.points
        if p[0] == p[1]:
            return Outcome(ranking=[[0, 1]], scores={0: p[0], 1: p[1]},
                           reason=msg("a draw at {p} points.", p=p[0]))
        w = 0 if p[0] > p[1] else 1
        return Outcome(ranking=[[w], [1 - w]], scores={0: p[0], 1: p[1]},
                       reason=msg("{w} wins with {p} points to {p2}.", w=_seat(w), p=p[w], p2=p[1 - w]))

    # ------------------------------------------------------------------ labels

    def describe(self, state: RhState, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, in both languages."""
        a = action
        if isinstance(a, ChooseStarter):
            return msg("{starter} starts", starter=_seat(a.starter))
        if isinstance(a, DraftPick):
            return msg("Keep {tile}", tile=name(a.tile))
        if isinstance(a, Place):
            cell = state.board[a.square]
            if cell is not None:
                return msg("Tower on {tile} at {square}", tile=name(cell.tile), square=square_name(a.square))
            return msg("{tile} at {square}", tile=name(a.tile), square=square_name(a.square))
        if isinstance(a, Decline):
            return msg("Do not use the effect")
        eff = state.effect
        if isinstance(a, Target) and eff is not None:
            cell = state.board[a.square]
            tn = name(cell.tile) if cell is not None else msg("?")
            square = square_name(a.square)
            effect = TILES[eff.tile].effect
            if effect == "destroy":
                return msg("Destroy {tile} at {square}", tile=tn, square=square)
            if effect == "banish":
                return msg("Banish {tile} at {square}", tile=tn, square=square)
            if effect == "flip":
                return msg("Flip {tile} at {square}", tile=tn, square=square)
            if effect == "copy":
                return msg("Copy {tile} at {square}", tile=tn, square=square)
            if effect == "return":
                return msg("Take back {tile} at {square}", tile=tn, square=square)
            return msg("Choose {tile} at {square}", tile=tn, square=square)
        if isinstance(a, Group):
            return msg("Flip the orthogonal ones") if a.group == "orth" else msg("Flip the diagonal ones")
        if isinstance(a, Line):
            d = DIR_NAMES[a.direction]
            return msg("Flip the line going {d}", d=d)
        if isinstance(a, Activate):
            return msg("Use the effect")
        if isinstance(a, Move):
            cell = state.board[a.source]
            tn = name(cell.tile) if cell is not None else msg("?")
            return msg("Move {tn} from {source} to {dest}", tn=tn, source=square_name(a.source), dest=square_name(a.dest))
        if isinstance(a, BanishZone):
            z = state.zones[1 - seat][a.slot]
            if z.hidden:
                return msg("Banish hidden tile #{x}", x=a.slot + 1)
            return msg("Banish {tile} from their area", tile=name(z.tile))
        if isinstance(a, Recover):
            return msg("Take back {tile}", tile=name(a.tile))
        return super().describe(state, seat, a)
