"""Phase D: resolving the buildings in row order, as a queue of steps that stops at decisions."""

from __future__ import annotations

from rules.core import Event, Text
from rules.phrases import Phrases
from rules.rattus_cartus.cards import (
    CLASS_NAME,
    KIND,
    KIND_NAME,
    NUNS,
    building_of,
    card_name,
    kinds_name,
    names,
)
from rules.rattus_cartus.model import RcState, Task
from rules.rattus_cartus.phases import end_round, peek_event
from rules.rattus_cartus.table import (
    add_rats,
    draw_population,
    ev,
    gain_influence,
    put_away,
    rat_value,
    remove_rats,
    semicolons,
    sort_cards,
    take_from_pile,
    who,
)

msg = Phrases("rattus_cartus")

DECISIONS = frozenset({"victim", "give", "hospital", "tower", "peek"})


def strength(state: RcState, seat: int) -> int:
    """Population cards and jokers a seat played: its influence, and its claim to the premium."""
    return sum(1 for c in state.played[seat] if c in NUNS or KIND[c] == "joker")


def premium_holder(state: RcState, b: int) -> int | None:
    """Who takes the premium action at row card `b`: most population cards and jokers, ties to
    the earlier disc. With two players there is one premium a round, over both buildings."""
    if state.num_seats == 2:
        if not state.order:
            return None
        best = max(state.order, key=lambda s: (strength(state, s), -state.order.index(s)))
        return best if state.where[best] == b else None
    slots = state.slots[b]
    if not slots:
        return None
    return max(slots, key=lambda s: (strength(state, s), -slots.index(s)))


def begin_resolve(state: RcState) -> list[Event]:
    """Phase D begins once everybody has entered a building."""
    state.phase = "resolve"
    events: list[Event] = []
    if state.num_seats == 2:
        # The single premium of a two-player round compares both buildings' cards, so
        # both are shown before either is resolved.
        for b, slots in enumerate(state.slots):
            if slots:
                events.append(reveal(state, b))
    # Who takes each premium is settled now, while every played card is still on the table:
    # with two players the comparison spans both buildings, and the first building's cards
    # are discarded before the second is resolved. `premium=True` marks a decided holder
    # (`seat` -1: nobody, the other building took the round's premium).
    state.tasks = []
    for b, slots in enumerate(state.slots):
        if slots:
            holder = premium_holder(state, b)
            state.tasks.append(Task(kind="building", b=b, premium=True,
                                    seat=-1 if holder is None else holder))
    return events + advance(state)


def reveal(state: RcState, b: int) -> Event:
    """Everybody at row card `b` shows the cards they played."""
    state.revealed[b] = True
    bn = building_of(state.row[b])
    parts: list[Text] = []
    shown: dict[str, list[str]] = {}
    for s in state.slots[b]:
        kinds = [KIND[c] for c in sort_cards(state.played[s])]
        shown[str(s)] = kinds
        parts.append(msg("{seat}: {cards}", seat=who(s), cards=kinds_name(kinds)))
    return ev("reveal", msg("{building}: the cards are shown. {shown}.", building=bn.name,
                            shown=semicolons(parts)), building=b, cards=shown)


# ----------------------------------------------------------------------------- the step queue


def advance(state: RcState) -> list[Event]:
    """Run every step that needs nobody's decision; stop at the next decision or phase."""
    events: list[Event] = []
    while state.phase == "resolve":
        if not state.tasks:
            events += end_round(state)
            break
        t = state.tasks[0]
        if t.kind not in DECISIONS:
            state.tasks.pop(0)
            events += RUN[t.kind](state, t)
            continue
        if _settle(state, t, events):
            break
    return events


def _settle(state: RcState, t: Task, events: list[Event]) -> bool:
    """Carry out a decision step that leaves no real choice; True if a choice remains."""
    if t.kind == "victim":
        return True
    if t.kind in ("give", "hospital"):
        hand = state.hands[t.seat]
        if t.n <= 0 or not hand or (t.kind == "hospital" and rat_value(state, t.seat) == 0):
            state.tasks.pop(0)
            return False
        if t.kind == "give" and _forced(hand, t.n):
            for c in sort_cards(hand)[:t.n]:
                events.append(give(state, t.seat, t.target, c))
            state.tasks.pop(0)
            return False
        return True
    if t.kind == "tower":
        seats, counts = list(t.seats), list(t.counts)
        for i, s in enumerate(seats):
            hand = state.hands[s]
            if counts[i] > 0 and hand and _forced(hand, counts[i]):
                for c in sort_cards(hand)[:counts[i]]:
                    events.append(give(state, s, t.target, c))
                counts[i] = 0
            if not state.hands[s]:
                counts[i] = 0
        if not any(counts):
            state.tasks.pop(0)
            return False
        state.tasks[0] = t.model_copy(update={"counts": counts})
        return True
    # peek
    fresh = [p for p in range(len(state.nuns)) if p not in state.peeks[t.seat]]
    if t.n <= 0 or not fresh:
        state.tasks.pop(0)
        return False
    if len(fresh) <= t.n:
        events += [peek_event(state, t.seat, p) for p in fresh]
        state.tasks.pop(0)
        return False
    return True


def _forced(hand: list[str], n: int) -> bool:
    """Giving `n` cards from `hand` is no choice: all of them. (A hand all of one kind is
    still asked: skipping the question would tell everybody what the hand holds.)"""
    return n >= len(hand)


def give(state: RcState, giver: int, receiver: int, card: str) -> Event:
    """Move a card from one hand to another; only the two of them see which."""
    state.hands[giver].remove(card)
    state.hands[receiver].append(card)
    return ev("give", msg("{giver} gives {card} to {receiver}.", giver=who(giver),
                          card=card_name(card), receiver=who(receiver)), [giver, receiver],
              giver=giver, receiver=receiver, card=card)


# ----------------------------------------------------------------------------- automatic steps


def _building(state: RcState, t: Task) -> list[Event]:
    """Step a: reveal, influence and rats; then queue the duels, the actions and the discard."""
    b = t.b
    events: list[Event] = []
    if not state.revealed[b]:
        events.append(reveal(state, b))
    bn = building_of(state.row[b])
    cls = CLASS_NAME[bn.cls]
    for s in state.slots[b]:
        gain = strength(state, s)
        off = sum(1 for c in state.played[s] if c in NUNS and KIND[c] != bn.cls)
        gain_influence(state, s, bn.cls, gain)
        add_rats(state, s, off)
        if gain or off:
            events.append(ev(
                "influence", msg.n(off, "{seat}: +{gain} influence in {cls}, {n} rat.",
                                   "{seat}: +{gain} influence in {cls}, {n} rats.",
                                   seat=who(s), gain=gain, cls=cls),
                seat=s, cls=bn.cls, influence=gain, rats=off))
    if t.premium:
        holder = t.seat if t.seat >= 0 else None
    else:  # a task saved before holders were decided up front
        holder = premium_holder(state, b)
    steps = [Task(kind="duel", b=b, duel="espada"), Task(kind="duel", b=b, duel="flauta")]
    if holder is not None:
        steps.append(Task(kind="action", b=b, seat=holder, premium=True))
    steps += [Task(kind="action", b=b, seat=s) for s in state.slots[b] if s != holder]
    steps.append(Task(kind="clear", b=b))
    state.tasks[0:0] = steps
    return events


def _duel(state: RcState, t: Task) -> list[Event]:
    """Swords or Flutes at one building: the most against the fewest, if they differ."""
    slots = state.slots[t.b]
    counts = {s: sum(1 for c in state.played[s] if KIND[c] == t.duel) for s in slots}
    if len(slots) < 2 or len(set(counts.values())) == 1:
        return []
    top = max(counts.values())
    low = min(counts.values())
    winner = next(s for s in slots if counts[s] == top)
    losers = [s for s in slots if counts[s] == low]
    if len(losers) == 1:
        return duel_effect(state, t.b, t.duel, winner, losers[0])
    state.tasks.insert(0, Task(kind="victim", b=t.b, seat=winner, duel=t.duel, seats=losers))
    if t.duel == "espada":
        text = msg("Sword duel: {winner} chooses among the tied players.", winner=who(winner))
    else:
        text = msg("Flute duel: {winner} chooses among the tied players.", winner=who(winner))
    return [ev("duel_tie", text,
               winner=winner, candidates=losers)]


def duel_effect(state: RcState, b: int, duel: str, winner: int, loser: int) -> list[Event]:
    """The duel's loser gives half their hand (Sword) or receives a rat (Flute)."""
    if duel == "espada":
        k = len(state.hands[loser]) // 2
        if k:
            state.tasks.insert(0, Task(kind="give", b=b, seat=loser, target=winner, n=k,
                                       duel="espada"))
        return [ev("sword", msg.n(k, "Sword duel: {loser} gives half their hand ({n} card) to {winner}.",
                                  "Sword duel: {loser} gives half their hand ({n} cards) to {winner}.",
                                  loser=who(loser), winner=who(winner)),
                   winner=winner, loser=loser, cards=k)]
    if remove_rats(state, winner, 1):
        add_rats(state, loser, 1)
        return [ev("flute", msg("Flute duel: {winner} passes a rat to {loser}.", winner=who(winner),
                                loser=who(loser)),
                   winner=winner, loser=loser, rats=1)]
    return [ev("flute", msg("Flute duel: {winner} has no rat to pass.", winner=who(winner)),
               winner=winner, loser=loser, rats=0)]


def _action(state: RcState, t: Task) -> list[Event]:
    """Step b: one player's premium or standard action (the last round: +1 influence instead)."""
    s, bd = t.seat, building_of(state.row[t.b])
    # what every action's event begins with
    if t.premium:
        head = msg("{seat} ({building}, premium action)", seat=who(s), building=bd.name)
    else:
        head = msg("{seat} ({building}, standard action)", seat=who(s), building=bd.name)
    if state.round >= state.rounds:
        if not t.premium:
            return []
        gain_influence(state, s, bd.cls, 1)
        cls = CLASS_NAME[bd.cls]
        return [ev("final_bonus", msg("Last round: {seat} gains 1 influence in {cls} instead of "
                                      "{building}'s premium action.", seat=who(s), cls=cls,
                                      building=bd.name), seat=s, cls=bd.cls)]
    n = bd.premium if t.premium else bd.standard
    e = bd.effect
    if e in ("draw", "brew"):
        if e == "brew":
            n = state.gained[s] // (1 if t.premium else 2)
        drawn = draw_population(state, n)
        state.hands[s].extend(drawn)
        out = [ev("action", msg.n(len(drawn), "{head}: draws {n} population card.",
                                  "{head}: draws {n} population cards.", head=head),
                  seat=s, drawn=len(drawn))]
        if drawn:
            out.append(ev("drawn", msg("You draw: {cards}.", cards=names(drawn)),
                          [s], cards=drawn))
        return out
    if e == "take":
        taken = take_from_pile(state, bd.take, n)
        state.hands[s].extend(taken)
        return [ev("action", msg("{head}: takes {n} × {card}.", head=head, n=len(taken),
                                 card=KIND_NAME[bd.take]), seat=s, pile=bd.take,
                   taken=len(taken))]
    if e == "rats":
        gave = remove_rats(state, s, n)
        return [ev("action", msg.n(gave, "{head}: gives back {n} rat.", "{head}: gives back {n} rats.",
                                   head=head), seat=s, rats=gave)]
    if e == "vp":
        state.vp[s] += n
        return [ev("action", msg("{head}: takes {n} VP.", head=head, n=n), seat=s, vp=n)]
    if e == "hospital":
        out = []
        if t.premium:
            gave = remove_rats(state, s, 1)
            out.append(ev("action", msg.n(gave, "{head}: gives back {n} rat.",
                                          "{head}: gives back {n} rats.", head=head),
                          seat=s, rats=gave))
        state.tasks.insert(0, Task(kind="hospital", b=t.b, seat=s, n=n, premium=t.premium))
        return out
    if e == "peek":
        state.tasks.insert(0, Task(kind="peek", b=t.b, seat=s, n=n, premium=t.premium))
        return [ev("action", msg.n(n, "{head}: looks at {n} card of the nun row.",
                                   "{head}: looks at {n} cards of the nun row.", head=head),
                   seat=s, peeks=n)]
    # the Guard Tower
    if not t.premium:
        return [ev("action", msg("{head}: protected from the Guard Tower this round.", head=head),
                   seat=s)]
    towers = {b for b, c in enumerate(state.row) if building_of(c).id == "torre_vigia"}
    mine = len(state.hands[s])
    k = state.num_seats
    givers = [g for g in ((s + i) % k for i in range(1, k))
              if state.where[g] not in towers and len(state.hands[g]) >= mine and state.hands[g]]
    counts = [min(n, len(state.hands[g])) for g in givers]
    if givers:
        state.tasks.insert(0, Task(kind="tower", b=t.b, seat=s, target=s, seats=givers,
                                   counts=counts))
    from_whom = [who(g) for g in givers] if givers else msg("nobody")
    return [ev("action", msg("{head}: cards come from {givers}.", head=head, givers=from_whom),
               seat=s, givers=givers, counts=counts)]


def _clear(state: RcState, t: Task) -> list[Event]:
    """Step c: the played cards are discarded (jokers and specials back to their piles)."""
    for s in state.slots[t.b]:
        put_away(state, state.played[s])
        state.played[s] = []
    return []


RUN = {"building": _building, "duel": _duel, "action": _action, "clear": _clear}
