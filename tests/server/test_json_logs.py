"""`YANNIV_LOG_FORMAT=json` (docs/cluster.md, logs): one JSON object a line, the room's code on
every line about a room, the process's id on every line; seat tokens still redacted.

One test runs `yanniv serve` itself (its logging is configured only there) and reads what it
prints; the others put the same formatter on the `yanniv` loggers of an app in this process.
"""

from __future__ import annotations

import io
import json
import logging
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from websockets.sync.client import connect

from tests.live_ws import free_port
from yanniv.server.ops.logs import RoomField, json_formatter

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {"ts", "level", "logger", "msg"}


@pytest.fixture
def json_lines() -> Iterator[Callable[[], list[dict[str, Any]]]]:
    """The `yanniv` loggers' lines, formatted as `yanniv serve` does under `json`."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter(process="test-process"))
    handler.addFilter(RoomField())
    logger = logging.getLogger("yanniv")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_a_rooms_life_is_logged_with_its_code(
        app_factory: Callable[..., FastAPI], table_cls: Any,
        json_lines: Callable[[], list[dict[str, Any]]]) -> None:
    with TestClient(app_factory()) as client, \
            table_cls(client, 2, settings={"manches": 1}) as table:
        table.connect()
        rng = random.Random(8)
        while table.step(rng):
            pass
        code = table.code
    lines = json_lines()
    assert lines and all(set(line) >= FIELDS for line in lines)
    assert all(line["process"] == "test-process" for line in lines)
    about = [line for line in lines if line.get("room") == code]
    messages = [line["msg"] for line in about]
    assert any(m.startswith(f"room {code}: created") for m in messages), messages
    assert any(m.startswith(f"room {code}: match") and "started" in m for m in messages)
    assert any(m.startswith(f"room {code}: match") and m.endswith("finished")
               for m in messages)
    loaded = next(line for line in lines if line["msg"].startswith("loaded "))
    assert "room" not in loaded  # a line about no room names none


def test_a_lost_lease_is_logged_with_the_room(
        app_factory: Callable[..., FastAPI], sqlite_url: str,
        json_lines: Callable[[], list[dict[str, Any]]]) -> None:
    app = app_factory(lease_seconds=1.0, lease_renew_seconds=0.2)
    with TestClient(app) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
        engine = create_engine(sqlite_url)
        with engine.begin() as conn:
            conn.execute(text("UPDATE room_leases SET owner = 'b', epoch = epoch + 1 "
                              "WHERE room_code = :c"), {"c": code})
        engine.dispose()
        deadline = time.monotonic() + 10
        while app.state.rooms.get(code) is not None:
            assert time.monotonic() < deadline, "the renewal noticed"
            time.sleep(0.05)
    lost = [line for line in json_lines() if "lease was taken" in line["msg"]]
    assert [line["room"] for line in lost] == [code]
    assert lost[0]["level"] == "WARNING"


def _record(name: str, msg: str, *args: object, **extra: object) -> logging.LogRecord:
    record = logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)
    record.__dict__.update(extra)
    return record


@pytest.mark.parametrize(("record", "room"), [
    (_record("yanniv.server.rooms.play", "room %s: match %d finished", "ABC234", 3), "ABC234"),
    (_record("yanniv.x", "loaded %d rooms", 4), None),
    (_record("yanniv.x", "anything", room="XYZ789"), "XYZ789"),  # extra= wins
    (_record("uvicorn.error", '%s - "WebSocket %s" [accepted]', "1.2.3.4:5",
             "/ws/mnp234?token=***"), "MNP234"),
    (_record("uvicorn.access", '%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "POST",
             "/api/rooms/QRS567/start", "1.1", 200), "QRS567"),
    (_record("uvicorn.access", '%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "GET",
             "/api/rooms/public", "1.1", 200), None),  # a route, not a code
])
def test_the_room_of_a_line(record: logging.LogRecord, room: str | None) -> None:
    assert RoomField().filter(record)
    assert getattr(record, "room", None) == room


def test_yanniv_serve_prints_json_lines(tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path / 'yanniv.sqlite3'}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "YANNIV_LOG_FORMAT": "json",
           "YANNIV_ADVERTISE_URL": f"http://127.0.0.1:{port}"}
    out, err = tmp_path / "out.log", tmp_path / "err.log"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        server = subprocess.Popen(
            [sys.executable, "-m", "yanniv.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--database-url", url],
            cwd=tmp_path, env=env, stdout=stdout, stderr=stderr)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 30
            while True:
                try:
                    if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert server.poll() is None and time.monotonic() < deadline, err.read_text()
                time.sleep(0.1)
            room = httpx.post(f"{base}/api/rooms", json={"pseudo": "Léa"}).json()
            code, token = room["code"], room["token"]
            with connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}") as ws:
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(20)
    lines = [json.loads(line) for path in (out, err)
             for line in path.read_text().splitlines() if line.strip()]
    assert lines and all(set(line) >= FIELDS for line in lines)
    engine = create_engine(url)
    with engine.connect() as conn:
        owner = conn.execute(text("SELECT owner FROM room_leases")).scalar_one()
    engine.dispose()
    assert {line["process"] for line in lines} == {owner}
    assert {line["advertise"] for line in lines} == {f"http://127.0.0.1:{port}"}
    about = [line for line in lines if line.get("room") == code]
    assert any(line["logger"] == "yanniv.server.rooms.lobby" and "created" in line["msg"]
               for line in about)
    socket_lines = [line for line in about if "WebSocket" in line["msg"]]
    assert socket_lines, about
    assert token not in (out.read_text() + err.read_text())
    assert any("released the leases of 1 rooms" in line["msg"] for line in lines)
