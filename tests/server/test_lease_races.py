"""The fence under concurrency, on PostgreSQL (docs/cluster.md): a take-over waits for the
old owner's write in flight (so the new owner reads it), and a write that arrives while a
take-over is in flight waits for it and is then refused. SQLite has one writer at a time,
so only the sequential cases (tests/server/test_leases.py) apply there."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from yanniv.db.session import Database
from yanniv.server.cluster.leases import LeaseLost, Leases
from yanniv.server.store.action_sql import PG_APPEND_ACTIONS
from yanniv.server.store.room_store import RoomStore

CODE = "RACE42"


def _room(version: int, epoch: int) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {"code": CODE, "game": "yanniv", "public": False, "status": "waiting",
            "host_seat": 0, "settings": {}, "version": version, "created_at": now,
            "updated_at": now, "lease_epoch": epoch}


def _seat() -> dict[str, Any]:
    return {"seat": 0, "pseudo": "Léa", "token_hash": "0" * 64, "owner_hash": None,
            "joined_at": datetime.now(UTC), "bot_level": None}


def _during_a_take_over(db: Database, write: Callable[[], None], what: str) -> None:
    """Run `write` in a thread while B's take-over is in flight (as `Leases.claim` makes
    one: the lease row locked FOR UPDATE, then moved); it must wait until that commits."""
    with db.engine.connect() as conn:
        transaction = conn.begin()
        conn.execute(text("SELECT 1 FROM room_leases WHERE room_code = :c FOR UPDATE"),
                     {"c": CODE})
        conn.execute(text("UPDATE room_leases SET owner = 'B', epoch = epoch + 1 "
                          "WHERE room_code = :c"), {"c": CODE})
        writer = threading.Thread(target=write)
        writer.start()
        writer.join(0.5)
        assert writer.is_alive(), f"{what} must wait for the take-over in flight"
        transaction.commit()
    writer.join(10)


@pytest.fixture
def db(postgres_url: str) -> Any:
    database = Database(postgres_url)
    database.upgrade()
    yield database
    database.close()


@pytest.mark.postgres
def test_a_take_over_waits_for_the_write_in_flight(db: Database) -> None:
    leases_a = Leases(db.engine, "A", 60_000)
    store_a = RoomStore(db.sessions, leases_a)
    assert store_a.create_room(_room(1, 0), _seat()) == 1
    since = datetime.now(UTC) - timedelta(hours=1)
    taken: dict[str, int] = {}
    with db.engine.connect() as conn:
        transaction = conn.begin()
        store_a._save(conn, _room(2, 1))  # A's write, not yet committed
        claimer = threading.Thread(
            target=lambda: taken.update(Leases(db.engine, "B", 60_000).claim(since, True)))
        claimer.start()
        claimer.join(0.5)
        assert claimer.is_alive(), "B's take-over must wait for A's write"
        transaction.commit()
    claimer.join(10)
    assert taken == {CODE: 2}
    with db.engine.connect() as conn:  # what B reads next holds A's write
        assert conn.execute(text("SELECT version FROM rooms")).scalar() == 2


@pytest.mark.postgres
def test_a_write_during_a_take_over_waits_and_is_refused(db: Database) -> None:
    store_a = RoomStore(db.sessions, Leases(db.engine, "A", 60_000))
    store_a.create_room(_room(1, 0), _seat())
    outcome: list[BaseException | None] = []

    def write() -> None:
        try:
            store_a.update_room(_room(2, 1))
        except BaseException as exc:  # the outcome is what the test looks at
            outcome.append(exc)
        else:
            outcome.append(None)

    _during_a_take_over(db, write, "A's write")
    assert len(outcome) == 1 and isinstance(outcome[0], LeaseLost)
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM rooms")).scalar() == 1


def _match(db: Database) -> int:
    with db.engine.begin() as conn:
        return int(conn.execute(text(
            "INSERT INTO room_matches (room_code, seed, seats, manches, pseudos, status, "
            "started_at) VALUES (:c, 's', 2, 1, '[\"Léa\", \"Bob\"]', 'playing', now()) "
            "RETURNING id"), {"c": CODE}).scalar_one())


def _batch(conn: Any, match_id: int, epoch: int) -> list[int]:
    """The group commit's one statement (`PG_APPEND_ACTIONS`) for one action of A's, in
    `conn`'s transaction: the matches it logged."""
    row = {"code": CODE, "epoch": epoch, "match_id": match_id, "version": 2, "step": 0,
           "seat": 0, "action": {"type": "DrawPile"}, "client_id": "race",
           "by_timer": False, "created_at": datetime.now(UTC), "deadline_ms": None}
    result = conn.exec_driver_sql(PG_APPEND_ACTIONS.sql, PG_APPEND_ACTIONS.params([row], "A"))
    return [match for (match,) in result]


@pytest.mark.postgres
def test_a_take_over_waits_for_an_action_batch_in_flight(db: Database) -> None:
    """An action writes its log row alone (not its room's row), fenced in that insert: the
    lease row is locked all the same, so a take-over waits and then reads the row."""
    store_a = RoomStore(db.sessions, Leases(db.engine, "A", 60_000))
    epoch = store_a.create_room(_room(1, 0), _seat())
    match_id = _match(db)
    since = datetime.now(UTC) - timedelta(hours=1)
    taken: dict[str, int] = {}
    with db.engine.connect() as conn:
        transaction = conn.begin()
        assert _batch(conn, match_id, epoch) == [match_id]  # A's batch, not yet committed
        claimer = threading.Thread(
            target=lambda: taken.update(Leases(db.engine, "B", 60_000).claim(since, True)))
        claimer.start()
        claimer.join(0.5)
        assert claimer.is_alive(), "B's take-over must wait for A's batch"
        transaction.commit()
    claimer.join(10)
    assert taken == {CODE: epoch + 1}
    with db.engine.connect() as conn:  # what B replays holds A's action
        assert conn.execute(text("SELECT count(*) FROM room_actions")).scalar() == 1


@pytest.mark.postgres
def test_an_action_batch_during_a_take_over_waits_and_writes_nothing(db: Database) -> None:
    store_a = RoomStore(db.sessions, Leases(db.engine, "A", 60_000))
    epoch = store_a.create_room(_room(1, 0), _seat())
    match_id = _match(db)
    outcome: list[list[int]] = []

    def write() -> None:
        with db.engine.begin() as conn:
            outcome.append(_batch(conn, match_id, epoch))

    _during_a_take_over(db, write, "A's batch")
    assert outcome == [[]]  # the statement names no match: the writer reports the room lost
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM room_actions")).scalar() == 0
