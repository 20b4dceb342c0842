"""Lobby options and the lobby message."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.common.present import Rendered
from cogs.lobby import gather_options, literal_values, parse_options_text, render_lobby
from services.session import Refusal
from tests.cogs.helpers import ENGINE, game


def components(rendered: Rendered) -> dict[str, dict[str, Any]]:
    """The message's components as Discord receives them, by custom_id."""
    assert rendered.view is not None
    return {c["custom_id"]: c for row in rendered.view.to_components() for c in row["components"]}


def test_free_text_options_parse_as_key_value_pairs() -> None:
    assert parse_options_text("games=5  reshuffle=true") == {"games": "5", "reshuffle": "true"}
    assert parse_options_text("Scoring=points,games=3") == {"scoring": "points", "games": "3"}
    assert parse_options_text(None) == {}
    with pytest.raises(Refusal) as bad:
        parse_options_text("games")
    assert "games" in bad.value.message("es") and "key=value" in bad.value.message("en")


def test_explicit_parameters_win_and_unknown_keys_are_refused() -> None:
    opts = gather_options(ENGINE, {"variant": "draft", "games": None}, "variant=clasico games=5")
    assert opts == {"variant": "draft", "games": "5"}
    assert ENGINE.parse_options(opts).games == 5  # the engine converts and validates
    with pytest.raises(Refusal) as unknown:
        gather_options(ENGINE, {}, "colour=red")
    assert "colour" in unknown.value.message("en") and "variant" in unknown.value.message("en")


def test_variant_choices_come_from_the_options_model() -> None:
    values = literal_values(ENGINE, "variant")
    assert "original" in values and "draft_oculto" in values
    assert literal_values(ENGINE, "games") == []


def test_lobby_buttons_follow_the_seats() -> None:
    lonely = game(status="lobby", seats=1, locale="es")
    rendered = render_lobby(lonely, "es")
    buttons = components(rendered)
    assert set(buttons) == {
        "tablero:lobby:join:1", "tablero:lobby:leave:1", "tablero:lobby:ai:1", "tablero:lobby:start:1",
    }
    assert buttons["tablero:lobby:start:1"].get("disabled", False)
    assert not buttons["tablero:lobby:join:1"].get("disabled", False)
    assert buttons["tablero:lobby:join:1"]["label"] == "Unirse"

    full = render_lobby(game(status="lobby", ai=True, locale="en"), "en")
    buttons = components(full)
    assert buttons["tablero:lobby:join:1"].get("disabled", False)
    assert buttons["tablero:lobby:ai:1"].get("disabled", False)
    assert not buttons["tablero:lobby:start:1"].get("disabled", False)
    players = full.embed.fields[0].value or ""
    assert "<@101>" in players and "Bot" in players


def test_a_started_lobby_has_no_buttons() -> None:
    rendered = render_lobby(game(status="active"), "en")
    assert rendered.view is None
    assert "started" in (rendered.embed.description or "")
