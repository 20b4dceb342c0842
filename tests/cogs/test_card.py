"""The card, every game's one living message: what it tells and Discord's limits it keeps."""

from __future__ import annotations

from collections.abc import Sequence

import cogs.rey_hierofante  # noqa: F401 - registers the game's presentation
from cogs.common.card import EMBED_FIELDS, EMBED_TOTAL, Story, card, keep_newest
from cogs.common.present import EMBED_DESCRIPTION, EMBED_FIELD, GameUI, ui_for
from services.session import Game
from tests.cogs.helpers import game


def size(embed: object) -> int:
    """The characters Discord counts toward an embed's total."""
    data = embed.to_dict()  # type: ignore[attr-defined]
    return (len(data.get("title", "")) + len(data.get("description", ""))
            + len(data.get("footer", {}).get("text", ""))
            + sum(len(f["name"]) + len(f["value"]) for f in data.get("fields", [])))


class Crowded(GameUI):
    """A game whose board has as many full fields as Discord allows."""

    game_id = "rey_hierofante"

    def board_fields(self, g: Game, locale: str, pictured: bool = False) -> list[tuple[str, str, bool]]:
        return [(f"Field {i}", "x" * 2000, True) for i in range(30)]


def test_the_card_tells_the_last_turn_the_turn_in_play_and_whose_turn_with_their_time() -> None:
    g = game(locale="en")
    seat = next(iter(g.pending()))
    story = Story(last=["**ana** places the King.", "**ana** draws a tile."], now=["**bo** passes."])
    rendered = card(ui_for(g.row.game_id), g, story, "en", due={seat: 1_900_000_000})
    text = rendered.embed.description or ""
    assert text.index("Last turn") < text.index("places the King") < text.index("This turn so far")
    assert text.index("**bo** passes.") < text.index(f"<@{g.seat_row(seat).user_id}> to play")
    assert "<t:1900000000:R>" in text
    assert rendered.embed.footer.text and "move 0" in rendered.embed.footer.text


def test_a_long_turn_keeps_its_newest_steps_and_whose_turn_whole() -> None:
    g = game(locale="en")
    steps = [f"**ana** step {i}: " + "words " * 20 for i in range(400)]
    rendered = card(ui_for(g.row.game_id), g, Story(last=steps, now=steps), "en")
    text = rendered.embed.description or ""
    assert len(text) <= EMBED_DESCRIPTION and size(rendered.embed) <= EMBED_TOTAL
    assert "step 399" in text and "step 0:" not in text
    assert text.rstrip().endswith("to play: " + text.rsplit("to play: ", 1)[1])  # the turn line is whole


def test_full_fields_and_a_long_story_stay_within_discords_limits() -> None:
    g = game(locale="en")
    steps = ["y" * 300 for _ in range(100)]
    rendered = card(Crowded(), g, Story(last=steps, now=steps), "en",
                    extra=[("🏖️", "z" * 3000, False)])
    embed = rendered.embed
    assert len(embed.fields) <= EMBED_FIELDS
    assert all(len(f.value or "") <= EMBED_FIELD for f in embed.fields)
    assert len(embed.description or "") <= EMBED_DESCRIPTION
    assert size(embed) <= EMBED_TOTAL
    assert "to play" in (embed.description or "")  # whose turn survives whatever the fields hold


def test_keep_newest_drops_the_oldest_lines_first() -> None:
    lines: Sequence[str] = ["one", "two", "three", "four"]
    assert keep_newest(lines, 100) == "one\ntwo\nthree\nfour"
    assert keep_newest(lines, 14) == "…\nthree\nfour"
