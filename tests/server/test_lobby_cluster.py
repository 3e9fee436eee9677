"""What the processes of a cluster share on Redis (docs/cluster.md): a lobby change on one
process reaches the home-page listeners of another at once (pub/sub; without Redis it waits for
the periodic read: the control), and the per-address socket caps count the sockets of every
live process, a dead process's given back once its heartbeat runs out.

Two apps on one fresh PostgreSQL database, served by uvicorn (the push tests) or TestClient
(the caps tests, each from a fresh random client address: the counts in Redis are shared with
whatever else runs on this machine).
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

FAST = {"cluster": True, "lease_seconds": 1.0, "lease_renew_seconds": 0.2,
        "lobby_refresh_seconds": 600.0}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _two(app_factory: Callable[..., FastAPI], run_uvicorn: Any,
         **settings: Any) -> Iterator[list[str]]:
    """Two processes of one cluster, served: their `host:port`."""
    addresses = []
    with contextlib.ExitStack() as stack:
        for _ in range(2):
            port = _free_port()
            app = app_factory(**settings)
            stack.enter_context(run_uvicorn(uvicorn.Config(app, host="127.0.0.1", port=port,
                                                           log_level="warning")))
            addresses.append(f"127.0.0.1:{port}")
        yield addresses


def _next_list(ws: ClientConnection, wait: float) -> list[str]:
    deadline = time.monotonic() + wait
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "rooms":
            return [room["code"] for room in message["rooms"]]


@pytest.mark.parametrize("shared", [True, False], ids=["redis", "no-redis"])
def test_a_room_opened_on_one_process_reaches_the_other_s_listeners(
        app_factory: Callable[..., FastAPI], run_uvicorn: Any, postgres_url: str,
        redis_url: str, shared: bool) -> None:
    storage = {"redis_url": redis_url} if shared else {"redis_url": "",
                                                       "limits_storage": "memory://"}
    with _two(app_factory, run_uvicorn, url=postgres_url, **FAST, **storage) as (a, b), \
            httpx.Client(base_url=f"http://{a}") as http, \
            connect(f"ws://{b}/ws/lobby") as lobby:
        assert _next_list(lobby, 2.0) == []
        room = http.post("/api/rooms", json={"pseudo": "Alice", "public": True}).json()
        with connect(f"ws://{a}/ws/{room['code']}?token={room['token']}"):
            started = time.monotonic()
            if not shared:  # only the periodic read would bring it (here in 10 minutes)
                with pytest.raises(TimeoutError):
                    _next_list(lobby, 2.5)
                return
            assert _next_list(lobby, 2.0) == [room["code"]]
            assert time.monotonic() - started < 2.0
            http.post(f"/api/rooms/{room['code']}/join", json={"pseudo": "Bob"})
            assert _next_list(lobby, 2.0) == [room["code"]]  # seats_taken changed
        assert _next_list(lobby, 2.0) == []  # the host left A: unlisted on B at once


def test_the_list_follows_a_dead_process_by_the_periodic_read(
        app_factory: Callable[..., FastAPI], run_uvicorn: Any, postgres_url: str,
        redis_url: str) -> None:
    """Nobody announces the rooms of a process that hung: they leave B's listeners' list
    once their lease ran out, at B's next periodic read."""
    settings = {**FAST, "lobby_refresh_seconds": 0.5, "redis_url": redis_url}
    port = _free_port()
    a = app_factory(url=postgres_url, **settings)
    with run_uvicorn(uvicorn.Config(a, host="127.0.0.1", port=port, log_level="warning")), \
            _two(app_factory, run_uvicorn, url=postgres_url, **settings) as (b, _c), \
            connect(f"ws://{b}/ws/lobby") as lobby:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            room = http.post("/api/rooms", json={"pseudo": "Alice", "public": True}).json()
        with connect(f"ws://127.0.0.1:{port}/ws/{room['code']}?token={room['token']}"):
            lists = [_next_list(lobby, 3.0)]
            while lists[-1] != [room["code"]]:
                lists.append(_next_list(lobby, 3.0))
            a.state.rooms.keeper._task.cancel()  # A hangs: no renewal, no word
            assert _next_list(lobby, 4.0) == []


def _address() -> tuple[str, int]:
    return f"198.18.{random.randrange(256)}.{random.randrange(1, 255)}", 40000


def _clients(app_factory: Callable[..., FastAPI], url: str,
             **settings: Any) -> tuple[TestClient, TestClient]:
    client = _address()
    return (TestClient(app_factory(url, **settings), client=client),
            TestClient(app_factory(url, **settings), client=client))


def _refused(client: TestClient, path: str) -> str | None:
    """The refusal's code of a socket to `path`, None if it was admitted."""
    with client.websocket_connect(path) as ws:
        first = ws.receive_json()
        return first["code"] if first["type"] == "error" else None


@pytest.mark.parametrize("shared", [True, False], ids=["redis", "memory"])
def test_the_socket_cap_per_address_counts_both_processes(
        app_factory: Callable[..., FastAPI], postgres_url: str, redis_url: str,
        shared: bool) -> None:
    storage = {"redis_url": redis_url} if shared else {"redis_url": ""}
    a, b = _clients(app_factory, postgres_url, **FAST, **storage, max_sockets_per_ip=3,
                    max_lobby_sockets_per_ip=2)
    with a, b, contextlib.ExitStack() as stack:
        room_a = a.post("/api/rooms", json={"pseudo": "Alice"}).json()
        room_b = b.post("/api/rooms", json={"pseudo": "Bruno"}).json()
        for client, room in ((a, room_a), (a, room_a), (b, room_b)):
            ws = stack.enter_context(client.websocket_connect(f"/ws/{room['code']}"))
            assert ws.receive_json()["type"] == "state"
        lobby = stack.enter_context(a.websocket_connect("/ws/lobby"))
        assert lobby.receive_json()["type"] == "rooms"
        lobby = stack.enter_context(b.websocket_connect("/ws/lobby"))
        assert lobby.receive_json()["type"] == "rooms"
        if shared:  # three sockets on the two: the address is full everywhere
            assert _refused(b, f"/ws/{room_b['code']}") == "too_many_sockets_ip"
            assert _refused(a, f"/ws/{room_a['code']}") == "too_many_sockets_ip"
            assert _refused(a, "/ws/lobby") == "too_many_lobby_sockets"
        else:  # each process counts its own
            assert _refused(b, f"/ws/{room_b['code']}") is None
            assert _refused(a, "/ws/lobby") is None
        stack.close()  # every place given back, on both
        # In Redis by a task each (a socket's close does not wait for it), so a socket opened
        # at once may still find them taken, for a few milliseconds: once this failed.
        deadline = time.monotonic() + 5.0
        while (code := _refused(b, f"/ws/{room_b['code']}")) is not None:
            assert shared and time.monotonic() < deadline, f"places not given back: {code}"
            time.sleep(0.05)


def test_a_dead_process_s_sockets_are_given_back(app_factory: Callable[..., FastAPI],
                                                 postgres_url: str, redis_url: str) -> None:
    a, b = _clients(app_factory, postgres_url, **FAST, redis_url=redis_url,
                    max_sockets_per_ip=2)
    with a, b, contextlib.ExitStack() as stack:
        room = a.post("/api/rooms", json={"pseudo": "Alice"}).json()
        other = b.post("/api/rooms", json={"pseudo": "Bruno"}).json()
        for _ in range(2):
            ws = stack.enter_context(a.websocket_connect(f"/ws/{room['code']}"))
            assert ws.receive_json()["type"] == "state"
        assert _refused(b, f"/ws/{other['code']}") == "too_many_sockets_ip"
        counts = a.app.state.address_counts  # type: ignore[attr-defined]
        a.portal.call(_cancel, counts)  # A's heartbeat stops (hung or dead), sockets still open
        deadline = time.monotonic() + 5.0
        while _refused(b, f"/ws/{other['code']}") is not None:
            assert time.monotonic() < deadline, "A's places never came back"
            time.sleep(0.2)
        # Not at once: after A's heartbeat ran out (a 1 s lease, beaten every 0.2 s; a loaded
        # machine may have run A's last beat late, so less than 0.8 s may be left of it).
        assert time.monotonic() - deadline + 5.0 > 0.2


async def _cancel(counts: Any) -> None:
    counts._task.cancel()  # the heartbeat task


def test_with_redis_away_caps_count_per_process_and_own_changes_are_pushed(
        app_factory: Callable[..., FastAPI], run_uvicorn: Any, sqlite_url: str) -> None:
    """Redis does not answer (nothing listens at its address): sockets are still admitted,
    capped by this process's own count, and its own lobby changes still pushed."""
    nowhere = f"redis://127.0.0.1:{_free_port()}"
    port = _free_port()
    app = app_factory(sqlite_url, **FAST, redis_url=nowhere, max_sockets_per_ip=2)
    address = f"127.0.0.1:{port}"
    with run_uvicorn(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")), \
            connect(f"ws://{address}/ws/lobby") as lobby, contextlib.ExitStack() as stack:
        assert _next_list(lobby, 3.0) == []
        room = httpx.post(f"http://{address}/api/rooms",
                          json={"pseudo": "Alice", "public": True}).json()
        seat = stack.enter_context(
            connect(f"ws://{address}/ws/{room['code']}?token={room['token']}"))
        assert json.loads(seat.recv(timeout=3))["type"] == "state"
        assert _next_list(lobby, 3.0) == [room["code"]]
        watcher = stack.enter_context(connect(f"ws://{address}/ws/{room['code']}"))
        assert json.loads(watcher.recv(timeout=3))["type"] == "state"
        with connect(f"ws://{address}/ws/{room['code']}") as third:
            assert json.loads(third.recv(timeout=3))["code"] == "too_many_sockets_ip"
