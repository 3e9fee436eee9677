"""Room leases (docs/cluster.md), on SQLite and PostgreSQL: a process whose lease was taken
cannot write the room (its write is refused, the client gets `room_moved`, the room leaves
its memory and its sockets close with 1012); a process takes over a room whose lease ran out
and the match goes on there to its end; a graceful stop hands the rooms over at once; a
process alone takes every lease at start, whoever held them.

"Process B" is a second app on the same database, as a second `yanniv serve` would be.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from yanniv.games import get_game
from yanniv.games.yanniv.rules import MatchConfig, apply, start_match

#: A short lease, so take-overs happen within a test.
FAST = {"cluster": True, "lease_seconds": 1.0, "lease_renew_seconds": 0.2}
SEED = "lease-seed-7"


@pytest.fixture(params=["sqlite_url", "postgres_url"])
def url(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue(request.param)


def _sql(url: str, statement: str, **params: Any) -> list[tuple[Any, ...]]:
    """Run one statement on its own connection, as another process would."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement), params)
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


def _lease(url: str, code: str) -> tuple[str, int, int]:
    rows = _sql(url, "SELECT owner, epoch, expires_ms FROM room_leases WHERE room_code = :c",
                c=code)
    assert len(rows) == 1
    return rows[0]  # type: ignore[return-value]


def _logged(url: str, code: str) -> list[dict[str, Any]]:
    """The room's latest match's stored actions, in step order, checked contiguous."""
    rows = _sql(url, "SELECT a.step, a.action FROM room_actions a JOIN room_matches m "
                     "ON m.id = a.match_id WHERE m.room_code = :c ORDER BY a.step", c=code)
    assert [step for step, _ in rows] == list(range(len(rows)))
    return [orjson.loads(a) if isinstance(a, str | bytes) else a for _, a in rows]


def _wait(predicate: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _closed_with(player: Any) -> int:
    """Read until the server closes the socket; the close code."""
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(100):
            player.recv()
    return closed.value.code


def _refused_turn(table: Any) -> tuple[Any, dict[str, Any]]:
    """The seat to act sends a legal action; its answer (the caller expects a refusal)."""
    state = table.sync()
    actor = table.players[state["view"]["pending"]["seat"]]
    action = actor.last_state["view"]["legal_actions"][0]
    return actor, actor.act(action, actor.last_state["version"])


@contextlib.contextmanager
def _serving(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


def test_a_write_after_the_lease_was_taken_is_refused(
        app_factory: Callable[..., FastAPI], url: str, table_cls: Any) -> None:
    """The lease is stolen in the database behind A's back; A's next action is refused, A
    drops the room and closes its sockets, and the log holds nothing of that action."""
    app = app_factory(url)
    rng = random.Random(5)
    with _serving(app) as client, table_cls(client, 2) as table:
        client.portal.call(app.state.rooms.keeper.stop)  # the write alone must find out
        table.connect()
        for _ in range(6):
            assert table.step(rng)
        code = table.code
        logged = len(_logged(url, code))
        version = _sql(url, "SELECT version FROM rooms WHERE code = :c", c=code)[0][0]
        owner, epoch, _ = _lease(url, code)
        assert owner == app.state.rooms.leases.owner
        _sql(url, "UPDATE room_leases SET owner = 'process-b', epoch = epoch + 1 "
                  "WHERE room_code = :c", c=code)
        _actor, answer = _refused_turn(table)
        assert answer["type"] == "error" and answer["code"] == "room_moved", answer
        assert app.state.rooms.get(code) is None
        for player in table.players:
            assert _closed_with(player) == 1012
        assert len(_logged(url, code)) == logged
        assert _sql(url, "SELECT version FROM rooms WHERE code = :c", c=code)[0][0] == version
        assert _lease(url, code)[:2] == ("process-b", epoch + 1)
        assert client.get(f"/api/rooms/{code}").status_code == 404


def test_a_lobby_change_after_the_lease_was_taken_is_refused(
        app_factory: Callable[..., FastAPI], url: str) -> None:
    app = app_factory(url)
    with _serving(app) as client:
        client.portal.call(app.state.rooms.keeper.stop)  # the write alone must find out
        host = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
        code = host["code"]
        _sql(url, "UPDATE room_leases SET owner = 'process-b', epoch = epoch + 1 "
                  "WHERE room_code = :c", c=code)
        joined = client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"})
        assert joined.status_code == 503 and joined.json()["code"] == "room_moved"
        assert app.state.rooms.get(code) is None
    seats = _sql(url, "SELECT pseudo FROM room_seats WHERE room_code = :c", c=code)
    assert seats == [("Léa",)]


def test_a_renewal_finds_the_lease_taken(app_factory: Callable[..., FastAPI], url: str,
                                         table_cls: Any) -> None:
    """Without any write of its own, A learns at its next renewal that the room moved."""
    app = app_factory(url, **FAST)
    with _serving(app) as client, table_cls(client, 2) as table:
        table.connect()
        _sql(url, "UPDATE room_leases SET owner = 'process-b', epoch = epoch + 1 "
                  "WHERE room_code = :c", c=table.code)
        _wait(lambda: app.state.rooms.get(table.code) is None)
        for player in table.players:
            assert _closed_with(player) == 1012


def test_a_renewal_extends_only_the_leases_still_ours(app_factory: Callable[..., FastAPI],
                                                     url: str) -> None:
    """One renewal of four rooms: the one still ours at its epoch and the one whose lease ran
    out untaken are extended and marked listed as asked; the one another process took is left
    as it is; it and the one at another epoch than ours are reported gone."""
    app = app_factory(url)
    with _serving(app) as client:
        codes = [client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
                 for _ in range(4)]
        leases = client.app.state.rooms.leases  # type: ignore[attr-defined]
        client.portal.call(client.app.state.rooms.keeper.stop)  # type: ignore[attr-defined]
    ours, ran_out, taken, newer = codes
    _sql(url, "UPDATE room_leases SET expires_ms = 0 WHERE room_code = :c", c=ran_out)
    _sql(url, "UPDATE room_leases SET owner = 'process-b', epoch = epoch + 1, expires_ms = 7 "
              "WHERE room_code = :c", c=taken)
    _sql(url, "UPDATE room_leases SET epoch = epoch + 1, expires_ms = 7 WHERE room_code = :c",
         c=newer)
    held = {code: _lease(url, code)[1] for code in (ours, ran_out)}
    held |= {taken: held[ours], newer: held[ours]}
    before = int(time.time() * 1000)
    assert leases.renew(held, [ran_out, taken]) == {ours, ran_out}
    for code in (ours, ran_out):
        assert _lease(url, code)[2] >= before + leases.ttl_ms - 1000
    assert _lease(url, taken) == ("process-b", held[ours] + 1, 7)
    assert _lease(url, newer)[1] == held[ours] + 1
    listed = _sql(url, "SELECT room_code FROM room_leases WHERE listed = :t", t=True)
    assert listed == [(ran_out,)]
    assert leases.renew({}, []) == set()


def test_sqlite_renews_on_the_loop_unless_the_thread_holds_the_lock(
        app_factory: Callable[..., FastAPI], sqlite_url: str) -> None:
    """On SQLite the keeper renews on the group commit's own connection (no database thread,
    so no wait for SQLite's lock in it); while another connection holds the write lock it
    gives up at once, writing nothing, and the renewal goes to the thread."""
    app = app_factory(sqlite_url)
    with _serving(app) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
        rooms = client.app.state.rooms  # type: ignore[attr-defined]
        client.portal.call(rooms.keeper.stop)
        _sql(sqlite_url, "UPDATE room_leases SET expires_ms = 0")
        held = {code: _lease(sqlite_url, code)[1]}
        assert rooms.store.renew_leases_here(held, []) == {code}
        assert _lease(sqlite_url, code)[2] > 0
        _sql(sqlite_url, "UPDATE room_leases SET expires_ms = 0")
        locker = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None,
                                 check_same_thread=False)
        try:
            locker.execute("BEGIN IMMEDIATE")
            assert rooms.store.renew_leases_here(held, []) is None
            assert _lease(sqlite_url, code)[2] == 0
            release = threading.Timer(0.3, locker.execute, ("ROLLBACK",))
            release.start()
            client.portal.call(rooms.keeper.tick)  # the thread waits for the lock
            release.join()
        finally:
            locker.close()
        assert _lease(sqlite_url, code)[2] > 0


def test_take_over_after_the_lease_ran_out(app_factory: Callable[..., FastAPI], url: str,
                                           table_cls: Any, player_cls: Any) -> None:
    """A stops renewing (a process hung or cut off); B, started while A's lease was still
    good, leaves the room alone, then takes it once the lease ran out, rebuilding it from the
    log; A's next action is refused; the match finishes on B and its log replays to the
    final state B showed."""
    rng = random.Random(11)
    app_a = app_factory(url, **FAST)
    app_a.state.rooms.seed_factory = lambda: SEED
    with _serving(app_a) as client_a, table_cls(client_a, 3, {"manches": 2}) as table:
        code = table.code
        table.connect()
        for _ in range(10):
            assert table.step(rng)
        acknowledged = len(_logged(url, code))
        hands = [p.last_state["view"]["hand"] for p in table.players]
        client_a.portal.call(app_a.state.rooms.keeper.stop)  # A hangs: no more renewals
        app_b = app_factory(url, **FAST)
        with _serving(app_b) as client_b:
            assert app_b.state.rooms.get(code) is None  # A's lease had not run out yet
            _wait(lambda: app_b.state.rooms.get(code) is not None)
            assert _lease(url, code)[:2] == (app_b.state.rooms.leases.owner, 2)
            _actor, answer = _refused_turn(table)
            assert answer["type"] == "error" and answer["code"] == "room_moved", answer
            assert app_a.state.rooms.get(code) is None
            assert len(_logged(url, code)) == acknowledged
            table.close()
            table.client, table.stack = client_b, contextlib.ExitStack()
            try:
                table.players = [player_cls(client_b, code, token, seat, table.stack)
                                 for seat, token in enumerate(table.tokens)]
                for player, hand in zip(table.players, hands, strict=True):
                    state = player.recv_until(lambda m: m["type"] == "state")[-1]
                    assert state["view"]["hand"] == hand
                final = table.play_to_end(rng)
            finally:
                table.close()  # B's sockets, before B stops
    state, _ = start_match(MatchConfig(seats=3, manches=2, first_player=None), SEED)
    game = get_game("yanniv")
    for action in _logged(url, code):
        state, _ = apply(state, game.decode_action(action).action)
    assert state.finished
    assert list(state.scores) == final["view"]["scores"]
    assert list(state.ranking) == final["view"]["ranking"]


def test_a_graceful_stop_hands_the_rooms_over_at_once(
        app_factory: Callable[..., FastAPI], url: str) -> None:
    """A stopping lets its leases go: B, started right after, serves the room at once,
    though the lease would have lasted another minute."""
    slow = {**FAST, "lease_seconds": 60.0}
    app_a = app_factory(url, **slow)
    with _serving(app_a) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
        client.post(f"/api/rooms/{code}/join", json={"pseudo": "Bob"})
    assert _lease(url, code)[2] == 0
    app_b = app_factory(url, **slow)
    with _serving(app_b) as client:
        room = app_b.state.rooms.get(code)
        assert room is not None and [s.pseudo for s in room.seats] == ["Léa", "Bob"]
        assert room.lease_epoch == 2


def test_a_lone_process_takes_every_lease_at_start(
        app_factory: Callable[..., FastAPI], url: str) -> None:
    """Alone (the default), a process starting serves every live room even if the lease of
    the process before it (killed a moment ago) has not run out; in a cluster it waits."""
    app = app_factory(url)
    with _serving(app) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
    far = int(time.time() * 1000) + 3_600_000
    _sql(url, "UPDATE room_leases SET owner = 'killed', expires_ms = :t WHERE room_code = :c",
         t=far, c=code)
    with _serving(app_factory(url, **FAST)) as client:
        assert client.app.state.rooms.get(code) is None  # type: ignore[attr-defined]
    assert _lease(url, code)[0] == "killed"
    alone = app_factory(url)
    with _serving(alone):
        assert alone.state.rooms.get(code) is not None
        owner, epoch, _ = _lease(url, code)
        assert owner == alone.state.rooms.leases.owner and epoch == 2


@pytest.mark.parametrize("mode", [{}, FAST], ids=["alone", "cluster"])
def test_rooms_stored_without_a_lease_get_one(app_factory: Callable[..., FastAPI],
                                              url: str, mode: dict[str, Any]) -> None:
    """A live room whose lease row is missing (stored by hand or by older code) is served,
    by a lone process or by one of a cluster."""
    app = app_factory(url)
    with _serving(app) as client:
        code = client.post("/api/rooms", json={"pseudo": "Léa"}).json()["code"]
    _sql(url, "DELETE FROM room_leases WHERE room_code = :c", c=code)
    again = app_factory(url, **mode)
    with _serving(again):
        assert again.state.rooms.get(code) is not None
        assert _lease(url, code)[:2] == (again.state.rooms.leases.owner, 1)


def _steal(url: str, code: str) -> None:
    _sql(url, "UPDATE room_leases SET owner = 'process-b', epoch = epoch + 1 "
              "WHERE room_code = :c", c=code)


def _clocks_stop_at_the_old_owner(app: FastAPI, client: TestClient, url: str, code: str,
                                  token: str, player_cls: Any) -> None:
    """The lease is stolen right after the start; the room's own clock (a deadline, a bot's
    turn) then tries to write at A: refused, the room dropped, its clocks gone, nothing
    logged, the person's socket closed for a reconnect."""
    rooms = app.state.rooms
    with contextlib.ExitStack() as stack:
        human = player_cls(client, code, token, 0, stack)
        human.recv()
        started = client.post(f"/api/rooms/{code}/start", headers={"X-Seat-Token": token})
        assert started.status_code == 200, started.text
        _steal(url, code)
        assert _closed_with(human) == 1012
    assert rooms.get(code) is None
    assert not rooms.timers._handles and not rooms.bot_turns._handles
    assert _logged(url, code) == []


def test_a_deadline_at_the_old_owner_writes_nothing(app_factory: Callable[..., FastAPI],
                                                    url: str, player_cls: Any) -> None:
    # 10 s decisions in 1 s: the steal must come first, even on a slow, loaded machine.
    app = app_factory(url, timer_scale=0.1)
    with _serving(app) as client:
        client.portal.call(app.state.rooms.keeper.stop)  # the write alone must find out
        host = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
        client.post(f"/api/rooms/{host['code']}/join", json={"pseudo": "Bob"})
        client.patch(f"/api/rooms/{host['code']}/settings", json={"timer_seconds": 10},
                     headers={"X-Seat-Token": host["token"]})
        _clocks_stop_at_the_old_owner(app, client, url, host["code"], host["token"],
                                      player_cls)


def test_a_bot_turn_at_the_old_owner_writes_nothing(app_factory: Callable[..., FastAPI],
                                                    url: str, player_cls: Any) -> None:
    app = app_factory(url, bot_delay_scale=0.3)
    with _serving(app) as client:
        client.portal.call(app.state.rooms.keeper.stop)  # the write alone must find out
        host = client.post("/api/rooms", json={"pseudo": "Léa"}).json()
        seat = {"X-Seat-Token": host["token"]}
        client.post(f"/api/rooms/{host['code']}/bots", json={"level": "facile"}, headers=seat)
        client.patch(f"/api/rooms/{host['code']}/settings", json={"first_player": 1},
                     headers=seat)
        _clocks_stop_at_the_old_owner(app, client, url, host["code"], host["token"],
                                      player_cls)


@pytest.mark.parametrize("timer", [None, 10])
def test_the_fence_adds_no_statement_to_an_action(app_factory: Callable[..., FastAPI],
                                                  url: str, table_cls: Any, timer: int | None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An action's write is two statements (the log row, fenced; the deadline; without a
    timer, a deadline that stays None is not written, so one), on PostgreSQL one (both as
    parts of one `WITH`): the fence rides in the log row's insert, no lease read or lock
    beside it, the room's own row is not written, and no transaction around the one
    statement on PostgreSQL (BEGIN and COMMIT would be two more round trips). The group
    commit talks to its driver connection directly (PostgreSQL's an async one, on the loop),
    so the statements are recorded there (a cursor that notes what it is given), and through
    SQLAlchemy for any other write."""
    from sqlalchemy import event

    app = app_factory(url)
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement.split(None, 1)[0].upper())

    class RecordingCursor:
        def __init__(self, real: Any) -> None:
            self.real = real

        def execute(self, statement: str, *args: Any) -> Any:
            seen.append(statement.split(None, 1)[0].upper())
            return self.real.execute(statement, *args)

        def executemany(self, statement: str, *args: Any) -> Any:
            seen.append(statement.split(None, 1)[0].upper())
            return self.real.executemany(statement, *args)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    class RecordingConnection:
        def __init__(self, real: Any) -> None:
            self.real = real

        def cursor(self) -> Any:
            return RecordingCursor(self.real.cursor())

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    with (_serving(app) as client,
          table_cls(client, 2, {"timer_seconds": timer}) as table):
        client.portal.call(app.state.rooms.keeper.stop)  # no renewal in the count
        table.connect()
        engine = app.state.db.engine
        store = app.state.rooms.store
        log_connection = store._log_connection
        log_connection.close()
        monkeypatch.setattr(log_connection, "connect",
                            lambda: RecordingConnection(engine.raw_connection()))
        here_connection = store._here_connection  # SQLite's, on the event loop
        if here_connection is not None:
            here_connection.close()
            real_here = here_connection.connect
            monkeypatch.setattr(here_connection, "connect",
                                lambda: RecordingConnection(real_here()))
        loop_connection = store._loop_connection  # PostgreSQL's, on the event loop
        if loop_connection is not None:
            client.portal.call(loop_connection.close)
            real_connect = loop_connection.connect

            async def recording_connect() -> Any:
                return RecordingConnection(await real_connect())

            monkeypatch.setattr(loop_connection, "connect", recording_connect)
        event.listen(engine, "before_cursor_execute", record)
        try:
            assert table.step(random.Random(1))
        finally:
            event.remove(engine, "before_cursor_execute", record)
    if url.startswith("postgresql"):
        assert seen == ["WITH"]
    else:
        expected = ["INSERT"] + (["UPDATE"] if timer is not None else [])
        assert [s for s in seen if s not in ("BEGIN", "COMMIT")] == expected
