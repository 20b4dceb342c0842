"""Every Ragami move is told to everyone: each applied action yields a public event (a
hidden choice, keeping a drawn card, is told without the card), and no public event names
a card that is hidden at the time."""

from __future__ import annotations

import random

from rules.core import Event
from rules.ragami.cards import CARDS, card_name
from rules.ragami.model import (
    Cancel,
    Done,
    Keep,
    Pick,
    Place,
    PlayCard,
    Power,
    PowerCard,
    RgView,
    UseDie,
)
from tests import playout
from tests.rules.rg_helpers import E, card, play, table
from tests.rules.test_ragami_playouts import RULES, policy

GAMES = 8  # seeded three-player games
CARD_KEYS = ("card", "cards", "discarded")  # event data that holds card ids


def public_cards(view: RgView) -> set[int]:
    """The cards the public view shows: the discard pile and a resolution's cards."""
    out = set(view.discard)
    res = view.step.res if view.step is not None else None
    if res is not None:
        out |= {c for c in (res.card, res.via) if c is not None}
    return out


def kinds_named(e: Event) -> set[str]:
    """The kinds of card an event's text names, in either language."""
    return {
        k
        for c, k in enumerate(CARDS)
        if card_name(c).es in e.text.es or card_name(c).en in e.text.en
    }


def ids_in(e: Event) -> set[int]:
    """The card ids an event's data carries."""
    out: set[int] = set()
    for key in CARD_KEYS:
        v = e.data.get(key)
        if isinstance(v, int):
            out.add(v)
        elif isinstance(v, list):
            out |= set(v)
    return out


def check_step(before: RgView, after: RgView, events: list[Event], action: object) -> None:
    """At least one public event; a public event names a card only when this very move put
    a card of that kind in public view (played, exchanged, discarded, left from a draw), and
    its data carries only cards the public view shows."""
    public = [e for e in events if e.audience is None]
    assert public, f"{action!r} was told to nobody"
    revealed = public_cards(after) - public_cards(before)
    kinds = {CARDS[c] for c in revealed}
    for e in public:
        assert kinds_named(e) <= kinds, (action, e.text.en, sorted(revealed))
        assert ids_in(e) <= public_cards(after), (action, e)


def mover(r: random.Random, state: object, seat: int, legal: list) -> object:
    """Cards are played half the times they may be, the other moves are half the built-in
    player's (it resolves conflicts far more often than chance) and half random."""
    cards = [a for a in legal if isinstance(a, PlayCard)]
    if cards and r.random() < 0.5:
        return r.choice(cards)
    if r.random() < 0.5:
        return E.ai_action(state, seat)
    return policy(r, legal)


def told_publicly(before: object, after: object, seat: int, action: object, events: list) -> None:
    """The check of every step, on the public views before and after it."""
    check_step(E.view(before, None), E.view(after, None), events, action)


def test_every_move_of_random_games_is_told_without_hidden_cards() -> None:
    """Seeded three-player games, checked play-outs (tests/playout.py), every step told."""
    told: set[str] = set()
    for seed in range(GAMES):
        told |= playout.play(RULES, 3, seed, mover=mover, every=None, step_hook=told_publicly).kinds
    # the steps this change is about were met, so the checks above were not idle
    steps = {"pick", "power", "power_card", "resolve_start", "cancel", "virtue_stay", "keep"}
    assert steps <= told, steps - told


def test_adding_cubes_says_the_amount_and_the_running_total() -> None:
    s = table(3, ragamis=["12", None, None, None], conflicts={12: 5}, demons=[12, 12])
    s.cubes = [4, 0, 0]
    s.cube_supply = 26
    s, events = play(s, (0, UseDie(slot=2)))
    start = next(e for e in events if e.kind == "resolve_start")
    assert start.audience is None
    assert "cuesta 7 (dado 5 + 2 Demonios)" in start.text.es
    assert "which costs 7 (die 5 + 2 Demons): power 0 of 7." in start.text.en
    s, events = play(s, (0, Power(source="cubes", amount=2)))
    assert [e.text.es for e in events] == ["Jugador 1 (amarillo) añade 2 de cubos (poder 2 de 7)."]
    assert [e.text.en for e in events] == ["Player 1 (yellow) adds 2 from cubes (power 2 of 7)."]
    assert events[0].audience is None and events[0].data["power"] == 2
    s, events = play(s, (0, Cancel()))
    assert [e.kind for e in events] == ["cancel"] and events[0].audience is None
    assert "gives up resolving the conflict on square 12" in events[0].text.en
    assert s.cubes[0] == 4


def test_saints_and_a_second_ragami_count_from_the_start_and_a_power_card_is_named() -> None:
    four = card("poder4")
    s = table(
        3,
        ragamis=["12", "12", None, None],
        saints=[None, None, 12, None],
        conflicts={12: 6},
        hands=[[four], [], []],
    )
    s.cubes = [3, 0, 0]
    s.cube_supply = 27
    s, events = play(s, (0, UseDie(slot=2)))
    start = next(e for e in events if e.kind == "resolve_start")
    assert "+1 por el Santo, +2 por el Ragami verde: poder 3 de 6." in start.text.es
    assert "+1 from the Saint, +2 from the green Ragami: power 3 of 6." in start.text.en
    s, events = play(s, (0, PowerCard(card=four)))
    (e,) = events
    assert e.audience is None
    assert (
        e.text.en
        == f"Player 1 (yellow) plays {card_name(four).en}, pays 2 cubes: +4 (power 7 of 6)."
    )


def test_picking_a_piece_is_told_with_where_it_stands() -> None:
    s = table(3, ragamis=["E", None, None, None], saints=[12, 5, None, None])
    s, events = play(s, (0, UseDie(slot=0)))
    s, events = play(s, (0, Pick(piece="S0")))
    assert [e.text.es for e in events] == [
        "Jugador 1 (amarillo) elige mover su Santo (casilla 12)."
    ]
    s2, events = play(E.copy_state(s), (0, Place(at=str(E.legal_actions(s, 0)[0].at))))
    s2, events = play(s2, (0, Pick(piece="D0")))
    assert [e.text.en for e in events] == ["Player 1 (yellow) chooses to place a new Demon."]


def test_keeping_one_of_two_is_told_to_all_and_the_card_only_to_the_keeper() -> None:
    robar = card("robar")
    s = table(3, ragamis=["E", None, None, None], hands=[[robar, card("cubos")], [], []])
    s, _ = play(s, (0, {"kind": "play_card", "card": robar}))
    first = s.drawn[0][0]
    s, events = play(s, (0, Keep(card=first)))
    public = [e for e in events if e.audience is None]
    private = [e for e in events if e.audience is not None]
    assert [e.kind for e in public] == ["keep_one"] and first not in ids_in(public[0])
    assert card_name(first).es not in public[0].text.es
    assert [e.audience for e in private] == [[0]] and private[0].data["card"] == first


def test_going_on_without_a_second_saint_is_told() -> None:
    santos = card("santos")
    s = table(
        3, ragamis=["E", None, None, None], saints=[12, 5, None, None], hands=[[santos], [], []]
    )
    s, _ = play(s, (0, {"kind": "play_card", "card": santos}), (0, Pick(piece="S0")))
    s, _ = play(s, (0, E.legal_actions(s, 0)[0]))
    assert Done() in E.legal_actions(s, 0)
    s, events = play(s, (0, Done()))
    assert [e.text.en for e in events] == ["Player 1 (yellow) moves no more Saints."]
