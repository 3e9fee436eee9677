"""Deadlines of the seat that must act, as asyncio timer handles: an idle room costs nothing.

Each room holds at most one handle; it is re-armed after every change and fires once, at the
deadline persisted with the match (so deadlines survive a restart).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from yanniv.server.rooms.room import Room


def now_ms() -> int:
    return int(time.time() * 1000)


class RoomAlarms:
    """At most one pending asyncio handle per room; when it fires, its coroutine runs as a task
    (kept referenced until done). Shared by the decision deadlines and the bots' turns."""

    def __init__(self) -> None:
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def _set(self, room: Room, delay: float, start: Callable[[], Awaitable[None]]) -> None:
        loop = asyncio.get_running_loop()
        self._handles[room.code] = loop.call_later(max(0.0, delay), self._fire, room, start)

    def _fire(self, room: Room, start: Callable[[], Awaitable[None]]) -> None:
        self._handles.pop(room.code, None)
        task = asyncio.get_running_loop().create_task(start())  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self, room: Room) -> None:
        handle = self._handles.pop(room.code, None)
        if handle is not None:
            handle.cancel()

    def close(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        for task in self._tasks:
            task.cancel()


class Timers(RoomAlarms):
    """Arms and cancels per-room deadline handles; `on_expire(room, step)` plays for the seat."""

    def __init__(self, on_expire: Callable[[Room, int], Awaitable[None]]) -> None:
        super().__init__()
        self.on_expire = on_expire

    def arm(self, room: Room) -> None:
        """(Re)start the room's handle for its current deadline, or leave none."""
        self.cancel(room)
        match = room.match
        if match is None or match.deadline_ms is None or match.state.finished:
            return
        step = match.state.step
        self._set(room, (match.deadline_ms - now_ms()) / 1000, lambda: self.on_expire(room, step))
