"""Ragami: the engine that ties setup, rounds, turns, views and labels together."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

from rules.core import Action, Engine, Event, IllegalAction, Outcome, Prompt, Seat, Text, tr
from rules.ragami import turn as T
from rules.ragami.cards import card_name
from rules.ragami.city import BUILDINGS, SQUARES, node_name
from rules.ragami.flow import advance, arrangements, new_game, outcome
from rules.ragami.model import (
    ACTION_ADAPTER,
    Adjust,
    Arrange,
    Cancel,
    CashCard,
    Commit,
    ConflictView,
    Convert,
    Discard,
    Done,
    EndTurn,
    Keep,
    Options,
    Pick,
    Place,
    PlayCard,
    PlayerView,
    Power,
    PowerCard,
    PrivateView,
    RgState,
    RgView,
    Roll,
    SetDie,
    Task,
    UseDie,
    act,
)
from rules.ragami.table import COLOUR_NAME, ev, flee_buildings, who

SLOT_ES = ("Santo y Demonio", "Robar cartas", "Resolver conflicto")
SLOT_EN = ("Saint and Demon", "Draw cards", "Resolve a conflict")


@lru_cache(maxsize=256)
def _prompt(kind: str, es: str, en: str) -> Prompt:
    return Prompt(kind=kind, text=Text(es=es, en=en))


TASK_PROMPT = {
    "saint": ("Coloca tu Santo en una casilla de calle.", "Place your Saint on a street square."),
    "virtue": (
        "Coloca tu dado de Virtud (a 1) en un edificio.",
        "Place your Virtue die (at 1) on a building.",
    ),
    "ragami": ("Coloca un Ragami en un edificio libre.", "Place a Ragami on a free building."),
    "demon": (
        "Un 1 rojo: coloca un Demonio en una casilla de calle.",
        "A red 1: place a Demon on a street square.",
    ),
    "set_die": (
        "Gira el 1 rojo al valor que quieras (2 a 6).",
        "Turn the red 1 to the value you want (2 to 6).",
    ),
    "arrange": (
        "Coloca los tres dados de Acción en el Cuadro de Acciones.",
        "Put the three Action dice on the action board.",
    ),
    "flee": (
        "Paso prohibido: lleva tu Ragami a un edificio vecino.",
        "No passing: move your Ragami to a building next to it.",
    ),
    "prep_virtue": (
        "Dado de Virtud: cámbialo por PV (3 = 1), muévelo o colócalo (a 1), o sigue.",
        "Virtue die: exchange it for VP (3 = 1), move or place it (at 1), or go on.",
    ),
}
STEP_PROMPT = {
    "saint": ("Mueve un Santo.", "Move a Saint."),
    "demon": ("Ahora mueve un Demonio o coloca uno nuevo.", "Now move a Demon or place a new one."),
    "saints": ("Mueve hasta dos Santos.", "Move up to two Saints."),
    "demons": ("Mueve hasta dos Demonios.", "Move up to two Demons."),
    "move": ("Mueve un Ragami hasta 4 espacios.", "Move a Ragami up to 4 spaces."),
    "draw": ("Elige qué carta te quedas.", "Choose which card you keep."),
    "adjust": ("Cambia un dado de Conflicto.", "Change a Conflict die."),
    "virtue": (
        "Lleva tu dado de Virtud a otro edificio.",
        "Move your Virtue die to another building.",
    ),
    "extra": ("Elige la acción extra de un dado.", "Choose the extra action of a die."),
    "resolve": (
        "Reúne puntos de Poder para resolver el conflicto.",
        "Gather Power points to resolve the conflict.",
    ),
    "flee": (
        "Tu Ragami se retira: elige un edificio vecino.",
        "Your Ragami withdraws: choose a building next to it.",
    ),
    "swap": ("Elige con qué Ragami cambias el tuyo.", "Choose the Ragami yours swaps with."),
}


class RgEngine(Engine[RgState]):
    """Ragami for 2 to 4 seats; a seat's colour is its number (yellow, green, blue, purple)."""

    id: ClassVar[str] = "ragami"
    title: ClassVar[Text] = tr("Ragami", "Ragami")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_model = Options
    state_model = RgState
    action_adapter = ACTION_ADAPTER

    def _setup(self, num_seats: int, options: Any, seed: int) -> RgState:
        state, _ = new_game(num_seats, options, seed)
        return state

    def copy_state(self, state: RgState) -> RgState:
        """A copy deep in exactly the parts the engine mutates."""
        return state.model_copy(
            update={
                "rng": state.rng.model_copy(),
                "ragamis": list(state.ragamis),
                "saints": list(state.saints),
                "demons": list(state.demons),
                "conflicts": dict(state.conflicts),
                "tokens": list(state.tokens),
                "forbidden": list(state.forbidden),
                "pool": list(state.pool),
                "virtue_at": list(state.virtue_at),
                "virtue": list(state.virtue),
                "vp": list(state.vp),
                "cubes": list(state.cubes),
                "resolved": list(state.resolved),
                "dice": list(state.dice),
                "rolled": list(state.rolled),
                "deck": list(state.deck),
                "discard": list(state.discard),
                "hands": [list(h) for h in state.hands],
                "fresh": [list(h) for h in state.fresh],
                "drawn": [list(h) for h in state.drawn],
                "tasks": list(state.tasks),
                "last_roll": list(state.last_roll),
            }
        )

    # ------------------------------------------------------------------ pending

    def _pending(self, state: RgState) -> dict[Seat, Prompt]:
        if state.phase == "keep":
            p = _prompt(
                "keep",
                "Elige la carta de acción con la que empiezas.",
                "Choose the action card you start with.",
            )
            return {s: p for s in range(state.num_seats) if state.drawn[s]}
        if state.tasks:
            t = state.tasks[0]
            es, en = TASK_PROMPT[t.kind]
            return {t.seat: _prompt(t.kind, es, en)}
        if state.phase != "turn":
            return {}
        if state.step is not None:
            es, en = STEP_PROMPT[state.step.kind]
            return {state.turn: _prompt(state.step.kind, es, en)}
        return {
            state.turn: _prompt(
                "turn",
                "Tu turno: un dado de Acción, cartas, o termina.",
                "Your turn: one Action die, cards, or end the turn.",
            )
        }

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, state: RgState, seat: Seat) -> list[Action]:
        if state.phase == "keep":
            return [act(Keep, card=c) for c in state.drawn[seat]]
        if state.tasks:
            return self._task_actions(state, state.tasks[0])
        return T.legal(state, seat)

    def _task_actions(self, state: RgState, t: Task) -> list[Action]:
        k = t.kind
        if k in ("saint", "demon"):
            return [act(Place, at=str(q)) for q in SQUARES]
        if k == "virtue":
            return [act(Place, at=b) for b in BUILDINGS]
        if k == "ragami":
            taken = set(state.ragamis)
            return [act(Place, at=b) for b in BUILDINGS if b not in taken]
        if k == "set_die":
            return [act(SetDie, value=v) for v in range(2, 7)]
        if k == "arrange":
            return [Arrange(values=list(v)) for v in arrangements(state.rolled)]
        if k == "flee":
            return [act(Place, at=b) for b in flee_buildings(state, t.colour)]
        out: list[Action] = []
        at = state.virtue_at[t.seat]
        if at is not None and state.virtue[t.seat] >= 3:
            out.append(act(Convert, what="virtue"))
        out += [act(Place, at=b) for b in BUILDINGS if b != at]
        return [*out, act(Done)]

    # ------------------------------------------------------------------ apply

    def _apply(self, state: RgState, seat: Seat, action: Action) -> list[Event]:
        if state.phase == "keep":
            if isinstance(action, Keep) and action.card in state.drawn[seat]:
                state.drawn[seat].remove(action.card)
                state.hands[seat].append(action.card)
                state.discard += state.drawn[seat]
                rest = state.drawn[seat]
                state.drawn[seat] = []
                events = [
                    ev(
                        "keep",
                        f"{who(seat).es} se queda una carta.",
                        f"{who(seat).en} keeps a card.",
                        seat=seat,
                        discarded=rest,
                    ),
                    ev(
                        "kept",
                        f"Te quedas {card_name(action.card).es}.",
                        f"You keep {card_name(action.card).en}.",
                        [seat],
                        card=action.card,
                    ),
                ]
                return events + advance(state)
        elif state.tasks:
            if action in self._task_actions(state, state.tasks[0]):
                return self._task_step(state, seat, action) + advance(state)
        else:
            events = T.apply(state, seat, action)
            if events is not None:
                return events + advance(state)
        raise self._refusal(state, seat, action)

    def _task_step(self, state: RgState, seat: int, a: Action) -> list[Event]:
        t = state.tasks[0]
        k = t.kind
        if isinstance(a, Convert):
            return T.convert(state, seat, "virtue")
        state.tasks.pop(0)
        if isinstance(a, Done):
            at = state.virtue_at[seat]
            return [
                ev(
                    "virtue_stay",
                    f"{who(seat).es} deja su dado de Virtud en {node_name(at).es}."
                    if at is not None
                    else f"{who(seat).es} no coloca dado de Virtud.",
                    f"{who(seat).en} leaves their Virtue die on {node_name(at).en}."
                    if at is not None
                    else f"{who(seat).en} places no Virtue die.",
                    seat=seat,
                    at=at,
                )
            ]
        if isinstance(a, SetDie):
            state.rolled[t.die] = a.value
            return [
                ev(
                    "set_die",
                    f"{who(seat).es} gira un 1 rojo a {a.value}.",
                    f"{who(seat).en} turns a red 1 to {a.value}.",
                    seat=seat,
                    value=a.value,
                )
            ]
        if isinstance(a, Arrange):
            state.dice = list(a.values)
            state.rolled = []
            return [
                ev(
                    "arrange",
                    "Dados de Acción: "
                    + ", ".join(f"{SLOT_ES[i]} {v}" for i, v in enumerate(a.values))
                    + ".",
                    "Action dice: "
                    + ", ".join(f"{SLOT_EN[i]} {v}" for i, v in enumerate(a.values))
                    + ".",
                    seat=seat,
                    dice=a.values,
                )
            ]
        assert isinstance(a, Place)
        name = node_name(a.at)
        if k == "saint":
            state.saints[seat] = int(a.at)
            what = ("coloca su Santo en", "places their Saint on")
        elif k == "demon":
            state.demons.append(int(a.at))
            state.demons.sort()
            what = ("coloca un Demonio en", "places a Demon on")
        elif k in ("ragami", "flee"):
            state.ragamis[t.colour] = a.at
            c = COLOUR_NAME[t.colour]
            what = (f"coloca el Ragami {c.es} en", f"places the {c.en} Ragami on")
        else:  # virtue, prep_virtue
            state.virtue_at[seat] = a.at
            state.virtue[seat] = 1
            what = ("coloca su dado de Virtud (1) en", "places their Virtue die (1) on")
        return [
            ev(
                "place",
                f"{who(seat).es} {what[0]} {name.es}.",
                f"{who(seat).en} {what[1]} {name.en}.",
                seat=seat,
                at=a.at,
                what=k,
            )
        ]

    def _refusal(self, state: RgState, seat: int, action: Action) -> IllegalAction:
        """Say why ``action`` is refused and what would be legal instead."""
        legal = self._legal_actions(state, seat)
        labels = [self.describe(state, seat, a) for a in legal[:12]]
        more = "…" if len(legal) > 12 else ""
        prompt = self._pending(state)[seat].text
        return IllegalAction(
            f"Esa jugada no es posible ahora. {prompt.es} Puedes: "
            f"{'; '.join(x.es for x in labels)}{more}.",
            f"That move is not possible now. {prompt.en} You may: "
            f"{'; '.join(x.en for x in labels)}{more}.",
        )

    # ------------------------------------------------------------------ views and outcome

    def _view(self, state: RgState, seat: Seat | None) -> RgView:
        n = state.num_seats
        players = [
            PlayerView(
                seat=s,
                vp=state.vp[s],
                cubes=state.cubes[s],
                resolved=state.resolved[s],
                hand=len(state.hands[s]),
                virtue_at=state.virtue_at[s],
                virtue=state.virtue[s],
                ragami=state.ragamis[s],
                saint=state.saints[s],
            )
            for s in range(n)
        ]
        conflicts = [
            ConflictView(
                square=q, die=v, demons=state.demons.count(q), cost=v + state.demons.count(q)
            )
            for q, v in sorted(state.conflicts.items())
        ]
        me = None
        if seat is not None:
            me = PrivateView(
                hand=sorted(state.hands[seat]),
                fresh=sorted(state.fresh[seat]),
                drawn=sorted(state.drawn[seat]),
            )
        return RgView(
            seat=seat,
            version=state.version,
            options=state.options,
            phase=state.phase,
            round=state.round,
            first=state.first,
            turn=state.turn,
            to_act=sorted(self.pending(state)),
            players=players,
            ragamis=list(state.ragamis),
            neutral=state.neutral,
            saints=list(state.saints),
            demons=list(state.demons),
            conflicts=conflicts,
            tokens=list(state.tokens),
            forbidden=list(state.forbidden),
            pool=len(state.pool),
            dice=list(state.dice),
            rolled=list(state.rolled),
            die_used=state.die_used,
            deck=len(state.deck),
            discard=list(state.discard),
            cube_supply=state.cube_supply,
            demon_supply=6 - len(state.demons),
            conflict_supply=6 - len(state.conflicts),
            step=state.step,
            task=state.tasks[0] if state.tasks else None,
            drawing=[s for s in range(n) if state.drawn[s]],
            last_roll=list(state.last_roll),
            me=me,
            final=state.final,
            end_reason=state.end_reason,
            finished=state.finished,
        )

    def _outcome(self, state: RgState) -> Outcome:
        return outcome(state)

    # ------------------------------------------------------------------ labels and AI

    def describe(self, state: RgState, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, in both languages."""
        a = action
        if isinstance(a, Keep | PlayCard | CashCard | Discard | PowerCard):
            name = card_name(a.card)
            verb = {
                "keep": ("Quedarte", "Keep"),
                "play_card": ("Jugar", "Play"),
                "cash_card": ("Cambiar por un cubo", "Exchange for a cube"),
                "discard": ("Descartar", "Discard"),
                "power_card": ("Sumar", "Add"),
            }[a.kind]
            return tr(f"{verb[0]}: {name.es}", f"{verb[1]}: {name.en}")
        if isinstance(a, Place):
            name = node_name(a.at)
            return tr(f"A {name.es}", f"To {name.en}")
        if isinstance(a, SetDie):
            return tr(f"Girar a {a.value}", f"Turn to {a.value}")
        if isinstance(a, Arrange):
            return tr(
                " / ".join(f"{SLOT_ES[i]}: {v}" for i, v in enumerate(a.values)),
                " / ".join(f"{SLOT_EN[i]}: {v}" for i, v in enumerate(a.values)),
            )
        if isinstance(a, UseDie):
            if a.move:
                return tr(
                    f"Dado {SLOT_ES[a.slot]}: mover un Ragami",
                    f"{SLOT_EN[a.slot]} die: move a Ragami",
                )
            return tr(f"Dado: {SLOT_ES[a.slot]}", f"Die: {SLOT_EN[a.slot]}")
        if isinstance(a, Convert):
            if a.what == "cubes":
                return tr("2 cubos → 1 PV", "2 cubes → 1 VP")
            return tr("3 de Virtud → 1 PV", "3 Virtue → 1 VP")
        if isinstance(a, EndTurn):
            return tr("Terminar el turno", "End the turn")
        if isinstance(a, Pick):
            return piece_label(a.piece)
        if isinstance(a, Adjust):
            return tr(f"{a.delta:+d} al dado", f"{a.delta:+d} to the die")
        if isinstance(a, Power):
            if a.source == "cubes":
                return tr(f"+{a.amount} con cubos", f"+{a.amount} from cubes")
            return tr(f"+{a.amount} del dado de Virtud", f"+{a.amount} from the Virtue die")
        if isinstance(a, Roll):
            return tr("Tirar el dado de Poder", "Roll the Power die")
        if isinstance(a, Commit):
            return tr("Resolver el conflicto", "Resolve the conflict")
        if isinstance(a, Cancel):
            return tr("Renunciar (no se gasta nada)", "Give up (nothing is spent)")
        if isinstance(a, Done):
            return tr("Seguir", "Go on")
        return super().describe(state, seat, a)

    def ai_action(self, state: RgState, seat: Seat) -> Action:
        """The built-in player's move (see rules/ragami/ai.py)."""
        from rules.ragami.ai import choose

        return choose(self, state, seat)


def piece_label(piece: str) -> Text:
    """How a picked piece is named in menus."""
    kind, rest = piece[0], piece[1:]
    if kind == "S":
        c = COLOUR_NAME[int(rest)]
        return tr(f"Santo {c.es}", f"{c.en.capitalize()} Saint")
    if kind == "R":
        c = COLOUR_NAME[int(rest)]
        return tr(f"Ragami {c.es}", f"{c.en.capitalize()} Ragami")
    if kind == "C":
        return tr(f"Conflicto de la casilla {rest}", f"Conflict on square {rest}")
    if rest == "0":
        return tr("Demonio nuevo del suministro", "New Demon from the supply")
    return tr(f"Demonio de la casilla {rest}", f"Demon on square {rest}")
