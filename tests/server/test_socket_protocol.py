"""`socket_protocol.SocketProtocol`, the WebSocket protocol `yanniv serve` runs, against the
`websockets` package's own client protocol as the oracle: its frames, its reads (paused only
once `ws_max_queue` messages wait), its one write for an `ack` and its state, and its fallback
to uvicorn's path when the transport holds writes back. The heartbeat under a real server is
in `test_heartbeat.py`, slow readers in `test_slow_socket.py`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from tests.fresh_loop import run_fresh
from yanniv.server.realtime.connections import Connection
from yanniv.server.realtime.socket_protocol import (
    PING_FRAME,
    WRITE_TEXT,
    SocketProtocol,
    text_frame,
)


class FakeTransport(asyncio.Transport):
    """Records writes and read pauses; `hold` makes the protocol see a full send buffer."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.reading = True
        self.pauses = 0
        self.closing = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def pause_reading(self) -> None:
        self.reading = False
        self.pauses += 1

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default)


class Client:
    """The client side, by `websockets`' own sans-I/O protocol (frames parsed by it)."""

    def __init__(self) -> None:
        self.proto = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/ABCDEF"))
        self.proto.send_request(self.proto.connect())

    def out(self) -> bytes:
        return b"".join(self.proto.data_to_send())

    def text(self, text: str) -> bytes:
        self.proto.send_text(text.encode())
        return self.out()

    def read(self, data: bytes) -> list[Any]:
        self.proto.receive_data(data)
        return [e for e in self.proto.events_received() if not isinstance(e, Response)]


def _served(app: Any, **options: Any) -> tuple[SocketProtocol, FakeTransport, Client]:
    config = uvicorn.Config(app, ws=SocketProtocol, log_level="warning", lifespan="off",
                            **options)
    config.load()
    proto = SocketProtocol(config, ServerState(), {}, asyncio.get_running_loop())
    transport = FakeTransport()
    proto.connection_made(transport)
    client = Client()
    proto.data_received(client.out())
    return proto, transport, client


async def _accepting(scope: Any, receive: Any, send: Any) -> None:
    """An app that accepts the socket, then waits for its disconnect."""
    await receive()
    await send({"type": "websocket.accept"})
    await receive()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_reads_back_as_the_same_text(size: int) -> None:
    client = Client()
    client.read(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Accept: "
                + _accept_key(client).encode() + b"\r\n\r\n")
    text = ("é" * size)[:size] if size % 2 else "x" * size
    data = text.encode()
    [frame] = client.read(text_frame(data))
    assert isinstance(frame, Frame) and frame.opcode is Opcode.TEXT and frame.fin
    assert bytes(frame.data) == data


def _accept_key(client: Client) -> str:
    import base64
    import hashlib

    key = client.proto.key
    digest = hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
    return base64.b64encode(digest).decode()


def test_reads_pause_only_once_the_queue_is_full() -> None:
    async def scenario() -> None:
        received: list[str] = []
        go = asyncio.Event()

        async def app(scope: Any, receive: Any, send: Any) -> None:
            assert WRITE_TEXT in scope["extensions"]
            await receive()
            await send({"type": "websocket.accept"})
            await go.wait()
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                received.append(message["text"])

        proto, transport, client = _served(app, ws_max_queue=3)
        await _settle()
        client.read(b"".join(transport.writes))  # the handshake's response
        assert proto.request is None and proto.response is None  # the handshake is let go
        for n in range(2):
            proto.data_received(client.text(f"m{n}"))
        assert transport.reading and transport.pauses == 0  # two waiting: reading goes on
        proto.data_received(client.text("m2"))
        assert not transport.reading  # the third fills the queue
        go.set()
        await _settle()
        assert received == ["m0", "m1", "m2"] and transport.reading
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


async def _connection() -> tuple[SocketProtocol, FakeTransport, Client, Connection]:
    """A socket accepted by an app that holds it as a `Connection`; the handshake read."""
    conns: list[Connection] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        from starlette.websockets import WebSocket

        ws = WebSocket(scope, receive, send)
        await ws.accept()
        conns.append(Connection(ws, None, 8))
        await ws.receive()

    proto, transport, client = _served(app)
    await _settle()
    client.read(b"".join(transport.writes))  # the handshake's response
    transport.writes.clear()
    return proto, transport, client, conns[0]


def test_an_ack_and_its_state_go_in_one_write_and_in_order() -> None:
    async def scenario() -> None:
        proto, transport, client, conn = await _connection()
        conn.send_both(b'{"type":"ack"}', '{"type":"state","é":1}')
        assert len(transport.writes) == 1
        texts = [bytes(f.data).decode() for f in client.read(transport.writes[0])]
        assert texts == ['{"type":"ack"}', '{"type":"state","é":1}']
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


def test_a_held_back_transport_sends_through_uvicorn_once_it_drains() -> None:
    async def scenario() -> None:
        proto, transport, client, conn = await _connection()
        proto.pause_writing()
        conn.send_both(b'{"n":1}', b'{"n":2}')
        conn.send(b'{"n":3}')
        await _settle()
        assert transport.writes == []  # nothing jumps the held-back queue
        proto.resume_writing()
        await _settle()
        texts = [bytes(f.data).decode() for f in client.read(b"".join(transport.writes))]
        assert texts == ['{"n":1}', '{"n":2}', '{"n":3}']
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


def test_the_heartbeat_pings_and_closes_a_socket_without_pong() -> None:
    async def scenario() -> None:
        proto, transport, client = _served(_accepting, ws_ping_interval=5.0, ws_ping_timeout=10.0)
        await _settle()
        client.read(b"".join(transport.writes))
        transport.writes.clear()
        heard = proto.heard_at  # the handshake: heard from, so no ping within 5 s of it
        assert proto.beat(heard + 1.0) == heard + 5.0 and transport.writes == []
        start = heard + 5.0
        assert proto.beat(start) == start + 5.0 and transport.writes == [PING_FRAME]
        [ping] = client.read(PING_FRAME)
        assert ping.opcode is Opcode.PING
        proto.heard_at = start + 1.0  # the loop's clock when the client's pong is read:
        proto.data_received(client.out())
        proto.heard_at = start + 1.0  # (set by the read; pinned here to a known time)
        assert not proto.awaiting_pong
        assert proto.beat(start + 5.0) == start + 6.0  # heard 4 s ago: no ping yet
        assert proto.beat(start + 6.0) == start + 11.0 and len(transport.writes) == 2
        assert proto.beat(start + 11.0) == start + 16.0  # not answered: wait for the timeout
        assert len(transport.writes) == 2
        assert proto.beat(start + 16.0) is None and proto.close_sent and transport.closing
        [close] = client.read(transport.writes[-1])
        assert close.opcode is Opcode.CLOSE and close.data[:2] == (1011).to_bytes(2, "big")
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


def test_every_heartbeat_turn_comes_back_later_than_now_on_a_millisecond_clock() -> None:
    """uvloop's clock counts whole milliseconds: at a turn exactly one interval after the
    last thing heard (or one timeout after an unanswered ping), the difference of two clock
    readings can fall a hair short of it. `beat` must then ping (or close), not name `now`
    as its next turn, which kept the heartbeat's loop calling it forever (the event loop
    hung)."""
    async def scenario() -> None:
        proto, _transport, _client = _served(_accepting, ws_ping_interval=0.4, ws_ping_timeout=0.8)
        await _settle()
        # The readings where the difference says "not yet" and the sum says "now".
        both = 0
        for ms in range(5_632_000, 5_634_000):
            heard, now = ms / 1000, (ms + 400) / 1000
            both += now - heard < 0.4 and heard + 0.4 <= now
            proto.awaiting_pong = False
            proto.heard_at = heard
            again = proto.beat(now)
            assert again is not None and again > now, (heard, now, again)
        assert both, "no reading where the difference and the sum disagree"
        ms = next(ms for ms in range(1_000_000, 2_000_000)
                  if (ms + 800) / 1000 - ms / 1000 < 0.8 and ms / 1000 + 0.8 <= (ms + 800) / 1000)
        proto.awaiting_pong = True
        proto.ping_sent_at = ms / 1000
        proto.heard_at = proto.ping_sent_at - 1.0  # nothing heard since the ping
        assert proto.beat((ms + 800) / 1000) is None and proto.close_sent  # closed, at once
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


def test_frames_whole_or_not_reach_the_app_as_the_client_sent_them() -> None:
    """Whole frames alone in a read take the protocol's own path, the rest (several frames
    in one read, a frame in two reads, fragments, a long one) the `websockets` parser: the
    app reads every message, in order, and pongs are heard either way."""
    async def scenario() -> None:
        received: list[str] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return
                received.append(message["text"])

        proto, transport, client = _served(app, ws_max_queue=100, ws_ping_interval=5.0)
        await _settle()
        client.read(b"".join(transport.writes))
        parsed: list[int] = []
        library = proto.conn.receive_data
        proto.conn.receive_data = lambda data: parsed.append(len(data)) or library(data)
        expected = []
        for n, text in enumerate(["a", "é" * 40, "x" * 125, "y" * 126, "z" * 3000,
                                  "w" * 70000]):
            proto.data_received(client.text(text))
            expected.append(text)
            await _settle()
            assert received == expected, n
        assert len(parsed) == 1  # the 70,000 bytes one only: 8 bytes of length
        both = client.text("one") + client.text("two")
        proto.data_received(both)
        halves = client.text("three" * 10)
        proto.data_received(halves[:5])
        proto.data_received(halves[5:])
        client.proto.send_text(b"fo", fin=False)
        client.proto.send_continuation(b"ur", fin=True)
        proto.data_received(client.out())
        await _settle()
        assert received[len(expected):] == ["one", "two", "three" * 10, "four"]
        for pong in (client_pong(client), client_pong(client)[:3]):
            proto.awaiting_pong = True
            proto.data_received(pong)
            if len(pong) > 3:
                assert not proto.awaiting_pong
        assert proto.awaiting_pong  # a part of a pong is not one
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


def test_a_whole_frame_over_the_size_cap_is_refused_by_the_parser() -> None:
    async def scenario() -> None:
        proto, transport, client = _served(_accepting, ws_max_size=100)
        await _settle()
        client.read(b"".join(transport.writes))
        transport.writes.clear()
        proto.data_received(client.text("x" * 101))
        [close] = client.read(b"".join(transport.writes))
        assert close.opcode is Opcode.CLOSE and close.data[:2] == (1009).to_bytes(2, "big")
        proto.connection_lost(None)
        await _settle()

    run_fresh(scenario)


def client_pong(client: Client) -> bytes:
    client.proto.send_pong(b"")
    return client.out()
