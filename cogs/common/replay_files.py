"""The files of /game replay (record, transcript, animation), made in one job for the picture
workers.

Replaying a game's log and drawing every frame of its animation is seconds of Python for a
long game: made in the bot's process it competes with the event loop (even in a thread, for
the interpreter's lock). ``replay_files`` is a plain function of picklable values, so the
bot sends it whole to its picture workers (cogs/pictures/pool.py) and only gets bytes back.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import time
from collections.abc import Sequence

from cogs.common.last_change import own_marks
from cogs.common.present import ui_for
from services.game import Game
from services.replay import animation, build_record, states_of, transcript
from storage.rows import ActionRow

# A long game's animation is over a hundred pictures: more than a board's TIMEOUT.
REPLAY_TIMEOUT = 120.0


def _game_ui(game_id: str) -> None:
    """Import the game's cog, which registers how its board is drawn and its texts read (a
    worker process starts with none of them)."""
    try:
        importlib.import_module(f"cogs.{game_id}")
    except ImportError:
        pass  # a game without a cog of its own reads through the generic presentation


def replay_files(g: Game, rows: Sequence[ActionRow], locale: str) -> list[tuple[str, bytes]]:
    """(file name, bytes) of a game's record, its transcript and, once over, its animation."""
    _game_ui(g.row.game_id)
    over = g.state is not None and g.state.finished
    names = [s.name for s in g.seats]
    record = build_record(g.engine, game=g.id, options=g.row.options, players=names,
                          seed=g.row.seed, rows=rows, finished=over, final=g.state,
                          salt=g.row.seed_salt)
    files = [(f"game-{g.id}.json", json.dumps(record, ensure_ascii=False, indent=1).encode())]
    ui = ui_for(g.row.game_id)
    text = transcript(g.engine, players=names, options=g.row.options, seed=g.row.seed, rows=rows,
                      viewer_all=over, locale=locale,
                      when=lambda ts: time.strftime("%Y-%m-%d %H:%M", time.gmtime(ts)),
                      wording=lambda text: ui.wording(g, text, locale).replace("**", ""))
    if text:
        files.append((f"game-{g.id}.txt", text.encode()))
    if over and g.row.seed is not None:
        states = states_of(g.engine, len(g.seats), g.row.options, g.row.seed, rows)
        with own_marks():  # each frame marks its move, whatever live games this process drew
            gif = animation(states, lambda st: ui.picture(dataclasses.replace(g, state=st), None, locale))
        if gif is not None:
            files.append((f"game-{g.id}.gif", gif))
    return files
