"""One WebSocket connection: who it is (seat or spectator) and an ordered outgoing queue.

Sending never blocks the room: messages are queued and drained into the socket, so a slow
client only delays itself, and one that falls too far behind is closed.

The queue is a plain list, and a socket has no writer task while nothing waits: a message for
an idle socket is sent on the caller's stack (an ASGI server's send that needs no waiting,
uvicorn's while the transport takes more, finishes there), so a broadcast to four sockets costs
no task switch, and an idle socket holds no task, coroutine frame or future (~1 KB each). Only
a send that must wait (the client reads slowly: the transport paused), or a close, starts a
writer task; it finishes that send before anything queued after it (`_Resume`), drains the
queue, and ends when the queue is empty. The queue's bound applies meanwhile.

A message is text, as `str` or as its UTF-8 bytes (orjson's, from the hot path). Under
`yanniv serve` a socket offers a direct frame write (`socket_protocol.WRITE_TEXT`), which
takes those bytes as they are; elsewhere (tests' clients, another ASGI server) a message goes
through Starlette's `send_text`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from yanniv.server.realtime.socket_protocol import WRITE_TEXT

if TYPE_CHECKING:
    from yanniv.server.rooms.seat import Seat

#: Close codes (4000-4999 are for applications).
CLOSE_FLOOD = 4008
CLOSE_BAD_TOKEN = 4401
CLOSE_REMOVED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_RATE_LIMITED = 4429
CLOSE_TOO_MANY_SOCKETS = 4430
CLOSE_SLOW = 4503
#: The server failed on this socket (`server_error` first).
CLOSE_SERVER_ERROR = 1011
#: How long a client whose queue overflowed may take to read its error and close before its
#: connection is cut (`Connection._abort_if_stuck`).
SLOW_ABORT_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class _Close:
    code: int


class Connection:
    """A socket bound to a seat (None: a spectator)."""

    __slots__ = ("_pending", "_resume", "_write_text", "_writer", "closing", "queue_limit",
                 "seat", "ws")

    def __init__(self, ws: WebSocket, seat: Seat | None, queue_limit: int) -> None:
        self.ws = ws
        self.seat = seat
        self.queue_limit = queue_limit
        #: The socket's direct frame write, if its server offers one (`socket_protocol`).
        self._write_text: Callable[..., bool] | None = (
            ws.scope.get("extensions") or {}).get(WRITE_TEXT)
        #: Messages not yet handed to the socket, oldest first (a close last).
        self._pending: list[str | bytes | _Close] = []
        #: The writer task while one is needed (a send that waits, a queue, a close).
        self._writer: asyncio.Task[None] | None = None
        #: A send started by `_queue` that had to wait: the writer finishes it first.
        self._resume: _Resume | None = None
        self.closing = False

    @property
    def seat_index(self) -> int | None:
        return None if self.seat is None else self.seat.seat

    def send(self, text: str | bytes) -> None:
        """Queue a message; a client too far behind is disconnected instead."""
        write = self._write_text
        if (write is not None and self._writer is None and not self._pending
                and not self.closing and write(_utf8(text))):
            return  # the common case: written at once
        if self.closing:
            return
        if len(self._pending) >= self.queue_limit:
            from yanniv.server.errors import game_error

            self.closing = True
            error = game_error("slow_client")
            self._queue(_error_text(error.code, error.message, error.message_en))
            self._queue(_Close(CLOSE_SLOW))
            asyncio.get_running_loop().call_later(SLOW_ABORT_SECONDS, self._abort_if_stuck)
            return
        self._queue(text)

    def send_both(self, first: str | bytes, second: str | bytes) -> None:
        """`send(first)` then `send(second)`, in one write to the socket when it takes them
        at once (an action's `ack` and its new state)."""
        write = self._write_text
        if (write is not None and self._writer is None and not self._pending
                and not self.closing and write(_utf8(first), _utf8(second))):
            return
        self.send(first)
        self.send(second)

    def _abort_if_stuck(self) -> None:
        """The slow client's close has not gone out: its sends still wait for a peer that
        reads nothing. A close over ASGI waits behind them, and uvicorn's own heartbeat
        timeout closes its transport gracefully, i.e. after a flush that never comes; so the
        connection is cut here, by its transport's `abort()` (uvicorn's protocol, when the
        ASGI `send` is one of its methods: nothing is done with another server)."""
        if self._pending or self._resume is not None:
            protocol = getattr(getattr(self.ws, "_send", None), "__self__", None)
            transport = getattr(protocol, "transport", None)
            if transport is not None and hasattr(transport, "abort"):
                transport.abort()

    def close(self, code: int) -> None:
        """Close after the messages already queued have gone."""
        if not self.closing:
            self.closing = True
            self._queue(_Close(code))

    def _queue(self, item: str | bytes | _Close) -> None:
        if not isinstance(item, _Close) and self._writer is None and not self._pending:
            # Nothing waits: send on this stack.
            self._send_now(item)
            return
        if isinstance(item, bytes):
            # A copy of its own size: orjson's bytes keep its whole output buffer (~8 KB for
            # a 1.5 KB state), which a queue of a slow reader's messages would multiply.
            item = memoryview(item).tobytes()
        self._pending.append(item)
        self._start_writer()

    def _send_now(self, text: str | bytes) -> None:
        """Send `text` directly if the socket can take it now, else start sending it the ASGI
        way; what must wait is left to a writer, as a failure is."""
        write = self._write_text
        if write is not None and write(_utf8(text)):
            return
        coro = self.ws.send_text(text if isinstance(text, str) else text.decode())
        try:
            waiting = coro.send(None)
        except StopIteration:
            return
        except Exception:  # the client is gone: as when the writer's send fails
            self.closing = True
            self._pending.clear()
            self._pending.append(_Close(1000))
        else:
            self._resume = _Resume(coro, waiting)
        self._start_writer()

    def _start_writer(self) -> None:
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def finish(self, timeout: float) -> None:
        """Close (after what is queued) and wait up to `timeout` for the close to go out; a
        writer still stuck then is cancelled (the socket's handler is returning anyway)."""
        self.close(1000)
        writer = self._writer
        if writer is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(writer), timeout)
        writer.cancel()

    async def _write(self) -> None:
        """Finish a waiting send, then drain the queue into the socket; end once it is empty,
        a close went out or a send failed (then the socket is closed, which ends its reader)."""
        pending = self._pending
        try:
            while True:
                resume = self._resume
                if resume is not None:
                    self._resume = None
                    try:
                        await resume
                    except Exception:
                        await self._failed()
                        return
                    continue
                if not pending:
                    return
                item = pending.pop(0)
                if isinstance(item, _Close):
                    pending.clear()
                    with contextlib.suppress(Exception):
                        await self.ws.close(item.code)
                    return
                write = self._write_text
                if write is not None and write(_utf8(item)):
                    continue
                try:
                    await self.ws.send_text(item if isinstance(item, str) else item.decode())
                except Exception:
                    await self._failed()
                    return
        finally:
            self._writer = None

    async def _failed(self) -> None:
        self.closing = True
        self._pending.clear()
        with contextlib.suppress(Exception):
            await self.ws.close(1000)  # as when the handler returns


class _Resume:
    """Awaiting it finishes a coroutine that was started by hand and stopped at its first
    wait (`waiting`, the future it yielded): what `await coro` would have done from there,
    values and exceptions (a cancellation) passed through both ways."""

    __slots__ = ("_coro", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, Any], waiting: Any) -> None:
        self._coro = coro
        self._waiting = waiting

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, waiting = self._coro, self._waiting
        while True:
            try:
                value = yield waiting
            except BaseException as exc:
                try:
                    waiting = coro.throw(exc)
                except StopIteration as stop:
                    return stop.value
                continue
            try:
                waiting = coro.send(value)
            except StopIteration as stop:
                return stop.value


def _error_text(code: str, message: str, message_en: str) -> str:
    from yanniv.server.realtime.protocol import ErrorOut, outgoing

    return outgoing(ErrorOut, id=None, code=code, message=message, message_en=message_en)


def _utf8(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode()
