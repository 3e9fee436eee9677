"""Rooms nobody is connected to are closed after `idle_room_hours`, also across a restart, so
abandoned rooms neither stay in memory nor come back at every start."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

HALF_SECOND = 0.5 / 3600  # in hours


def _wait_closed(app: FastAPI, code: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while app.state.rooms.get(code) is not None and time.monotonic() < deadline:
        time.sleep(0.05)


def _statuses(app: FastAPI) -> dict[str, str]:
    with app.state.db.engine.connect() as conn:
        return dict(conn.execute(text("SELECT code, status FROM rooms")).all())  # type: ignore[arg-type]


def test_idle_rooms_are_closed(app_factory: Callable[..., FastAPI], player_cls: Any) -> None:
    app = app_factory(idle_room_hours=HALF_SECOND)
    with TestClient(app) as client:
        never = client.post("/api/rooms", json={"pseudo": "Léa"}).json()  # nobody connects
        kept = client.post("/api/rooms", json={"pseudo": "Hugo"}).json()
        played = client.post("/api/rooms", json={"pseudo": "Max"}).json()
        bob = client.post(f"/api/rooms/{played['code']}/join", json={"pseudo": "Bob"}).json()
        with contextlib.ExitStack() as stack:
            staying = player_cls(client, kept["code"], kept["token"], 0, stack)
            staying.recv()
            with contextlib.ExitStack() as leaving:
                for token, seat in ((played["token"], 0), (bob["token"], 1)):
                    player_cls(client, played["code"], token, seat, leaving).recv()
                started = client.post(f"/api/rooms/{played['code']}/start",
                                      headers={"X-Seat-Token": played["token"]})
                assert started.json()["status"] == "playing"
            # Both players of the match left; Hugo stays connected to his room.
            _wait_closed(app, never["code"])
            _wait_closed(app, played["code"])
            assert app.state.rooms.get(never["code"]) is None
            assert app.state.rooms.get(played["code"]) is None
            answer = client.get(f"/api/rooms/{played['code']}").json()
            assert answer["code"] == "room_not_found"
            time.sleep(0.6)
            assert app.state.rooms.get(kept["code"]) is not None, "a connected host keeps it"
        statuses = _statuses(app)
        assert statuses[never["code"]] == statuses[played["code"]] == "closed"
        with app.state.db.engine.connect() as conn:
            assert conn.execute(text("SELECT status FROM room_matches")).scalar_one() \
                == "abandoned"


def test_idle_time_counts_across_a_restart(app_factory: Callable[..., FastAPI]) -> None:
    with TestClient(app_factory()) as client:
        old = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
    time.sleep(0.6)
    with TestClient(app_factory(idle_room_hours=HALF_SECOND)) as client:
        fresh = client.post("/api/rooms", json={"pseudo": "Bob"}).json()
        # Idle for longer than the limit before the start: closed at once, not 0.5 s later.
        _wait_closed(client.app, old["code"], seconds=0.3)  # type: ignore[attr-defined]
        assert client.app.state.rooms.get(old["code"]) is None  # type: ignore[attr-defined]
        assert client.app.state.rooms.get(fresh["code"]) is not None  # type: ignore[attr-defined]
    # A closed room does not come back.
    with TestClient(app_factory()) as client:
        assert client.app.state.rooms.get(old["code"]) is None  # type: ignore[attr-defined]
        assert _statuses(client.app)[old["code"]] == "closed"  # type: ignore[arg-type]
