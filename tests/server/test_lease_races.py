"""The fence under concurrency, on PostgreSQL (docs/cluster.md): a take-over waits for the
old owner's write in flight (so the new owner reads it), and a write that arrives while a
take-over is in flight waits for it and is then refused. SQLite has one writer at a time,
so only the sequential cases (tests/server/test_leases.py) apply there."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from yanniv.db.session import Database
from yanniv.server.leases import LeaseLost, Leases
from yanniv.server.store import RoomStore

CODE = "RACE42"


def _room(version: int, epoch: int) -> dict[str, Any]:
    now = datetime.now(UTC)
    return {"code": CODE, "game": "yanniv", "public": False, "status": "waiting",
            "host_seat": 0, "settings": {}, "version": version, "created_at": now,
            "updated_at": now, "lease_epoch": epoch}


def _seat() -> dict[str, Any]:
    return {"seat": 0, "pseudo": "Léa", "token_hash": "0" * 64, "owner_hash": None,
            "joined_at": datetime.now(UTC), "bot_level": None}


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

    with db.engine.connect() as conn:
        transaction = conn.begin()
        # A take-over as `Leases.claim` makes one: the row locked FOR UPDATE, then moved.
        conn.execute(text("SELECT 1 FROM room_leases WHERE room_code = :c FOR UPDATE"),
                     {"c": CODE})
        conn.execute(text("UPDATE room_leases SET owner = 'B', epoch = epoch + 1 "
                          "WHERE room_code = :c"), {"c": CODE})
        writer = threading.Thread(target=write)
        writer.start()
        writer.join(0.5)
        assert writer.is_alive(), "A's write must wait for the take-over in flight"
        transaction.commit()
    writer.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], LeaseLost)
    with db.engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM rooms")).scalar() == 1
