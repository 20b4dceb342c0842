"""The rulebook's worked example of a four-player round: supply, entering, resolving."""

from __future__ import annotations

from rules.rattus_cartus.cards import KIND, supply_of
from rules.rattus_cartus.model import Give, Peek, SupplyChoice
from tests.rules.rc_helpers import E, enter, game, of_kind, play, rats, supply

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
ROW = ["tienda-3", "monasterio-1", "monasterio-2"]
IGLESIA, HECHICERIA = 2, 4


def example_round():
    """Round 1 of the example, up to the end of phase C."""
    s = game(4, ROW, {
        RED: ["iglesia", "realeza", "hechiceria", "hechiceria", "campesinado"],
        YELLOW: ["hechiceria", "hechiceria", "iglesia", "caballeria", "burguesia"],
        GREEN: ["campesinado", "burguesia", "caballeria", "realeza", "campesinado", "burguesia"],
        BLUE: ["espada", "campesinado", "burguesia", "caballeria", "realeza"],
    }, start=RED, buildings="first_game")
    return s


def test_supply_choices_are_the_three_printed_actions() -> None:
    s = example_round()
    # "robar dos cartas y mirar una de las cartas de la fila de Religiosas (Tienda del
    # adivino), robar cuatro cartas (Monasterio) o descartar dos ratas (Monasterio)"
    assert [(supply_of(c).draw, supply_of(c).rats, supply_of(c).peeks) for c in s.row] == [
        (2, 0, 1), (4, 0, 0), (0, 2, 0)]
    legal = E.legal_actions(s, GREEN)
    assert legal == [SupplyChoice(card=0, peek=p) for p in range(5)] + [
        SupplyChoice(card=1), SupplyChoice(card=2)]
    assert sorted(E.pending(s)) == [RED, YELLOW, GREEN, BLUE]


def test_four_player_example_entering_and_resolving() -> None:
    s = example_round()
    hand = {seat: list(s.hands[seat]) for seat in range(4)}
    s, ev = supply(s, {RED: (1, None), YELLOW: (0, 0), GREEN: (1, None), BLUE: (1, None)})
    assert s.phase == "enter" and rats(s) == [10, 10, 10, 10]
    assert [len(h) for h in s.hands] == [9, 7, 10, 9]
    assert s.peeks[YELLOW] == [0]

    def cards(seat: int, kinds: list[str]) -> list[str]:
        pool = list(hand[seat])
        out = []
        for k in kinds:
            c = next(c for c in pool if KIND[c] == k)
            pool.remove(c)
            out.append(c)
        return out

    # C. Red: first Monastery, four cards. Yellow: the Fortune-teller's Tent, three cards.
    # Green: second Monastery, no card. Blue: second Monastery, space 2, one card.
    s, ev = enter(s, RED, 1, cards(RED, ["iglesia", "realeza", "hechiceria", "hechiceria"]))
    assert ev[0].data == {"seat": RED, "building": 1, "space": 1, "cards": 4}
    assert ev[0].audience is None and ev[1].audience == [RED]
    s, _ = enter(s, YELLOW, 0, cards(YELLOW, ["hechiceria", "hechiceria", "iglesia"]))
    s, _ = enter(s, GREEN, 2, [])
    s, ev = enter(s, BLUE, 2, cards(BLUE, ["espada"]))
    assert s.slots == [[YELLOW], [RED], [GREEN, BLUE]]
    # D. The Tent first: Yellow +3 Sorcery, 1 rat, then the premium: two nun cards.
    assert s.phase == "resolve"
    assert s.influence[YELLOW][HECHICERIA] == 3 and rats(s)[YELLOW] == 11
    public = E.view(s, None)
    assert sorted(public.row[0].slots[0].revealed) == ["hechiceria", "hechiceria", "iglesia"]
    assert public.row[1].slots[0].revealed is None  # the Monasteries are not shown yet
    assert public.decision.kind == "peek" and public.decision.seats == [YELLOW]
    assert E.pending(s).keys() == {YELLOW}
    assert E.legal_actions(s, YELLOW) == [Peek(position=p) for p in (1, 2, 3, 4)]
    s, ev = play(s, (YELLOW, Peek(position=3)), (YELLOW, Peek(position=4)))
    assert s.peeks[YELLOW] == [0, 3, 4]
    assert all(e.audience == [YELLOW] for e in ev if e.kind == "peek")
    # Then the first Monastery: Red +4 Church and 3 rats, then gives back 2 (premium).
    assert s.influence[RED][IGLESIA] == 4
    assert rats(s)[RED] == 10 + 3 - 2
    # Then the second Monastery: Green shows nothing, Blue a Sword: Green gives Blue half
    # of their hand.
    assert s.influence[GREEN] == [0] * 6 and s.influence[BLUE] == [0] * 6
    assert E.pending(s).keys() == {GREEN}
    assert s.tasks[0].kind == "give" and s.tasks[0].n == 5 and s.tasks[0].target == BLUE
    green_before = list(s.hands[GREEN])
    given = []
    while s.phase == "resolve" and GREEN in E.pending(s):
        a = E.legal_actions(s, GREEN)[0]
        assert isinstance(a, Give)
        given.append(a.card)
        s, ev = E.apply(s, GREEN, a)
        assert ev[0].audience == [GREEN, BLUE]
    assert len(given) == 5 and set(given) <= set(green_before)
    assert set(given) <= set(s.hands[BLUE])
    # Green takes the premium (tied at zero cards, but first in), Blue the standard.
    assert rats(s) == [11, 11, 8, 9]
    assert [sum(i) for i in s.influence] == [4, 3, 0, 0]
    # The round is over: the Sword went back to its pile, Yellow starts round 2.
    assert s.round == 2 and s.start == YELLOW and s.phase == "supply"
    assert len(s.hands[GREEN]) == 5 and len(s.hands[BLUE]) == 9 - 1 + 5
    assert not of_kind(s, BLUE, "espada") and len(s.piles["espada"]) == 12


def test_example_views_hide_the_face_down_cards_until_shown() -> None:
    s = example_round()
    s, _ = supply(s, {RED: (1, None), YELLOW: (0, 0), GREEN: (1, None), BLUE: (1, None)})
    played = [c for c in s.hands[RED] if KIND[c] in ("iglesia", "realeza")]
    s, _ = enter(s, RED, 1, played)
    for viewer in (None, YELLOW, GREEN, BLUE):
        text = E.view(s, viewer).model_dump_json()
        assert all(f'"{c}"' not in text for c in played)
        assert E.view(s, viewer).row[1].slots[0].cards == len(played)
        assert E.view(s, viewer).row[1].slots[0].revealed is None
    mine = E.view(s, RED)
    assert sorted(mine.me.played) == sorted(played)
