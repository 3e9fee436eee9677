"""`action_sql.datetime_to_driver`: on SQLite, the fast text of a datetime is the text
SQLAlchemy's own bind processor writes (the rows must read back as the ORM's)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone

from sqlalchemy import DateTime
from sqlalchemy.dialects import postgresql, sqlite

from yanniv.server.action_sql import datetime_to_driver, sqlite_datetime_text


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
