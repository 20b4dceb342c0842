"""Setting up, and phases A (buildings), B (supply), C (entering) and E (end of round)."""

from __future__ import annotations

from rules.core import Event, Rng
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
from rules.rattus_cartus.table import (
    consolidate,
    count,
    draw_population,
    ev,
    put_away,
    remove_rats,
    who,
)

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
    events = [ev("start", f"Empieza la partida: {who(state.start).es} es el jugador inicial.",
                 f"The game begins: {who(state.start).en} is the start player.",
                 start=state.start)]
    events += [ev("hand", f"Tu mano: {names(h).es}.", f"Your hand: {names(h).en}.", [s])
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
    es = ", ".join(f"{building_of(c).es} ({supply_of(c).text().es})" for c in row)
    en = ", ".join(f"{building_of(c).en} ({supply_of(c).text().en})" for c in row)
    last = state.round == state.rounds
    note_es = " (la última: sin acciones de edificio)" if last else ""
    note_en = " (the last: no building actions)" if last else ""
    return [ev("round", f"Ronda {state.round} de {state.rounds}{note_es}. Edificios: {es}.",
               f"Round {state.round} of {state.rounds}{note_en}. Buildings: {en}.",
               round=state.round, row=list(row), swaps=swaps)]


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
    events = [ev("supply_chosen", f"{who(seat).es} ya ha elegido su suministro.",
                 f"{who(seat).en} has chosen their supply.", seat=seat)]
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
    parts_es, parts_en = [], []
    if sup.draw:
        c = count(len(drawn), "carta", "card")
        parts_es.append(f"roba {c.es}")
        parts_en.append(f"draws {c.en}")
    if sup.rats:
        c = count(gave, "rata", "rat")
        parts_es.append(f"devuelve {c.es}")
        parts_en.append(f"gives back {c.en}")
    if peek >= 0:
        parts_es.append("mira una carta de la fila de religiosas")
        parts_en.append("looks at a card of the nun row")
    events = [ev("supply", f"{who(seat).es} usa el suministro de {b.es}: {', '.join(parts_es)}.",
                 f"{who(seat).en} uses the supply of {b.en}: {', '.join(parts_en)}.",
                 seat=seat, card=card, drawn=len(drawn), rats=gave, peeked=peek >= 0)]
    if drawn:
        events.append(ev("drawn", f"Robas: {names(drawn).es}.", f"You draw: {names(drawn).en}.",
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
    return ev("peek", f"La religiosa n.º {position + 1} muestra {n}.",
              f"Nun card #{position + 1} shows {n}.", [seat], position=position, nuns=n)


# ----------------------------------------------------------------------------- C. entering


def play_safe_conduct(state: RcState, seat: int) -> list[Event]:
    """Play a Safe-conduct: the seat chooses again after everybody still to choose."""
    card = next(c for c in state.hands[seat] if KIND[c] == "salvo")
    state.hands[seat].remove(card)
    put_away(state, [card])
    state.queue.append(state.queue.pop(0))
    return [ev("pass", f"{who(seat).es} juega un Salvoconducto y elegirá más tarde.",
               f"{who(seat).en} plays a Safe-conduct and will choose later.", seat=seat)]


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
    c = count(len(cards), "carta", "card")
    return [
        ev("enter", f"{who(seat).es} entra en {bn.es} (espacio {space}) con {c.es} boca abajo.",
           f"{who(seat).en} enters {bn.en} (space {space}) with {c.en} face down.",
           seat=seat, building=b, space=space, cards=len(cards)),
        ev("played", f"Juegas boca abajo: {names(cards).es}.",
           f"You play face down: {names(cards).en}.", [seat], cards=list(cards)),
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
        from rules.rattus_cartus.scoring import finish

        return finish(state)
    state.round += 1
    return [ev("round_end", f"Fin de la ronda. {who(state.start).es} es el nuevo jugador inicial.",
               f"End of the round. {who(state.start).en} is the new start player.",
               start=state.start)] + begin_round(state)
