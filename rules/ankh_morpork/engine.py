"""Mundodisco: Ankh-Morpork for 2 to 4 players: the Engine the platform talks to."""

from __future__ import annotations

from typing import Any, ClassVar

# Importing these modules registers their frame handlers.
from rules.ankh_morpork import city, flow, happenings, powers, reactions, scoring, scrolls, symbols  # noqa: F401
from rules.ankh_morpork.board import AREAS, START_AREAS
from rules.ankh_morpork.cards import BROWN, GREEN, TWO_PLAYER_REMOVED
from rules.ankh_morpork.events import EVENTS
from rules.ankh_morpork.frames import HANDLERS, mossy_label, settle
from rules.ankh_morpork.model import (
    ACTION_ADAPTER,
    AmState,
    AmView,
    Area,
    AreaView,
    Card,
    Do,
    Frame,
    Interrupt,
    Options,
    Pay,
    Piece,
    Play,
    Player,
    Power,
    SeatView,
    Skip,
)
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.ankh_morpork.personalities import TWO_PLAYER_REMOVED as NO_CHRYSOPRASE
from rules.ankh_morpork.symbols import piece_label
from rules.ankh_morpork.text import area_name, card_name, seat_name, semicolons
from rules.core import Action, Engine, Event, IllegalAction, Outcome, Prompt, Rng, Seat, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")


class AmEngine(Engine[AmState]):
    """Ankh-Morpork: seats 0..n-1 in turn order; the first player is drawn by the die."""

    id: ClassVar[str] = "ankh_morpork"
    title: ClassVar[Text] = msg("Discworld: Ankh-Morpork")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    options_model = Options
    state_model = AmState
    action_adapter = ACTION_ADAPTER

    # ------------------------------------------------------------------ setup

    def _setup(self, num_seats: int, options: Any, seed: int) -> AmState:
        n = num_seats
        rng = Rng(seed=seed)
        people = [p for p in PERSONALITIES if not (n == 2 and p == NO_CHRYSOPRASE)]
        rng.shuffle(people)
        green = [c for c in GREEN if not (n == 2 and c in TWO_PLAYER_REMOVED)]
        brown = [c for c in BROWN if not (n == 2 and c in TWO_PLAYER_REMOVED)]
        rng.shuffle(brown)
        rng.shuffle(green)
        deck = green + brown  # the green pile goes on top of the brown one
        hands = [deck[5 * s: 5 * s + 5] for s in range(n)]
        del deck[: 5 * n]
        events = list(EVENTS)
        rng.shuffle(events)
        minions = [[0] * n for _ in range(12)]
        trouble = [False] * 12
        for a in START_AREAS:
            trouble[a] = True
            for s in range(n):
                minions[a][s] = 1
        first = rng.randint(1, n) - 1
        st = AmState(
            num_seats=n, rng=rng, options=options, turn=first, money=[10] * n,
            personality=people[:n], unused=people[n:], hands=hands, deck=deck, event_deck=events,
            minions=minions, trouble=trouble, loans=[[] for _ in range(n)], stuck=[[] for _ in range(n)],
            peeks=[[] for _ in range(n)], stack=[Frame(kind="turn", seat=first, actor=first)],
        )
        settle(st)
        return st

    def copy_state(self, state: AmState) -> AmState:
        """A copy deep in exactly what ``_apply`` mutates (frames hold tuples: a shallow copy each)."""
        s = state
        return s.model_copy(update={
            "rng": s.rng.model_copy(), "money": list(s.money), "personality": list(s.personality),
            "unused": list(s.unused), "hands": [list(h) for h in s.hands], "deck": list(s.deck),
            "discard": list(s.discard), "event_deck": list(s.event_deck), "event_done": list(s.event_done),
            "minions": [list(r) for r in s.minions], "trolls": list(s.trolls), "demons": list(s.demons),
            "trouble": list(s.trouble), "buildings": list(s.buildings), "card_out": list(s.card_out),
            "fresh": list(s.fresh), "used": list(s.used), "loans": [list(x) for x in s.loans],
            "stuck": [list(x) for x in s.stuck], "peeks": [list(x) for x in s.peeks],
            "stack": [f.model_copy() for f in s.stack], "winners": list(s.winners), "scores": list(s.scores),
        })

    # ------------------------------------------------------------------ turn structure

    def _pending(self, state: AmState) -> dict[Seat, Prompt]:
        if not state.stack:
            return {}
        f = state.stack[-1]
        return {f.seat: Prompt(kind=f.kind if f.kind != "scroll" else f"scroll:{f.mode}",
                               text=HANDLERS[f.kind].prompt(state, f))}

    def _legal_actions(self, state: AmState, seat: Seat) -> list[Action]:
        f = state.stack[-1]
        return HANDLERS[f.kind].legal(state, f)

    def _apply(self, state: AmState, seat: Seat, action: Action) -> list[Event]:
        f = state.stack[-1]
        legal = HANDLERS[f.kind].legal(state, f)
        if action not in legal:
            raise self._refusal(state, seat, legal)
        if flow.is_mossy(action) and f.kind != "react":
            events = flow.mossy_lawn(state, f)
        else:
            events = HANDLERS[f.kind].act(state, f, action)
        return events + settle(state)

    def _refusal(self, state: AmState, seat: int, legal: list[Action]) -> IllegalAction:
        """Say the action is not possible, what is asked, and what would be legal instead."""
        p = self._pending(state)[seat].text
        shown = [self.describe(state, seat, a) for a in legal[:10]]
        more = len(legal) - len(shown)
        options = semicolons(shown)  # not a list's "and": a label may hold a comma
        if more > 0:
            options = msg("{options}; and {more} more", options=options, more=more)
        return IllegalAction(msg("That cannot be done now. {prompt} You may: {options}.", prompt=p, options=options))

    # ------------------------------------------------------------------ views and outcome

    def _view(self, state: AmState, seat: Seat | None) -> AmView:
        st = state
        n = st.num_seats
        me = seat if seat is not None and 0 <= seat < n else None
        areas = [AreaView(
            index=a, number=AREAS[a].number, name=area_name(a), cost=AREAS[a].cost,
            minions=list(st.minions[a]), trolls=st.trolls[a], demons=st.demons[a], trouble=st.trouble[a],
            building=st.buildings[a], card_holder=None if city.holder(st, a) < 0 else city.holder(st, a),
            card_out=st.card_out[a], controller=scoring.controller(st, a)) for a in range(12)]
        seats = [SeatView(
            seat=s, money=st.money[s], hand_size=len(st.hands[s]), minions_in_supply=city.supply(st, s),
            buildings_in_supply=city.building_supply(st, s), loans=list(st.loans[s]), stuck=list(st.stuck[s]),
            area_cards=[a for a in range(12) if city.holder(st, a) == s],
            personality=st.personality[s] if (s == me or st.finished) else None) for s in range(n)]
        pend = self.pending(st)
        prompt = pend[me].text if me is not None and me in pend else None
        return AmView(
            seat=seat, version=st.version, turn=st.turn, turn_no=st.turn_no, areas=areas, seats=seats,
            hand=list(st.hands[me]) if me is not None else None,
            personality=st.personality[me] if me is not None else None,
            peeked=list(st.peeks[me]) if me is not None else [],
            deck_count=len(st.deck), discard=list(st.discard), events_left=len(st.event_deck),
            events_done=list(st.event_done), bank=city.bank(st), trouble_count=sum(st.trouble),
            to_act=sorted(pend), prompt=prompt, waiting=self._waiting(st),
            in_play=[f.card for f in st.stack if f.kind == "card"], finished=st.finished,
            end_reason=st.end_reason, winners=list(st.winners), scores=list(st.scores),
        )

    def _waiting(self, st: AmState) -> Text:
        """What the game waits for, naming no hidden card."""
        if st.finished:
            return scoring.end_text(st)
        f = st.stack[-1]
        who = seat_name(f.seat)
        if f.kind == "react":
            return msg("Waiting to see whether {who} reacts.", who=who)
        if f.kind == "small_gods":
            return msg("Waiting to see whether {who} pays with Small Gods.", who=who)
        return msg("Waiting for {who}.", who=who)

    def _outcome(self, state: AmState) -> Outcome:
        return scoring.outcome(state)

    def _sides(self, state: AmState) -> dict[Seat, Text]:
        # the personalities, secret until now: whose condition wins how often
        return {s: PERSONALITIES[p].name for s, p in enumerate(state.personality)}

    # ------------------------------------------------------------------ labels and AI

    def describe(self, state: AmState, seat: Seat, action: Action) -> Text:
        """A short label for a legal action, in both languages."""
        a = action
        f = state.stack[-1] if state.stack else None
        if f is not None:
            if flow.is_mossy(a) and f.kind != "react":
                return mossy_label(state, f)
            lab = HANDLERS[f.kind].label(state, f, a)
            if lab is not None:
                return lab
        if isinstance(a, Play):
            c = card_name(a.card)
            return msg("Play {card}", card=c)
        if isinstance(a, Power):
            n = area_name(a.area)
            return msg("Use {area}", area=n)
        if isinstance(a, Interrupt):
            c = card_name(a.card)
            return msg("Play {card}", card=c)
        if isinstance(a, Card):
            c = card_name(a.card)
            return c
        if isinstance(a, Area):
            n = area_name(a.area)
            return n
        if isinstance(a, Piece):
            return piece_label("choose", a)
        if isinstance(a, Player):
            n = seat_name(a.seat)
            return n
        if isinstance(a, Do):
            return msg("Do it")
        if isinstance(a, Pay):
            return msg("Pay")
        if isinstance(a, Skip):
            return msg("No")
        return super().describe(state, seat, a)
