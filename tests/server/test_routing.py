"""Routing by room code in a cluster (docs/cluster.md): a process asked about a room another
live process serves names it (`307`, `Location`, and `X-Accel-Redirect` for nginx), sockets
included; a room between owners answers `room_moved` (sockets: closed 1012, to reconnect);
an unknown room, or one whose holder advertised no address, answers as alone.

Process B is faked by hand in `room_leases`, as another `yanniv serve` would hold it; this
process's keeper is stopped so it does not take the room back meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

FAST = {"cluster": True, "lease_seconds": 1.0, "lease_renew_seconds": 0.2}
FAR = 10**15  # an expiry far in the future, in epoch ms


def _sql(url: str, statement: str, **params: Any) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(statement), params)
    finally:
        engine.dispose()


@pytest.fixture
def moved(app_factory: Callable[..., FastAPI],
          sqlite_url: str) -> Iterator[tuple[TestClient, str, str]]:
    """(client, code, host token) of a room whose lease process B took (at 10.0.0.9:8000)."""
    app = app_factory(**FAST)
    with TestClient(app) as client:
        created = client.post("/api/rooms", json={"pseudo": "Alice"}).json()
        code = created["code"]
        _sql(sqlite_url, "UPDATE room_leases SET owner = 'process-b', epoch = epoch + 1, "
                         "expires_ms = :far, owner_url = 'http://10.0.0.9:8000' "
                         "WHERE room_code = :c", far=FAR, c=code)
        deadline = time.monotonic() + 10
        while app.state.rooms.get(code) is not None:  # the renewal finds it taken
            assert time.monotonic() < deadline
            time.sleep(0.05)
        client.portal.call(app.state.rooms.keeper.stop)
        yield client, code, created["token"]


def test_a_request_for_a_room_served_elsewhere_names_its_owner(
        moved: tuple[TestClient, str, str]) -> None:
    client, code, _token = moved
    answer = client.get(f"/api/rooms/{code}?lang=fr", follow_redirects=False)
    assert answer.status_code == 307
    assert answer.json()["code"] == "room_elsewhere"
    assert answer.headers["location"] == f"http://10.0.0.9:8000/api/rooms/{code}?lang=fr"
    assert answer.headers["x-accel-redirect"] == \
        f"/_yanniv_owner/GET/10.0.0.9:8000/api/rooms/{code}?lang=fr"
    joined = client.post(f"/api/rooms/{code.lower()}/join", json={"pseudo": "Bob"},
                         follow_redirects=False)
    assert joined.status_code == 307
    assert joined.headers["x-accel-redirect"] == \
        f"/_yanniv_owner/POST/10.0.0.9:8000/api/rooms/{code.lower()}/join"


def test_a_socket_for_a_room_served_elsewhere_is_sent_there(
        moved: tuple[TestClient, str, str]) -> None:
    client, code, token = moved
    with pytest.raises(WebSocketDenialResponse) as denied, \
            client.websocket_connect(f"/ws/{code}?token={token}"):
        pass
    assert denied.value.status_code == 307
    assert denied.value.headers["location"] == f"ws://10.0.0.9:8000/ws/{code}?token={token}"
    assert denied.value.headers["x-accel-redirect"] == \
        f"/_yanniv_owner/GET/10.0.0.9:8000/ws/{code}?token={token}"


def test_a_room_between_owners_answers_room_moved(moved: tuple[TestClient, str, str],
                                                  sqlite_url: str) -> None:
    """B's lease ran out and nobody took it yet: retry in a moment (sockets: 1012)."""
    client, code, token = moved
    _sql(sqlite_url, "UPDATE room_leases SET expires_ms = 0 WHERE room_code = :c", c=code)
    answer = client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": token})
    assert (answer.status_code, answer.json()["code"]) == (503, "room_moved")
    assert answer.headers["retry-after"] == "1"
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        assert ws.receive_json()["code"] == "room_moved"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1012


def test_our_own_lease_of_a_room_not_yet_restored_answers_room_moved(
        moved: tuple[TestClient, str, str], sqlite_url: str) -> None:
    """Right after a claim, before the room is rebuilt from its log: retry, not "no room"."""
    client, code, token = moved
    me = client.app.state.rooms.leases.owner  # type: ignore[attr-defined]
    _sql(sqlite_url, "UPDATE room_leases SET owner = :me WHERE room_code = :c", me=me, c=code)
    answer = client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": token})
    assert (answer.status_code, answer.json()["code"]) == (503, "room_moved")


def test_without_an_address_or_a_room_the_answer_is_as_alone(
        moved: tuple[TestClient, str, str], sqlite_url: str) -> None:
    client, code, token = moved
    assert client.get("/api/rooms/ZZZZZZ").json()["code"] == "room_not_found"
    _sql(sqlite_url, "UPDATE room_leases SET owner_url = '' WHERE room_code = :c", c=code)
    answer = client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": token})
    assert (answer.status_code, answer.json()["code"]) == (404, "room_not_found")
    assert client.get("/api/rooms/public").status_code == 200


def test_alone_nothing_is_routed(app_factory: Callable[..., FastAPI], sqlite_url: str) -> None:
    """Outside a cluster the one process serves every room: no lookup, no redirect."""
    with TestClient(app_factory()) as client:
        code = client.post("/api/rooms", json={"pseudo": "Alice"}).json()["code"]
        _sql(sqlite_url, "UPDATE room_leases SET owner = 'other', owner_url = "
                         "'http://10.0.0.9:8000', expires_ms = :far WHERE room_code = :c",
             far=FAR, c=code)
        client.app.state.rooms.rooms.pop(code)  # as if another process held it
        answer = client.get(f"/api/rooms/{code}", follow_redirects=False)
        assert (answer.status_code, answer.json()["code"]) == (404, "room_not_found")
