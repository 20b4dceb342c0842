"""What ``/game verify`` answers: the game's commitment to its seed, and once the game is
over whether its revealed seed and salt give that commitment and replay to its final state."""

from __future__ import annotations

from collections.abc import Sequence

from cogs.common.i18n import t
from services.fairness import of_game
from services.replay import build_record, replay_record
from services.session import Game
from storage import ActionRow


def verdict(g: Game, rows: Sequence[ActionRow], locale: str) -> str:
    """The answer for ``g`` whose action log is ``rows`` (replays a finished game: run it
    off the event loop)."""
    over = g.state is not None and g.state.finished
    dice = of_game(g.row.seed, g.row.seed_salt, over=over)
    if dice.commitment is None:
        return t("verify.none", locale, id=g.id)
    if not dice.revealed:
        return t("verify.running", locale, id=g.id, commitment=dice.commitment)
    record = build_record(g.engine, game=g.id, options=g.row.options, players=[s.name for s in g.seats],
                          seed=g.row.seed, rows=rows, finished=True, final=g.state, salt=g.row.seed_salt)
    try:
        state = replay_record(record, {g.engine.id: g.engine})
    except (ValueError, KeyError):
        return t("verify.failed", locale, id=g.id, commitment=dice.commitment)
    return t("verify.ok", locale, id=g.id, seed=dice.seed, salt=dice.salt, commitment=dice.commitment,
             moves=len(rows), version=state.version)
