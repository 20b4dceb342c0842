"""Ragami: the engine that ties setup, rounds, turns, views and labels together."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.core import Action, Engine, Event, IllegalAction, Outcome, Prompt, Seat, Text
from rules.ragami import legal as LG
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
from rules.ragami.text import msg

# the three slots of the action board
SLOT = (msg("Saint and Demon"), msg("Draw cards"), msg("Resolve a conflict"))
# a Saint and a Ragami of each colour, as menus name them
SAINT_NAME = (msg("Yellow Saint"), msg("Green Saint"), msg("Blue Saint"), msg("Purple Saint"))
RAGAMI_NAME = (msg("Yellow Ragami"), msg("Green Ragami"), msg("Blue Ragami"), msg("Purple Ragami"))


def _prompts(texts: dict[str, Text]) -> dict[str, Prompt]:
    return {kind: Prompt(kind=kind, text=text) for kind, text in texts.items()}


KEEP_PROMPT = Prompt(kind="keep", text=msg("Choose the action card you start with."))
TURN_PROMPT = Prompt(kind="turn", text=msg("Your turn: one Action die, cards, or end the turn."))
TASK_PROMPT = _prompts({
    "saint": msg("Place your Saint on a street square."),
    "virtue": msg("Place your Virtue die (at 1) on a building."),
    "ragami": msg("Place a Ragami on a free building."),
    "demon": msg("A red 1: place a Demon on a street square."),
    "set_die": msg("Turn the red 1 to the value you want (2 to 6)."),
    "arrange": msg("Put the three Action dice on the action board."),
    "flee": msg("No passing: move your Ragami to a building next to it."),
    "prep_virtue": msg(
        "Virtue die: exchange it for VP (3 = 1), move or place it (at 1), or go on."
    ),
})
STEP_PROMPT = _prompts({
    "saint": msg("Move a Saint."),
    "demon": msg("Now move a Demon or place a new one."),
    "saints": msg("Move up to two Saints."),
    "demons": msg("Move up to two Demons."),
    "move": msg("Move a Ragami up to 4 spaces."),
    "draw": msg("Choose which card you keep."),
    "adjust": msg("Change a Conflict die."),
    "virtue": msg("Move your Virtue die to another building."),
    "extra": msg("Choose the extra action of a die."),
    "resolve": msg("Gather Power points to resolve the conflict."),
    "flee": msg("Your Ragami withdraws: choose a building next to it."),
    "swap": msg("Choose the Ragami yours swaps with."),
})


class RgEngine(Engine[RgState]):
    """Ragami for 2 to 4 seats; a seat's colour is its number (yellow, green, blue, purple)."""

    id: ClassVar[str] = "ragami"
    title: ClassVar[Text] = msg("Ragami")
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
            return {s: KEEP_PROMPT for s in range(state.num_seats) if state.drawn[s]}
        if state.tasks:
            t = state.tasks[0]
            return {t.seat: TASK_PROMPT[t.kind]}
        if state.phase != "turn":
            return {}
        if state.step is not None:
            return {state.turn: STEP_PROMPT[state.step.kind]}
        return {state.turn: TURN_PROMPT}

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, state: RgState, seat: Seat) -> list[Action]:
        if state.phase == "keep":
            return [act(Keep, card=c) for c in state.drawn[seat]]
        if state.tasks:
            return self._task_actions(state, state.tasks[0])
        return LG.legal(state, seat)

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
                        msg("{seat} keeps a card.", seat=who(seat)),
                        seat=seat,
                        discarded=rest,
                    ),
                    ev(
                        "kept",
                        msg("You keep {card}.", card=card_name(action.card)),
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
                    msg(
                        "{seat} leaves their Virtue die on {where}.",
                        seat=who(seat),
                        where=node_name(at),
                    )
                    if at is not None
                    else msg("{seat} places no Virtue die.", seat=who(seat)),
                    seat=seat,
                    at=at,
                )
            ]
        if isinstance(a, SetDie):
            state.rolled[t.die] = a.value
            return [
                ev(
                    "set_die",
                    msg("{seat} turns a red 1 to {value}.", seat=who(seat), value=a.value),
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
                    msg(
                        "Action dice: Saint and Demon {saint}, Draw cards {draw}, "
                        "Resolve a conflict {resolve}.",
                        saint=a.values[0],
                        draw=a.values[1],
                        resolve=a.values[2],
                    ),
                    seat=seat,
                    dice=a.values,
                )
            ]
        assert isinstance(a, Place)
        name = node_name(a.at)
        if k == "saint":
            state.saints[seat] = int(a.at)
            text = msg("{seat} places their Saint on {where}.", seat=who(seat), where=name)
        elif k == "demon":
            state.demons.append(int(a.at))
            state.demons.sort()
            text = msg("{seat} places a Demon on {where}.", seat=who(seat), where=name)
        elif k in ("ragami", "flee"):
            state.ragamis[t.colour] = a.at
            text = msg(
                "{seat} places the {colour} Ragami on {where}.",
                seat=who(seat),
                colour=COLOUR_NAME[t.colour],
                where=name,
            )
        else:  # virtue, prep_virtue
            state.virtue_at[seat] = a.at
            state.virtue[seat] = 1
            text = msg("{seat} places their Virtue die (1) on {where}.", seat=who(seat), where=name)
        return [
            ev(
                "place",
                text,
                seat=seat,
                at=a.at,
                what=k,
            )
        ]

    def _refusal(self, state: RgState, seat: int, action: Action) -> IllegalAction:
        """Say why ``action`` is refused and what would be legal instead."""
        legal = self._legal_actions(state, seat)
        labels = [self.describe(state, seat, a) for a in legal[:12]]
        prompt = self._pending(state)[seat].text
        if len(legal) > 12:
            return IllegalAction(msg(
                "That move is not possible now. {prompt} You may: {options}….",
                prompt=prompt,
                options=labels,
            ))
        return IllegalAction(msg(
            "That move is not possible now. {prompt} You may: {options}.",
            prompt=prompt,
            options=labels,
        ))

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
        """A short label for a legal action."""
        a = action
        if isinstance(a, Keep | PlayCard | CashCard | Discard | PowerCard):
            card = card_name(a.card)
            if isinstance(a, Keep):
                return msg("Keep: {card}", card=card)
            if isinstance(a, PlayCard):
                return msg("Play: {card}", card=card)
            if isinstance(a, CashCard):
                return msg("Exchange for a cube: {card}", card=card)
            if isinstance(a, Discard):
                return msg("Discard: {card}", card=card)
            return msg("Add: {card}", card=card)
        if isinstance(a, Place):
            return msg("To {where}", where=node_name(a.at))
        if isinstance(a, SetDie):
            return msg("Turn to {value}", value=a.value)
        if isinstance(a, Arrange):
            return msg(
                "Saint and Demon: {saint} / Draw cards: {draw} / Resolve a conflict: {resolve}",
                saint=a.values[0],
                draw=a.values[1],
                resolve=a.values[2],
            )
        if isinstance(a, UseDie):
            if a.move:
                return msg("{slot} die: move a Ragami", slot=SLOT[a.slot])
            return msg("Die: {slot}", slot=SLOT[a.slot])
        if isinstance(a, Convert):
            if a.what == "cubes":
                return msg("2 cubes → 1 VP")
            return msg("3 Virtue → 1 VP")
        if isinstance(a, EndTurn):
            return msg("End the turn")
        if isinstance(a, Pick):
            return piece_label(a.piece)
        if isinstance(a, Adjust):
            return msg("{delta} to the die", delta=f"{a.delta:+d}")
        if isinstance(a, Power):
            if a.source == "cubes":
                return msg("+{amount} from cubes", amount=a.amount)
            return msg("+{amount} from the Virtue die", amount=a.amount)
        if isinstance(a, Roll):
            return msg("Roll the Power die")
        if isinstance(a, Commit):
            return msg("Resolve the conflict")
        if isinstance(a, Cancel):
            return msg("Give up (nothing is spent)")
        if isinstance(a, Done):
            return msg("Go on")
        return super().describe(state, seat, a)



def piece_label(piece: str) -> Text:
    """How a picked piece is named in menus."""
    kind, rest = piece[0], piece[1:]
    if kind == "S":
        return SAINT_NAME[int(rest)]
    if kind == "R":
        return RAGAMI_NAME[int(rest)]
    if kind == "C":
        return msg("Conflict on square {square}", square=rest)
    if rest == "0":
        return msg("New Demon from the supply")
    return msg("Demon on square {square}", square=rest)
