"""`ws.SocketReader` under `yanniv serve`, where the protocol hands it each message as it
arrives (`socket_protocol.READ_TEXT`): answers keep the order of the messages, whatever
waits for the room; the flood limit, the size limit and bad JSON are answered as on the
reader loop; a socket waiting for its next message holds no coroutine for it; and messages
that came before the reader took over reach it first, in order (at the protocol level)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from tests.fresh_loop import run_fresh
from tests.live_ws import free_port
from tests.server.test_socket_frames import _wait_for_chains
from tests.server.test_socket_protocol import _served, _settle
from yanniv.app import server_config
from yanniv.server.settings import Settings


def _serve(sqlite_url: str, run_uvicorn: Any, **overrides: Any) -> Any:
    port = free_port()
    config = server_config(Settings(database_url=sqlite_url, **overrides), "127.0.0.1", port,
                           log_level="warning", tune_gc=False)
    return run_uvicorn(config), f"127.0.0.1:{port}"


def _seat_url(base: str) -> str:
    created = httpx.post(f"http://{base}/api/rooms", json={"pseudo": "Lecteur"}).json()
    return f"ws://{base}/ws/{created['code']}?token={created['token']}"


def _answers(ws: Any, count: int) -> list[dict[str, Any]]:
    """The next `count` answers (errors, pongs, acks): not `state` or `presence`."""
    found = []
    while len(found) < count:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] not in ("state", "presence"):
            found.append(message)
    return found


def test_answers_keep_the_order_of_the_messages(sqlite_url: str, run_uvicorn: Any) -> None:
    """An action goes to the room in a task of its own; the ping sent right behind it is
    answered after it, and a socket between two messages waits only for its
    disconnect (no coroutine re-made for each message)."""
    serving, base = _serve(sqlite_url, run_uvicorn)
    with serving, ws_connect(_seat_url(base)) as seat:
        seat.recv(timeout=5)
        action = {"type": "action", "id": "a1", "version": 0, "action": {"type": "draw"}}
        seat.send(json.dumps(action))
        seat.send(json.dumps({"type": "ping"}))  # while the action is with the room
        first, second = _answers(seat, 2)
        assert first["type"] == "error" and first["id"] == "a1", first
        assert second["type"] == "pong", second
        [chain] = _wait_for_chains("room_socket")
    assert "_read_loop" not in chain and chain[-1] == "WebSocketsSansIOProtocol.receive", chain


def test_flood_size_and_bad_json_are_answered_as_before(sqlite_url: str,
                                                        run_uvicorn: Any) -> None:
    serving, base = _serve(sqlite_url, run_uvicorn, flood_rate=1.0, flood_burst=4,
                           max_message_bytes=200)
    with serving, ws_connect(_seat_url(base)) as seat:
        seat.recv(timeout=5)
        seat.send("{not json")
        assert _answers(seat, 1)[0]["code"] == "bad_json"
        seat.send(json.dumps({"type": "ping", "pad": "x" * 300}))
        assert _answers(seat, 1)[0]["code"] == "message_too_large"
        seat.send(json.dumps({"type": "ping"}))
        assert _answers(seat, 1)[0]["type"] == "pong"
        # The server may close the socket before the last ping is sent: that send raises,
        # and what the server answered before closing is still read below.
        with contextlib.suppress(ConnectionClosed):
            for _ in range(3):
                seat.send(json.dumps({"type": "ping"}))
        answers = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                answers.append(json.loads(seat.recv(timeout=5)))
        assert answers[-1]["code"] == "flood", answers
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008


def test_messages_waiting_before_the_reader_reach_it_first() -> None:
    """What came while the app had not taken over yet is handed to the taker first, in
    order (text and binary); a disconnect waiting behind them stays for `receive`."""

    async def scenario() -> None:
        taken: list[Any] = []

        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            await asyncio.Event().wait()

        proto, transport, client = _served(app, ws_max_queue=100)
        await _settle()
        client.read(b"".join(transport.writes))
        proto.data_received(client.text("un") + client.text("deux"))
        client.proto.send_binary(b"trois")
        proto.data_received(client.out())
        proto.queue.put_nowait({"type": "websocket.disconnect", "code": 1000})
        proto.read_text(taken.append)
        proto.data_received(client.text("quatre"))
        assert taken == ["un", "deux", b"trois", "quatre"]
        assert (await proto.queue.get())["type"] == "websocket.disconnect"
        proto.read_text(None)
        proto.data_received(client.text("cinq"))
        assert (await proto.queue.get())["text"] == "cinq"

    run_fresh(scenario)
