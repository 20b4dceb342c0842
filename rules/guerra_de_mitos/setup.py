"""Setting a game up: the table dealt, the decks checked, then the opening bid and the starter."""

from __future__ import annotations

from rules.core import IllegalAction, Rng
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos.facts import (
    DESIGN_DECK_TYPES,
    GOD_DECK_TYPES,
    PANTHEON,
    facts,
)
from rules.guerra_de_mitos.flow import settle, start_round
from rules.guerra_de_mitos.lines import name_of, say
from rules.guerra_de_mitos.model import (
    DECK,
    ORACLE,
    DeckSpec,
    GdmState,
    Options,
    Oracle,
    Player,
)
from rules.guerra_de_mitos.model import PANTHEON as ZP
from rules.guerra_de_mitos.verbs import draw
from rules.phrases import Phrases

msg = Phrases("guerra_de_mitos")


def build(num_seats: int, options: Options, decks: list[DeckSpec], seed: int) -> GdmState:
    """A new game: reserves, oracles dealt, hands drawn, then the bid (2) or the seating (3+)."""
    rng = Rng(seed=seed)
    st = GdmState(
        num_seats=num_seats, rng=rng, options=options, players=[Player() for _ in range(num_seats)]
    )
    for s, d in enumerate(decks):
        p = st.players[s]
        p.pantheon = B.new_inst(st, d.pantheon, s, ZP)
        p.reserve = facts(d.pantheon).power
        gods = [B.new_inst(st, c, s, ORACLE) for c in d.gods]
        rng.shuffle(gods)
        p.oracles = [Oracle(cards=gods[i::4]) for i in range(4)]
        p.oracles = [o for o in p.oracles if o.cards]
        p.deck = [B.new_inst(st, c, s, DECK) for c in d.designs]
        rng.shuffle(p.deck)
        draw(st, s, 5)
    if num_seats == 2:
        st.phase = "bid"
    else:
        st.first = rng.randint(0, num_seats - 1)
        for k in range(num_seats):
            st.players[(st.first + k) % num_seats].reserve += num_seats - k
        start_round(st)
    return st


def check_deck(d: DeckSpec) -> None:
    """The minimum shape the engine needs (the full construction rules live in decks.py)."""
    if facts(d.pantheon).type != PANTHEON:
        raise IllegalAction(
            msg("The deck needs a pantheon card.")
        )
    for c in d.gods:
        if facts(c).type not in GOD_DECK_TYPES:
            raise IllegalAction(
                msg("{card} does not belong in the god deck.", card=name_of(c)),
            )
    for c in d.designs:
        if facts(c).type not in DESIGN_DECK_TYPES:
            raise IllegalAction(
                msg("{card} does not belong in the design deck.", card=name_of(c)),
            )


def bid(st: GdmState, seat: int, amount: int) -> None:
    """Record a secret bid; once both are in, reveal and give, and find who names the starter."""
    st.players[seat].bid = amount
    if any(p.bid is None for p in st.players):
        return
    a, b = st.players[0].bid or 0, st.players[1].bid or 0
    st.players[1].reserve += a
    st.players[0].reserve += b
    say(st, None, msg("Bids revealed: {a} and {b}.", a=a, b=b))
    if a != b:
        st.chooser = 0 if a > b else 1
    else:
        pa = facts(B.pantheon_card(st, 0)).power
        pb = facts(B.pantheon_card(st, 1)).power
        st.chooser = (0 if pa > pb else 1) if pa != pb else st.rng.randint(0, 1)
    st.phase = "starter"
    settle(st)


def name_starter(st: GdmState, seat: int) -> None:
    """The bid's winner names the start player; the first turn begins."""
    st.first = seat
    start_round(st)
