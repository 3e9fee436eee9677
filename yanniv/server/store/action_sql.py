"""The per-action statements of the group commit as driver SQL, compiled once per dialect.

An action's write is, per batch, two `executemany` (the log rows, fenced on the rooms' leases;
the matches' deadlines, left out when no deadline of the batch changes from None) in one
transaction, or on PostgreSQL one statement over the batch as JSON that does both
(`PG_APPEND_ACTIONS`). Through SQLAlchemy's Core `execute`, each of
them pays, per row, the bind-parameter processing (a Python function per value, `json.dumps`
for the action) and, per call, the compiled statement's execution context: under load that
was most of the database thread's hold on the GIL, which the event loop then waits for. Here
the statements are compiled by SQLAlchemy once (same SQL, same fence), and the rows are handed
to the driver as tuples whose values are already in the driver's terms: the action as JSON
text (orjson), datetimes as SQLAlchemy's SQLite dialect stores them (its own bind processor,
so the rows read back exactly as the ORM's); PostgreSQL's batch is one JSON text (orjson).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

import orjson
from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.sql import ClauseElement

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DriverStatement:
    """One statement as the driver takes it: its SQL and how a row of named values becomes
    the driver's parameters (a tuple in bind order for `?` styles, else the dict itself)."""

    sql: str
    order: tuple[str, ...] | None

    def params(self, rows: Sequence[dict[str, Any]]) -> list[Any]:
        order = self.order
        if order is None:
            return list(rows)
        return [tuple(row[name] for name in order) for row in rows]


@dataclass(frozen=True, slots=True)
class RecordsetStatement:
    """One statement for a whole batch, its rows passed as one JSON array of objects that
    PostgreSQL turns back into rows (`json_to_recordset`): one execution and one plan per
    batch, and one parameter for the driver. Passed as one array per column instead, psycopg
    wrote every element of every array in Python (its list dumper: a call and a regular
    expression per value), half of what a batch cost the event loop; orjson writes the whole
    batch in C, datetimes included (ISO 8601 with their offset, as PostgreSQL reads them)."""

    sql: str

    def params(self, rows: Sequence[dict[str, Any]], owner: str) -> dict[str, str]:
        return {"rows": orjson.dumps(rows).decode(), "owner": owner}


#: The whole group commit on PostgreSQL as one statement, run outside any explicit transaction
#: (one round trip and one commit per batch, where BEGIN, the statements and COMMIT took
#: several, each paid by the backend and by the database thread's hold on the GIL). Each log
#: row is fenced as `leases.held_by` fences it (its room's lease, locked `FOR KEY SHARE`); a
#: room whose fence fails writes nothing (its deadline joins on the rows logged), the others
#: commit, and the statement returns the matches it logged. A row's `action` is the action's
#: JSON itself (not a string of it): `json_to_recordset` hands it to its `json` column as the
#: text it was written as. The rooms' own rows are not written (`store._INSERT_ACTION_FENCED`).
PG_APPEND_ACTIONS = RecordsetStatement(
    "WITH u AS (SELECT * FROM json_to_recordset(%(rows)s::json) AS u(code varchar, "
    "epoch integer, match_id integer, step integer, seat integer, version integer, "
    "action json, client_id varchar, by_timer boolean, created_at timestamptz, "
    "deadline_ms bigint)), "
    "logged AS (INSERT INTO room_actions (match_id, step, seat, version, action, client_id, "
    "by_timer, created_at) SELECT u.match_id, u.step, u.seat, u.version, u.action, u.client_id, "
    "u.by_timer, u.created_at FROM u WHERE EXISTS (SELECT room_leases.room_code FROM "
    "room_leases WHERE room_leases.room_code = u.code AND room_leases.owner = "
    "%(owner)s::varchar AND room_leases.epoch = u.epoch FOR KEY SHARE) "
    "RETURNING room_actions.match_id), "
    "timed AS (UPDATE room_matches SET deadline_ms = u.deadline_ms FROM u JOIN logged "
    "ON logged.match_id = u.match_id WHERE room_matches.id = u.match_id "
    "AND room_matches.deadline_ms IS DISTINCT FROM u.deadline_ms) "
    "SELECT match_id FROM logged")


def compile_statement(statement: ClauseElement, dialect: Dialect) -> DriverStatement:
    compiled = statement.compile(dialect=dialect)
    order = compiled.positiontup
    return DriverStatement(compiled.string, tuple(order) if order is not None else None)


#: SQLAlchemy's SQLite `DATETIME` text, unless a type overrides it (`_storage_format`).
_SQLITE_DATETIME = ("%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d"
                    ".%(microsecond)06d")


def datetime_to_driver(dialect: Dialect) -> Callable[[Any], Any]:
    """How this dialect's `DateTime(timezone=True)` hands a datetime to its driver: on SQLite
    the same text as its bind processor, written by `isoformat` in C (the processor's dict
    and `%` formatting cost as much as the rest of an action's row)."""
    impl = DateTime(timezone=True).dialect_impl(dialect)
    process = impl.bind_processor(dialect)
    if process is None:
        return _same
    if getattr(impl, "_storage_format", None) == _SQLITE_DATETIME:
        return sqlite_datetime_text
    return process


def sqlite_datetime_text(value: datetime | None) -> str | None:
    """`value` as SQLAlchemy's SQLite dialect stores it: `YYYY-MM-DD HH:MM:SS.ffffff`, its
    offset (if any) left out (`tests/server/test_action_sql.py` checks it against the
    dialect's own processor)."""
    return None if value is None else value.isoformat(" ", "microseconds")[:26]


def flag_to_driver(dialect: Dialect) -> Callable[[Any], Any]:
    """How this dialect's driver best takes a `Boolean`: on SQLite as the integer it stores
    (what SQLAlchemy's own processor hands it). The `sqlite3` module binds only exact ints,
    floats, strings and byte arrays without its adaptation protocol; anything else (a bool,
    None) costs a failed look-up of `__adapt__` on a type, i.e. a formatted and discarded
    `AttributeError`, per value."""
    return int if dialect.name == "sqlite" else _same


def json_text(value: Any) -> str:
    """A JSON column's value as the text the driver stores (read back with `json.loads`)."""
    return orjson.dumps(value).decode()


def _same(value: Any) -> Any:
    return value


class DriverConnection:
    """One driver connection kept out of the pool for the group commit's transactions (the
    writer runs one batch at a time): no pool check-out, no SQLAlchemy transaction object, per
    batch. Checked out of the engine's pool, so the dialect's connect-time set-up (SQLite's
    pragmas) applies; dropped and replaced after any error, as the pool would."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._conn: Any = None

    def run(self, steps: Sequence[tuple[DriverStatement, Sequence[dict[str, Any]]]],
            check: Callable[[int, int], None]) -> None:
        """Run each statement over its rows in one transaction and commit; `check(i,
        rowcount)` after each may raise to roll the whole transaction back. A statement
        without rows is not run (nor checked)."""

        def work(cursor: Any) -> None:
            for i, (statement, rows) in enumerate(steps):
                if not rows:
                    continue
                cursor.executemany(statement.sql, statement.params(rows))
                check(i, cursor.rowcount)

        self.transact(work)

    def transact(self, work: Callable[[Any], T]) -> T:
        """`work(cursor)` in one transaction, committed if it returns."""
        if self._conn is None:
            self._conn = self.connect()
        conn = self._conn
        try:
            cursor = conn.cursor()
            try:
                result = work(cursor)
            finally:
                cursor.close()
            conn.commit()
        except BaseException:
            self._discard()
            raise
        return result

    def connect(self) -> Any:
        """A driver connection from the engine's pool (its `_ConnectionFairy`)."""
        return self.engine.raw_connection()

    def _discard(self) -> None:
        conn, self._conn = self._conn, None
        try:
            conn.rollback()
            conn.close()  # back to the pool, which resets it
        except Exception:
            conn.invalidate()

    def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            conn.close()


class Busy(Exception):
    """The database was locked by another writer: nothing was written (`LoopSQLite`)."""


class LoopSQLite(DriverConnection):
    """SQLite's group commit on the event loop: a driver connection of its own, out of the
    pool, that never waits. Its busy timeout is 0: a batch that finds the database locked
    (a write of the database thread's in progress, such as a finished match's record) raises
    `Busy` at once, with nothing written, and is written by the thread instead. Its automatic
    checkpoint is off: the database thread runs them (`RoomStore.checkpoint`), so that the
    loop never copies the log into the database file and syncs it."""

    def connect(self) -> Any:
        conn = super().connect()
        conn.detach()  # its pragmas are its own: never handed to anyone else
        cursor = conn.cursor()
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()
        return conn

    def transact(self, work: Callable[[Any], T]) -> T:
        try:
            return super().transact(work)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise Busy from exc
            raise


class LoopConnection:
    """PostgreSQL's group commit on the event loop: one psycopg `AsyncConnection` of its own,
    in autocommit (each batch is one statement, `PG_APPEND_ACTIONS`, committed when it
    returns). No database thread: a batch costs no hand-off to a thread and back, and no wait
    for the GIL held by the loop (up to a switch interval each time the thread wakes). Made
    on first use, closed and made again after any error."""

    def __init__(self, engine: Engine) -> None:
        self.conninfo = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        self._conn: Any = None

    async def connect(self) -> Any:
        import psycopg  # only where the database is PostgreSQL

        return await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)

    async def run_one(self, statement: RecordsetStatement, rows: Sequence[dict[str, Any]],
                      owner: str) -> list[Any]:
        """Run one statement over the whole batch; its result rows, once committed."""
        if self._conn is None:
            self._conn = await self.connect()
        conn = self._conn
        try:
            cursor = conn.cursor()
            try:
                await cursor.execute(statement.sql, statement.params(rows, owner))
                return list(await cursor.fetchall())
            finally:
                await cursor.close()
        except BaseException:
            self._conn = None
            await _close_quietly(conn)
            raise

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await _close_quietly(conn)


async def _close_quietly(conn: Any) -> None:
    with contextlib.suppress(Exception):  # already broken: nothing more to give back
        await conn.close()
