"""The bare Python peer: Yanniv's transport job without the game, for the load generator to
measure against in the same run (uvicorn + Starlette + orjson).

    python bench/loadtest/peer.py --port 8002 --sizes sizes.json

The same routes and frames as `peer.mjs` (its docstring says which): for one action, an `ack`
to the sender and one `state` per seat, padded to the sizes a real Yanniv run recorded. uvicorn
runs it as `yanniv serve` runs the app (`yanniv.app.server_config`): the same socket limits and
heartbeat (`ws_limits` of the default settings), no proxy headers, log level `info`; uvicorn's
`auto` choices (uvloop, httptools) are the same as the server's on this machine. Its WebSocket
protocol is uvicorn's own sans-I/O one (`websockets-sansio`), the one Yanniv's
`socket_protocol.SocketProtocol` extends: the peer sends through the plain ASGI path.
"""

from __future__ import annotations

import argparse
import itertools
import secrets
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from yanniv.server.ops.uvicorn_config import ws_limits
from yanniv.server.settings import Settings

SEATS = 4
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
PLAY = {"type": "Play", "cards": ["AC"]}


class PeerRoom:
    """A room as the peer knows it: seats, tokens, sockets, a version and whose turn it is."""

    def __init__(self, code: str, host_pseudo: str) -> None:
        self.code = code
        self.version = 1
        self.status = "waiting"
        self.turn = 0
        self.manches = 6
        self.pseudos = [host_pseudo]
        self.tokens = [secrets.token_urlsafe(24)]
        self.sockets: list[set[WebSocket]] = [set()]

    def summary(self, your_seat: int) -> dict[str, Any]:
        return {
            "code": self.code, "public": False, "status": self.status, "version": self.version,
            "host_seat": 0,
            "seats": [{"seat": i, "pseudo": p, "connected": bool(self.sockets[i]),
                       "is_host": i == 0, "is_bot": False, "bot_level": None}
                      for i, p in enumerate(self.pseudos)],
            "settings": {"game": "yanniv", "public": False, "timer_seconds": None,
                         "manches": self.manches},
            "your_seat": your_seat,
        }


def padded(obj: dict[str, Any], target: int) -> str:
    """`obj` as JSON of exactly `target` bytes (or its natural size when that is larger)."""
    text = orjson.dumps(obj)
    room = target - len(text) - 9  # ,"pad":""
    if room > 0:
        obj = {**obj, "pad": "x" * room}
        text = orjson.dumps(obj)
    return text.decode()


class Peer:
    def __init__(self, samples: list[Any]) -> None:
        if not samples:
            raise SystemExit("no frame sizes")
        self.samples = itertools.cycle(samples)
        self.typical = int(samples[0][2][0])
        self.rooms: dict[str, PeerRoom] = {}

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))
            if code not in self.rooms:
                return code

    def state_frame(self, room: PeerRoom, seat: int, size: int) -> str:
        view = None
        if room.status == "playing":
            view = {"viewer": seat, "pending": {"seat": room.turn},
                    "legal_actions": [PLAY] if seat == room.turn else [], "finished": False}
        return padded({"type": "state", "version": room.version,
                       "room": {"code": room.code, "status": room.status,
                                "version": room.version, "your_seat": seat},
                       "view": view, "events": [], "deadline": None}, size)

    async def broadcast(self, room: PeerRoom, actor: int | None, sample: Any) -> None:
        others = itertools.cycle(sample[2]) if sample else None
        for seat, sockets in enumerate(room.sockets):
            size = self.typical
            if sample and others:
                size = sample[1] if seat == actor else next(others)
            frame = self.state_frame(room, seat, size)
            for ws in list(sockets):
                try:
                    await ws.send_text(frame)
                except (WebSocketDisconnect, RuntimeError, OSError):  # closed meanwhile
                    sockets.discard(ws)

    # ---- HTTP ----

    async def create(self, request: Request) -> Response:
        body = orjson.loads(await request.body())
        room = PeerRoom(self.new_code(), body["pseudo"])
        self.rooms[room.code] = room
        return json_response(201, {"code": room.code, "seat": 0, "token": room.tokens[0],
                                   "room": room.summary(0)})

    async def room_verb(self, request: Request) -> Response:
        room = self.rooms.get(request.path_params["code"])
        if room is None:
            return json_response(404, {"code": "room_not_found"})
        verb = request.path_params["verb"]
        raw = await request.body()
        body = orjson.loads(raw) if raw else {}
        if verb == "join":
            if len(room.pseudos) >= SEATS:
                return json_response(409, {"code": "room_full"})
            room.pseudos.append(body["pseudo"])
            room.tokens.append(secrets.token_urlsafe(24))
            room.sockets.append(set())
            room.version += 1
            seat = len(room.pseudos) - 1
            return json_response(200, {"code": room.code, "seat": seat,
                                       "token": room.tokens[seat], "room": room.summary(seat)})
        token = request.headers.get("x-seat-token")
        if token not in room.tokens:
            return json_response(403, {"code": "bad_token"})
        seat = room.tokens.index(token)
        if verb == "settings":
            if isinstance(body.get("manches"), int):
                room.manches = body["manches"]
            room.version += 1
            return json_response(200, room.summary(seat))
        if verb in ("start", "rematch"):
            room.status = "playing" if verb == "start" else "waiting"
            room.turn = 0
            room.version += 1
            await self.broadcast(room, None, None)
            return json_response(200, room.summary(seat))
        return json_response(404, {"code": "not_found"})

    async def games(self, request: Request) -> Response:
        return json_response(200, [])

    # ---- WebSocket ----

    async def socket(self, ws: WebSocket) -> None:
        await ws.accept()
        room = self.rooms.get(ws.path_params["code"])
        token = ws.query_params.get("token")
        if room is None or token not in room.tokens:
            await ws.send_text('{"type":"error","id":null,"code":"bad_token"}')
            await ws.close(4401)
            return
        seat = room.tokens.index(token)
        room.sockets[seat].add(ws)
        try:
            await ws.send_text(self.state_frame(room, seat, self.typical))
            while True:
                await self.on_message(room, seat, ws, await ws.receive_text())
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets[seat].discard(ws)

    async def on_message(self, room: PeerRoom, seat: int, ws: WebSocket, text: str) -> None:
        try:
            msg = orjson.loads(text)
        except orjson.JSONDecodeError:
            await ws.send_text('{"type":"error","id":null,"code":"bad_json"}')
            return
        if msg.get("type") == "ping":
            await ws.send_text('{"type":"pong"}')
            return
        if msg.get("version") != room.version or seat != room.turn or room.status != "playing":
            await ws.send_text(orjson.dumps({"type": "error", "id": msg.get("id"),
                                             "code": "stale_version"}).decode())
            return
        sample = next(self.samples)
        room.version += 1
        room.turn = (room.turn + 1) % SEATS
        await ws.send_text(padded({"type": "ack", "id": msg["id"], "version": room.version},
                                  int(sample[0])))
        await self.broadcast(room, seat, sample)


def json_response(status: int, body: Any) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


def make_app(samples: list[Any]) -> Starlette:
    peer = Peer(samples)
    return Starlette(routes=[
        Route("/api/games", peer.games, methods=["GET"]),
        Route("/api/rooms", peer.create, methods=["POST"]),
        Route("/api/rooms/{code}/{verb}", peer.room_verb, methods=["POST", "PATCH"]),
        WebSocketRoute("/ws/{code}", peer.socket),
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002)
    parser.add_argument("--sizes", required=True, help="frame sizes from generator --sizes-out")
    args = parser.parse_args()
    with open(args.sizes, "rb") as handle:
        samples = orjson.loads(handle.read())
    # As `yanniv.app.server_config` configures uvicorn for `yanniv serve`.
    limits = {**ws_limits(Settings()), "ws": "websockets-sansio"}
    config = uvicorn.Config(make_app(samples), host=args.host, port=args.port,
                            **limits, proxy_headers=False, log_level="info")
    uvicorn.Server(config).run()


if __name__ == "__main__":
    main()
