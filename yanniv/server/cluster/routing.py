"""Routing by room code in a cluster (docs/cluster.md): a request about a room this process
does not serve goes on to the process that does.

The balancer (nginx, `yanniv.server.cluster.balancer`) hashes on the room code, so most requests
reach
the right process at once; but a room lives where it was created or taken over, not where the
hash points, so a process receiving a request for a room it does not hold looks its lease up
(one primary-key read) and answers:

- the lease runs and its holder advertised an address: `307` with `Location` (the same request
  at the holder, for a client talking to the processes directly) and `X-Accel-Redirect`
  (`/_yanniv_owner/<METHOD>/<host:port><path>?<query>`), which nginx follows internally:
  it replays the request, body and `Upgrade` included, to the holder, so HTTP calls and
  WebSockets alike reach the owner without the client knowing. A socket is refused with that
  HTTP answer (ASGI's `websocket.http.response`), which only nginx can follow;
- the lease ran out (its process died or stopped, a take-over is due within a renewal), or it
  is ours but the room not yet in memory (being restored after our claim): `room_moved`, the
  answer clients already handle by retrying (a socket: accepted, told, closed with 1012, so
  it reconnects);
- no live room by that code, or its holder advertised no address: the request goes on, and
  the route answers as alone (`room_not_found`, counted by the wrong-code limit).

Outside a cluster nothing here runs: the one process serves every room.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import urlsplit

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from yanniv.server.cluster.leases import Holder
from yanniv.server.errors import GameError, game_error
from yanniv.server.realtime.connections import CLOSE_SERVER_ERROR
from yanniv.server.realtime.protocol import ErrorOut, outgoing
from yanniv.server.rooms.codes import is_code, normalize_code
from yanniv.server.rooms.registry import Rooms

#: The paths about one room whose holder must answer them (the page `/r/<code>` is the same
#: from every process). `/api/rooms/public` is no code and stays local.
ROOM_PATH = re.compile(r"/(?:api/rooms|ws)/([^/]+)(?:/.*)?")
#: The internal location of nginx's configuration that replays a request at another process.
FORWARD_PREFIX = "/_yanniv_owner"
#: Close code of a socket told `room_moved` (clients reconnect, as after a restart).
CLOSE_RESTART = 1012
log = logging.getLogger(__name__)


def forward_target(holder: Holder, scope: Scope) -> tuple[str, str] | None:
    """(`Location`, `X-Accel-Redirect`) of this request at `holder`, or None when it
    advertised no usable address."""
    parts = urlsplit(holder.url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    query = scope.get("query_string", b"").decode("latin-1")
    tail = scope["path"] + (f"?{query}" if query else "")
    method = scope.get("method", "GET") if scope["type"] == "http" else "GET"
    location = f"{holder.url}{tail}"
    if scope["type"] == "websocket":  # http → ws, https → wss
        location = "ws" + location[4:]
    return location, f"{FORWARD_PREFIX}/{method}/{parts.netloc}{tail}"


class OwnerRouting:
    """ASGI middleware (cluster only): requests about a room held by another process are sent
    there, see the module's text. Rooms in our memory pass at the cost of one dict lookup."""

    def __init__(self, app: ASGIApp, rooms: Rooms) -> None:
        self.app = app
        self.rooms = rooms

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            found = ROOM_PATH.fullmatch(scope["path"])
            code = normalize_code(found.group(1)) if found else ""
            if is_code(code) and code not in self.rooms.rooms:
                try:
                    holder = await self.rooms.holder(code)
                except Exception:  # the database is away: nothing can be served anyway
                    log.exception("room %s: looking up its holder failed", code)
                    await _refuse(game_error("server_error"), {}, CLOSE_SERVER_ERROR, scope,
                                  receive, send)
                    return
                if holder is not None and (holder.owner == self.rooms.leases.owner
                                           or not holder.live):
                    # Between owners (a lease ran out, or ours is being restored): retry soon.
                    await _refuse(game_error("room_moved"), {"retry-after": "1"},
                                  CLOSE_RESTART, scope, receive, send)
                    return
                target = forward_target(holder, scope) if holder is not None else None
                if target is not None:
                    await _forward(target, scope, receive, send)
                    return
        await self.app(scope, receive, send)


async def _forward(target: tuple[str, str], scope: Scope, receive: Receive, send: Send) -> None:
    """`room_elsewhere`: 307 with `Location` and `X-Accel-Redirect`, a socket's refusal too
    (ASGI's `websocket.http.response`; without it: `room_moved`, so the client retries)."""
    error = game_error("room_elsewhere")
    headers = {"location": target[0], "x-accel-redirect": target[1]}
    if scope["type"] == "http":
        await _answer(send, error, headers, "http.response")
    elif "websocket.http.response" in scope.get("extensions", {}):
        await _answer(send, error, headers, "websocket.http.response")
    else:
        await _refuse(game_error("room_moved"), {}, CLOSE_RESTART, scope, receive, send)


async def _refuse(error: GameError, headers: dict[str, str], close: int, scope: Scope,
                  receive: Receive, send: Send) -> None:
    """`error` as an HTTP answer, or to a socket: accepted, told why, closed with `close`
    (browsers cannot read an HTTP refusal of a socket)."""
    if scope["type"] == "http":
        await _answer(send, error, headers, "http.response")
        return
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": outgoing(ErrorOut, id=None, **error.body())})
    await send({"type": "websocket.close", "code": close})


async def _answer(send: Send, error: GameError, headers: dict[str, str], kind: str) -> None:
    """`error` as the JSON answer of every refusal, with `headers`."""
    body = orjson.dumps(error.body())
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(name.encode(), value.encode("latin-1")) for name, value in headers.items()]
    await send({"type": f"{kind}.start", "status": error.status, "headers": raw})
    await send({"type": f"{kind}.body", "body": body})
