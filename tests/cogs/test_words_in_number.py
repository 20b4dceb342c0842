"""The boards and hands the bot shows read right in number, in Spanish and English: seeded
random games of every game, drawn as the channel and each player see them along the way."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cogs.ankh_morpork  # noqa: F401 - each cog registers its game's presentation
import cogs.guerra_de_mitos  # noqa: F401
import cogs.ragami  # noqa: F401
import cogs.rattus_cartus  # noqa: F401
import cogs.rey_hierofante  # noqa: F401
from cogs.common.present import ui_for
from rules.registry import games
from services.session import Game
from storage import GameRow, SeatRow
from tests.rules.test_texts_in_number import problems

NAMES = ("ana", "bea", "carl", "dani", "eva")
EVERY = 7  # draw the tables every few moves: enough states, and fast


def _game(game_id: str, seats: int, seed: int) -> Game:
    eng = games()[game_id]
    state = eng.setup(seats, None, seed)
    row = GameRow(
        id=1, guild_id=5, channel_id=900, game_id=game_id,
        options=eng.parse_options(None).model_dump(mode="json"), status="active", seed=seed,
        version=state.version, state=None, host_id=101, locale="es",
        board_channel_id=900, board_message_id=None, created_at=0.0, updated_at=0.0,
    )
    rows = [SeatRow(game=1, seat=i, user_id=101 + i, ai=False, name=NAMES[i], locale=None,
                    dm_closed=False) for i in range(seats)]
    return Game(row=row, seats=rows, engine=eng, state=state)


def _texts(embed: Any) -> list[str]:
    data = embed.to_dict()
    out = [data.get("title", ""), data.get("description", "")]
    out += [f["name"] + "\n" + f["value"] for f in data.get("fields", [])]
    return out


@pytest.mark.parametrize("game_id", sorted(games()))
def test_boards_and_hands_of_random_games_read_right_in_number(game_id: str) -> None:
    eng = games()[game_id]
    ui = ui_for(game_id)
    found: list[tuple[str, str, str]] = []
    drawn = 0
    for seats in sorted({eng.min_players, min(eng.max_players, 4)}):
        g = _game(game_id, seats, seed=seats)
        rnd = random.Random(f"{game_id}:{seats}")
        events: list[Any] = []
        for step in range(3000):
            if step % EVERY == 0 or not eng.pending(g.state):
                for lang in ("es", "en"):
                    board = ui.board(g, events, lang)
                    texts = _texts(board.embed) + [board.content or ""]
                    for seat in range(seats):
                        texts += _texts(ui.private(g, seat, lang).embed)
                    drawn += 1
                    for text in texts:
                        found += [(lang, p, text) for p in problems(text, lang, False)]
            pending = eng.pending(g.state)
            if not pending:
                break
            seat = rnd.choice(sorted(pending))
            g.state, events = eng.apply(g.state, seat, rnd.choice(eng.legal_actions(g.state, seat)))
    assert drawn > 10
    assert not found, found[:10]
