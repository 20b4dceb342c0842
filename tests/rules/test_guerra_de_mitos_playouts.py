"""Seeded random play-outs of whole Guerra de Mitos games, checking the contract as they go.

Each game seats 2, 3 or 4 players with distinct ready decks drawn at random for the seed,
and a seeded random player moves for every seat until the game ends by its own rules:
``GAMES`` games per player count (the issue's 300), in chunks of ``CHUNK`` per test case so
that pytest-xdist spreads them over the cores.

On every step of every game (the cheap checks):
- the game is not over and some seat is pending; ``legal_actions`` of the pending seat does
  not raise and is not empty, every seat not pending has no legal action, and one of them
  at random has its move refused (``NotYourTurn``);
- the action chosen among them applies, and the game moves on by one version.

On one step in ``EVERY`` of every game, from a random offset (so at least once in every
game), the costly checks:
- no view (the public one and one seat's at random) changes when every secret of the other
  seats is replaced (hands, design decks, face-down oracle cards, the order of the viewer's
  own deck, a bid not yet revealed), nor do the prompts of ``pending`` that every seat may
  read, and views round-trip through JSON;
- the state round-trips through JSON;
- the legal actions are the same when listed without the index of the cards in play, and
  each passes the narrower check that ``apply`` makes;
- a malformed action, a card the seat cannot target and a move by a seat not pending are
  refused with a ``RuleError``, and leave the state untouched;
- up to three other legal actions apply too, and applying never changes the state it was
  given.

At the end of every game: an outcome with its ranking, no legal action left, any further move
refused, the end reached by the rules (never by the safety bound on turns, see
``docs/rules/guerra_de_mitos.md``), every view of the final table (the public one and each
seat's) free of other seats' secrets and round-tripping, and the state ``TAIL`` moves before the end, written to JSON and
read back, replays the last moves to exactly the final state. For one game in ``REPLAY``,
replaying the whole log from the seed reproduces the final state exactly.

``GDM_PLAYOUTS`` (for example 30) changes the count per player count;
``bench/bench_guerra_de_mitos.py --playouts`` runs the same checks and prints figures.
"""

from __future__ import annotations

import os
import random
from collections import deque

import pytest

from rules.core import Action, GameOver, IllegalAction, NotYourTurn, RuleError
from rules.guerra_de_mitos.engine import ready_decks
from rules.guerra_de_mitos.legal import legal as legal_actions
from rules.guerra_de_mitos.model import GdmState, Move, Options, Target
from tests.rules import gdm_helpers as H

E = H.E
GAMES = {2: 300, 3: 300, 4: 300}
if os.environ.get("GDM_PLAYOUTS", "").isdigit():
    GAMES = dict.fromkeys(GAMES, int(os.environ["GDM_PLAYOUTS"]))
CHUNK = 25  # games per test case
EVERY = 500  # the costly checks run on one step in EVERY (games last about 200 to 500 moves)
REPLAY = 10  # the replay from the seed runs for one game in REPLAY
TAIL = 30  # the last moves replayed from a state read back from JSON, in every game
PLAIN = 0.2  # the share of seats that play as the plain random player (see ``move``)


def options(rng: random.Random, n: int) -> Options:
    """Distinct ready decks in a random pairing (by name, as a player picks them)."""
    names = sorted(ready_decks())
    rng.shuffle(names)
    return Options(decks=names[:n])


def pick(rng: random.Random, legal: list[Action]) -> Action:
    """The random player: a kind of action at random, then one action of that kind.

    Drawing the kind first keeps the rare kinds (playing a card, using an ability, choosing
    a target) as likely as the many counter moves. In the assignment of a confrontation it
    assigns three times in four when it can: a random player that meditates with every
    character keeps them all tired, so that nobody ever fights, for a very long time.
    """
    kinds = sorted({a.kind for a in legal})
    if "assign" in kinds and rng.random() < 0.75:
        kind = "assign"
    else:
        kind = rng.choice(kinds)
    return rng.choice([a for a in legal if a.kind == kind])


def move(rng: random.Random, st: GdmState, seat: int, legal: list[Action], eager: bool) -> Action:
    """The random player of the play-outs: eager seats feed their oracles, the others are plain.

    A plain seat plays ``pick``. An eager seat plays it too, except that in its transfer it
    puts a card into play when it can (seven times in ten) and otherwise mostly moves counters,
    most often from its reserve to a face-up oracle, that in the influence phase it passes
    one time in two, and in the actions of a confrontation three times in ten. Without this, random players leave their characters without power and
    their hands full: two players left at the table may then swap a few counters for over a
    hundred turns (seed 35 of four players reached turn 179) without either reaching 0P.
    """
    if eager and not st.stack:
        if st.phase == "transfer":
            enters = [a for a in legal if a.kind == "enter"]
            if enters and rng.random() < 0.7:
                return rng.choice(enters)
            moves = [a for a in legal if isinstance(a, Move)]
            if moves and rng.random() < 0.85:
                ors = st.players[seat].oracles
                feed = [a for a in moves if a.src == -1 and ors[a.dst].up]
                return rng.choice(feed if feed and rng.random() < 0.7 else moves)
        elif st.phase == "influence" and rng.random() < 0.5:
            return next(a for a in legal if a.kind == "pass")
        elif st.fight is not None and st.fight.stage == "act" and rng.random() < 0.3:
            return next(a for a in legal if a.kind == "pass")
    return pick(rng, legal)


def scrambled(st: GdmState, viewer: int | None) -> GdmState:
    """The same game with every secret of the other seats replaced by other cards."""
    other = E.copy_state(st)
    pool = ["0015", "0039", "0058", "0166", "0127", "0224", "0265"]
    k = 0
    for s, p in enumerate(other.players):
        if s == viewer:
            continue
        secret = list(p.hand) + list(p.deck)
        for o in p.oracles:
            secret += o.cards[1:] if o.up else o.cards
        for u in secret:
            other.cards[u].card = pool[k % len(pool)]
            k += 1
        if st.phase == "bid" and s != viewer:
            p.bid = None if p.bid is None else (p.bid % 4) + 1
    for s, p in enumerate(other.players):  # a viewer's own deck order is hidden from it too
        if s == viewer:
            p.deck = list(reversed(p.deck))
    return other


def check_views(st: GdmState, viewers: list[int | None] | None = None) -> None:
    """No view changes when another seat's secrets change, nor does the prompt every seat may
    read; views round-trip through JSON. ``viewers``: the public and every seat by default."""
    for viewer in [None, *range(st.num_seats)] if viewers is None else viewers:
        v = E.view(st, viewer)
        assert type(v).model_validate_json(v.model_dump_json()) == v
        other = scrambled(st, viewer)
        w = E.view(other, viewer)
        # a seat's own prompt may name the top of its own deck, whose order the scramble changes
        own = {"prompt"} if st.stack and st.stack[-1].seat == viewer else set()
        assert v.model_dump(exclude=own) == w.model_dump(exclude=own), viewer
        if viewer is None:
            assert E.pending(st) == E.pending(other)


def check_step(rng: random.Random, st: GdmState, seat: int, legal: list[Action]) -> None:
    """The costly checks on one position (the views: the public one and one seat's)."""
    check_views(st, [None, rng.randrange(st.num_seats)])
    assert legal_actions(st, seat, None) == legal  # without the index of cards in play: the same
    assert all(a in E._legal_actions(st, seat, only=a) for a in legal)  # the check of apply
    before = E.dump_state(st)
    assert E.dump_state(E.load_state(before)) == before
    assert E.load_state(before) == st
    with pytest.raises(RuleError):
        E.apply(st, seat, {"kind": "target"})  # malformed: no card named
    with pytest.raises(IllegalAction):
        E.apply(st, seat, Target(uid=-7))
    others = [s for s in range(st.num_seats) if s not in E.pending(st)]
    if others:
        with pytest.raises(RuleError):
            E.apply(st, others[0], legal[0])
    for a in rng.sample(legal, min(3, len(legal))):
        nxt, _ = E.apply(st, seat, a)  # every legal action applies
        assert nxt.version == st.version + 1
    assert E.dump_state(st) == before  # nothing above changed the position


def check_end(st: GdmState, log: list[tuple[int, Action]], tail: deque[GdmState]) -> None:
    """The final table: over by the rules, its views and JSON sound, the last moves replayed."""
    n = st.num_seats
    out = E.outcome(st)
    assert out is not None and out.ranking and E.pending(st) == {}
    assert all(E.legal_actions(st, s) == [] for s in range(n))
    with pytest.raises(GameOver):
        E.apply(st, log[-1][0], log[-1][1])
    assert st.end_reason != "limite", f"the safety bound on turns ended game {n}/{st.rng.seed}"
    check_views(st)
    final = E.dump_state(st)
    assert E.dump_state(E.load_state(final)) == final
    again = E.load_state(E.dump_state(tail[0]))
    for seat, a in log[len(log) - len(tail) :]:
        again, _ = E.apply(again, seat, a)
    assert E.dump_state(again) == final


def play(n: int, seed: int, replay: bool) -> GdmState:
    """One game of random moves with the checks along the way; returns the final state."""
    rng = random.Random(seed * 31 + n)
    opts = options(rng, n)
    eager = [rng.random() >= PLAIN for _ in range(n)]
    st = E.setup(n, opts, seed)
    log: list[tuple[int, Action]] = []
    tail: deque[GdmState] = deque(maxlen=TAIL)  # the states before the last TAIL moves
    steps = 0
    checker = random.Random(-seed - 1)  # the checks' own choices leave the game as it is
    offset = checker.randrange(EVERY)
    while not st.finished:
        pend = E.pending(st)
        assert pend
        seat = rng.choice(sorted(pend))
        legal = E.legal_actions(st, seat)
        assert legal, (st.phase, st.stack)
        idle = [s for s in range(n) if s not in pend]
        assert all(E.legal_actions(st, s) == [] for s in idle)
        if idle:
            with pytest.raises(NotYourTurn):
                E.apply(st, checker.choice(idle), legal[0])
        if steps % EVERY == offset:
            check_step(checker, st, seat, legal)
        a = move(rng, st, seat, legal, eager[seat])
        nxt, _ = E.apply(st, seat, a)
        assert nxt.version == st.version + 1
        tail.append(st)
        st = nxt
        log.append((seat, a))
        steps += 1
    if offset >= steps:  # a game shorter than the offset gets its costly checks at the end
        check_step(checker, tail[-1], log[-1][0], E.legal_actions(tail[-1], log[-1][0]))
    check_end(st, log, tail)
    if replay:
        again = E.setup(n, opts, seed)
        for seat, a in log:
            again, _ = E.apply(again, seat, a)
        assert E.dump_state(again) == E.dump_state(st)
    return st


CASES = [(n, c) for n, k in GAMES.items() for c in range(0, k, CHUNK)]


@pytest.mark.parametrize(("n", "first"), CASES)
def test_random_playouts(n: int, first: int) -> None:
    """Every game ends by the rules and keeps the contract on the way."""
    for seed in range(first, min(first + CHUNK, GAMES[n])):
        play(n, seed, replay=seed % REPLAY == 0)


def test_bad_input_is_refused_in_both_languages() -> None:
    """A malformed move is an InvalidAction; an illegal one names what is possible."""
    st = E.setup(2, options(random.Random(1), 2), 1)
    with pytest.raises(RuleError):
        E.apply(st, 0, {"kind": "bid", "amount": 9})
    with pytest.raises(IllegalAction) as err:
        E.apply(st, 0, {"kind": "pass"})
    assert "Pujar" in err.value.text.es and "Bid" in err.value.text.en
