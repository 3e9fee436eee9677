"""A client that stops reading (a stalled phone, a hostile script) under a real uvicorn: its
socket's queue stays bounded, its connection is cut (`SLOW_ABORT_SECONDS` after the overflow:
neither a close nor uvicorn's heartbeat timeout gets through to a peer that reads nothing),
and the players of its room go on at full speed.

Sends to an idle socket start on the broadcaster's stack (`connections.Connection._queue`);
this is the path where a send must wait (the transport paused, `connections._Resume`) and the
queue's bound (`send_queue_limit`) applies.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import websockets

from tests.fresh_loop import run_fresh
from tests.live_ws import Recipient, served_app
from yanniv.server.realtime.connections import SLOW_ABORT_SECONDS, Connection

LIMIT = 8


def _spectators(app: Any, code: str) -> list[Connection]:
    room = app.state.rooms.get(code)
    return [c for c in list(room.connections) if c.seat is None]


async def _scenario(app: Any, host: str) -> None:
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=f"http://{host}") as http:
        created = (await http.post("/api/rooms", json={"pseudo": "Rapide"})).json()
        code, tokens = created["code"], [created["token"]]
        joined = (await http.post(f"/api/rooms/{code}/join", json={"pseudo": "Vive"})).json()
        tokens.append(joined["token"])
        seat0 = {"X-Seat-Token": tokens[0]}
        assert (await http.patch(f"/api/rooms/{code}/settings", json={"manches": 20},
                                 headers=seat0)).status_code == 200
        players = [Recipient(await websockets.connect(f"ws://{host}/ws/{code}?token={t}",
                                                      max_size=2**22), seat)
                   for seat, t in enumerate(tokens)]
        readers = [asyncio.create_task(p.read()) for p in players]
        # The stalled client: a tiny receive buffer, and it never reads after the handshake.
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        raw.connect(("127.0.0.1", int(host.split(":")[1])))
        stalled = await websockets.connect(f"ws://{host}/ws/{code}", sock=raw, max_queue=1,
                                           ping_interval=None, max_size=2**22)
        while not _spectators(app, code):
            await asyncio.sleep(0.01)
        # The server's side of it keeps a small send buffer too (uvicorn's transport, reached
        # for the test only), so its kernel buffers fill within a few dozen frames instead of
        # megabytes, before the heartbeat's timeout.
        server_sock = _spectators(app, code)[0].ws._send.__self__.transport.get_extra_info(
            "socket")
        server_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        assert (await http.post(f"/api/rooms/{code}/start", headers=seat0)).status_code == 200
        try:
            slowest = 0.0
            longest_queue = 0
            overflowed = False
            for _ in range(3000):
                view = (await players[0].until_state())["view"]
                if view["finished"]:
                    break
                actor = players[view["pending"]["seat"]]
                await actor.until_version(players[0].version)
                own = await actor.until_state()
                legal = [a for a in own["view"]["legal_actions"] if a["type"] != "CallYanniv"]
                action_id = uuid.uuid4().hex
                sent = time.monotonic()
                await actor.ws.send(json.dumps({"type": "action", "id": action_id,
                                                "version": own["version"],
                                                "action": rng.choice(legal or
                                                                     own["view"]["legal_actions"])}))
                answer = await actor.answer(action_id)
                slowest = max(slowest, time.monotonic() - sent)
                assert answer["type"] == "ack", answer
                for p in players:
                    await p.until_version(answer["version"])
                for conn in _spectators(app, code):
                    longest_queue = max(longest_queue, len(conn._pending))
                    overflowed = overflowed or conn.closing
                if not _spectators(app, code):
                    break  # the stalled client is gone
            # Its sends had to wait, and its queue never held more than the bound (plus the
            # error and the close): then it was marked for closing.
            seen = f"queue {longest_queue}, version {players[0].version}, slowest {slowest:.2f} s"
            assert LIMIT <= longest_queue <= LIMIT + 2, seen
            assert overflowed, seen
            deadline = time.monotonic() + SLOW_ABORT_SECONDS + 3
            while _spectators(app, code):
                assert time.monotonic() < deadline, "the stalled socket was never closed"
                await asyncio.sleep(0.1)
            # Nobody else waited on it: each action was answered at once (a player held up
            # by it would wait until its connection is cut).
            assert slowest < SLOW_ABORT_SECONDS / 2, seen
            for p in players:  # and their sockets are still open
                assert p.ws.state.name == "OPEN"
        finally:
            for task in readers:
                task.cancel()
            for p in players:
                await p.ws.close()
            stalled.transport.abort()


def test_a_client_that_stops_reading_is_closed_and_holds_nobody_up(tmp_path: Path) -> None:
    with served_app(tmp_path, send_queue_limit=LIMIT) as (app, host):
        run_fresh(lambda: _scenario(app, host))
