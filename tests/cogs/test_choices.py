"""Menus of legal moves, typed choices, and the public record of a move."""

from __future__ import annotations

import dataclasses
import json

import pytest

import cogs.rey_hierofante  # noqa: F401 - registers the game's presentation
from cogs.common.choices import (
    MENU_SIZE,
    PickSelect,
    announcement,
    board_view,
    encode,
    groups,
    menu_options,
    resolve_action,
)
from cogs.common.present import clip_before, event_lines, ui_for
from rules.core import RuleError, StaleAction
from services.session import MoveResult, Refusal, Step
from tests.cogs.helpers import ENGINE, advance, game, to_act


def test_a_short_list_is_one_menu_of_moves() -> None:
    g = game()  # first move: only the Citizen, on any of 9 squares
    seat = to_act(g)
    options = menu_options(ui_for(g.row.game_id), g, seat, "es", None)
    assert len(options) == len(g.legal_actions(seat)) <= MENU_SIZE
    assert all(o.value.startswith("a") for o in options)
    assert any("Ciudadano" in o.label for o in options)


def test_a_long_list_becomes_two_steps_tile_then_square() -> None:
    g = advance(game(), 1)
    seat = to_act(g)
    actions = g.legal_actions(seat)
    assert len(actions) > MENU_SIZE
    ui = ui_for(g.row.game_id)
    first = menu_options(ui, g, seat, "en", None)
    assert 1 <= len(first) <= MENU_SIZE
    assert len({o.value for o in first}) == len(first)
    # every legal action is reachable through exactly one first-step entry
    reached: list[int] = []
    for option in first:
        if option.value.startswith("a"):
            reached.append(int(option.value[1:]))
            continue
        second = menu_options(ui, g, seat, "en", int(option.value[1:]))
        assert 1 <= len(second) <= MENU_SIZE
        reached.extend(int(o.value[1:]) for o in second)
    assert sorted(reached) == list(range(len(actions)))
    # the first step names tiles, the second squares
    tile_entry = next(o for o in first if o.value.startswith("g"))
    group = groups(ui, g, seat, actions)[int(tile_entry.value[1:])]
    tiles = {actions[i].tile for i in group.indices}  # type: ignore[attr-defined]
    assert len(tiles) == 1


def test_menu_labels_and_values_fit_discord_limits() -> None:
    g = advance(game(), 1)
    seat = to_act(g)
    ui = ui_for(g.row.game_id)
    for locale in ("es", "en"):
        for option in menu_options(ui, g, seat, locale, None):
            assert 1 <= len(option.label) <= 100 and len(option.value) <= 100


def test_custom_ids_carry_game_version_and_seat() -> None:
    assert PickSelect(12, 34, 1).custom_id == "tablero:pick:12:34:1"
    assert PickSelect(12, 34, 1, 5).custom_id == "tablero:pick:12:34:1:5"
    assert PickSelect.__discord_ui_compiled_template__.fullmatch("tablero:pick:12:34:1:5")


def test_board_menu_is_public_only_when_it_reveals_nothing() -> None:
    open_game = game(options={"variant": "aleatorio"})
    ids = [item.custom_id for item in board_view(open_game, "es").children]  # type: ignore[union-attr]
    assert any(i.startswith("tablero:pick:1:0:") for i in ids)
    assert "tablero:hand:1" in ids

    hidden = game(options={"variant": "aleatorio_oculto"})
    ids = [item.custom_id for item in board_view(hidden, "es").children]  # type: ignore[union-attr]
    assert not any(i.startswith("tablero:pick:") for i in ids)
    assert "tablero:play:1" in ids and "tablero:hand:1" in ids


def test_no_components_once_the_game_is_closed() -> None:
    assert board_view(game(status="finished"), "es") is None
    assert board_view(game(status="abandoned"), "en") is None


def test_typed_values_resolve_to_legal_actions_only() -> None:
    g = game()
    seat = to_act(g)
    legal = g.legal_actions(seat)
    assert resolve_action(g, seat, encode(g, 0, legal[0])) == legal[0]
    label_en = ENGINE.describe(g.state, seat, legal[2]).en  # type: ignore[arg-type]
    assert resolve_action(g, seat, label_en.upper()) == legal[2]
    label_es = ENGINE.describe(g.state, seat, legal[3]).es  # type: ignore[arg-type]
    assert resolve_action(g, seat, label_es) == legal[3]
    with pytest.raises(Refusal) as nothing:
        resolve_action(g, seat, "teleport")
    assert "Ciudadano" in nothing.value.message("es") and "Citizen" in nothing.value.message("en")
    with pytest.raises(Refusal):
        resolve_action(g, seat, encode(g, 0, legal[0]), kinds={"decline"})
    with pytest.raises(RuleError):
        resolve_action(g, seat, '{"kind": "nope"}')


def test_index_values_are_tied_to_a_version() -> None:
    g = game()
    seat = to_act(g)
    assert resolve_action(g, seat, "#1@0") == g.legal_actions(seat)[1]
    with pytest.raises(StaleAction):
        resolve_action(g, seat, "#1@3")


def test_announcement_names_the_player_and_pings_the_next() -> None:
    g = game(locale="en")
    before = g.state
    seat = to_act(g)
    action = g.legal_actions(seat)[0]
    new, events = ENGINE.apply(g.state, seat, action)  # type: ignore[arg-type]
    g.state = new
    result = MoveResult(game=g, before=before, steps=[Step(seat=seat, action=action, events=events, version=1)])
    text = announcement(g, result, "en")
    mover, waiting = ("alice", 202) if seat == 0 else ("bob", 101)
    # the rules' own words, with the player's name where the engine wrote a seat number
    assert text.startswith(f"**{mover}** (") and "Player " not in text
    assert f"<@{waiting}>" in text
    assert len(text) <= 2000


def test_announcement_of_an_ai_reply_does_not_ping_the_bot() -> None:
    g = game(ai=True, locale="es")
    seat = to_act(g)
    result = MoveResult(game=g, before=g.state, steps=[])
    text = announcement(g, result, "es")
    if seat == 1:
        assert "**Bot**" in text and "<@" not in text
    else:
        assert "<@101>" in text


def test_encoded_values_fit_autocomplete() -> None:
    g = advance(game(), 1)
    seat = to_act(g)
    for i, a in enumerate(g.legal_actions(seat)):
        value = encode(g, i, a)
        assert len(value) <= 100
        # The action's JSON, then the version it was offered at.
        data, _, version = value.rpartition("@")
        assert json.loads(data)["kind"] == "place" and int(version) == g.version
        assert resolve_action(g, seat, value) == a


def test_a_long_record_loses_what_happened_never_the_ping_of_who_acts() -> None:
    # Five players' worth of 32-character names and a long run of moves: the record must
    # still fit one message and still mention the player who must act now.
    g = game(locale="es")
    long_name = "Jugadora con un nombre muy largo"[:32]
    g.seats = [dataclasses.replace(row, name=long_name) for row in g.seats]
    before = g.state
    seat = to_act(g)
    action = g.legal_actions(seat)[0]
    new, events = ENGINE.apply(g.state, seat, action)  # type: ignore[arg-type]
    g.state = new
    steps = [Step(seat=k % 2, action=action, events=events, version=k + 1) for k in range(120)]
    result = MoveResult(game=g, before=before, steps=steps)
    text = announcement(g, result, "es")
    waiting = to_act(g)
    assert len(text) <= 2000
    assert f"<@{g.seat_row(waiting).user_id}>" in text.split("\n")[-1]
    # what happened lost its oldest whole lines, said with an ellipsis; the newest stay
    assert text.split("\n")[0] == "…" and text.split("\n")[-2] == text.split("\n")[-3]


def test_clip_before_keeps_the_tail_whole() -> None:
    tail = "Te toca, <@123456789012345678>."
    out = clip_before("\n".join(f"line {k}" for k in range(500)), tail, 200)
    assert len(out) <= 200 and out.endswith("\nline 499\n" + tail) and out.startswith("…\n")
    assert clip_before("short", tail, 200) == "short\n" + tail
    assert clip_before("", tail, 200) == tail


def test_a_long_change_keeps_its_newest_steps_on_the_turns_message() -> None:
    # The bot played a long run (a seat it took over, to the end): the turn's message keeps
    # the last steps of the run, never the first ones with the end cut off.
    from cogs.common.turn_record import change_lines, record

    g = game(locale="en")
    before = g.state
    steps, state = [], g.state
    for k in range(200):
        seat = to_act(g)
        new, events = ENGINE.apply(state, seat, g.legal_actions(seat)[0])  # type: ignore[arg-type]
        steps.append(Step(seat=seat, action=g.legal_actions(seat)[0], events=events, version=k + 1))
        g.state = state = new
        if not g.pending():
            break
    result = MoveResult(game=g, before=before, steps=steps)
    lines = change_lines(g, result, "en")
    assert len(lines) > 1 and all("\n" not in line for line in lines)
    said = record(lines, g, "en")
    assert len(said) <= 2000 and said.startswith("…\n")
    newest = event_lines(steps[-1].events, "en", g=g)
    assert newest and newest[-1] in said
