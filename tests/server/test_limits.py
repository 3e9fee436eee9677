"""Limits fall only on the guilty: unknown room codes per client address, the client address
named by trusted proxies only, and caps on live sockets per address, room and seat.

Every client here is real: HTTP requests and WebSockets through the app, from the address the
test client claims (`client=`), as a NAT or a reverse proxy would present it.
"""

from __future__ import annotations

import contextlib
import random
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from limits.errors import ConfigurationError
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from yanniv.app import server_config
from yanniv.server.settings import Settings

RATE_LIMITED = {
    "code": "rate_limited",
    "message": "Trop de codes de salle erronés : réessayez dans quelques minutes.",
    "message_en": "Too many wrong room codes: try again in a few minutes.",
}
TOO_MANY_LOOKUPS = {
    "code": "too_many_lookups",
    "message": "Trop de salles demandées depuis votre adresse : réessayez dans une minute.",
    "message_en": "Too many rooms asked for from your address: try again in a minute.",
}
TOO_MANY_SOCKETS = 4430


def _refused(client: TestClient, url: str,
             headers: dict[str, str] | None = None) -> tuple[dict[str, Any], int]:
    """The error frame a refused socket gets, and its close code."""
    with client.websocket_connect(url, headers=dict(headers or {})) as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error", frame  # an admitted socket would wait here forever
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    return frame, closed.value.code


def _unknown(client: TestClient, forwarded: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.get("/api/rooms/ZZZZZZ", headers=headers).status_code


def _exhaust(client: TestClient, times: int) -> None:
    for _ in range(times):
        answer = client.get("/api/rooms/ZZZZZZ")
        assert answer.status_code == 404 and answer.json()["code"] == "room_not_found"


def test_nat_shared_ip_keeps_its_own_rooms(app_factory: Callable[..., FastAPI],
                                           table_cls: Any, player_cls: Any) -> None:
    """One typo loop behind a shared address: its unknown codes are refused, nothing else is."""
    app = app_factory(wrong_code_limit=5)
    with TestClient(app, client=("198.51.100.20", 41000)) as client, \
            contextlib.ExitStack() as cleanup:
        table = table_cls(client, 2)
        cleanup.callback(lambda: table.close())  # the sockets open at the end, even on failure
        table.connect()
        waiting = client.post("/api/rooms", json={"pseudo": "Hôte"}).json()
        _exhaust(client, 5)

        limited = client.get("/api/rooms/ZZZZZZ")
        assert limited.status_code == 429 and limited.json() == RATE_LIMITED
        assert 1 <= int(limited.headers["Retry-After"]) <= 300
        joined_unknown = client.post("/api/rooms/YYYYYY/join", json={"pseudo": "Bob"})
        assert joined_unknown.status_code == 429 and joined_unknown.json() == RATE_LIMITED
        assert "Retry-After" in joined_unknown.headers
        frame, code = _refused(client, "/ws/XXXXXX")
        assert (frame["type"], frame["code"], code) == ("error", "rate_limited", 4429)

        # Its valid rooms answer as before: summary, join, page, seat actions, spectating.
        summary = client.get(f"/api/rooms/{table.code.lower()}")
        assert summary.status_code == 200 and summary.json()["code"] == table.code
        joined = client.post(f"/api/rooms/{waiting['code']}/join", json={"pseudo": "Bob"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        assert client.get(f"/r/{waiting['code']}").status_code == 200
        bot = client.post(f"/api/rooms/{waiting['code']}/bots", json={"level": "facile"},
                          headers={"X-Seat-Token": waiting["token"]})
        assert bot.status_code == 200, bot.text
        assert client.post("/api/rooms", json={"pseudo": "Nouvelle"}).status_code == 201
        with contextlib.ExitStack() as stack:
            spectator = player_cls(client, table.code, None, None, stack)
            assert spectator.recv()["type"] == "state"

        # Its players' sockets drop and come back with their tokens, and the match goes on.
        table.close()
        table.stack = contextlib.ExitStack()
        players = table.connect()
        assert all(p.last_state and p.last_state["room"]["your_seat"] == p.seat for p in players)
        assert table.step(random.Random(16))

        # Valid requests neither count nor lift the limit on unknown codes.
        assert client.get("/api/rooms/ZZZZZZ").status_code == 429


def test_probing_codes_past_the_wrong_code_limit_stays_slow(
        app_factory: Callable[..., FastAPI], table_cls: Any, player_cls: Any) -> None:
    """Past the wrong-code limit a known code still answers: without a second budget an
    address could tell known codes from unknown ones at full speed. Lookups by an address that
    holds no seat of the room (known codes included) have that looser budget; once it is
    spent, known and unknown codes get the same answer. Seat tokens of the room never count."""
    app = app_factory(wrong_code_limit=2, code_lookup_limit=6, code_lookup_window=300.0)
    with TestClient(app, client=("203.0.113.7", 40000)) as client, \
            contextlib.ExitStack() as cleanup:
        table = table_cls(client, 2)  # creating is no lookup; the second seat's join is (1)
        cleanup.callback(lambda: table.close())
        table.connect()  # sockets with seat tokens: not counted
        assert _unknown(client) == 404  # 2
        assert client.get("/api/rooms/ZZZZZY").status_code == 404  # 3
        assert client.get("/api/rooms/ZZZZZX").json() == RATE_LIMITED  # 4
        assert client.get(f"/api/rooms/{table.code}").status_code == 200  # 5: known, no token
        with contextlib.ExitStack() as stack:  # 6: a spectator
            assert player_cls(client, table.code, None, None, stack).recv()["type"] == "state"

        for path in (f"/api/rooms/{table.code}", "/api/rooms/ZZZZZW"):
            answer = client.get(path)
            assert answer.status_code == 429 and answer.json() == TOO_MANY_LOOKUPS, path
            assert 1 <= int(answer.headers["Retry-After"]) <= 300
        # A wrong token does not tell that the code exists either.
        forged = client.post(f"/api/rooms/{table.code}/start", headers={"X-Seat-Token": "x"})
        assert forged.status_code == 429 and forged.json() == TOO_MANY_LOOKUPS
        for url in (f"/ws/{table.code}", f"/ws/{table.code}?token=forged", "/ws/ZZZZZW"):
            frame, code = _refused(client, url)
            assert (frame["code"], code) == ("too_many_lookups", 4429), url

        # The room's own seats go on: summaries with their tokens, sockets, play; creating too.
        for token in table.tokens:
            mine = client.get(f"/api/rooms/{table.code}", headers={"X-Seat-Token": token})
            assert mine.status_code == 200, mine.text
        table.close()
        table.stack = contextlib.ExitStack()
        table.connect()
        assert table.step(random.Random(5))
        assert client.post("/api/rooms", json={"pseudo": "Nouvelle"}).status_code == 201


def test_unknown_codes_count_again_once_the_window_passed(
        app_factory: Callable[..., FastAPI]) -> None:
    with TestClient(app_factory(wrong_code_limit=2, wrong_code_window=1.0)) as client:
        _exhaust(client, 2)
        limited = client.get("/api/rooms/ZZZZZZ")
        assert limited.status_code == 429 and limited.headers["Retry-After"] == "1"
        time.sleep(1.1)
        assert _unknown(client) == 404


def test_forwarded_for_from_an_untrusted_peer_is_ignored(
        app_factory: Callable[..., FastAPI]) -> None:
    """Without a configured proxy, rotating X-Forwarded-For does not escape the limit."""
    with TestClient(app_factory(wrong_code_limit=3), client=("203.0.113.9", 40000)) as client:
        assert [_unknown(client, f"198.51.100.{n}") for n in range(3)] == [404] * 3
        assert _unknown(client, "198.51.100.77") == 429
        frame, code = _refused(client, "/ws/ZZZZZZ", {"X-Forwarded-For": "192.0.2.200"})
        assert (frame["code"], code) == ("rate_limited", 4429)


def test_forwarded_for_from_a_trusted_proxy_names_the_client(
        app_factory: Callable[..., FastAPI]) -> None:
    app = app_factory(wrong_code_limit=3, trusted_proxies="10.0.0.0/8, 192.0.2.1")
    with TestClient(app, client=("10.0.0.1", 40000)) as proxy:
        assert [_unknown(proxy, "198.51.100.1") for _ in range(3)] == [404] * 3
        assert _unknown(proxy, "198.51.100.1") == 429
        # A client's forged entry comes first; the proxy appends the real one, which counts.
        assert _unknown(proxy, "198.51.100.50, 198.51.100.1") == 429
        # Another client behind the same proxy, and the proxy itself, are not limited.
        assert _unknown(proxy, "198.51.100.2") == 404
        assert _unknown(proxy) == 404
        # Trusted hops on the right are skipped: the client is the rightmost untrusted entry.
        assert _unknown(proxy, "198.51.100.1, 10.9.9.9") == 429
        frame, code = _refused(proxy, "/ws/ZZZZZZ", {"X-Forwarded-For": "198.51.100.1"})
        assert (frame["code"], code) == ("rate_limited", 4429)
        frame, code = _refused(proxy, "/ws/ZZZZZZ", {"X-Forwarded-For": "198.51.100.3"})
        assert (frame["code"], code) == ("room_not_found", 4404)
        # An IPv6 subscriber's /64 is one address: rotating inside it does not escape.
        assert [_unknown(proxy, f"2001:db8:1:2::{n}") for n in range(1, 4)] == [404] * 3
        assert _unknown(proxy, "2001:db8:1:2::ffff") == 429
        assert _unknown(proxy, "2001:db8:1:3::1") == 404


def test_limit_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YANNIV_TRUSTED_PROXIES", " 10.0.0.0/8, 192.0.2.1 ,")
    monkeypatch.setenv("YANNIV_LIMITS_STORAGE", "memory://")
    monkeypatch.setenv("YANNIV_MAX_SOCKETS_PER_IP", "7")
    settings = Settings()
    assert settings.trusted_proxy_list() == ["10.0.0.0/8", "192.0.2.1"]
    assert (settings.limits_storage, settings.max_sockets_per_ip) == ("memory://", 7)
    assert (settings.max_sockets_per_room, settings.max_sockets_per_seat) == (48, 4)
    monkeypatch.setenv("YANNIV_TRUSTED_PROXIES", "10.0.0.0/8, proxy.local")
    with pytest.raises(ValidationError):
        Settings()
    monkeypatch.delenv("YANNIV_TRUSTED_PROXIES")
    with pytest.raises(ValidationError):  # 8 seats of 4: no place left for a spectator
        Settings(max_sockets_per_room=32, max_sockets_per_seat=4)


def test_the_limits_storage_is_the_configured_one(app_factory: Callable[..., FastAPI]) -> None:
    """The URI reaches `limits`: a scheme it does not know stops the app from being made."""
    with pytest.raises(ConfigurationError):
        app_factory(limits_storage="nosuch://somewhere")
    with TestClient(app_factory(limits_storage="memory://", wrong_code_limit=1)) as client:
        assert [_unknown(client), _unknown(client)] == [404, 429]


def test_socket_caps_refuse_the_next_socket_and_free_on_close(
        app_factory: Callable[..., FastAPI], table_cls: Any, player_cls: Any) -> None:
    """Spectators share what the seats leave; a seat has its own sockets; an address has all."""
    app = app_factory(max_sockets_per_ip=5, max_sockets_per_room=10, max_sockets_per_seat=1)
    with TestClient(app) as client, contextlib.ExitStack() as stack:
        table = table_cls(client, 2)
        code = table.code
        watchers = [contextlib.ExitStack() for _ in range(2)]
        for watcher in watchers:
            player_cls(client, code, None, None, stack.enter_context(watcher)).recv()
        frame, close = _refused(client, f"/ws/{code}")
        assert close == TOO_MANY_SOCKETS
        assert frame == {
            "type": "error", "id": None, "code": "too_many_spectators",
            "message": "Cette salle a déjà trop de spectateurs : réessayez plus tard.",
            "message_en": "This room already has too many spectators: try again later.",
        }
        # The watchers cannot take the players' places.
        seats = [player_cls(client, code, token, n, stack) for n, token in enumerate(table.tokens)]
        assert [s.recv()["room"]["your_seat"] for s in seats] == [0, 1]
        frame, close = _refused(client, f"/ws/{code}?token={table.tokens[0]}")
        assert (frame["code"], close) == ("too_many_seat_sockets", TOO_MANY_SOCKETS)
        assert frame["message"] == ("Votre place est déjà ouverte dans trop d'onglets : "
                                    "fermez-en un.")
        assert frame["message_en"] == "Your seat is already open in too many tabs: close one."

        watchers[0].close()  # a spectator leaves: its place is free again
        player_cls(client, code, None, None, stack).recv()
        frame, close = _refused(client, f"/ws/{code}")
        assert (frame["code"], close) == ("too_many_spectators", TOO_MANY_SOCKETS)

        # Four sockets from this address, a fifth in another room: the address is full.
        other = client.post("/api/rooms", json={"pseudo": "Autre"}).json()
        host = contextlib.ExitStack()
        player_cls(client, other["code"], other["token"], 0, stack.enter_context(host)).recv()
        frame, close = _refused(client, f"/ws/{other['code']}")
        assert close == TOO_MANY_SOCKETS
        assert frame["code"] == "too_many_sockets_ip"
        assert frame["message"] == ("Trop de connexions ouvertes depuis votre adresse : fermez "
                                    "des onglets ou réessayez plus tard.")
        assert frame["message_en"] == ("Too many connections open from your address: close "
                                       "some tabs or try again later.")
        host.close()
        player_cls(client, other["code"], None, None, stack).recv()


def test_socket_places_return_on_every_close_path(
        app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    """One socket per address: each way a socket ends must give its place back."""
    app = app_factory(max_sockets_per_ip=1, flood_rate=1.0, flood_burst=3)
    with TestClient(app) as client:
        table = table_cls(client, 2, start=False)
        code, host = table.code, table.host

        def admitted(ws: Any) -> None:
            """This socket holds the address's one place: it got a state, the next is refused."""
            assert ws.receive_json()["type"] == "state"
            frame, close = _refused(client, f"/ws/{code}")
            assert (frame["code"], close) == ("too_many_sockets_ip", TOO_MANY_SOCKETS)

        def closed_by_server(ws: Any) -> int:
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            return closed.value.code

        with client.websocket_connect(f"/ws/{code}") as ws:  # the client closes
            admitted(ws)
        with client.websocket_connect(f"/ws/{code}") as ws:  # flood: the server closes
            admitted(ws)
            for _ in range(10):
                ws.send_json({"type": "ping"})
            assert closed_by_server(ws) == 4008
        with client.websocket_connect(f"/ws/{code}?token={table.tokens[1]}") as ws:  # removed
            admitted(ws)
            assert client.delete(f"/api/rooms/{code}/seats/1", headers=host).status_code == 200
            assert closed_by_server(ws) == 4403
        with client.websocket_connect(f"/ws/{code}") as ws:  # the server shuts down
            admitted(ws)
            client.portal.call(client.app.state.rooms.close)
            assert closed_by_server(ws) == 1012
        with client.websocket_connect(f"/ws/{code}?token={table.tokens[0]}") as ws:
            admitted(ws)


@contextlib.contextmanager
def _served(settings: Settings, run_uvicorn: Any) -> Iterator[str]:
    """The app under uvicorn as `yanniv serve` configures it, on a free local port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with run_uvicorn(server_config(settings, "127.0.0.1", port, log_level="warning",
                                   tune_gc=False)):
        yield f"127.0.0.1:{port}"


def _ws_close_code(url: str, forwarded: str) -> int:
    with ws_connect(url, additional_headers={"X-Forwarded-For": forwarded}) as ws:
        ws.recv(timeout=5)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


@pytest.mark.parametrize("trusted", ["", "127.0.0.1"])
def test_yanniv_serve_honours_forwarded_for_only_from_trusted_proxies(
        sqlite_url: str, trusted: str, run_uvicorn: Any) -> None:
    """Through the real server a local client reaches it from 127.0.0.1, which uvicorn alone
    would trust: rotating X-Forwarded-For escapes the limit only if 127.0.0.1 is configured."""
    settings = Settings(database_url=sqlite_url, wrong_code_limit=3, trusted_proxies=trusted)
    with _served(settings, run_uvicorn) as address, \
            httpx.Client(base_url=f"http://{address}") as http:
        answers = [http.get("/api/rooms/ZZZZZZ", headers={"X-Forwarded-For": f"192.0.2.{n}"})
                   for n in range(5)]
        close = _ws_close_code(f"ws://{address}/ws/ZZZZZZ", "192.0.2.99")
    if trusted:
        assert [a.status_code for a in answers] == [404] * 5 and close == 4404
    else:
        assert [a.status_code for a in answers] == [404] * 3 + [429] * 2 and close == 4429


@pytest.mark.parametrize("accept", [False, True])
def test_yanniv_serve_refuses_permessage_deflate_unless_configured(
        sqlite_url: str, accept: bool, run_uvicorn: Any) -> None:
    """Browsers always offer permessage-deflate; `yanniv serve` declines it by default (memory
    and CPU per socket, see `Settings.ws_per_message_deflate`) and accepts it when set."""
    settings = Settings(database_url=sqlite_url, ws_per_message_deflate=accept)
    with _served(settings, run_uvicorn) as address, \
            ws_connect(f"ws://{address}/ws/ZZZZZZ", compression="deflate") as ws:
        agreed = ws.response.headers.get("Sec-WebSocket-Extensions") or ""
        ws.recv(timeout=5)
    assert ("permessage-deflate" in agreed) is accept
