"""A TCP proxy on 127.0.0.1 that can turn into a black hole: bytes stop going through, and
nothing is closed, the way a dead Wi-Fi or a NAT that forgot the connection behaves.

`hole(seconds, direction)` swallows what the connections open now (and those opened during
the hole) carry, in both directions or only towards the client ("down": the server still
hears the client, the client hears nothing). Those connections stay dead afterwards (bytes
were lost: their streams are broken); connections opened after the hole work again. A close
by either end still passes, so a client giving up a socket frees its place at the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass, field


@dataclass(eq=False)
class _Link:
    up_dead: bool = False
    down_dead: bool = False
    writers: list[asyncio.StreamWriter] = field(default_factory=list)


class BlackHoleProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.links: set[_Link] = set()
        self.swallowed = 0  # bytes not delivered, both ways
        self._hole: tuple[float, str] | None = None  # (until, direction)
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._server: asyncio.Server | None = None

    # ------------------------------------------------------------ control (test thread)

    def __enter__(self) -> BlackHoleProxy:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the proxy did not start")
        return self

    def __exit__(self, *_exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def hole(self, seconds: float, direction: str = "both") -> None:
        assert direction in ("both", "down")
        done = threading.Event()

        def start() -> None:
            self._hole = (time.monotonic() + seconds, direction)
            for link in self.links:
                self._kill(link, direction)
            done.set()

        self._loop.call_soon_threadsafe(start)
        done.wait(5)

    def holed(self) -> bool:
        return self._hole is not None and time.monotonic() < self._hole[0]

    # ------------------------------------------------------------ the proxy (its own loop)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for link in self.links:
            for writer in link.writers:
                writer.close()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)

    @staticmethod
    def _kill(link: _Link, direction: str) -> None:
        link.down_dead = True
        link.up_dead = link.up_dead or direction == "both"

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_w.close()
            return
        link = _Link(writers=[client_w, server_w])
        if self.holed():
            assert self._hole is not None
            self._kill(link, self._hole[1])
        self.links.add(link)
        try:
            await asyncio.gather(self._pump(client_r, server_w, link, up=True),
                                 self._pump(server_r, client_w, link, up=False))
        finally:
            self.links.discard(link)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                    link: _Link, up: bool) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                if link.up_dead if up else link.down_dead:
                    self.swallowed += len(data)
                    continue
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:  # an end closed: the other end hears it, even through a hole
            with contextlib.suppress(Exception):
                writer.close()
