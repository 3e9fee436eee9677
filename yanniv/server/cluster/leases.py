"""Room leases in the database (docs/cluster.md): which process serves each room, and the fence
that keeps every other process from writing it.

A lease row is (room, owner, epoch, expiry). A process takes a lease by setting itself as owner
with epoch + 1; every write of a room carries `held_by()` (owner and epoch still ours) in the
statement that saves the room's row, so a process whose lease was taken writes nothing: its
transaction is rolled back and `LeaseLost` raised. On PostgreSQL the check locks the lease row
`FOR KEY SHARE` and a take-over (`claim`, the one statement that changes an owner or an epoch)
locks it `FOR UPDATE`, which conflict: a take-over waits for a write in flight, and a write
waits for a take-over in flight and then sees the new owner. So whatever a process wrote under
its lease is committed before the next owner reads the room. Renewals and releases change
neither owner nor epoch and take no lock the writes wait for. SQLite runs one writer at a time.

Expiries are read and set in the database's clock (`db_now_ms`), never a process's: processes
on several machines agree on when a lease ran out whatever their clocks say. The expiry only
decides when another process may take the lease; safety rests on the epoch alone.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import orjson
from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Connection,
    Engine,
    Table,
    bindparam,
    exists,
    insert,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from yanniv.server.store.models import RoomLeaseRow, RoomRow

_LEASES: Table = RoomLeaseRow.__table__  # type: ignore[assignment]
_ROOMS: Table = RoomRow.__table__  # type: ignore[assignment]
#: Codes per release statement (well under SQLite's limit on bound values).
CHUNK = 500


class LeaseLost(Exception):
    """The room's lease is no longer this process's: another one serves the room now."""


@dataclass(frozen=True)
class Holder:
    """Who holds a live room's lease, where it serves (`owner_url`, maybe empty), and whether
    the lease still runs (`live`: not yet expired, so that process serves the room)."""

    owner: str
    url: str
    live: bool


class db_now_ms(FunctionElement[int]):  # an SQL function, named like one
    """The database's clock, in epoch milliseconds."""

    type = BigInteger()
    inherit_cache = True


#: `db_now_ms` in each dialect's SQL.
_NOW = {
    "postgresql": "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
    "sqlite": "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
}


@compiles(db_now_ms, "postgresql")
def _now_postgresql(_element: db_now_ms, _compiler: SQLCompiler, **_kw: Any) -> str:
    return _NOW["postgresql"]


@compiles(db_now_ms, "sqlite")
def _now_sqlite(_element: db_now_ms, _compiler: SQLCompiler, **_kw: Any) -> str:
    return _NOW["sqlite"]


class _RenewSQL(NamedTuple):
    """`Leases.renew`'s two statements in one dialect, with `:name` parameters (SQLite's
    driver takes them as they are; SQLAlchemy's `text` too, in any dialect)."""

    update: str
    gone: str


def _renew_statements(now: str, pairs: str, values: str) -> _RenewSQL:
    """`pairs` reads the JSON object `:held` (code → epoch) as rows (key, value), `values`
    the JSON array `:listed` as rows (value)."""
    return _RenewSQL(
        update=(
            f"UPDATE room_leases SET expires_ms = {now} + :ttl,"
            f" listed = room_code IN (SELECT value FROM {values})"
            f" WHERE owner = :owner AND room_code IN (SELECT key FROM {pairs})"),
        gone=(
            f"SELECT h.key FROM {pairs} AS h WHERE NOT EXISTS (SELECT 1 FROM room_leases AS l"
            " WHERE l.room_code = h.key AND l.owner = :owner"
            " AND l.epoch = CAST(h.value AS INTEGER))"),
    )


_RENEW = {
    "sqlite": _renew_statements(_NOW["sqlite"], "json_each(:held)", "json_each(:listed)"),
    "postgresql": _renew_statements(_NOW["postgresql"], "jsonb_each_text(CAST(:held AS jsonb))",
                                    "jsonb_array_elements_text(CAST(:listed AS jsonb))"),
}


def process_id() -> str:
    """A fresh id for this serving process: its host and pid (for people reading the table)
    and a random part (a restarted process, even with the same pid, is a new owner)."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def held_by() -> ColumnElement[bool]:
    """The fence: the room's lease is still (`b_owner`, `b_epoch`); bound with `b_code`.
    Locks the lease row on PostgreSQL until the transaction ends (see the module's text)."""
    return exists(
        select(_LEASES.c.room_code)
        .where(_LEASES.c.room_code == bindparam("b_code"),
               _LEASES.c.owner == bindparam("b_owner"),
               _LEASES.c.epoch == bindparam("b_epoch"))
        .with_for_update(read=True, key_share=True)
    )


def _live(since: datetime) -> ColumnElement[bool]:
    """Rooms a process serves: waiting or playing, or finished since `since` (a rematch)."""
    return or_(_ROOMS.c.status.in_(("waiting", "playing")),
               (_ROOMS.c.status == "finished") & (_ROOMS.c.updated_at >= since))


class Leases:
    """This process's leases: blocking calls, run in the database threads (a renewal on
    SQLite also on the event loop, on the group commit's connection)."""

    def __init__(self, engine: Engine, owner: str, ttl_ms: int, url: str = "") -> None:
        self.engine = engine
        self.owner = owner
        self.ttl_ms = ttl_ms
        #: Where this process serves (written with every lease it takes), for routing.
        self.url = url

    def fence(self, code: str, epoch: int) -> dict[str, Any]:
        """The bound values of `held_by()` for one room."""
        return {"b_code": code, "b_owner": self.owner, "b_epoch": epoch}

    def insert(self, conn: Connection, code: str) -> int:
        """The lease of a room just created, in its creating transaction; returns its epoch."""
        conn.execute(insert(_LEASES).values(room_code=code, owner=self.owner, epoch=1,
                                            expires_ms=db_now_ms() + self.ttl_ms,
                                            owner_url=self.url))
        return 1

    def add_missing(self, since: datetime) -> None:
        """A free, expired lease for each live room without one (stored by hand, or by code
        older than the leases), so it can be claimed; run at start. Two processes starting
        together insert each row once."""
        missing = (select(_ROOMS.c.code, literal(""), literal(0), literal(0))
                   .where(_live(since), ~exists().where(_LEASES.c.room_code == _ROOMS.c.code)))
        with self.engine.begin() as conn:
            dialect_insert = postgresql.insert if conn.dialect.name == "postgresql" else (
                sqlite.insert)
            conn.execute(dialect_insert(_LEASES).from_select(
                ["room_code", "owner", "epoch", "expires_ms"], missing).on_conflict_do_nothing())

    def claim(self, since: datetime, steal: bool, limit: int | None = None) -> dict[str, int]:
        """Take the leases of live rooms (`_live`) held by another process that ran out, or
        with `steal` every one (a single process starting: whatever held them before is gone
        or must be fenced off); returns code → new epoch. The rows are locked `FOR UPDATE`
        first (waiting for writes in flight) and checked again once locked, so two claimers
        take a lease once. Our own expired leases are left to the renewal: the rooms are in
        our memory, and nobody wrote them since."""
        with self.engine.begin() as conn:
            taken = [_LEASES.c.expires_ms < db_now_ms(), _LEASES.c.owner != self.owner]
            candidates = (select(_LEASES.c.room_code)
                          .join(_ROOMS, _ROOMS.c.code == _LEASES.c.room_code)
                          .where(_live(since), *([] if steal else taken))
                          .limit(limit)
                          .with_for_update(of=_LEASES))
            statement = (
                update(_LEASES)
                .where(_LEASES.c.room_code.in_(candidates.scalar_subquery()),
                       *([] if steal else taken))
                .values(owner=self.owner, epoch=_LEASES.c.epoch + 1,
                        expires_ms=db_now_ms() + self.ttl_ms, owner_url=self.url,
                        listed=False)
                .returning(_LEASES.c.room_code, _LEASES.c.epoch)
            )
            return {code: epoch for code, epoch in conn.execute(statement)}

    def renew(self, held: dict[str, int], listed: Iterable[str] = (),
              cursor: Any = None) -> set[str]:
        """Extend the leases of `held` (code → epoch) still ours; returns those codes. A lease
        that ran out but nobody took is renewed too: its epoch proves nobody wrote since.
        The same statement marks which of them we list among the public rooms (`listed`).
        In a transaction of its own, or of SQLite's `cursor` (on the event loop, where the
        group commit writes: `RoomStore.renew_leases_here`).

        Two statements whatever the number of rooms, the codes passed as one JSON value, each
        run in one step of the driver: the update, then the read of the codes no longer ours
        (none, nearly always). A statement per chunk of codes, returning a row per room, had
        held SQLite's write lock for 20-45 ms at 2,000 rooms under load."""
        if not held:
            return set()
        sql = _RENEW[self.engine.dialect.name]
        params = {"owner": self.owner, "ttl": self.ttl_ms,
                  "held": orjson.dumps(held).decode(),
                  "listed": orjson.dumps([code for code in listed if code in held]).decode()}
        if cursor is not None:
            cursor.execute(sql.update, params)
            gone = {code for (code,) in cursor.execute(sql.gone, params)}
        else:
            with self.engine.begin() as conn:
                conn.execute(text(sql.update), params)
                gone = {code for (code,) in conn.execute(text(sql.gone), params)}
        return held.keys() - gone

    def release(self, codes: Iterable[str]) -> None:
        """Let the leases of `codes` run out now (a graceful stop): another process takes them
        at its next claim instead of waiting for the expiry. Owner and epoch stay: a write of
        ours still in flight is fenced by them, not by the expiry."""
        codes = list(codes)
        with self.engine.begin() as conn:
            for start in range(0, len(codes), CHUNK):
                conn.execute(
                    update(_LEASES)
                    .where(_LEASES.c.owner == self.owner,
                           _LEASES.c.room_code.in_(codes[start:start + CHUNK]))
                    .values(expires_ms=0, listed=False)
                )

    def locate(self, code: str, since: datetime) -> Holder | None:
        """Who holds the lease of the live room `code` (`_live`), or None: no such room, or
        no longer served. One primary-key read, made only for a room not in our memory."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(_LEASES.c.owner, _LEASES.c.owner_url, _LEASES.c.expires_ms > db_now_ms())
                .join(_ROOMS, _ROOMS.c.code == _LEASES.c.room_code)
                .where(_LEASES.c.room_code == code, _live(since))
            ).first()
        return None if row is None else Holder(row[0], row[1], bool(row[2]))

    def ping(self) -> None:
        """Raise unless the database answers (readiness)."""
        with self.engine.connect() as conn:
            conn.execute(select(db_now_ms()))
