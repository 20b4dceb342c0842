"""How a game ends when the rulebook's two ways of ending it cannot happen any more."""

from __future__ import annotations

import pytest

from rules.core import Text
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos import seats as ST
from rules.guerra_de_mitos.model import GdmState, Move, Pass, Use
from tests.rules import gdm_helpers as H

E = H.E


def bare_table(
    reserves: tuple[int, int] = (7, 12), pantheons: tuple[str, str] = ("0042", "0177")
) -> GdmState:
    """Two players with only their pantheons: no oracles, no design deck, empty hands.

    Olimpo's ability belongs to the confrontation and Inframundo's is static: with nobody on
    the battlefield neither gives a choice.
    """
    st = H.blank(2, pantheons=pantheons)
    for p, r in zip(st.players, reserves, strict=True):
        p.reserve = r
    F.start_round(st)
    return st


def turns(st: GdmState, k: int, use: bool = False) -> GdmState:
    """``k`` turns in which every seat passes (using its pantheon's ability first if ``use``)."""
    end = st.round + k
    while not st.finished and st.round < end:
        seat = min(E.pending(st))
        legal = E.legal_actions(st, seat)
        a = next((x for x in legal if isinstance(x, Use)), Pass()) if use else Pass()
        assert a in legal
        st, _ = E.apply(st, seat, a)
    return st


def test_a_blocked_table_ends_the_game_with_the_larger_reserve_winning() -> None:
    """Nothing to reveal or draw and no change for five turns in a row: the game ends."""
    st = turns(bare_table(), ST.STILL_TURNS)
    assert not st.finished and st.still_turns == ST.STILL_TURNS - 1
    st = turns(st, 1)
    assert st.finished and st.end_reason == "bloqueo"
    assert st.winners == [1]
    out = E.outcome(st)
    assert out is not None and out.ranking == [[1], [0]]
    assert "bloqueada" in out.reason.es and "Blocked" in out.reason.en


def test_an_ability_that_changes_nothing_for_good_does_not_unblock_the_table() -> None:
    """Mictlan silences the other pantheon each turn; the table stays the same: it ends."""
    st = turns(bare_table(pantheons=("0061", "0177")), ST.STILL_TURNS + 1, use=True)
    assert st.finished and st.end_reason == "bloqueo"


def test_a_card_left_to_draw_keeps_the_game_going() -> None:
    """While a design card is left to draw the table is not blocked: the count starts after."""
    st = bare_table()
    H.on_deck(st, ["0015", "0039"], seat=0)  # drawn in the first and second reorganisation
    st = turns(st, ST.STILL_TURNS + 1)
    assert not st.finished and not st.players[0].deck
    st = turns(st, 1)
    assert st.finished and st.end_reason == "bloqueo"


def test_a_changing_reserve_keeps_the_game_going() -> None:
    """A fight lost every turn changes a reserve: no end until Olvido."""
    st = bare_table((30, 12))
    H.put(st, "0015", seat=0, power=3)  # Nobunaga, strength 1, fights alone each turn
    start = st.round
    while not st.finished and st.round < start + ST.STILL_TURNS + 2:
        seat = min(E.pending(st))
        legal = E.legal_actions(st, seat)
        a = next((x for x in legal if x.kind == "assign"), Pass())
        st, _ = E.apply(st, seat, a)
    assert not st.finished or st.end_reason != "bloqueo"
    assert st.players[1].reserve < 12


def transfer_with(reserve: int, n: int = 2) -> GdmState:
    """Seat 0's transfer with ``reserve`` in its reserve and one empty face-up oracle."""
    st = H.blank(n, reserve=10)
    st.players[0].reserve = reserve
    H.oracle(st, ["0004"], 0)
    st.phase, st.actor, st.order_pos = "transfer", 0, 0
    st.players[0].moves = 5
    return st


def test_the_reserves_last_counter_may_be_moved_and_puts_the_player_out() -> None:
    """Step C sets no floor ("De su reserva a uno de sus oráculos"); at 0P Olvido applies."""
    st = transfer_with(1)
    last = Move(src=-1, dst=0)
    assert last in E.legal_actions(st, 0)
    label = E.describe(st, 0, last)
    assert "leave the game" in label.en and "fuera de la partida" in label.es
    st, _ = E.apply(st, 0, last)
    assert st.finished and st.end_reason == "olvido" and st.winners == [1]


def test_the_last_counter_in_a_multiplayer_game_hands_the_transfer_on() -> None:
    """With three players the one who moved their last counter is out and the next transfers."""
    st = transfer_with(1, n=3)
    st, _ = E.apply(st, 0, Move(src=-1, dst=0))
    assert not st.finished and not st.players[0].alive
    assert st.players[2].vp == 1  # the player to their right scores the point
    assert st.phase == "transfer" and st.actor == 1


def test_a_counter_that_is_not_the_last_says_nothing_of_leaving() -> None:
    """Two counters: the move's label is the ordinary one."""
    st = transfer_with(2)
    label = E.describe(st, 0, Move(src=-1, dst=0))
    assert "leave" not in label.en


def test_a_cultist_a_turn_does_not_unblock_the_table() -> None:
    """R'lyeh creates a Cultist every turn: one more copy of a token is no change, so a table
    with nothing else happening ends as blocked (the game of issue 21 ran to the turn bound)."""
    st = turns(bare_table(pantheons=("0100", "0177")), ST.STILL_TURNS + 2, use=True)
    assert st.finished and st.end_reason == "bloqueo"
    cultists = [c for c in st.cards.values() if c.card == "tk-sectario" and c.zone == "pantheon"]
    assert len(cultists) >= ST.STILL_TURNS  # one a turn, all still there


def test_a_first_token_is_a_change() -> None:
    """A kind of token not yet on the table changes it: the count starts again."""
    st = bare_table()
    st.still_table = ST.table_digest(st)
    before = ST.table_digest(st)
    H.put(st, "tk-sectario", seat=0, power=0)
    once = ST.table_digest(st)
    H.put(st, "tk-sectario", seat=0, power=0)
    assert before != once == ST.table_digest(st)
    H.put(st, "tk-sectario", seat=1, power=0)  # the other player's: another kind on the table
    assert ST.table_digest(st) != once


def test_a_table_going_round_two_states_is_blocked() -> None:
    """A point lost one turn and won back the next: the table repeats every other turn."""
    st = bare_table()
    ends = []
    for k in range(3 * ST.STILL_TURNS):
        st.players[0].reserve = 7 + k % 2
        ends.append(ST.blocked_check(st))
    # two new tables, then five turns that each end as an earlier one
    assert ends.index(True) == ST.STILL_TURNS + 1


def test_a_reserve_that_keeps_falling_is_never_blocked() -> None:
    """Every turn a new table: the count never starts."""
    st = bare_table((40, 40))
    for k in range(3 * ST.STILL_TURNS):
        st.players[0].reserve = 39 - k
        assert not ST.blocked_check(st)


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 8), (4, 5), (5, 2), (6, 1)])
def test_the_end_says_who_won_with_the_figures_that_decided_it(n: int, seed: int) -> None:
    """The reason names the winner and every player's deciding figure (reserves with two
    players, victory points with more) and who went out with an empty reserve, in both
    languages, with names as values."""
    from rules.registry import engine
    from tests.playout import Rules, play

    st = play(Rules("guerra_de_mitos"), n, seed, players="ai", every=None, checked=False).state
    out = engine("guerra_de_mitos").outcome(st)
    names = ["Ana", "Bea", "Cris", "Dani", "Eva", "Flor"]
    en, es = out.reason.get("en", names.__getitem__), out.reason.get("es", names.__getitem__)
    winner = names[out.winners[0]]
    assert (f"{winner} wins." in en and f"Gana {winner}." in es) or "share the win" in en
    for s in range(n):
        if n == 2:
            figure = f"{names[s]} {st.players[s].reserve}P"
            assert figure in en and figure in es
        else:
            vp = st.players[s].vp
            shown = str(int(vp)) if float(vp).is_integer() else f"{vp:.1f}"
            assert f"{names[s]} {shown} VP" in en and f"{names[s]} {shown} PV" in es
        if n > 2 and not st.players[s].alive and st.players[s].reserve <= 0 and s not in out.winners:
            assert f"{names[s]} went out with an empty reserve (0P)." in en
    assert "Player " not in en


def test_a_shared_win_names_the_winners_as_each_language_lists_them() -> None:
    from rules.guerra_de_mitos.engine import _end_figures

    st = H.blank(3)
    names = ["Ana", "Bea", "Cris"]
    said = [x.get(lang, names.__getitem__) for x in _end_figures(st, [1, 2]) for lang in ("en", "es")]
    assert "Bea and Cris share the win." in said and "Bea y Cris comparten la victoria." in said


def test_the_aztec_pantheon_is_spelt_mictlan_in_both_languages() -> None:
    from rules.guerra_de_mitos.cards import card_name

    # the card list transcribes it "Mitclan" (docs/rules/guerra_de_mitos_cards.md)
    assert (card_name("0061").get("es"), card_name("0061").get("en")) == ("Mictlán", "Mictlan")


@pytest.mark.parametrize("n", [2, 3])
def test_a_loss_larger_than_the_reserve_leaves_it_at_0p_and_says_what_it_fell_short(n: int) -> None:
    """Olvido: "tiene 0 o menos puntos ... gana el que menos negativos tenga". A confrontation
    lost by 5 with 1P in the reserve: the rules count -4 (it decides a tie at 0P), but a
    reserve is a pile of counters: the card shows 0P and the texts say it fell 4P short."""
    st = H.blank(n, pantheons=("0042", "0177", "0003"), reserve=20)
    st.players[0].reserve = 1
    H.put(st, "0004", seat=1, zone="battle", power=5)  # Hachiman, strength 5
    H.fight(st)
    said: list[Text] = []
    while not st.finished and st.players[0].alive:
        st, events = E.apply(st, min(E.pending(st)), Pass())
        said += [e.text for e in events if e.audience is None]
    assert st.players[0].reserve == -4 and (st.winners == [1] if n == 2 else not st.players[0].alive)
    assert [sv.reserve for sv in E.view(st, None).seats if sv.seat == 0] == [0]
    out = [t for t in said if "is out" in t.en]
    assert [t.en for t in out] == ["Player 1 is out: their reserve is at 0P, 4P short."]
    assert [t.es for t in out] == ["Jugador 1 queda fuera: su reserva está en 0P y le faltaron 4P."]
    texts = [t.get(lang) for t in said for lang in ("en", "es")]
    if n == 2:
        outcome = E.outcome(st)
        assert outcome is not None
        texts += [outcome.reason.en, outcome.reason.es]
        assert "Player 1 0P (4P short)" in outcome.reason.en, outcome.reason.en
        assert "Jugador 1 0P (le faltaron 4P)" in outcome.reason.es, outcome.reason.es
    assert not any("-4" in x for x in texts), texts
