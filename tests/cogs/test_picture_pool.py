"""Pictures drawn in worker processes: the same bytes as inline, workers that start and stop
with their pool (and die with the bot's process), and a failing worker that loses nothing."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from cogs import pictures
from cogs.pictures import pool as picture_pool
from cogs.pictures.ankh_morpork import render_board as am_render
from cogs.pictures.gdm_deck import render_deck
from cogs.pictures.guerra_de_mitos import render_board as gdm_render
from cogs.pictures.pool import PicturePool, default_workers
from cogs.pictures.ragami import render_board as rg_render
from cogs.pictures.rattus_cartus import render_board as rc_render
from cogs.pictures.rey_hierofante import render_board as rh_render
from cogs.pictures.tournament import standings_png
from rules.guerra_de_mitos.decks import ready_decks
from rules.registry import engine
from services.standings import SWISS_TIEBREAKS, compute_standings

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ana García", "Bruno", "Ñandú 🎲", "李小龙", "Þórr"]


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for its parent counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone before, or while, it was read
        return False


def gone_within(pids: list[int], seconds: float) -> bool:
    """Whether every process of ``pids`` ends within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def pool() -> Iterator[PicturePool]:
    p = PicturePool(2)
    p.start()
    yield p
    p.close()


def positions(game_id: str, seats: int, seed: int, keep: int) -> list[Any]:
    """``keep`` public views spread over one game played by the engine's own player."""
    eng = engine(game_id)
    st = eng.setup(seats, {}, seed)
    rng = random.Random(seed)
    views = [eng.view(st, None)]
    moves = 0
    while not st.finished and moves < 400:
        seat = sorted(eng.pending(st))[0]
        action = eng.ai_action(st, seat) if hasattr(eng, "ai_action") else rng.choice(eng.legal_actions(st, seat))
        st, _ = eng.apply(st, seat, action)
        moves += 1
        if rng.random() < 0.08:
            views.append(eng.view(st, None))
    views.append(eng.view(st, None))
    return views[:: max(1, len(views) // keep)]


def jobs() -> list[tuple[Callable[..., bytes], tuple[Any, ...]]]:
    """Pictures of every kind the bot draws: each game's board, a deck, a standings table."""
    out: list[tuple[Callable[..., bytes], tuple[Any, ...]]] = []
    for game_id, render, seats in (("rey_hierofante", rh_render, 2), ("rattus_cartus", rc_render, 3),
                                   ("ankh_morpork", am_render, 4), ("ragami", rg_render, 3),
                                   ("guerra_de_mitos", gdm_render, 2)):
        for i, view in enumerate(positions(game_id, seats, 3, 3)):
            out.append((render, (view, NAMES[:seats], "es" if i % 2 else "en")))
    out.append((partial(rc_render, winners=[1]), (positions("rattus_cartus", 2, 4, 1)[-1], NAMES[:2], "es")))
    deck = next(iter(ready_decks().values())).deck
    out.append((render_deck, (deck, "Mazo de prueba ñ", "es")))
    players = list(range(1, 7))
    out.append((standings_png, (compute_standings(players, [], SWISS_TIEBREAKS, dropped=[]),
                                {p: f"P{p}" for p in players}, SWISS_TIEBREAKS, "en", "League")))
    return out


def test_pictures_drawn_in_workers_are_byte_identical_to_inline(pool: PicturePool) -> None:
    work = jobs()
    assert len(work) >= 18
    for fn, args in work:
        inline = fn(*args)
        assert inline[:8] == b"\x89PNG\r\n\x1a\n"
        assert pool.run(fn, *args) == inline, getattr(fn, "__name__", fn)
    assert pool.inline_fallbacks == 0  # every one of them was drawn by a worker
    assert len(pool.pids()) == 2 and os.getpid() not in pool.pids()


def test_draw_or_none_goes_through_the_installed_pool(pool: PicturePool) -> None:
    view = positions("rey_hierofante", 2, 1, 1)[-1]
    picture_pool.install(pool)
    try:
        before = pool.inline_fallbacks
        png = pictures.draw_or_none(rh_render, view, NAMES[:2], "es", 7)
        # Only a worker sees a pid other than ours.
        assert pictures.draw_or_none(lambda *_: str(os.getpid()).encode(), view, NAMES[:2], "es", 7) \
            == str(os.getpid()).encode()  # a lambda cannot be pickled: drawn inline instead
        assert pool.inline_fallbacks == before + 1
        assert picture_pool.render(os.getpid) in pool.pids()
    finally:
        picture_pool.uninstall(pool)
    assert png == rh_render(view, NAMES[:2], "es")
    assert picture_pool.active() is None and picture_pool.render(os.getpid) == os.getpid()


def fails(view: Any, names: list[str], locale: str) -> bytes:
    """A drawing with a bug."""
    raise ValueError("broken drawing")


def test_a_drawing_that_raises_is_reported_like_inline(pool: PicturePool, caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises(ValueError, match="broken drawing"):
        pool.run(fails, None, [], "es")
    picture_pool.install(pool)
    try:
        assert pictures.draw_or_none(fails, None, [], "es", 12) is None
    finally:
        picture_pool.uninstall(pool)
    assert any("game 12: drawing the board failed" in r.getMessage() and getattr(r, "game", None) == 12
               for r in caplog.records)


def dies_in_worker(parent: int, value: int) -> int:
    """Kill the worker that runs it; in the bot's own process, just answer."""
    if os.getpid() != parent:
        os._exit(3)
    return value * 2


def hangs_in_worker(parent: int) -> bytes:
    """Never finish in a worker."""
    if os.getpid() != parent:
        time.sleep(600)
    return b"inline"


def test_a_dead_worker_falls_back_inline_and_the_pool_starts_again() -> None:
    p = PicturePool(1)
    p.start()
    try:
        first = p.run(os.getpid)
        assert p.run(dies_in_worker, os.getpid(), 21) == 42  # drawn inline: the update has its picture
        assert p.restarts == 1 and p.inline_fallbacks == 1
        assert gone_within([first], 10)
        second = p.run(os.getpid)
        assert second != first and second != os.getpid()  # a new worker draws the next ones
    finally:
        p.close()


def test_a_stuck_worker_is_given_up_and_killed() -> None:
    p = PicturePool(1, timeout=1.0)
    p.start()
    assert p.wait_ready(60)  # the timeout counts from the job's start: not the worker's
    try:
        stuck = p.run(os.getpid)
        with pytest.raises(TimeoutError):
            p.run(hangs_in_worker, os.getpid())
        assert gone_within([stuck], 10)
        assert p.restarts == 1 and p.wait_ready(60)
        assert p.run(os.getpid) not in (stuck, os.getpid())
    finally:
        p.close()


def test_closing_the_pool_ends_its_workers() -> None:
    p = PicturePool(2)
    p.start()
    assert p.wait_ready(60)
    pids = p.pids()
    assert len(pids) == 2 and all(alive(q) for q in pids)
    p.close()
    assert not p.running and not any(alive(q) for q in pids)  # joined: not even zombies left
    assert p.run(os.getpid) == os.getpid()  # a closed pool draws inline


def test_no_pool_with_zero_workers_and_a_core_left_for_the_event_loop() -> None:
    p = PicturePool(0)
    p.start()
    assert not p.running and p.pids() == [] and p.run(os.getpid) == os.getpid()
    assert [default_workers(c) for c in (1, 2, 4, 8, 64)] == [1, 1, 3, 4, 4]


def test_the_bots_choices_go_to_a_worker_without_a_thread(pool: PicturePool) -> None:
    from services.ai_choice import choose_many

    eng = engine("rey_hierofante")
    state = eng.setup(2, {}, 4)
    (seat,) = eng.pending(state)
    job = ("rey_hierofante", eng.dump_state(state), seat)

    async def both() -> tuple[int, list[str]]:
        return await pool.run_async(os.getpid), await pool.run_async(choose_many, [job, job])

    pid, choices = asyncio.run(both())
    assert pid in pool.pids() and pid != os.getpid()
    assert choices == [eng.dump_action(eng.ai_action(state, seat))] * 2
    assert asyncio.run(PicturePool(0).run_async(os.getpid)) == os.getpid()  # no pool: here


def test_a_worker_imports_a_games_drawing_code_only_when_it_draws_that_game() -> None:
    p = PicturePool(1)
    p.start()
    try:
        def loaded(name: str) -> bool:
            # eval: a builtin travels to the worker without importing any module of ours.
            return bool(p.run(eval, f"{name!r} in __import__('sys').modules"))

        assert loaded("cogs.pictures.common")
        assert not loaded("cogs.pictures.ankh_morpork") and not loaded("cogs.pictures.rey_hierofante")
        eng = engine("rey_hierofante")
        p.run(rh_render, eng.view(eng.setup(2, {}, 1), None), NAMES[:2], "es")
        assert loaded("cogs.pictures.rey_hierofante") and not loaded("cogs.pictures.ankh_morpork")
    finally:
        p.close()


OWNER = """
import os, sys, time
from cogs.pictures.pool import PicturePool
p = PicturePool(2)
p.start()
assert p.wait_ready(60)
assert p.run(os.getpid) in p.pids()
print(" ".join(map(str, p.pids())), flush=True)
time.sleep(600)
"""


async def test_workers_end_when_the_bots_process_is_killed() -> None:
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", OWNER, cwd=ROOT,
                                                stdout=asyncio.subprocess.PIPE)
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 60)
        pids = [int(x) for x in line.split()]
        assert len(pids) == 2 and all(alive(q) for q in pids)
        proc.send_signal(signal.SIGKILL)  # no chance to stop its workers itself
        await proc.wait()
        assert await asyncio.to_thread(gone_within, pids, 15), "orphan picture workers"
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_a_worker_ignores_ctrl_c_sent_to_the_process_group() -> None:
    # A terminal's Ctrl-C reaches every process of the group; the bot stops its workers
    # itself when it closes, so a worker must not die (and print a traceback) first.
    p = PicturePool(1)
    p.start()
    try:
        pid = p.run(os.getpid)
        os.kill(pid, signal.SIGINT)
        time.sleep(0.3)
        assert alive(pid) and p.run(os.getpid) == pid
    finally:
        p.close()



def test_a_replay_is_made_whole_in_a_worker_with_the_same_files_as_inline(pool: PicturePool) -> None:
    from cogs.common.replay_files import REPLAY_TIMEOUT, replay_files
    from storage.rows import ActionRow
    from tests.cogs.helpers import ENGINE, game

    g = game(locale="en")
    state, rows = g.state, []
    while not state.finished:  # the first legal move each time, to the end
        seat = next(iter(ENGINE.pending(state)))
        action = ENGINE.legal_actions(state, seat)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.dump_action(action))
        rows.append(ActionRow(game=1, seq=state.version, seat=seat, action=ENGINE.dump_action(action), at=0.0))
    g.state = state
    before = pool.inline_fallbacks
    in_worker = pool.run_within(REPLAY_TIMEOUT, replay_files, g, rows, "en")
    assert pool.inline_fallbacks == before  # drawn by a worker, not in this process
    assert [name for name, _ in in_worker] == ["game-1.json", "game-1.txt", "game-1.gif"]
    assert in_worker[2][1][:6] == b"GIF89a" and b"alice" in in_worker[1][1]
    assert in_worker == replay_files(g, rows, "en")
