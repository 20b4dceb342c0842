"""Rattus Cartus: the engine that ties setup, the five phases, the views and the labels together."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar

from rules.core import (
    Action,
    Engine,
    Event,
    IllegalAction,
    Outcome,
    Prompt,
    Seat,
    Text,
)
from rules.phrases import Phrases
from rules.rattus_cartus import resolve as R
from rules.rattus_cartus.cards import (
    CLASS_NAME,
    CLASSES,
    KIND,
    NUNS,
    PLAYABLE_SPECIALS,
    building_of,
    card_name,
    supply_of,
)
from rules.rattus_cartus.model import (
    ACTION_ADAPTER,
    BuildingView,
    Choose,
    DecisionView,
    Discard,
    Done,
    Enter,
    Give,
    Options,
    Pass,
    Peek,
    Play,
    PlayerView,
    PrivateView,
    RcState,
    RcView,
    SlotView,
    SupplyChoice,
    Undo,
)
from rules.rattus_cartus.phases import (
    choose_supply,
    enter,
    new_game,
    play_safe_conduct,
    supply_options,
)
from rules.rattus_cartus.scoring import outcome
from rules.rattus_cartus.table import (
    ev,
    put_away,
    remove_rats,
    semicolons,
    sort_cards,
    track_order,
    who,
)

msg = Phrases("rattus_cartus")


def representatives(cards: list[str]) -> list[str]:
    """One card of each kind (class or special), in hand order: the choices a menu needs.
    The nuns on a population card change nothing in play, so they do not multiply the menu
    (at most eleven kinds, within a Discord select's 25 options)."""
    seen: set[str] = set()
    out: list[str] = []
    for c in sort_cards(cards):
        k = KIND[c]
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def playable(card: str) -> bool:
    """Population cards, jokers, Swords and Flutes may be played at a building."""
    return card in NUNS or KIND[card] in PLAYABLE_SPECIALS


# pending() runs before every move: the same few prompts are built once and shared.
_SUPPLY = Prompt(kind="supply", text=msg("Secretly choose the supply action of one building card."))
_ENTER = Prompt(kind="enter", text=msg("Your turn to enter a building (or play a Safe-conduct)."))
_PLAY = Prompt(kind="play", text=msg("Pick the cards you play face down, one at a time, then confirm."))
_VICTIM = {
    "espada": Prompt(kind="victim", text=msg("Sword duel: choose who gives you half their hand.")),
    "flauta": Prompt(kind="victim", text=msg("Flute duel: choose who receives your rat.")),
}


@lru_cache(maxsize=1024)
def _prompt(kind: str, n: int, target: int) -> Prompt:
    """The prompt of a decision about `n` cards (or nun cards) given to seat `target`."""
    if kind == "give":
        text = msg.n(n, "Give {n} card from your hand to {target}.",
                     "Give {n} cards from your hand to {target}.", target=who(target))
    elif kind == "tower":
        text = msg.n(n, "Guard Tower: give {n} card to {target}.",
                     "Guard Tower: give {n} cards to {target}.", target=who(target))
        kind = "give"
    elif kind == "hospital":
        text = msg.n(n, "Hospital: discard up to {n} card to give back as many rats, or stop.",
                     "Hospital: discard up to {n} cards to give back as many rats, or stop.")
    else:
        text = msg.n(n, "Look at a card of the nun row ({n} left).",
                     "Look at a card of the nun row ({n} left).")
    return Prompt(kind=kind, text=text)


class RcEngine(Engine[RcState]):
    """Rattus Cartus for 2 to 5 seats, in turn order 0..n-1 (clockwise)."""

    id: ClassVar[str] = "rattus_cartus"
    title: ClassVar[Text] = msg("Rattus Cartus")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    options_model = Options
    state_model = RcState
    action_adapter = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup

    def _setup(self, num_seats: int, options: Any, seed: int) -> RcState:
        state, _ = new_game(num_seats, options, seed)
        return state

    def copy_state(self, state: RcState) -> RcState:
        """A copy deep in exactly the parts the engine mutates (a generic deep copy is far slower)."""
        return state.model_copy(update={
            "rng": state.rng.model_copy(),
            "building_deck": list(state.building_deck), "reserve": list(state.reserve),
            "row": list(state.row), "building_discard": list(state.building_discard),
            "deck": list(state.deck), "discard": list(state.discard),
            "peeks": [list(p) for p in state.peeks], "hands": [list(h) for h in state.hands],
            "rats": [list(r) for r in state.rats],
            "influence": [list(i) for i in state.influence],
            "arrived": [list(a) for a in state.arrived], "vp": list(state.vp),
            "piles": {k: list(v) for k, v in state.piles.items()},
            "choices": list(state.choices), "queue": list(state.queue),
            "picking": list(state.picking), "slots": [list(s) for s in state.slots],
            "played": [list(p) for p in state.played], "where": list(state.where),
            "order": list(state.order), "revealed": list(state.revealed),
            "gained": list(state.gained), "tasks": list(state.tasks),
        })

    # ------------------------------------------------------------------ pending

    def _pending(self, state: RcState) -> dict[Seat, Prompt]:
        if state.phase == "supply":
            return {s: _SUPPLY for s, c in enumerate(state.choices) if c is None}
        if state.phase == "enter":
            s = state.queue[0]
            return {s: _ENTER if state.entering < 0 else _PLAY}
        if state.phase != "resolve" or not state.tasks:
            return {}
        t = state.tasks[0]
        if t.kind == "victim":
            return {t.seat: _VICTIM["espada" if t.duel == "espada" else "flauta"]}
        if t.kind == "tower":
            return {s: _prompt("tower", c, t.target)
                    for s, c in zip(t.seats, t.counts, strict=True) if c > 0}
        if t.kind in ("give", "hospital"):
            return {t.seat: _prompt(t.kind, t.n, t.target)}
        return {t.seat: _prompt("peek", t.n, -1)}

    # ------------------------------------------------------------------ legal actions

    def _legal_actions(self, state: RcState, seat: Seat) -> list[Action]:
        if state.phase == "supply":
            return [SupplyChoice(card=b, peek=p) for b, p in supply_options(state, seat)]
        if state.phase == "enter":
            if state.entering < 0:
                out: list[Action] = [Enter(building=b) for b in range(len(state.row))]
                if self._can_pass(state, seat):
                    out.append(Pass())
                return out
            left = [c for c in state.hands[seat] if playable(c) and c not in state.picking]
            return [*(Play(card=c) for c in representatives(left)), Done(), Undo()]
        t = state.tasks[0]
        if t.kind == "victim":
            return [Choose(seat=s) for s in t.seats]
        if t.kind in ("give", "tower"):
            return [Give(card=c) for c in representatives(state.hands[seat])]
        if t.kind == "hospital":
            return [*(Discard(card=c) for c in representatives(state.hands[seat])), Done()]
        return [Peek(position=p) for p in range(len(state.nuns)) if p not in state.peeks[seat]]

    def _can_pass(self, state: RcState, seat: int) -> bool:
        # Passing when nobody else is left to choose would only bring the turn straight back.
        return len(state.queue) > 1 and any(KIND[c] == "salvo" for c in state.hands[seat])

    # ------------------------------------------------------------------ apply

    def _apply(self, state: RcState, seat: Seat, action: Action) -> list[Event]:
        if state.phase == "supply":
            if isinstance(action, SupplyChoice) and (action.card, action.peek) in supply_options(state, seat):
                return choose_supply(state, seat, action.card, action.peek)
        elif state.phase == "enter":
            events = self._enter_step(state, seat, action)
            if events is not None:
                if not state.queue:
                    events += R.begin_resolve(state)
                return events
        elif self._resolve_ok(state, seat, action):
            return self._resolve_step(state, seat, action) + R.advance(state)
        raise self._refusal(state, seat, action)

    def _enter_step(self, state: RcState, seat: int, a: Action) -> list[Event] | None:
        """Phase C, one step; None if the action does not fit."""
        if state.entering < 0:
            if isinstance(a, Pass) and self._can_pass(state, seat):
                return play_safe_conduct(state, seat)
            if isinstance(a, Enter) and a.building < len(state.row):
                state.entering = a.building
                return []
            return None
        if isinstance(a, Play):
            if a.card in state.hands[seat] and a.card not in state.picking and playable(a.card):
                state.picking.append(a.card)
                return []
            return None
        if isinstance(a, Undo):
            if state.picking:
                state.picking.pop()
            else:
                state.entering = -1
            return []
        if isinstance(a, Done):
            return enter(state, seat)
        return None

    def _resolve_ok(self, state: RcState, seat: int, a: Action) -> bool:
        t = state.tasks[0]
        hand = state.hands[seat]
        if t.kind == "victim":
            return isinstance(a, Choose) and a.seat in t.seats
        if t.kind in ("give", "tower"):
            return isinstance(a, Give) and a.card in hand
        if t.kind == "hospital":
            return isinstance(a, Done) or (isinstance(a, Discard) and a.card in hand)
        return isinstance(a, Peek) and a.position < len(state.nuns) and a.position not in state.peeks[seat]

    def _resolve_step(self, state: RcState, seat: int, a: Action) -> list[Event]:
        t = state.tasks[0]
        if isinstance(a, Choose):
            state.tasks.pop(0)
            return R.duel_effect(state, t.b, t.duel, seat, a.seat)
        if isinstance(a, Give):
            if t.kind == "give":
                state.tasks[0] = t.model_copy(update={"n": t.n - 1})
            else:
                counts = list(t.counts)
                counts[t.seats.index(seat)] -= 1
                state.tasks[0] = t.model_copy(update={"counts": counts})
            return [R.give(state, seat, t.target, a.card)]
        if isinstance(a, Discard):
            state.hands[seat].remove(a.card)
            put_away(state, [a.card])
            remove_rats(state, seat, 1)
            state.tasks[0] = t.model_copy(update={"n": t.n - 1})
            return [ev("hospital", msg("{seat} discards a card and gives back a rat.", seat=who(seat)),
                       seat=seat),
                    ev("hospital_card", msg("You discard {card}.", card=card_name(a.card)), [seat],
                       card=a.card)]
        if isinstance(a, Done):
            state.tasks.pop(0)
            return []
        assert isinstance(a, Peek)
        state.tasks[0] = t.model_copy(update={"n": t.n - 1})
        return [R.peek_event(state, seat, a.position)]

    def _refusal(self, state: RcState, seat: int, action: Action) -> IllegalAction:
        """Say why ``action`` is refused and what would be legal instead."""
        legal = self._legal_actions(state, seat)
        labels = [self.describe(state, seat, a) for a in legal[:15]]
        prompt = self._pending(state)[seat].text
        return IllegalAction(msg("That move is not possible now. {prompt} You may: {options}.",
                                 prompt=prompt, options=semicolons(labels)))

    # ------------------------------------------------------------------ views and outcome

    def _view(self, state: RcState, seat: Seat | None) -> RcView:
        n = state.num_seats
        row = []
        for b, card in enumerate(state.row):
            bd = building_of(card)
            sup = supply_of(card)
            slots = [SlotView(seat=s, cards=len(state.played[s]),
                              revealed=[KIND[c] for c in sort_cards(state.played[s])]
                              if state.revealed[b] else None)
                     for s in state.slots[b]]
            row.append(BuildingView(index=b, card=card, building=bd.id, cls=bd.cls,
                                    supply=[sup.draw, sup.rats, sup.peeks], slots=slots,
                                    revealed=state.revealed[b]))
        players = [PlayerView(seat=s, influence=list(state.influence[s]), hand=len(state.hands[s]),
                              rat_tokens=len(state.rats[s]), vp=state.vp[s],
                              supply_done=state.phase == "supply" and state.choices[s] is not None,
                              building=state.where[s] if state.where and state.where[s] >= 0 else None)
                   for s in range(n)]
        me = None
        if seat is not None:
            mine = state.phase == "enter" and state.queue and state.queue[0] == seat
            me = PrivateView(
                hand=sort_cards(state.hands[seat]), rats=sorted(state.rats[seat], reverse=True),
                peeks={p: NUNS[state.nuns[p]] for p in state.peeks[seat]},
                supply_choice=list(state.choices[seat]) if state.phase == "supply"
                and state.choices[seat] is not None else None,
                entering=state.entering if mine and state.entering >= 0 else None,
                picking=list(state.picking) if mine else [],
                played=sort_cards(state.played[seat]) if state.played else [],
            )
        return RcView(
            seat=seat, version=state.version, options=state.options, phase=state.phase,
            round=state.round, rounds=state.rounds, start=state.start,
            to_act=sorted(self.pending(state)), queue=list(state.queue), row=row, players=players,
            tracks=[track_order(state, c) for c in range(len(CLASSES))],
            deck=len(state.deck), discard=len(state.discard),
            building_deck=len(state.building_deck), reserve=len(state.reserve),
            piles={k: len(v) for k, v in state.piles.items()}, treasury="tesoro" in state.in_play,
            decision=self._decision(state), me=me,
            nuns=[NUNS[c] for c in state.nuns] if state.finished else None,
            final=state.final, finished=state.finished,
        )

    def _decision(self, state: RcState) -> DecisionView | None:
        if state.phase != "resolve" or not state.tasks:
            return None
        t = state.tasks[0]
        if t.kind == "tower":
            return DecisionView(kind="tower", building=t.b, target=t.target,
                                seats=[s for s, c in zip(t.seats, t.counts, strict=True) if c > 0],
                                left=sum(t.counts))
        kind = f"victim_{t.duel}" if t.kind == "victim" else t.kind
        return DecisionView(kind=kind, building=t.b, seats=[t.seat],
                            target=t.target if t.target >= 0 else None, left=t.n,
                            candidates=list(t.seats) if t.kind == "victim" else [])

    def _outcome(self, state: RcState) -> Outcome:
        return outcome(state)

    # ------------------------------------------------------------------ labels and AI

    def describe(self, state: RcState, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, in both languages."""
        a = action
        if isinstance(a, SupplyChoice) and a.card < len(state.row):
            bd, sup = building_of(state.row[a.card]).name, supply_of(state.row[a.card]).text()
            if a.peek is None:
                return msg("{building}: {supply}", building=bd, supply=sup)
            return msg("{building}: {supply} (nun card #{number})", building=bd, supply=sup,
                       number=a.peek + 1)
        if isinstance(a, Enter) and a.building < len(state.row):
            bd = building_of(state.row[a.building])
            cls = CLASS_NAME[bd.cls]
            return msg("Enter {building} ({cls})", building=bd.name, cls=cls)
        if isinstance(a, Pass):
            return msg("Play a Safe-conduct (choose later)")
        if isinstance(a, Play) and a.card in KIND:
            return msg("Play {card}", card=card_name(a.card))
        if isinstance(a, Done):
            if state.phase == "enter":
                return msg.n(len(state.picking), "Confirm ({n} card face down)",
                             "Confirm ({n} cards face down)")
            return msg("Discard no more")
        if isinstance(a, Undo):
            if state.picking:
                return msg("Take back the last card")
            return msg("Choose another building")
        if isinstance(a, Choose):
            return msg("Choose {seat}", seat=who(a.seat))
        if isinstance(a, Give) and a.card in KIND:
            return msg("Give {card}", card=card_name(a.card))
        if isinstance(a, Discard) and a.card in KIND:
            return msg("Discard {card}", card=card_name(a.card))
        if isinstance(a, Peek):
            return msg("Look at nun card #{number}", number=a.position + 1)
        return super().describe(state, seat, a)
