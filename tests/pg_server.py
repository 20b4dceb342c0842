"""A throwaway PostgreSQL server for tests and benchmarks: its own data directory in a
temporary directory, listening on 127.0.0.1 at a free port, stopped and removed after.

PostgreSQL refuses to run as root; when we are root the server runs as the unprivileged
``nobody`` user (setpriv), with the directory handed to it.
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

SUPERUSER = "postgres"
# The database the tests share: migrated once, emptied before each test that uses it,
# which costs milliseconds where creating a database costs most of a second.
SHARED = "tablero_test"
_names = itertools.count(1)


def find_bin(name: str) -> str | None:
    """The PostgreSQL program ``name`` on PATH or in Debian's versioned directory, or None."""
    found = shutil.which(name)
    if found:
        return found
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    return None


def available() -> bool:
    """Whether this machine has the server programs (initdb and postgres)."""
    return find_bin("initdb") is not None and find_bin("postgres") is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One running server; ``url(db)`` names a database on it."""

    def __init__(self, root: Path, port: int, proc: subprocess.Popen[bytes]) -> None:
        """Hold a started server; use PgServer.start()."""
        self.root = root
        self.port = port
        self.proc = proc

    def url(self, database: str = "postgres") -> str:
        """A connection URL for ``database`` as the superuser."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @classmethod
    def start(cls, *, durable: bool = False, timeout: float = 30.0) -> PgServer:
        """initdb a new cluster in a temporary directory and start it.

        ``durable=False`` (tests) turns fsync off: nothing here must survive a power cut,
        only a killed client, which the server's own commit already covers."""
        initdb, postgres = find_bin("initdb"), find_bin("postgres")
        if initdb is None or postgres is None:
            raise RuntimeError("PostgreSQL server programs (initdb, postgres) not found")
        root = Path(tempfile.mkdtemp(prefix="tablero-pg-"))
        prefix: list[str] = []
        if os.geteuid() == 0:
            who = pwd.getpwnam("nobody")
            os.chown(root, who.pw_uid, who.pw_gid)
            prefix = ["setpriv", f"--reuid={who.pw_uid}", f"--regid={who.pw_gid}", "--clear-groups"]
        env = {**os.environ, "HOME": str(root), "LC_ALL": "C"}
        data = root / "data"
        try:
            subprocess.run(
                [*prefix, initdb, "-D", str(data), "-A", "trust", "-U", SUPERUSER, "--no-sync",
                 "-E", "UTF8", "--no-locale"],
                check=True, capture_output=True, env=env, cwd=root,
            )
            settings = ["-c", "max_connections=200", "-c", "shared_buffers=32MB"]
            if not durable:
                settings += ["-c", "fsync=off", "-c", "full_page_writes=off"]
            for _attempt in range(5):
                port = _free_port()
                log = open(root / "server.log", "ab")  # noqa: SIM115 (kept open by the server)
                proc = subprocess.Popen(
                    # pdeathsig: the server goes if the test process dies without stopping it.
                    [*prefix, *(["--pdeathsig", "INT"] if prefix else []), postgres, "-D",
                     str(data), "-k", str(root), "-h", "127.0.0.1", "-p", str(port), *settings],
                    stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root,
                )
                log.close()
                if cls._wait_ready(proc, port, timeout):
                    return cls(root, port, proc)
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            raise RuntimeError(
                "PostgreSQL did not start: " + (root / "server.log").read_text(errors="replace")[-2000:]
            )
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise

    @staticmethod
    def _wait_ready(proc: subprocess.Popen[bytes], port: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False  # died (the port was taken, say)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    pass
                # Accepting TCP is not yet accepting logins; pg_isready tells that.
                isready = find_bin("pg_isready")
                if isready is None:
                    time.sleep(0.3)
                    return True
                ok = subprocess.run(
                    [isready, "-h", "127.0.0.1", "-p", str(port), "-U", SUPERUSER, "-t", "1"],
                    capture_output=True,
                )
                if ok.returncode == 0:
                    return True
            except OSError:
                pass
            time.sleep(0.05)
        return False

    def stop(self) -> None:
        """Fast shutdown (open sessions are cut), then remove the directory."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def _in_thread(coro_fn: Callable[[], Awaitable[None]]) -> None:
    """Run a coroutine to completion on a loop of its own (a test's loop may be running)."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(coro_fn())  # type: ignore[arg-type]
        except BaseException as e:  # handed back to the caller
            failure.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    if failure:
        raise failure[0]


def make_shared(server: PgServer) -> None:
    """Create the shared database on ``server`` and bring it to the latest migration."""
    import asyncpg

    from storage import Store

    async def make() -> None:
        conn = await asyncpg.connect(server.url())
        try:
            await conn.execute(f"CREATE DATABASE {SHARED}")
        finally:
            await conn.close()
        await (await Store.open(server.url(SHARED))).close()

    _in_thread(make)


async def empty_shared(server: PgServer) -> str:
    """Empty every table of the shared database and restart its ids; its URL."""
    import asyncpg

    url = server.url(SHARED)
    conn = await asyncpg.connect(url)
    try:
        tables = [
            r[0]
            for r in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename != 'schema_version'"
            )
        ]
        ids = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND is_identity = 'YES'"
        )
        # Every foreign key cascades (or sets null), so the order does not matter.
        await conn.execute(
            "".join(f"DELETE FROM {t};" for t in tables)
            + "".join(
                f"SELECT setval(pg_get_serial_sequence('{t}', '{c}'), 1, false);" for t, c in ids
            )
        )
    finally:
        await conn.close()
    return url


async def new_database(server: PgServer) -> str:
    """A new empty database on ``server`` (no schema at all); its URL."""
    import asyncpg

    name = f"t{os.getpid()}_{next(_names)}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
    finally:
        await conn.close()
    return server.url(name)


async def drop_database(server: PgServer, url: str) -> None:
    """Drop a database made by new_database (cutting any session still on it)."""
    import asyncpg

    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
    finally:
        await conn.close()
