"""Every kind of bad input gets a clear error to its sender only (or, for abuse, a closed
socket); the room is unchanged and the other players are not disturbed."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect


def _acting(table: Any) -> tuple[Any, Any, dict[str, Any]]:
    state = table.sync()
    seat = state["view"]["pending"]["seat"]
    actor = table.players[seat]
    other = table.players[1 - seat]
    return actor, other, actor.last_state


def _illegal_play(state: dict[str, Any]) -> dict[str, Any]:
    """Two cards of the actor's hand that do not form a combination."""
    hand = state["view"]["hand"]
    for a in hand:
        for b in hand:
            if a[0] != b[0] and a < b:
                return {"type": "Play", "cards": [a, b]}
    return {"type": "Play", "cards": ["AS", "KD"]}


# (name, who sends, how the message is made from the actor's state, expected error code)
SOCKET_CASES: list[tuple[str, str, Callable[[dict[str, Any]], Any], str | None]] = [
    ("malformed JSON", "actor", lambda s: "{not json", "bad_json"),
    ("JSON but not an object", "actor", lambda s: "[1, 2, 3]", "unknown_type"),
    ("unknown type", "actor", lambda s: {"type": "dance"}, "unknown_type"),
    ("missing fields", "actor", lambda s: {"type": "action", "id": "x1"}, "bad_message"),
    ("extra field", "actor",
     lambda s: {"type": "action", "id": "x2", "version": s["version"], "action": {},
                "cheat": True}, "bad_message"),
    ("huge message", "actor", lambda s: "x" * 5000, "message_too_large"),
    ("unknown action", "actor",
     lambda s: {"type": "action", "id": "x3", "version": s["version"],
                "action": {"type": "Teleport"}}, "bad_action"),
    ("bad card code", "actor",
     lambda s: {"type": "action", "id": "x4", "version": s["version"],
                "action": {"type": "Play", "cards": ["ZZ"]}}, "bad_action"),
    ("out of turn", "other",
     lambda s: {"type": "action", "id": "x5", "version": s["version"],
                "action": {"type": "DrawPile"}}, "not_your_turn"),
    ("illegal combination", "actor",
     lambda s: {"type": "action", "id": "x6", "version": s["version"],
                "action": _illegal_play(s)}, None),
    ("stale version", "actor",
     lambda s: {"type": "action", "id": "x7", "version": s["version"] - 1,
                "action": s["view"]["legal_actions"][0]}, "stale_version"),
    ("future version", "actor",
     lambda s: {"type": "action", "id": "x8", "version": s["version"] + 5,
                "action": s["view"]["legal_actions"][0]}, "stale_version"),
]


@pytest.mark.parametrize(("name", "who", "make", "code"), SOCKET_CASES,
                         ids=[c[0] for c in SOCKET_CASES])
def test_bad_socket_input(client: TestClient, table_cls: Any, name: str, who: str,
                          make: Callable[[dict[str, Any]], Any], code: str | None) -> None:
    table = table_cls(client, 2)
    try:
        table.connect()
        actor, other, state = _acting(table)
        sender = actor if who == "actor" else other
        before = client.app.state.rooms.get(table.code).match.state
        message = make(state)
        if isinstance(message, str):
            sender.ws.send_text(message)
        else:
            sender.send(message)
        error = sender.recv_until(lambda m: m["type"] == "error")[-1]
        if code is not None:
            assert error["code"] == code
        assert error["message"] and error["message_en"]
        room = client.app.state.rooms.get(table.code)
        assert room.match.state is before and room.version == state["version"]
        # The socket still works and the match goes on for everyone.
        sender.send({"type": "ping"})
        assert sender.recv_until(lambda m: m["type"] in ("pong", "state"))[-1]["type"] == "pong"
        assert table.step(random.Random(1))
        assert not [m for m in other.received if m["type"] == "error"] or who == "other"
    finally:
        table.close()


def test_wrong_token_closes_socket(client: TestClient, table_cls: Any) -> None:
    table = table_cls(client, 2)
    with client.websocket_connect(f"/ws/{table.code}?token=not-a-token") as ws:
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401


def test_unknown_room_closes_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/ZZZZZZ") as ws:
        assert ws.receive_json()["code"] == "room_not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_flooding_closes_socket(app_factory: Callable[..., FastAPI], table_cls: Any) -> None:
    with TestClient(app_factory(flood_rate=5.0, flood_burst=20)) as client:
        table = table_cls(client, 2)
        table.connect()
        flooder = table.players[0]
        for _ in range(60):
            flooder.send({"type": "ping"})
        with pytest.raises(WebSocketDisconnect) as closed:
            flooder.recv_until(lambda m: m["type"] == "error" and m["code"] == "never")
        assert closed.value.code == 4008
        assert any(m.get("code") == "flood" for m in flooder.received)
        # The other player is undisturbed.
        table.players[1].send({"type": "ping"})
        assert table.players[1].recv_until(lambda m: m["type"] == "pong")
        table.close()


HTTP_CASES: list[tuple[str, str, str, Any, str | None, int, str]] = [
    # (name, method, path suffix, body, token: "host" / "other" / "wrong" / None, status, code)
    ("empty pseudo", "create", "", {"pseudo": "   "}, None, 422, "pseudo_length"),
    ("long pseudo", "create", "", {"pseudo": "x" * 21}, None, 422, "pseudo_length"),
    ("control char pseudo", "create", "", {"pseudo": "Léa\x07"}, None, 422, "pseudo_chars"),
    ("pseudo not text", "create", "", {"pseudo": 12}, None, 422, "invalid_request"),
    ("taken pseudo", "post", "/join", {"pseudo": "joueur0"}, None, 409, "pseudo_taken"),
    ("start without token", "post", "/start", None, None, 401, "missing_token"),
    ("start with wrong token", "post", "/start", None, "wrong", 403, "bad_token"),
    ("start by non-host", "post", "/start", None, "other", 403, "not_host"),
    ("manches zero", "patch", "/settings", {"manches": 0}, "host", 422, "bad_setting"),
    ("manches 21", "patch", "/settings", {"manches": 21}, "host", 422, "bad_setting"),
    ("manches text", "patch", "/settings", {"manches": "6"}, "host", 422, "bad_setting"),
    ("timer too short", "patch", "/settings", {"timer_seconds": 5}, "host", 422, "bad_setting"),
    ("timer too long", "patch", "/settings", {"timer_seconds": 601}, "host", 422, "bad_setting"),
    ("first player 7", "patch", "/settings", {"first_player": 7}, "host", 422, "bad_setting"),
    ("unknown setting", "patch", "/settings", {"jokers": True}, "host", 422, "bad_setting"),
    ("settings by non-host", "patch", "/settings", {"manches": 3}, "other", 403, "not_host"),
    ("remove the host", "delete", "/seats/0", None, "host", 409, "cannot_remove_host"),
    ("remove empty seat", "delete", "/seats/3", None, "host", 404, "seat_not_found"),
    ("rematch while waiting", "post", "/rematch", None, "host", 409, "not_finished"),
    ("huge body", "patch", "/settings", {"x": "y" * 20000}, "host", 413, "request_too_large"),
    ("body not an object", "patch", "/settings", [1, 2], "host", 422, "invalid_request"),
]


@pytest.mark.parametrize(("name", "method", "suffix", "body", "token", "status", "code"),
                         HTTP_CASES, ids=[c[0] for c in HTTP_CASES])
def test_bad_http_input(client: TestClient, name: str, method: str, suffix: str, body: Any,
                        token: str | None, status: int, code: str) -> None:
    host = client.post("/api/rooms", json={"pseudo": "Joueur0"}).json()
    other = client.post(f"/api/rooms/{host['code']}/join", json={"pseudo": "Bob"}).json()
    before = client.get(f"/api/rooms/{host['code']}").json()
    tokens = {"host": host["token"], "other": other["token"], "wrong": "wrong-token"}
    headers = {"X-Seat-Token": tokens[token]} if token else {}
    path = "/api/rooms" if method == "create" else f"/api/rooms/{host['code']}{suffix}"
    verb = "post" if method == "create" else method
    kwargs: dict[str, Any] = {"headers": headers}
    if body is not None:
        kwargs["json"] = body
    response = client.request(verb.upper(), path, **kwargs)
    assert response.status_code == status, response.text
    assert response.json()["code"] == code
    assert response.json()["message"] and response.json()["message_en"]
    if method != "create":
        assert client.get(f"/api/rooms/{host['code']}").json() == before


def _chunks(total: int, size: int = 1000) -> Iterator[bytes]:
    """A JSON body sent chunked, with no Content-Length header."""
    yield b'{"pseudo": "'
    for _ in range(total // size):
        yield b"y" * size
    yield b'"}'


@pytest.mark.parametrize("path", ["/api/rooms", "/api/profiles/login"])
def test_huge_chunked_body_is_refused(client: TestClient, path: str) -> None:
    """Leaving Content-Length out does not get a body past the cap (the profile API too)."""
    response = client.post(path, content=_chunks(20000),
                           headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers
    assert response.status_code == 413, response.text
    assert response.json()["code"] == "request_too_large"
    assert client.get("/api/rooms/public").json() == []


def test_small_chunked_body_is_read_whole(client: TestClient) -> None:
    """A body under the cap arriving in several chunks reaches the route intact."""
    response = client.post("/api/rooms", content=iter([b'{"pseu', b'do": "L', "éa\"}".encode()]),
                           headers={"content-type": "application/json"})
    assert response.status_code == 201, response.text
    assert response.json()["room"]["seats"][0]["pseudo"] == "Léa"


def test_wrong_codes_are_rate_limited(app_factory: Callable[..., FastAPI]) -> None:
    """Past the limit, unknown codes are refused for a while; a room that exists still answers
    (more in test_limits.py)."""
    with TestClient(app_factory(wrong_code_limit=5)) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
        assert client.get(f"/api/rooms/{code.lower()}").status_code == 200
        for _ in range(5):
            assert client.get("/api/rooms/ABCDEF").json()["code"] == "room_not_found"
        limited = client.post("/api/rooms/ABCDEF/join", json={"pseudo": "Bob"})
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert limited.headers["Retry-After"].isdigit()
        with client.websocket_connect("/ws/ABCDEF") as ws:
            assert ws.receive_json()["code"] == "rate_limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4429
        assert client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"}).status_code == 200
        with client.websocket_connect(f"/ws/{code}") as ws:
            assert ws.receive_json()["type"] == "state"


def test_database_failure_changes_nothing(client: TestClient, table_cls: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """If the action cannot be written, it is not played: error to the sender, state intact."""
    table = table_cls(client, 2)
    try:
        table.connect()
        actor, _other, state = _acting(table)
        rooms = client.app.state.rooms
        before = rooms.get(table.code).match.state

        def broken(*_args: Any) -> None:
            raise RuntimeError("disk full")

        monkeypatch.setattr(rooms.store, "append_action", broken)
        answer = actor.act(state["view"]["legal_actions"][0], state["version"])
        assert answer["code"] == "server_error"
        assert rooms.get(table.code).match.state is before
        monkeypatch.undo()
        assert table.step(random.Random(3))
    finally:
        table.close()
