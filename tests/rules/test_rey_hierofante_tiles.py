"""Scenario tests: every tile of Rey y Hierofante, from the rulebook's tile list."""

from __future__ import annotations

import pytest

from rules.core import IllegalAction, InvalidAction, NotYourTurn, StaleAction
from rules.rey_hierofante.model import Activate, Decline, Group, Line, Move, Target
from rules.rey_hierofante.tiles import BLUE, NEUTRALS, RED, TILES
from tests.rules.rh_helpers import E, owners, play, position, sq

P = "place"


def place(tile: str, square: str) -> dict:
    return {"kind": P, "tile": tile, "square": sq(square)}


def target(square: str) -> dict:
    return {"kind": "target", "square": sq(square)}


def test_catalogue_has_all_32_tiles() -> None:
    assert len(TILES) == 32
    assert len(RED) == len(BLUE) == 7
    assert len(NEUTRALS) == 17
    assert [t for t in TILES.values() if t.faction == "blank"][0].id == "blanca"
    # both factions have identical powers, pair by pair
    for r, b in zip(RED, BLUE, strict=True):
        assert (TILES[r].effect, TILES[r].reach, TILES[r].kind) == (
            TILES[b].effect, TILES[b].reach, TILES[b].kind)


# ----------------------------------------------------------------------------- opening


def test_first_move_must_be_the_citizen() -> None:
    s = E.setup(2, {}, seed=3)
    seat = s.starter
    assert s.zones[seat][-1].tile == "ciudadano"
    acts = E.legal_actions(s, seat)
    assert {a.tile for a in acts} == {"ciudadano"} and len(acts) == 9
    before = s.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        E.apply(s, seat, {"kind": P, "tile": RED[0] if seat == 0 else BLUE[0], "square": 4})
    assert "Ciudadano" in err.value.message("es") and "Citizen" in err.value.message("en")
    assert s.model_dump_json() == before
    s2, ev = E.apply(s, seat, {"kind": P, "tile": "ciudadano", "square": 4})
    assert s2.board[4].tile == "ciudadano" and s2.board[4].owner == seat
    assert s2.turn == 1 - seat
    assert len(s2.neutral_zone) == 5 and "ciudadano" not in s2.neutral_zone


def test_setup_original_deals_five_neutrals_and_factions() -> None:
    s = E.setup(2, {}, seed=11)
    assert {z.tile for z in s.zones[0]} - {"ciudadano"} == set(RED)
    assert {z.tile for z in s.zones[1]} - {"ciudadano"} == set(BLUE)
    assert len(s.neutral_zone) == 5 and len(s.stock) == 11


# ----------------------------------------------------------------------------- destroy


def test_king_destroys_and_the_tile_leaves_at_the_destroyers_next_turn() -> None:
    s = position({"A1": ("obispo", 1), "C3": ("templo", 1)}, zones=(["rey"], ["santa", "paladin"]))
    s = play(s, 0, place("rey", "B2"))
    assert s.phase == "effect"
    # the Temple has a printed shield: not a target
    assert E.legal_actions(s, 0) == [Target(square=sq("A1")), Decline()]
    s = play(s, 0, target("A1"))
    assert owners(s)["A1"] == ("obispo", 1, False)
    assert s.turn == 1
    # still there during the opponent's turn: nobody may place on it or target it
    with pytest.raises(IllegalAction):
        E.apply(s, 1, place("santa", "A1"))
    s = play(s, 1, place("paladin", "C1"))
    assert "A1" not in owners(s)  # removed at the start of seat 0's turn
    assert s.discard == ["obispo"]


def test_destroyed_tile_is_not_a_target() -> None:
    s = position({"A1": ("obispo", 1, None, False, 0), "B1": ("santa", 1)}, zones=(["ministro"], []))
    s = play(s, 0, place("ministro", "A2"))
    assert Target(square=sq("A1")) not in E.legal_actions(s, 0)
    assert Target(square=sq("B1")) in E.legal_actions(s, 0)


def test_no_destruction_when_the_placement_fills_the_board() -> None:
    board = {n: ("obispo" if i % 2 else "santa", 1) for i, n in enumerate(
        ["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"])}
    s = position(board, zones=(["rey"], ["hierofante"]))
    s2, ev = E.apply(s, 0, place("rey", "B2"))
    # no effect step: the game ends at once with the full board
    assert s2.phase == "choose_starter" and s2.history[-1].winner == 1
    assert s2.history[-1].allies == [1, 8]


def test_general_reaches_only_orthogonal_and_mage_only_diagonal() -> None:
    board = {"B1": ("santa", 1), "A1": ("obispo", 1)}
    s = play(position(board, zones=(["general", "mago"], [])), 0, place("general", "B2"))
    assert E.legal_actions(s, 0) == [Target(square=sq("B1")), Decline()]
    s = play(position(board, zones=(["general", "mago"], [])), 0, place("mago", "B2"))
    assert E.legal_actions(s, 0) == [Target(square=sq("A1")), Decline()]


def test_pirate_destroys_only_shielded_tiles() -> None:
    s = position({"A1": ("templo", 1), "B1": ("santa", 1)}, neutral=["pirata"])
    s = play(s, 0, place("pirata", "B2"))
    assert E.legal_actions(s, 0) == [Target(square=sq("A1")), Decline()]
    s = play(s, 0, target("A1"))
    assert owners(s)["A1"] == ("templo", 1, False)


def test_pirate_destroys_a_tower_stack_and_both_tiles_leave() -> None:
    s = position({"A1": ("torre", 1, "santa")}, neutral=["pirata"], zones=([], ["templo"]))
    s = play(s, 0, place("pirata", "B2"), target("A1"))
    s = play(s, 1, place("templo", "C3"))
    assert "A1" not in owners(s)
    assert sorted(s.discard) == ["santa", "torre"]


# ----------------------------------------------------------------------------- flips


def test_minister_flips_one_neighbour() -> None:
    s = position({"A1": ("obispo", 1), "C3": ("santa", 1)}, zones=(["ministro"], []))
    s = play(s, 0, place("ministro", "B2"), target("C3"))
    assert owners(s)["C3"] == ("santa", 0, True) and owners(s)["A1"][1] == 1


def test_princess_flips_all_of_a_group_except_immune() -> None:
    board = {"B1": ("obispo", 1), "A2": ("cardenal", 1), "C2": ("templo", 1),
             "B3": ("santa", 0), "A1": ("monje", 1)}
    s = play(position(board, zones=(["princesa"], [])), 0, place("princesa", "B2"))
    assert E.legal_actions(s, 0) == [Group(group="orth"), Group(group="diag"), Decline()]
    s = play(s, 0, {"kind": "group", "group": "orth"})
    o = owners(s)
    # all four orthogonal flipped (even our own Santa), the Temple is immune, diagonal untouched
    assert (o["B1"][1], o["A2"][1], o["C2"][1], o["B3"][1], o["A1"][1]) == (0, 0, 1, 1, 1)


def test_queen_flips_a_whole_line_across_empty_squares() -> None:
    board = {"A3": ("obispo", 1), "C1": ("santa", 1), "B1": ("monje", 1)}
    s = play(position(board, zones=(["reina"], [])), 0, place("reina", "A1"))
    legal = E.legal_actions(s, 0)
    assert Line(direction="s") in legal and Line(direction="e") in legal
    assert Line(direction="se") not in legal  # nothing on the diagonal
    s = play(s, 0, {"kind": "line", "direction": "e"})
    o = owners(s)
    assert o["B1"][1] == 0 and o["C1"][1] == 0 and o["A3"][1] == 1


def test_queen_line_reaches_past_an_empty_square() -> None:
    s = play(position({"A3": ("obispo", 1)}, zones=(["reina"], [])), 0, place("reina", "A1"))
    s = play(s, 0, {"kind": "line", "direction": "s"})
    assert owners(s)["A3"][1] == 0


@pytest.mark.parametrize(("seat", "flipped", "kept"), [(0, ["A1", "B1", "C1"], ["A3"]),
                                                       (1, ["A3", "B3", "C3"], ["A1"])])
def test_fortune_teller_flips_the_three_in_front_of_its_owner(seat, flipped, kept) -> None:
    board = {n: ("obispo", 1 - seat) for n in ["A1", "B1", "C1", "A3", "B3", "C3"]}
    s = position(board, neutral=["adivina"], turn=seat)
    s = play(s, seat, place("adivina", "B2"))
    assert E.legal_actions(s, seat) == [Activate(), Decline()]
    s = play(s, seat, {"kind": "activate"})
    o = owners(s)
    assert all(o[n][1] == seat for n in flipped)
    assert all(o[n][1] == 1 - seat for n in kept)


def test_dragon_flips_every_neighbour_but_shielded_ones() -> None:
    board = {"A1": ("obispo", 1), "B1": ("rey", 0), "C3": ("templo", 1), "A3": ("santa", 1)}
    s = play(position(board, neutral=["dragon"]), 0, place("dragon", "B2"), {"kind": "activate"})
    o = owners(s)
    assert (o["A1"][1], o["B1"][1], o["C3"][1], o["A3"][1]) == (0, 1, 1, 0)


def test_declining_changes_nothing_on_the_board() -> None:
    board = {"A1": ("obispo", 1), "C3": ("santa", 1)}
    s = play(position(board, neutral=["dragon"]), 0, place("dragon", "B2"))
    s = play(s, 0, {"kind": "decline"})
    o = owners(s)
    assert o["A1"][1] == 1 and o["C3"][1] == 1 and s.turn == 1


# ----------------------------------------------------------------------------- banish


def test_samurai_and_ninja_banish_to_the_discard_pile() -> None:
    board = {"B1": ("obispo", 1), "A1": ("santa", 1)}
    s = play(position(board, neutral=["samurai", "ninja"]), 0, place("samurai", "B2"))
    assert E.legal_actions(s, 0) == [Target(square=sq("B1")), Decline()]
    s = play(s, 0, target("B1"))
    assert "B1" not in owners(s) and s.discard == ["obispo"]
    s2 = play(position(board, neutral=["ninja"]), 0, place("ninja", "B2"))
    assert E.legal_actions(s2, 0) == [Target(square=sq("A1")), Decline()]


def test_assassin_banishes_from_the_opponents_area_even_hidden() -> None:
    s = position(zones=([], ["santa"]), hidden=([], ["dragon"]), neutral=["asesino"])
    s = play(s, 0, place("asesino", "B2"))
    labels = [E.describe(s, 0, a).en for a in E.legal_actions(s, 0)]
    assert labels[0] == "Banish Saint from their area"
    assert "Dragon" not in " ".join(labels)  # the hidden tile is chosen blind
    s = play(s, 0, {"kind": "banish_zone", "slot": 1})
    assert [z.tile for z in s.zones[1]] == ["santa"] and s.discard == ["dragon"]


# ----------------------------------------------------------------------------- moving, copying


def test_fairy_moves_any_unshielded_tile_to_an_empty_square() -> None:
    board = {"A1": ("obispo", 1), "C1": ("templo", 1)}
    s = play(position(board, neutral=["hada"]), 0, place("hada", "B2"))
    moves = [a for a in E.legal_actions(s, 0) if isinstance(a, Move)]
    assert {m.source for m in moves} == {sq("A1")}  # not the Temple, not the Fairy itself
    assert len(moves) == 6
    s = play(s, 0, {"kind": "move", "source": sq("A1"), "dest": sq("C3")})
    assert owners(s)["C3"] == ("obispo", 1, True) and "A1" not in owners(s)


def test_bard_copies_an_orthogonal_active_effect_from_its_own_square() -> None:
    board = {"B1": ("rey", 0), "A1": ("obispo", 1), "C3": ("santa", 1), "A3": ("templo", 1)}
    s = play(position(board, neutral=["bardo"]), 0, place("bardo", "B2"))
    assert E.legal_actions(s, 0) == [Target(square=sq("B1")), Decline()]
    s = play(s, 0, target("B1"))
    assert s.phase == "effect" and s.effect.tile == "rey"
    # the King's reach now counts from the Bard's square (B2): C3 is in reach
    assert Target(square=sq("C3")) in E.legal_actions(s, 0)
    s = play(s, 0, target("C3"))
    assert owners(s)["C3"] == ("santa", 1, False)


def test_artist_copies_diagonal_and_skips_passive_and_shielded() -> None:
    board = {"A1": ("chaman", 1), "C1": ("reina", 1), "A3": ("castillo", 0), "B3": ("obispo", 1)}
    s = play(position(board, neutral=["artista"]), 0, place("artista", "B2"))
    # C1's Queen is the only diagonal neighbour with a usable active effect
    assert E.legal_actions(s, 0) == [Target(square=sq("C1")), Decline()]


def test_copied_fortune_teller_points_away_from_the_copier_owner() -> None:
    board = {"A2": ("adivina", 1), "A1": ("obispo", 1), "B1": ("santa", 1), "A3": ("monje", 1),
             "C3": ("paladin", 1)}
    s = play(position(board, neutral=["bardo"]), 0, place("bardo", "B2"), target("A2"))
    s = play(s, 0, {"kind": "activate"})
    o = owners(s)
    # seat 0's Bard looks up the board: A1 and B1 flip; the row below does not
    assert o["A1"][1] == 0 and o["B1"][1] == 0 and o["A3"][1] == 1 and o["C3"][1] == 1
    assert o["A2"][1] == 1  # the copied tile is not touched


def test_bard_cannot_copy_a_tower() -> None:
    s = play(position({"B1": ("torre", 0, "rey")}, neutral=["bardo"]), 0, place("bardo", "B2"))
    assert s.phase == "place" and s.turn == 1  # nothing to copy: no prompt


def test_copy_of_a_destroyer_respects_the_full_board_rule() -> None:
    board = {n: ("templo", 1) for n in ["A1", "C1", "A2", "C2", "A3", "B3", "C3"]}
    board["B1"] = ("rey", 0)
    s = play(position(board, neutral=["bardo"]), 0, place("bardo", "B2"))
    # the only copy would destroy, which a full board forbids: the game ends at once
    assert s.phase != "effect" and s.history[-1].allies == [2, 7]


# ----------------------------------------------------------------------------- cancel


def test_shaman_cancels_any_tile_placed_orthogonally() -> None:
    board = {"B1": ("chaman", 1), "A1": ("obispo", 1)}
    s, ev = E.apply(position(board, zones=(["rey"], ["templo"])), 0, place("rey", "B2"))
    assert s.phase == "place" and s.turn == 1
    assert any(e.kind == "cancelled" for e in ev)
    # diagonally next to the Shaman the King works
    s = play(position(board, zones=(["rey"], ["templo"])), 0, place("rey", "A2"))
    assert s.phase == "effect"


def test_sorceress_cancels_diagonal_placements_only() -> None:
    board = {"A1": ("hechicera", 1), "B1": ("obispo", 1)}
    s = play(position(board, zones=(["ministro"], ["templo"])), 0, place("ministro", "B2"))
    assert s.phase == "place"
    s = play(position(board, zones=(["ministro"], ["templo"])), 0, place("ministro", "C1"))
    assert s.phase == "effect"


@pytest.mark.parametrize(("canceller", "at"), [("chaman", "B1"), ("hechicera", "A1")])
def test_a_tile_placed_with_a_shield_keeps_its_effect_next_to_a_canceller(canceller, at) -> None:
    # B2 is right of the Sage (A2): the King arrives with a shield, and a shielded tile
    # "no puede ser objeto de ningún efecto", the canceller's included.
    board = {"A2": ("sabio", 1), at: (canceller, 1), "C3": ("obispo", 1)}
    s, ev = E.apply(position(board, zones=(["rey"], ["templo"])), 0, place("rey", "B2"))
    assert E.view(s, None).board[sq("B2")].shielded
    assert s.phase == "effect" and not any(e.kind == "cancelled" for e in ev)
    assert Target(square=sq("C3")) in E.legal_actions(s, 0)
    # without the Sage beside it the same placement is cancelled
    board.pop("A2")
    s = play(position(board, zones=(["rey"], ["templo"])), 0, place("rey", "B2"))
    assert s.phase == "place" and s.turn == 1


def test_a_face_down_shaman_cancels_nothing() -> None:
    board = {"B1": ("chaman", 1, None, False, 0), "A1": ("obispo", 1)}
    s = play(position(board, zones=(["rey"], ["templo"])), 0, place("rey", "B2"))
    assert s.phase == "effect"


# ----------------------------------------------------------------------------- shields


def test_castle_is_immune_to_everything() -> None:
    board = {"B1": ("castillo", 1)}
    for tile in ("rey", "ministro", "general"):
        s = play(position(board, zones=([tile], ["templo"])), 0, place(tile, "B2"))
        assert s.phase == "place", tile


def test_sage_shields_left_and_right_until_moved() -> None:
    board = {"A1": ("obispo", 1), "B1": ("sabio", 1), "C1": ("santa", 1), "A2": ("monje", 1)}
    s = play(position(board, zones=(["rey"], [])), 0, place("rey", "B2"))
    targets = {a.square for a in E.legal_actions(s, 0) if isinstance(a, Target)}
    assert targets == {sq("B1"), sq("A2")}
    # the Fairy moves the Sage away: its old neighbours lose the shield
    s = play(position(board, neutral=["hada"]), 0, place("hada", "B2"),
             {"kind": "move", "source": sq("B1"), "dest": sq("C3")})
    v = E.view(s, None)
    assert not v.board[sq("A1")].shielded and not v.board[sq("C1")].shielded


def test_tower_covers_an_ally_which_loses_power_and_gains_a_shield() -> None:
    board = {"B1": ("chaman", 0), "A1": ("obispo", 1)}
    s = position(board, neutral=["torre"], zones=(["rey"], ["santa"]))
    legal = [a for a in E.legal_actions(s, 0) if a.tile == "torre"]
    assert {a.square for a in legal} == {i for i in range(9) if i not in (0, 1)} | {sq("B1")}
    s = play(s, 0, place("torre", "B1"))
    assert owners(s)["B1"] == ("torre", 0, True)
    assert s.board[sq("B1")].covered == "chaman"
    assert E.view(s, None).board[sq("B1")].shielded
    # the covered Shaman no longer cancels: the opponent's Minister next to it works
    s = play(s, 1, place("santa", "C3"))
    s = play(s, 0, place("rey", "B2"))
    assert s.phase == "effect"
    assert Target(square=sq("B1")) not in E.legal_actions(s, 0)


def test_tower_cannot_cover_an_enemy_or_a_shielded_ally() -> None:
    board = {"A1": ("obispo", 1), "C1": ("castillo", 0)}
    s = position(board, neutral=["torre"])
    squares = {a.square for a in E.legal_actions(s, 0) if a.tile == "torre"}
    assert sq("A1") not in squares and sq("C1") not in squares
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, place("torre", "A1"))
    assert "Torre" in err.value.message("es")


def test_witch_returns_an_ally_to_your_area() -> None:
    board = {"A1": ("rey", 0), "C1": ("obispo", 1)}
    s = play(position(board, neutral=["bruja"]), 0, place("bruja", "B2"))
    assert E.legal_actions(s, 0) == [Target(square=sq("A1")), Decline()]
    s = play(s, 0, target("A1"))
    assert "A1" not in owners(s) and [z.tile for z in s.zones[0]] == ["castillo", "rey"]


def test_hermit_takes_a_tile_from_the_discard_pile() -> None:
    s = play(position({}, neutral=["ermitano"], discard=["obispo", "dragon"]), 0,
             place("ermitano", "B2"))
    assert [a.model_dump() for a in E.legal_actions(s, 0)][:2] == [
        {"kind": "recover", "tile": "obispo"}, {"kind": "recover", "tile": "dragon"}]
    s = play(s, 0, {"kind": "recover", "tile": "dragon"})
    assert s.discard == ["obispo"] and [z.tile for z in s.zones[0]] == ["castillo", "dragon"]


def test_hermit_with_an_empty_discard_pile_asks_nothing() -> None:
    s = play(position({}, neutral=["ermitano"], zones=([], ["santa"])), 0, place("ermitano", "B2"))
    assert s.phase == "place" and s.turn == 1


# ----------------------------------------------------------------------------- end of game


def _full_but(square: str, owner_of_rest: dict[str, int]) -> dict[str, tuple]:
    names = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    return {n: ("santa" if owner_of_rest[n] else "rey", owner_of_rest[n]) for n in names if n != square}


def test_death_makes_its_ally_lose_whatever_the_count() -> None:
    owners_ = dict.fromkeys(["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"], 0)
    owners_["A1"] = 1
    board = _full_but("C3", owners_)
    board["B2"] = ("muerte", 0)
    s = play(position(board, zones=(["rey"], [])), 0, place("rey", "C3"))
    last = s.history[-1]
    assert last.winner == 1 and last.reason == "death"


def test_death_covered_by_a_tower_has_no_power() -> None:
    owners_ = dict.fromkeys(["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"], 0)
    owners_["A1"] = 1
    board = _full_but("C3", owners_)
    board["B2"] = ("torre", 0, "muerte")
    s = play(position(board, zones=(["rey"], [])), 0, place("rey", "C3"))
    assert s.history[-1].winner == 0 and s.history[-1].reason == "board_full"


def test_a_player_with_no_tile_to_place_loses() -> None:
    s = position({"A1": ("rey", 0)}, zones=(["general"], []), neutral=[])
    s = play(s, 0, place("general", "C3"))
    assert s.history[-1].winner == 0 and s.history[-1].reason == "no_tile"


def test_no_tile_loss_stands_even_if_the_winner_has_death_as_ally() -> None:
    s = position({"A1": ("muerte", 0)}, zones=(["general"], []), neutral=[])
    s = play(s, 0, place("general", "C3"))
    assert s.history[-1].winner == 0 and s.history[-1].reason == "no_tile"


def test_points_system_gives_nothing_to_a_loser_by_death() -> None:
    owners_ = dict.fromkeys(["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"], 0)
    owners_["A1"] = 1
    board = _full_but("C3", owners_)
    board["B2"] = ("muerte", 0)
    s = play(position(board, zones=(["rey"], []), scoring="points", games=1), 0, place("rey", "C3"))
    assert s.finished and s.points == [0, 1]
    assert E.outcome(s).ranking == [[1], [0]]


# ----------------------------------------------------------------------------- refusals


def test_refusals_change_nothing_and_say_what_is_legal() -> None:
    s = position({"B2": ("obispo", 1)}, zones=(["rey"], ["santa"]))
    before = s.model_dump_json()
    with pytest.raises(NotYourTurn):
        E.apply(s, 1, place("santa", "A1"))
    with pytest.raises(StaleAction):
        E.apply(s, 0, place("rey", "A1"), version=s.version + 3)
    with pytest.raises(InvalidAction):
        E.apply(s, 0, {"kind": "place", "tile": "rey"})
    with pytest.raises(InvalidAction):
        E.apply(s, 0, {"kind": "teleport"})
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, place("rey", "B2"))
    assert "A1" in err.value.message("es") and "taken" in err.value.message("en")
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, place("dragon", "A1"))
    assert "Rey" in err.value.message("es") and "King" in err.value.message("en")
    with pytest.raises(IllegalAction):
        E.apply(s, 0, {"kind": "target", "square": 4})
    assert s.model_dump_json() == before


def test_effect_refusal_lists_the_choices() -> None:
    s = play(position({"A1": ("obispo", 1)}, zones=(["rey"], [])), 0, place("rey", "B2"))
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, target("C3"))
    assert "A1" in err.value.message("es") and "Destroy" in err.value.message("en")
