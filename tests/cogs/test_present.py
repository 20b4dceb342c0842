"""What boards and hands show, and what they must never show."""

from __future__ import annotations

import cogs.rey_hierofante  # noqa: F401 - registers the game's presentation
from cogs.common.present import ui_for
from cogs.rey_hierofante import tile_name
from tests.cogs.helpers import advance, game


def embed_text(embed: object) -> str:
    data = embed.to_dict()  # type: ignore[attr-defined]
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f["name"] + " " + f["value"] for f in data.get("fields", [])]
    return "\n".join(parts)


def test_board_shows_whose_turn_and_pings_them() -> None:
    g = game(locale="en")
    rendered = ui_for(g.row.game_id).board(g, [], "en")
    seat = next(iter(g.pending()))
    assert rendered.content == f"<@{g.seat_row(seat).user_id}>, your turn."
    text = embed_text(rendered.embed)
    assert "King & Hierophant" in text and "game #1" in text
    assert "Royalty" in text and "Religion" in text


def test_hidden_tiles_appear_only_in_their_owners_hand() -> None:
    g = game(options={"variant": "aleatorio_oculto"}, locale="en")
    assert g.state is not None
    ui = ui_for(g.row.game_id)
    hidden = {s: [z.tile for z in g.state.zones[s] if z.hidden] for s in (0, 1)}  # type: ignore[attr-defined]
    assert hidden[0] and hidden[1]
    public = embed_text(ui.board(g, [], "en").embed)
    for seat in (0, 1):
        mine = embed_text(ui.private(g, seat, "en").embed)
        for tile in hidden[seat]:
            assert tile_name(tile, "en") in mine
        for tile in hidden[1 - seat]:
            visible_elsewhere = tile in g.state.neutral_zone or any(  # type: ignore[attr-defined]
                not z.hidden and z.tile == tile for z in g.state.zones[seat]  # type: ignore[attr-defined]
            )
            if not visible_elsewhere:
                assert tile_name(tile, "en") not in mine
                assert tile_name(tile, "en") not in public


def test_board_after_a_move_lists_its_events() -> None:
    g = game(locale="es")
    assert g.state is not None
    seat = next(iter(g.pending()))
    g.state, events = g.engine.apply(g.state, seat, g.legal_actions(seat)[0])
    rendered = ui_for(g.row.game_id).board(g, events, "es")
    fields = {f.name: f.value for f in rendered.embed.fields}
    assert fields["Últimas jugadas"] == events[0].text.es.replace("Jugador 1", "**alice**")
    assert rendered.embed.footer.text == "Partida #1 · jugada 1"


def test_finished_board_gives_the_result_and_pings_nobody() -> None:
    g = game(locale="en")
    assert g.state is not None
    while not g.state.finished:
        advance(g, 1)
    g.row = g.row.__class__(**{**g.row.__dict__, "status": "finished"})
    rendered = ui_for(g.row.game_id).board(g, [], "en")
    assert rendered.content is None
    assert "Game over" in (rendered.embed.description or "")
