"""Guerra de Mitos: the rulebook's phases, with exact numbers."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, NotYourTurn
from rules.guerra_de_mitos import board as B
from rules.guerra_de_mitos import candidates as C
from rules.guerra_de_mitos import flow as F
from rules.guerra_de_mitos import matching as M
from rules.guerra_de_mitos import seats as ST
from rules.guerra_de_mitos import verbs as V
from rules.guerra_de_mitos.model import (
    Assign,
    Bid,
    DropOracle,
    Enter,
    Equip,
    Meditate,
    Move,
    Options,
    Pass,
    Starter,
    Use,
)
from tests.rules import gdm_helpers as H

E = H.E


def two(seed: int = 3):
    """A fresh two-player game with provisional Japanese and Norse decks."""
    return E.setup(2, Options(decks=[H.deck_for("japonesa"), H.deck_for("nordica")]), seed)


def test_setup_reserves_oracles_and_hands() -> None:
    """Pantheon power in the reserve, the god deck dealt into four oracles, five cards in hand."""
    st = two()
    d = H.deck_for("japonesa")
    assert st.players[0].reserve == 20 and st.players[1].reserve == 18  # Yomi, Asgard
    sizes = [len(o.cards) for o in st.players[0].oracles]
    assert len(sizes) == 4 and sum(sizes) == len(d.gods) and max(sizes) - min(sizes) <= 1
    assert all(not o.up and o.power == 0 for o in st.players[0].oracles)
    assert len(st.players[0].hand) == 5 and len(st.players[0].deck) == len(d.designs) - 5
    assert st.phase == "bid" and set(E.pending(st)) == {0, 1}


def test_bid_gives_power_to_the_opponent_and_the_higher_giver_names_the_starter() -> None:
    """Each bid goes to the other reserve; the one who gave more chooses who starts."""
    st = two()
    st, _ = E.apply(st, 0, Bid(amount=3))
    assert st.players[1].reserve == 18  # nothing revealed yet
    v = E.view(st, 1)
    assert v.seats[0].bid is None  # the secret bid is hidden from the other seat
    st, _ = E.apply(st, 1, Bid(amount=1))
    assert st.players[0].reserve == 21 and st.players[1].reserve == 21
    assert st.phase == "starter" and list(E.pending(st)) == [0]
    st, _ = E.apply(st, 0, Starter(seat=1))
    assert st.first == 1 and st.phase == "transfer" and st.actor == 1


def test_bid_tie_goes_to_the_larger_pantheon() -> None:
    """A tie: the player whose pantheon has more power decides (Yomi 20 > Asgard 18)."""
    st = two()
    st, _ = E.apply(st, 0, Bid(amount=2))
    st, _ = E.apply(st, 1, Bid(amount=2))
    assert st.chooser == 0


def test_first_transfer_moves_grow_one_by_one() -> None:
    """First turn: the start player has 1 move, the next 2; later turns 5."""
    st = two()
    st, _ = E.apply(st, 0, Bid(amount=1))
    st, _ = E.apply(st, 1, Bid(amount=2))
    st, _ = E.apply(st, 1, Starter(seat=0))
    assert st.players[0].moves == 1
    st, _ = E.apply(st, 0, Move(src=-1, dst=0))
    assert not any(isinstance(a, Move) for a in E.legal_actions(st, 0))
    st, _ = E.apply(st, 0, Pass())
    assert st.actor == 1 and st.players[1].moves == 2
    st.round = 2
    st.order_pos = 0
    assert ST.moves_for(st, 1) == 5


def test_put_into_play_loses_excess_and_pays_the_affiliation_penalty() -> None:
    """A character keeps the oracle's power up to its PM; another mythology costs 1P."""
    st = H.blank(2, pantheons=("0001", "0022"))
    st.phase, st.actor = "transfer", 0
    i = H.oracle(st, ["0024"], 0, power=12)  # Odín (Nórdica, cost 8, PM 9) under Yomi
    st.players[0].moves = 0
    st, _ = E.apply(st, 0, Enter(oracle=i))
    odin = next(u for u, c in st.cards.items() if c.card == "0024")
    assert st.cards[odin].zone == "pantheon" and st.cards[odin].power == 8  # 9 max, -1 affiliation


def test_resources_lose_their_power_and_costs_are_checked() -> None:
    """A resource enters without power; a card short of its cost cannot enter."""
    st = H.blank(2)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 0
    i = H.oracle(st, ["0149"], 0, power=3)  # Templo Shitennoji, cost 3
    j = H.oracle(st, ["0004"], 0, power=7)  # Hachiman, cost 8
    assert Enter(oracle=j) not in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, Enter(oracle=i))
    res = next(u for u, c in st.cards.items() if c.card == "0149")
    assert st.cards[res].zone == "pantheon" and st.cards[res].power == 0
    with pytest.raises(IllegalAction):
        E.apply(st, 0, Enter(oracle=0))


def test_an_oracle_card_with_power_cannot_be_discarded() -> None:
    """Step B: only an oracle without power may lose its top card, once."""
    st = H.blank(2)
    st.phase, st.actor = "transfer", 0
    st.players[0].moves = 0
    H.oracle(st, ["0015", "0019"], 0, power=1)
    H.oracle(st, ["0039", "0019"], 0, power=0)
    legal = E.legal_actions(st, 0)
    assert DropOracle(oracle=0) not in legal and DropOracle(oracle=1) in legal
    st, _ = E.apply(st, 0, DropOracle(oracle=1))
    assert DropOracle(oracle=1) not in E.legal_actions(st, 0)


def test_revealed_event_resolves_at_once_and_is_discarded() -> None:
    """Step A: Hinamatsuri (gain 3P) revealed at the top of an oracle."""
    st = H.blank(2)
    H.oracle(st, ["0127", "0015"], 0, power=2, up=False)
    st.phase = "transfer"
    F.begin_transfer(st, 0)
    assert st.players[0].reserve == 23
    o = st.players[0].oracles[0]
    assert len(o.cards) == 1 and o.power == 2 and not o.up  # the power stays, next card hidden


def test_meditate_and_equip() -> None:
    """Meditar: tire, gain 2P; equipar: pay from the character, one weapon only."""
    st = H.blank(2)
    hach = H.put(st, "0004", 0, power=4)
    axe = H.in_hand(st, "0224", 0)
    axe2 = H.in_hand(st, "0224", 0)
    st, _ = E.apply(st, 0, Equip(uid=axe, target=hach))
    assert st.cards[hach].power == 2 and st.cards[axe].on == hach
    assert B.strength(st, hach) == 5 + 2 and B.max_power(st, hach) == 9 - 1
    st.actor = 0
    assert Equip(uid=axe2, target=hach) not in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, Meditate(uid=hach))
    assert st.cards[hach].tired and st.cards[hach].power == 4


def test_influence_ends_when_all_pass_in_a_row() -> None:
    """Alternating passes: two in a row start the confrontation."""
    st = H.blank(2)
    st, _ = E.apply(st, 0, Pass())
    assert st.actor == 1 and st.phase == "influence"
    st, _ = E.apply(st, 1, Pass())
    assert st.phase == "fight" and st.fight is not None and st.fight.stage == "assign"


def test_assignment_costs_one_power_and_resolution_takes_the_difference() -> None:
    """Ready whole, tired half (rounded down), exhausted nothing; the loser pays the difference."""
    st = H.blank(2)
    a = H.put(st, "0004", 0, power=3)  # F5
    b = H.put(st, "0013", 1, power=3)  # F4
    c = H.put(st, "0017", 1, power=2)  # F2
    F.start_confrontation(st)
    st, _ = E.apply(st, 0, Assign(uid=a))
    assert st.cards[a].power == 2 and st.cards[a].zone == "battle"
    st, _ = E.apply(st, 1, Assign(uid=b))
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Assign(uid=c))
    st, _ = E.apply(st, 1, Pass())
    assert st.fight.stage == "act"
    st.cards[c].tired = True  # tired: 2 // 2 = 1
    assert B.army(st, 0) == 5 and B.army(st, 1) == 4 + 1
    st.cards[b].power = 0  # exhausted: adds nothing
    assert B.army(st, 1) == 1
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    assert st.players[1].reserve == 20 - 4
    assert st.round == 2 and st.cards[a].zone == "pantheon"  # reorganisation ran


def test_reorganisation_cuts_excess_and_readies() -> None:
    """B ends turn effects, C cuts power over PM (oracles too), D cuts resources, F readies."""
    st = H.blank(2)
    u = H.put(st, "0015", 0, power=7, tired=True)  # PM 3
    st.cards[u].f_turn = 2
    H.oracle(st, ["0015"], 0, power=6)
    H.oracle(st, ["0149"], 0, power=5)  # cost 3
    F.reorganise(st)
    assert st.cards[u].power == 3 and not st.cards[u].tired and st.cards[u].f_turn == 0
    assert [o.power for o in st.players[0].oracles] == [3, 3]
    assert st.first == 1 and st.round == 2


def test_thirty_power_after_reorganisation_wins() -> None:
    """Dios de dioses; a tie on 30+ goes to more points, then to the start player."""
    st = H.blank(2, reserve=31)
    st.players[1].reserve = 33
    F.reorganise(st)
    assert st.finished and st.winners == [1]
    st = H.blank(2, reserve=31)
    F.reorganise(st)
    assert st.finished and st.winners == [0]  # tie: the start player of that turn


def test_zero_power_at_any_time_loses() -> None:
    """Olvido: Karasu Tengu takes the opponent's last point."""
    st = H.blank(2, reserve=1)
    st.players[0].reserve = 10
    k = H.put(st, "0020", 0, power=2)
    st, _ = E.apply(st, 0, Use(uid=k, ability=0))
    assert st.finished and st.winners == [0] and E.outcome(st).winners == [0]


def test_multiplayer_seating_extra_power_and_victory_points() -> None:
    """Three players: +3, +2, +1 by seat from the start player; 0P gives the right neighbour 1 VP."""
    decks = [H.deck_for(m) for m in ("japonesa", "nordica", "griega")]
    st = E.setup(3, Options(decks=decks), 11)
    base = {0: 20, 1: 18, 2: 18}
    extra = {(st.first + k) % 3: 3 - k for k in range(3)}
    assert {s: st.players[s].reserve - base[s] for s in range(3)} == extra
    st.players[1].reserve = 0
    F.settle(st)
    assert not st.players[1].alive and st.players[0].vp == 1


def test_multiplayer_thirty_five_leaves_with_half_the_remaining() -> None:
    """35P after reorganisation: the player leaves with half the players still seated."""
    st = H.blank(4, pantheons=("0001", "0022", "0042", "0100"))
    st.players[2].reserve = 35
    F.reorganise(st)
    assert not st.players[2].alive and st.players[2].vp == 1.5


def test_wrong_seat_and_illegal_moves_change_nothing() -> None:
    """Refusals in both languages; the state is untouched."""
    st = H.blank(2)
    before = st.model_dump_json()
    with pytest.raises(NotYourTurn):
        E.apply(st, 1, Pass())
    with pytest.raises(IllegalAction) as err:
        E.apply(st, 0, Meditate(uid=999))
    assert "Puedes" in err.value.text.es and "You may" in err.value.text.en
    assert st.model_dump_json() == before


# ----------------------------------------------------------------------------- static texts


def test_cost_reductions_by_name_key_and_market() -> None:
    """Masakado under Takamagahara, demons under Inframundo, Mjolnir for Thor, Mercado de Tebas."""
    st = H.blank(2, pantheons=("0002", "0177"))
    masa = H.in_hand(st, "0010", 0)
    assert B.cost(st, 0, masa) == 1
    oni = H.in_hand(st, "0020", 1)  # Karasu Tengu, Demonio, cost 3, under Inframundo
    assert B.cost(st, 1, oni) == 1 and B.cost(st, 0, oni) == 3
    thor = H.put(st, "0025", 0, power=5)
    odin = H.put(st, "0024", 0, power=5)
    mj = H.in_hand(st, "0217", 0)
    assert B.cost(st, 0, mj, thor) == 2 and B.cost(st, 0, mj, odin) == 3
    H.put(st, "0176", 0)
    assert B.cost(st, 0, mj, odin) == 2
    for card, who in (
        ("0213", "0005"),
        ("0216", "0017"),
        ("0220", "0067"),
        ("0222", "0047"),
        ("0231", "0004"),
        ("0233", "0011"),
        ("0234", "0006"),
    ):
        g = H.in_hand(st, card, 0)
        bearer = H.put(st, who, 0, power=5)
        assert B.cost(st, 0, g, bearer) == B.fx(st, g).cost - 1 - (
            1 if "arma" in B.fx(st, g).keys else 0
        )


def test_god_only_gear_and_the_equip_rules() -> None:
    """Weapons of the gods only on a Dios; invocations only on an Invocador; Fenrir carries no weapon."""
    st = H.blank(2)
    mortal = H.put(st, "0039", 0, power=5)
    god = H.put(st, "0025", 0, power=5)
    fenrir = H.put(st, "0034", 0, power=5)
    for card in ("0217", "0220", "0222", "0231", "0250", "0252", "0255", "0257", "0226"):
        g = H.in_hand(st, card, 0)
        assert not B.can_carry(st, g, mortal) and B.can_carry(st, g, god)
    axe = H.in_hand(st, "0224", 0)
    assert not B.can_carry(st, axe, fenrir)
    clio = H.in_hand(st, "0190", 0)
    assert not B.can_carry(st, clio, god)
    howard = H.put(st, "0112", 0, power=1)  # PM 1, invocations as if +3
    drug = H.in_hand(st, "0208", 0)  # -3PM
    assert B.can_carry(st, drug, howard)
    antonio = H.put(st, "0113", 0, power=1)  # PM 2
    assert not B.can_carry(st, drug, antonio)
    bow = H.in_hand(st, "0251", 0)
    hero = H.put(st, "0058", 0, power=3)
    assert B.cost(st, 0, bow, hero) == 1 and B.cost(st, 0, bow, mortal) == 2


def test_gear_that_gives_keys() -> None:
    """Pegaso, Máscara, Ambrosía, Chimalli, Lanza de plata give their keys."""
    st = H.blank(2)
    for card, want in (
        ("0223", {"guerrero", "heroe"}),
        ("0225", {"loco"}),
        ("0232", {"dios"}),
        ("0237", {"invocador"}),
        ("0246", {"ashigaru"}),
    ):
        u = H.put(st, "0097", 0, power=1)
        H.gear(st, card, u)
        assert want <= B.keys(st, u)
    u = H.put(st, "0097", 0, power=1)
    H.gear(st, "0232", u)
    assert B.is_god(st, u) and not B.is_mortal(st, u)


def test_static_powers_of_characters() -> None:
    """Inari +1PM to Ashigaru, La Orden -2PM to gods, Houou indestructible, Dvrger stuck, Arvad alone."""
    st = H.blank(2, pantheons=("0001", "0178"))
    H.put(st, "0014", 0, power=1)
    ash = H.put(st, "0015", 0, power=1)
    assert B.max_power(st, ash) == 4
    god = H.put(st, "0024", 1, power=1)
    assert B.max_power(st, god) == 7
    houou = H.put(st, "0016", 0, power=1)
    assert not B.destroyable(st, houou)
    arvad = H.put(st, "0065", 0, "battle", power=2)
    assert B.strength(st, arvad) == 0
    H.put(st, "0015", 0, "battle", power=2)
    assert B.strength(st, arvad) == 4
    dv = H.put(st, "0029", 1, "battle", power=2)
    H.fight(st)
    exp = H.in_hand(st, "0269", 0)  # Expulsión: move an enemy home
    from rules.guerra_de_mitos.model import Step

    step = Step(seat=0, src=exp, card="0269", ability=0, phase="confrontation")
    opts = C.candidates(st, step, M.ability_of(step).effect[0])
    assert opts is not None and dv not in opts[1]


def test_la_orden_forbids_reserve_gain_and_atlantida_loses_at_the_end() -> None:
    """La Orden: no power into the reserve. Atlántida: -1P at the end of reorganisation."""
    st = H.blank(2, pantheons=("0178", "0043"))

    assert V.gain_reserve(st, 0, 3) == 0 and st.players[0].reserve == 20
    F.reorganise(st)
    assert st.players[1].reserve == 19


def test_amset_and_hapy_change_transfers() -> None:
    """Amset: your transfers +1. Hapy: every player's transfers -1."""
    st = H.blank(2)
    st.round = 2
    u = H.put(st, "0017", 0, power=3)
    H.gear(st, "0238", u)
    assert ST.moves_for(st, 0) == 6 and ST.moves_for(st, 1) == 5
    v = H.put(st, "0017", 1, power=3)
    H.gear(st, "0242", v)
    assert ST.moves_for(st, 0) == 5 and ST.moves_for(st, 1) == 4


# ----------------------------------------------------------------------------- Batalla and the like


def _battle(resolution_card: str | None):
    """Seat 0 (F5) beats seat 1 (F2) after seat 0 played a resolution change in influence."""
    st = H.blank(2)
    a = H.put(st, "0004", 0, power=3)  # Hachiman F5
    b = H.put(st, "0017", 1, power=3)  # F2, PM 6
    if resolution_card:
        u = H.in_hand(st, resolution_card, 0)
        from rules.guerra_de_mitos.model import Play

        st, _ = E.apply(st, 0, Play(uid=u))
        st, _ = E.apply(st, 1, Pass())
        st, _ = E.apply(st, 0, Pass())
    else:
        F.start_confrontation(st)
    st, _ = E.apply(st, 0, Assign(uid=a))
    st, _ = E.apply(st, 1, Assign(uid=b))
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    return H.settle_choices(st), a, b


def test_rulebook_resolution_takes_the_difference() -> None:
    """No change: the loser pays 5 - 2 = 3 from the reserve."""
    st, _, _ = _battle(None)
    assert st.players[1].reserve == 17 and st.players[0].reserve == 20


def test_mariposa_y_guerrero_gives_the_margin_to_the_winner() -> None:
    """Batalla: the stronger player gains the margin instead of the loser paying."""
    st, _, _ = _battle("0340")
    assert st.players[0].reserve == 20 + 3 and st.players[1].reserve == 20


def test_la_caida_de_baldr_destroys_an_enemy_within_the_margin() -> None:
    """The winner destroys an enemy with PM up to the margin (3): the PM 6 character survives."""
    st, _, b = _battle("0287")
    assert st.cards[b].zone == "pantheon" and st.players[1].reserve == 20
    st = H.blank(2)
    a = H.put(st, "0004", 0, power=3)
    m = H.put(st, "0019", 1, power=2)  # Midori F0, PM 2
    from rules.guerra_de_mitos.model import Play

    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0287", 0)))
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 0, Assign(uid=a))
    st, _ = E.apply(st, 1, Assign(uid=m))
    for seat in (0, 1, 0, 1):
        st, _ = E.apply(st, seat, Pass())
    st = H.settle_choices(st)
    assert st.cards[m].zone == "discard"


def test_el_caballo_de_troya_restores_the_rulebook() -> None:
    """The last change played wins: Troy after Mariposa brings back the loss."""
    st = H.blank(2)
    a = H.put(st, "0004", 0, power=3)
    b = H.put(st, "0017", 1, power=3)
    from rules.guerra_de_mitos.model import Play

    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0340", 0)))
    st, _ = E.apply(st, 1, Play(uid=H.in_hand(st, "0342", 1)))
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 0, Assign(uid=a))
    st, _ = E.apply(st, 1, Assign(uid=b))
    for seat in (0, 1, 0, 1):
        st, _ = E.apply(st, seat, Pass())
    assert st.players[1].reserve == 17 and st.players[0].reserve == 20


def test_multiplayer_confrontations_pair_up_in_turn_order() -> None:
    """Three players: the start player picks an opponent; the one left out does not fight."""
    from rules.guerra_de_mitos.model import Challenge

    st = H.blank(3)
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 1, Pass())
    st, _ = E.apply(st, 2, Pass())
    assert st.phase == "challenge" and list(E.pending(st)) == [0]
    assert set(E.legal_actions(st, 0)) == {Challenge(seat=1), Challenge(seat=2)}
    st, _ = E.apply(st, 0, Challenge(seat=2))
    assert st.fight.a == 0 and st.fight.b == 2
    st, _ = E.apply(st, 0, Pass())
    st, _ = E.apply(st, 2, Pass())
    for seat in (0, 2):
        st, _ = E.apply(st, seat, Pass())
    assert st.round == 2 and st.first == 1  # seat 1 had nobody left: reorganisation came


def test_couger_keeps_control_and_the_cats_shield_from_actions() -> None:
    """Couger: no control taken this turn. Los gatos de Ulthar: no action may target that character."""
    from rules.guerra_de_mitos.model import Step

    st = H.blank(2)
    victim = H.put(st, "0015", 1, "battle", power=2)
    st.flags["no_control:1"] = True
    step = Step(
        seat=0,
        src=None,
        card="res:osiris",
        ability=0,
        phase="confrontation",
        vars={"D": 10, "H": 5},
    )
    H.fight(st)
    assert C.candidates(st, step, M.ability_of(step).effect[0])[1] == []
    del st.flags["no_control:1"]
    assert C.candidates(st, step, M.ability_of(step).effect[0])[1] == [victim]
    st.cards[victim].shielded = True
    act = H.in_hand(st, "0269", 0)  # Expulsión
    step2 = Step(seat=0, src=act, card="0269", ability=0, phase="confrontation")
    assert victim not in C.candidates(st, step2, M.ability_of(step2).effect[0])[1]


def test_puertas_abiertas_lets_the_opponent_choose() -> None:
    """The opponent either sends a character home or the player gains 4P."""
    from rules.guerra_de_mitos.model import Choose, Play

    for pick, gained in ((0, 0), (1, 4)):
        st = H.blank(2)
        mine = H.put(st, "0004", 0, "battle", power=3)
        H.put(st, "0013", 0, "battle", power=3)
        theirs = H.put(st, "0017", 1, "battle", power=3)
        H.fight(st)
        st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0354", 0), payer=mine))
        from rules.guerra_de_mitos.model import Target

        st, _ = E.apply(st, 0, Target(uid=mine))  # the character going home
        assert list(E.pending(st)) == [1] and set(E.legal_actions(st, 1)) == {
            Choose(value=0),
            Choose(value=1),
        }
        st, _ = E.apply(st, 1, Choose(value=pick))
        st = H.settle_choices(st)
        assert st.players[0].reserve == 20 + gained
        assert st.cards[theirs].zone == ("pantheon" if pick == 0 else "battle")


def test_basan_the_opponent_tires_a_god_or_pays_two() -> None:
    """Basan: the adversary chooses between tiring one of their gods and losing 2P on it."""
    from rules.guerra_de_mitos.model import Choose, Use

    st = H.blank(2)
    inv = H.put(st, "0017", 0, "battle", power=3)
    basan = H.gear(st, "0203", inv)
    god = H.put(st, "0013", 1, "battle", power=3)
    H.fight(st)
    st, _ = E.apply(st, 0, Use(uid=basan))
    assert st.cards[inv].tired and list(E.pending(st)) == [1]
    st, _ = E.apply(st, 1, Choose(value=1))
    st = H.settle_choices(st)
    assert st.cards[god].power == 1 and not st.cards[god].tired


def test_konibori_moves_an_influence_ability_to_the_confrontation() -> None:
    """Konibori on Zeus: his INFLUENCIA ability is used on the battlefield this turn, not before."""
    from rules.guerra_de_mitos.model import Play, Target

    st = H.blank(2)
    zeus = H.put(st, "0044", 0, power=4)
    H.put(st, "0015", 1, power=2)
    st, _ = E.apply(st, 0, Play(uid=H.in_hand(st, "0276", 0)))
    if st.stack:
        st, _ = E.apply(st, 0, Target(uid=zeus))
    assert "konibori" in st.cards[zeus].marks
    st.actor = 0
    assert Use(uid=zeus, ability=0) not in E.legal_actions(st, 0)
    enemy = H.put(st, "0039", 1, "battle", power=2)
    st.cards[zeus].zone = "battle"
    H.fight(st)
    assert Use(uid=zeus, ability=0) in E.legal_actions(st, 0)
    st, _ = E.apply(st, 0, Use(uid=zeus, ability=0))
    st = H.settle_choices(st)
    assert st.cards[enemy].tired
