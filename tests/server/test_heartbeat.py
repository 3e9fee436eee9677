"""Both halves of the heartbeat under the real server (uvicorn with the options `yanniv serve`
gives it): the client's `ping` gets a `pong` at any time, and the server pings every socket
with WebSocket ping frames and closes one that stops answering, so its seat shows as gone,
but does not ping a socket it hears from anyway (a page's own `ping` messages)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.sync.client import connect
from websockets.uri import parse_uri

from yanniv.server.ops.uvicorn_config import ws_limits

PING_INTERVAL = 0.4
PING_TIMEOUT = 0.8


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(app_factory: Callable[..., FastAPI], run_uvicorn: Any) -> Iterator[str]:
    app = app_factory(ws_ping_interval=PING_INTERVAL, ws_ping_timeout=PING_TIMEOUT)
    limits = ws_limits(app.state.settings)
    assert limits["ws_ping_interval"] == PING_INTERVAL  # what `yanniv serve` hands uvicorn
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **limits)
    with run_uvicorn(config):
        yield f"127.0.0.1:{port}"


def _room(address: str, seats: int) -> tuple[str, list[str]]:
    with httpx.Client(base_url=f"http://{address}") as http:
        host = http.post("/api/rooms", json={"pseudo": "Léa"}).json()
        tokens = [host["token"]]
        for n in range(1, seats):
            joined = http.post(f"/api/rooms/{host['code']}/join", json={"pseudo": f"J{n}"})
            tokens.append(joined.json()["token"])
    return host["code"], tokens


def _next(ws: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        if message["type"] == kind:
            return message


def test_ping_gets_pong_whenever_the_client_asks(served: str) -> None:
    code, tokens = _room(served, 1)
    with connect(f"ws://{served}/ws/{code}?token={tokens[0]}") as ws:
        _next(ws, "state")
        for _ in range(3):
            ws.send(json.dumps({"type": "ping"}))
            assert _next(ws, "pong") == {"type": "pong"}
            time.sleep(PING_INTERVAL)  # idle in between: the socket stays open
        ws.send(json.dumps({"type": "ping", "id": "x"}))  # the message is exactly `ping`
        assert _next(ws, "error")["code"] == "bad_message"


class RawSocket:
    """A WebSocket client on a plain TCP socket that sees the server's ping frames and answers
    them only when told to (`answer`): a client whose network silently died answers nothing."""

    def __init__(self, address: str, path: str, answer: bool) -> None:
        host, port = address.split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=0.2)
        self.proto = ClientProtocol(parse_uri(f"ws://{address}{path}"))
        self.answer = answer
        self.pings = 0
        self.texts: list[dict[str, Any]] = []
        self.closed = False
        self.proto.send_request(self.proto.connect())
        self._flush(force=True)

    def _flush(self, force: bool = False) -> None:
        data = b"".join(self.proto.data_to_send())
        if data and (self.answer or force):
            self.sock.sendall(data)

    def pump(self, seconds: float) -> None:
        """Read what the server sends for `seconds` (or until it closes)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end and not self.closed:
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                self.closed = True
                return
            self.proto.receive_data(data)
            for event in self.proto.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.PING:
                    self.pings += 1
                elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    self.texts.append(json.loads(event.data))
                elif isinstance(event, Frame) and event.opcode is Opcode.CLOSE:
                    self.closed = True
                else:
                    assert isinstance(event, Response | Frame), event
            self._flush()

    def send_text(self, message: dict[str, Any]) -> None:
        self.proto.send_text(json.dumps(message).encode())
        self._flush(force=True)

    def close(self) -> None:
        self.sock.close()


def test_the_server_pings_and_closes_a_socket_that_stops_answering(served: str) -> None:
    code, tokens = _room(served, 2)
    alive = RawSocket(served, f"/ws/{code}?token={tokens[0]}", answer=True)
    silent = RawSocket(served, f"/ws/{code}?token={tokens[1]}", answer=False)
    try:
        started = time.monotonic()
        budget = 10 * (PING_INTERVAL + PING_TIMEOUT)
        while not silent.closed and time.monotonic() - started < budget:
            silent.pump(0.1)
            alive.pump(0.1)
        print(f"silent socket closed after {time.monotonic() - started:.2f} s "
              f"(ping every {PING_INTERVAL} s, timeout {PING_TIMEOUT} s)")
        assert silent.closed, "the server closed the socket that answered no ping"
        assert silent.pings >= 1
        alive.pump(PING_INTERVAL * 4)
        assert not alive.closed and alive.pings >= 2, "the answering socket stays open"
        presence = [m for m in alive.texts if m["type"] == "presence"]
        assert presence and {"seat": 1, "connected": False} in presence[-1]["seats"]
    finally:
        alive.close()
        silent.close()


def test_a_socket_heard_from_within_the_interval_is_not_pinged(served: str) -> None:
    """Anything a client sends proves it alive as a pong does: a page that sends its own
    `ping` message more often than the server's interval gets no ping frame, and one that
    falls silent is pinged again (and closed if it then answers nothing)."""
    code, tokens = _room(served, 2)
    chatty = RawSocket(served, f"/ws/{code}?token={tokens[0]}", answer=False)
    try:
        chatty.pump(0.2)  # the handshake's answer and the room's state
        end = time.monotonic() + 6 * PING_INTERVAL
        while time.monotonic() < end:
            chatty.send_text({"type": "ping"})
            last_sent = time.monotonic()
            chatty.pump(PING_INTERVAL / 4)
        assert not chatty.closed
        assert chatty.pings == 0, "a socket heard from within the interval needs no ping"
        assert sum(m["type"] == "pong" for m in chatty.texts) >= 12  # its messages were read
        while not chatty.closed and time.monotonic() - last_sent < 10 * (PING_INTERVAL
                                                                           + PING_TIMEOUT):
            chatty.pump(0.05)
        assert chatty.pings >= 1 and chatty.closed, "silent again: pinged, then closed"
        silent_for = time.monotonic() - last_sent
        print(f"pinged and closed {silent_for:.2f} s after its last message")
        # Not before the interval and the timeout (the heartbeat looks every 0.05 s).
        assert silent_for >= PING_INTERVAL + PING_TIMEOUT - 0.06
    finally:
        chatty.close()
