"""Setup, the preparation of each round, the end of a round and of the game."""

from __future__ import annotations

from itertools import permutations

from rules.core import Event, Outcome, Rng, seat_name
from rules.ragami.cards import deck_for
from rules.ragami.city import AROUND, SQUARES
from rules.ragami.model import FinalScore, Options, RgState, Task
from rules.ragami.table import (
    TOTAL_CONFLICT_DICE,
    TOTAL_DEMONS,
    WIN_VP,
    ev,
    flee_buildings,
    piece_owner,
    who,
)
from rules.ragami.text import msg


def new_game(num_seats: int, options: Options, seed: int) -> tuple[RgState, list[Event]]:
    """Setup steps 1 to 8; steps 9 to 12 follow as decisions (see ``advance``)."""
    n = num_seats
    s = RgState(num_seats=n, rng=Rng(seed=seed), options=options)
    s.pool = list(SQUARES)
    s.ragamis = [None] * 4
    s.saints = [None] * 4
    s.virtue_at = [None] * n
    s.virtue = [1] * n
    s.vp, s.cubes, s.resolved = [0] * n, [0] * n, [0] * n
    s.hands, s.fresh, s.drawn = (
        [[] for _ in range(n)],
        [[] for _ in range(n)],
        [[] for _ in range(n)],
    )
    events: list[Event] = []
    # 5: six conflicts, each at the square of a location token drawn at random
    for _ in range(TOTAL_CONFLICT_DICE):
        q = draw_token(s)
        s.conflicts[q] = s.rng.randint(1, 6)
    # 6: four Demons, each with its location token
    for _ in range(4):
        s.demons.append(draw_token(s))
    s.demons.sort()
    # 7: the first player at random
    s.first = s.rng.randint(0, n - 1)
    # 2 and 3 players: the Saints of no player go where a location token says, a token for
    # each (so two neutral Saints start on two squares); the tokens only pick the squares
    # and go back face down
    for c in range(n, 4):
        s.saints[c] = s.rng.choice([q for q in s.pool if q not in s.saints])
    if n == 2 and options.neutral_ragami:
        s.neutral = 2
    # 8: everybody draws three cards and keeps one
    s.deck = deck_for(n, options.power_die)
    s.rng.shuffle(s.deck)
    for seat in range(n):
        s.drawn[seat] = draw_cards(s, 3)
    events.append(
        ev(
            "setup",
            msg("The game begins; the first player is {first}.", first=who(s.first)),
            first=s.first,
        )
    )
    return s, events


def draw_token(state: RgState) -> int:
    """Draw a face-down location token at random; it stays out, beside its piece."""
    q = state.rng.choice(state.pool)
    state.pool.remove(q)
    state.tokens.append(q)
    state.tokens.sort()
    return q


def draw_cards(state: RgState, n: int) -> list[int]:
    """Draw up to ``n`` cards, reshuffling the discard pile when the deck runs out."""
    out: list[int] = []
    for _ in range(n):
        if not state.deck and state.discard:
            state.deck = state.discard
            state.discard = []
            state.rng.shuffle(state.deck)
        if not state.deck:
            break
        out.append(state.deck.pop())
    return out


def order_from(state: RgState, k: int) -> list[int]:
    """Seats in turn order starting with the k-th player (0 = the first player)."""
    n = state.num_seats
    return [(state.first + k + i) % n for i in range(n)]


def last_player(state: RgState) -> int:
    """The last player of the round (the one right of the first player)."""
    return (state.first - 1) % state.num_seats


def placement_tasks(state: RgState) -> list[Task]:
    """Setup steps 9 to 11 in their seat order (the 2-player order of the rulebook)."""
    if state.num_seats == 2:
        p1, p2 = state.first, 1 - state.first
        neutral = (
            [] if state.neutral is None else [Task(kind="ragami", seat=p2, colour=state.neutral)]
        )
        return [
            Task(kind="saint", seat=p1),
            Task(kind="virtue", seat=p1),
            Task(kind="saint", seat=p2),
            Task(kind="virtue", seat=p2),
            Task(kind="ragami", seat=p2, colour=p2),
            *neutral,
            Task(kind="ragami", seat=p1, colour=p1),
        ]
    return (
        [Task(kind="saint", seat=s) for s in order_from(state, 0)]
        + [Task(kind="virtue", seat=s) for s in order_from(state, 1)]
        + [Task(kind="ragami", seat=s, colour=s) for s in order_from(state, 2)]
    )


def roll_action_dice(state: RgState) -> list[Event]:
    """Setup 12 / preparation 6: the last player rolls the three action dice."""
    seat = last_player(state)
    state.rolled = [state.rng.randint(1, 6) for _ in range(3)]
    ones = [i for i, v in enumerate(state.rolled) if v == 1]
    demons = min(len(ones), TOTAL_DEMONS - len(state.demons))
    state.tasks += [Task(kind="demon", seat=seat) for _ in range(demons)]
    state.tasks += [Task(kind="set_die", seat=seat, die=i) for i in ones]
    state.tasks.append(Task(kind="arrange", seat=seat))
    vals = ", ".join(str(v) for v in state.rolled)
    return [
        ev(
            "action_dice",
            msg("{seat} rolls the Action dice: {dice}.", seat=who(seat), dice=vals),
            seat=seat,
            rolled=state.rolled,
        )
    ]


def arrangements(values: list[int]) -> list[list[int]]:
    """The distinct ways of putting three dice on the three slots."""
    return sorted({tuple(p) for p in permutations(values)}, reverse=True)  # type: ignore[return-value]


def advance(state: RgState) -> list[Event]:
    """Run everything automatic until a seat must decide (or the game is over)."""
    events: list[Event] = []
    while not state.finished and not state.tasks and state.step is None:
        if state.phase == "keep":
            if any(state.drawn):
                break
            state.phase = "setup"
            state.tasks = placement_tasks(state)
            state.prep = 6
            continue
        if state.phase == "setup":
            events += prep_stage(state)
            continue
        break
    return events


def prep_stage(state: RgState) -> list[Event]:
    """One stage of the preparation of a round (1-7); 6 and 7 also end the setup."""
    stage = state.prep
    state.prep += 1
    n = state.num_seats
    if stage == 1:
        state.round += 1
        state.first = (state.first + 1) % n
        return [
            ev(
                "round",
                msg(
                    "Round {round}: the first player is {first}.",
                    round=state.round,
                    first=who(state.first),
                ),
                round=state.round,
                first=state.first,
            )
        ]
    if stage == 2:
        return age_conflicts(state)
    if stage == 3:
        return grow_virtue(state)
    if stage == 4:
        return new_conflicts(state)
    if stage == 5:
        state.tasks = [Task(kind="prep_virtue", seat=s) for s in order_from(state, 0)]
        return []
    if stage == 6:
        return roll_action_dice(state)
    state.prep = 0
    state.phase = "turn"
    state.turn = state.first
    state.die_used = state.acted = False
    state.idle = 0
    return [
        ev(
            "turn",
            msg("{seat}'s turn.", seat=who(state.turn)),
            seat=state.turn,
        )
    ]


def age_conflicts(state: RgState) -> list[Event]:
    """Preparation 2: every Conflict die goes up 1; a 7 leaves a "paso prohibido" token and
    the Ragamis there must go to a building next to it."""
    events: list[Event] = []
    for q in sorted(state.conflicts):
        state.conflicts[q] += 1
        if state.conflicts[q] < 7:
            continue
        del state.conflicts[q]
        state.forbidden.append(q)
        state.forbidden.sort()
        events.append(
            ev(
                "forbidden",
                msg("The conflict on square {square} reaches 7: no passing.", square=q),
                square=q,
            )
        )
        for c, node in enumerate(state.ragamis):
            if node != str(q):
                continue
            owner = piece_owner(state, c)
            choices = flee_buildings(state, c)
            if len(choices) == 1:
                state.ragamis[c] = choices[0]
            else:
                state.tasks.append(
                    Task(kind="flee", seat=owner if owner is not None else state.first, colour=c)
                )
    return events


def grow_virtue(state: RgState) -> list[Event]:
    """Preparation 3: each Virtue die +1, and +1 per Ragami on its building or around it."""
    events = []
    for seat, b in enumerate(state.virtue_at):
        if b is None:
            continue
        near = {b, *(str(q) for q in AROUND[b])}
        extra = sum(1 for node in state.ragamis if node in near)
        before = state.virtue[seat]
        state.virtue[seat] = min(6, before + 1 + extra)
        events.append(
            ev(
                "virtue_grows",
                msg(
                    "{seat}'s Virtue die: {before} → {after}.",
                    seat=who(seat),
                    before=before,
                    after=state.virtue[seat],
                ),
                seat=seat,
                value=state.virtue[seat],
            )
        )
    return events


def new_conflicts(state: RgState) -> list[Event]:
    """Preparation 4: every Conflict die in the supply is rolled and placed by a token."""
    events = []
    for _ in range(TOTAL_CONFLICT_DICE - len(state.conflicts)):
        if not state.pool:
            break
        q = draw_token(state)
        state.conflicts[q] = state.rng.randint(1, 6)
        events.append(
            ev(
                "conflict",
                msg("New conflict of {die} on square {square}.", die=state.conflicts[q], square=q),
                square=q,
                die=state.conflicts[q],
            )
        )
    if not state.pool:
        events.append(
            ev(
                "last_round",
                msg("The location tokens have run out: this is the last round."),
            )
        )
    return events


def end_turn(state: RgState) -> list[Event]:
    """The turn player ends the turn; the round ends when everyone in a row passed."""
    seat = state.turn
    n = state.num_seats
    state.fresh[seat] = []
    state.idle = 0 if state.acted else state.idle + 1
    events = [
        ev(
            "pass" if not state.acted else "end_turn",
            msg("{seat} passes.", seat=who(seat))
            if not state.acted
            else msg("{seat} ends the turn.", seat=who(seat)),
            seat=seat,
        )
    ]
    if state.idle >= n:
        return events + end_round(state)
    state.turn = (seat + 1) % n
    state.die_used = state.acted = False
    return events + [
        ev(
            "turn",
            msg("{seat}'s turn.", seat=who(state.turn)),
            seat=state.turn,
        )
    ]


def end_round(state: RgState) -> list[Event]:
    """All have passed: the game ends, or the next round is prepared."""
    events = [
        ev(
            "round_end",
            msg("End of round {round}.", round=state.round),
            round=state.round,
        )
    ]
    if max(state.vp) >= WIN_VP or not state.pool:
        state.end_reason = "vp" if max(state.vp) >= WIN_VP else "tokens"
        return events + final_scoring(state)
    state.phase = "setup"
    state.prep = 1
    return events + advance(state)


def final_scoring(state: RgState) -> list[Event]:
    """Last cube exchange, the 7 and 4 VP for conflicts resolved, and the end."""
    n = state.num_seats
    before = list(state.vp)
    cubes = [state.cubes[s] // 2 for s in range(n)]
    for s in range(n):
        state.vp[s] += cubes[s]
        state.cube_supply += 2 * cubes[s]
        state.cubes[s] -= 2 * cubes[s]
    bonus = bonuses(state.resolved)
    for s in range(n):
        state.vp[s] += bonus[s]
    state.final = [
        FinalScore(
            seat=s,
            vp_before=before[s],
            cubes=cubes[s],
            bonus=bonus[s],
            resolved=state.resolved[s],
            total=state.vp[s],
        )
        for s in range(n)
    ]
    state.finished = True
    state.phase = "over"
    state.step = None
    state.tasks = []
    out = outcome(state)
    return [
        ev(
            "game_over",
            msg("Game over. Winner: {winners}.", winners=[who(s) for s in out.winners]),
            winners=out.winners,
            vp=state.vp,
        )
    ]


def bonuses(resolved: list[int]) -> list[int]:
    """7 VP to the most conflicts resolved, 4 VP to the second most; ties share the same
    bonus, the second bonus goes to the next count down; nobody scores it with none resolved."""
    counts = sorted({r for r in resolved if r > 0}, reverse=True)
    out = []
    for r in resolved:
        if counts and r == counts[0]:
            out.append(7)
        elif len(counts) > 1 and r == counts[1]:
            out.append(4)
        else:
            out.append(0)
    return out


def outcome(state: RgState) -> Outcome:
    """Most VP wins; then most conflicts resolved; then the tied players share the place."""
    n = state.num_seats
    key = {s: (state.vp[s], state.resolved[s]) for s in range(n)}
    groups: list[list[int]] = []
    for s in sorted(range(n), key=lambda x: key[x], reverse=True):
        if groups and key[groups[-1][0]] == key[s]:
            groups[-1].append(s)
        else:
            groups.append([s])
    why = (
        msg("Ended at 30 VP.")
        if state.end_reason == "vp"
        else msg("Ended: no location tokens left.")
    )
    # how it was won: the winners' points, and the conflicts when they broke a tie on points
    best = groups[0]
    vp, resolved = key[best[0]]
    tie_broken = len(groups) > 1 and key[groups[1][0]][0] == vp
    won = (
        msg("{why} {winners} wins with {vp} VP, ahead on conflicts resolved ({conflicts}).",
            why=why, winners=[seat_name(s) for s in best], vp=vp, conflicts=resolved)
        if tie_broken and len(best) == 1
        else msg.n(len(best), "{why} {winners} wins with {vp} VP.", "{why} {winners} share the win with {vp} VP.",
                   why=why, winners=[seat_name(s) for s in best], vp=vp)
    )
    return Outcome(ranking=groups, scores={s: float(state.vp[s]) for s in range(n)}, reason=won)
