"""Measure what a socket flood costs a real `yanniv serve` process, and what it gets back.

    python bench/socket_memory.py [--attempts 5000] [--addresses 100]

Starts `yanniv serve` (as configured by `server_config`) on a fresh SQLite file in a child
process, then, from 127.0.0.0/8 source addresses (all local on Linux):
  1. one address tries `--attempts` spectator sockets into one room, then into many rooms
     (how many are admitted shows the room and address caps);
  2. `--cycles` times, `--addresses` addresses each fill their own room's spectator places
     (the largest crowd the caps allow from that many addresses), then all close: a resident
     size that stops growing across cycles is memory reused, not leaked.
It prints the server's resident memory (VmRSS) at each step. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SERVER = """
import sys, uvicorn
from yanniv.app import server_config
from yanniv.server.settings import Settings
settings = Settings(database_url=sys.argv[1])
uvicorn.Server(server_config(settings, "127.0.0.1", int(sys.argv[2]), "warning")).run()
"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


async def open_spectator(port: int, code: str, source: str) -> ClientConnection | None:
    """A spectator socket from `source`, or None if the server refused it (error, close)."""
    ws = await connect(f"ws://127.0.0.1:{port}/ws/{code}", local_addr=(source, 0),
                       open_timeout=10, max_size=2**20)
    first = await ws.recv()
    if '"type":"state"' in str(first):
        return ws
    with contextlib.suppress(ConnectionClosed):
        await ws.recv()
    return None


async def measure(port: int, pid: int, attempts: int, addresses: int, cycles: int) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        codes = [(await http.post("/api/rooms", json={"pseudo": f"H{n}"})).json()["code"]
                 for n in range(addresses + 100)]
    print(f"idle, {len(codes)} rooms: {rss_mb(pid):.1f} MB")

    held: list[ClientConnection] = []
    one_room = [await open_spectator(port, codes[0], "127.0.0.2") for _ in range(attempts // 2)]
    admitted = [ws for ws in one_room if ws]
    many = [await open_spectator(port, codes[1 + n % 100], "127.0.0.2")
            for n in range(attempts - attempts // 2)]
    admitted_many = [ws for ws in many if ws]
    held += admitted + admitted_many
    print(f"one address, {attempts // 2} tries into one room: {len(admitted)} admitted; "
          f"{attempts - attempts // 2} more into 100 rooms: {len(admitted_many)} admitted; "
          f"{rss_mb(pid):.1f} MB")

    await asyncio.gather(*(ws.close() for ws in held))
    await asyncio.sleep(2)
    print(f"closed: {rss_mb(pid):.1f} MB")

    for cycle in range(1, cycles + 1):
        held = []
        for n in range(addresses):
            source = f"127.0.{1 + n // 250}.{1 + n % 250}"
            room = codes[100 + n]
            while (ws := await open_spectator(port, room, source)) is not None:
                held.append(ws)
        print(f"cycle {cycle}: {addresses} addresses filling their rooms: {len(held)} sockets "
              f"open, {rss_mb(pid):.1f} MB")
        await asyncio.gather(*(ws.close() for ws in held))
        await asyncio.sleep(3)
        print(f"cycle {cycle}: all closed (3 s later): {rss_mb(pid):.1f} MB")
    again = await open_spectator(port, codes[0], "127.0.0.2")
    print(f"the first address may open a socket again: {again is not None}")
    if again:
        await again.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=5000)
    parser.add_argument("--addresses", type=int, default=100)
    parser.add_argument("--cycles", type=int, default=3)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/yanniv.sqlite3"
        root = str(Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": root}
        server = subprocess.Popen([sys.executable, "-c", SERVER, url, str(port)], env=env)
        try:
            deadline = time.time() + 20
            while time.time() < deadline:
                try:
                    httpx.get(f"http://127.0.0.1:{port}/api/rooms/public", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.2)
            asyncio.run(measure(port, server.pid, args.attempts, args.addresses, args.cycles))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
