"""The lobby channel `/ws/lobby`: the public rooms list pushed to the home pages whenever it
changes (docs/PROTOCOL.md §5.7, docs/cluster.md), instead of each page asking every 3 s.

A room tells the feed after each of its broadcasts (`Room.watcher`: a seat taken or left, a
person connected or gone, settings, start, end, rematch), and the feed keeps only what can
move the list: a public waiting room, or one it listed. At most one push per
`lobby_push_interval` follows a burst of changes (a table filling up, bots seated one by one),
and a listener is sent the list only when its text changed. A listener holds at most one list
not yet written (the newest replaces it), so a slow page costs one string, never a queue.

Alone, the list comes from memory. In a cluster (`lobby_bus`), a change of one of our rooms'
listing is written to the database first (`room_leases.listed`, the list's source), then
announced to the other processes, each of which reads the list again and pushes it to its own
listeners; and every `lobby_refresh_seconds` a process with listeners reads it again anyway,
so what no process announces (the rooms of a process that died leaving as their leases run
out) and what an announcement lost on the way reaches the pages too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from yanniv.server.api.deps import client_ip
from yanniv.server.errors import GameError, game_error
from yanniv.server.ops.background import cancel_and_wait, raise_if_cancelled
from yanniv.server.ops.ratelimit import TokenBucket, address_key
from yanniv.server.realtime.connections import CLOSE_FLOOD, CLOSE_TOO_MANY_SOCKETS
from yanniv.server.realtime.protocol import ErrorOut, PongOut, outgoing
from yanniv.server.rooms.registry import listable_room
from yanniv.server.rooms.room import Room

if TYPE_CHECKING:
    from yanniv.server.cluster.shared_caps import AddressCounts
    from yanniv.server.rooms.registry import Rooms
    from yanniv.server.settings import Settings

log = logging.getLogger(__name__)
LOBBY_PATH = "/ws/lobby"
#: Replies (pongs, errors) a listener may have waiting; more are dropped (the rate limit
#: closes a client sending that fast anyway).
REPLIES = 4


def rooms_text(rooms: list[dict[str, object]]) -> str:
    """The `rooms` message: the whole list, as `GET /api/rooms/public` answers it."""
    return orjson.dumps({"type": "rooms", "rooms": rooms}).decode()


class Listener:
    """One home page's socket: the newest list not yet written, and a few replies."""

    __slots__ = ("_list", "_replies", "_wake", "closing", "ws")

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self._list: str | None = None
        self._replies: list[str] = []
        self._wake: asyncio.Future[None] | None = None
        #: The close code once closing (nothing more is queued then).
        self.closing: int | None = None

    def offer(self, text: str) -> None:
        """The newest list: it replaces one not yet written."""
        if self.closing is None:
            self._list = text
            self._ping()

    def reply(self, text: str) -> None:
        if self.closing is None and len(self._replies) < REPLIES:
            self._replies.append(text)
            self._ping()

    def close(self, code: int) -> None:
        """Close after what is queued (the first code given wins)."""
        if self.closing is None:
            self.closing = code
            self._ping()

    def _ping(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def write_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self._replies:
                text: str | None = self._replies.pop(0)
            else:
                text, self._list = self._list, None
            if text is None:
                if self.closing is not None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(self.closing)
                    return
                self._wake = loop.create_future()
                await self._wake
                continue
            try:
                await self.ws.send_text(text)
            except Exception:
                self.closing = self.closing or 1000
                with contextlib.suppress(Exception):
                    await self.ws.close(1000)
                return


class LobbyFeed:
    """This process's home-page listeners and what it pushes them (see the module)."""

    def __init__(self, rooms: Rooms, interval: float, refresh: float) -> None:
        self.rooms = rooms
        self.interval = interval
        self.refresh = refresh
        self.listeners: set[Listener] = set()
        #: Codes of our rooms that were listable when last looked at.
        self.shown: set[str] = set()
        #: Cluster: writes our rooms' listing changes (code → listed) and tells the others.
        self.announce: Callable[[dict[str, bool]], Awaitable[None]] | None = None
        self._touched: dict[str, Room] = {}
        self._wake = asyncio.Event()
        self._last: str | None = None
        self._push_lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: Pushes sent (lists whose text changed), for tests and measurements.
        self.pushes = 0

    # ------------------------------------------------------------ what changes

    def touched(self, room: Room) -> None:
        """`Room.watcher`: called after each broadcast; O(1), nothing awaited."""
        if room.code in self.shown or (room.settings.public and room.status == "waiting"):
            self._touched[room.code] = room
            self._wake.set()

    def heard(self) -> None:
        """Another process announced a change of the list (cluster)."""
        self._wake.set()

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Start pushing, on the running loop. The event and the lock are made anew: an
        asyncio primitive belongs to the loop it was first waited on, and an app may be
        started again on another loop (tests do, one `TestClient` after another)."""
        pending = self._wake.is_set()
        self._wake = asyncio.Event()
        if pending:
            self._wake.set()
        self._push_lock = asyncio.Lock()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """No more pushes; every listener told to reconnect (1012, as room sockets are)."""
        task, self._task = self._task, None
        await cancel_and_wait(task)
        for listener in list(self.listeners):
            listener.close(1012)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(),
                                       self.refresh if self.listeners else None)
            self._wake.clear()
            try:
                await self.flush()
            except Exception as exc:
                raise_if_cancelled(exc)
                log.exception("lobby: pushing the public list failed")
            await asyncio.sleep(self.interval)  # bursts within it make one push

    async def flush(self) -> None:
        """Look at the rooms touched since the last flush; announce our listing's changes
        (cluster); push the list to our listeners if its text changed."""
        touched, self._touched = self._touched, {}
        rooms = self.rooms.rooms
        changed: dict[str, bool] = {}
        for code, room in touched.items():
            listed = rooms.get(code) is room and listable_room(room)
            if listed != (code in self.shown):
                changed[code] = listed
        for code in self.shown:  # dropped or closed without a broadcast
            if code not in rooms and code not in changed:
                changed[code] = False
        for code, listed in changed.items():
            if listed:
                self.shown.add(code)
            else:
                self.shown.discard(code)
        if touched and self.announce is not None:
            await self.announce(changed)
        if self.listeners:
            await self.push()

    async def push(self, new: Listener | None = None) -> None:
        """Read the list; send it to every listener if it changed, else to `new` only."""
        async with self._push_lock:
            text = rooms_text(await self.rooms.public_list())
            if text != self._last:
                self._last = text
                self.pushes += 1
                for listener in self.listeners:
                    listener.offer(text)
            elif new is not None:
                new.offer(text)

    # ------------------------------------------------------------ listeners

    async def add(self, listener: Listener) -> None:
        """A new listener gets the list at once: the one just pushed while others listen
        (a reconnecting crowd costs no read each), else a fresh read."""
        tracking = bool(self.listeners) and self._last is not None
        self.listeners.add(listener)
        if tracking:
            assert self._last is not None
            listener.offer(self._last)
        else:
            await self.push(listener)

    def discard(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        if not self.listeners:
            self._last = None  # nobody follows the list: read it afresh for the next one


# ---------------------------------------------------------------- the socket


class LobbySocket:
    """ASGI middleware: `/ws/lobby` is served here, before the room sockets' shortcut (which
    would read `lobby` as a room code) and the cluster's routing (nothing to route)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """Not a coroutine, as `ws.SocketShortcut`: no frame of it held for a socket's life."""
        if scope["type"] == "websocket" and scope["path"] == LOBBY_PATH:
            return lobby_socket(WebSocket(scope, receive, send))
        return self.app(scope, receive, send)


def _error(error: GameError) -> str:
    return outgoing(ErrorOut, id=None, **error.body())


async def lobby_socket(ws: WebSocket) -> None:
    """A home page's listener: capped per address (across the processes of a cluster)."""
    state = ws.app.state
    feed: LobbyFeed = state.lobby_feed
    counts: AddressCounts = state.address_counts
    settings: Settings = state.settings
    address = address_key(client_ip(ws))
    if not await counts.take("lobby", address, settings.max_lobby_sockets_per_ip):
        await ws.accept()
        await ws.send_text(_error(game_error("too_many_lobby_sockets")))
        await ws.close(CLOSE_TOO_MANY_SOCKETS)
        return
    try:
        await _listen(ws, feed, settings)
    finally:
        counts.give("lobby", address)


async def _listen(ws: WebSocket, feed: LobbyFeed, settings: Settings) -> None:
    await ws.accept()
    listener = Listener(ws)
    writer = asyncio.create_task(listener.write_loop())
    bucket = TokenBucket(settings.flood_rate, settings.flood_burst)
    try:
        await feed.add(listener)
        while listener.closing is None:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            if not bucket.take():
                listener.reply(_error(game_error("flood")))
                listener.close(CLOSE_FLOOD)
                return
            raw = message.get("text") or message.get("bytes") or ""
            listener.reply(_answer(raw, settings.max_message_bytes))
    except Exception:
        log.exception("lobby socket failed")
    finally:
        feed.discard(listener)
        listener.close(1000)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 1.0)
        writer.cancel()


def _answer(raw: str | bytes, limit: int) -> str:
    """`pong` to a `ping`; the channel takes nothing else."""
    if len(raw) > limit:
        return _error(game_error("message_too_large", limit))
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return _error(game_error("bad_json"))
    kind = data.get("type") if isinstance(data, dict) else None
    if kind == "ping":
        return outgoing(PongOut)
    return _error(game_error("unknown_type", orjson.dumps(kind).decode()[:40]))
