"""docker-compose.yml's cluster (docs/cluster.md, Deployment), checked without a Docker engine:
none runs on CI machines, so `docker compose up` itself is never run here.

The Compose client (`docker compose` v2, else `docker-compose` v1) validates the file and
prints it normalized; the checks read that output, so they see what Compose would run. nginx
checks the balancer's configuration, which must be what `yanniv balancer-conf --compose`
prints.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
#: The first open-source nginx whose upstream servers take `resolve` (names followed at run time).
RESOLVE_SINCE = (1, 27, 3)


def _client() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"],
                                 capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """`config`'s output for the file as shipped: no variable of the caller's environment."""
    client = _client()
    if client is None:
        skip_or_fail("no Compose client installed (docker compose / docker-compose)")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/")}
    done = subprocess.run([*client, "-f", str(ROOT / "docker-compose.yml"), "config"],
                          capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return yaml.safe_load(done.stdout)


def _ports(service: dict[str, Any]) -> list[tuple[str, int]]:
    """(published, target) of each published port, in either client's spelling."""
    found = []
    for port in service.get("ports", []):
        if isinstance(port, dict):
            found.append((str(port.get("published", "")), int(port["target"])))
        else:
            *published, target = str(port).split("/")[0].split(":")
            found.append((published[-1] if published else "", int(target)))
    return found


def _dockerfile_port() -> int:
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines()
               if line.startswith("CMD "))
    argv = shlex.split(cmd[4:].strip().strip("[]").replace(",", " "))
    return int(argv[argv.index("--port") + 1])


def test_the_stack_is_the_database_redis_the_balancer_and_the_app(compose: dict) -> None:
    services = compose["services"]
    assert set(services) == {"db", "redis", "app", "lb"}
    assert services["db"]["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(services["db"]["healthcheck"]["test"])
    volume = services["db"]["volumes"][0]
    target = volume["target"] if isinstance(volume, dict) else volume.split(":")[1]
    assert target == "/var/lib/postgresql/data"
    assert services["redis"]["image"].startswith("redis:")
    assert services["redis"]["healthcheck"]["test"][-1] == "ping"


def test_the_app_can_be_scaled(compose: dict) -> None:
    app = compose["services"]["app"]
    # A published port or a fixed name would make a second replica fail to start.
    assert "ports" not in app and "container_name" not in app
    assert "build" in app
    assert int(app["deploy"]["replicas"]) >= 2
    health = " ".join(app["healthcheck"]["test"])
    assert f"127.0.0.1:{_dockerfile_port()}/readyz" in health
    for needed in ("db", "redis"):
        assert app["depends_on"][needed]["condition"] == "service_healthy"


def test_the_app_runs_as_a_cluster_member(compose: dict) -> None:
    env = compose["services"]["app"]["environment"]
    assert str(env["YANNIV_CLUSTER"]).lower() in {"1", "true", "yes", "on"}
    assert env["YANNIV_ADVERTISE_URL"] == "auto"  # each replica its own address
    url = env["DATABASE_URL"]
    assert url.startswith("postgresql+psycopg://") and "@db:5432/" in url
    assert env["YANNIV_LIMITS_STORAGE"] == "redis://redis:6379"
    # nginx's address is somewhere on the stack's network: trust exactly that network.
    subnets = [c["subnet"] for c in compose["networks"]["default"]["ipam"]["config"]]
    assert env["YANNIV_TRUSTED_PROXIES"] in subnets


def test_only_the_balancer_is_published(compose: dict) -> None:
    services = compose["services"]
    assert [name for name, service in services.items() if service.get("ports")] == ["lb"]
    lb = services["lb"]
    listen = re.search(r"^\s*listen 0\.0\.0\.0:(\d+);", NGINX_CONF.read_text(), re.M)
    assert listen is not None
    assert _ports(lb) == [("8000", int(listen.group(1)))]
    mounts = [v if isinstance(v, str) else f"{v['source']}:{v['target']}" for v in lb["volumes"]]
    assert any(m.startswith(f"{NGINX_CONF}:/etc/nginx/nginx.conf") for m in mounts), mounts
    assert "app" in lb["depends_on"]
    assert "/healthz" in " ".join(lb["healthcheck"]["test"])


def test_the_balancer_image_follows_names_at_run_time(compose: dict) -> None:
    image = compose["services"]["lb"]["image"]
    match = re.fullmatch(r"nginx:(\d+)\.(\d+)(?:\.(\d+))?-alpine", image)
    assert match, f"pin an nginx version (>= {RESOLVE_SINCE}): {image}"
    version = tuple(int(part or 0) for part in match.groups())
    assert version >= RESOLVE_SINCE


def test_the_balancer_configuration_is_the_generated_one() -> None:
    printed = subprocess.run([sys.executable, "-m", "yanniv.cli", "balancer-conf", "--compose"],
                             capture_output=True, text=True, check=True, cwd=ROOT,
                             env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert NGINX_CONF.read_text() == printed.stdout, (
        "deploy/nginx.conf is stale: yanniv balancer-conf --compose > deploy/nginx.conf")


def _nginx_version(nginx: str) -> tuple[int, ...]:
    said = subprocess.run([nginx, "-v"], capture_output=True, text=True, check=True).stderr
    found = re.search(r"nginx/(\d+)\.(\d+)\.(\d+)", said)
    assert found, said
    return tuple(int(part) for part in found.groups())


def test_nginx_accepts_the_balancer_configuration(tmp_path: Path, nginx_path: str) -> None:
    text = NGINX_CONF.read_text()
    # The container's directories become the test's own; nothing else changes.
    assert "/var/cache/nginx/" in text
    text = text.replace("/var/cache/nginx", str(tmp_path))
    # What makes scaling work: every replica behind one name, followed while nginx runs.
    assert "resolver 127.0.0.11 valid=5s" in text
    assert "zone yanniv " in text
    resolving = "server app:8000 resolve "
    assert text.count(resolving) == 1
    if _nginx_version(nginx_path) < RESOLVE_SINCE:
        # Debian 12's nginx (1.22) predates `resolve`, and would resolve `app` at start:
        # that one line is checked as a fixed address, the rest of the file as it is.
        text = text.replace(resolving, "server 127.0.0.1:8000 ")
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    checked = subprocess.run([nginx_path, "-t", "-p", str(tmp_path), "-c", str(conf)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
