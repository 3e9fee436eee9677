"""The socket endpoint `/ws/{code}?token=...`: one seat's (or a spectator's) live connection.

A reader (`SocketReader`) validates each message (size, rate, JSON, pydantic model) as it
arrives and hands actions to the room, one at a time; sending is the connection's
(`connections.Connection`: on the sender's stack, or by a writer task while a send waits).
Errors go to this socket only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from yanniv.server.api.deps import client_ip
from yanniv.server.errors import WHOLE_MESSAGE, GameError, game_error, validation_detail
from yanniv.server.ops.ratelimit import SocketCaps, TokenBucket, WrongCodeLimiter, refuse_lookup
from yanniv.server.realtime.connections import (
    CLOSE_BAD_TOKEN,
    CLOSE_FLOOD,
    CLOSE_NOT_FOUND,
    CLOSE_RATE_LIMITED,
    CLOSE_SERVER_ERROR,
    CLOSE_TOO_MANY_SOCKETS,
    Connection,
)
from yanniv.server.realtime.protocol import (
    CLIENT_MESSAGE,
    CLIENT_TYPES,
    ActionIn,
    ErrorOut,
    PongOut,
    outgoing,
    plain_action,
)
from yanniv.server.realtime.socket_protocol import READ_TEXT
from yanniv.server.rooms.codes import normalize_code
from yanniv.server.rooms.registry import Rooms
from yanniv.server.rooms.room import Room, Seat
from yanniv.server.settings import Settings

log = logging.getLogger(__name__)
router = APIRouter()
PONG = outgoing(PongOut)
#: The path of `room_socket` (the router's pattern: one segment after `/ws/`).
SOCKET_PATH = re.compile(r"/ws/([^/]+)")


class SocketShortcut:
    """ASGI middleware: a socket to `/ws/{code}` goes straight to `room_socket`, past the
    HTTP middlewares, the exception middleware and FastAPI's routing and dependency solving,
    which do nothing for it but hold, for the socket's whole life, a coroutine frame each and
    three `AsyncExitStack`s (~8 KB a socket). It sits inside `ProxyHeadersMiddleware`, so the
    client address is the same; anything else goes on to the app (the router keeps the route,
    for the schema and for an app built without this middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """Not a coroutine: what it returns (the socket's handler, or the app's call) is
        awaited by the layer above, with no frame of this one held for the socket's life."""
        if scope["type"] == "websocket":
            found = SOCKET_PATH.fullmatch(scope["path"])
            if found is not None:
                ws = WebSocket(scope, receive, send)
                return room_socket(ws, found.group(1), ws.query_params.get("token"))
        return self.app(scope, receive, send)


def error_text(error: GameError, message_id: str | None = None) -> str:
    return outgoing(ErrorOut, id=message_id, **error.body())


async def _refuse(ws: WebSocket, error: GameError, code: int) -> None:
    """Accept only to say why, then close: browsers cannot read an HTTP refusal of a socket."""
    await ws.accept()
    await ws.send_text(error_text(error))
    await ws.close(code)


@router.websocket("/ws/{code}")
async def room_socket(ws: WebSocket, code: str, token: str | None = None) -> None:
    rooms: Rooms = ws.app.state.rooms
    settings: Settings = ws.app.state.settings
    limiter: WrongCodeLimiter = ws.app.state.code_limiter
    caps: SocketCaps = ws.app.state.socket_caps
    ip = client_ip(ws)
    room = rooms.get(normalize_code(code))
    seat = room.seat_for_token(token) if room is not None and token else None
    if seat is None:  # a spectator, a wrong token or an unknown code: a lookup (see ratelimit)
        refusal = await refuse_lookup(limiter, ip, known=room is not None)
        if refusal is not None:
            close = CLOSE_NOT_FOUND if refusal.code == "room_not_found" else CLOSE_RATE_LIMITED
            await _refuse(ws, refusal, close)
            return
    assert room is not None
    if token and seat is None:
        await _refuse(ws, game_error("bad_token"), CLOSE_BAD_TOKEN)
        return
    # Taken before the first await, so concurrent sockets cannot all pass a cap at once.
    place = await caps.admit(ip, room.code, None if seat is None else seat.seat)
    if isinstance(place, str):
        await _refuse(ws, game_error(place), CLOSE_TOO_MANY_SOCKETS)
        return
    try:
        await _serve(ws, room, seat, rooms, settings)
    finally:
        caps.release(place)


async def _serve(ws: WebSocket, room: Room, seat: Seat | None, rooms: Rooms,
                 settings: Settings) -> None:
    """The admitted socket's life, from accept to its last message."""
    await ws.accept()
    conn = Connection(ws, seat, settings.send_queue_limit)
    room.connections.add(conn)
    if seat is not None:
        seat.connections += 1
    conn.send(room.state_text(conn.seat_index, ()))
    journal = room.journal_text(conn.seat_index)  # before any await: nothing comes between
    if journal is not None:
        conn.send(journal)
    if seat is not None and seat.connections == 1:
        room.broadcast_presence()
    reader = SocketReader(conn, room, rooms, settings)
    take = (ws.scope.get("extensions") or {}).get(READ_TEXT)
    if take is not None:
        take(reader.feed)  # messages come to the reader as they arrive
    try:
        # Only the disconnect comes through `receive` then; without `read_text`, every
        # message does. A socket whose send failed or that the server closed gets its
        # disconnect from uvicorn, which ends the loop.
        while not conn.closing or take is not None:
            message = await conn.ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            reader.feed(raw if raw is not None else message.get("bytes") or b"")
            await reader.idle()
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("room %s: socket reader failed", room.code)
    finally:
        if take is not None:
            take(None)
        await reader.idle()
        room.connections.discard(conn)
        if seat is not None:
            seat.connections -= 1
            if seat.connections == 0 and seat in room.seats:
                room.broadcast_presence()
                rooms.watch_humans(room)
        await conn.finish(1.0)


class SocketReader:
    """A socket's messages, one at a time and in order: checked (rate, size, JSON, the
    message model) as they arrive, and an action handed to the room in a task of its own,
    the socket's next messages waiting until the room answered it. Fed by the protocol as
    messages arrive (`socket_protocol.READ_TEXT`), or by the socket's task from `receive`."""

    __slots__ = ("_action", "_backlog", "_loop", "bucket", "conn", "limit", "room", "rooms")

    def __init__(self, conn: Connection, room: Room, rooms: Rooms, settings: Settings) -> None:
        self.conn = conn
        self.room = room
        self.rooms = rooms
        self.bucket = TokenBucket(settings.flood_rate, settings.flood_burst)
        self.limit = settings.max_message_bytes
        #: Messages that came while an action was in the room's hands (the flood limit bounds
        #: them), and that action's task.
        self._backlog: list[str | bytes] = []
        self._action: asyncio.Task[None] | None = None
        #: Made on the socket's loop; kept, since looking it up is a system call on 3.11.
        self._loop = asyncio.get_running_loop()

    def feed(self, raw: str | bytes) -> None:
        """One message from the client; never raises (it runs in the protocol's read)."""
        conn = self.conn
        if conn.closing:
            return
        if not self.bucket.take():
            conn.send(error_text(game_error("flood")))
            conn.close(CLOSE_FLOOD)
            return
        if self._action is not None:
            self._backlog.append(raw)
            return
        self._run(raw)

    def _run(self, raw: str | bytes) -> None:
        """Handle `raw`, then what waited behind it, until an action must wait for the room;
        a bug closes the socket (`server_error`) instead of reaching the protocol."""
        try:
            while True:
                plain = self._check(raw)
                if plain is not None:
                    self._action = self._loop.create_task(self._act(plain))
                    return
                if not self._backlog or self.conn.closing:
                    return
                raw = self._backlog.pop(0)
        except Exception:
            log.exception("room %s: socket reader failed", self.room.code)
            self.conn.send(error_text(game_error("server_error")))
            self.conn.close(CLOSE_SERVER_ERROR)

    async def _act(self, plain: tuple[str, int, Any]) -> None:
        action_id, version, action = plain
        conn = self.conn
        assert conn.seat is not None
        try:
            await self.rooms.act(self.room, conn.seat, action_id, version, action, conn)
        except GameError as error:
            conn.send(error_text(error, action_id))
        except Exception:  # a bug must cost one refused action, not the connection
            log.exception("room %s: action failed", self.room.code)
            conn.send(error_text(game_error("server_error"), action_id))
        finally:
            self._action = None
        if self._backlog and not conn.closing:
            self._run(self._backlog.pop(0))

    async def idle(self) -> None:
        """Return once no action of this socket is in the room's hands (and none waits)."""
        while self._action is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._action)

    def _check(self, raw: str | bytes) -> tuple[str, int, Any] | None:
        """The action `raw` asks for, as (id, version, action); None when `raw` was answered
        here (an error, a pong)."""
        conn = self.conn
        size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "replace"))
        if size > self.limit:
            conn.send(error_text(game_error("message_too_large", self.limit)))
            return None
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            conn.send(error_text(game_error("bad_json")))
            return None
        kind = data.get("type") if isinstance(data, dict) else None
        message_id = data.get("id") if isinstance(data, dict) else None
        message_id = message_id if isinstance(message_id, str) and len(message_id) <= 64 else None
        if kind not in CLIENT_TYPES:
            shown = orjson.dumps(kind).decode()[:40]  # as JSON: `null`, not Python's `None`
            conn.send(error_text(game_error("unknown_type", shown), message_id))
            return None
        plain = plain_action(data)
        if plain is None:
            try:
                parsed = CLIENT_MESSAGE.validate_python(data)
            except ValidationError as exc:
                french, english = validation_detail(exc.errors(), 1, WHOLE_MESSAGE)
                conn.send(error_text(game_error("bad_message", french, english), message_id))
                return None
            if not isinstance(parsed, ActionIn):
                conn.send(PONG)
                return None
            plain = parsed.id, parsed.version, parsed.action
        if conn.seat is None:
            conn.send(error_text(game_error("spectator"), plain[0]))
            return None
        return plain
