"""The bot's health, for a supervisor (Docker's HEALTHCHECK, systemd, a monitoring probe).

Two ways to watch it, each chosen by a setting:

- ``TABLERO_HEALTH_FILE``: every ``TABLERO_HEALTH_INTERVAL`` seconds the bot rewrites this
  file with its status as JSON (``"ok": true`` while the gateway is connected and the store
  answers). A file that stops changing means a stuck or dead bot. Check it with
  ``python -m services.health FILE [--max-age SECONDS]`` (exit 0 healthy, 1 not).
- ``TABLERO_HEALTH_PORT``: ``GET /health`` on 127.0.0.1 answers 200 with the status, or
  503 when the bot is not healthy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("tablero.health")

Probe = Callable[[], Awaitable[dict[str, Any]]]
INTERVAL = 30.0
PROBE_TIMEOUT = 10.0


class Health:
    """Writes the status file and serves the status endpoint while the bot runs."""

    def __init__(self, probe: Probe, *, path: str | None = None, port: int | None = None,
                 interval: float = INTERVAL, host: str = "127.0.0.1") -> None:
        self.probe = probe
        self.path = Path(path) if path else None
        self.port = port
        self.host = host
        self.interval = interval
        self.started = time.time()
        self._task: asyncio.Task[None] | None = None
        self._server: asyncio.Server | None = None
        self._wake = asyncio.Event()

    @property
    def enabled(self) -> bool:
        """Whether a file or a port was asked for."""
        return self.path is not None or self.port is not None

    async def status(self) -> dict[str, Any]:
        """The bot's status now: the probe's answer (``ok`` false if it fails or hangs)."""
        try:
            found = dict(await asyncio.wait_for(self.probe(), PROBE_TIMEOUT))
        except Exception as exc:  # noqa: BLE001 - a failing probe is an unhealthy bot, not a crash
            found = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        found.setdefault("ok", False)
        return {**found, "time": time.time(), "uptime_s": round(time.time() - self.started, 1), "pid": os.getpid()}

    def write(self, status: dict[str, Any]) -> None:
        """Replace the status file in one step (a reader never sees half of it)."""
        if self.path is None:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(status), encoding="utf-8")
        os.replace(tmp, self.path)

    async def start(self) -> None:
        """Start writing the file and serving the endpoint (whichever are asked for)."""
        if self.port is not None and self._server is None:
            self._server = await asyncio.start_server(self._answer, self.host, self.port)
            self.port = self._server.sockets[0].getsockname()[1]
            log.info("health endpoint on http://%s:%s/health", self.host, self.port)
        if self.path is not None and self._task is None:
            self._task = asyncio.create_task(self._loop(), name="tablero-health")

    def poke(self) -> None:
        """Write the status now rather than at the next interval (e.g. once connected)."""
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            try:
                self.write(await self.status())
            except OSError:
                log.warning("could not write the health file %s", self.path, exc_info=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()

    async def stop(self) -> None:
        """Stop; the file says the bot stopped (a supervisor need not wait for it to age)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            with contextlib.suppress(OSError):
                self.write({"ok": False, "stopped": True, "time": time.time(), "pid": os.getpid()})
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """A minimal HTTP/1.0 answer: the status for GET /health, 404 for anything else."""
        try:
            request = await asyncio.wait_for(reader.readline(), 5)
            while (await asyncio.wait_for(reader.readline(), 5)) not in (b"\r\n", b"\n", b""):
                pass  # headers: nothing in them matters here
            parts = request.decode("latin-1").split()
            if len(parts) >= 2 and parts[0] in ("GET", "HEAD") and parts[1].split("?")[0] == "/health":
                status = await self.status()
                code = (200, "OK") if status["ok"] else (503, "Service Unavailable")
                body = json.dumps(status)
            else:
                code, body = (404, "Not Found"), json.dumps({"error": "not found"})
            payload = body.encode()
            head = (f"HTTP/1.0 {code[0]} {code[1]}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n").encode()
            writer.write(head + (payload if parts[:1] != ["HEAD"] else b""))
            await writer.drain()
        except (TimeoutError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


def check(path: str | Path, max_age: float, now: float | None = None) -> tuple[bool, str]:
    """Whether the status file says healthy and is fresher than ``max_age`` seconds; and why not."""
    try:
        status = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, f"{path} does not exist (the bot has not started, or TABLERO_HEALTH_FILE differs)"
    except (OSError, ValueError) as exc:
        return False, f"{path} cannot be read: {exc}"
    age = (now if now is not None else time.time()) - float(status.get("time", 0))
    if age > max_age:
        return False, f"{path} is {age:.0f} s old (more than {max_age:.0f} s): the bot is stuck or gone"
    if not status.get("ok"):
        return False, f"the bot is not healthy: {json.dumps(status)}"
    return True, f"healthy ({age:.0f} s ago)"


def main(argv: list[str] | None = None) -> int:
    """``python -m services.health FILE [--max-age S]``: exit 0 if healthy, 1 if not."""
    p = argparse.ArgumentParser(description="Check Tablero's health file.")
    p.add_argument("file", nargs="?", default=os.environ.get("TABLERO_HEALTH_FILE", ""))
    p.add_argument("--max-age", type=float, default=3 * INTERVAL,
                   help="seconds after which the file counts as stale (default: 90)")
    a = p.parse_args(argv)
    if not a.file:
        print("no health file given (argument or TABLERO_HEALTH_FILE)", file=sys.stderr)
        return 1
    ok, why = check(a.file, a.max_age)
    print(why, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
