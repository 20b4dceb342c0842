"""Seeded random play-outs of whole Ankh-Morpork games, checking the contract as they go."""

from __future__ import annotations

import json
import random

import pytest

from rules.ankh_morpork.cards import CARDS
from rules.ankh_morpork.engine import AmEngine
from rules.ankh_morpork.model import AmState, Card, Player
from rules.ankh_morpork.personalities import PERSONALITIES
from rules.core import Event, IllegalAction, NotYourTurn, RuleError, StaleAction

E = AmEngine()
GAMES = 300  # per player count
CHUNKS = 6
EVERY = 40  # the costly checks (views, JSON, extra applies) run every EVERY steps


def card_words(cards: set[str]) -> set[str]:
    """Ways a card can be named: its id as JSON, and its names."""
    out: set[str] = set()
    for c in cards:
        out |= {f'"{c}"', CARDS[c].name.es, CARDS[c].name.en}
    return out


def persona_words(ps: set[str]) -> set[str]:
    """Ways a personality can be named."""
    out: set[str] = set()
    for p in ps:
        out |= {f'"{p}"', PERSONALITIES[p].name.es, PERSONALITIES[p].name.en}
    return out


def secrets(st: AmState, viewer: int | None, allowed: set[int] | None = None) -> set[str]:
    """What ``viewer`` must not read: other seats' hands and (before the end) personalities.

    ``allowed``: seats whose hands an event's audience legitimately shares (a card given).
    """
    hidden_cards: set[str] = set()
    hidden_people: set[str] = set()
    for s in range(st.num_seats):
        if s == viewer or (allowed and s in allowed):
            continue
        hidden_cards |= set(st.hands[s])
        if not st.finished:
            hidden_people.add(st.personality[s])
    # a personality the viewer holds too is no secret of anyone else's
    if viewer is not None:
        hidden_people.discard(st.personality[viewer])
    return card_words(hidden_cards) | persona_words(hidden_people)


ALL_NAMES = {n for c in CARDS.values() for n in (c.name.es, c.name.en)} | {
    n for p in PERSONALITIES.values() for n in (p.name.es, p.name.en)}


def leaks(text: str, words: set[str]) -> list[str]:
    """Secret words in ``text``, not counting those inside a longer name ("Dwarves" in "Deep Dwarves")."""
    out = []
    for w in words:
        if w not in text:
            continue
        t = text
        for longer in ALL_NAMES:
            if w in longer and w != longer:
                t = t.replace(longer, "")
        if w in t:
            out.append(w)
    return out


def check_events(st: AmState, events: list[Event]) -> None:
    """Public events name no hand card or personality; private ones nothing beyond their audience."""
    for ev in events:
        # the card Doctor Mossy Lawn takes back was seen by all when it was played
        if ev.kind in ("game_end", "take_back"):
            continue
        text = ev.text.es + " " + ev.text.en + " " + json.dumps(ev.data)
        if ev.audience is None:
            bad = leaks(text, secrets(st, None))
            assert not bad, (ev, bad)
        else:
            assert len(ev.audience) <= 2
            for v in ev.audience:
                bad = leaks(text, secrets(st, v, set(ev.audience)))
                assert not bad, (ev, v, bad)


def check_views(st: AmState, shown: list[set[str]]) -> None:
    """No view shows another seat's hand or personality; views round-trip through JSON.

    ``peeked`` is the viewer's memory of what Mrs Cake showed them (checked against ``shown``).
    """
    for viewer in [None, *range(st.num_seats)]:
        v = E.view(st, viewer)
        if viewer is not None:
            assert set(v.peeked) <= shown[viewer]
        text = v.model_dump_json(exclude={"peeked"})
        bad = leaks(text, {w for w in secrets(st, viewer) if w.startswith('"')})
        assert not bad, (viewer, bad)
        assert type(v).model_validate_json(v.model_dump_json()) == v


def check_conservation(st: AmState) -> None:
    """Every card, coin and piece is somewhere, once."""
    n = st.num_seats
    in_play = [f.card for f in st.stack if f.kind == "card" and f.stage != "kept"]
    cards = st.deck + st.discard + in_play + [c for s in range(n) for c in st.hands[s] + st.loans[s] + st.stuck[s]]
    assert len(cards) == len(set(cards)) == (99 if n == 2 else 101), sorted(cards)
    assert 0 <= sum(st.money) <= 120 and min(st.money) >= 0
    for s in range(n):
        assert 0 <= sum(row[s] for row in st.minions) <= 12 and st.buildings.count(s) <= 6
    assert all(min(row) >= 0 for row in st.minions)
    assert 0 <= sum(st.trolls) <= 3 and 0 <= sum(st.demons) <= 4 and min(st.trolls + st.demons) >= 0
    assert len(st.event_deck) + len(st.event_done) == 12


def play_out(seed: int, n: int) -> None:
    st = E.setup(n, {}, seed)
    r = random.Random(seed * 31 + n)
    log: list[tuple[int, str]] = []
    shown: list[set[str]] = [set() for _ in range(n)]
    steps = 0
    while not st.finished:
        pend = E.pending(st)
        assert len(pend) == 1
        (seat,) = pend
        legal = E.legal_actions(st, seat)
        assert legal, (seed, st.stack[-1])
        assert len(legal) < 200
        if steps % EVERY == 0:
            before = E.dump_state(st)
            for a in r.sample(legal, min(3, len(legal))):
                E.apply(st, seat, a)
            for a in legal:
                label = E.describe(st, seat, a)
                assert label.es and label.en and not label.en.startswith("{"), (st.stack[-1], a)
            other = (seat + 1) % n
            with pytest.raises(NotYourTurn):
                E.apply(st, other, legal[0])
            with pytest.raises(IllegalAction):
                E.apply(st, seat, Card(card="no_such_card") if not isinstance(legal[0], Card) else Player(seat=3))
            with pytest.raises(StaleAction):
                E.apply(st, seat, legal[0], version=st.version + 1)
            assert E.dump_state(st) == before, "apply or a refusal changed its input"
            assert E.load_state(before) == st
            check_views(st, shown)
            check_conservation(st)
        action = r.choice(legal)
        st, events = E.apply(st, seat, action, version=st.version)
        check_events(st, events)
        for ev in events:
            if ev.kind in ("peek_private", "swap_personality_private") and ev.audience:
                shown[ev.audience[0]] |= set(ev.data.get("personalities", []))
            if ev.kind == "personality_private" and ev.audience:
                shown[ev.audience[0]].add(ev.data["old"])
        log.append((seat, action.model_dump_json()))
        steps += 1
        assert steps < 3000, "the game did not end"
    out = E.outcome(st)
    assert out is not None and out.winners and set(out.winners) == set(st.winners)
    assert sorted(s for g in out.ranking for s in g) == list(range(n))
    check_views(st, shown)
    check_conservation(st)
    with pytest.raises(RuleError):
        E.apply(st, 0, {"kind": "skip"})
    assert E.load_state(E.dump_state(st)) == st
    replay = E.setup(n, {}, seed)
    for seat, wire in log:
        replay, _ = E.apply(replay, seat, E.parse_action(wire))
    assert E.dump_state(replay) == E.dump_state(st)


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(n: int, chunk: int) -> None:
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        play_out(seed, n)
