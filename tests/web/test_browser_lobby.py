"""The home page's public list in a real browser (web/static/js/lobby_feed.js): pushed on the
lobby socket while it is open, with no polling; polled over HTTP once the socket is refused."""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.browser


@contextlib.contextmanager
def _public_room(base: str) -> Iterator[tuple[dict[str, Any], Any]]:
    """A public room with its host connected (a socket of the test): listed until it closes."""
    pseudo = f"Lobby{uuid.uuid4().hex[:8]}"
    room = httpx.post(f"{base}/api/rooms", json={"pseudo": pseudo, "public": True}).json()
    with connect(f"ws{base[4:]}/ws/{room['code']}?token={room['token']}") as host:
        host.recv(timeout=5)
        yield room, host


def _polls(page: Any) -> list[float]:
    """When the page asked for the public list over HTTP (filled as requests go)."""
    asked: list[float] = []
    page.on("request", lambda r: asked.append(time.monotonic())
            if r.url.endswith("/api/rooms/public") else None)
    return asked


def test_the_list_is_pushed_without_polling(pages: Any) -> None:
    watcher = pages.new()
    polls = _polls(watcher)
    with watcher.expect_websocket(lambda ws: ws.url.endswith("/ws/lobby")) as opened:
        watcher.goto(pages.base + "/")
    lobby = opened.value
    lobby.wait_for_event("framereceived")  # the first list: the socket is live
    watched_from = time.monotonic()
    with _public_room(pages.base) as (room, host):
        row = f'#public-rooms li[data-code="{room["code"]}"]'
        watcher.wait_for_selector(row, timeout=2_000)
        host.close()
        watcher.wait_for_selector(row, state="detached", timeout=2_000)
    watcher.wait_for_timeout(3_500)  # longer than a polling period
    assert [t for t in polls if t > watched_from] == []


def test_a_refused_lobby_socket_falls_back_to_polling(pages: Any) -> None:
    watcher = pages.new()
    polls = _polls(watcher)

    def refuse(ws: Any) -> None:
        ws.close(code=4430, reason="too many")

    watcher.route_web_socket("**/ws/lobby", refuse)
    watcher.goto(pages.base + "/")
    deadline = time.monotonic() + 8
    while not polls:  # the first poll, before the room exists (a slow load could poll late)
        assert time.monotonic() < deadline, "the page never asked for the list"
        watcher.wait_for_timeout(50)
    with _public_room(pages.base) as (room, _host):
        watcher.wait_for_selector(f'#public-rooms li[data-code="{room["code"]}"]',
                                  timeout=8_000)
    assert len(polls) >= 2  # the first at load, then at least one period
