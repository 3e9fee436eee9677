"""One WebSocket connection: who it is (seat or spectator) and an ordered outgoing queue.

Sending never blocks the room: messages are queued and a writer task drains them, so a slow
client only delays itself, and one that falls too far behind is closed.
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

    def __init__(self, ws: WebSocket, seat: Seat | None, queue_limit: int) -> None:
        self.ws = ws
        self.seat = seat
        self.queue_limit = queue_limit
        self._queue: asyncio.Queue[str | _Close] = asyncio.Queue()
        self.closing = False

    @property
    def seat_index(self) -> int | None:
        return None if self.seat is None else self.seat.seat

    def send(self, text: str) -> None:
        """Queue a message; a client too far behind is disconnected instead."""
        if self.closing:
            return
        if self._queue.qsize() >= self.queue_limit:
            from yanniv.server.errors import game_error

            self.closing = True
            error = game_error("slow_client")
            self._queue.put_nowait(_error_text(error.code, error.message, error.message_en))
            self._queue.put_nowait(_Close(CLOSE_SLOW))
            return
        self._queue.put_nowait(text)

    def close(self, code: int) -> None:
        """Close after the messages already queued have gone."""
        if not self.closing:
            self.closing = True
            self._queue.put_nowait(_Close(code))

    async def write_loop(self) -> None:
        """Drain the queue into the socket until a close is queued or the socket fails."""
        while True:
            item = await self._queue.get()
            if isinstance(item, _Close):
                with contextlib.suppress(Exception):
                    await self.ws.close(item.code)
                return
            try:
                await self.ws.send_text(item)
            except Exception:
                return


def _error_text(code: str, message: str, message_en: str) -> str:
    from yanniv.server.protocol import ErrorOut, outgoing

    return outgoing(ErrorOut, id=None, code=code, message=message, message_en=message_en)
