"""What counting socket caps across processes costs a connecting socket (docs/cluster.md).

Two figures, for the in-memory counts (one process) and the Redis ones (a cluster):

- `admit`: `SocketCaps.admit` + `release` alone, `--admits` times in a row, as a socket's
  opening and close call them (the Redis give-back runs as a task: awaited here, so it counts);
- `admit in the app`: the same call timed inside the served apps during `connect`;
- `connect`: a spectator socket opened on a served app until its first `state`, then closed,
  `--sockets` times on each app, in alternate batches (what a client sees; two apps on SQLite
  with `YANNIV_CLUSTER=1`, one with Redis, one without).

    python bench/loadtest/caps_cost.py --redis redis://127.0.0.1:6379
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import connect

from yanniv.app import create_app
from yanniv.server.cluster.shared_caps import AddressCounts, RedisAddressCounts
from yanniv.server.ops.ratelimit import SocketCaps
from yanniv.server.settings import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"median {statistics.median(ordered) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms "
            f"({len(ordered)} samples)")


async def _admits(counts: AddressCounts, n: int) -> list[float]:
    caps = SocketCaps(10**6, 48, 4, counts)
    counts.start()
    samples = []
    try:
        for k in range(n):
            started = time.perf_counter()
            place = await caps.admit(f"198.18.0.{k % 200}", "ABCDEF", None)
            assert not isinstance(place, str), place
            caps.release(place)
            if isinstance(counts, RedisAddressCounts):
                await asyncio.gather(*counts._gives)  # the give-back, counted too
            samples.append(time.perf_counter() - started)
    finally:
        await counts.stop()
    return samples


async def _redis_admits(url: str, n: int) -> list[float]:
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(url)
    try:
        return await _admits(RedisAddressCounts(client, f"caps-cost:{time.time()}", 1.5, 5.0), n)
    finally:
        await client.aclose()


def _timed(app: Any, into: list[float]) -> None:
    """Record how long each `SocketCaps.admit` of `app` takes (inside the served app)."""
    caps = app.state.socket_caps
    admit = caps.admit

    async def timed(*args: Any) -> Any:
        started = time.perf_counter()
        try:
            return await admit(*args)
        finally:
            into.append(time.perf_counter() - started)

    caps.admit = timed


@contextlib.contextmanager
def _served(settings: Settings, admits: list[float]) -> Iterator[str]:
    port = free_port()
    app = create_app(settings)
    _timed(app, admits)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def _connects(folder: Path, redis_url: str, sockets: int,
              batch: int = 50) -> dict[str, list[float]]:
    """Both apps served at once, batches of `batch` sockets on each in turn, so the machine's
    other load falls on both alike."""
    samples: dict[str, list[float]] = {"connect, memory": [], "connect, redis": [],
                                       "admit in the app, memory": [],
                                       "admit in the app, redis": []}
    with contextlib.ExitStack() as stack:
        codes = {}
        for name, url in (("connect, memory", ""), ("connect, redis", redis_url)):
            settings = Settings(database_url=f"sqlite:///{folder / (name[9:] + '.sqlite3')}",
                                cluster=True, redis_url=url, code_lookup_limit=10**6)
            address = stack.enter_context(
                _served(settings, samples[f"admit in the app, {name[9:]}"]))
            code = httpx.post(f"http://{address}/api/rooms", json={"pseudo": "Mesure"}).json()
            codes[name] = f"ws://{address}/ws/{code['code']}"
        for _ in range(max(1, sockets // batch)):
            for name, url in codes.items():
                for _ in range(batch):
                    started = time.perf_counter()
                    with connect(url) as ws:
                        ws.recv(timeout=5)
                    samples[name].append(time.perf_counter() - started)
    return samples


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--admits", type=int, default=5000)
    parser.add_argument("--sockets", type=int, default=500)
    args = parser.parse_args(argv)
    results: dict[str, Any] = {
        "admit, memory": asyncio.run(_admits(AddressCounts(), args.admits)),
        "admit, redis": asyncio.run(_redis_admits(args.redis, args.admits)),
    }
    with tempfile.TemporaryDirectory() as folder:
        results.update(_connects(Path(folder), args.redis, args.sockets))
    for name, samples in results.items():
        print(f"{name}: {_ms(samples)}")


if __name__ == "__main__":
    main()
