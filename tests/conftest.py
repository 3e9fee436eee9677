"""Shared fixtures: services that may be absent on a laptop but must be present in CI.

Under `YANNIV_REQUIRE_SERVICES=1` (set by `.ci/run`) a missing service fails the test
instead of skipping it, so CI always exercises PostgreSQL and the real browser.
"""

from __future__ import annotations

import os
import shutil
import socket
import uuid
from collections.abc import Iterator

import pytest

#: The group commit's window (`Settings.group_commit_window`, 20 ms) is idle time that every
#: action of a test pays on its own, one after the other: 84 s instead of 15 for the match,
#: bot, restart and timer tests. In-process apps and the servers tests start run without it;
#: the window itself is tested by `tests/server/test_writer.py`, and the load harness's tests
#: (`tests/loadtest`, kill -9 under load) run with the production setting (`production_window`).
WINDOW_VARIABLE = "YANNIV_GROUP_COMMIT_WINDOW"
_WINDOW_SET_HERE = WINDOW_VARIABLE not in os.environ
os.environ.setdefault(WINDOW_VARIABLE, "0")

POSTGRES_ADMIN_URL = os.environ.get(
    "YANNIV_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("YANNIV_TEST_REDIS_URL", "redis://127.0.0.1:6379")
CHROMIUM = os.environ.get("YANNIV_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def services_required() -> bool:
    return os.environ.get("YANNIV_REQUIRE_SERVICES") == "1"


def skip_or_fail(reason: str) -> None:
    """Skip on a laptop; fail in CI where the service must exist."""
    if services_required():
        pytest.fail(f"required service missing: {reason}")
    pytest.skip(reason)


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def postgres_admin_url() -> str:
    if not _port_open("127.0.0.1", 5432):
        skip_or_fail("PostgreSQL is not reachable at 127.0.0.1:5432")
    return POSTGRES_ADMIN_URL


@pytest.fixture
def postgres_url(postgres_admin_url: str) -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test, dropped afterwards."""
    from sqlalchemy import create_engine, text

    name = f"yanniv_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(postgres_admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = postgres_admin_url.rsplit("/", 1)[0] + "/" + name
    try:
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The Redis server at 127.0.0.1:6379, as a `limits` storage URI (its client, `redis`,
    must be installed too)."""
    import importlib.util

    if not _port_open("127.0.0.1", 6379):
        skip_or_fail("Redis is not reachable at 127.0.0.1:6379")
    if importlib.util.find_spec("redis") is None:
        skip_or_fail("redis (the Redis client of `limits`) is not installed")
    return REDIS_URL


@pytest.fixture(scope="session")
def nginx_path() -> str:
    """nginx, the balancer of the cluster tests (Debian's package: /usr/sbin)."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    if found is None:
        skip_or_fail("nginx is not installed")
    return str(found)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        skip_or_fail(f"Chromium not found at {CHROMIUM}")
    return CHROMIUM if os.path.exists(CHROMIUM) else str(shutil.which("chromium"))


def _hypothesis_profiles() -> None:
    """CI runs the property tests derandomized (reproducible); laptops explore new examples."""
    from hypothesis import settings

    settings.register_profile("ci", derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        settings.load_profile("ci")


_hypothesis_profiles()


@pytest.fixture
def production_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The group commit's window as `yanniv serve` has it (unless the run set one itself)."""
    if _WINDOW_SET_HERE:
        monkeypatch.delenv(WINDOW_VARIABLE, raising=False)
