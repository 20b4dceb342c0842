"""The Dockerfile, .dockerignore, compose.yaml and the README's hosting section agree with
the bot: what the image copies exists and is not ignored (the fonts the pictures load
included), it runs as a user of its own with a health check the bot feeds, and every
setting the compose file and the README name is one the bot reads."""

from __future__ import annotations

import fnmatch
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cogs.pictures import fonts

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
README = (ROOT / "README.md").read_text()
COMPOSE = (ROOT / "compose.yaml").read_text()


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined."""
    out: list[tuple[str, str]] = []
    text = re.sub(r"\\\n", " ", DOCKERFILE)
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def ignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` (relative to the root) out of the build context."""
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines()
                if p.strip() and not p.startswith("#")]
    result = False
    parts = path.split("/")
    for pattern in patterns:
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").strip("/")
        # A pattern matches the path itself or any directory above it.
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        hit = any(fnmatch.fnmatchcase(p, pattern) or fnmatch.fnmatchcase(p, pattern.replace("**/", ""))
                  or (pattern.startswith("**/") and fnmatch.fnmatchcase(p.rsplit("/", 1)[-1], pattern[3:]))
                  for p in prefixes)
        if hit:
            result = not negate
    return result


def copied() -> list[str]:
    """Every source path the Dockerfile copies from the build context."""
    sources: list[str] = []
    for word, rest in instructions():
        if word == "COPY":
            args = [a for a in shlex.split(rest) if not a.startswith("--")]
            sources.extend(a.rstrip("/") for a in args[:-1])
    return sources


def in_image(path: str) -> bool:
    """Whether ``path`` reaches the image: under a copied source and not ignored."""
    return any(path == s or path.startswith(s + "/") for s in copied()) and not ignored(path)


def test_the_image_is_slim_python_311_and_runs_the_bot_as_its_own_user() -> None:
    steps = instructions()
    words = [w for w, _ in steps]
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.11-slim$", DOCKERFILE, re.M)
    assert ("FROM", "${PYTHON_IMAGE}") in steps
    users = [rest for w, rest in steps if w == "USER"]
    assert users and users[-1] not in ("root", "0") and not users[-1].startswith("0:")
    # The user is created, and switched to after installing and before running.
    assert "useradd" in DOCKERFILE and re.search(rf"useradd .*\b{users[-1]}\b", DOCKERFILE)
    assert words.index("USER") > max(i for i, (w, r) in enumerate(steps) if w == "RUN")
    assert steps[-1] == ("CMD", '["python", "bot.py"]')


def test_every_copied_path_exists_and_what_the_bot_imports_is_copied() -> None:
    for source in copied():
        assert (ROOT / source).exists(), source
        assert not ignored(source), f"{source} is copied but .dockerignore leaves it out"
    for needed in ("bot.py", "pyproject.toml", "README.md", "rules", "storage", "services", "cogs"):
        assert in_image(needed), needed
    packages = re.search(r'include = \[(.*?)\]', (ROOT / "pyproject.toml").read_text())
    assert packages is not None
    for package in re.findall(r'"(\w+)\*"', packages[1]):
        assert in_image(package), package
    # Secrets and databases never reach the build context.
    for private in (".env", "tablero.db", "tablero.db-wal", ".git/config"):
        assert ignored(private), private


def test_the_fonts_the_pictures_load_are_in_the_image() -> None:
    loaded = set(re.findall(r'"([\w-]+\.ttf)"', (ROOT / "cogs/pictures/fonts.py").read_text()))
    for module in (ROOT / "cogs/pictures").glob("*.py"):
        text = module.read_text()
        assert "truetype(" not in text or module.name == "fonts.py", f"{module.name} loads a font of its own"
        loaded |= set(re.findall(r'"([\w-]+\.(?:ttf|otf))"', text))
    assert loaded == {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf"}
    for name in loaded:
        path = fonts._DIR / name
        assert path.is_file() and path.stat().st_size > 100_000, name
        assert in_image(str(path.relative_to(ROOT))), name
    assert in_image("cogs/pictures/fonts/LICENSE")
    assert fonts.font(12).getlength("Ñandú") > 0  # the face opens and draws accents


def test_the_health_check_reads_the_file_the_bot_writes() -> None:
    env = dict(re.findall(r"(TABLERO_\w+)=(\S+)", " ".join(r for w, r in instructions() if w == "ENV")))
    assert env["TABLERO_HEALTH_FILE"].startswith("/tmp/")  # writable by the unprivileged user
    assert env["TABLERO_DB"].startswith("/data/") and 'VOLUME ["/data"]' in DOCKERFILE
    checks = [r for w, r in instructions() if w == "HEALTHCHECK"]
    assert len(checks) == 1
    assert '"python", "-m", "services.health"' in checks[0]
    max_age = float(re.search(r'"--max-age", "(\d+)"', checks[0])[1])  # type: ignore[index]
    assert max_age >= 2 * float(env["TABLERO_HEALTH_INTERVAL"])  # one late write is no alarm
    assert (ROOT / "services/health.py").is_file()


def test_the_image_installs_as_the_readme_says() -> None:
    runs = [r for w, r in instructions() if w == "RUN" and "pip install" in r]
    assert len(runs) == 1
    command = re.search(r"pip install [^&;]*?(?=\s*(?:&&|;|$))", runs[0])
    assert command is not None
    assert f"`{command[0].strip()}`" in README


def compose_tree() -> dict[str, object]:
    """compose.yaml's mappings as nested dicts (values as strings); enough to check its
    shape without a YAML library (the bot has no use for one)."""
    root: dict[str, object] = {}
    stack: list[tuple[int, dict[str, object]]] = [(-1, root)]
    for raw in COMPOSE.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        assert "\t" not in raw, "YAML is indented with spaces"
        indent = len(raw) - len(raw.lstrip())
        line = raw.strip()
        while stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1]
        if line.startswith("- "):
            parent.setdefault("-", [])
            parent["-"].append(line[2:])  # type: ignore[union-attr]
            continue
        key, sep, value = line.partition(":")
        assert sep, f"not a mapping line: {raw!r}"
        value = value.strip()
        if value:
            parent[key] = value
        else:
            child: dict[str, object] = {}
            parent[key] = child
            stack.append((indent, child))
    return root


def settings_read_by_the_bot() -> set[str]:
    """Every environment variable bot.py reads."""
    return set(re.findall(r'env\.get\("((?:TABLERO|DISCORD)_\w+)"', (ROOT / "bot.py").read_text()))


def test_compose_runs_the_bot_on_postgresql_once_it_is_ready() -> None:
    tree = compose_tree()
    services = tree["services"]
    assert isinstance(services, dict) and set(services) == {"db", "bot"}
    db, bot = services["db"], services["bot"]
    assert isinstance(db, dict) and isinstance(bot, dict)
    assert db["image"] == "postgres:15"
    assert "pg_isready" in str(db["healthcheck"])
    assert bot["build"] == "." and bot["env_file"] == ".env"
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    env = bot["environment"]
    assert isinstance(env, dict)
    assert re.fullmatch(r"postgresql://tablero:\$\{POSTGRES_PASSWORD\}@db:5432/tablero", str(env["TABLERO_DB"]))
    assert db["environment"]["POSTGRES_DB"] == "tablero" and db["environment"]["POSTGRES_USER"] == "tablero"  # type: ignore[index]
    read = settings_read_by_the_bot()
    assert set(env) <= read, set(env) - read
    assert set(tree["volumes"]) >= {"pgdata", "data"}  # type: ignore[arg-type]


def test_the_readme_documents_every_setting_and_the_proxy() -> None:
    read = settings_read_by_the_bot()
    assert {"TABLERO_DISCORD_API", "TABLERO_DISCORD_GATEWAY", "TABLERO_PICTURE_WORKERS", "TABLERO_LOG_FORMAT",
            "TABLERO_HEALTH_FILE", "TABLERO_HEALTH_PORT", "TABLERO_HEALTH_INTERVAL"} <= read
    example = (ROOT / ".env.example").read_text()
    for name in read - {"TABLERO_CRASH_AT"}:
        assert f"| `{name}` |" in README, f"{name} is missing from the README's settings"
        assert f"{name}=" in example, f"{name} is missing from .env.example"
    hosting = README.split("## Hosting", 1)[1].split("\n## ", 1)[0]
    proxy = hosting.split("### An HTTP proxy in front of Discord", 1)[1]
    assert "nirn-proxy" in proxy and "twilight-http-proxy" in proxy and "TABLERO_DISCORD_API=" in proxy
    for needed in ("docker build", "docker compose up", "pg_dump", ".backup", "Moving to PostgreSQL",
                   "python -m services.health", "TABLERO_LOG_FORMAT=json"):
        assert needed in hosting, needed


@pytest.mark.parametrize("path", ["Dockerfile", "compose.yaml", ".dockerignore"])
def test_hosting_files_end_with_a_newline_and_have_no_tabs(path: str) -> None:
    text = (ROOT / path).read_text()
    assert text.endswith("\n") and "\t" not in text


def compose_command() -> list[str] | None:
    """docker compose (v2) or docker-compose (v1), whichever this machine has."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True,
                                                 check=False).returncode == 0:
        return ["docker", "compose"]
    return ["docker-compose"] if shutil.which("docker-compose") else None


@pytest.mark.skipif(compose_command() is None, reason="neither docker compose nor docker-compose is installed")
def test_compose_itself_accepts_the_file_and_the_bot_gets_the_postgresql_address(tmp_path: Path) -> None:
    command = compose_command()
    assert command is not None
    project = tmp_path / "project"
    project.mkdir()
    (project / "compose.yaml").write_text(COMPOSE)
    (project / ".env").write_text("DISCORD_TOKEN=x\nPOSTGRES_PASSWORD=s3cret\nTABLERO_DB=tablero.db\n")
    done = subprocess.run([*command, "config"], cwd=project, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    # The address in compose.yaml wins over the SQLite path in .env.
    assert "TABLERO_DB: postgresql://tablero:s3cret@db:5432/tablero" in done.stdout
    (project / ".env").write_text("DISCORD_TOKEN=x\n")
    done = subprocess.run([*command, "config"], cwd=project, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode != 0 and "POSTGRES_PASSWORD" in done.stderr
