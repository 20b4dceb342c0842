"""Rey y Hierofante: the whole rulebook, the match and every variant."""

from __future__ import annotations

from typing import Any, ClassVar

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
    tr,
)
from rules.rey_hierofante import board as B
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

FACTION_NAME = (tr("Realeza", "Royalty"), tr("Religión", "Religion"))
HIDDEN_VARIANTS = ("aleatorio_oculto", "draft_oculto")
DIR_NAMES: dict[str, Text] = {
    "n": tr("arriba", "up"), "s": tr("abajo", "down"), "e": tr("derecha", "right"),
    "w": tr("izquierda", "left"), "ne": tr("arriba-derecha", "up-right"),
    "nw": tr("arriba-izquierda", "up-left"), "se": tr("abajo-derecha", "down-right"),
    "sw": tr("abajo-izquierda", "down-left"),
}


def name(tile: str) -> Text:
    """A tile's display name."""
    t = TILES[tile]
    return tr(t.es, t.en)


def _names(tiles: list[str]) -> Text:
    return tr(", ".join(TILES[t].es for t in tiles) or "-", ", ".join(TILES[t].en for t in tiles) or "-")


def _seat(s: int) -> Text:
    return tr(f"Jugador {s + 1} ({FACTION_NAME[s].es})", f"Player {s + 1} ({FACTION_NAME[s].en})")


class RhEngine(Engine[RhState]):
    """Rey y Hierofante for two seats: seat 0 Realeza (red), seat 1 Religión (blue)."""

    id: ClassVar[str] = "rey_hierofante"
    title: ClassVar[Text] = tr("Rey y Hierofante", "King & Hierophant")
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
        """A copy deep in exactly the parts ``_apply`` mutates (a generic deep copy is 5x slower)."""
        eff, d = state.effect, state.draft
        return state.model_copy(update={
            "rng": state.rng.model_copy(),
            "board": [c.model_copy() if c is not None else None for c in state.board],
            "neutral_zone": list(state.neutral_zone),
            "zones": [list(z) for z in state.zones],
            "discard": list(state.discard), "stock": list(state.stock),
            "used": list(state.used), "drawn": list(state.drawn),
            "effect": eff.model_copy(update={"chain": list(eff.chain)}) if eff else None,
            "draft": d.model_copy(update={"offer": list(d.offer)}) if d else None,
            "draft_seen": [list(x) for x in state.draft_seen],
            "wins": list(state.wins), "points": list(state.points), "history": list(state.history),
        })

    # ------------------------------------------------------------------ pending

    def _pending(self, state: RhState) -> dict[Seat, Prompt]:
        if state.phase == "choose_starter":
            return {state.chooser: Prompt(kind="choose_starter", text=tr(
                "Perdiste la partida anterior: elige quién empieza la siguiente.",
                "You lost the previous game: choose who starts the next one."))}
        if state.phase == "draft":
            assert state.draft is not None
            return {state.draft.picker: Prompt(kind="draft_pick", text=tr(
                "Elige una loseta neutral para tu zona.", "Choose a neutral tile for your area."))}
        if state.phase == "effect":
            assert state.effect is not None
            t = name(state.effect.tile)
            return {state.effect.seat: Prompt(kind="effect", text=tr(
                f"Usa el efecto de {t.es} o renuncia a él.",
                f"Use {t.en}'s effect or decline it."))}
        if state.first_move:
            return {state.turn: Prompt(kind="place", text=tr(
                "Coloca el Ciudadano en cualquier casilla.", "Place the Citizen on any square."))}
        return {state.turn: Prompt(kind="place", text=tr(
            "Coloca una loseta de tu zona o de la zona neutral.",
            "Place a tile from your area or from the neutral area."))}

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, state: RhState, seat: Seat) -> list[Action]:
        if state.phase == "choose_starter":
            return [ChooseStarter(starter=0), ChooseStarter(starter=1)]
        if state.phase == "draft":
            assert state.draft is not None
            return [DraftPick(tile=t) for t in dict.fromkeys(state.draft.offer)]
        if state.phase == "effect":
            return [*self._effect_options(state), Decline()]
        return self._placements(state, seat)

    def _available(self, state: RhState, seat: int) -> list[str]:
        """Tiles ``seat`` may place: their area, then the neutral area."""
        if state.first_move:
            return ["ciudadano"]
        out = [z.tile for z in state.zones[seat]] + list(state.neutral_zone)
        return list(dict.fromkeys(out))

    def _placements(self, state: RhState, seat: int) -> list[Action]:
        empty = [i for i, c in enumerate(state.board) if c is None]
        out: list[Action] = []
        for tile in self._available(state, seat):
            out.extend(Place(tile=tile, square=sq) for sq in empty)
            if tile == "torre":
                out.extend(Place(tile=tile, square=sq) for sq in self._tower_squares(state, seat))
        return out

    def _tower_squares(self, state: RhState, seat: int) -> list[int]:
        """Allies the Torre may cover: face up, yours, no shield, and not where it is cancelled."""
        return [
            i for i, c in enumerate(state.board)
            if c is not None and c.owner == seat and B.targetable(state, i)
            and not B.cancelled_at(state, i)
        ]

    def _effect_options(self, state: RhState, eff: PendingEffect | None = None) -> list[Action]:
        """Every complete way to use the pending effect (declining is added by the caller)."""
        eff = eff or state.effect
        assert eff is not None
        t = TILES[eff.tile]
        o, seat = eff.origin, eff.seat
        tg = B.targetable
        if t.effect == "destroy":
            if eff.fills_board:
                return []  # the rulebook: no destruction when the placement fills the board
            reach = B.neighbours(o, t.reach)
            if eff.tile == "pirata":
                return [Target(square=s) for s in reach if B.shielded(state, s)]
            return [Target(square=s) for s in reach if tg(state, s)]
        if t.effect == "banish" or (t.effect == "flip" and not t.many):
            return [Target(square=s) for s in B.neighbours(o, t.reach) if tg(state, s)]
        if t.effect == "flip":
            if t.reach == "group":
                return [Group(group=g) for g in ("orth", "diag")
                        if any(tg(state, s) for s in B.neighbours(o, g))]
            if t.reach == "line":
                return [Line(direction=d) for d in B.DIRS  # type: ignore[arg-type]
                        if any(tg(state, s) for s in B.line(o, d))]
            squares = B.front3(o, seat) if t.reach == "front3" else B.neighbours(o, "adj8")
            return [Activate()] if any(tg(state, s) for s in squares) else []
        if t.effect == "move":
            empty = [i for i, c in enumerate(state.board) if c is None]
            return [Move(source=s, dest=d) for s in range(9)
                    if s != eff.source and tg(state, s) for d in empty]
        if t.effect == "copy":
            out: list[Action] = []
            for s in B.neighbours(o, t.reach):
                if s in eff.chain or s == eff.source or not tg(state, s):
                    continue
                copied = state.board[s]
                assert copied is not None
                ct = TILES[copied.tile]
                if ct.kind != "active" or ct.effect == "cover":
                    continue
                nxt = eff.model_copy(update={"tile": copied.tile, "chain": [*eff.chain, s]})
                if self._effect_options(state, nxt):
                    out.append(Target(square=s))
            return out
        if t.effect == "banish_zone":
            return [BanishZone(slot=i) for i in range(len(state.zones[1 - seat]))]
        if t.effect == "recover":
            return [Recover(tile=x) for x in dict.fromkeys(state.discard)]
        if t.effect == "return":
            return [Target(square=s) for s in range(9)
                    if s != eff.source and tg(state, s) and state.board[s].owner == seat]  # type: ignore[union-attr]
        return []

    # ------------------------------------------------------------------ apply

    def _apply(self, state: RhState, seat: Seat, action: Action) -> list[Event]:
        legal = self._legal_actions(state, seat)
        if action not in legal:
            raise self._refusal(state, seat, action, legal)
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
            opts = "; ".join(self.describe(state, seat, a).es for a in legal[:12])
            opts_en = "; ".join(self.describe(state, seat, a).en for a in legal[:12])
            return IllegalAction(f"Ese efecto no es posible. Puedes: {opts}.",
                                 f"That effect is not possible. You may: {opts_en}.")
        if state.phase != "place" or not isinstance(action, Place):
            prompt = self._pending(state)[seat].text
            return IllegalAction(f"Ahora no toca eso. {prompt.es}", f"That is not what comes now. {prompt.en}")
        avail = self._available(state, seat)
        if action.tile not in avail:
            if state.first_move:
                return IllegalAction("Tu primera jugada debe ser colocar el Ciudadano.",
                                     "Your first move must be placing the Citizen.")
            n = _names(avail)
            return IllegalAction(f"No tienes esa loseta a mano. Puedes colocar: {n.es}.",
                                 f"That tile is not available to you. You may place: {n.en}.")
        empty = [square_name(i) for i, c in enumerate(state.board) if c is None]
        if action.tile == "torre":
            allies = [square_name(i) for i in self._tower_squares(state, seat)]
            return IllegalAction(
                f"La Torre va en una casilla libre ({', '.join(empty)}) o sobre un aliado tuyo sin escudo ({', '.join(allies) or '-'}).",
                f"The Tower goes on an empty square ({', '.join(empty)}) or on an ally of yours without a shield ({', '.join(allies) or '-'}).")
        return IllegalAction(f"Esa casilla está ocupada. Casillas libres: {', '.join(empty)}.",
                             f"That square is taken. Empty squares: {', '.join(empty)}.")

    def _choose_starter(self, state: RhState, seat: int, starter: int) -> list[Event]:
        self._new_game(state, starter)
        ev = [Event(kind="starter", text=tr(
            f"{_seat(seat).es} elige que empiece {_seat(starter).es}. Empieza la partida {state.game_no}.",
            f"{_seat(seat).en} chooses {_seat(starter).en} to start. Game {state.game_no} begins."),
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
            events = [Event(kind="draft_pick", text=tr(f"{_seat(seat).es} se queda una loseta oculta.",
                                                       f"{_seat(seat).en} keeps a hidden tile.")),
                      Event(kind="draft_pick_private", audience=[seat], text=tr(
                          f"Te quedas {name(tile).es}.", f"You keep {name(tile).en}."), data={"tile": tile})]
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
        events = [Event(kind="draft_pick", text=tr(f"{_seat(seat).es} elige {name(tile).es}.",
                                                   f"{_seat(seat).en} takes {name(tile).en}."),
                        data={"tile": tile})]
        if d.step == 2:
            # the second player takes the last two
            for t in d.offer:
                state.zones[other].append(ZoneTile(tile=t))
            if d.offer:
                events.append(Event(kind="draft_pick", text=tr(
                    f"{_seat(other).es} se queda {_names(d.offer).es}.",
                    f"{_seat(other).en} gets {_names(d.offer).en}."), data={"tiles": list(d.offer)}))
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
            return [Event(kind="place", text=tr(
                f"{_seat(seat).es} coloca la Torre sobre {name(prev.tile).es} en {square_name(sq)}.",
                f"{_seat(seat).en} places the Tower on {name(prev.tile).en} at {square_name(sq)}."),
                data={"tile": tile, "square": sq, "covered": prev.tile, "revealed": hidden_src})
            ] + self._end_turn(state, seat)
        state.board[sq] = Cell(tile=tile, owner=seat)
        events = [Event(kind="place", text=tr(
            f"{_seat(seat).es} coloca {name(tile).es} en {square_name(sq)}.",
            f"{_seat(seat).en} places {name(tile).en} at {square_name(sq)}."),
            data={"tile": tile, "square": sq, "revealed": hidden_src})]
        t = TILES[tile]
        if t.kind == "active":
            # A tile that arrives with a shield (beside a Sabio) is "objeto de ningún efecto":
            # the Chamán's or Hechicera's cancelling does not reach it.
            if B.cancelled_at(state, sq) and not B.shielded(state, sq):
                events.append(Event(kind="cancelled", text=tr(
                    f"El efecto de {name(tile).es} queda anulado.",
                    f"{name(tile).en}'s effect is cancelled.")))
            else:
                full = all(c is not None for c in state.board)
                state.effect = PendingEffect(seat=seat, source=sq, origin=sq, tile=tile, fills_board=full)
                if self._effect_options(state):
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
            return [Event(kind="decline", text=tr(f"{who.es} no usa el efecto.",
                                                  f"{who.en} does not use the effect."))] + self._end_turn(state, seat)
        events: list[Event] = []
        if t.effect == "copy" and isinstance(action, Target):
            copied = state.board[action.square]
            assert copied is not None
            eff.tile = copied.tile
            eff.chain.append(action.square)
            events.append(Event(kind="copy", text=tr(
                f"{who.es} repite el efecto de {name(copied.tile).es} ({square_name(action.square)}).",
                f"{who.en} repeats {name(copied.tile).en}'s effect ({square_name(action.square)}).")))
            if self._effect_options(state):
                return events
            state.effect = None
            return events + self._end_turn(state, seat)
        if isinstance(action, Target):
            sq = action.square
            cell = state.board[sq]
            assert cell is not None
            if t.effect == "destroy":
                cell.face_up = False
                cell.destroyed_by = seat
                events.append(self._ev("destroy", seat, f"destruye {name(cell.tile).es} en {square_name(sq)}",
                                       f"destroys {name(cell.tile).en} at {square_name(sq)}"))
            elif t.effect == "banish":
                self._to_discard(state, sq)
                events.append(self._ev("banish", seat, f"destierra {name(cell.tile).es} de {square_name(sq)}",
                                       f"banishes {name(cell.tile).en} from {square_name(sq)}"))
            elif t.effect == "flip":
                events.append(self._flip(state, seat, [sq]))
            elif t.effect == "return":
                state.board[sq] = None
                state.zones[seat].append(ZoneTile(tile=cell.tile))
                events.append(self._ev("return", seat, f"devuelve {name(cell.tile).es} a su zona",
                                       f"takes {name(cell.tile).en} back to their area"))
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
            events.append(self._ev("move", seat,
                                   f"lleva {name(moved.tile).es} de {square_name(action.source)} a {square_name(action.dest)}",
                                   f"moves {name(moved.tile).en} from {square_name(action.source)} to {square_name(action.dest)}"))
        elif isinstance(action, BanishZone):
            z = state.zones[1 - seat].pop(action.slot)
            state.discard.append(z.tile)
            events.append(self._ev("banish_zone", seat, f"destierra {name(z.tile).es} de la zona rival",
                                   f"banishes {name(z.tile).en} from the opponent's area"))
        elif isinstance(action, Recover):
            state.discard.remove(action.tile)
            state.zones[seat].append(ZoneTile(tile=action.tile))
            events.append(self._ev("recover", seat, f"recupera {name(action.tile).es} de los descartes",
                                   f"takes {name(action.tile).en} from the discard pile"))
        state.effect = None
        return events + self._end_turn(state, seat)

    def _ev(self, kind: str, seat: int, es: str, en: str) -> Event:
        return Event(kind=kind, text=tr(f"{_seat(seat).es} {es}.", f"{_seat(seat).en} {en}."))

    def _flip(self, state: RhState, seat: int, squares: list[int]) -> Event:
        """Turn every targetable tile on ``squares`` round; immune ones stay as they are."""
        flipped = [s for s in squares if B.targetable(state, s)]
        for s in flipped:
            cell = state.board[s]
            assert cell is not None
            cell.owner = 1 - cell.owner
        where = ", ".join(square_name(s) for s in flipped)
        return Event(kind="flip", text=tr(f"{_seat(seat).es} gira {where}.", f"{_seat(seat).en} flips {where}."),
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
                events.append(Event(kind="removed", text=tr(
                    f"Se retira la loseta destruida de {square_name(i)}.",
                    f"The destroyed tile leaves {square_name(i)}.")))
        if not self._placements(state, s):
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
            "board_full": tr(f"el tablero está lleno ({al[0]} a {al[1]} aliados)",
                             f"the board is full ({al[0]} to {al[1]} allies)"),
            "death": tr("la Muerte es aliada del perdedor", "Death is the loser's ally"),
            "no_tile": tr("el perdedor no tiene loseta que colocar", "the loser has no tile to place"),
        }[reason]
        events = [Event(kind="game_end", text=tr(
            f"Fin de la partida {state.game_no}: gana {_seat(winner).es}; {why.es}.",
            f"Game {state.game_no} is over: {_seat(winner).en} wins; {why.en}."),
            data={"winner": winner, "reason": reason, "allies": al, "points": pts})]
        o = state.options
        done = (state.wins[winner] >= o.wins_needed) if o.scoring == "match" else state.game_no >= o.games
        if done:
            state.finished = True
            res = self._outcome(state)
            events.append(Event(kind="match_end", text=tr(f"Fin del encuentro: {res.reason.es}",
                                                          f"The match is over: {res.reason.en}")))
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

    def _outcome(self, state: RhState) -> Outcome:
        o = state.options
        if o.scoring == "match":
            w = 0 if state.wins[0] > state.wins[1] else 1
            return Outcome(ranking=[[w], [1 - w]], scores={0: state.wins[0], 1: state.wins[1]},
                           reason=tr(f"gana {_seat(w).es} por {state.wins[w]} a {state.wins[1 - w]}.",
                                     f"{_seat(w).en} wins {state.wins[w]} to {state.wins[1 - w]}."))
        p = state.points
        if p[0] == p[1]:
            return Outcome(ranking=[[0, 1]], scores={0: p[0], 1: p[1]},
                           reason=tr(f"empate a {p[0]} puntos.", f"a draw at {p[0]} points."))
        w = 0 if p[0] > p[1] else 1
        return Outcome(ranking=[[w], [1 - w]], scores={0: p[0], 1: p[1]},
                       reason=tr(f"gana {_seat(w).es} con {p[w]} puntos contra {p[1 - w]}.",
                                 f"{_seat(w).en} wins with {p[w]} points to {p[1 - w]}."))

    # ------------------------------------------------------------------ labels and AI

    def describe(self, state: RhState, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, in both languages."""
        a = action
        if isinstance(a, ChooseStarter):
            return tr(f"Empieza {_seat(a.starter).es}", f"{_seat(a.starter).en} starts")
        if isinstance(a, DraftPick):
            return tr(f"Quedarme {name(a.tile).es}", f"Keep {name(a.tile).en}")
        if isinstance(a, Place):
            cell = state.board[a.square]
            if cell is not None:
                return tr(f"Torre sobre {name(cell.tile).es} en {square_name(a.square)}",
                          f"Tower on {name(cell.tile).en} at {square_name(a.square)}")
            return tr(f"{name(a.tile).es} en {square_name(a.square)}", f"{name(a.tile).en} at {square_name(a.square)}")
        if isinstance(a, Decline):
            return tr("No usar el efecto", "Do not use the effect")
        eff = state.effect
        verb = {"destroy": ("Destruir", "Destroy"), "banish": ("Desterrar", "Banish"),
                "flip": ("Girar", "Flip"), "copy": ("Copiar", "Copy"),
                "return": ("Devolver a tu zona", "Take back"), }
        if isinstance(a, Target) and eff is not None:
            v = verb.get(TILES[eff.tile].effect, ("Elegir", "Choose"))
            cell = state.board[a.square]
            tn = name(cell.tile) if cell is not None else tr("?", "?")
            return tr(f"{v[0]} {tn.es} en {square_name(a.square)}", f"{v[1]} {tn.en} at {square_name(a.square)}")
        if isinstance(a, Group):
            return tr("Girar las ortogonales" if a.group == "orth" else "Girar las diagonales",
                      "Flip the orthogonal ones" if a.group == "orth" else "Flip the diagonal ones")
        if isinstance(a, Line):
            d = DIR_NAMES[a.direction]
            return tr(f"Girar la línea hacia {d.es}", f"Flip the line going {d.en}")
        if isinstance(a, Activate):
            return tr("Usar el efecto", "Use the effect")
        if isinstance(a, Move):
            cell = state.board[a.source]
            tn = name(cell.tile) if cell is not None else tr("?", "?")
            return tr(f"Llevar {tn.es} de {square_name(a.source)} a {square_name(a.dest)}",
                      f"Move {tn.en} from {square_name(a.source)} to {square_name(a.dest)}")
        if isinstance(a, BanishZone):
            z = state.zones[1 - seat][a.slot]
            if z.hidden:
                return tr(f"Desterrar la loseta oculta n.º {a.slot + 1}", f"Banish hidden tile #{a.slot + 1}")
            return tr(f"Desterrar {name(z.tile).es} de la zona rival", f"Banish {name(z.tile).en} from their area")
        if isinstance(a, Recover):
            return tr(f"Recuperar {name(a.tile).es}", f"Take back {name(a.tile).en}")
        return super().describe(state, seat, a)

    def ai_action(self, state: RhState, seat: Seat) -> Action:
        """The built-in opponent's move (see rules/rey_hierofante/ai.py)."""
        from rules.rey_hierofante.ai import choose

        return choose(self, state, seat)
