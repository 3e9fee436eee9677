"""One WebSocket connection: who it is (seat or spectator) and an ordered outgoing queue.

Sending never blocks the room: messages are queued and drained into the socket, so a slow
client only delays itself, and one that falls too far behind is closed.

The queue is a plain list and the writer a task that sleeps on one bare future while the list
is empty: no `asyncio.Queue` (four deques and an event, ~3 KB a socket), and a message costs
one wake-up of a task that already exists (a task per burst would cost its creation, context
copy and weak registration every time).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.websockets import WebSocket

if TYPE_CHECKING:
    from yanniv.server.seat import Seat

#: Close codes (4000-4999 are for applications).
CLOSE_FLOOD = 4008
CLOSE_BAD_TOKEN = 4401
CLOSE_REMOVED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_RATE_LIMITED = 4429
CLOSE_TOO_MANY_SOCKETS = 4430
CLOSE_SLOW = 4503


@dataclass(frozen=True, slots=True)
class _Close:
    code: int


class Connection:
    """A socket bound to a seat (None: a spectator)."""

    __slots__ = ("_pending", "_wake", "closing", "queue_limit", "seat", "ws")

    def __init__(self, ws: WebSocket, seat: Seat | None, queue_limit: int) -> None:
        self.ws = ws
        self.seat = seat
        self.queue_limit = queue_limit
        #: Messages not yet handed to the socket, oldest first (a close last).
        self._pending: list[str | _Close] = []
        #: What the writer awaits while `_pending` is empty (None while it is sending).
        self._wake: asyncio.Future[None] | None = None
        self.closing = False

    @property
    def seat_index(self) -> int | None:
        return None if self.seat is None else self.seat.seat

    def send(self, text: str) -> None:
        """Queue a message; a client too far behind is disconnected instead."""
        if self.closing:
            return
        if len(self._pending) >= self.queue_limit:
            from yanniv.server.errors import game_error

            self.closing = True
            error = game_error("slow_client")
            self._queue(_error_text(error.code, error.message, error.message_en))
            self._queue(_Close(CLOSE_SLOW))
            return
        self._queue(text)

    def close(self, code: int) -> None:
        """Close after the messages already queued have gone."""
        if not self.closing:
            self.closing = True
            self._queue(_Close(code))

    def _queue(self, item: str | _Close) -> None:
        self._pending.append(item)
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    async def write_loop(self) -> None:
        """Drain the queue into the socket until a close is queued or a send fails (then the
        socket is closed, which ends its reader)."""
        pending = self._pending
        loop = asyncio.get_running_loop()
        while True:
            if not pending:
                self._wake = loop.create_future()
                await self._wake
                continue
            item = pending.pop(0)
            if isinstance(item, _Close):
                pending.clear()
                with contextlib.suppress(Exception):
                    await self.ws.close(item.code)
                return
            try:
                await self.ws.send_text(item)
            except Exception:
                self.closing = True
                pending.clear()
                with contextlib.suppress(Exception):
                    await self.ws.close(1000)  # as when the handler returns
                return


def _error_text(code: str, message: str, message_en: str) -> str:
    from yanniv.server.protocol import ErrorOut, outgoing

    return outgoing(ErrorOut, id=None, code=code, message=message, message_en=message_en)
