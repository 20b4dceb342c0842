"""Control of areas, the personalities' win conditions, and the end of the game."""

from __future__ import annotations

from rules.ankh_morpork import city
from rules.ankh_morpork.board import AREAS
from rules.ankh_morpork.model import AmState
from rules.ankh_morpork.personalities import (
    AREAS_NEEDED,
    LOAN_WEIGHT,
    PERSONALITIES,
    SPIES_NEEDED,
    TROUBLE_NEEDED,
    WEALTH_NEEDED,
)
from rules.ankh_morpork.text import act, commas, personality_name, say, seat_name, semicolons
from rules.core import Event, Outcome, Text
from rules.phrases import Phrases

msg = Phrases("ankh_morpork")

LOAN_REPAY = 12
LOAN_PENALTY = 15


def controller(st: AmState, a: int) -> int | None:
    """Who controls area ``a``: more pieces than anyone else alone and than its trolls; no demons."""
    if st.demons[a]:
        return None
    pieces = [st.minions[a][s] + (1 if st.buildings[a] == s else 0) for s in range(st.num_seats)]
    best = max(pieces)
    if best == 0 or pieces.count(best) > 1 or best <= st.trolls[a]:
        return None
    return pieces.index(best)


def controlled(st: AmState, s: int) -> int:
    """How many areas the seat controls."""
    return sum(1 for a in range(12) if controller(st, a) == s)


def spy_areas(st: AmState, s: int) -> int:
    """Demon-free areas holding at least one of the seat's minions (Vetinari)."""
    return sum(1 for a in range(12) if st.minions[a][s] and not st.demons[a])


def building_value(st: AmState, a: int) -> int:
    """A building's worth: its area's cost, nothing while a demon is there."""
    return 0 if st.demons[a] else AREAS[a].cost


def wealth(st: AmState, s: int) -> int:
    """Chrysoprase's worth: money plus own buildings, less $12 a loan."""
    built = sum(building_value(st, a) for a in range(12) if st.buildings[a] == s)
    return st.money[s] + built - LOAN_WEIGHT * len(st.loans[s])


def progress(st: AmState, s: int) -> tuple[int, int]:
    """How far the seat's personality is from winning now: (have, need)."""
    goal = PERSONALITIES[st.personality[s]].goal
    n = st.num_seats
    if goal == "spies":
        return spy_areas(st, s), SPIES_NEEDED[n]
    if goal == "control":
        return controlled(st, s), AREAS_NEEDED[n]
    if goal == "trouble":
        return sum(st.trouble), TROUBLE_NEEDED
    if goal == "wealth":
        return wealth(st, s), WEALTH_NEEDED
    return 101 - len(st.deck), 101  # Vimes: only the end of the deck


def wins_now(st: AmState, s: int) -> bool:
    """Whether the seat's personality is fulfilled (Vimes never wins this way)."""
    if PERSONALITIES[st.personality[s]].goal == "deck":
        return False
    have, need = progress(st, s)
    return have >= need


def start_of_turn(st: AmState, s: int) -> list[Event]:
    """At the start of a turn its player wins if their personality's condition holds."""
    if not wins_now(st, s):
        return []
    p = personality_name(st.personality[s])
    ev = act("win", s, msg("{player} is {personality} and meets their win condition.", player=seat_name(s), personality=p),
             personality=st.personality[s])
    return [ev] + finish(st, "personality", [s])


def points(st: AmState, s: int) -> int:
    """End-of-game points: 5 a minion, buildings at cost (none where demons are), money, loans."""
    total = 0
    for a in range(12):
        if st.demons[a]:
            continue
        total += 5 * st.minions[a][s]
        if st.buildings[a] == s:
            total += AREAS[a].cost
    cash = st.money[s]
    for _ in st.loans[s]:
        if cash >= LOAN_REPAY:
            cash -= LOAN_REPAY
        else:
            total -= LOAN_PENALTY
    return total + cash


def best_card(st: AmState, s: int) -> int:
    """Tie-break: the most valuable city area card the seat holds."""
    return max((AREAS[a].cost for a in range(12) if city.holder(st, a) == s), default=0)


def ranking(st: AmState) -> list[list[int]]:
    """Winners first, then the others by points and the card tie-break."""
    rest = [s for s in range(st.num_seats) if s not in st.winners]
    key = {s: (st.scores[s], best_card(st, s)) for s in rest}
    groups: list[list[int]] = [list(st.winners)] if st.winners else []
    for k in sorted(set(key.values()), reverse=True):
        groups.append([s for s in rest if key[s] == k])
    return groups


def finish(st: AmState, reason: str, winners: list[int] | None = None) -> list[Event]:
    """End the game: a personality's win, riots, or the deck's last card."""
    st.finished = True
    st.end_reason = reason
    # cards still being resolved (riots in the middle of a card) end on the discard pile
    st.discard.extend(f.card for f in st.stack if f.kind == "card" and f.stage != "kept")
    st.stack.clear()
    st.scores = [points(st, s) for s in range(st.num_seats)]
    if winners is None and reason == "deck":
        winners = [s for s in range(st.num_seats) if st.personality[s] == "vimes"] or None
    if winners is None:
        best = max((st.scores[s], best_card(st, s)) for s in range(st.num_seats))
        winners = [s for s in range(st.num_seats) if (st.scores[s], best_card(st, s)) == best]
    st.winners = winners
    reveal = semicolons([msg("{seat}: {personality}", seat=seat_name(s), personality=personality_name(st.personality[s]))
                         for s in range(st.num_seats)])
    text = msg("The game is over: {reason} Personalities: {personalities}.", reason=end_text(st), personalities=reveal)
    return [say("game_end", text, winners=winners, scores=st.scores, reason=reason)]


def condition_met(st: AmState, s: int) -> Text:
    """What the seat's personality had when it won: the figure its condition counts."""
    have, need = progress(st, s)
    goal = PERSONALITIES[st.personality[s]].goal
    if goal == "spies":
        return msg("minions in {have} areas without a demon ({need} needed)", have=have, need=need)
    if goal == "control":
        return msg("{have} areas controlled ({need} needed)", have=have, need=need)
    if goal == "trouble":
        return msg("{have} trouble markers on the board ({need} needed)", have=have, need=need)
    return msg("${have} in cash and buildings, less loans (${need} needed)", have=have, need=need)


def end_text(st: AmState) -> Text:
    """Why the game ended and who won, in a sentence: the condition that won, and the points
    with what they were for (they decide only when no personality wins)."""
    names = [seat_name(s) for s in st.winners]
    pts = commas([msg("{seat} {points}", seat=seat_name(s), points=st.scores[s]) for s in range(st.num_seats)])
    if st.end_reason == "personality":
        w = st.winners[0]
        return msg("{winner} wins as {personality}, whose condition is met at the start of their turn: "
                   "{condition}. The points ({points}) only place the others.",
                   winner=names, personality=personality_name(st.personality[w]), condition=condition_met(st, w),
                   points=pts)
    if st.end_reason == "deck" and any(st.personality[s] == "vimes" for s in st.winners):
        return msg("the deck ran out and {winner}, Commander Vimes, wins. The points ({points}) only place the "
                   "others.", winner=names, points=pts)
    if st.end_reason == "deck":
        return msg.n(len(st.winners), "the deck ran out; {winners} wins on points (points: {points}).",
                     "the deck ran out; {winners} win on points (points: {points}).", winners=names, points=pts)
    return msg.n(len(st.winners), "riots broke out; {winners} wins on points (points: {points}).",
                 "riots broke out; {winners} win on points (points: {points}).", winners=names, points=pts)


def outcome(st: AmState) -> Outcome:
    """The final result."""
    return Outcome(ranking=ranking(st), scores={s: float(st.scores[s]) for s in range(st.num_seats)},
                   reason=end_text(st))
