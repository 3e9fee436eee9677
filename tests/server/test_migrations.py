"""The migrations build exactly the server's tables as the models declare them, and carry
existing rows over."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

import yanniv.server.models  # noqa: F401  (tables on Base.metadata)
from yanniv.db.base import Base
from yanniv.db.migrate import upgrade
from yanniv.db.session import Database
from yanniv.profiles.identity import hash_secret

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


@pytest.mark.parametrize("url_fixture", ["sqlite_url", "postgres_url"])
def test_owner_secrets_become_hashes(url_fixture: str, request: pytest.FixtureRequest) -> None:
    """0004 replaces each seat's raw owner secret by its hash (the one profiles store)."""
    db = Database(request.getfixturevalue(url_fixture))
    try:
        upgrade(db.engine, "0003")
        now = datetime.now(UTC)
        with db.engine.begin() as conn:
            conn.execute(text(
                "INSERT INTO rooms (code, public, status, host_seat, settings, version, "
                "created_at, updated_at) VALUES ('ABCDEF', false, 'waiting', 0, '{}', 1, :t, :t)"
            ), {"t": now})
            for seat, secret in enumerate(["secret-of-lea", None]):
                conn.execute(text(
                    "INSERT INTO room_seats (room_code, seat, pseudo, token_hash, owner_secret, "
                    "joined_at) VALUES ('ABCDEF', :seat, :pseudo, :token, :secret, :t)"
                ), {"seat": seat, "pseudo": f"p{seat}", "token": f"h{seat}", "secret": secret,
                    "t": now})
        upgrade(db.engine)
        with db.engine.connect() as conn:
            rows = conn.execute(
                text("SELECT seat, owner_hash FROM room_seats ORDER BY seat")
            ).all()
            columns = {c["name"] for c in inspect(conn).get_columns("room_seats")}
        assert [tuple(r) for r in rows] == [(0, hash_secret("secret-of-lea")), (1, None)]
        assert "owner_secret" not in columns
    finally:
        db.close()
