"""Setting up, and phases A (buildings), B (supply), C (entering) and E (end of round)."""

from __future__ import annotations

from rules.core import Event, Rng, Text
from rules.phrases import Phrases
from rules.rattus_cartus.cards import (
    BUILDING_CARDS,
    BY_CLASS,
    CLASSES,
    FIRST_GAME,
    HAND,
    KIND,
    NUN_ROW,
    NUNS,
    PILES,
    RESERVE,
    ROUNDS,
    ROW_SIZE,
    START_RATS,
    building_of,
    names,
    supply_of,
)
from rules.rattus_cartus.model import Options, RcState
from rules.rattus_cartus.scoring import finish
from rules.rattus_cartus.table import (
    consolidate,
    draw_population,
    ev,
    put_away,
    remove_rats,
    who,
)

msg = Phrases("rattus_cartus")

# ----------------------------------------------------------------------------- setup


def building_cards(options: Options, rng: Rng) -> list[str]:
    """The 30 building cards of the game, five per class, as the options choose them."""
    if options.buildings == "random_cards":
        out: list[str] = []
        for cls in CLASSES:
            pool = [c for c, (b, _) in BUILDING_CARDS.items() if b in BY_CLASS[cls]]
            rng.shuffle(pool)
            out.extend(sorted(pool[:5]))
        return out
    if options.buildings == "random_buildings":
        types = [rng.choice(BY_CLASS[cls]) for cls in CLASSES]
    elif options.buildings == "chosen":
        types = list(options.chosen)
    else:
        types = list(FIRST_GAME)
    return [c for c, (b, _) in BUILDING_CARDS.items() if b in types]


def new_game(num_seats: int, options: Options, seed: int) -> tuple[RcState, list[Event]]:
    """Set the table: buildings and reserve, nun row, hands, rats, start player; round 1 begins."""
    n = num_seats
    rng = Rng(seed=seed)
    cards = building_cards(options, rng)
    rng.shuffle(cards)
    reserve = cards[len(cards) - RESERVE[n]:]
    deck = cards[:len(cards) - RESERVE[n]]
    population = list(NUNS)
    rng.shuffle(population)
    nuns = [population.pop() for _ in range(NUN_ROW)]
    hands = [[population.pop() for _ in range(HAND)] for _ in range(n)]
    state = RcState(
        num_seats=n, rng=rng, options=options, rounds=ROUNDS[n],
        in_play=sorted({BUILDING_CARDS[c][0] for c in cards}),
        building_deck=deck, reserve=reserve, deck=population, nuns=nuns,
        peeks=[[] for _ in range(n)], hands=hands,
        rats=[list(START_RATS) for _ in range(n)],
        influence=[[0] * 6 for _ in range(n)], arrived=[[0] * 6 for _ in range(n)],
        vp=[0] * n, piles={k: list(v) for k, v in PILES.items()},
    )
    state.start = rng.randint(0, n - 1)
    events = [ev("start", msg("The game begins: {start} is the start player.", start=who(state.start)),
                 start=state.start)]
    events += [ev("hand", msg("Your hand: {cards}.", cards=names(h)), [s])
               for s, h in enumerate(hands)]
    return state, events + begin_round(state)


# ----------------------------------------------------------------------------- A. buildings


def begin_round(state: RcState) -> list[Event]:
    """Phase A: draw the row of building cards (never all the same building), then phase B."""
    n = state.num_seats
    row = [state.building_deck.pop() for _ in range(min(ROW_SIZE[n], len(state.building_deck)))]
    swaps = 0
    # All drawn cards show one building: the last one goes under the reserve and the
    # reserve's top card takes its place, until a different building shows (or the
    # whole reserve has been tried).
    while len(row) > 1 and len({BUILDING_CARDS[c][0] for c in row}) == 1 and state.reserve \
            and swaps < len(state.reserve):
        state.reserve.insert(0, row[-1])
        row[-1] = state.reserve.pop()
        swaps += 1
    state.row = row
    state.phase = "supply"
    state.choices = [None] * n
    state.queue = []
    state.entering = -1
    state.picking = []
    state.slots = [[] for _ in row]
    state.played = [[] for _ in range(n)]
    state.where = [-1] * n
    state.order = []
    state.revealed = [False] * len(row)
    state.gained = [0] * n
    state.tasks = []
    buildings = [msg("{building} ({supply})", building=building_of(c).name, supply=supply_of(c).text())
                 for c in row]
    if state.round == state.rounds:
        text = msg("Round {round} of {rounds} (the last: no building actions). Buildings: {buildings}.",
                   round=state.round, rounds=state.rounds, buildings=buildings)
    else:
        text = msg("Round {round} of {rounds}. Buildings: {buildings}.", round=state.round,
                   rounds=state.rounds, buildings=buildings)
    return [ev("round", text, round=state.round, row=list(row), swaps=swaps)]


# ----------------------------------------------------------------------------- B. supply


def supply_options(state: RcState, seat: int) -> list[tuple[int, int | None]]:
    """Every (row card, nun position) a seat may choose in phase B."""
    out: list[tuple[int, int | None]] = []
    for i, c in enumerate(state.row):
        if supply_of(c).peeks:
            for p in unseen(state, seat):
                out.append((i, p))
        else:
            out.append((i, None))
    return out


def unseen(state: RcState, seat: int) -> list[int]:
    """Nun positions the seat has not looked at (all five once it has seen them all)."""
    seen = state.peeks[seat]
    out = [p for p in range(NUN_ROW) if p not in seen]
    return out or list(range(NUN_ROW))


def choose_supply(state: RcState, seat: int, card: int, peek: int | None) -> list[Event]:
    """Record a seat's secret phase-B choice; once everybody has chosen, carry them all out."""
    state.choices[seat] = [card, -1 if peek is None else peek]
    events = [ev("supply_chosen", msg("{seat} has chosen their supply.", seat=who(seat)), seat=seat)]
    if any(c is None for c in state.choices):
        return events
    n = state.num_seats
    for k in range(n):
        s = (state.start + k) % n
        choice = state.choices[s]
        assert choice is not None
        events += do_supply(state, s, choice[0], choice[1])
    state.choices = [None] * n
    state.phase = "enter"
    state.queue = [(state.start + k) % n for k in range(n)]
    return events


def do_supply(state: RcState, seat: int, card: int, peek: int) -> list[Event]:
    """Carry out one seat's supply action: public counts, private cards and nuns."""
    sup = supply_of(state.row[card])
    b = building_of(state.row[card])
    drawn = draw_population(state, sup.draw)
    state.hands[seat].extend(drawn)
    gave = remove_rats(state, seat, sup.rats)
    # what the supply did, joined as the language joins a list
    did: list[Text] = []
    if sup.draw:
        did.append(msg.n(len(drawn), "draws {n} card", "draws {n} cards"))
    if sup.rats:
        did.append(msg.n(gave, "gives back {n} rat", "gives back {n} rats"))
    if peek >= 0:
        did.append(msg("looks at a card of the nun row"))
    events = [ev("supply", msg("{seat} uses the supply of {building}: {actions}.", seat=who(seat),
                               building=b.name, actions=did),
                 seat=seat, card=card, drawn=len(drawn), rats=gave, peeked=peek >= 0)]
    if drawn:
        events.append(ev("drawn", msg("You draw: {cards}.", cards=names(drawn)),
                         [seat], cards=drawn))
    if peek >= 0:
        events.append(peek_event(state, seat, peek))
    return events


def peek_event(state: RcState, seat: int, position: int) -> Event:
    """Look at a nun card: only the seat learns what it shows."""
    if position not in state.peeks[seat]:
        state.peeks[seat].append(position)
        state.peeks[seat].sort()
    n = NUNS[state.nuns[position]]
    return ev("peek", msg("Nun card #{number} shows {nuns}.", number=position + 1, nuns=n), [seat],
              position=position, nuns=n)


# ----------------------------------------------------------------------------- C. entering


def play_safe_conduct(state: RcState, seat: int) -> list[Event]:
    """Play a Safe-conduct: the seat chooses again after everybody still to choose."""
    card = next(c for c in state.hands[seat] if KIND[c] == "salvo")
    state.hands[seat].remove(card)
    put_away(state, [card])
    state.queue.append(state.queue.pop(0))
    return [ev("pass", msg("{seat} plays a Safe-conduct and will choose later.", seat=who(seat)), seat=seat)]


def enter(state: RcState, seat: int) -> list[Event]:
    """The seat's disc goes on the next space of its building with the cards picked."""
    b, cards = state.entering, state.picking
    hand = state.hands[seat]
    for c in cards:
        hand.remove(c)
    state.played[seat] = cards
    state.slots[b].append(seat)
    state.where[seat] = b
    state.order.append(seat)
    state.queue.pop(0)
    state.entering = -1
    state.picking = []
    bn = building_of(state.row[b])
    space = len(state.slots[b])
    return [
        ev("enter", msg.n(len(cards), "{seat} enters {building} (space {space}) with {n} card face down.",
                          "{seat} enters {building} (space {space}) with {n} cards face down.",
                          seat=who(seat), building=bn.name, space=space),
           seat=seat, building=b, space=space, cards=len(cards)),
        ev("played", msg("You play face down: {cards}.", cards=names(cards)), [seat], cards=list(cards)),
    ]


# ----------------------------------------------------------------------------- E. end of round


def end_round(state: RcState) -> list[Event]:
    """Phase E: discs come back, the row is discarded, the start player card moves left."""
    state.building_discard.extend(state.row)
    state.row = []
    state.slots = []
    state.revealed = []
    state.where = [-1] * state.num_seats
    state.order = []
    for s in range(state.num_seats):
        consolidate(state, s)
    state.start = (state.start + 1) % state.num_seats
    if state.round >= state.rounds:
        return finish(state)
    state.round += 1
    return [ev("round_end", msg("End of the round. {start} is the new start player.", start=who(state.start)),
               start=state.start)] + begin_round(state)
