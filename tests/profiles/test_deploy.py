"""docker-compose.yml and Dockerfile, checked without a Docker engine (none on CI machines).

When a Compose client is installed (`docker compose` v2 or `docker-compose` v1) its `config`
validates the file against the Compose schema; the structural checks run everywhere.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def test_compose_has_the_app_and_postgres_with_a_volume() -> None:
    spec = compose()
    db, app = spec["services"]["db"], spec["services"]["app"]
    assert db["image"].startswith("postgres:")
    volume = db["volumes"][0].split(":")
    assert volume[1] == "/var/lib/postgresql/data" and volume[0] in spec["volumes"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert app["build"] == "."
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    url = app["environment"]["DATABASE_URL"]
    assert url.startswith("postgresql+psycopg://") and "@db:5432/" in url
    assert app["ports"] and app["healthcheck"]["test"][0] == "CMD"


def test_dockerfile_serves_on_all_interfaces() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert text.startswith("#") and "FROM python:3.11-slim" in text
    cmd = next(line for line in text.splitlines() if line.startswith("CMD "))
    argv = shlex.split(cmd[4:].strip().strip("[]").replace(",", " "))
    assert argv[:2] == ["yanniv", "serve"]
    from yanniv.cli import _build_parser

    args = _build_parser().parse_args(argv[1:])
    assert args.host == "0.0.0.0"


def _client() -> list[str] | None:
    docker = shutil.which("docker")
    if (
        docker
        and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0
    ):
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_compose_config_accepts_the_file() -> None:
    client = _client()
    if client is None:
        skip_or_fail("no Compose client installed (docker compose / docker-compose)")
    res = subprocess.run(
        [*client, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr
