"""The public rooms list of a cluster (docs/cluster.md): read from the database, so a process
lists the rooms another process serves, within a renewal; a room leaves every list once nobody
is connected to it, or once its holder stopped renewing (hung or dead)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

FAST = {"cluster": True, "lease_seconds": 1.0, "lease_renew_seconds": 0.2}


@pytest.fixture(params=["sqlite_url", "postgres_url"])
def url(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue(request.param)


def _codes(client: TestClient) -> list[str]:
    answer = client.get("/api/rooms/public")
    assert answer.status_code == 200
    return [room["code"] for room in answer.json()]


def _until(predicate: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_every_process_lists_the_rooms_another_one_serves(
        app_factory: Callable[..., FastAPI], url: str) -> None:
    with TestClient(app_factory(url, **FAST)) as a, TestClient(app_factory(url, **FAST)) as b:
        created = a.post("/api/rooms", json={"pseudo": "Alice", "public": True}).json()
        code, token = created["code"], created["token"]
        private = a.post("/api/rooms", json={"pseudo": "Zoé", "public": False}).json()
        with a.websocket_connect(f"/ws/{private['code']}?token={private['token']}") as other:
            other.receive_json()
            assert _codes(b) == []  # nobody connected yet: not listed, as alone
            with a.websocket_connect(f"/ws/{code}?token={token}") as ws:
                ws.receive_json()
                _until(lambda: _codes(b) == [code])
                listed: dict[str, Any] = b.get("/api/rooms/public").json()[0]
                assert listed == a.get("/api/rooms/public").json()[0]
                assert (listed["host"], listed["seats_taken"], listed["game"]) == (
                    "Alice", 1, "yanniv")
                assert listed["seats_free"] >= 1 and listed["created_at"].endswith("+00:00")
            _until(lambda: _codes(b) == [])  # the host left: unlisted everywhere


def test_a_hung_holder_s_rooms_leave_the_list(app_factory: Callable[..., FastAPI],
                                            url: str) -> None:
    with TestClient(app_factory(url, **FAST)) as b, TestClient(app_factory(url, **FAST)) as a:
        created = a.post("/api/rooms", json={"pseudo": "Alice", "public": True}).json()
        with a.websocket_connect(f"/ws/{created['code']}?token={created['token']}") as ws:
            ws.receive_json()
            _until(lambda: _codes(b) == [created["code"]])
            a.portal.call(a.app.state.rooms.keeper.stop)  # A hangs: its lease runs out
            _until(lambda: _codes(b) == [], seconds=5.0)
