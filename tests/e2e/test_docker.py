"""The Docker image, built and run against the fake Discord: it starts as its own user,
turns healthy, logs JSON, draws a board with the fonts inside it, and stops cleanly.

Building an image takes minutes, so this runs only when asked: ``TABLERO_TEST_DOCKER=1``
with a Docker daemon that can reach the base image (``TABLERO_TEST_PYTHON_IMAGE`` names
another, e.g. a mirror's). Without them it is skipped, saying which is missing;
tests/test_hosting_files.py checks the Dockerfile itself in every run.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from .fake_discord import FakeDiscord
from .harness import FakeWorld
from .test_crash import WAIT, boards, move_by_menu, open_lobby, query, undelivered

ROOT = Path(__file__).resolve().parents[2]
BASE = os.environ.get("TABLERO_TEST_PYTHON_IMAGE", "python:3.11-slim")


def docker(*args: str, timeout: float = 60, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the docker command line."""
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, check=check)


def why_not() -> str | None:
    """Why this machine cannot run the test (None: it can)."""
    if os.environ.get("TABLERO_TEST_DOCKER") != "1":
        return "set TABLERO_TEST_DOCKER=1 to build and run the image (it takes minutes)"
    if shutil.which("docker") is None:
        return "no docker command"
    info = docker("info", "--format", "{{.ServerVersion}}", check=False)
    if info.returncode != 0:
        return f"no Docker daemon: {info.stderr.strip()[:300]}"
    if docker("image", "inspect", BASE, check=False).returncode != 0:
        pulled = docker("pull", BASE, timeout=600, check=False)
        if pulled.returncode != 0:
            return f"the base image {BASE} cannot be pulled: {pulled.stderr.strip()[:300]}"
    return None


pytestmark = pytest.mark.skipif(why_not() is not None, reason=str(why_not()))


@pytest.mark.asyncio
async def test_the_image_runs_the_bot_healthy_as_its_own_user_and_stops_cleanly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    tag = f"tablero-test:{uuid.uuid4().hex[:8]}"
    name = f"tablero-test-{uuid.uuid4().hex[:8]}"
    built = await asyncio.to_thread(docker, "build", "--network", "host", "--build-arg", f"PYTHON_IMAGE={BASE}",
                                    "-t", tag, str(ROOT), timeout=1200, check=False)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    data = tmp_path / "data"
    data.mkdir()
    os.chmod(data, 0o777)  # the container's user (uid 10001) writes the database there
    try:
        async with FakeWorld(fake=fake, users=["alice", "bob"], channels=["games"]) as world:
            # The host's network: the container reaches the fake Discord on 127.0.0.1.
            await asyncio.to_thread(
                docker, "run", "-d", "--name", name, "--network", "host", "-v", f"{data}:/data",
                "--health-interval", "1s", "--health-start-period", "60s",
                "-e", "DISCORD_TOKEN=fake-token", "-e", f"TABLERO_DISCORD_API={fake.http_base}",
                "-e", f"TABLERO_DISCORD_GATEWAY={fake.gateway_url}", "-e", "TABLERO_HEALTH_INTERVAL=1",
                "-e", "TABLERO_READY_WAIT=0.05", "-e", "TABLERO_PICTURE_WORKERS=1", tag)

            def health() -> str:
                return docker("inspect", "--format", "{{.State.Health.Status}}", name).stdout.strip()

            async with asyncio.timeout(120):
                while (state := await asyncio.to_thread(health)) != "healthy":
                    assert state in ("starting", ""), docker("logs", name).stderr[-3000:]
                    await asyncio.sleep(1)
            uid = (await asyncio.to_thread(docker, "exec", name, "id", "-u")).stdout.strip()
            assert uid == "10001"

            # A game whose board picture the container draws with its own fonts.
            db = str(data / "tablero.db")
            channel = world.channels["games"]
            gid = await open_lobby(fake, world, channel, "rey_hierofante")
            inter = await fake.slash("game start", world["alice"], channel)
            await fake.wait_response(inter, timeout=WAIT)
            await fake.wait_until(lambda: undelivered(db) == 0 and boards(fake, channel, gid), timeout=WAIT)
            await move_by_menu(fake, world, db, gid)
            await fake.wait_until(lambda: query(db, "SELECT version FROM games WHERE id = ?", gid)[0][0] >= 1
                                  and undelivered(db) == 0, timeout=WAIT)
            png = fake.files(boards(fake, channel, gid)[0])[0]["data"]
            assert png[:8] == b"\x89PNG\r\n\x1a\n"

            stopped = await asyncio.to_thread(docker, "stop", "-t", "30", name, timeout=60)
            assert stopped.returncode == 0
            code = docker("inspect", "--format", "{{.State.ExitCode}}", name).stdout.strip()
            logs = docker("logs", name).stderr.splitlines()
            assert code == "0", logs[-20:]
            parsed = [json.loads(line) for line in logs]  # every line is a JSON object
            events = {p.get("event") for p in parsed}
            assert {"start", "ready", "move", "stop"} <= events, events
            assert not [p for p in parsed if p["level"] in ("ERROR", "CRITICAL")]
    finally:
        docker("rm", "-f", name, check=False)
        docker("rmi", "-f", tag, check=False)
