"""The balancer's probes: `/healthz` while the process answers; `/readyz` only while the
database answers and the room leases are being renewed."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

FAST = {"lease_seconds": 1.0, "lease_renew_seconds": 0.2}


def test_a_running_process_is_alive_and_ready(app_factory: Callable[..., FastAPI]) -> None:
    with TestClient(app_factory()) as client:
        client.post("/api/rooms", json={"pseudo": "Léa"})
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"ready": True, "database": True, "leases": True, "rooms": 1}


def test_not_ready_once_the_leases_are_not_renewed(app_factory: Callable[..., FastAPI]) -> None:
    app = app_factory(**FAST)
    with TestClient(app) as client:
        client.portal.call(app.state.rooms.keeper.stop)
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["leases"] is False
        assert client.get("/healthz").status_code == 200


@pytest.mark.postgres
def test_not_ready_while_the_database_is_away(app_factory: Callable[..., FastAPI],
                                              postgres_url: str,
                                              postgres_admin_url: str) -> None:
    name = postgres_url.rsplit("/", 1)[1]
    admin = create_engine(postgres_admin_url, isolation_level="AUTOCOMMIT")
    app = app_factory(postgres_url, **FAST)
    try:
        with TestClient(app) as client:
            assert client.get("/readyz").status_code == 200
            with admin.connect() as conn:
                conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false'))
                conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE datname = :n"), {"n": name})
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.json()["database"] is False
            time.sleep(FAST["lease_seconds"] + 0.3)  # renewals failing meanwhile
            assert client.get("/readyz").json()["leases"] is False
            assert client.get("/healthz").status_code == 200
            with admin.connect() as conn:
                conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
            deadline = time.monotonic() + 10
            while client.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "ready again once the database is back"
                time.sleep(0.1)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true'))
        admin.dispose()
