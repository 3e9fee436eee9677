"""The per-action statements of the group commit as driver SQL, compiled once per dialect.

An action's write is three `executemany` per batch (the rooms' fenced versions, the log rows,
the matches' deadlines). Through SQLAlchemy's Core `execute`, each of them pays, per row, the
bind-parameter processing (a Python function per value, `json.dumps` for the action) and, per
call, the compiled statement's execution context: under load that was most of the database
thread's hold on the GIL, which the event loop then waits for. Here the statements are
compiled by SQLAlchemy once (same SQL, same fence), and the rows are handed to the driver as
tuples or dicts whose values are already in the driver's terms: the action as JSON text
(orjson), datetimes as SQLAlchemy's SQLite dialect stores them (its own bind processor, so the
rows read back exactly as the ORM's), or as they are for psycopg.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect, Engine
from sqlalchemy.sql import ClauseElement


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
class ArrayStatement:
    """One statement for a whole batch, its rows passed as one array per column
    (PostgreSQL's `unnest`): one execution and one plan per batch instead of one per row,
    which is where the backend spent its time under `executemany`."""

    sql: str
    columns: tuple[str, ...]

    def params(self, rows: Sequence[dict[str, Any]]) -> list[Any]:
        return [{name: [row[name] for row in rows] for name in self.columns}]


#: The group commit's statements on PostgreSQL, the same three as SQLAlchemy compiles them
#: for any other database (`store._SET_ROOM_VERSION`, `_INSERT_ACTION`, `_SET_DEADLINE`: the
#: same fence, a row per action), written over arrays. Tested against the compiled ones by
#: the restart and fencing tests, which run on both databases.
PG_ROOM_VERSIONS = ArrayStatement(
    "UPDATE rooms SET status = u.status, version = u.version, updated_at = u.updated_at "
    "FROM unnest(%(b_code)s::varchar[], %(b_status)s::varchar[], %(b_version)s::integer[], "
    "%(b_updated_at)s::timestamptz[], %(b_epoch)s::integer[]) "
    "AS u(code, status, version, updated_at, epoch) "
    "WHERE rooms.code = u.code AND EXISTS (SELECT room_leases.room_code FROM room_leases "
    "WHERE room_leases.room_code = u.code AND room_leases.owner = (%(b_owner)s::varchar[])[1] "
    "AND room_leases.epoch = u.epoch FOR KEY SHARE)",
    ("b_code", "b_status", "b_version", "b_updated_at", "b_epoch", "b_owner"))
PG_INSERT_ACTIONS = ArrayStatement(
    "INSERT INTO room_actions (match_id, step, seat, version, action, client_id, by_timer, "
    "created_at) SELECT * FROM unnest(%(match_id)s::integer[], %(step)s::integer[], "
    "%(seat)s::integer[], %(version)s::integer[], %(action)s::text[]::json[], "
    "%(client_id)s::varchar[], %(by_timer)s::boolean[], %(created_at)s::timestamptz[])",
    ("match_id", "step", "seat", "version", "action", "client_id", "by_timer", "created_at"))
PG_DEADLINES = ArrayStatement(
    "UPDATE room_matches SET deadline_ms = u.deadline_ms FROM unnest(%(b_id)s::integer[], "
    "%(b_deadline_ms)s::bigint[]) AS u(id, deadline_ms) WHERE room_matches.id = u.id",
    ("b_id", "b_deadline_ms"))


def compile_statement(statement: ClauseElement, dialect: Dialect) -> DriverStatement:
    compiled = statement.compile(dialect=dialect)
    order = compiled.positiontup
    return DriverStatement(compiled.string, tuple(order) if order is not None else None)


def datetime_to_driver(dialect: Dialect) -> Callable[[Any], Any]:
    """How this dialect's `DateTime(timezone=True)` hands a datetime to its driver."""
    process = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
    return process if process is not None else _same


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

    def run(self, steps: Sequence[tuple[DriverStatement | ArrayStatement,
                                        Sequence[dict[str, Any]]]],
            check: Callable[[int, int], None]) -> None:
        """Run each statement over its rows in one transaction and commit; `check(i,
        rowcount)` after each may raise to roll the whole transaction back."""
        if self._conn is None:
            self._conn = self.connect()
        conn = self._conn
        try:
            cursor = conn.cursor()
            try:
                for i, (statement, rows) in enumerate(steps):
                    params = statement.params(rows)
                    if len(params) == 1:  # psycopg's executemany sets up a pipeline
                        cursor.execute(statement.sql, params[0])
                    else:
                        cursor.executemany(statement.sql, params)
                    check(i, cursor.rowcount)
            finally:
                cursor.close()
            conn.commit()
        except BaseException:
            self._discard()
            raise

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
