"""The match, the variants and the optional rules of Rey y Hierofante."""

from __future__ import annotations

import random

import pytest

from rules.registry import engine
from rules.rey_hierofante.model import ChooseStarter, DraftPick, Place, RhState
from rules.rey_hierofante.tiles import STOCK

E = engine("rey_hierofante")  # with its built-in player


def finish_game(s: RhState, seed: int) -> RhState:
    """Play random legal moves until the current game is decided."""
    r = random.Random(seed)
    n = len(s.history)
    while len(s.history) == n:
        seat = next(iter(E.pending(s)))
        s, _ = E.apply(s, seat, r.choice(E.legal_actions(s, seat)))
    return s


def test_first_to_two_wins_and_the_loser_chooses_who_starts() -> None:
    s = E.setup(2, {}, seed=5)
    first = set(s.neutral_zone)
    s = finish_game(s, 1)
    loser = 1 - s.history[0].winner
    assert not s.finished and s.phase == "choose_starter"
    assert list(E.pending(s)) == [loser]
    assert E.legal_actions(s, loser) == [ChooseStarter(starter=0), ChooseStarter(starter=1)]
    s, _ = E.apply(s, loser, {"kind": "choose_starter", "starter": 1 - loser})
    assert s.starter == 1 - loser and s.turn == 1 - loser
    assert s.board == [None] * 9 and s.discard == []
    # the used neutrals are out; five fresh ones; the Citizen back with the new starter
    assert len(s.neutral_zone) == 5 and not (set(s.neutral_zone) & first)
    assert s.zones[1 - loser][-1].tile == "ciudadano"
    assert len(s.stock) == 6
    seed = 2
    while not s.finished:
        if s.phase == "choose_starter":
            seat = next(iter(E.pending(s)))
            s, _ = E.apply(s, seat, {"kind": "choose_starter", "starter": seat})
        s = finish_game(s, seed)
        seed += 1
    assert max(s.wins) == 2 and len(s.history) in (2, 3)
    w = s.wins.index(2)
    assert E.outcome(s).ranking == [[w], [1 - w]]


def test_three_games_use_fifteen_different_neutrals() -> None:
    s = E.setup(2, {"wins_needed": 3}, seed=8)
    seen: list[str] = []
    for g in range(3):
        seen += s.neutral_zone
        s = finish_game(s, g)
        if s.phase == "choose_starter":
            seat = next(iter(E.pending(s)))
            s, _ = E.apply(s, seat, {"kind": "choose_starter", "starter": 0})
    assert len(seen) == len(set(seen)) == 15


@pytest.mark.parametrize(("reshuffle", "dealt"), [(False, 1), (True, 5)])
def test_exhausted_neutrals_without_and_with_reshuffle(reshuffle: bool, dealt: int) -> None:
    s = E.setup(2, {"scoring": "points", "games": 5, "reshuffle": reshuffle}, seed=4)
    for g in range(3):
        s = finish_game(s, g)
        seat = next(iter(E.pending(s)))
        s, _ = E.apply(s, seat, {"kind": "choose_starter", "starter": 0})
    assert len(s.neutral_zone) == dealt
    assert len(set(s.neutral_zone)) == dealt and set(s.neutral_zone) <= set(STOCK)


def test_points_system_adds_allies_over_n_games_and_may_draw() -> None:
    s = E.setup(2, {"scoring": "points", "games": 2}, seed=12)
    s = finish_game(s, 3)
    seat = next(iter(E.pending(s)))
    s, _ = E.apply(s, seat, {"kind": "choose_starter", "starter": seat})
    s = finish_game(s, 4)
    assert s.finished
    assert s.points == [sum(h.points[i] for h in s.history) for i in (0, 1)]
    out = E.outcome(s)
    if s.points[0] == s.points[1]:
        assert out.ranking == [[0, 1]]
    else:
        assert out.ranking[0] == [s.points.index(max(s.points))]


def test_classic_variant_has_no_neutrals_but_the_citizen() -> None:
    s = E.setup(2, {"variant": "clasico"}, seed=1)
    assert s.neutral_zone == [] and len(s.stock) == 16
    assert {z.tile for z in s.zones[s.starter]} >= {"ciudadano"}
    assert all(len(z) == 7 for z in [s.zones[1 - s.starter]])


@pytest.mark.parametrize("variant", ["aleatorio", "aleatorio_oculto"])
def test_random_variants_deal_two_each(variant: str) -> None:
    s = E.setup(2, {"variant": variant}, seed=2)
    hidden = variant.endswith("oculto")
    assert s.neutral_zone == []
    for seat in (0, 1):
        extra = [z for z in s.zones[seat] if z.tile in STOCK]
        assert len(extra) == 2 and all(z.hidden == hidden for z in extra)
        other = E.view(s, 1 - seat).zones[seat]
        mine = E.view(s, seat).zones[seat]
        assert {z.tile for z in mine} >= {z.tile for z in extra}
        if hidden:
            assert sum(z.tile is None for z in other) == 2
            assert sum(z.tile is None for z in E.view(s, None).zones[seat]) == 2


def test_draft_order_is_starter_second_starter_then_two_to_second() -> None:
    s = E.setup(2, {"variant": "draft"}, seed=6)
    a, b = s.starter, 1 - s.starter
    offer = list(s.draft.offer)
    assert s.phase == "draft" and len(offer) == 5
    assert E.view(s, None).draft_offer == offer  # face up for everyone
    order = []
    while s.phase == "draft":
        seat = next(iter(E.pending(s)))
        order.append(seat)
        s, _ = E.apply(s, seat, E.legal_actions(s, seat)[0])
    assert order == [a, b, a]
    got = [[z.tile for z in s.zones[x] if z.tile in offer] for x in (a, b)]
    assert len(got[0]) == 2 and len(got[1]) == 3
    assert s.phase == "place" and s.turn == a and s.neutral_zone == []


def test_hidden_draft_passes_four_then_three_and_keeps_it_secret() -> None:
    s = E.setup(2, {"variant": "draft_oculto"}, seed=9)
    a, b = s.starter, 1 - s.starter
    assert len(s.draft.offer) == 4
    assert E.view(s, a).draft_offer == s.draft.offer
    assert E.view(s, b).draft_offer is None and E.view(s, None).draft_offer is None
    steps = []
    while s.phase == "draft":
        seat = next(iter(E.pending(s)))
        steps.append((seat, len(s.draft.offer)))
        s, ev = E.apply(s, seat, E.legal_actions(s, seat)[-1])
        public = " ".join(e.text.es + e.text.en for e in ev if e.audience is None)
        picked = [e.data["tile"] for e in ev if e.kind == "draft_pick_private"]
        assert picked and all(p not in public for p in picked)
    assert steps == [(a, 4), (b, 3), (b, 4), (a, 3)]
    for seat in (0, 1):
        mine = [z for z in s.zones[seat] if z.hidden]
        assert len(mine) == 2
        assert [z.tile for z in E.view(s, 1 - seat).zones[seat] if z.hidden] == [None, None]
        # what a seat was shown is what it may remember
        assert {z.tile for z in mine} <= set(E.view(s, seat).draft_seen)
    assert len(s.drawn) == 8


def test_placing_from_the_neutral_area_or_own_area_only() -> None:
    s = E.setup(2, {}, seed=7)
    seat = s.starter
    s, _ = E.apply(s, seat, {"kind": "place", "tile": "ciudadano", "square": 0})
    other = 1 - seat
    tiles = {a.tile for a in E.legal_actions(s, other) if isinstance(a, Place)}
    assert tiles == {z.tile for z in s.zones[other]} | set(s.neutral_zone)


def test_draft_pick_must_be_on_offer() -> None:
    s = E.setup(2, {"variant": "draft"}, seed=6)
    seat = s.starter
    missing = next(t for t in STOCK if t not in s.draft.offer)
    before = s.model_dump_json()
    with pytest.raises(Exception) as err:
        E.apply(s, seat, {"kind": "draft_pick", "tile": missing})
    assert "neutral" in str(err.value).lower() or err.type.__name__ == "IllegalAction"
    assert s.model_dump_json() == before
    assert DraftPick(tile=s.draft.offer[0]) in E.legal_actions(s, seat)
