"""An app served by uvicorn on 127.0.0.1 for tests with real WebSocket clients, and one
client socket that keeps the `state` frames it receives (the WebSocket leak tests of each
game play their matches through these)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

#: How long a socket waits for the frame it expects before the test fails.
FRAME_WAIT_S = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served_app(db_dir: Path, **overrides: Any) -> Iterator[tuple[Any, str]]:
    """The app on a SQLite file in `db_dir`, limits raised for a test's traffic (and any
    other setting in `overrides`), served on a free port as `yanniv serve` serves it
    (`server_config`: the socket protocol, no permessage-deflate): yields the app and its
    `host:port`."""
    import uvicorn

    from tests.threaded_uvicorn import start_threaded, stop_threaded
    from yanniv.app import server_config
    from yanniv.server.settings import Settings

    settings = Settings(database_url=f"sqlite:///{db_dir / 'yanniv.sqlite3'}",
                        **{"flood_rate": 100_000.0, "flood_burst": 100_000,
                           "code_lookup_limit": 100_000, **overrides})
    port = free_port()
    # Without `tune_gc`: the collector's thresholds are the test process's to keep.
    uv = uvicorn.Server(server_config(settings, "127.0.0.1", port, log_level="warning",
                                      tune_gc=False))
    thread = start_threaded(uv)
    try:
        yield uv.config.app, f"127.0.0.1:{port}"
    finally:
        stop_threaded(uv, thread)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The garbage collector off while a leak test checks the frames it got, between matches
    (the server on its thread has nothing in flight then): parsed JSON holds no reference
    cycle, reference counting frees it, and the collector walking the thousands of containers
    the check builds was a quarter of such a test's time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class Recipient:
    """One socket (a seat, or a spectator when `seat` is None) and the state frames it got.

    The frames are kept as the text received and parsed when read (`states`): parsed, the
    thousands a leak test holds were containers that every collection of the garbage
    collector walked (a third of such a test's time); text, it does not look into them."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.frames: list[str | bytes] = []
        #: The last state frame received, parsed (None before the first).
        self.last: dict[str, Any] | None = None
        self.answers: dict[str, dict[str, Any]] = {}
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for text in self.ws:
            message = orjson.loads(text)
            if message["type"] == "state" and message["view"] is not None:
                self.frames.append(text)
                self.last = message
            elif message["type"] in ("ack", "error") and message.get("id"):
                self.answers[message["id"]] = message
            self.changed.set()

    @property
    def states(self) -> list[dict[str, Any]]:
        """Every state frame received, in order, parsed anew."""
        return [orjson.loads(text) for text in self.frames]

    async def until(self, predicate: Callable[[], bool]) -> None:
        deadline = time.monotonic() + FRAME_WAIT_S
        while not predicate():
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), deadline - time.monotonic())

    async def until_version(self, version: int) -> None:
        await self.until(lambda: self.version >= version)

    async def answer(self, action_id: str) -> dict[str, Any]:
        await self.until(lambda: action_id in self.answers)
        return self.answers[action_id]

    async def until_state(self) -> dict[str, Any]:
        """The last state frame, once there is one."""
        await self.until(lambda: self.last is not None)
        assert self.last is not None
        return self.last

    @property
    def version(self) -> int:
        return self.last["version"] if self.last is not None else -1
