"""Dice anyone can verify: the seed is committed to at the start, hidden while the game runs,
revealed at the end, and its record replays (or fails to, once tampered with)."""

from __future__ import annotations

import copy
import json
import time

import pytest

from cogs.common.present import dice_lines
from rules.core import Engine, GameState
from rules.registry import engine
from services.clock import ManualClock
from services.fairness import commitment, new_salt, of_game
from services.replay import build_record, main, replay_record, transcript
from services.session import SessionService
from storage import ActionRow, Store

SEED = 4_611_686_018_427_387_000 + 123_457  # 62 bits, as the bot draws them
SALT = "5f" * 16
GAMES = [("rey_hierofante", 2), ("rattus_cartus", 3), ("ragami", 2), ("ankh_morpork", 2), ("guerra_de_mitos", 2)]


def _play(eng: Engine, seats: int, seed: int, limit: int = 4000) -> tuple[list[ActionRow], list[GameState]]:
    """A whole game of the built-in player in every seat, as the log stores it."""
    st = eng.setup(seats, {}, seed)
    rows: list[ActionRow] = []
    states = [st]
    while not st.finished and len(rows) < limit:
        seat = min(eng.pending(st))
        action = eng.ai_action(st, seat)
        st, _ = eng.apply(st, seat, action)
        rows.append(ActionRow(game=1, seq=st.version, seat=seat, action=eng.dump_action(action), at=0.0))
        states.append(st)
    assert st.finished
    return rows, states


def test_the_commitment_is_a_sha256_of_seed_and_salt() -> None:
    c = commitment(SEED, SALT)
    assert len(c) == 64 and int(c, 16) >= 0
    assert c != commitment(SEED + 1, SALT) and c != commitment(SEED, new_salt())
    assert len(new_salt()) == 32 and new_salt() != new_salt()
    assert of_game(SEED, SALT, over=False).seed is None  # not shown before the end
    assert of_game(SEED, None, over=True).commitment is None  # a game from before commitments


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_a_finished_games_revealed_seed_replays_and_a_tampered_record_fails(game_id: str, seats: int) -> None:
    eng = engine(game_id)
    rows, states = _play(eng, seats, SEED)
    names = [f"p{i}" for i in range(seats)]
    record = build_record(eng, game=1, options={}, players=names, seed=SEED, rows=rows, finished=True,
                          final=states[-1], salt=SALT)
    record = json.loads(json.dumps(record))  # as the file holds it
    assert record["seed"] == SEED and record["seed_salt"] == SALT
    assert record["seed_commitment"] == commitment(SEED, SALT)
    assert eng.dump_state(replay_record(record)) == eng.dump_state(states[-1])

    tampered = []
    for key, value in (("seed", SEED + 1), ("seed_salt", "00" * 16), ("seed_commitment", "0" * 64)):
        bad = copy.deepcopy(record)
        bad[key] = value
        tampered.append(bad)
    # a move changed: a different legal action where there was a choice, or the move dropped
    bad = copy.deepcopy(record)
    for k, row in enumerate(rows):
        before = states[k]
        others = [a for a in eng.legal_actions(before, row.seat) if eng.dump_action(a) != row.action]
        if others:
            bad["actions"][k]["action"] = json.loads(eng.dump_action(others[0]))
            break
    tampered.append(bad)
    for bad in tampered:
        with pytest.raises((ValueError, KeyError)):
            replay_record(bad)


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_nothing_shown_before_the_end_holds_the_seed_or_the_salt(game_id: str, seats: int) -> None:
    """Every view of every seat, the public record and transcript, at every move of a whole
    game: neither the seed nor the salt appears before the game is over."""
    eng = engine(game_id)
    rows, states = _play(eng, seats, SEED)
    names = [f"p{i}" for i in range(seats)]
    secrets = (str(SEED), SALT)
    step = max(1, len(states) // 15)  # fifteen moments of the game, the last one included
    for k in list(range(0, len(states) - 1, step)) + [len(states) - 2]:
        st = states[k]
        shown = [eng.view(st, None).model_dump_json()]
        shown += [eng.view(st, s).model_dump_json() for s in range(seats)]
        record = build_record(eng, game=1, options={}, players=names, seed=SEED, rows=rows[:k],
                              finished=False, final=st, salt=SALT)
        assert record["seed_commitment"] == commitment(SEED, SALT)
        shown.append(json.dumps(record))
        shown.append(transcript(eng, players=names, options={}, seed=SEED, rows=rows[:k], viewer_all=False,
                                locale="en", when=lambda ts: time.strftime("%H:%M", time.gmtime(ts))))
        for text in shown:
            for secret in secrets:
                assert secret not in text, (game_id, k)


async def test_the_service_stores_the_salt_and_the_card_shows_the_commitment_then_the_seed(
        store: Store, tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    service = SessionService(store, seed_source=lambda: SEED, clock=ManualClock())
    g = await service.create(guild_id=1, channel_id=900, game_id="rey_hierofante", options={}, host_id=101,
                             host_name="alice", locale="en")
    await service.add_ai(g.id, by=101)
    await service.start(g.id, by=101)
    g = service.cached(g.id)
    assert g is not None and g.row.seed == SEED and g.row.seed_salt is not None
    stored = await store.get_game(g.id)
    assert stored is not None and stored.seed_salt == g.row.seed_salt
    lines = dice_lines(g, "en")
    assert lines and commitment(SEED, g.row.seed_salt) in lines[0]
    assert str(SEED) not in lines[0] and g.row.seed_salt not in lines[0]
    while g.state is not None and not g.state.finished:
        seat = next(s for s in sorted(g.pending()) if not g.seat_row(s).ai)
        await service.move(g.id, 101, g.engine.ai_action(g.state, seat))
    revealed = dice_lines(g, "es")
    assert str(SEED) in revealed[0] and g.row.seed_salt in revealed[0]
    rows = await store.actions(g.id)
    record = build_record(g.engine, game=g.id, options=g.row.options, players=g.names, seed=g.row.seed,
                          rows=rows, finished=True, final=g.state, salt=g.row.seed_salt)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main([str(path)]) == 0
    assert record["seed_commitment"] in capsys.readouterr().out
