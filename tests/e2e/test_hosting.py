"""The real bot as its own process, set up as a host runs it: JSON logs, a health file and
endpoint, pictures drawn by worker processes that start and stop with the bot."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from cogs.pictures.rey_hierofante import changes, render_board
from rules.registry import engine
from services.health import check

from .fake_discord import FakeDiscord
from .harness import FakeWorld
from .test_crash import WAIT, BotProcess, boards, move_by_menu, open_lobby, query, undelivered


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def workers_of(pid: int) -> list[int]:
    """The picture workers of the bot process ``pid`` (not multiprocessing's resource tracker)."""
    out = []
    for child in children(pid):
        try:
            cmd = (Path("/proc") / str(child) / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in cmd:
            out.append(child)
    return out


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (zombies count as gone)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def lines(bot: BotProcess) -> list[dict[str, Any]]:
    """Every line the bot logged, each parsed as JSON (a line that is not JSON fails the test)."""
    out = []
    for line in bot.text().splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON log line: {line!r}") from None
    return out


async def get_health(port: int) -> tuple[int, dict[str, Any]]:
    """GET /health on the bot's endpoint: the status code and the JSON body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, body = raw.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body)


@pytest.mark.asyncio
async def test_a_hosted_bot_logs_json_reports_health_and_stops_its_picture_workers(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health = tmp_path / "health.json"
    monkeypatch.setenv("TABLERO_LOG_FORMAT", "json")
    monkeypatch.setenv("TABLERO_HEALTH_FILE", str(health))
    monkeypatch.setenv("TABLERO_HEALTH_INTERVAL", "0.2")
    monkeypatch.setenv("TABLERO_HEALTH_PORT", "0")
    monkeypatch.setenv("TABLERO_PICTURE_WORKERS", "1")
    async with FakeWorld(fake=fake, users=["alice", "bob"], channels=["games"]) as world:
        db = str(tmp_path / "tablero.db")
        bot = await BotProcess(fake, db, tmp_path / "bot.log").start()
        try:
            assert bot.proc is not None
            await fake.wait_until(lambda: check(health, 5)[0], timeout=WAIT)
            status = json.loads(health.read_text())
            assert status["gateway"] and status["store"] and status["pid"] == bot.proc.pid
            port = int(next(ln["msg"] for ln in lines(bot) if "health endpoint" in ln["msg"]).rsplit(":", 1)[1]
                       .split("/")[0])
            code, body = await get_health(port)
            assert code == 200 and body["ok"] and body["guilds"] == 1

            # A game and a move: the board's picture is drawn by the worker.
            channel = world.channels["games"]
            gid = await open_lobby(fake, world, channel, "rey_hierofante")
            inter = await fake.slash("game start", world["alice"], channel)
            await fake.wait_response(inter, timeout=WAIT)
            await fake.wait_until(lambda: undelivered(db) == 0 and boards(fake, channel, gid), timeout=WAIT)
            await move_by_menu(fake, world, db, gid)
            await fake.wait_until(lambda: query(db, "SELECT version FROM games WHERE id = ?", gid)[0][0] >= 1
                                  and any(ln.get("event") == "move" for ln in lines(bot)), timeout=WAIT)
            refused = await fake.slash("game join", world["bob"], channel)  # already seated
            await fake.wait_response(refused, timeout=WAIT)
            await fake.wait_until(lambda: undelivered(db) == 0, timeout=WAIT)
            pids = workers_of(bot.proc.pid)
            assert len(pids) == 1 and json.loads(health.read_text())["picture_workers"] == 1

            # The board's picture is byte for byte the one drawn inline from the stored state.
            board = boards(fake, channel, gid)[0]
            png = fake.files(board)[0]["data"]
            eng = engine("rey_hierofante")
            state_json, locale, seed, options = query(
                db, "SELECT state, locale, seed, options FROM games WHERE id = ?", gid)[0]
            names = [n for (n,) in query(db, "SELECT name FROM seats WHERE game = ? ORDER BY seat", gid)]
            now = eng.view(eng.load_state(state_json), None)
            # with the last move marked: what changed since the board as it was dealt
            dealt = eng.view(eng.setup(len(names), json.loads(options), seed), None)
            await fake.wait_until(lambda: fake.files(boards(fake, channel, gid)[0])[0]["data"] == render_board(
                now, names, locale, changed=changes(dealt, now)), timeout=WAIT)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"

            # One JSON object per line, with the game and the server where known.
            logged = lines(bot)
            guild = int(world.guild["id"])
            events = {ln.get("event") for ln in logged}
            assert {"start", "ready", "move", "delivery", "refusal"} <= events, events
            moves = [ln for ln in logged if ln.get("event") == "move"]
            assert moves and all(m["game"] == gid and m["guild"] == guild for m in moves)
            assert any(m["action"] == "place" for m in moves), moves
            assert all(d["game"] == gid for d in logged if d.get("event") == "delivery")
            refusal = next(ln for ln in logged if ln.get("event") == "refusal")
            assert refusal["guild"] == guild and refusal["level"] == "INFO"
            assert not [ln for ln in logged if ln["level"] in ("ERROR", "CRITICAL")]
            assert "fake-token" not in bot.text()

            # SIGTERM (docker stop): a clean close; the workers end with the bot.
            bot.proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(bot.proc.wait(), 30) == 0
            assert not any(alive(p) for p in pids)
            assert not children(bot.proc.pid)
            final = json.loads(health.read_text())
            assert final["ok"] is False and final["stopped"] and not check(health, 60)[0]
            assert any(ln.get("event") == "stop" for ln in lines(bot))
        finally:
            await bot.stop()


@pytest.mark.asyncio
async def test_a_killed_bot_leaves_no_picture_workers_and_a_stale_health_file(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    health = tmp_path / "health.json"
    monkeypatch.setenv("TABLERO_HEALTH_FILE", str(health))
    monkeypatch.setenv("TABLERO_HEALTH_INTERVAL", "0.2")
    monkeypatch.setenv("TABLERO_PICTURE_WORKERS", "2")
    async with FakeWorld(fake=fake, users=["alice"], channels=["games"]):
        bot = await BotProcess(fake, str(tmp_path / "tablero.db"), tmp_path / "bot.log").start()
        try:
            assert bot.proc is not None
            await fake.wait_until(lambda: len(workers_of(bot.proc.pid)) == 2 and check(health, 5)[0], timeout=WAIT)
            pids = workers_of(bot.proc.pid)
            os.kill(bot.proc.pid, signal.SIGKILL)
            await bot.proc.wait()
            await fake.wait_until(lambda: not any(alive(p) for p in pids), timeout=WAIT)
            await asyncio.sleep(0.5)
            assert not check(health, 0.4)[0]  # no longer rewritten: a supervisor sees it age
        finally:
            await bot.stop()


async def test_sigterm_stops_a_bot_started_with_sigint_ignored(fake, tmp_path) -> None:
    """A supervisor or a shell without job control may start the bot with SIGINT ignored (the
    way a background command inherits it): SIGTERM must still stop it cleanly."""
    async with FakeWorld(users=["alice"], fake=fake):
        bot = await BotProcess(fake, str(tmp_path / "tablero.db"), tmp_path / "bot.log",
                               sigint_ignored=True).start()
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(bot.proc.wait(), 30) == 0
