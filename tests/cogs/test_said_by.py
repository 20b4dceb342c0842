"""Whose line a move's record is: the mover's name goes before the rules' words only when
those words do not already name the player they are about (cogs/common/present.py,
``said_by``)."""

from __future__ import annotations

import random

import pytest

import cogs.ankh_morpork  # noqa: F401 - each cog registers its game's presentation
import cogs.guerra_de_mitos  # noqa: F401
import cogs.ragami  # noqa: F401
import cogs.rattus_cartus  # noqa: F401
import cogs.rey_hierofante  # noqa: F401
from cogs.common.present import event_lines, said_by
from rules.core import Event, seat_name
from rules.phrases import Phrases
from rules.rattus_cartus.cards import BUILDINGS, CLASS_NAME
from rules.registry import games
from tests.cogs.test_words_in_number import NAMES, _game

RC = Phrases("rattus_cartus")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_consequence_about_another_player_is_not_prefixed_with_the_mover(lang: str) -> None:
    """ana's move resolves a building in the last round: bea gains the influence, and the
    line says so without "**ana**:" before it (it read as ana's line)."""
    g = _game("rattus_cartus", 2, seed=1)
    farm = next(b for b in BUILDINGS.values() if b.name.en == "Farm")
    text = RC("Last round: {seat} gains 1 influence in {cls} instead of {building}'s premium action.",
              seat=seat_name(1), cls=CLASS_NAME[farm.cls], building=farm.name)
    lines = event_lines([Event(kind="final_bonus", text=text)], lang, None, g=g)
    said = said_by(g, 0, lines, lang)
    assert said == lines[0] and "**bea**" in said and "**ana**" not in said, said


def test_a_line_that_names_nobody_still_says_whose_move_it_was() -> None:
    """Words naming no player are the mover's: "**ana**: ..."; a secret move says so."""
    g = _game("rattus_cartus", 2, seed=1)
    assert said_by(g, 0, ["End of the round."], "en") == "**ana**: End of the round."
    assert said_by(g, 1, ["**bea** passes."], "en") == "**bea** passes."
    assert said_by(g, 1, [], "en").startswith("**bea** ")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_no_record_of_a_move_prefixes_another_players_line(game_id: str) -> None:
    """Seeded games of every game (half the built-in player's moves, half random): a record
    "**mover**: ..." never goes on with a first line that names a player."""
    eng = games()[game_id]
    found: list[str] = []
    for seats in sorted({eng.min_players, min(eng.max_players, 3)}):
        for seed in range(3):
            g = _game(game_id, seats, seed)
            rnd = random.Random(seed)
            for _ in range(3000):
                if g.state is None or g.state.finished:
                    break
                seat = rnd.choice(sorted(eng.pending(g.state)))
                legal = eng.legal_actions(g.state, seat)
                action = eng.ai_action(g.state, seat) if rnd.random() < 0.5 else rnd.choice(legal)
                g.state, events = eng.apply(g.state, seat, action)
                said = said_by(g, seat, event_lines(events, "en", None, g=g), "en")
                prefix = f"**{NAMES[seat]}**: "
                first = said.split("\n")[0].removeprefix(prefix)
                if said.startswith(prefix) and any(f"**{n}**" in first for n in NAMES[:seats]):
                    found.append(said)
    assert not found, found[:5]
