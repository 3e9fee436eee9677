"""`action_sql.datetime_to_driver` and `flag_to_driver`: on SQLite, the fast forms of a
datetime and a bool are what SQLAlchemy's own bind processors write (the rows must read back
as the ORM's)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    Table,
    create_engine,
    insert,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite

from yanniv.server.store.action_sql import datetime_to_driver, flag_to_driver, sqlite_datetime_text


def test_sqlite_text_is_the_dialects_own() -> None:
    dialect = sqlite.dialect()
    reference = DateTime(timezone=True).dialect_impl(dialect).bind_processor(dialect)
    assert reference is not None
    assert datetime_to_driver(dialect) is sqlite_datetime_text
    rng = random.Random(5)
    moments = [datetime(2026, 12, 5, 10, 0, 1), datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
               datetime(999, 12, 31, 23, 59, 59, 999_999),
               datetime(2026, 6, 1, 0, 0, 0, 0, tzinfo=timezone(timedelta(hours=2)))]
    moments += [datetime(2000, 1, 1, tzinfo=UTC) + timedelta(microseconds=rng.randrange(10**17))
                for _ in range(500)]
    for moment in moments:
        assert sqlite_datetime_text(moment) == reference(moment), moment
    assert sqlite_datetime_text(None) is None


def test_postgresql_gets_the_datetime_itself() -> None:
    moment = datetime(2026, 12, 5, 10, 0, 1, tzinfo=UTC)
    assert datetime_to_driver(postgresql.dialect())(moment) is moment


def test_sqlite_flags_are_stored_as_sqlalchemy_stores_them() -> None:
    """A `Boolean` handed to SQLite's driver as `flag_to_driver` makes it (an int, which the
    driver binds without its adaptation protocol) is the value SQLAlchemy's own insert
    stores, and reads back through SQLAlchemy as the same bool."""
    engine = create_engine("sqlite://")
    flags = Table("flags", MetaData(), Column("id", Integer, primary_key=True),
                  Column("flag", Boolean))
    flags.metadata.create_all(engine)
    flag = flag_to_driver(engine.dialect)
    with engine.begin() as conn:
        conn.execute(insert(flags), [{"id": 1, "flag": True}, {"id": 2, "flag": False}])
        raw = conn.connection.driver_connection
        raw.executemany("INSERT INTO flags (id, flag) VALUES (?, ?)",
                        [(3, flag(True)), (4, flag(False))])
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT id, flag, typeof(flag) FROM flags ORDER BY id")).all()
        read = conn.execute(select(flags.c.flag).order_by(flags.c.id)).scalars().all()
    assert [tuple(row[1:]) for row in stored] == [(1, "integer"), (0, "integer")] * 2
    assert read == [True, False, True, False]
    assert flag_to_driver(postgresql.dialect())(True) is True
