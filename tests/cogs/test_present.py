"""What boards and hands show, and what they must never show."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

import cogs.rey_hierofante  # noqa: F401 - registers the game's presentation
from cogs.common.present import clip, listed, ui_for
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


@given(st.lists(st.text(alphabet=st.sampled_from("abc ñ*<@>0123456789"), max_size=60), min_size=1, max_size=40),
       st.integers(min_value=5, max_value=400))
def test_clip_cuts_whole_lines_and_whole_words(lines: list[str], limit: int) -> None:
    text = "\n".join(lines)
    out = clip(text, limit)
    assert len(out) <= limit
    if len(text) <= limit:
        assert out == text
        return
    assert out.endswith("…")
    kept = out[:-1].rstrip("\n")
    if text.rfind("\n", 0, limit - 1) > 0:  # at least one whole line fits
        # whole lines only: every kept line is a line of the text, unchanged
        kept_lines = kept.split("\n")
        assert kept_lines == [ln.rstrip() if i == len(kept_lines) - 1 else ln
                              for i, ln in enumerate(lines[: len(kept_lines)])]
    else:
        # between two words (or a hard cut when the first word alone is too long)
        prefix = out[:-1]
        assert text.startswith(prefix)
        assert text[len(prefix)] in " \n" or text.rfind(" ", 0, limit) <= 0


def test_a_long_field_loses_its_last_lines_not_half_a_line_and_keeps_mentions_whole() -> None:
    rows = [f"<@{100000000000000000 + k}> **Jugadora número {k} de la mesa** tiene 3 cartas" for k in range(40)]
    out = clip("\n".join(rows), 1024)
    assert len(out) <= 1024 and out.endswith("\n…")
    assert all(line in rows for line in out.split("\n")[:-1])
    single = clip(" ".join(rows), 200)
    assert len(single) <= 200 and single.endswith("…")
    assert all(word in " ".join(rows).split(" ") for word in single[:-1].split(" "))


def test_who_starts_the_next_game_is_offered_by_the_players_names() -> None:
    g = game(locale="en")
    assert g.state is not None
    ui = ui_for(g.row.game_id)
    # a player who calls themself "Player 2" is still only themself: names are values
    g.seats[0] = dataclasses.replace(g.seats[0], name="Player 2")
    while "choose_starter" not in {p.kind for p in g.pending().values()}:
        assert g.state is not None and not g.state.finished
        advance(g, 1)
    seat = next(iter(g.pending()))
    for lang, royalty in (("en", "Royalty"), ("es", "Realeza")):
        labels = [ui.label(g, seat, a, lang) for a in g.legal_actions(seat)]
        assert any(f"Player 2 ({royalty})" in x for x in labels), labels
        assert any("bob (" in x for x in labels) and not any("Jugador" in x for x in labels), labels


def test_a_seat_the_bot_took_over_is_marked_as_the_bots_in_the_players_list() -> None:
    g = game(locale="en")
    ui = ui_for(g.row.game_id)
    # bob timed out for good: the bot plays his seat, which keeps his name and user
    g.seats[1] = dataclasses.replace(g.seats[1], ai=True, dropped=True)
    for lang in ("en", "es"):
        text = embed_text(ui.board(g, [], lang).embed)
        assert "🤖 **bob**" in text and "🤖 **alice**" not in text and "<@202>" not in text
    # and in the lists that ping nobody (/game mine, /game list)
    assert (listed(g, 0), listed(g, 1)) == ("alice", "🤖 bob")
