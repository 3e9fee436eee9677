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
    from yanniv.server.rooms import Room


def now_ms() -> int:
    return int(time.time() * 1000)


class Timers:
    """Arms and cancels per-room deadline handles; `on_expire(room, step)` plays for the seat."""

    def __init__(self, on_expire: Callable[[Room, int], Awaitable[None]]) -> None:
        self.on_expire = on_expire
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def arm(self, room: Room) -> None:
        """(Re)start the room's handle for its current deadline, or leave none."""
        self.cancel(room)
        match = room.match
        if match is None or match.deadline_ms is None or match.state.finished:
            return
        delay = max(0.0, (match.deadline_ms - now_ms()) / 1000)
        loop = asyncio.get_running_loop()
        self._handles[room.code] = loop.call_later(delay, self._fire, room, match.state.step)

    def cancel(self, room: Room) -> None:
        handle = self._handles.pop(room.code, None)
        if handle is not None:
            handle.cancel()

    def _fire(self, room: Room, step: int) -> None:
        self._handles.pop(room.code, None)
        task = asyncio.get_running_loop().create_task(self.on_expire(room, step))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        for task in self._tasks:
            task.cancel()
