"""JSON log lines carry the game and server; the health file and endpoint say whether the
bot is healthy, and the check a supervisor runs reads them."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from pathlib import Path
from typing import Any

from services import health as health_mod
from services.health import Health, check
from services.logs import JsonFormatter, game_of


def record(msg: str, *args: Any, exc: bool = False, **extra: Any) -> logging.LogRecord:
    logger = logging.getLogger("tablero.test")
    info = None
    if exc:
        try:
            raise ValueError("boom")
        except ValueError:
            import sys

            info = sys.exc_info()
    return logger.makeRecord("tablero.test", logging.INFO, __file__, 1, msg, args, info, extra=extra or None)


def test_a_json_line_has_time_level_message_and_the_extras() -> None:
    line = json.loads(JsonFormatter().format(record("game %s: seat %s moved", 12, 0, guild=34, event="move")))
    assert line["msg"] == "game 12: seat 0 moved" and line["level"] == "INFO" and line["logger"] == "tablero.test"
    assert (line["game"], line["guild"], line["event"]) == (12, 34, "move")
    assert line["ts"].endswith("+00:00")


def test_older_lines_about_a_game_get_its_id_and_others_get_none() -> None:
    assert game_of(record("game %s: board message %s is gone", 7, 99)) == 7
    assert game_of(record("game %s: x", "8")) == 8
    assert game_of(record("game %s: x", "not a number")) is None
    assert game_of(record("resuming %d open games", 5)) is None
    assert game_of(record("anything", game=3)) == 3
    assert "game" not in json.loads(JsonFormatter().format(record("ready as %s", "bot")))


def test_a_traceback_stays_inside_its_one_line() -> None:
    text = JsonFormatter().format(record("error %s in /game move", "ab12", exc=True, error_id="ab12"))
    assert "\n" not in text
    line = json.loads(text)
    assert "ValueError: boom" in line["exc"] and line["error_id"] == "ab12"


def test_the_json_handler_replaces_the_root_handlers() -> None:
    from services.logs import setup_json

    root = logging.getLogger()
    saved, level = list(root.handlers), root.level
    out = io.StringIO()
    try:
        setup_json(logging.INFO, out)
        logging.getLogger("discord.gateway").info("Shard ID %s has connected", None)
        logging.getLogger("tablero").debug("not shown")
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in saved:
            root.addHandler(h)
        root.setLevel(level)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [x["logger"] for x in lines] == ["discord.gateway"]


async def test_the_health_file_is_rewritten_while_running_and_says_stopped_after(tmp_path: Path) -> None:
    path = tmp_path / "health.json"
    answers = iter([{"ok": False, "gateway": False}] + [{"ok": True, "gateway": True}] * 100)

    async def probe() -> dict[str, Any]:
        return next(answers)

    h = Health(probe, path=str(path), interval=0.05)
    await h.start()
    try:
        for _ in range(200):
            if path.exists() and json.loads(path.read_text())["ok"]:
                break
            await asyncio.sleep(0.01)
        first = json.loads(path.read_text())
        assert first["ok"] and first["gateway"] and check(path, 5)[0]
        await asyncio.sleep(0.2)
        assert json.loads(path.read_text())["time"] > first["time"]  # rewritten, not written once
    finally:
        await h.stop()
    assert json.loads(path.read_text())["stopped"] and not check(path, 60)[0]
    assert not path.with_name("health.json.tmp").exists()


async def test_a_failing_or_hanging_probe_is_unhealthy(monkeypatch: Any) -> None:
    async def fails() -> dict[str, Any]:
        raise ConnectionError("database is locked")

    async def hangs() -> dict[str, Any]:
        await asyncio.sleep(60)
        return {"ok": True}

    status = await Health(fails).status()
    assert status["ok"] is False and "database is locked" in status["error"]
    monkeypatch.setattr(health_mod, "PROBE_TIMEOUT", 0.05)
    assert (await Health(hangs).status())["ok"] is False


async def http(port: int, request: bytes) -> tuple[int, dict[str, Any]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, body = raw.split(b"\r\n\r\n", 1)
    return int(head.split()[1]), json.loads(body)


async def test_the_endpoint_answers_200_when_healthy_503_when_not() -> None:
    ok = {"ok": True, "gateway": True}

    async def probe() -> dict[str, Any]:
        return dict(ok)

    h = Health(probe, port=0)
    await h.start()
    try:
        assert h.port
        code, body = await http(h.port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert code == 200 and body["gateway"] and body["ok"]
        ok["ok"] = False
        code, body = await http(h.port, b"GET /health HTTP/1.0\r\n\r\n")
        assert code == 503 and body["ok"] is False
        code, _ = await http(h.port, b"GET /other HTTP/1.0\r\n\r\n")
        assert code == 404
    finally:
        await h.stop()


def test_the_check_command_reads_age_and_status(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "h.json"
    assert health_mod.main([str(path)]) == 1 and "does not exist" in capsys.readouterr().err
    path.write_text(json.dumps({"ok": True, "time": time.time()}))
    assert health_mod.main([str(path), "--max-age", "30"]) == 0
    path.write_text(json.dumps({"ok": True, "time": time.time() - 100}))
    assert health_mod.main([str(path), "--max-age", "30"]) == 1 and "stuck" in capsys.readouterr().err
    path.write_text(json.dumps({"ok": False, "time": time.time(), "gateway": False}))
    ok, why = check(path, 30)
    assert not ok and "not healthy" in why
    path.write_text("{half")
    assert not check(path, 30)[0]
