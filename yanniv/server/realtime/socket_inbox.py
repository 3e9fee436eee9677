"""The two waiting points of a socket's protocol, without asyncio's general-purpose classes.

uvicorn's WebSocket protocol gives every socket an `asyncio.Queue` for the messages its app
has not read yet and an `asyncio.Event` for "the transport takes writes". A Queue holds four
deques (its items, its getters, its putters, and its own Event's waiters) and an Event one:
each deque is allocated with a 64-slot block, 760 bytes even when empty, ~4.5 KB a socket
in all that sits idle for the socket's whole life, and a `Queue.get` coroutine frame more
under every socket's reader. A socket has one reader and, at any time, a handful of
messages waiting at most (`ws_max_queue` pauses reading), so a list and one future do.
"""

from __future__ import annotations

import asyncio
from typing import Any


class Inbox:
    """What uvicorn's protocol uses of `asyncio.Queue` (`put_nowait`, `get`, `empty`,
    `qsize`), for one reader at a time: the ASGI app's `receive`."""

    __slots__ = ("_getter", "_items", "_loop")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._items: list[Any] = []
        self._getter: asyncio.Future[Any] | None = None
        self._loop = loop

    def put_nowait(self, item: Any) -> None:
        getter = self._getter
        if getter is not None:
            self._getter = None
            if not getter.done():  # a reader cancelled meanwhile leaves it for the next get
                getter.set_result(item)
                return
        self._items.append(item)

    def get(self) -> asyncio.Future[Any]:
        """The oldest message, as a future to await (done at once when one waits)."""
        if self._getter is not None and not self._getter.done():
            raise RuntimeError("a socket's messages have one reader at a time")
        future = self._loop.create_future()
        if self._items:
            future.set_result(self._items.pop(0))
        else:
            self._getter = future
        return future

    def take_received(self) -> list[Any]:
        """Remove and return the client's messages waiting here (`websocket.receive`), in
        order, leaving anything else (a disconnect): what `SocketProtocol.read_text` hands
        its taker first."""
        items = self._items
        received = [m for m in items if m.get("type") == "websocket.receive"]
        if received:
            self._items = [m for m in items if m.get("type") != "websocket.receive"]
        return received

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)


class Flag:
    """What uvicorn's protocol uses of `asyncio.Event` (`set`, `clear`, `is_set`, `wait`),
    with no waiter list until somebody waits (a send held back by a slow reader)."""

    __slots__ = ("_loop", "_value", "_waiters")

    def __init__(self, loop: asyncio.AbstractEventLoop, value: bool = True) -> None:
        self._value = value
        self._waiters: list[asyncio.Future[bool]] | None = None
        self._loop = loop

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        if self._value:
            return
        self._value = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(True)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> bool:
        if self._value:
            return True
        waiter = self._loop.create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            return await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)
