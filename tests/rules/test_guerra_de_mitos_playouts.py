"""Seeded play-outs of whole Guerra de Mitos games on the shared harness (tests/playout.py).

Each game seats 2, 3 or 4 players with distinct ready decks drawn at random for the seed,
and a seeded random player moves for every seat until the game ends by its own rules:
``GAMES`` games per player count, in chunks of ``CHUNK`` per test case so that
pytest-xdist spreads them over the cores. The harness checks the contract on every step and,
on one step in ``EVERY`` (from a random offset; at the end for a shorter game), the costly
checks; this module adds what is Guerra de Mitos's own:

- no view changes when every secret of the other seats is replaced (hands, design decks,
  face-down oracle cards, the order of the viewer's own deck, a bid not yet revealed), nor
  do the prompts of ``pending`` that every seat may read;
- the legal actions are the same when listed without the index of the cards in play, and
  each passes the narrower check that ``apply`` makes;
- the end is reached by the rules, never by the safety bound on turns (see
  ``docs/rules/guerra_de_mitos.md``).

``GDM_PLAYOUTS`` (for example 300) changes the count per player count;
``bench/bench_guerra_de_mitos.py --playouts`` runs the same checks and prints figures.
"""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from rules.core import Action, IllegalAction, RuleError
from rules.guerra_de_mitos.engine import ready_decks
from rules.guerra_de_mitos.legal import legal as legal_actions
from rules.guerra_de_mitos.model import GdmState, Move, Options, Target
from tests.playout import Rules, probe
from tests.playout import play as play_out
from tests.rules import gdm_helpers as H

E = H.E
GAMES = {2: 100, 3: 100, 4: 100}
if os.environ.get("GDM_PLAYOUTS", "").isdigit():
    GAMES = dict.fromkeys(GAMES, int(os.environ["GDM_PLAYOUTS"]))
CHUNK = 25  # games per test case
EVERY = 500  # the costly checks run on one step in EVERY (games last about 200 to 500 moves)
REPLAY = 10  # the replay from the seed runs for one game in REPLAY
# one game of two players has every check on every step, for every viewer; the first game
# of three and four players (longer, and each view costlier) has them on one step in DENSE
DENSE = 10
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


def seated(n: int, seed: int, who: list[str]) -> GdmState:
    """One unchecked game seeded as ``bench/bench_gdm_endings.py`` numbers its games, played
    to its end; ``who[s]`` is seat ``s``'s player: "plain" or "eager" (``move``) or "ai" (the
    built-in player). Returns the final state."""
    rng = random.Random(seed * 31 + n)
    st = E.setup(n, options(rng, n), seed)
    while not st.finished:
        seat = rng.choice(sorted(E.pending(st)))
        if who[seat] == "ai":
            a = E.ai_action(st, seat)
        else:
            a = move(rng, st, seat, E.legal_actions(st, seat), who[seat] == "eager")
        st, _ = E.apply(st, seat, a)
    return st


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


def view_part(st: GdmState, viewer: int | None, v: object) -> object:
    """A view as compared under ``scrambled``: a seat's own prompt may name the top of its own
    deck, whose order the scramble changes; the public view goes with the prompts of
    ``pending``, which every seat may read."""
    own = {"prompt"} if st.stack and st.stack[-1].seat == viewer else set()
    dumped = v.model_dump(exclude=own)
    return (dumped, E.pending(st)) if viewer is None else dumped


def narrower(st: GdmState, seat: int, legal: list[Action]) -> None:
    """The legal actions are the same listed without the index of the cards in play, and
    each passes the narrower check that ``apply`` makes."""
    assert legal_actions(st, seat, None) == legal
    assert all(a in E._legal_actions(st, seat, only=a) for a in legal)


def by_the_rules(st: GdmState) -> None:
    """The game ended by its rules, not by the safety bound on turns."""
    assert st.end_reason != "limite", f"the safety bound on turns ended game {st.num_seats}/{st.rng.seed}"


RULES = Rules(
    "guerra_de_mitos",
    scramble=lambda st, viewer, r: scrambled(st, viewer),
    view_part=view_part,
    same_choices=False,  # a seat's deck order is scrambled too, and some choices name its top
    position=narrower,
    illegal=probe(Target(uid=-7)),
    malformed={"kind": "target"},  # no card named
    end=by_the_rules,
    max_steps=20000,
)


def play(n: int, seed: int, replay: bool, deep: bool = False, every: int = EVERY) -> GdmState:
    """One game of random moves with the checks along the way; returns the final state."""
    rng = random.Random(seed * 31 + n)
    opts = options(rng, n)
    eager = [rng.random() >= PLAIN for _ in range(n)]
    out = play_out(
        replace(RULES, options=lambda k, s: opts), n, seed, rng=rng, deep=deep, every=every,
        replay=replay, mover=lambda r, st, seat, legal: move(r, st, seat, legal, eager[seat]))
    return out.state


CASES = [(n, c) for n, k in GAMES.items() for c in range(0, k, CHUNK)]


@pytest.mark.parametrize(("n", "first"), CASES)
def test_random_playouts(n: int, first: int) -> None:
    """Every game ends by the rules and keeps the contract on the way."""
    for seed in range(first, min(first + CHUNK, GAMES[n])):
        play(n, seed, replay=seed % REPLAY == 0, deep=seed == 0 and n == 2,
             every=DENSE if seed == 0 else EVERY)


def test_bad_input_is_refused_in_both_languages() -> None:
    """A malformed move is an InvalidAction; an illegal one names what is possible."""
    st = E.setup(2, options(random.Random(1), 2), 1)
    with pytest.raises(RuleError):
        E.apply(st, 0, {"kind": "bid", "amount": 9})
    with pytest.raises(IllegalAction) as err:
        E.apply(st, 0, {"kind": "pass"})
    assert "Pujar" in err.value.text.es and "Bid" in err.value.text.en
