"""Migration 0001 creates exactly the server's tables as the models declare them."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

import yanniv.server.models  # noqa: F401  (tables on Base.metadata)
from yanniv.db.base import Base
from yanniv.db.session import Database

SERVER_TABLES = {"rooms", "room_seats", "room_matches", "room_actions"}


def _table_of(diff: object) -> str | None:
    item = diff[0] if isinstance(diff, list) else diff
    for part in item[1:] if isinstance(item, tuple) else ():
        name = getattr(part, "name", None) if not isinstance(part, str) else part
        table = getattr(part, "table", None)
        if table is not None and getattr(table, "name", None):
            return table.name
        if name in SERVER_TABLES:
            return name
    return None


def test_models_match_migrations(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    try:
        db.upgrade()
        with db.engine.connect() as conn:
            diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        ours = [d for d in diffs if _table_of(d) in SERVER_TABLES]
        assert ours == []
    finally:
        db.close()
