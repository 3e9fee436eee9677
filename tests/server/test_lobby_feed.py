"""The lobby channel `/ws/lobby` of one process (docs/PROTOCOL.md §5.7): the public list is
pushed when it changes, not when a page asks; bursts make few pushes; a listener's backlog is
one list; listeners are capped per address; the channel answers pings and nothing else.

The periodic read (`lobby_refresh_seconds`) is set far beyond each test's waits, so a list
that arrives in time was pushed by a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
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

from tests.fresh_loop import run_fresh
from yanniv.games import get_game
from yanniv.server.ops.uvicorn_config import ws_limits
from yanniv.server.realtime.lobby_feed import Listener

NO_REFRESH = {"lobby_refresh_seconds": 600.0}
MAX_SEATS = get_game("yanniv").max_seats
#: How long a pushed list may take (the push interval is 0.25 s).
PUSHED_WITHIN = 2.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(app_factory: Callable[..., FastAPI], run_uvicorn: Any) -> Iterator[tuple[str, FastAPI]]:
    app = app_factory(**NO_REFRESH)
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            **ws_limits(app.state.settings))
    with run_uvicorn(config):
        yield f"127.0.0.1:{port}", app


def next_list(ws: ClientConnection, wait: float = PUSHED_WITHIN) -> list[dict[str, Any]]:
    """The next `rooms` message within `wait` seconds (TimeoutError otherwise)."""
    deadline = time.monotonic() + wait
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "rooms":
            return message["rooms"]


def codes(rooms: list[dict[str, Any]]) -> list[str]:
    return [room["code"] for room in rooms]


def test_the_list_is_pushed_as_rooms_open_fill_and_close(served: tuple[str, FastAPI]) -> None:
    address, _app = served
    with httpx.Client(base_url=f"http://{address}") as http, \
            connect(f"ws://{address}/ws/lobby") as lobby:
        assert next_list(lobby) == []  # the list at once on connecting
        room = http.post("/api/rooms", json={"pseudo": "Alice", "public": True}).json()
        private = http.post("/api/rooms", json={"pseudo": "Zoé"}).json()
        with connect(f"ws://{address}/ws/{private['code']}?token={private['token']}"), \
                pytest.raises(TimeoutError):  # a private room changes nothing listed
            next_list(lobby, 0.8)
        started = time.monotonic()
        with connect(f"ws://{address}/ws/{room['code']}?token={room['token']}") as host:
            listed = next_list(lobby)
            assert time.monotonic() - started < PUSHED_WITHIN
            assert [(r["code"], r["host"], r["seats_taken"]) for r in listed] == [
                (room["code"], "Alice", 1)]
            http.post(f"/api/rooms/{room['code']}/join", json={"pseudo": "Bob"})
            assert [r["seats_taken"] for r in next_list(lobby)] == [2]
            headers = {"X-Seat-Token": room["token"]}
            assert http.post(f"/api/rooms/{room['code']}/start", headers=headers).is_success
            assert next_list(lobby) == []  # started: no longer waiting for players
            assert http.post(f"/api/rooms/{room['code']}/start", headers=headers).status_code \
                == 409
            host.close()
        # Back to the lobby after a match would list it again; here the host leaves a new
        # room instead: its departure unlists it.
        other = http.post("/api/rooms", json={"pseudo": "Chloé", "public": True}).json()
        with connect(f"ws://{address}/ws/{other['code']}?token={other['token']}"):
            assert codes(next_list(lobby)) == [other["code"]]
        assert next_list(lobby) == []


def test_a_burst_of_changes_makes_few_pushes(app_factory: Callable[..., FastAPI],
                                             run_uvicorn: Any) -> None:
    app = app_factory(lobby_push_interval=1.0, **NO_REFRESH)
    port = _free_port()
    address = f"127.0.0.1:{port}"
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    with run_uvicorn(config), httpx.Client(base_url=f"http://{address}") as http, \
            connect(f"ws://{address}/ws/lobby") as lobby:
        assert next_list(lobby) == []
        room = http.post("/api/rooms", json={"pseudo": "Alice", "public": True}).json()
        with connect(f"ws://{address}/ws/{room['code']}?token={room['token']}"):
            assert codes(next_list(lobby)) == [room["code"]]
            feed = app.state.lobby_feed
            before = feed.pushes
            started = time.monotonic()
            for _ in range(MAX_SEATS - 1):  # the table fills up within one push interval
                added = http.post(f"/api/rooms/{room['code']}/bots", json={"level": "facile"},
                                  headers={"X-Seat-Token": room["token"]})
                assert added.is_success, added.text
            assert time.monotonic() - started < 0.9, "the burst was too slow to test"
            seen = [codes(next_list(lobby, 3.0))]
            if seen[-1]:  # a push fell inside the burst: the next one shows the full table
                seen.append(codes(next_list(lobby, 3.0)))
            assert seen[-1] == [] and len(seen) <= 2  # not one push per seat
            time.sleep(1.5)
            assert feed.pushes - before == len(seen)


def test_a_slow_listener_holds_one_list() -> None:
    """A listener whose socket does not drain keeps only the newest list, however many come."""

    class Stuck:
        def __init__(self) -> None:
            self.sent: list[str] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text)
            await asyncio.sleep(3600)

        async def close(self, code: int) -> None:
            pass

    async def run() -> tuple[list[str], str | None]:
        ws = Stuck()
        listener = Listener(ws)  # type: ignore[arg-type]
        writer = asyncio.create_task(listener.write_loop())
        listener.offer("list 0")
        await asyncio.sleep(0.01)  # the writer is now stuck sending it
        for n in range(1, 10_001):
            listener.offer(f"list {n}")
        kept = listener._list  # the one slot is what is checked
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer
        return ws.sent, kept

    sent, kept = run_fresh(run)
    assert sent == ["list 0"] and kept == "list 10000"


def test_listeners_are_capped_per_address(app_factory: Callable[..., FastAPI]) -> None:
    with TestClient(app_factory(max_lobby_sockets_per_ip=2)) as client, \
            contextlib.ExitStack() as stack:
        first = stack.enter_context(client.websocket_connect("/ws/lobby"))
        second = stack.enter_context(client.websocket_connect("/ws/lobby"))
        assert first.receive_json() == second.receive_json() == {"type": "rooms", "rooms": []}
        with client.websocket_connect("/ws/lobby") as third:
            refusal = third.receive_json()
            assert (refusal["type"], refusal["code"]) == ("error", "too_many_lobby_sockets")
            assert third.receive()["code"] == 4430
        # Room sockets have their own cap: a full lobby does not stop a player.
        room = client.post("/api/rooms", json={"pseudo": "Alice"}).json()
        with client.websocket_connect(f"/ws/{room['code']}?token={room['token']}") as seat:
            assert seat.receive_json()["type"] == "state"
        first.close()  # its place comes back once the server saw the close
        deadline = time.monotonic() + 5.0
        while True:
            with client.websocket_connect("/ws/lobby") as again:
                if again.receive_json()["type"] == "rooms":
                    break
            assert time.monotonic() < deadline, "the closed listener's place never came back"
            time.sleep(0.05)


def test_the_channel_answers_pings_and_refuses_anything_else(
        app_factory: Callable[..., FastAPI]) -> None:
    with TestClient(app_factory(flood_rate=1.0, flood_burst=4)) as client, \
            client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json()["type"] == "rooms"
        lobby.send_json({"type": "ping"})
        assert lobby.receive_json() == {"type": "pong"}
        lobby.send_json({"type": "action", "id": "x", "version": 1, "action": {}})
        assert lobby.receive_json()["code"] == "unknown_type"
        lobby.send_text("{")
        assert lobby.receive_json()["code"] == "bad_json"
        lobby.send_text("[]")
        assert lobby.receive_json()["code"] == "unknown_type"
        lobby.send_json({"type": "ping"})  # the fifth message of a burst of four
        assert lobby.receive_json()["code"] == "flood"
        assert lobby.receive()["code"] == 4008
