"""What a socket holds for its whole life under `yanniv serve`: the chain of suspended
coroutines from uvicorn's task down to the wait for the next message. Each layer is a frame
kept per socket and resumed with each of its messages, so FastAPI's and Starlette's outer
layers, the pass-through middlewares and asyncio's Queue are not in it (`app.YannivApp`,
`ws.SocketShortcut`, `lobby_feed.LobbySocket`, `socket_inbox.Inbox`)."""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

import httpx
from websockets.sync.client import connect as ws_connect

from tests.live_ws import free_port
from yanniv.app import server_config
from yanniv.server.settings import Settings

#: Layers a socket once waited in (and would again if the shortcuts were lost).
GONE = {"FastAPI.__call__", "Starlette.__call__", "ServerErrorMiddleware.__call__",
        "ExceptionMiddleware.__call__", "SocketShortcut.__call__", "LobbySocket.__call__",
        "Queue.get"}


def _chains(handler: str) -> list[list[str]]:
    """For each live task whose coroutines include `handler`: their names, outermost first
    (read from another thread while the server's loop waits: nothing moves meanwhile)."""
    found = []
    for obj in gc.get_objects():
        if not issubclass(type(obj), asyncio.Task):  # type(): a dead weak proxy has no class
            continue
        names, coro = [], obj.get_coro()
        while coro is not None and hasattr(coro, "cr_code"):
            names.append(coro.cr_code.co_qualname)
            coro = coro.cr_await
        if handler in names:
            found.append(names)
    return found


def _wait_for_chains(handler: str) -> list[list[str]]:
    deadline = time.monotonic() + 10
    while not (chains := _chains(handler)):
        assert time.monotonic() < deadline, f"no task waits in {handler}"
        time.sleep(0.05)
    return chains


def test_a_socket_waits_under_its_own_layers_only(sqlite_url: str, run_uvicorn: Any) -> None:
    port = free_port()
    config = server_config(Settings(database_url=sqlite_url), "127.0.0.1", port,
                           log_level="warning", tune_gc=False)
    with run_uvicorn(config):
        base = f"127.0.0.1:{port}"
        created = httpx.post(f"http://{base}/api/rooms", json={"pseudo": "Chaîne"}).json()
        url = f"ws://{base}/ws/{created['code']}?token={created['token']}"
        with ws_connect(url) as seat, ws_connect(f"ws://{base}/ws/lobby") as lobby:
            seat.recv(timeout=5)
            lobby.recv(timeout=5)
            rooms = _wait_for_chains("room_socket")
            lobbies = _wait_for_chains("lobby_socket")
    for chain in rooms + lobbies:
        assert not GONE & set(chain), chain
        assert chain[:2] == ["WebSocketsSansIOProtocol.run_asgi", "YannivApp.__call__"], chain
    assert len(rooms) == 1 and len(rooms[0]) <= 8, rooms
