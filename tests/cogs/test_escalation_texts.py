"""What the escalation says to players: the timeout's line on the card, the last reminder's
word on what the deadline brings, the DM to a player put out, the reliability record."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cogs.common.escalation import (
    at_stake,
    minutes_text,
    out_owed,
    out_text,
    reliability_text,
    timeout_line,
)
from services.escalation import Escalation
from services.reliability import Reliability
from services.session import MoveResult
from storage.settings import GuildSettings
from tests.cogs.helpers import game


class Counts:
    """The two things the last call reads from the store: the server's limit and the
    player's timeouts so far in the game."""

    def __init__(self, limit: int, so_far: int) -> None:
        self.limit, self.so_far = limit, so_far

    async def guild_settings(self, guild_id: int | None) -> GuildSettings:
        return GuildSettings(guild_id=guild_id or 0, timeout_limit=self.limit)

    async def _fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[int]]:
        assert "FROM timeouts" in sql
        return [(self.so_far,)]


def with_action(action: str):
    g = game()
    return dataclasses.replace(g, row=dataclasses.replace(g.row, timeout_action=action))


@pytest.mark.parametrize(("action", "step", "dropped", "en", "es"), [
    ("ai", Escalation("ai", 2, 3), False, "⏰ **alice** ran out of time (2 of 3): the bot has played for them",
     "⏰ Se acabó el tiempo de **alice** (2 de 3): el bot ha jugado por su cuenta"),
    ("ai", Escalation("ai", 4, 0), False, "⏰ **alice** ran out of time: the bot has played for them",
     "⏰ Se acabó el tiempo de **alice**: el bot ha jugado"),
    ("ai", Escalation("drop", 3, 3), True, "⏰ **alice** ran out of time again (3 times in this game)",
     "⏰ Se acabó otra vez el tiempo de **alice** (3 veces en esta partida)"),
    ("drop", Escalation("drop", 1, 3), True, "⏰ **alice** ran out of time: the bot takes their seat",
     "⏰ Se acabó el tiempo de **alice**: el bot ocupa su asiento"),
    ("lose", Escalation("lose", 1, 3), True, "⏰ **alice** ran out of time and loses this game on time.",
     "⏰ Se acabó el tiempo de **alice**: pierde esta partida por tiempo."),
])
def test_the_timeout_line_says_what_the_timeout_did(action: str, step: Escalation, dropped: bool,
                                                     en: str, es: str) -> None:
    g = with_action(action)
    result = MoveResult(game=g, before=g.state, timed_out=0, dropped=dropped, escalation=step)
    assert timeout_line(g, result, "en").startswith(en)
    assert timeout_line(g, result, "es").startswith(es)
    owed = out_owed(g, result)
    assert [o.kind for o in owed] == (["out"] if dropped else [])
    if dropped:
        told = out_text(g, owed[0].payload, "en")
        assert ("counts the game as lost on time" in told) == (action == "lose")
        assert ("no way back" in told) == (action != "lose")


@pytest.mark.parametrize(("action", "limit", "so_far", "said"), [
    ("ai", 3, 1, "If it runs out, the bot plays this turn for you. Your time has run out 1 of 3 times"),
    ("ai", 3, 2, "If it runs out, the bot takes your seat until the end of the game."),
    ("ai", 0, 7, "If it runs out, the bot plays this turn for you; the seat stays yours."),
    ("drop", 3, 0, "If it runs out, the bot takes your seat until the end of the game."),
    ("lose", 3, 0, "If it runs out, you lose this game on time."),
])
async def test_the_last_call_says_what_the_deadline_brings(action: str, limit: int, so_far: int,
                                                           said: str) -> None:
    assert (await at_stake(Counts(limit, so_far), with_action(action), 0, "en")).startswith(said)


@pytest.mark.parametrize(("action", "limit", "so_far", "en", "es"), [
    ("ai", 3, 1, "If ana's time runs out, the bot plays that turn for them. Their time has run out 1 of 3",
     "Si a ana se le acaba el tiempo, el bot juega ese turno por su cuenta. Se le ha acabado el tiempo 1 de 3"),
    ("ai", 3, 2, "If ana's time runs out, the bot takes their seat", "Si a ana se le acaba el tiempo, el bot ocupa su"),
    ("ai", 0, 7, "If ana's time runs out, the bot plays that turn for them; the seat stays theirs.",
     "Si a ana se le acaba el tiempo, el bot juega ese turno por su cuenta; el asiento sigue siendo suyo."),
    ("drop", 3, 0, "If ana's time runs out, the bot takes their seat", "Si a ana se le acaba el tiempo, el bot ocupa su"),
    ("lose", 3, 0, "If ana's time runs out, they lose this game on time.",
     "Si a ana se le acaba el tiempo, pierde esta partida por tiempo."),
])
async def test_the_table_told_of_closed_dms_reads_what_the_deadline_brings_that_player(
        action: str, limit: int, so_far: int, en: str, es: str) -> None:
    for locale, said in (("en", en), ("es", es)):
        told = await at_stake(Counts(limit, so_far), with_action(action), 0, locale, name="ana")
        assert told.startswith(said), told


def test_the_record_reads_in_both_languages() -> None:
    r = Reliability(finished=1, lost_on_time=2, timeouts=3, turns=12, late=3, median_move=2 * 3600 + 5 * 60)
    assert reliability_text(r, "en") == ("1 game finished · 2 lost on time or to the bot\n"
                                         "3 timeouts (25% of turns) · median time to move: 2 h 5 min")
    assert reliability_text(r, "es") == ("1 partida terminada · 2 perdidas por tiempo o cedidas al bot\n"
                                         "3 tiempos agotados (25% de los turnos) · tiempo medio (mediana)"
                                         " para jugar: 2 h 5 min")
    assert [minutes_text(s, "en") for s in (None, 20, 45 * 60, 3 * 86400)] == ["-", "1 min", "45 min", "3 days"]
