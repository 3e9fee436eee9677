"""The lobby over HTTP: public list, settings, removing a player, start, rematch, cookie, and
a match played through a real uvicorn server with `websockets` clients."""

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
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from yanniv.profiles.identity import hash_secret


def test_public_rooms_listed_while_waiting(client: TestClient) -> None:
    public = client.post("/api/rooms", json={"pseudo": "Léa", "public": True}).json()
    client.post("/api/rooms", json={"pseudo": "Max"})  # private
    assert client.get("/api/rooms/public").json() == []  # nobody connected yet
    with client.websocket_connect(f"/ws/{public['code']}?token={public['token']}") as ws:
        ws.receive_json()
        listed = client.get("/api/rooms/public").json()
    assert client.get("/api/rooms/public").json() == []  # the host left
    assert [r["code"] for r in listed] == [public["code"]]
    assert listed[0]["host"] == "Léa"
    assert (listed[0]["seats_taken"], listed[0]["seats_free"]) == (1, 3)
    client.post(f"/api/rooms/{public['code']}/join", json={"pseudo": "Bob"})
    with client.websocket_connect(f"/ws/{public['code']}?token={public['token']}") as ws:
        ws.receive_json()
        assert client.get("/api/rooms/public").json()[0]["seats_taken"] == 2
        client.post(f"/api/rooms/{public['code']}/start",
                    headers={"X-Seat-Token": public["token"]})
        assert client.get("/api/rooms/public").json() == []


def test_owner_cookie_set_once(client: TestClient) -> None:
    first = client.get("/api/rooms/public")
    cookie = first.headers.get("set-cookie", "")
    assert cookie.startswith("yanniv_owner=") and "HttpOnly" in cookie
    assert "set-cookie" not in client.get("/api/rooms/public").headers


def test_seats_store_the_owner_hash_not_the_cookie(client: TestClient, sqlite_url: str) -> None:
    """Reading the database does not hand out the browsers' owner cookies."""
    code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
    secret = client.cookies["yanniv_owner"]
    engine = create_engine(sqlite_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT * FROM room_seats WHERE room_code = :c"),
                                {"c": code}).mappings().all()
    finally:
        engine.dispose()
    assert [row["owner_hash"] for row in rows] == [hash_secret(secret)]
    assert not any(secret in str(value) for row in rows for value in row.values())


def test_host_settings_remove_start_rematch(client: TestClient, player_cls: Any) -> None:
    host = client.post("/api/rooms", json={"pseudo": "  Léa  "}).json()
    assert host["room"]["seats"][0]["pseudo"] == "Léa"
    code, headers = host["code"], {"X-Seat-Token": host["token"]}
    bob = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"}).json()
    cleo = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Cléo"}).json()
    patched = client.patch(f"/api/rooms/{code}/settings", headers=headers, json={
        "public": True, "manches": 1, "first_player": 2, "show_known_cards": False,
        "log_visible": False, "timer_seconds": 30})
    assert patched.status_code == 200, patched.text
    assert patched.json()["settings"] == {
        "game": "yanniv", "public": True, "manches": 1, "first_player": 2,
        "show_known_cards": False, "log_visible": False, "timer_seconds": 30,
        "mandatory_powers": True, "play_taken_discard": False}
    with client.websocket_connect(f"/ws/{code}?token={bob['token']}") as bob_ws:
        assert bob_ws.receive_json()["type"] == "state"
        removed = client.delete(f"/api/rooms/{code}/seats/1", headers=headers)
        assert removed.status_code == 200
        with pytest.raises(WebSocketDisconnect):
            while True:
                message = bob_ws.receive_json()
                if message["type"] == "error":
                    assert message["code"] == "seat_removed"
    room = removed.json()
    assert [(s["seat"], s["pseudo"]) for s in room["seats"]] == [(0, "Léa"), (1, "Cléo")]
    assert room["settings"]["first_player"] == "random"  # seat 2 is gone
    assert client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": cleo["token"]}).json()[
        "your_seat"] == 1
    assert client.post(f"/api/rooms/{code}/start",
                       headers={"X-Seat-Token": bob["token"]}).json()["code"] == "bad_token"
    client.patch(f"/api/rooms/{code}/settings", headers=headers,
                 json={"first_player": "host", "timer_seconds": None})
    started = client.post(f"/api/rooms/{code}/start", headers=headers).json()
    assert started["status"] == "playing"
    late = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Dan"})
    assert late.json()["code"] == "room_started"
    # Play the one manche out, then ask for a rematch.
    rooms = client.app.state.rooms
    room_obj = rooms.get(code)
    assert room_obj.match.state.turn == 0  # the host starts
    with contextlib.ExitStack() as stack:
        players = [player_cls(client, code, t, n, stack) for n, t in
                   enumerate([host["token"], cleo["token"]])]
        rng = random.Random(4)
        while True:
            states = [p.wait_version(room_obj.version) for p in players]
            if states[0]["view"]["finished"]:
                break
            seat = states[0]["view"]["pending"]["seat"]
            assert players[seat].act(rng.choice(states[seat]["view"]["legal_actions"]),
                                     states[seat]["version"])["type"] == "ack"
    rematch = client.post(f"/api/rooms/{code}/rematch",
                          headers={"X-Seat-Token": cleo["token"]}).json()
    assert rematch["status"] == "waiting"
    assert [s["pseudo"] for s in rematch["seats"]] == ["Léa", "Cléo"]
    assert client.post(f"/api/rooms/{code}/start", headers=headers).json()["status"] == "playing"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def live_server(app_factory: Callable[..., FastAPI], run_uvicorn: Any) -> Iterator[str]:
    port = _free_port()
    with run_uvicorn(uvicorn.Config(app_factory(), host="127.0.0.1", port=port,
                                    log_level="warning", ws_max_size=65536)):
        yield f"127.0.0.1:{port}"


def test_real_server_and_clients(live_server: str) -> None:
    base = f"http://{live_server}"
    with httpx.Client(base_url=base) as http:
        host = http.post("/api/rooms", json={"pseudo": "Léa"}).json()
        other = http.post(f"/api/rooms/{host['code']}/join", json={"pseudo": "Bob"}).json()
        http.patch(f"/api/rooms/{host['code']}/settings", json={"manches": 1},
                   headers={"X-Seat-Token": host["token"]})
        http.post(f"/api/rooms/{host['code']}/start", headers={"X-Seat-Token": host["token"]})
    stack = contextlib.ExitStack()
    sockets = [stack.enter_context(connect(f"ws://{live_server}/ws/{host['code']}?token={t}"))
               for t in (host["token"], other["token"])]
    rng = random.Random(9)
    latest: list[dict[str, Any]] = [{}, {}]

    def read_state(n: int, version: int) -> dict[str, Any]:
        while latest[n].get("version", -1) < version:
            message = json.loads(sockets[n].recv(timeout=10))
            if message["type"] == "state":
                latest[n] = message
        return latest[n]

    try:
        version = 0
        while True:
            states = [read_state(n, version) for n in range(2)]
            version = max(s["version"] for s in states)
            states = [read_state(n, version) for n in range(2)]
            if states[0]["view"]["finished"]:
                break
            seat = states[0]["view"]["pending"]["seat"]
            action = rng.choice(states[seat]["view"]["legal_actions"])
            sockets[seat].send(json.dumps({"type": "action", "id": f"a{version}",
                                           "version": version, "action": action}))
            version += 1
        assert sorted(states[0]["view"]["ranking"]) == [0, 1]
    finally:
        stack.close()


def test_yanniv_serve_command(tmp_path: Any) -> None:
    """`yanniv serve --database-url ...` runs the whole app with one command."""
    import subprocess
    import sys

    port = _free_port()
    url = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    process = subprocess.Popen(
        [sys.executable, "-m", "yanniv.cli", "serve", "--port", str(port), "--database-url", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.time() + 20
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/rooms/public", timeout=1)
                break
            except httpx.HTTPError:
                assert time.time() < deadline, "server did not start"
                time.sleep(0.1)
        assert response.status_code == 200 and response.json() == []
        assert (tmp_path / "serve.sqlite3").exists()
        assert httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
    finally:
        process.terminate()
        process.wait(10)
