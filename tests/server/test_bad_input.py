"""Bad input at the edges: refused sockets, floods, chunked bodies, wrong-code limits and a
failing database. The tables of bad messages and requests are `test_bad_socket_input.py` and
`test_bad_http_input.py`."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event, text
from starlette.websockets import WebSocketDisconnect


def _acting(table: Any) -> tuple[Any, Any, dict[str, Any]]:
    state = table.sync()
    seat = state["view"]["pending"]["seat"]
    actor = table.players[seat]
    other = table.players[1 - seat]
    return actor, other, actor.last_state


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
        monkeypatch.setattr(rooms.store, "append_actions", broken)
        answer = actor.act(state["view"]["legal_actions"][0], state["version"])
        assert answer["code"] == "server_error"
        assert rooms.get(table.code).match.state is before
        monkeypatch.undo()
        assert table.step(random.Random(3))
    finally:
        table.close()


def _refused_and_unwritten(engine: Any, got: list[dict[str, Any]], room: Any, before: Any,
                           version: int, step: int) -> None:
    """The action `doomed` was answered `server_error` (no ack), nobody got a newer state,
    the room's memory is as before and the log holds no row for its step."""
    answer = got[-1]
    assert answer["type"] == "error" and answer["code"] == "server_error", answer
    assert answer["id"] == "doomed"
    assert not [m for m in got if m["type"] == "state" and m["version"] > version]
    assert room.match.state is before and room.version == version
    with engine.connect() as conn:
        logged = conn.execute(
            text("SELECT count(*) FROM room_actions WHERE match_id = :m AND step = :s"),
            {"m": room.match.id, "s": step},
        ).scalar()
    assert logged == 0


def test_failed_commit_is_never_acknowledged(client: TestClient, table_cls: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The action's statements run but its transaction's COMMIT fails: the sender gets
    `server_error` and no `ack`, nobody gets a new state, the log holds no row for it, and
    the match goes on once the database is back. The group commit talks to the driver
    directly (`action_sql.DriverConnection`, `LoopSQLite`), so its driver connections'
    `commit` is the one made to fail; any write through SQLAlchemy fails its commit too."""
    table = table_cls(client, 2)
    engine = client.app.state.db.engine
    failures: list[int] = []

    def failing_commit(_conn: Any) -> None:
        failures.append(1)
        raise RuntimeError("COMMIT failed")

    class FailingCommit:
        """A real driver connection whose statements run and whose commit fails."""

        def __init__(self, real: Any) -> None:
            self.real = real

        def cursor(self) -> Any:
            return self.real.cursor()

        def commit(self) -> None:
            failing_commit(self.real)

        def rollback(self) -> None:
            self.real.rollback()

        def close(self) -> None:
            self.real.close()

        def invalidate(self) -> None:
            self.real.invalidate()

    try:
        table.connect()
        actor, other, state = _acting(table)
        rooms = client.app.state.rooms
        room = rooms.get(table.code)
        before, version, step = room.match.state, room.version, room.match.state.step
        event.listen(engine, "commit", failing_commit)
        # The group commit's own connections: in the database thread, and on the loop.
        for log_connection in (rooms.store._log_connection, rooms.store._here_connection):
            if log_connection is not None:
                log_connection.close()
                monkeypatch.setattr(log_connection, "connect",
                                    lambda: FailingCommit(engine.raw_connection()))
        try:
            actor.send({"type": "action", "id": "doomed", "version": state["version"],
                        "action": state["view"]["legal_actions"][0]})
            got = actor.recv_until(lambda m: m["type"] in ("ack", "error"))
        finally:
            event.remove(engine, "commit", failing_commit)
            monkeypatch.undo()
        assert failures, "the commit hook never ran: the test did not test a failing commit"
        _refused_and_unwritten(engine, got, room, before, version, step)
        # The other seat's next state is the next real action's, not the failed one's.
        assert table.step(random.Random(4))
        assert other.wait_version(version + 1)["version"] == version + 1
    finally:
        table.close()


def test_commit_refused_by_postgres_is_never_acknowledged(
        app_factory: Callable[..., FastAPI], postgres_url: str, table_cls: Any) -> None:
    """On PostgreSQL the group commit is one statement outside any explicit transaction, so
    its commit is the statement's end. A deferred constraint trigger makes that commit fail
    in the database itself, after the rows were inserted: the sender gets `server_error` and
    no `ack`, nobody sees a new state, no row is left, and play goes on once it is dropped."""
    with TestClient(app_factory(postgres_url)) as client:
        table = table_cls(client, 2)
        engine = client.app.state.db.engine
        with engine.begin() as conn:
            conn.execute(text(
                "CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'commit refused'; END $$"))
        try:
            table.connect()
            actor, other, state = _acting(table)
            room = client.app.state.rooms.get(table.code)
            before, version, step = room.match.state, room.version, room.match.state.step
            with engine.begin() as conn:
                conn.execute(text(
                    "CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON room_actions "
                    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
                    "EXECUTE FUNCTION refuse_at_commit()"))
            try:
                actor.send({"type": "action", "id": "doomed", "version": state["version"],
                            "action": state["view"]["legal_actions"][0]})
                got = actor.recv_until(lambda m: m["type"] in ("ack", "error"))
            finally:
                with engine.begin() as conn:
                    conn.execute(text("DROP TRIGGER refuse ON room_actions"))
            _refused_and_unwritten(engine, got, room, before, version, step)
            with engine.connect() as conn:
                stored_version = conn.execute(
                    text("SELECT version FROM rooms WHERE code = :c"), {"c": table.code}
                ).scalar()
            assert stored_version == version
            assert table.step(random.Random(4))
            assert other.wait_version(version + 1)["version"] == version + 1
        finally:
            table.close()
